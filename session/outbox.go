package session

import (
	"context"
	"sync"
	"time"

	"github.com/coder/websocket"
	"github.com/playground-dev/playground/ws"
)

// outbox holds encoded messages waiting to be written. It never blocks a
// producer: past maxBytes, or past the server's Budget for all sessions or
// this client, it drops everything, marks itself overflowed and calls
// onOverflow, which closes the socket (the client is too slow). Bytes count
// against the budget from push until written. It is safe for concurrent use.
type outbox struct {
	maxBytes   int
	budget     *Budget // nil: none
	key        string  // the client's key in budget
	onOverflow func()  // called once, by the producer that overflowed
	wake       func()  // starts the writer (Session.wakeWriter)

	mu          sync.Mutex // guards the fields below
	q           [][]byte
	bytes       int
	overflowed  bool
	closeCode   websocket.StatusCode // non-zero: close after flushing
	closeReason string
}

func newOutbox(maxBytes int, budget *Budget, key string, onOverflow func()) *outbox {
	return &outbox{maxBytes: maxBytes, budget: budget, key: key, onOverflow: onOverflow}
}

// push queues b and returns how many bytes are queued (0 when b was
// dropped).
func (o *outbox) push(b []byte) int {
	o.mu.Lock()
	if o.overflowed || o.closeCode != 0 {
		o.mu.Unlock()
		return 0
	}
	if o.bytes+len(b) > o.maxBytes || !o.budget.reserve(o.key, len(b)) {
		o.overflowed = true
		o.budget.release(o.key, o.bytes)
		o.q, o.bytes = nil, 0
		o.mu.Unlock()
		o.onOverflow() // the writer may be stuck in a write to this peer: unblock it now
		o.wake()
		return 0
	}
	o.q = append(o.q, b)
	o.bytes += len(b)
	n := o.bytes
	o.mu.Unlock()
	return n
}

func (o *outbox) closeAfterFlush(code websocket.StatusCode, reason string) {
	o.mu.Lock()
	if o.closeCode == 0 {
		o.closeCode, o.closeReason = code, reason
	}
	o.mu.Unlock()
	o.wake()
}

// pending reports whether the writer has something to do.
func (o *outbox) pending() bool {
	o.mu.Lock()
	defer o.mu.Unlock()
	return len(o.q) > 0 || o.overflowed || o.closeCode != 0
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

// takeDirect takes everything queued for a write by the goroutine that
// queued it, when that cannot wait: nothing overflowed, no close is
// pending, and at most max bytes are queued. ok false: nothing was taken.
func (o *outbox) takeDirect(max int) (msgs [][]byte, ok bool) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.overflowed || o.closeCode != 0 || o.bytes > max {
		return nil, false
	}
	msgs, o.q, o.bytes = o.q, nil, 0
	return msgs, true
}

// holdFor is how long a run's messages before its done may wait to be
// written together with what follows them: a run's started, logs and done
// usually leave in one write (issue 12), and a line printed by a run that
// goes on is on the socket at most this late.
const holdFor = time.Millisecond

// directMax bounds what a producer writes itself (send), and what is held
// before it is written: well under the 64 KiB a cork holds before it must
// flush, so a direct write never waits.
const directMax = 16 << 10

// send encodes v (ws.Marshal: the run messages without reflection) and
// queues it. A message that ends something (done, hello, pong,
// protocol_error) or says a run waits (queued) is written at once, with everything queued before it, by
// the calling goroutine when that costs no wait (writeDirect), else by the
// writer. A run's other messages are held for at most holdFor, or until
// such a message comes or directMax bytes are queued.
func (s *Session) send(v any) {
	s.sendMu.RLock()
	defer s.sendMu.RUnlock()
	if s.gone {
		return // Serve has ended: the socket is gone (a detached run's or a watch's late message)
	}
	b, err := ws.Marshal(v)
	if err != nil {
		s.cfg.Log.Error("encode message", "session", s.id, "err", err)
		return
	}
	queued := s.out.push(b)
	switch v.(type) {
	case ws.Started, ws.Log, ws.Fact, ws.Call, ws.CallStart, ws.Error:
		if queued < directMax {
			s.holdFlush()
			return
		}
	}
	s.flush()
	if s.held.Swap(false) {
		s.tmu.Lock()
		s.holdT.Stop()
		s.tmu.Unlock()
	}
}

// holdFlush arms the flush of held messages, holdFor from the first.
func (s *Session) holdFlush() {
	if s.held.Swap(true) {
		return
	}
	s.tmu.Lock()
	defer s.tmu.Unlock()
	if s.holdT == nil {
		s.holdT = time.AfterFunc(holdFor, s.flushHeld)
	} else {
		s.holdT.Reset(holdFor)
	}
}

func (s *Session) flushHeld() {
	s.sendMu.RLock()
	defer s.sendMu.RUnlock()
	if !s.gone && s.held.Swap(false) {
		s.flush()
	}
}

// stopHold stops the flush timer for good (Serve, as it ends).
func (s *Session) stopHold() {
	s.tmu.Lock()
	defer s.tmu.Unlock()
	if s.holdT != nil {
		s.holdT.Stop()
	}
}

// flush writes what is queued now: directly when it costs no wait, else
// through the writer.
func (s *Session) flush() {
	if s.wmu.TryLock() {
		done := s.writeDirect()
		s.wmu.Unlock()
		if done {
			return
		}
	}
	s.wakeWriter()
}

// writeDirect writes what is queued from the calling goroutine (a run's,
// the reader's) without waiting for anything: the socket is corked only
// when no other write is under way, the frames are held, and the held
// bytes are sent with system calls that do not wait. It reports false when
// the writer must finish (the socket is busy or full, or a close or an
// overflow is pending); the rest is then still queued or held. A run's
// messages thus usually reach the socket without a hand-off to another
// goroutine (issue 12). The caller holds wmu.
func (s *Session) writeDirect() bool {
	if s.ctx.Err() != nil {
		return true // the session is ending: Serve drops what is queued
	}
	if !s.conn.TryCork() {
		return false
	}
	msgs, ok := s.out.takeDirect(directMax)
	if !ok {
		_, _ = s.conn.TryUncork() // nothing was held: this only uncorks
		return false
	}
	for i, b := range msgs {
		err := s.conn.WriteHeld(b, s.cfg.WriteTimeout) // held: no system call
		s.out.written(len(b))
		if err != nil {
			s.out.written(total(msgs[i+1:]))
			s.cancel()
			return true
		}
	}
	flushed, err := s.conn.TryUncork()
	if err != nil {
		s.cancel()
		return true
	}
	return flushed
}

// wakeWriter starts the writer goroutine unless it runs (it then sees
// what was queued before this call) or Serve is ending. The writer exists
// only while there is something to write that could not be written
// directly: an idle socket holds no writer goroutine (issue 12).
func (s *Session) wakeWriter() {
	s.wrMu.Lock()
	if s.writing || s.ended {
		s.wrMu.Unlock()
		return
	}
	s.writing = true
	s.wrMu.Unlock()
	s.wg.Go(s.writeLoop)
}

// writeLoop writes what is queued, and what a writeDirect left held, until
// nothing is left; it cancels the session when a write fails, and closes
// the socket when a close was asked for (closeAfterFlush).
func (s *Session) writeLoop() {
	for {
		s.wmu.Lock()
		stop := s.writeQueued()
		s.wmu.Unlock()
		s.wrMu.Lock()
		// Checked under wrMu: a producer that found the writer running
		// queued its message before, and one that comes after starts a
		// new writer.
		if stop || s.ended || (!s.out.pending() && !s.conn.Holding()) {
			s.writing = false
			s.wrMu.Unlock()
			return
		}
		s.wrMu.Unlock()
	}
}

// writeQueued writes what is queued, and what an earlier writeDirect left
// held, waiting for the peer at most WriteTimeout per flush; it reports
// whether the writer must stop. The caller holds wmu.
func (s *Session) writeQueued() (stop bool) {
	msgs, overflowed, code, reason := s.out.take()
	if overflowed { // onOverflow closed the socket
		s.cancel()
		return true
	}
	s.conn.Cork() // the batch leaves in one system call (issue 12)
	for i, b := range msgs {
		if s.ctx.Err() != nil {
			s.out.written(total(msgs[i:]))
			return true
		}
		err := s.conn.WriteHeld(b, s.cfg.WriteTimeout)
		s.out.written(len(b))
		if err != nil {
			s.out.written(total(msgs[i+1:]))
			s.cancel()
			return true
		}
	}
	if err := s.conn.Uncork(s.cfg.WriteTimeout); err != nil {
		s.cancel()
		return true
	}
	if code != 0 {
		s.conn.Close(code, reason)
		s.cancel()
		return true
	}
	return s.ctx.Err() != nil
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
