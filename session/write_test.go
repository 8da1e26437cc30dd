package session_test

import (
	"context"
	"encoding/json"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/playground-dev/playground/sandbox"
	"github.com/playground-dev/playground/session"
	"github.com/playground-dev/playground/ws"
	"github.com/playground-dev/playground/ws/wstest"
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
	c := dial(t, srv.URL)
	c.Send(runMsg("r1", 0))
	for i, want := range []string{ws.TypeStarted, ws.TypeLog} {
		// The read's timeout is a failure guard: a held message that never comes ends there.
		if m := c.Read(); m.Type != want || m.Seq != uint64(i+1) {
			t.Fatalf("message %d: %s; want %s seq %d", i+1, m, want, i+1)
		} else if want == ws.TypeLog && !strings.Contains(string(m.Raw), `"text":"still running \u003c\u0026\u003e\u2028"`) {
			t.Errorf("log encoded as %s; want encoding/json's escapes", m)
		}
	}
	c.Send(&ws.Cancel{ID: "r1"})
	if m := wstest.As[ws.Done](t, c.Read()); m.Outcome != ws.OutcomeCancelled || m.Seq != 3 {
		t.Fatalf("after cancel: %+v; want done cancelled seq 3", m)
	}
}

// TestIdleSocketHoldsNoWriter: hello and a pong are written by the
// goroutines that send them; no writer goroutine waits on an idle socket.
func TestIdleSocketHoldsNoWriter(t *testing.T) {
	srv, metrics := serve(t, session.Config{Engine: newEngine(blockRunner{})})
	c := dial(t, srv.URL)
	c.Send(&ws.Ping{T: json.RawMessage(`7`)})
	if m := c.Read(); string(m.Raw) != `{"type":"pong","t":7}` {
		t.Fatalf("pong: %s", m)
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
