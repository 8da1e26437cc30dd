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
// follow it.
func (s *Session) startRun(ctx context.Context, wg *sync.WaitGroup, m *ws.Run) {
	received := time.Now()
	s.mu.Lock()
	prev := s.active
	if prev != nil {
		prev.cancel()
	}
	s.mu.Unlock()

	runCtx, cancel := context.WithCancel(ctx)
	a := &activeRun{id: m.ID, cancel: cancel, done: make(chan struct{})}
	s.mu.Lock()
	s.active = a
	s.mu.Unlock()
	s.engine.Metrics.ActiveRuns.Add(1)
	wg.Add(1)
	runGoroutines.Go(func() {
		defer wg.Done()
		defer close(a.done)
		defer cancel()
		defer s.engine.Metrics.ActiveRuns.Add(-1)
		if prev != nil {
			<-prev.done
		}
		s.engine.Run(runCtx, engine.Job{Run: m, Key: s.cfg.Key, Session: s.id, Received: received, MaxOutputBytes: s.cfg.Hello.Limits.MaxOutputBytes}, s.send)
		s.mu.Lock()
		if s.active == a {
			s.active = nil
		}
		s.mu.Unlock()
	})
}
