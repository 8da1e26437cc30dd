package main

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/playground-dev/playground/sandbox/worker"
	"github.com/playground-dev/playground/ws/wstest"
	"go.uber.org/goleak"
)

func TestMain(m *testing.M) {
	worker.ServeIfWorker() // the pool re-executes this test binary as its worker
	goleak.VerifyTestMain(m)
}

// server starts the real playground (run) on a loopback port with extra
// flags and returns its address; it stops when the test ends.
func server(t *testing.T, flags ...string) string {
	t.Helper()
	addr, _ := startServer(t, flags...)
	return addr
}

// startServer starts the real playground like server and also returns stop,
// which shuts it down as SIGTERM does (drain, then close) and returns run's
// error once it has returned. Cleanup calls stop too; later calls return
// the first call's result. Benchmarks use it too (later flags win, such
// as -log-level).
func startServer(t testing.TB, flags ...string) (addr string, stop func() error) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	ready := make(chan string, 1)
	errc := make(chan error, 1)
	args := append([]string{"-addr", "127.0.0.1:0", "-log-level", "warn"}, flags...)
	go func() { errc <- run(ctx, args, func(string) string { return "" }, t.Output(), ready) }()
	select {
	case addr := <-ready:
		stop := sync.OnceValue(func() error { cancel(); return <-errc })
		t.Cleanup(func() {
			if err := stop(); err != nil {
				t.Errorf("run: %v", err)
			}
		})
		return addr, stop
	case err := <-errc:
		cancel()
		t.Fatalf("run: %v", err)
		return "", nil
	}
}

// msg is any server message, decoded loosely for assertions.
type msg map[string]any

func (m msg) str(k string) string { s, _ := m[k].(string); return s }
func (m msg) num(k string) float64 {
	f, _ := m[k].(float64)
	return f
}

// loose decodes m as a msg.
func loose(t *testing.T, m wstest.Message) msg {
	t.Helper()
	var v msg
	if err := m.Decode(&v); err != nil {
		t.Fatalf("server sent %s: %v", m, err)
	}
	return v
}

// client is a socket of the server under test (ws/wstest) whose messages
// the tests read as msg.
type client struct {
	*wstest.Client
	t     *testing.T
	hello msg
}

// dial opens a session and reads its hello.
func dial(t *testing.T, addr string) *client {
	t.Helper()
	return newClient(t, wstest.Dial(t, "ws://"+addr+"/ws", wstest.Options{}))
}

// dialFrom opens a session from source address src (a loopback address
// such as 127.0.0.2, so that one test has several client IPs; "" for the
// default) and reads its hello. On a refused upgrade it returns the
// response, whose body is still readable.
func dialFrom(t *testing.T, addr, src string) (*client, *http.Response, error) {
	t.Helper()
	c, resp, err := wstest.TryDial(t, "ws://"+addr+"/ws", wstest.Options{LocalAddr: src})
	if err != nil {
		return nil, resp, err
	}
	return newClient(t, c), resp, nil
}

func newClient(t *testing.T, c *wstest.Client) *client {
	t.Helper()
	return &client{Client: c, t: t, hello: loose(t, c.Hello())}
}

// send writes v as JSON: the tests write the wire as a browser does,
// unusual fields included.
func (c *client) send(v any) {
	c.t.Helper()
	c.SendJSON(v)
}

func (c *client) read() msg {
	c.t.Helper()
	return loose(c.t, c.Read())
}

// until reads messages of run id until its done, checking seq has no gaps.
func (c *client) until(id string) []msg {
	c.t.Helper()
	return c.continueUntil(id, nil)
}

// continueUntil is until for a run whose first messages were already read.
func (c *client) continueUntil(id string, out []msg) []msg {
	c.t.Helper()
	for _, m := range c.Until(id, uint64(len(out))) {
		out = append(out, loose(c.t, m))
	}
	return out
}

func runMsg(id string, files ...string) map[string]any {
	var fs []map[string]string
	for i := 0; i+1 < len(files); i += 2 {
		fs = append(fs, map[string]string{"path": files[i], "source": files[i+1]})
	}
	return map[string]any{"type": "run", "id": id, "files": fs}
}

func types(ms []msg) string {
	var s []string
	for _, m := range ms {
		s = append(s, m.str("type"))
	}
	return strings.Join(s, " ")
}

func only(ms []msg, typ string) []msg {
	var out []msg
	for _, m := range ms {
		if m.str("type") == typ {
			out = append(out, m)
		}
	}
	return out
}

func stats(t *testing.T, addr string) map[string]float64 {
	t.Helper()
	resp, err := http.Get("http://" + addr + "/api/stats")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var st map[string]any
	if err := json.NewDecoder(resp.Body).Decode(&st); err != nil {
		t.Fatal(err)
	}
	out := map[string]float64{}
	for k, v := range st {
		if f, ok := v.(float64); ok {
			out[k] = f
		}
	}
	return out
}

func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

const counterTS = `export class Counter {
  value: number = 0;
  inc(by: number = 1): number { this.value += by; return this.value; }
}
`

// untilStarted reads a run's messages up to its started and returns them:
// a queued before it is allowed (a worker still starting, a slot not yet
// given back on a busy machine), as the protocol allows; tests that need
// "running now" read this rather than assert that started came first.
func (c *client) untilStarted() []msg {
	c.t.Helper()
	var out []msg
	for {
		m := c.read()
		out = append(out, m)
		switch m.str("type") {
		case "started":
			return out
		case "queued":
			if len(out) == 1 {
				continue
			}
		}
		c.t.Fatalf("messages %s; want started (after at most one queued)", types(out))
	}
}

// waitIdle waits until the pool holds n started, idle workers: a test whose
// property needs runs to start at once (not queued behind a worker still
// starting) waits for this first.
func waitIdle(t *testing.T, addr string, n int) {
	t.Helper()
	waitFor(t, fmt.Sprintf("%d idle workers", n), func() bool {
		resp, err := http.Get("http://" + addr + "/api/stats")
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		var st struct{ Pool struct{ Idle int } }
		if err := json.NewDecoder(resp.Body).Decode(&st); err != nil {
			t.Fatal(err)
		}
		return st.Pool.Idle >= n
	})
}
