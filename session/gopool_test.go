package session

import (
	"sync"
	"testing"
	"time"
)

// TestGoPoolReusesAndReaps: a goroutine that finished a function takes
// the next one instead of a new goroutine starting, and idle goroutines
// end (goleak in TestMain checks none is left).
func TestGoPoolReusesAndReaps(t *testing.T) {
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
	deadline := time.Now().Add(10 * time.Second) // a failure guard, not a timing goal
	for idle() != 5 {
		if time.Now().After(deadline) {
			t.Fatalf("%d goroutines idle; want the 5 that ran", idle())
		}
		time.Sleep(time.Millisecond)
	}
	ran := make(chan struct{})
	p.Go(func() { close(ran) })
	<-ran
	if n := idle(); n > 5 {
		t.Fatalf("%d idle after one more function; want it run by an idle goroutine", n)
	}
	for idle() != 0 {
		if time.Now().After(deadline) {
			t.Fatalf("%d goroutines still idle; want them reaped after %v", idle(), idleFor)
		}
		time.Sleep(5 * time.Millisecond)
	}
}
