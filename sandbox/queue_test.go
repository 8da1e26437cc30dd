package sandbox

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"
)

// TestQueueFairAcrossKeys: one key with many waiting runs does not starve
// another key that queues later.
func TestQueueFairAcrossKeys(t *testing.T) {
	q := newQueue(1, 100)
	if err := q.acquire(t.Context(), "hog", func(int) {}); err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var order []string
	var wg sync.WaitGroup
	enqueue := func(key string) {
		n := q.len()
		wg.Go(func() {
			if err := q.acquire(t.Context(), key, func(int) {}); err != nil {
				t.Error(err)
				return
			}
			mu.Lock()
			order = append(order, key)
			mu.Unlock()
			q.release()
		})
		for q.len() == n { // wait until it is queued, to fix the arrival order
			time.Sleep(time.Millisecond)
		}
	}
	for range 4 {
		enqueue("hog")
	}
	enqueue("polite")
	q.release()
	wg.Wait()
	if len(order) != 5 || order[1] != "polite" {
		t.Errorf("service order = %v; want polite second (round-robin by key), not last", order)
	}
}

func TestQueuePositionsAndCancel(t *testing.T) {
	q := newQueue(1, 2)
	if err := q.acquire(t.Context(), "a", nil); err != nil {
		t.Fatal(err)
	}
	positions := make(chan int, 10)
	ctx1, cancel1 := context.WithCancel(t.Context())
	errc := make(chan error, 1)
	go func() { errc <- q.acquire(ctx1, "b", func(p int) { positions <- p }) }()
	if p := <-positions; p != 1 {
		t.Errorf("first waiter position = %d; want 1", p)
	}
	second := make(chan int, 10)
	go func() {
		if err := q.acquire(t.Context(), "c", func(p int) { second <- p }); err == nil {
			q.release()
		}
	}()
	if p := <-second; p != 2 {
		t.Errorf("second waiter position = %d; want 2", p)
	}
	if err := q.acquire(t.Context(), "d", nil); !errors.Is(err, ErrBusy) {
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
	q.release()
	for q.len() != 0 {
		time.Sleep(time.Millisecond)
	}
}
