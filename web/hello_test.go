package web

import (
	"context"
	"encoding/json"
	"github.com/playground-dev/playground/engine"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"

	"github.com/playground-dev/playground/sandbox"
	"github.com/playground-dev/playground/ws"
)

type noRuns struct{}

func (noRuns) Run(context.Context, sandbox.Request, func(sandbox.Event)) (sandbox.Result, error) {
	return sandbox.Result{}, nil
}

type allowAll struct{}

func (allowAll) Allow(string) (bool, time.Duration) { return true, 0 }

// TestHelloAnnouncesHostGlobals: the page's type checker declares the host
// globals hello names, so hello carries Config.HostGlobals (and omits the
// field when there are none).
func TestHelloAnnouncesHostGlobals(t *testing.T) {
	for _, globals := range [][]string{{"echo", "sleep"}, nil} {
		srv := httptest.NewServer(NewServer(Config{Engine: &engine.Engine{Runner: noRuns{}, Limiter: allowAll{}, Limits: ws.Limits{MaxMessageBytes: 1 << 20}},
			Host: []string{"echo", "sleep", "time"}, HostGlobals: globals}))
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		c, _, err := websocket.Dial(ctx, "ws"+strings.TrimPrefix(srv.URL, "http")+"/ws", &websocket.DialOptions{Subprotocols: []string{ws.Subprotocol}})
		if err != nil {
			t.Fatalf("dial: %v", err)
		}
		_, data, err := c.Read(ctx)
		if err != nil {
			t.Fatalf("read hello: %v", err)
		}
		var hello map[string]json.RawMessage
		if err := json.Unmarshal(data, &hello); err != nil {
			t.Fatalf("hello %s: %v", data, err)
		}
		raw, ok := hello["hostGlobals"]
		if globals == nil {
			if ok {
				t.Errorf("hello without host globals has hostGlobals %s", raw)
			}
		} else {
			var got []string
			if err := json.Unmarshal(raw, &got); err != nil || !slices.Equal(got, globals) {
				t.Errorf("hello hostGlobals = %s, want %q (%v)", raw, globals, err)
			}
		}
		c.Close(websocket.StatusNormalClosure, "")
		cancel()
		srv.Close()
	}
}
