package session_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"
	"github.com/playground-dev/playground/engine"
	"github.com/playground-dev/playground/sandbox"
	"github.com/playground-dev/playground/session"
	"github.com/playground-dev/playground/ws"
	"go.uber.org/goleak"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// floodRunner emits big log events until its context ends.
type floodRunner struct{ started chan struct{} }

func (f floodRunner) Run(ctx context.Context, req sandbox.Request, emit func(sandbox.Event)) (sandbox.Result, error) {
	close(f.started)
	text := strings.Repeat("x", 32<<10)
	for ctx.Err() == nil {
		emit(sandbox.Event{Kind: sandbox.EventLog, Level: "log", Text: text})
		time.Sleep(50 * time.Microsecond)
	}
	return sandbox.Result{Outcome: sandbox.OutcomeCancelled}, nil
}

type allowAll struct{}

func (allowAll) Allow(string) (bool, time.Duration) { return true, 0 }

// newEngine returns an engine that runs everything through r.
func newEngine(r engine.Runner) *engine.Engine {
	return &engine.Engine{Runner: r, Limiter: allowAll{}}
}

func serve(t *testing.T, cfg session.Config) (*httptest.Server, *engine.Metrics) {
	t.Helper()
	metrics := &cfg.Engine.Metrics
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		conn, err := ws.Accept(w, r, ws.AcceptOptions{})
		if err != nil {
			return
		}
		_ = session.New(conn, cfg).Serve(r.Context())
	}))
	t.Cleanup(func() {
		srv.Close()
	})
	return srv, metrics
}

func TestSlowClientIsDisconnected(t *testing.T) {
	runner := floodRunner{started: make(chan struct{})}
	srv, metrics := serve(t, session.Config{Engine: newEngine(runner), OutboxBytes: 1 << 20})
	c := dial(t, srv.URL)
	c.Send(runMsg("r1", 0))
	<-runner.started
	// The client never reads again: the server must drop it rather than
	// buffer without bound or block the run.
	deadline := time.Now().Add(15 * time.Second)
	for metrics.Sessions.Load() != 0 || metrics.ActiveRuns.Load() != 0 {
		if time.Now().After(deadline) {
			t.Fatalf("session still open (sessions=%d activeRuns=%d); want a slow client disconnected",
				metrics.Sessions.Load(), metrics.ActiveRuns.Load())
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// blockRunner runs until cancelled.
type blockRunner struct{}

func (blockRunner) Run(ctx context.Context, req sandbox.Request, emit func(sandbox.Event)) (sandbox.Result, error) {
	emit(sandbox.Event{Kind: sandbox.EventStarted})
	<-ctx.Done()
	return sandbox.Result{Outcome: sandbox.OutcomeCancelled}, nil
}

func TestServerShutdownClosesWithGoingAway(t *testing.T) {
	ctx, stop := context.WithCancel(context.Background())
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		conn, err := ws.Accept(w, r, ws.AcceptOptions{})
		if err != nil {
			return
		}
		_ = session.New(conn, session.Config{Engine: newEngine(blockRunner{})}).Serve(ctx)
	}))
	defer srv.Close()
	c := dial(t, srv.URL)
	stop()
	if err := c.UntilClosed(); websocket.CloseStatus(err) != websocket.StatusGoingAway {
		t.Fatalf("close status = %v (%v); want 1001 going away", websocket.CloseStatus(err), err)
	}
}

// TestPings: a peer that answers pings (it reads, so the library pongs)
// stays connected across several ping intervals; one that stops reading,
// and so never pongs, is dropped after an unanswered ping. goleak (TestMain)
// checks that no ping outlives its session.
func TestPings(t *testing.T) {
	srv, metrics := serve(t, session.Config{Engine: newEngine(blockRunner{}), PingInterval: 50 * time.Millisecond})
	ctx, cancel := context.WithTimeout(t.Context(), 20*time.Second)
	defer cancel()

	answering := dial(t, srv.URL).Conn()
	rctx, rcancel := context.WithCancel(ctx)
	defer rcancel()
	readerDone := make(chan struct{})
	go func() { // reading answers the pings
		defer close(readerDone)
		for {
			if _, _, err := answering.Read(rctx); err != nil {
				return
			}
		}
	}()
	time.Sleep(400 * time.Millisecond) // eight ping intervals
	if n := metrics.Sessions.Load(); n != 1 {
		t.Fatalf("%d sessions after eight answered pings; want 1", n)
	}

	dial(t, srv.URL) // reads its hello, then nothing: it never pongs
	waitSessions := func(want int64) {
		t.Helper()
		for metrics.Sessions.Load() != want {
			if ctx.Err() != nil {
				t.Fatalf("sessions = %d; want %d", metrics.Sessions.Load(), want)
			}
			time.Sleep(5 * time.Millisecond)
		}
	}
	waitSessions(2)
	waitSessions(1) // the silent peer is dropped
	select {
	case <-readerDone:
		t.Fatal("the answering peer was dropped")
	default:
	}
	rcancel()
}

// TestShutdownRacingCloseEndsWithServe: the server's shutdown (goAway, on
// its own goroutine) racing the peer's close must be over when Serve
// returns, since goAway queues a close and may start a writer. Before Serve
// waited for it, -race caught goAway still reading the session after the
// handler had returned; the race needs many tries to show, hence the loop.
func TestShutdownRacingCloseEndsWithServe(t *testing.T) {
	for i := range 100 {
		base, shutdown := context.WithCancel(t.Context())
		served := make(chan error, 1)
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			conn, err := ws.Accept(w, r, ws.AcceptOptions{})
			if err != nil {
				served <- err
				return
			}
			served <- session.New(conn, session.Config{Engine: newEngine(blockRunner{}), WriteTimeout: time.Second}).Serve(base)
		}))
		c := dial(t, srv.URL)
		if i%2 == 0 {
			c.Send(runMsg("r", 0))
		}
		go shutdown()
		c.CloseNow()
		select {
		case <-served:
		case <-time.After(10 * time.Second):
			t.Fatalf("try %d: Serve did not return 10 s after the peer closed and the server shut down", i)
		}
		srv.Close()
	}
}
