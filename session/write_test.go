package session_test

import (
	"context"
	"encoding/json"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"
	"github.com/playground-dev/playground/sandbox"
	"github.com/playground-dev/playground/session"
)

// logThenWait logs a line, then runs until cancelled: its log is held
// for a done that does not come.
type logThenWait struct{}

func (logThenWait) Run(ctx context.Context, req sandbox.Request, emit func(sandbox.Event)) (sandbox.Result, error) {
	emit(sandbox.Event{Kind: sandbox.EventStarted})
	emit(sandbox.Event{Kind: sandbox.EventLog, Level: "log", Text: "still running <&>\u2028"})
	<-ctx.Done()
	return sandbox.Result{Outcome: sandbox.OutcomeCancelled}, nil
}

// TestHeldMessagesOfARunThatGoesOnArrive: a run's started and log are
// held to leave with its done, but a run that goes on still gets them to
// the client (the hold is bounded), in order, encoded as encoding/json
// would; cancelling it then ends it with done.
func TestHeldMessagesOfARunThatGoesOnArrive(t *testing.T) {
	srv, _ := serve(t, session.Config{Engine: newEngine(logThenWait{})})
	ctx, cancel := context.WithTimeout(t.Context(), 20*time.Second)
	defer cancel()
	c, _, err := websocket.Dial(ctx, "ws"+strings.TrimPrefix(srv.URL, "http")+"/", nil)
	if err != nil {
		t.Fatal(err)
	}
	defer c.CloseNow()
	read := func() map[string]any {
		t.Helper()
		_, b, err := c.Read(ctx) // a failure guard: a held message that never comes ends here
		if err != nil {
			t.Fatal(err)
		}
		var m map[string]any
		if err := json.Unmarshal(b, &m); err != nil {
			t.Fatal(err)
		}
		if m["type"] == "log" && !strings.Contains(string(b), `"text":"still running \u003c\u0026\u003e\u2028"`) {
			t.Errorf("log encoded as %s; want encoding/json's escapes", b)
		}
		return m
	}
	if m := read(); m["type"] != "hello" {
		t.Fatalf("first message %v; want hello", m)
	}
	b, _ := json.Marshal(map[string]any{"type": "run", "id": "r1", "files": []map[string]string{{"path": "a.js", "source": ""}}})
	if err := c.Write(ctx, websocket.MessageText, b); err != nil {
		t.Fatal(err)
	}
	for i, want := range []string{"started", "log"} {
		if m := read(); m["type"] != want || m["seq"] != float64(i+1) {
			t.Fatalf("message %d: %v; want %s seq %d", i+1, m, want, i+1)
		}
	}
	if err := c.Write(ctx, websocket.MessageText, []byte(`{"type":"cancel","id":"r1"}`)); err != nil {
		t.Fatal(err)
	}
	if m := read(); m["type"] != "done" || m["outcome"] != "cancelled" || m["seq"] != float64(3) {
		t.Fatalf("after cancel: %v; want done cancelled seq 3", m)
	}
}

// TestIdleSocketHoldsNoWriter: hello and a pong are written by the
// goroutines that send them; no writer goroutine waits on an idle socket.
func TestIdleSocketHoldsNoWriter(t *testing.T) {
	srv, metrics := serve(t, session.Config{Engine: newEngine(blockRunner{})})
	ctx, cancel := context.WithTimeout(t.Context(), 20*time.Second)
	defer cancel()
	c, _, err := websocket.Dial(ctx, "ws"+strings.TrimPrefix(srv.URL, "http")+"/", nil)
	if err != nil {
		t.Fatal(err)
	}
	defer c.CloseNow()
	if _, _, err := c.Read(ctx); err != nil { // hello
		t.Fatal(err)
	}
	if err := c.Write(ctx, websocket.MessageText, []byte(`{"type":"ping","t":7}`)); err != nil {
		t.Fatal(err)
	}
	if _, b, err := c.Read(ctx); err != nil || string(b) != `{"type":"pong","t":7}` {
		t.Fatalf("pong: %s, %v", b, err)
	}
	if metrics.Sessions.Load() != 1 {
		t.Fatalf("sessions = %d; want 1", metrics.Sessions.Load())
	}
	// The writer that sent the pong may still be returning from its last
	// write: wait for it to end (generously), then the socket must hold none.
	buf := make([]byte, 1<<20)
	var stacks string
	for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(time.Millisecond) {
		stacks = string(buf[:runtime.Stack(buf, true)])
		if !strings.Contains(stacks, "session.(*Session).writeLoop") || time.Now().After(deadline) {
			break
		}
	}
	if strings.Contains(stacks, "session.(*Session).writeLoop") {
		t.Errorf("a writer goroutine waits on an idle socket:\n%s", stacks)
	}
}
