package session

import (
	"context"
	"sync"
	"time"

	"github.com/playground-dev/playground/engine"
	"github.com/playground-dev/playground/ws"
)

// startRun cancels the active run and starts m on a goroutine of
// runGoroutines (owned by wg until the run ends), which checks m against the announced limits and the rate limit
// once the cancelled run's done is out, so that the new run's messages
// follow it. A run with detach (and a server that allows it: the engine's
// Hub) is not owned by wg: when the session ends first, it goes on with no
// owner for its grace (runs.Run.Orphan), its messages kept for a client
// that reattaches with a watch.
func (s *Session) startRun(ctx context.Context, wg *sync.WaitGroup, m *ws.Run) {
	received := time.Now()
	s.mu.Lock()
	prev := s.active
	if prev != nil {
		prev.cancel()
	}
	s.mu.Unlock()

	job := engine.Job{Run: m, Key: s.cfg.Key, Session: s.id, Received: received, MaxOutputBytes: s.cfg.Hello.Limits.MaxOutputBytes}
	var grace time.Duration
	if m.Detach != nil && s.engine.Hub != nil {
		grace = s.engine.Hub.DetachGrace(m.Detach.GraceMs)
	}
	a := &activeRun{id: m.ID, done: make(chan struct{})}
	var runCtx context.Context
	send := s.send
	stopOrphan := func() bool { return false }
	if grace > 0 {
		// A detached run outlives the socket: its context is not the
		// session's, and Serve does not wait for it. When the session
		// ends first, the hub holds it for its grace (runs.Run.Orphan).
		runCtx, a.cancel = context.WithCancel(context.WithoutCancel(ctx))
		job.Live = s.engine.Hub.Open(m.ID, s.cfg.Key)
		stopOrphan = context.AfterFunc(ctx, func() {
			a.orphaned.Store(true)
			job.Live.Orphan(grace, a.cancel)
		})
		send = func(v any) {
			if !a.orphaned.Load() {
				s.send(v)
			}
		}
	} else {
		runCtx, a.cancel = context.WithCancel(ctx)
		wg.Add(1)
	}
	cancel := a.cancel
	s.mu.Lock()
	s.active = a
	s.mu.Unlock()
	s.engine.Metrics.ActiveRuns.Add(1)
	runGoroutines.Go(func() {
		if grace == 0 {
			defer wg.Done()
		}
		defer close(a.done)
		defer cancel()
		defer s.engine.Metrics.ActiveRuns.Add(-1)
		if prev != nil {
			<-prev.done
		}
		s.engine.Run(runCtx, job, send)
		stopOrphan() // ended: the session's end no longer concerns it
		if job.Live != nil {
			job.Live.Close() // refused before it executed: it leaves the hub
		}
		s.mu.Lock()
		if s.active == a {
			s.active = nil
		}
		s.mu.Unlock()
	})
}
