package runs

import (
	"context"
	"encoding/json"
	"io"
	"sync"
	"time"

	"github.com/playground-dev/playground/ws"
)

// Run is one run in the hub. Its messages arrive through Tee (or Publish)
// from one goroutine at a time, in seq order, done last. Its methods are
// safe for concurrent use.
type Run struct {
	hub        *Hub
	id, key    string
	token      string
	opened     time.Time
	registered bool         // in hub.byToken (false after Hub.Close)
	stream     StreamWriter // nil without a Stream

	inline [4]Item // the first messages' room: a short run allocates no buffer

	mu       sync.Mutex // guards the fields below
	items    []Item     // the buffer: consecutive seqs, oldest first
	bytes    int        // Size of items
	reserved int64      // budget taken from the hub (chunks)
	last     uint64     // seq of the latest message published
	done     *ws.Done   // the run's done, once published
	ended    time.Time  // when done was published
	removed  bool       // left the hub: no more buffering
	watchers map[*Watcher]struct{}
	orphan   bool               // its owner left (Orphan)
	grace    time.Duration      // how long it runs with nobody
	cancel   context.CancelFunc // cancels the run (Orphan)
	timer    *time.Timer        // the grace's timer, while nobody follows it
}

// Item is one message of a run: its seq and type, and its value V (a ws
// run message) or its encoded bytes B (from a Stream).
type Item struct {
	Seq  uint64
	Type string
	V    any
	B    []byte
}

// Bytes returns the message's JSON encoding (ws.Marshal's bytes).
func (it Item) Bytes() ([]byte, error) {
	if it.B != nil {
		return it.B, nil
	}
	return ws.Marshal(it.V)
}

// Value returns what a transport sends: V, or B as raw JSON.
func (it Item) Value() any {
	if it.V != nil {
		return it.V
	}
	return json.RawMessage(it.B)
}

// ID returns the run's id.
func (r *Run) ID() string { return r.id }

// Token returns the run's watch token.
func (r *Run) Token() string { return r.token }

// Tee returns send with r in front of it: each message goes into r's
// buffer and to its watchers (Publish), a started message carrying r's
// watch token (started.watch), then to send. A nil r returns send.
func (r *Run) Tee(send func(any)) func(any) {
	if r == nil {
		return send
	}
	return func(v any) {
		if st, ok := v.(ws.Started); ok {
			st.Watch = r.token
			v = st
		}
		r.Publish(v)
		send(v)
	}
}

// Publish keeps v, a run message of r (a ws value), in r's buffer and
// wakes r's watchers. It never blocks on a watcher. Messages that are not
// run messages are ignored.
func (r *Run) Publish(v any) {
	h := header(v)
	if h == nil {
		return
	}
	it := Item{Seq: h.Seq, Type: h.Type, V: v}
	n := Size(v)
	cfg := &r.hub.cfg
	r.mu.Lock()
	if r.removed {
		r.mu.Unlock()
		return
	}
	if need := int64(r.bytes + n + perRun); need > r.reserved {
		want := (need - r.reserved + chunk - 1) / chunk * chunk
		r.mu.Unlock()
		ok := r.registered && r.hub.reserve(r.key, want)
		r.mu.Lock()
		if ok {
			if r.removed { // evicted meanwhile
				r.mu.Unlock()
				r.hub.release(r.key, want)
				return
			}
			r.reserved += want
		}
	}
	if r.items == nil {
		r.items = r.inline[:0]
	}
	r.items = append(r.items, it)
	r.bytes += n
	r.last = it.Seq
	// The window: oldest messages leave past the bounds, or past what the
	// budget gave (never the one just added).
	for len(r.items) > 1 && (len(r.items) > cfg.BufferMessages || r.bytes > cfg.BufferBytes || int64(r.bytes+perRun) > r.reserved) {
		r.bytes -= Size(r.items[0].V)
		r.items[0] = Item{}
		r.items = r.items[1:]
	}
	var finished bool
	if d, ok := v.(ws.Done); ok {
		r.done, r.ended, finished = &d, time.Now(), true
		if r.timer != nil {
			r.timer.Stop()
		}
	}
	for w := range r.watchers {
		w.wake()
	}
	r.mu.Unlock()
	if r.stream != nil {
		r.stream.Write(it)
	}
	if finished && r.registered {
		r.hub.finish(r)
	}
}

func (r *Run) isRemoved() bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.removed
}

// Done returns the run's done message once it has been published.
func (r *Run) Done() (ws.Done, bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.done == nil {
		return ws.Done{}, false
	}
	return *r.done, true
}

// Close ends r's registration when it never published its done (a run the
// engine refused before executing it): it leaves the hub at once.
func (r *Run) Close() {
	r.mu.Lock()
	ended := r.done != nil
	r.mu.Unlock()
	if ended || !r.registered {
		return
	}
	r.hub.mu.Lock()
	x := r.hub.removeLocked(r)
	r.hub.mu.Unlock()
	if x != nil {
		x.dropWatchers()
	}
	if r.stream != nil {
		r.stream.Close()
	}
}

// Orphan says r's owner left (its socket closed) and r asked to outlive it:
// r goes on for up to grace while nobody watches it (the time restarts
// when its last watcher leaves), then cancel is called; a watcher that
// comes stops the count. A finished run ignores Orphan.
func (r *Run) Orphan(grace time.Duration, cancel context.CancelFunc) {
	r.mu.Lock()
	if r.done != nil || r.removed {
		r.mu.Unlock()
		cancel()
		return
	}
	r.orphan, r.grace, r.cancel = true, grace, cancel
	if len(r.watchers) == 0 {
		r.timer = time.AfterFunc(grace, r.graceOver)
	}
	r.mu.Unlock()
	r.hub.mu.Lock()
	closed := r.hub.closed
	if !closed {
		r.hub.orphans[r] = struct{}{}
	}
	r.hub.mu.Unlock()
	if closed {
		cancel()
	}
}

// remoteRecheck is how often an orphan whose grace ran out while a watcher
// on another instance follows it asks again.
const remoteRecheck = time.Second

// graceOver ends an orphan's grace: the run is cancelled, unless a watcher
// on another instance follows it (Stream.Watched), which holds it like a
// local watcher.
func (r *Run) graceOver() {
	r.mu.Lock()
	held := len(r.watchers) > 0 || r.done != nil // a watcher came as the timer fired
	r.mu.Unlock()
	if held {
		return
	}
	if s := r.hub.cfg.Stream; s != nil && s.Watched(r.token) {
		r.mu.Lock()
		if r.timer != nil && r.done == nil && len(r.watchers) == 0 {
			r.timer.Reset(remoteRecheck)
		}
		r.mu.Unlock()
		return
	}
	r.cancelOrphan()
}

func (r *Run) cancelOrphan() {
	r.mu.Lock()
	c := r.cancel
	r.mu.Unlock()
	if c != nil {
		c()
	}
}

func (r *Run) dropWatchers() {
	r.mu.Lock()
	for w := range r.watchers {
		w.dropped = true
		w.wake()
	}
	r.mu.Unlock()
}

func (r *Run) watch(after uint64) (*Watcher, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.removed {
		return nil, ErrNotFound
	}
	if after < r.last && len(r.items) > 0 && r.items[0].Seq > after+1 {
		return nil, ErrGone
	}
	if len(r.watchers) >= r.hub.cfg.MaxWatchers {
		return nil, ErrTooManyWatchers
	}
	w := &Watcher{run: r, cursor: after, signal: make(chan struct{}, 1)}
	if r.watchers == nil {
		r.watchers = map[*Watcher]struct{}{}
	}
	r.watchers[w] = struct{}{}
	if r.timer != nil {
		r.timer.Stop()
		r.timer = nil
	}
	return w, nil
}

// Watcher reads one run's messages after its cursor (Hub.Watch). Next and
// Close may be called from one goroutine at a time; Close may also be
// called concurrently with Next.
type Watcher struct {
	run    *Run
	remote Remote // set instead of run for a watcher of another instance's run

	cursor  uint64
	signal  chan struct{} // a message came, or the watcher was dropped
	dropped bool          // guarded by run.mu
	closeMu sync.Mutex
	closed  bool
}

// Remote is a watcher of a run another instance holds (Stream.Watch).
type Remote interface {
	// Next is Watcher.Next.
	Next(ctx context.Context) ([]Item, error)
	Close()
}

// NewRemoteWatcher wraps a Stream's watcher.
func NewRemoteWatcher(r Remote) *Watcher { return &Watcher{remote: r} }

func (w *Watcher) wake() {
	select {
	case w.signal <- struct{}{}:
	default:
	}
}

// Cursor returns the seq of the last message Next returned (or the
// watcher's starting cursor).
func (w *Watcher) Cursor() uint64 { return w.cursor }

// maxBatch bounds the messages one Next returns.
const maxBatch = 256

// Next returns the next messages after the cursor, in seq order, waiting
// until there is one or ctx ends. It returns io.EOF after the run's done
// has been returned, ErrDropped when the watcher fell behind the buffer
// or the run left the hub, and ctx's error when ctx ends first.
func (w *Watcher) Next(ctx context.Context) ([]Item, error) {
	if w.remote != nil {
		items, err := w.remote.Next(ctx)
		if len(items) > 0 {
			w.cursor = items[len(items)-1].Seq
		}
		return items, err
	}
	r := w.run
	for {
		r.mu.Lock()
		if w.dropped {
			r.mu.Unlock()
			return nil, ErrDropped
		}
		if w.cursor < r.last {
			if len(r.items) == 0 || r.items[0].Seq > w.cursor+1 {
				r.mu.Unlock()
				return nil, ErrDropped
			}
			i := int(w.cursor + 1 - r.items[0].Seq)
			j := min(len(r.items), i+maxBatch)
			out := make([]Item, j-i)
			copy(out, r.items[i:j])
			r.mu.Unlock()
			w.cursor = out[len(out)-1].Seq
			return out, nil
		}
		end := r.done != nil
		r.mu.Unlock()
		if end {
			return nil, io.EOF
		}
		select {
		case <-w.signal:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
}

// Close removes the watcher from its run. When the run is an orphan and
// this was its last watcher, the run's grace starts again.
func (w *Watcher) Close() {
	w.closeMu.Lock()
	if w.closed {
		w.closeMu.Unlock()
		return
	}
	w.closed = true
	w.closeMu.Unlock()
	if w.remote != nil {
		w.remote.Close()
		return
	}
	r := w.run
	r.mu.Lock()
	delete(r.watchers, w)
	if r.orphan && len(r.watchers) == 0 && r.done == nil && !r.removed && r.timer == nil {
		r.timer = time.AfterFunc(r.grace, r.graceOver)
	}
	r.mu.Unlock()
}
