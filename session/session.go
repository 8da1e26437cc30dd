// Package session serves one browser tab: it reads protocol messages from a
// ws.Conn, runs at most one program at a time through the server's run
// engine (engine.Engine, shared with the other transports), and streams
// that run's messages back through one writer with a bounded outbox.
package session

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	"github.com/coder/websocket"
	"github.com/playground-dev/playground/engine"
	"github.com/playground-dev/playground/ws"
)

// Config configures a Session. Engine and Hello are required.
type Config struct {
	// Engine runs the session's runs; a server shares one among all its
	// sessions and its other transports. Its Metrics count the session and
	// its runs.
	Engine *engine.Engine
	// Key is the client's rate-limit and fairness key (its IP).
	Key string
	// Hello is sent first; its Session field is filled in.
	Hello ws.Hello
	Log   *slog.Logger
	// OutboxBytes caps what may wait to be written; a tab that falls this
	// far behind is disconnected. Defaults to 8 MiB.
	OutboxBytes int
	// Budget, shared by a server's sessions, bounds what waits in all their
	// outboxes, in all and per client (Key). Nil: no bound beyond OutboxBytes.
	Budget *Budget
	// PingInterval is how often the server pings; a peer that does not
	// answer within it is dropped. Defaults to 30s.
	PingInterval time.Duration
	// WriteTimeout bounds one frame's write. Defaults to 10s.
	WriteTimeout time.Duration
	// MaxProtocolErrors is how many protocol errors a socket may make
	// before it is closed with 1008. Defaults to 20.
	MaxProtocolErrors int
}

func (c Config) withDefaults() Config {
	if c.OutboxBytes <= 0 {
		c.OutboxBytes = 8 << 20
	}
	if c.PingInterval <= 0 {
		c.PingInterval = 30 * time.Second
	}
	if c.WriteTimeout <= 0 {
		c.WriteTimeout = 10 * time.Second
	}
	if c.MaxProtocolErrors <= 0 {
		c.MaxProtocolErrors = 20
	}
	if c.Log == nil {
		c.Log = slog.Default()
	}
	return c
}

// Session is one tab's connection. Serve owns it; no other method may be
// called concurrently with Serve.
type Session struct {
	cfg  Config
	conn *ws.Conn
	id   string
	out  *outbox

	engine *engine.Engine

	protocolErrors int
	closing        bool // too many protocol errors: the writer closes after flushing

	// ctx and cancel are the session's lifetime and wg its goroutines (set
	// by Serve before the first send); wmu is held by whoever writes to
	// the socket: the writer, or a producer writing directly (send).
	ctx    context.Context
	cancel context.CancelFunc
	wg     *sync.WaitGroup
	wmu    sync.Mutex
	wrMu   sync.Mutex // guards writing and ended
	// writing: the writer goroutine runs; ended: Serve is ending, no
	// writer starts.
	writing, ended bool
	held           atomic.Bool // messages wait for holdT (send)
	tmu            sync.Mutex  // guards holdT
	holdT          *time.Timer // made at the first held message
	// sendMu makes Serve's end exclusive with every send and held flush
	// (read-locked): once gone is set, nothing queues, arms a flush or
	// touches the socket. A detached run (run.go) or a watch may still be
	// sending when the socket ends; without this a send that began before
	// the end could arm a flush timer after stopHold, which then wrote to a
	// connection already torn down.
	sendMu sync.RWMutex
	gone   bool

	mu     sync.Mutex // guards active
	active *activeRun

	watches atomic.Int32 // watches being served (watch.go)
}

type activeRun struct {
	id     string
	cancel context.CancelFunc
	done   chan struct{} // closed when the run's done has been queued
	// orphaned: a detached run whose socket closed; its messages go only
	// to its watchers (runs.Run.Orphan).
	orphaned atomic.Bool
}

// New returns a session for conn.
func New(conn *ws.Conn, cfg Config) *Session {
	cfg = cfg.withDefaults()
	var b [9]byte
	_, _ = rand.Read(b[:])
	s := &Session{cfg: cfg, conn: conn, id: hex.EncodeToString(b[:])}
	s.engine = cfg.Engine
	s.out = newOutbox(cfg.OutboxBytes, cfg.Budget, cfg.Key, func() {
		s.cfg.Log.Warn("client too slow; closing", "session", s.id, "ip", s.cfg.Key)
		conn.CloseNow() // a close frame cannot reach a peer that does not read
	})
	s.out.wake = s.wakeWriter
	return s
}

// ID returns the session's opaque id, as sent in hello.
func (s *Session) ID() string { return s.id }

// Serve handles messages until the connection closes or ctx is done, then
// cancels the active run. It returns nil for a normal close and waits for
// every goroutine it started.
func (s *Session) Serve(ctx context.Context) error {
	m := &s.engine.Metrics
	m.Sessions.Add(1)
	defer m.Sessions.Add(-1)

	base := ctx
	defer s.out.drop() // 4th: what was never written leaves the budget
	defer s.stopHold() // 3rd: no flush of held messages is pending
	var wg sync.WaitGroup
	defer func() { // 2nd: nothing outlives Serve
		s.sendMu.Lock()
		s.gone = true // no send or held flush runs from here on
		s.sendMu.Unlock()
		s.wrMu.Lock()
		s.ended = true // no writer starts while wg is waited for
		s.wrMu.Unlock()
		wg.Wait()
	}()
	// The session's own lifetime: the server's ending (base) does not cut it
	// short, goAway ends it after the run's done is out.
	ctx, cancel := context.WithCancel(context.WithoutCancel(base))
	defer cancel() // 1st: stop the writer, the pinger and the run
	s.ctx, s.cancel, s.wg = ctx, cancel, &wg

	hello := s.cfg.Hello
	hello.Type, hello.Protocol, hello.Session = ws.TypeHello, ws.Subprotocol, s.id
	s.send(hello)

	// The reader ends when the socket does. Server shutdown (base) closes
	// it gracefully (goAway); a writer or pinger that gives up closes it at
	// once, which ends the reader.
	closed := make(chan struct{})
	context.AfterFunc(ctx, func() {
		defer close(closed)
		s.conn.Close(websocket.StatusGoingAway, "server closing session") // a no-op if already closed
	})
	// goAway runs on its own goroutine once base is done. Serve waits for
	// it when it has started (stopGoAway reports false): it touches the
	// outbox and may start a writer, so it must end before wg is waited
	// for, and its cut-off timer must be stopped so nothing outlives Serve.
	// The wait is bounded: goAway waits at most WriteTimeout for the run.
	var cutOff *time.Timer
	wentAway := make(chan struct{})
	stopGoAway := context.AfterFunc(base, func() {
		defer close(wentAway)
		cutOff = s.goAway(cancel)
	})
	defer func() {
		if !stopGoAway() {
			<-wentAway
			cutOff.Stop()
		}
	}()
	stopPings := s.startPings(ctx, cancel)
	err := s.readLoop(context.WithoutCancel(ctx), ctx, &wg)
	cancel()
	stopPings()
	<-closed
	s.conn.CloseNow()
	switch websocket.CloseStatus(err) {
	case websocket.StatusNormalClosure, websocket.StatusGoingAway, websocket.StatusNoStatusRcvd:
		return nil
	}
	if errors.Is(err, context.Canceled) {
		return nil
	}
	return err
}

// goAway ends the session because the server is shutting down: the active
// run is cancelled and its done (outcome cancelled) queued, then the
// writer flushes what is queued and closes the socket with 1001 (going
// away), so that the page reconnects, to another instance behind a load
// balancer. A peer that does not take the flush within WriteTimeout is cut
// off (the returned timer; Serve stops it when it returns). New runs
// meanwhile are refused by the engine (it drains).
func (s *Session) goAway(cancel context.CancelFunc) *time.Timer {
	s.mu.Lock()
	a := s.active
	s.mu.Unlock()
	if a != nil {
		a.cancel()
		select {
		case <-a.done:
		case <-time.After(s.cfg.WriteTimeout):
		}
	}
	s.out.closeAfterFlush(websocket.StatusGoingAway, "server closing session")
	return time.AfterFunc(s.cfg.WriteTimeout, cancel)
}

// readLoop reads with readCtx (never cancelled: the socket's close ends
// it) and starts runs under ctx.
func (s *Session) readLoop(readCtx, ctx context.Context, wg *sync.WaitGroup) error {
	for {
		b, err := s.conn.Read(readCtx)
		if s.closing && (err == nil || errors.Is(err, ws.ErrBinaryFrame)) {
			continue // the writer is flushing and will close the socket
		}
		if errors.Is(err, ws.ErrBinaryFrame) {
			s.protocolError(err.Error(), "")
			continue
		}
		var tooBig *ws.MessageTooBigError
		if errors.As(err, &tooBig) {
			if !s.closing {
				s.oversized(tooBig)
			}
			continue
		}
		if err != nil {
			return err
		}
		if max := s.cfg.Hello.Limits.MaxMessageBytes; max > 0 && int64(len(b)) > max {
			// A connection without a message limit (ws.AcceptOptions) read it whole.
			id, _ := ws.PeekRunID(b)
			s.oversized(&ws.MessageTooBigError{Size: int64(len(b)), Limit: max, RunID: id})
			continue
		}
		msg, err := ws.Decode(b)
		var re *ws.RunError
		switch {
		case errors.As(err, &re):
			s.engine.Metrics.Runs.Add(1)
			engine.Refuse(re.ID, &engine.Refusal{Outcome: ws.OutcomeInvalid, Field: re.Field, Reason: re.Reason}, s.send)
			s.invalidRun()
			continue
		case err != nil:
			s.protocolError(err.Error(), "")
			continue
		}
		switch m := msg.(type) {
		case *ws.Run:
			s.engine.Metrics.Runs.Add(1)
			s.startRun(ctx, wg, m)
		case *ws.Cancel:
			s.mu.Lock()
			if a := s.active; a != nil && a.id == m.ID {
				a.cancel()
			}
			s.mu.Unlock()
		case *ws.Ping:
			s.send(ws.Pong{Type: ws.TypePong, T: m.T})
		case *ws.Watch:
			s.watch(ctx, wg, m)
		}
	}
}

// protocolError answers a message that cannot be understood; past
// MaxProtocolErrors the writer closes the socket with 1008 once the answer
// is out.
func (s *Session) protocolError(msg, id string) {
	s.send(ws.ProtocolError{Type: ws.TypeProtocolError, Message: msg, ID: id})
	s.violation()
}

// oversized answers a message over maxMessageBytes (and under the
// connection's hard frame cap, FrameLimit) without decoding it: a run is
// refused with INVALID_REQUEST naming the limit (its id read from the
// message's head), anything else is a protocol error. The socket stays
// open.
func (s *Session) oversized(m *ws.MessageTooBigError) {
	reason := m.Error()
	if id := m.RunID; id != "" {
		s.engine.Metrics.Runs.Add(1)
		engine.Refuse(id, &engine.Refusal{Outcome: ws.OutcomeInvalid, Field: "message", Reason: reason}, s.send)
		s.invalidRun()
		return
	}
	s.protocolError(reason, "")
}

// invalidRun counts a run refused as invalid against the client: it takes
// a token of its rate limit (a flood of invalid runs is limited like one of
// valid runs) and counts as a protocol violation.
func (s *Session) invalidRun() {
	s.engine.Limiter.Allow(s.cfg.Key)
	s.violation()
}

// violation counts a protocol violation; past MaxProtocolErrors the
// socket is closed with 1008 once what is queued is flushed.
func (s *Session) violation() {
	s.protocolErrors++
	if s.protocolErrors >= s.cfg.MaxProtocolErrors {
		s.cfg.Log.Warn("too many protocol errors", "session", s.id, "ip", s.cfg.Key)
		s.closing = true
		s.out.closeAfterFlush(websocket.StatusPolicyViolation, "too many protocol errors")
	}
}
