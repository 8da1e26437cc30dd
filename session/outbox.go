package session

import (
	"context"
	"encoding/json"
	"sync"
	"time"

	"github.com/coder/websocket"
)

// outbox holds encoded messages waiting for the writer. It never blocks a
// producer: past maxBytes, or past the server's Budget for all sessions or
// this client, it drops everything, marks itself overflowed and calls
// onOverflow, which closes the socket (the client is too slow). Bytes count
// against the budget from push until written. It is safe for concurrent use.
type outbox struct {
	maxBytes   int
	budget     *Budget       // nil: none
	key        string        // the client's key in budget
	wake       chan struct{} // buffered 1: there is something to do
	onOverflow func()        // called once, by the producer that overflowed

	mu          sync.Mutex // guards the fields below
	q           [][]byte
	bytes       int
	overflowed  bool
	closeCode   websocket.StatusCode // non-zero: close after flushing
	closeReason string
}

func newOutbox(maxBytes int, budget *Budget, key string, onOverflow func()) *outbox {
	return &outbox{maxBytes: maxBytes, budget: budget, key: key, wake: make(chan struct{}, 1), onOverflow: onOverflow}
}

func (o *outbox) push(b []byte) {
	o.mu.Lock()
	if o.overflowed || o.closeCode != 0 {
		o.mu.Unlock()
		return
	}
	if o.bytes+len(b) > o.maxBytes || !o.budget.reserve(o.key, len(b)) {
		o.overflowed = true
		o.budget.release(o.key, o.bytes)
		o.q, o.bytes = nil, 0
		o.mu.Unlock()
		o.onOverflow() // the writer may be stuck in a write to this peer: unblock it now
		o.signal()
		return
	}
	o.q = append(o.q, b)
	o.bytes += len(b)
	o.mu.Unlock()
	o.signal()
}

func (o *outbox) closeAfterFlush(code websocket.StatusCode, reason string) {
	o.mu.Lock()
	if o.closeCode == 0 {
		o.closeCode, o.closeReason = code, reason
	}
	o.mu.Unlock()
	o.signal()
}

func (o *outbox) signal() {
	select {
	case o.wake <- struct{}{}:
	default:
	}
}

// drop discards what is still queued and gives its budget back; nothing is
// queued after it. The session calls it when it ends.
func (o *outbox) drop() {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.budget.release(o.key, o.bytes)
	o.q, o.bytes, o.overflowed = nil, 0, true
}

// written gives back the budget of n bytes the writer has written (or
// dropped).
func (o *outbox) written(n int) { o.budget.release(o.key, n) }

// take returns everything queued and what to do after writing it; the
// writer calls written for each message's bytes.
func (o *outbox) take() (msgs [][]byte, overflowed bool, code websocket.StatusCode, reason string) {
	o.mu.Lock()
	defer o.mu.Unlock()
	msgs, o.q, o.bytes = o.q, nil, 0
	return msgs, o.overflowed, o.closeCode, o.closeReason
}

// send encodes v and queues it for the writer.
func (s *Session) send(v any) {
	b, err := json.Marshal(v)
	if err != nil {
		s.cfg.Log.Error("encode message", "session", s.id, "err", err)
		return
	}
	s.out.push(b)
}

// writeLoop is the socket's only writer. It returns when ctx ends or a write
// fails, cancelling the session in the latter case.
func (s *Session) writeLoop(ctx context.Context, cancel context.CancelFunc) {
	for {
		select {
		case <-ctx.Done():
			return
		case <-s.out.wake:
		}
		msgs, overflowed, code, reason := s.out.take()
		if overflowed { // onOverflow closed the socket
			cancel()
			return
		}
		if len(msgs) > 1 {
			s.conn.Cork() // the batch leaves in one system call (issue 12)
		}
		for i, b := range msgs {
			if ctx.Err() != nil {
				s.out.written(total(msgs[i:]))
				return // closing: coder/websocket closes a socket whose write ctx is cancelled mid-write
			}
			wctx, wcancel := context.WithTimeout(context.WithoutCancel(ctx), s.cfg.WriteTimeout)
			err := s.conn.WriteRaw(wctx, b)
			wcancel()
			s.out.written(len(b))
			if err != nil {
				s.out.written(total(msgs[i+1:]))
				cancel()
				return
			}
		}
		if err := s.conn.Uncork(s.cfg.WriteTimeout); err != nil {
			cancel()
			return
		}
		if code != 0 {
			s.conn.Close(code, reason)
			cancel()
			return
		}
	}
}

func total(msgs [][]byte) int {
	n := 0
	for _, b := range msgs {
		n += len(b)
	}
	return n
}

// startPings pings the peer every PingInterval and drops it when a ping
// goes unanswered for that long. Between pings it holds no goroutine (a
// timer's function runs each ping), so an idle socket costs one goroutine
// less (issue 12). stop ends the pings and waits for one in flight; call
// it after ctx ends (the ping then returns at once).
func (s *Session) startPings(ctx context.Context, cancel context.CancelFunc) (stop func()) {
	var (
		mu       sync.Mutex // guards t and stopped
		t        *time.Timer
		stopped  bool
		inFlight sync.WaitGroup
	)
	ping := func() {
		mu.Lock()
		if stopped {
			mu.Unlock()
			return
		}
		inFlight.Add(1)
		mu.Unlock()
		defer inFlight.Done()
		pctx, pcancel := context.WithTimeout(ctx, s.cfg.PingInterval)
		err := s.conn.Ping(pctx)
		pcancel()
		if err != nil && ctx.Err() == nil {
			s.cfg.Log.Info("peer stopped answering pings", "session", s.id, "ip", s.cfg.Key)
			s.conn.CloseNow()
			cancel()
			return
		}
		mu.Lock()
		if !stopped {
			t.Reset(s.cfg.PingInterval)
		}
		mu.Unlock()
	}
	mu.Lock()
	t = time.AfterFunc(s.cfg.PingInterval, ping)
	mu.Unlock()
	return func() {
		mu.Lock()
		stopped = true
		t.Stop()
		mu.Unlock()
		inFlight.Wait()
	}
}
