package sandbox

import (
	"context"
	"errors"
	"sync"
)

// ErrBusy is returned by the queue when it is full.
var ErrBusy = errors.New("sandbox queue is full")

// queue hands out a fixed number of slots to waiting runs, fair across
// keys (client IPs): waiters are served round-robin by key, so one key with
// many queued runs cannot starve another. The zero value is not usable; use
// newQueue. It is safe for concurrent use.
type queue struct {
	max int // waiters allowed at once

	mu      sync.Mutex // guards the fields below
	free    int
	keys    []string // keys with waiters, in service order starting at next
	next    int
	waiting map[string][]*waiter
	n       int
}

type waiter struct {
	granted chan struct{} // closed when the slot is handed over
	pos     chan int      // latest position, buffered 1
	last    int
}

func newQueue(slots, max int) *queue {
	return &queue{max: max, free: slots, waiting: map[string][]*waiter{}}
}

// acquire waits for a slot. It calls onPosition (on the caller's
// goroutine) with the 1-based queue position whenever it changes, returns
// ErrBusy at once when the queue is full, and ctx's error when ctx ends
// first, in which case the waiter has left the queue. A nil error must be
// paired with release.
func (q *queue) acquire(ctx context.Context, key string, onPosition func(int)) error {
	q.mu.Lock()
	if q.free > 0 && q.n == 0 {
		q.free--
		q.mu.Unlock()
		return nil
	}
	if q.n >= q.max {
		q.mu.Unlock()
		return ErrBusy
	}
	w := &waiter{granted: make(chan struct{}), pos: make(chan int, 1)}
	if len(q.waiting[key]) == 0 {
		q.keys = append(q.keys, key)
	}
	q.waiting[key] = append(q.waiting[key], w)
	q.n++
	q.renumberLocked()
	q.mu.Unlock()

	for {
		select {
		case <-w.granted:
			return nil
		case p := <-w.pos:
			onPosition(p)
		case <-ctx.Done():
			q.mu.Lock()
			select {
			case <-w.granted: // handed a slot just now: give it back
				q.mu.Unlock()
				q.release()
			default:
				q.removeLocked(key, w)
				q.renumberLocked()
				q.mu.Unlock()
			}
			return ctx.Err()
		}
	}
}

// release returns a slot and hands it to the next waiter, if any.
func (q *queue) release() {
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.n == 0 {
		q.free++
		return
	}
	q.next %= len(q.keys)
	key := q.keys[q.next]
	w := q.waiting[key][0]
	q.removeLocked(key, w)
	if len(q.waiting[key]) > 0 {
		q.next++ // the key keeps its place; the next key is served next
	}
	close(w.granted)
	q.renumberLocked()
}

// removeLocked takes w out of key's line. q.mu must be held.
func (q *queue) removeLocked(key string, w *waiter) {
	ws := q.waiting[key]
	for i, x := range ws {
		if x == w {
			ws = append(ws[:i], ws[i+1:]...)
			q.n--
			break
		}
	}
	if len(ws) > 0 {
		q.waiting[key] = ws
		return
	}
	delete(q.waiting, key)
	for i, k := range q.keys {
		if k == key {
			q.keys = append(q.keys[:i], q.keys[i+1:]...)
			if i < q.next {
				q.next--
			}
			break
		}
	}
}

// renumberLocked recomputes every waiter's position in service order and
// notifies those whose position changed. q.mu must be held.
func (q *queue) renumberLocked() {
	if len(q.keys) == 0 {
		q.next = 0
		return
	}
	q.next %= len(q.keys)
	pos := 1
	for depth := 0; pos <= q.n; depth++ {
		for i := range q.keys {
			ws := q.waiting[q.keys[(q.next+i)%len(q.keys)]]
			if depth >= len(ws) {
				continue
			}
			w := ws[depth]
			if w.last != pos {
				w.last = pos
				select {
				case <-w.pos:
				default:
				}
				w.pos <- pos
			}
			pos++
		}
	}
}

// len reports the number of waiting runs.
func (q *queue) len() int {
	q.mu.Lock()
	defer q.mu.Unlock()
	return q.n
}
