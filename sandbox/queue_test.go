package sandbox

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"
)

// TestQueueFairAcrossKeys: one key with many waiting runs does not starve
// another key that queues later.
func TestQueueFairAcrossKeys(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		q := newQueue(1, 0, 100)
		release, err := q.acquire(t.Context(), "hog", func(int) {})
		if err != nil {
			t.Fatal(err)
		}
		var mu sync.Mutex
		var order []string
		var wg sync.WaitGroup
		enqueue := func(key string) {
			n := q.len()
			wg.Go(func() {
				release, err := q.acquire(t.Context(), key, func(int) {})
				if err != nil {
					t.Error(err)
					return
				}
				mu.Lock()
				order = append(order, key)
				mu.Unlock()
				release()
			})
			waitLen(t, q, n+1) // queued: the arrival order is fixed
		}
		for range 4 {
			enqueue("hog")
		}
		enqueue("polite")
		release()
		wg.Wait()
		if len(order) != 5 || order[1] != "polite" {
			t.Errorf("service order = %v; want polite second (round-robin by key), not last", order)
		}
	})
}

func TestQueuePositionsAndCancel(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		q := newQueue(1, 0, 2)
		release, err := q.acquire(t.Context(), "a", nil)
		if err != nil {
			t.Fatal(err)
		}
		positions := make(chan int, 10)
		ctx1, cancel1 := context.WithCancel(t.Context())
		errc := make(chan error, 1)
		go func() {
			_, err := q.acquire(ctx1, "b", func(p int) { positions <- p })
			errc <- err
		}()
		if p := <-positions; p != 1 {
			t.Errorf("first waiter position = %d; want 1", p)
		}
		second := make(chan int, 10)
		cDone := make(chan struct{})
		go func() {
			defer close(cDone)
			if rel, err := q.acquire(t.Context(), "c", func(p int) { second <- p }); err == nil {
				rel()
			}
		}()
		if p := <-second; p != 2 {
			t.Errorf("second waiter position = %d; want 2", p)
		}
		if _, err := q.acquire(t.Context(), "d", nil); !errors.Is(err, ErrBusy) {
			t.Errorf("third waiter: err = %v; want ErrBusy (queue size 2)", err)
		}
		cancel1()
		if err := <-errc; !errors.Is(err, context.Canceled) {
			t.Errorf("cancelled waiter: err = %v; want context.Canceled", err)
		}
		if p := <-second; p != 1 {
			t.Errorf("after the first waiter left, position = %d; want 1", p)
		}
		if n := q.len(); n != 1 {
			t.Errorf("len = %d; want 1", n)
		}
		release()
		release() // a second call gives nothing back twice
		<-cDone
		q.mu.Lock()
		defer q.mu.Unlock()
		if q.free != 1 || len(q.held) != 0 {
			t.Errorf("after every release: %d free, held %v; want 1 free and nothing held", q.free, q.held)
		}
	})
}

// TestQueueReserveForOtherKeys: a key that holds every normal slot cannot
// take the reserve; another key that holds none gets it at once, and a
// freed reserve slot goes to a waiter whose key holds none, not to the hog.
func TestQueueReserveForOtherKeys(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		q := newQueue(2, 1, 100)
		var hog []func()
		for range 2 {
			rel, err := q.acquire(t.Context(), "hog", nil)
			if err != nil {
				t.Fatal(err)
			}
			hog = append(hog, rel)
		}
		hogWaits := make(chan func(), 1)
		go func() {
			rel, err := q.acquire(t.Context(), "hog", func(int) {})
			if err == nil {
				hogWaits <- rel
			}
		}()
		waitLen(t, q, 1)
		victim, err := q.acquire(t.Context(), "victim", nil) // must not wait
		if err != nil {
			t.Fatal(err)
		}
		second := make(chan func(), 1)
		go func() {
			rel, err := q.acquire(t.Context(), "second", func(int) {})
			if err == nil {
				second <- rel
			}
		}()
		waitLen(t, q, 2)
		victim() // the reserve slot is free again: "second" holds none, the hog does
		select {
		case rel := <-second:
			rel()
		case <-time.After(5 * time.Second):
			t.Fatal("the freed reserve slot did not go to the waiting key that holds none")
		}
		select {
		case <-hogWaits:
			t.Fatal("the hog took a reserve slot")
		default:
		}
		hog[0]() // a normal slot: the hog's waiter gets it
		select {
		case rel := <-hogWaits:
			rel()
		case <-time.After(5 * time.Second):
			t.Fatal("a freed normal slot did not go to the waiting hog")
		}
		hog[1]()
		q.mu.Lock()
		defer q.mu.Unlock()
		if q.free != 2 || q.reserve != 1 || len(q.held) != 0 || q.n != 0 {
			t.Errorf("after every release: free %d reserve %d held %v waiting %d; want 2, 1, none, 0", q.free, q.reserve, q.held, q.n)
		}
	})
}

// waitLen waits until every goroutine of the test's bubble (synctest)
// is blocked, then checks that q holds n waiters.
func waitLen(t *testing.T, q *queue, n int) {
	t.Helper()
	synctest.Wait()
	if got := q.len(); got != n {
		t.Fatalf("queue holds %d waiters; want %d", got, n)
	}
}

// TestQueueFullSharedFairly: a full queue whose places one key holds still
// takes another key's run, in place of the hog's newest waiter (which ends
// busy); once every key waits as long as the newcomer would, the newcomer
// is busy. Whoever waits is served in round-robin order afterwards.
func TestQueueFullSharedFairly(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		q := newQueue(1, 0, 4)
		release, err := q.acquire(t.Context(), "hog", nil)
		if err != nil {
			t.Fatal(err)
		}
		type result struct {
			key, tag string
			err      error
			release  func()
		}
		results := make(chan result, 10)
		enqueue := func(key, tag string) {
			n := q.len()
			go func() {
				rel, err := q.acquire(t.Context(), key, func(int) {})
				results <- result{key, tag, err, rel}
			}()
			waitLen(t, q, n+1)
		}
		for i := range 4 {
			enqueue("hog", fmt.Sprint("hog", i))
		}
		if _, err := q.acquire(t.Context(), "hog", nil); !errors.Is(err, ErrBusy) {
			t.Fatalf("the hog's 5th waiter on a full queue: %v; want ErrBusy", err)
		}
		// Each newcomer takes the place of the hog's newest waiter.
		for i, key := range []string{"a", "b"} {
			go func() {
				rel, err := q.acquire(t.Context(), key, func(int) {})
				results <- result{key, key, err, rel}
			}()
			r := <-results
			if r.tag != fmt.Sprint("hog", 3-i) || !errors.Is(r.err, ErrBusy) {
				t.Fatalf("newcomer %s: %s ended with %v; want hog%d dropped, busy", key, r.tag, r.err, 3-i)
			}
			waitLen(t, q, 4)
		}
		// hog 2, a 1, b 1: c (none) still gets in, in place of hog1; a second
		// waiter of a would then be as long as every line: busy.
		go func() {
			rel, err := q.acquire(t.Context(), "c", func(int) {})
			results <- result{"c", "c", err, rel}
		}()
		if r := <-results; r.tag != "hog1" || !errors.Is(r.err, ErrBusy) {
			t.Fatalf("newcomer c: %s ended with %v; want hog1 dropped", r.tag, r.err)
		}
		waitLen(t, q, 4)
		if _, err := q.acquire(t.Context(), "a", nil); !errors.Is(err, ErrBusy) {
			t.Errorf("a's 2nd waiter when every line is 1 long: %v; want ErrBusy", err)
		}
		release()
		var served []string
		for range 4 {
			r := <-results
			if r.err != nil {
				t.Fatalf("%s: %v", r.tag, r.err)
			}
			served = append(served, r.key)
			r.release()
		}
		if got := strings.Join(served, ","); got != "hog,a,b,c" {
			t.Errorf("service order %s; want hog,a,b,c", got)
		}
		q.mu.Lock()
		defer q.mu.Unlock()
		if q.free != 1 || q.n != 0 || len(q.held) != 0 || len(q.keys) != 0 {
			t.Errorf("after every release: free %d waiting %d held %v keys %v", q.free, q.n, q.held, q.keys)
		}
	})
}

// TestPoolReservesEverySpare: each spare worker is a reserve slot, so with
// two spares two keys that each hold a slot (one of them every normal one)
// still leave a third key a slot at once; a fourth waits.
func TestPoolReservesEverySpare(t *testing.T) {
	p := newTestPool(t, Config{Workers: 1, Spares: 2})
	q := p.queue
	for _, key := range []string{"hog", "second", "third"} {
		ctx, cancel := context.WithTimeout(t.Context(), 5*time.Second)
		rel, err := q.acquire(ctx, key, nil)
		cancel()
		if err != nil {
			t.Fatalf("%s: %v; want a slot at once", key, err)
		}
		defer rel()
	}
	ctx, cancel := context.WithTimeout(t.Context(), 50*time.Millisecond)
	defer cancel()
	if _, err := q.acquire(ctx, "fourth", func(int) {}); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("fourth: %v; want it to wait (every slot held)", err)
	}
}
