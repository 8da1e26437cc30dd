package session_test

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"
	"time"

	"github.com/playground-dev/playground/engine"
	"github.com/playground-dev/playground/runs"
	"github.com/playground-dev/playground/sandbox"
	"github.com/playground-dev/playground/session"
	"github.com/playground-dev/playground/ws"
	"github.com/playground-dev/playground/ws/wstest"
)

// stepRunner emits started, then one log per value on step, and ends ok
// when step is closed, or cancelled when its context ends first.
type stepRunner struct {
	step      chan string
	cancelled chan struct{}
}

func newStepRunner() *stepRunner {
	return &stepRunner{step: make(chan string), cancelled: make(chan struct{})}
}

func (f *stepRunner) Run(ctx context.Context, req sandbox.Request, emit func(sandbox.Event)) (sandbox.Result, error) {
	emit(sandbox.Event{Kind: sandbox.EventStarted, Timeout: time.Minute})
	for {
		select {
		case text, ok := <-f.step:
			if !ok {
				return sandbox.Result{Outcome: sandbox.OutcomeOK, Facts: map[string]json.RawMessage{}}, nil
			}
			emit(sandbox.Event{Kind: sandbox.EventLog, Level: "log", Text: text})
		case <-ctx.Done():
			close(f.cancelled)
			return sandbox.Result{Outcome: sandbox.OutcomeCancelled, Facts: map[string]json.RawMessage{}}, nil
		}
	}
}

func runMsg(id string, detach float64) *ws.Run {
	m := &ws.Run{ID: id, Files: []ws.File{{Path: "a.js"}}}
	if detach > 0 {
		m.Detach = &ws.Detach{GraceMs: detach}
	}
	return m
}

// dial opens a socket to srv's session and reads its hello.
func dial(t *testing.T, url string) *wstest.Client {
	t.Helper()
	return wstest.Dial(t, url+"/", wstest.Options{})
}

func hubEngine(t *testing.T, r engine.Runner, cfg runs.Config) *engine.Engine {
	e := newEngine(r)
	e.Hub = runs.New(cfg)
	t.Cleanup(e.Hub.Close)
	return e
}

// TestWatchFollowsAnotherSocketsRun: a second socket with the token gets
// the run's messages after its cursor, then live, ending with done; its
// cancel does not cancel the run.
func TestWatchFollowsAnotherSocketsRun(t *testing.T) {
	runner := newStepRunner()
	srv, _ := serve(t, session.Config{Engine: hubEngine(t, runner, runs.Config{})})
	owner := dial(t, srv.URL)
	owner.Send(runMsg("r1", 0))
	st := wstest.As[ws.Started](t, owner.Read())
	if st.Watch == "" {
		t.Fatalf("got %+v; want started with a watch token", st)
	}
	runner.step <- "one"
	if m := owner.Read(); m.Seq != 2 {
		t.Fatalf("owner got %s; want log seq 2", m)
	}
	watcher := dial(t, srv.URL)
	watcher.Send(&ws.Watch{ID: "r1", Token: st.Watch, After: 1})
	if m := wstest.As[ws.Log](t, watcher.Read()); m.Seq != 2 || m.Text != "one" || m.ID != "r1" {
		t.Fatalf("watcher got %+v; want the buffered log seq 2", m)
	}
	watcher.Send(&ws.Cancel{ID: "r1"}) // not its run: ignored
	runner.step <- "two"
	close(runner.step)
	for _, c := range []*wstest.Client{owner, watcher} {
		if m := wstest.As[ws.Log](t, c.Read()); m.Seq != 3 || m.Text != "two" {
			t.Fatalf("got %+v; want log seq 3", m)
		}
		if m := wstest.As[ws.Done](t, c.Read()); m.Seq != 4 || m.Outcome != ws.OutcomeOK {
			t.Fatalf("got %+v; want done ok seq 4 (a watcher cannot cancel)", m)
		}
	}
}

func TestWatchWithWrongTokenIsNotFound(t *testing.T) {
	runner := newStepRunner()
	srv, _ := serve(t, session.Config{Engine: hubEngine(t, runner, runs.Config{})})
	owner := dial(t, srv.URL)
	owner.Send(runMsg("r1", 0))
	st := wstest.As[ws.Started](t, owner.Read())
	w := dial(t, srv.URL)
	for _, q := range []*ws.Watch{
		{ID: "r1", Token: "AAAAAAAAAAAAAAAAAAAAAA"},
		{ID: "r2", Token: st.Watch},
	} {
		w.Send(q)
		if m := wstest.As[ws.WatchError](t, w.Read()); m.Reason != ws.WatchNotFound {
			t.Fatalf("watch %+v: got %+v; want watch_error not_found", q, m)
		}
	}
	close(runner.step)
}

// TestReattachAfterDisconnect: a detached run outlives its socket; a new
// socket that presents the token and its last seq gets every later message
// exactly once, ending with done. Repeated to cover several disconnects.
func TestReattachAfterDisconnect(t *testing.T) {
	runner := newStepRunner()
	srv, metrics := serve(t, session.Config{Engine: hubEngine(t, runner, runs.Config{})})
	c := dial(t, srv.URL)
	c.Send(runMsg("r1", 60_000))
	st := wstest.As[ws.Started](t, c.Read())
	token, last := st.Watch, st.Seq
	var texts []string
	for i := range 20 {
		runner.step <- fmt.Sprint("line ", i) // sent while the client may be away
		if i%4 == 0 {
			c.CloseNow() // the client drops mid-run
			c = dial(t, srv.URL)
			c.Send(&ws.Watch{ID: "r1", Token: token, After: last})
		}
		m := wstest.As[ws.Log](t, c.Read())
		if m.Seq != last+1 {
			t.Fatalf("after seq %d got %+v; want seq %d (nothing lost, nothing twice)", last, m, last+1)
		}
		last = m.Seq
		texts = append(texts, m.Text)
	}
	close(runner.step)
	if m := wstest.As[ws.Done](t, c.Read()); m.Outcome != ws.OutcomeOK || m.Seq != last+1 {
		t.Fatalf("got %+v; want done ok seq %d", m, last+1)
	}
	for i, s := range texts {
		if s != fmt.Sprint("line ", i) {
			t.Fatalf("message %d is %q", i, s)
		}
	}
	deadline := time.Now().Add(30 * time.Second)
	for metrics.ActiveRuns.Load() != 0 { // the count drops just after done
		if time.Now().After(deadline) {
			t.Fatalf("%d runs still active after the done", metrics.ActiveRuns.Load())
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// TestUndetachedRunEndsWithItsSocket: the card's rule stays the default.
func TestUndetachedRunEndsWithItsSocket(t *testing.T) {
	runner := newStepRunner()
	srv, _ := serve(t, session.Config{Engine: hubEngine(t, runner, runs.Config{})})
	c := dial(t, srv.URL)
	c.Send(runMsg("r1", 0))
	c.Read()
	c.CloseNow()
	select {
	case <-runner.cancelled:
	case <-time.After(30 * time.Second):
		t.Fatal("closing the socket did not cancel its run")
	}
}

// TestOrphanIsCancelledAfterGrace: a detached run nobody reattaches to is
// cancelled after its grace; a watcher arriving later still gets its end.
func TestOrphanIsCancelledAfterGrace(t *testing.T) {
	runner := newStepRunner()
	srv, _ := serve(t, session.Config{Engine: hubEngine(t, runner, runs.Config{})})
	c := dial(t, srv.URL)
	c.Send(runMsg("r1", 1))
	st := wstest.As[ws.Started](t, c.Read())
	c.CloseNow()
	select {
	case <-runner.cancelled:
	case <-time.After(30 * time.Second):
		t.Fatal("the orphan was not cancelled after its grace")
	}
	w := dial(t, srv.URL)
	w.Send(&ws.Watch{ID: "r1", Token: st.Watch, After: 1})
	if m := wstest.As[ws.Done](t, w.Read()); m.Outcome != ws.OutcomeCancelled {
		t.Fatalf("got %+v; want done cancelled", m)
	}
}

// floodingRunner logs as fast as it can until its context ends.
type floodingRunner struct{}

func (floodingRunner) Run(ctx context.Context, req sandbox.Request, emit func(sandbox.Event)) (sandbox.Result, error) {
	emit(sandbox.Event{Kind: sandbox.EventStarted, Timeout: time.Minute})
	for i := 0; ctx.Err() == nil; i++ {
		emit(sandbox.Event{Kind: sandbox.EventLog, Level: "log", Text: fmt.Sprint("line ", i)})
		if i%64 == 0 {
			time.Sleep(50 * time.Microsecond)
		}
	}
	return sandbox.Result{Outcome: sandbox.OutcomeCancelled, Facts: map[string]json.RawMessage{}}, nil
}

// TestDetachedRunsOutliveTheirSocketsQuietly: detached runs that keep
// sending while their sockets are dropped, again and again, never queue,
// arm a flush or write after their session has ended (-race checks; the
// session's end is exclusive with its sends), and each session ends.
func TestDetachedRunsOutliveTheirSocketsQuietly(t *testing.T) {
	srv, metrics := serve(t, session.Config{Engine: hubEngine(t, floodingRunner{}, runs.Config{DetachMax: 50 * time.Millisecond})})
	for i := range 30 {
		c := dial(t, srv.URL)
		c.Send(runMsg(fmt.Sprint("r", i), 20))
		for range 3 {
			c.Read()
		}
		c.CloseNow() // mid-flood, no close frame
	}
	deadline := time.Now().Add(30 * time.Second)
	for metrics.Sessions.Load() != 0 || metrics.ActiveRuns.Load() != 0 {
		if time.Now().After(deadline) {
			t.Fatalf("sessions %d, active runs %d; want every session ended and every orphan cancelled after its grace",
				metrics.Sessions.Load(), metrics.ActiveRuns.Load())
		}
		time.Sleep(10 * time.Millisecond)
	}
}
