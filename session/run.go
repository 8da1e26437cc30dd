package session

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"sync"
	"time"

	"github.com/playground-dev/playground/sandbox"
	"github.com/playground-dev/playground/ws"
)

// startRun cancels the active run, checks m against the announced limits
// and the rate limit, and starts it in its own goroutine (owned by wg). The
// new run's events follow the cancelled run's done.
func (s *Session) startRun(ctx context.Context, wg *sync.WaitGroup, m *ws.Run) {
	received := time.Now()
	s.mu.Lock()
	prev := s.active
	if prev != nil {
		prev.cancel()
	}
	s.mu.Unlock()

	lim := s.cfg.Hello.Limits
	if lim.MaxFiles > 0 && len(m.Files) > lim.MaxFiles {
		s.refuse(m.ID, ws.OutcomeInvalid, 0, &ws.Error{Kind: ws.KindInvalidRequest,
			Message: fmt.Sprintf("invalid run: %d files; the limit is maxFiles=%d", len(m.Files), lim.MaxFiles)})
		return
	}
	total := 0
	for _, f := range m.Files {
		total += len(f.Source)
	}
	if lim.MaxSourceBytes > 0 && total > lim.MaxSourceBytes {
		s.refuse(m.ID, ws.OutcomeInvalid, 0, &ws.Error{Kind: ws.KindInvalidRequest,
			Message: fmt.Sprintf("invalid run: the files hold %d bytes of source; the limit is maxSourceBytes=%d", total, lim.MaxSourceBytes)})
		return
	}
	if ok, retry := s.cfg.Limiter.Allow(s.cfg.Key); !ok {
		s.refuse(m.ID, ws.OutcomeRateLimited, retry, nil)
		return
	}

	runCtx, cancel := context.WithCancel(ctx)
	a := &activeRun{id: m.ID, cancel: cancel, done: make(chan struct{})}
	s.mu.Lock()
	s.active = a
	s.mu.Unlock()
	s.cfg.Metrics.ActiveRuns.Add(1)
	wg.Go(func() {
		defer close(a.done)
		defer cancel()
		defer s.cfg.Metrics.ActiveRuns.Add(-1)
		if prev != nil {
			<-prev.done
		}
		s.execute(runCtx, m, received)
		s.mu.Lock()
		if s.active == a {
			s.active = nil
		}
		s.mu.Unlock()
	})
}

// execute runs m through the Runner, stamping and sending its events, and
// sends its done last.
func (s *Session) execute(ctx context.Context, m *ws.Run, received time.Time) {
	var seq uint64
	queued := false
	defer func() {
		if queued {
			s.cfg.Metrics.QueuedRuns.Add(-1)
		}
	}()
	emit := func(ev sandbox.Event) {
		switch {
		case ev.Kind == sandbox.EventQueued && !queued:
			queued = true
			s.cfg.Metrics.QueuedRuns.Add(1)
		case ev.Kind != sandbox.EventQueued && queued:
			queued = false
			s.cfg.Metrics.QueuedRuns.Add(-1)
		}
		seq++
		s.send(toWire(m.ID, seq, ev))
	}
	res, err := s.cfg.Runner.Run(ctx, toRequest(m, s.cfg.Key, s.id), emit)
	if err != nil {
		errorID := newErrorID()
		s.cfg.Log.Error("run failed", "session", s.id, "run", m.ID, "ip", s.cfg.Key, "errorID", errorID, "err", err)
		seq++
		s.send(ws.Error{RunHeader: ws.RunHeader{Type: ws.TypeError, ID: m.ID, Seq: seq}, Kind: ws.KindInternal,
			Message: "internal error " + errorID + ": the playground failed to run this; the error id is in the server log"})
		res = sandbox.Result{Outcome: sandbox.OutcomeError, Facts: res.Facts}
	}
	seq++
	s.send(doneMessage(m.ID, seq, res, time.Since(received)))
	s.cfg.Log.Debug("run finished", "session", s.id, "run", m.ID, "outcome", res.Outcome, "ms", res.Stats.Run.Milliseconds())
}

func newErrorID() string {
	var b [6]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}
