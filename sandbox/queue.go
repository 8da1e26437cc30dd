package sandbox

import (
	"context"
	"errors"
	"slices"
	"sync"
)

// ErrBusy is returned by the queue when it is full (see queue).
var ErrBusy = errors.New("sandbox queue is full")

// queue hands out worker slots to runs, fair across keys (client IPs or
// API keys): waiters are served round-robin by key, so one key with many
// queued runs cannot starve another.
//
// Round-robin alone cannot help a key that arrives while another holds
// every slot with runs that only wait (on host calls, on timers): the slots
// free only when those runs end. So beside the normal slots the queue keeps
// reserve slots (started spare workers) that only a key holding no slot may
// take. One client can then fill every normal slot, and another client's
// run still starts at once.
//
// The waiting places are shared fairly too: when the queue is full, a run
// whose key has fewer waiters than the key with the most takes the place of
// that key's newest waiter, which ends with ErrBusy (longest queue drop).
// Many clients each at their own run cap then cannot fill the queue so that
// a client with nothing queued is answered busy.
//
// A parked run (see park.go) gave its slot back while it waits on the host
// and takes one again with resume before its worker goes on. Its resume
// waiter is never dropped, takes no waiting place (max counts new runs
// only), is not counted in len, and stands ahead of its key's new runs:
// keys are still served round-robin, so a key's parked runs resume before
// its new runs start but never ahead of another key's turn. The zero value
// is not usable; use newQueue. It is safe for concurrent use.
type queue struct {
	max int // waiters allowed at once

	mu      sync.Mutex // guards the fields below
	free    int        // normal slots free
	reserve int        // reserve slots free
	held    map[string]int
	keys    []string // keys with waiters, in service order starting at next
	next    int
	waiting map[string][]*waiter // each key's line: its resume waiters first
	n       int                  // waiters, resume waiters included
	resumes int                  // resume waiters
	wake    chan struct{}        // closed when a waiter is queued (see contended)
}

type waiter struct {
	key     string
	resume  bool          // a parked run taking a slot back
	granted chan struct{} // closed when a slot is handed over
	dropped chan struct{} // closed when a waiter of a shorter key took its place
	slot    slot          // which, set before granted is closed
	pos     chan int      // latest position, buffered 1
	last    int
}

// slot says which kind of slot a run holds, to give it back there.
type slot int

const (
	normalSlot slot = iota
	reserveSlot
)

func newQueue(slots, reserve, max int) *queue {
	return &queue{max: max, free: slots, reserve: reserve, held: map[string]int{}, waiting: map[string][]*waiter{}}
}

// acquire waits for a slot for key. It calls onPosition (on the caller's
// goroutine) with the 1-based queue position whenever it changes, returns
// ErrBusy at once when the queue is full and key's line is not shorter than
// every other (later, when a shorter key's run takes this waiter's place),
// and ctx's error when ctx ends first, in which case the waiter has left
// the queue. On success it
// returns release, which gives the slot back and must be called once.
func (q *queue) acquire(ctx context.Context, key string, onPosition func(int)) (release func(), err error) {
	return q.wait(ctx, key, false, onPosition)
}

// resume waits for a slot for a parked run of key (see queue): it never
// returns ErrBusy, only ctx's error when ctx ends first. On success it
// returns release, as acquire does.
func (q *queue) resume(ctx context.Context, key string) (release func(), err error) {
	return q.wait(ctx, key, true, func(int) {})
}

func (q *queue) wait(ctx context.Context, key string, resume bool, onPosition func(int)) (release func(), err error) {
	q.mu.Lock()
	switch {
	case q.free > 0 && q.n == 0:
		q.free--
		return q.grantLocked(key, normalSlot), nil
	case q.reserve > 0 && q.held[key] == 0:
		q.reserve--
		return q.grantLocked(key, reserveSlot), nil
	case !resume && q.n-q.resumes >= q.max:
		long := q.longestLocked()
		if long == "" || q.lineLocked(long) < q.lineLocked(key)+2 {
			q.mu.Unlock()
			return nil, ErrBusy
		}
		ws := q.waiting[long]
		drop := ws[len(ws)-1] // the longest line's newest waiter (never a resume one) makes room
		q.removeLocked(drop)
		close(drop.dropped)
	}
	w := &waiter{key: key, resume: resume, granted: make(chan struct{}), dropped: make(chan struct{}), pos: make(chan int, 1)}
	ws := q.waiting[key]
	if len(ws) == 0 {
		q.keys = append(q.keys, key)
	}
	at := len(ws)
	if resume {
		at = len(ws) - q.lineLocked(key) // behind the key's earlier resume waiters, ahead of its new runs
		q.resumes++
	}
	q.waiting[key] = slices.Insert(ws, at, w)
	q.n++
	q.renumberLocked()
	if q.wake != nil {
		close(q.wake)
		q.wake = nil
	}
	q.mu.Unlock()

	for {
		select {
		case <-w.granted:
			return q.releaser(key, w.slot), nil
		case <-w.dropped:
			return nil, ErrBusy
		case p := <-w.pos:
			onPosition(p)
		case <-ctx.Done():
			q.mu.Lock()
			select {
			case <-w.granted: // handed a slot just now: give it back
				q.mu.Unlock()
				q.releaser(key, w.slot)()
			case <-w.dropped: // already out of the queue
				q.mu.Unlock()
			default:
				q.removeLocked(w)
				q.renumberLocked()
				q.mu.Unlock()
			}
			return nil, ctx.Err()
		}
	}
}

// grantLocked records that key holds a slot of kind s and unlocks q.
func (q *queue) grantLocked(key string, s slot) func() {
	q.held[key]++
	q.mu.Unlock()
	return q.releaser(key, s)
}

// releaser returns the func that gives key's slot of kind s back, once.
func (q *queue) releaser(key string, s slot) func() {
	var once sync.Once
	return func() { once.Do(func() { q.release(key, s) }) }
}

// release gives back key's slot of kind s and hands it to the next waiter
// that may take it: any waiter, round-robin by key, for a normal slot; the
// first waiter in service order whose key holds no slot, for a reserve one.
// A free reserve slot then goes to such a waiter too: key may just have
// released its last slot while its runs wait.
func (q *queue) release(key string, s slot) {
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.held[key]--; q.held[key] <= 0 {
		delete(q.held, key)
	}
	if s == normalSlot {
		q.free++
	} else {
		q.reserve++
	}
	if q.free > 0 {
		if w := q.nextLocked(func(string) bool { return true }); w != nil {
			q.free--
			q.handLocked(w, normalSlot)
		}
	}
	for q.reserve > 0 {
		w := q.nextLocked(func(k string) bool { return q.held[k] == 0 })
		if w == nil {
			break
		}
		q.reserve--
		q.handLocked(w, reserveSlot)
	}
	q.renumberLocked()
}

// handLocked gives w, the first waiter of the key at q.next, a slot of kind
// s. q.mu must be held.
func (q *queue) handLocked(w *waiter, s slot) {
	q.removeLocked(w)
	if len(q.waiting[w.key]) > 0 && q.keys[q.next%len(q.keys)] == w.key {
		q.next++ // the key keeps its place; the next key is served next
	}
	q.held[w.key]++
	w.slot = s
	close(w.granted)
}

// nextLocked returns the first waiter in service order whose key may take
// the slot, or nil. q.mu must be held.
func (q *queue) nextLocked(may func(key string) bool) *waiter {
	for i := range q.keys {
		key := q.keys[(q.next+i)%len(q.keys)]
		if may(key) {
			q.next = (q.next + i) % len(q.keys)
			return q.waiting[key][0]
		}
	}
	return nil
}

// longestLocked returns the key with the most waiters (the first in
// service order among equals), or "" when none waits. q.mu must be held.
func (q *queue) longestLocked() string {
	long := ""
	for _, k := range q.keys {
		if q.lineLocked(k) > 0 && (long == "" || q.lineLocked(k) > q.lineLocked(long)) {
			long = k
		}
	}
	return long
}

// lineLocked counts key's waiting new runs (its resume waiters left out).
// q.mu must be held.
func (q *queue) lineLocked(key string) int {
	n := 0
	for _, w := range q.waiting[key] {
		if !w.resume {
			n++
		}
	}
	return n
}

// removeLocked takes w out of its key's line. q.mu must be held.
func (q *queue) removeLocked(w *waiter) {
	key := w.key
	ws := q.waiting[key]
	for i, x := range ws {
		if x == w {
			ws = append(ws[:i], ws[i+1:]...)
			q.n--
			if w.resume {
				q.resumes--
			}
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

// contended reports whether a run waits for a slot (a new run or a
// parked one to resume), and returns a channel closed when one is next
// queued.
func (q *queue) contended() (bool, <-chan struct{}) {
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.wake == nil {
		q.wake = make(chan struct{})
	}
	return q.n > 0, q.wake
}

// len reports the number of waiting new runs (parked runs waiting to
// resume are not counted).
func (q *queue) len() int {
	q.mu.Lock()
	defer q.mu.Unlock()
	return q.n - q.resumes
}
