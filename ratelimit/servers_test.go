package ratelimit_test

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"

	"github.com/playground-dev/playground/ratelimit"
	"github.com/playground-dev/playground/ratelimit/redistest"
	"github.com/playground-dev/playground/sandbox"
	"github.com/playground-dev/playground/web"
	"github.com/playground-dev/playground/ws"
)

// okRunner finishes every run at once with outcome ok: this test is about
// who may start a run, not about running it.
type okRunner struct{}

func (okRunner) Run(ctx context.Context, req sandbox.Request, emit func(sandbox.Event)) (sandbox.Result, error) {
	return sandbox.Result{Outcome: sandbox.OutcomeOK}, nil
}

// instance is one server instance as cmd/playground would build it with
// -redis: its own Store and SharedLimiter, its own web.Server.
func instance(t *testing.T, redisURL string, burst int) (*httptest.Server, *ratelimit.Store) {
	t.Helper()
	store := newStore(t, redisURL, ratelimit.StoreConfig{ProbeInterval: time.Hour})
	lim := ratelimit.NewShared(store, "runs", ratelimit.Config{PerSecond: slow, Burst: burst})
	srv := web.NewServer(web.Config{
		Runner:                  okRunner{},
		Limiter:                 lim,
		Limits:                  ws.Limits{MaxFiles: 4, MaxSourceBytes: 1 << 10, MaxMessageBytes: 1 << 16, RunsPerSecond: lim.Config().PerSecond, RunBurst: lim.Config().Burst},
		InsecureSkipOriginCheck: true,
		Log:                     slog.New(slog.DiscardHandler),
	})
	hs := httptest.NewServer(srv)
	t.Cleanup(func() {
		srv.Close()
		srv.Wait(context.Background())
		hs.Close()
	})
	return hs, store
}

// client is one browser tab's socket.
type client struct {
	t *testing.T
	c *websocket.Conn
	n int
}

func dial(t *testing.T, ctx context.Context, hs *httptest.Server) *client {
	t.Helper()
	c, _, err := websocket.Dial(ctx, "ws"+strings.TrimPrefix(hs.URL, "http")+"/ws", nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.CloseNow() })
	return &client{t: t, c: c}
}

// run sends one run and returns its done's outcome.
func (cl *client) run(ctx context.Context) string {
	cl.t.Helper()
	cl.n++
	id := fmt.Sprintf("r%d", cl.n)
	b, _ := json.Marshal(map[string]any{"type": "run", "id": id, "files": []map[string]string{{"path": "main.js", "source": "1"}}})
	if err := cl.c.Write(ctx, websocket.MessageText, b); err != nil {
		cl.t.Fatal(err)
	}
	for {
		_, data, err := cl.c.Read(ctx)
		if err != nil {
			cl.t.Fatalf("reading run %s: %v", id, err)
		}
		var m struct{ Type, ID, Outcome, Kind, Message string }
		if err := json.Unmarshal(data, &m); err != nil {
			cl.t.Fatal(err)
		}
		if m.Type == "error" && m.ID == id {
			cl.t.Errorf("run %s: error event %s %q", id, m.Kind, m.Message)
		}
		if m.Type == "done" && m.ID == id {
			return m.Outcome
		}
	}
}

// TestTwoServersOneBurst: two server instances (web.Server, sessions and
// all) and one Redis give one client IP one burst; killing Redis mid-test
// fails no run.
func TestTwoServersOneBurst(t *testing.T) {
	r := redistest.Start(t)
	const burst = 4
	a, storeA := instance(t, r.URL(), burst)
	b, storeB := instance(t, r.URL(), burst)
	ctx, cancel := context.WithTimeout(t.Context(), 30*time.Second)
	defer cancel()
	tabA, tabB := dial(t, ctx, a), dial(t, ctx, b) // one client IP (127.0.0.1), a tab on each instance

	counts := map[string]int{}
	for i := range 12 {
		tab := tabA
		if i%2 == 1 {
			tab = tabB
		}
		counts[tab.run(ctx)]++
	}
	if counts["ok"] != burst || counts["rate_limited"] != 12-burst {
		t.Errorf("12 runs over two instances: %v; want %d ok and the rest rate_limited (one shared burst)", counts, burst)
	}

	r.Kill() // Redis dies with both tabs open
	counts = map[string]int{}
	for i := range 4 {
		tab := tabA
		if i%2 == 1 {
			tab = tabB
		}
		counts[tab.run(ctx)]++
	}
	if counts["ok"] != 4 {
		t.Errorf("runs with redis dead: %v; want all 4 ok (each instance's in-process bucket of %d)", counts, burst)
	}
	for name, s := range map[string]*ratelimit.Store{"a": storeA, "b": storeB} {
		if s.Up() || s.Fallbacks() != 1 {
			t.Errorf("instance %s: Up = %v, Fallbacks = %d; want false, 1", name, s.Up(), s.Fallbacks())
		}
	}
}
