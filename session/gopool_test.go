package session

import (
	"sync"
	"testing"
	"testing/synctest"
	"time"
)

// TestGoPoolReusesAndReaps: a goroutine that finished a function takes
// the next one instead of a new goroutine starting, and idle goroutines
// end after idleFor (on synctest's clock: the wait costs no real time;
// goleak in TestMain checks none is left).
func TestGoPoolReusesAndReaps(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var p goPool
		var wg sync.WaitGroup
		release := make(chan struct{})
		for range 5 {
			wg.Add(1)
			p.Go(func() { defer wg.Done(); <-release })
		}
		close(release)
		wg.Wait()
		idle := func() int {
			p.mu.Lock()
			defer p.mu.Unlock()
			return len(p.idle)
		}
		synctest.Wait() // every goroutine has parked itself
		if n := idle(); n != 5 {
			t.Fatalf("%d goroutines idle; want the 5 that ran", n)
		}
		ran := make(chan struct{})
		p.Go(func() { close(ran) })
		<-ran
		synctest.Wait()
		if n := idle(); n != 5 {
			t.Fatalf("%d idle after one more function; want 5 (it ran on an idle goroutine)", n)
		}
		time.Sleep(idleFor - time.Nanosecond)
		synctest.Wait()
		if n := idle(); n != 5 {
			t.Fatalf("%d idle just before idleFor; want all 5 kept", n)
		}
		time.Sleep(idleFor)
		synctest.Wait()
		if n := idle(); n != 0 {
			t.Fatalf("%d goroutines still idle after %v; want them reaped", n, idleFor)
		}
	})
}
