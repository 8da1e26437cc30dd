package runs

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"github.com/playground-dev/playground/ws"
)

// Config configures a Hub. Zero fields take the defaults named on each.
type Config struct {
	// BufferBytes and BufferMessages bound one run's buffer (its window of
	// latest messages, by the estimate Size). Defaults 4 MiB and 20,000.
	BufferBytes    int
	BufferMessages int
	// ClientBytes bounds the buffers of one client key's runs together,
	// TotalBytes those of all runs. Past ClientBytes the client's own
	// oldest finished runs leave the hub early, then a live run's buffer
	// drops its oldest messages; past TotalBytes the oldest finished runs
	// leave the hub early. Defaults 16 MiB and 64 MiB.
	ClientBytes, TotalBytes int64
	// Retain is how long a finished run stays watchable. Default 30s.
	Retain time.Duration
	// MaxWatchers caps the watchers of one run. Default 32.
	MaxWatchers int
	// DetachMax caps a run's detach.graceMs. Default 10m; negative: runs
	// may not detach (their detach is ignored).
	DetachMax time.Duration
	// Stream, if set, carries every run's messages to other instances
	// (NewRedisStream); nil: watching works within this process.
	Stream Stream
	Log    *slog.Logger
}

// Defaults of Config.
const (
	DefaultBufferBytes    = 4 << 20
	DefaultBufferMessages = 20_000
	DefaultClientBytes    = 16 << 20
	DefaultTotalBytes     = 64 << 20
	DefaultRetain         = 30 * time.Second
	DefaultMaxWatchers    = 32
	DefaultDetachMax      = 10 * time.Minute
)

func (c Config) withDefaults() Config {
	if c.BufferBytes <= 0 {
		c.BufferBytes = DefaultBufferBytes
	}
	if c.BufferMessages <= 0 {
		c.BufferMessages = DefaultBufferMessages
	}
	if c.ClientBytes <= 0 {
		c.ClientBytes = DefaultClientBytes
	}
	if c.TotalBytes <= 0 {
		c.TotalBytes = DefaultTotalBytes
	}
	if c.Retain <= 0 {
		c.Retain = DefaultRetain
	}
	if c.MaxWatchers <= 0 {
		c.MaxWatchers = DefaultMaxWatchers
	}
	if c.DetachMax == 0 {
		c.DetachMax = DefaultDetachMax
	}
	if c.Log == nil {
		c.Log = slog.Default()
	}
	return c
}

// Errors of Hub.Watch and Watcher.Next.
var (
	// ErrNotFound: no live or retained run has this id and token (or the
	// token is of another run). Transports answer it exactly like an
	// unknown id (404), never hinting that the run exists.
	ErrNotFound = errors.New("no such run, or the watch token is wrong or expired")
	// ErrGone: the messages after the cursor have left the run's buffer
	// (it holds a window of the latest messages).
	ErrGone = errors.New("the messages after this cursor are no longer held (the run's buffer keeps a window of its latest messages)")
	// ErrTooManyWatchers: the run has Config.MaxWatchers watchers.
	ErrTooManyWatchers = errors.New("the run has as many watchers as the server allows")
	// ErrDropped: the watcher fell behind the run's buffer, or the hub
	// closed; its stream ends without done.
	ErrDropped = errors.New("watcher dropped: it fell behind the run's buffer")
)

// Hub is the registry of live and recently finished runs. It is safe for
// concurrent use. It owns one goroutine (the sweeper), ended by Close.
type Hub struct {
	cfg Config

	mu       sync.Mutex // guards the fields below
	byToken  map[string]*Run
	clients  map[string]int64 // bytes reserved by each client key's runs
	total    int64            // bytes reserved by all runs
	finished []*Run           // in the order they finished
	// finishedBy holds each client key's finished runs in the order they
	// finished (heads already removed are dropped lazily), so that a
	// client past ClientBytes gives up its own oldest finished runs first.
	finishedBy map[string][]*Run
	stale      int // runs in finished that left the hub early (their client's budget)
	orphans    map[*Run]struct{}
	closed     bool

	stop chan struct{}
	done chan struct{}
}

// New returns a Hub and starts its sweeper.
func New(cfg Config) *Hub {
	h := &Hub{cfg: cfg.withDefaults(), byToken: map[string]*Run{}, clients: map[string]int64{}, orphans: map[*Run]struct{}{}, finishedBy: map[string][]*Run{},
		stop: make(chan struct{}), done: make(chan struct{})}
	go h.sweep()
	return h
}

// Config returns the hub's effective configuration.
func (h *Hub) Config() Config { return h.cfg }

// DetachGrace returns how long a run that asked for graceMs may run with no
// owner: graceMs capped by Config.DetachMax; 0 when runs may not detach.
func (h *Hub) DetachGrace(graceMs float64) time.Duration {
	if h == nil || h.cfg.DetachMax < 0 || graceMs <= 0 {
		return 0
	}
	return min(time.Duration(graceMs*float64(time.Millisecond)), h.cfg.DetachMax)
}

// Close cancels every orphaned run (each still sends its done into its
// buffer), drops every watcher and stops the sweeper. Runs opened after
// Close are not registered (nobody can watch them).
func (h *Hub) Close() {
	h.mu.Lock()
	if h.closed {
		h.mu.Unlock()
		return
	}
	h.closed = true
	orphans := make([]*Run, 0, len(h.orphans))
	for r := range h.orphans {
		orphans = append(orphans, r)
	}
	runs := make([]*Run, 0, len(h.byToken))
	for _, r := range h.byToken {
		runs = append(runs, r)
	}
	h.mu.Unlock()
	close(h.stop)
	<-h.done
	for _, r := range orphans {
		r.cancelOrphan()
	}
	for _, r := range runs {
		r.dropWatchers()
	}
}

// chunk is the granularity in which a run reserves budget: a small run
// reserves once.
const chunk = 1 << 10

// perRun is what a run's entry costs beside its messages, counted with
// them: the Run (with its inline messages), its token, its map entries
// and the boxed message values (BenchmarkTee: about 1.7 KB allocated per
// hello run, messages included).
const perRun = 1024

// NewToken returns a fresh watch token: 16 bytes of crypto/rand, base64url
// without padding (22 characters).
func NewToken() string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	return base64.RawURLEncoding.EncodeToString(b[:])
}

// TokenHash is the hex-free digest under which a token is stored outside
// the process (the Redis stream's key): SHA-256, base64url.
func TokenHash(token string) string {
	s := sha256.Sum256([]byte(token))
	return base64.RawURLEncoding.EncodeToString(s[:])
}

// Open registers a new run of client key with run id id and returns it; its
// token is fresh. Open never fails; after Close the run is not registered.
func (h *Hub) Open(id, key string) *Run {
	r := &Run{hub: h, id: id, key: key, token: NewToken(), opened: time.Now()}
	h.mu.Lock()
	if !h.closed {
		h.byToken[r.token] = r
		r.registered = true
	}
	h.mu.Unlock()
	if h.cfg.Stream != nil {
		r.stream = h.cfg.Stream.Open(id, r.token)
	}
	return r
}

// Watch returns a watcher of the run id whose token is token, reading the
// messages with seq > after. Errors: ErrNotFound (also for a token of
// another run), ErrGone, ErrTooManyWatchers, or the Stream's.
func (h *Hub) Watch(ctx context.Context, id, token string, after uint64) (*Watcher, error) {
	h.mu.Lock()
	r := h.byToken[token]
	h.mu.Unlock()
	if r == nil || r.id != id {
		if r == nil && h.cfg.Stream != nil && token != "" {
			return h.cfg.Stream.Watch(ctx, id, token, after)
		}
		return nil, ErrNotFound
	}
	return r.watch(after)
}

// Lookup returns the local run id whose token is token, or nil: for the
// transports that read a finished run's done (the tape endpoint).
func (h *Hub) Lookup(id, token string) *Run {
	h.mu.Lock()
	r := h.byToken[token]
	h.mu.Unlock()
	if r == nil || r.id != id {
		return nil
	}
	return r
}

// Tape returns the tape of the run id whose token is token (done.tape),
// held here or, with a Stream, by another instance. ended is false while
// the run goes on; tape is empty when the run asked for none. Errors:
// ErrNotFound (as Watch), or the Stream's.
func (h *Hub) Tape(ctx context.Context, id, token string) (tape json.RawMessage, ended bool, err error) {
	if r := h.Lookup(id, token); r != nil {
		d, ok := r.Done()
		return d.Tape, ok, nil
	}
	if h.cfg.Stream == nil || token == "" {
		return nil, false, ErrNotFound
	}
	it, err := h.cfg.Stream.Last(ctx, id, token)
	if err != nil || it.Type != ws.TypeDone {
		return nil, false, err
	}
	var d struct {
		Tape json.RawMessage `json:"tape"`
	}
	if err := json.Unmarshal(it.B, &d); err != nil {
		return nil, true, fmt.Errorf("the run's done could not be read: %w", err)
	}
	return d.Tape, true, nil
}

// reserve takes n bytes of key's budget; false when ClientBytes would be
// crossed. Crossing TotalBytes makes the oldest finished runs leave.
func (h *Hub) reserve(key string, n int64) bool {
	h.mu.Lock()
	var evict []*Run
	for h.clients[key]+n > h.cfg.ClientBytes { // the client's own oldest finished runs go first
		h.trimKey(key)
		q := h.finishedBy[key]
		if len(q) == 0 {
			break
		}
		if x := h.removeLocked(q[0]); x != nil {
			evict = append(evict, x)
			h.stale++ // still in h.finished
		}
		h.trimKey(key)
	}
	if h.clients[key]+n > h.cfg.ClientBytes {
		h.mu.Unlock()
		dropAll(evict)
		return false
	}
	h.clients[key] += n
	h.total += n
	for h.total > h.cfg.TotalBytes && len(h.finished) > 0 {
		if x := h.popFinished(); x != nil {
			evict = append(evict, x)
		}
	}
	over := h.total > h.cfg.TotalBytes
	if over { // nothing finished is left to evict: refuse, giving n back
		h.clients[key] -= n
		h.total -= n
	}
	h.mu.Unlock()
	dropAll(evict)
	return !over
}

func dropAll(rs []*Run) {
	for _, r := range rs {
		r.dropWatchers()
	}
}

func (h *Hub) release(key string, n int64) {
	if n == 0 {
		return
	}
	h.mu.Lock()
	h.releaseLocked(key, n)
	h.mu.Unlock()
}

func (h *Hub) releaseLocked(key string, n int64) {
	h.total -= n
	if h.clients[key] -= n; h.clients[key] <= 0 {
		delete(h.clients, key)
	}
}

// removeLocked takes r out of the hub and gives its budget back; it
// returns r when it was still registered. h.mu is held.
func (h *Hub) removeLocked(r *Run) *Run {
	if !r.registered || h.byToken[r.token] != r {
		return nil
	}
	delete(h.byToken, r.token)
	delete(h.orphans, r)
	r.mu.Lock()
	n := r.reserved
	r.reserved, r.removed = 0, true
	r.items, r.bytes, r.inline = nil, 0, [4]Item{}
	r.mu.Unlock()
	h.releaseLocked(r.key, n)
	return r
}

// finish queues r for removal Retain from now.
func (h *Hub) finish(r *Run) {
	h.mu.Lock()
	delete(h.orphans, r)
	if r.registered && h.byToken[r.token] == r {
		if h.stale > 64 && h.stale > len(h.finished)/2 { // mostly runs that left early: compact
			live := h.finished[:0]
			for _, f := range h.finished {
				if !f.isRemoved() {
					live = append(live, f)
				}
			}
			clear(h.finished[len(live):])
			h.finished, h.stale = live, 0
		}
		h.finished = append(h.finished, r)
		h.trimKey(r.key)
		h.finishedBy[r.key] = append(h.finishedBy[r.key], r)
	}
	h.mu.Unlock()
}

// sweep removes finished runs Retain after their end, every Retain/10
// (at least 100 ms).
func (h *Hub) sweep() {
	defer close(h.done)
	t := time.NewTicker(max(h.cfg.Retain/10, 100*time.Millisecond))
	defer t.Stop()
	for {
		select {
		case <-h.stop:
			return
		case now := <-t.C:
			h.expire(now)
		}
	}
}

func (h *Hub) expire(now time.Time) {
	var gone []*Run
	h.mu.Lock()
	for len(h.finished) > 0 {
		r := h.finished[0]
		r.mu.Lock()
		end, removed := r.ended, r.removed
		r.mu.Unlock()
		if !removed && now.Sub(end) < h.cfg.Retain {
			break
		}
		if x := h.popFinished(); x != nil {
			gone = append(gone, x)
		}
	}
	h.mu.Unlock()
	dropAll(gone)
}

// popFinished removes the oldest finished run from the hub (when it is
// still there, it is returned). h.mu is held.
func (h *Hub) popFinished() *Run {
	r := h.finished[0]
	h.finished[0] = nil
	h.finished = h.finished[1:]
	x := h.removeLocked(r)
	if x == nil && h.stale > 0 {
		h.stale-- // it had left already (its client's budget)
	}
	h.trimKey(r.key)
	return x
}

// trimKey drops from the head of key's queue of finished runs those that
// have left the hub. h.mu is held.
func (h *Hub) trimKey(key string) {
	q := h.finishedBy[key]
	for len(q) > 0 && q[0].isRemoved() {
		q[0] = nil
		q = q[1:]
	}
	if len(q) == 0 {
		delete(h.finishedBy, key)
	} else {
		h.finishedBy[key] = q
	}
}

// Stats are the hub's figures.
type Stats struct {
	Runs  int   // live and retained runs
	Bytes int64 // budget reserved by their buffers
}

// Stats returns the hub's figures.
func (h *Hub) Stats() Stats {
	h.mu.Lock()
	defer h.mu.Unlock()
	return Stats{Runs: len(h.byToken), Bytes: h.total}
}

// header returns the run header of a run message, or nil.
func header(v any) *ws.RunHeader {
	switch m := v.(type) {
	case ws.Started:
		return &m.RunHeader
	case ws.Log:
		return &m.RunHeader
	case ws.Done:
		return &m.RunHeader
	case ws.Queued:
		return &m.RunHeader
	case ws.Fact:
		return &m.RunHeader
	case ws.Call:
		return &m.RunHeader
	case ws.CallStart:
		return &m.RunHeader
	case ws.Error:
		return &m.RunHeader
	}
	return nil
}

// Size estimates the memory a run message holds, in bytes: a fixed part
// and its strings and raw JSON. It is what the buffers count.
func Size(v any) int {
	const base = 96
	switch m := v.(type) {
	case ws.Log:
		n := base + len(m.Text)
		for _, a := range m.Args {
			n += 24 + len(a)
		}
		return n
	case ws.Fact:
		return base + len(m.Key) + len(m.Value)
	case ws.Call:
		n := base + len(m.Name) + len(m.Error) + len(m.Result)
		for _, a := range m.Args {
			n += 24 + len(a)
		}
		return n
	case ws.CallStart:
		n := base + len(m.Name)
		for _, a := range m.Args {
			n += 24 + len(a)
		}
		return n
	case ws.Error:
		return base + len(m.Message) + len(m.Stack) + len(m.File)
	case ws.Done:
		n := 2*base + len(m.Output) + len(m.Tape)
		for k, f := range m.Facts {
			n += 48 + len(k) + len(f)
		}
		return n
	}
	return base
}
