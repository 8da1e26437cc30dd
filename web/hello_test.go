package web

import (
	"context"
	"encoding/json"
	"net/http/httptest"
	"slices"
	"testing"
	"time"

	"github.com/playground-dev/playground/engine"
	"github.com/playground-dev/playground/sandbox"
	"github.com/playground-dev/playground/ws"
	"github.com/playground-dev/playground/ws/wstest"
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
		c := wstest.Dial(t, srv.URL+"/ws", wstest.Options{})
		var hello map[string]json.RawMessage
		if err := c.Hello().Decode(&hello); err != nil {
			t.Fatalf("hello %s: %v", c.Hello(), err)
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
		c.Close()
		srv.Close()
	}
}
