package sandbox

import (
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"runtime"
	"sync"
	"sync/atomic"
	"time"
)

// Config configures a Pool. The zero value works; each field's default is
// stated beside it.
type Config struct {
	// Workers is how many runs execute at once. Defaults to runtime.NumCPU().
	Workers int
	// QueueSize is how many runs may wait for a worker; past it Run answers
	// OutcomeBusy. Defaults to 64 per worker.
	QueueSize int
	// DefaultTimeout is a run's timeout when the request gives none. Defaults to 5s.
	DefaultTimeout time.Duration
	// MinTimeout and MaxTimeout bound a requested timeout. Default 50ms and 30s.
	MinTimeout, MaxTimeout time.Duration
	// Limits caps output, events, timers and previews of each run.
	Limits Limits
	// BundleCache is how many bundles are kept by content hash. Defaults to 256.
	BundleCache int
	// Log receives server-side details (internal errors). Defaults to slog.Default().
	Log *slog.Logger
}

func (c Config) withDefaults() Config {
	if c.Workers <= 0 {
		c.Workers = runtime.NumCPU()
	}
	if c.QueueSize <= 0 {
		c.QueueSize = 64 * c.Workers
	}
	if c.DefaultTimeout <= 0 {
		c.DefaultTimeout = 5 * time.Second
	}
	if c.MinTimeout <= 0 {
		c.MinTimeout = 50 * time.Millisecond
	}
	if c.MaxTimeout <= 0 {
		c.MaxTimeout = 30 * time.Second
	}
	c.MaxTimeout = max(c.MaxTimeout, c.MinTimeout)
	c.DefaultTimeout = min(max(c.DefaultTimeout, c.MinTimeout), c.MaxTimeout)
	if c.BundleCache <= 0 {
		c.BundleCache = 256
	}
	if c.Log == nil {
		c.Log = slog.Default()
	}
	c.Limits = c.Limits.withDefaults()
	return c
}

// Pool runs snippets, at most Config.Workers at once, queueing the rest
// fairly by Request.Key. It is safe for concurrent use.
type Pool struct {
	cfg    Config
	queue  *queue
	cache  *bundleCache
	closed chan struct{}
	once   sync.Once

	running atomic.Int64
	runs    atomic.Int64
}

// NewPool returns a pool ready to run.
func NewPool(cfg Config) *Pool {
	cfg = cfg.withDefaults()
	return &Pool{
		cfg:    cfg,
		queue:  newQueue(cfg.Workers, cfg.QueueSize),
		cache:  newBundleCache(cfg.BundleCache),
		closed: make(chan struct{}),
	}
}

// PoolStats is a point-in-time view of a pool.
type PoolStats struct {
	Workers int   `json:"workers"`
	Busy    int64 `json:"busy"`
	Queued  int   `json:"queued"`
	Runs    int64 `json:"runs"`
}

// Stats reports the pool's current load.
func (p *Pool) Stats() PoolStats {
	return PoolStats{Workers: p.cfg.Workers, Busy: p.running.Load(), Queued: p.queue.len(), Runs: p.runs.Load()}
}

// Announced is what a client is told about the pool's limits.
type Announced struct {
	TimeoutMs struct {
		Default float64 `json:"default"`
		Min     float64 `json:"min"`
		Max     float64 `json:"max"`
	} `json:"timeoutMs"`
	Limits
	Modules []string `json:"modules"`
}

// Announce returns the limits runs are held to and the importable modules.
func (p *Pool) Announce() Announced {
	var a Announced
	a.TimeoutMs.Default = ms(p.cfg.DefaultTimeout)
	a.TimeoutMs.Min = ms(p.cfg.MinTimeout)
	a.TimeoutMs.Max = ms(p.cfg.MaxTimeout)
	a.Limits = p.cfg.Limits
	a.Modules = []string{RuntimeModule}
	return a
}

// ErrClosed is returned by Run after Close.
var ErrClosed = errors.New("sandbox pool is closed")

// Run bundles and executes req, calling emit for each event in order from
// one goroutine at a time; emit must not block. A snippet's failure is a
// successful Run: it is in Result.Outcome and the error events. err is
// non-nil only for server faults (then nothing more is emitted). When ctx
// ends the run stops at once with OutcomeCancelled.
func (p *Pool) Run(ctx context.Context, req Request, emit func(Event)) (res Result, err error) {
	select {
	case <-p.closed:
		return Result{}, ErrClosed
	default:
	}
	res.Facts = map[string]json.RawMessage{}
	timeout := p.clamp(req.Timeout)
	res.TimeoutMs = ms(timeout)
	entry := req.Entry
	if entry == "" {
		entry = DefaultEntry(req.Files)
	}
	if entry == "" {
		emit(Event{Kind: EventError, Error: &Error{Kind: KindInvalidRequest, Message: "no entry file: name one with \"entry\" or add src/main.ts"}})
		res.Outcome = OutcomeInvalid
		return res, nil
	}

	queued := time.Now()
	if err := p.queue.acquire(ctx, req.Key, func(pos int) { emit(Event{Kind: EventQueued, Position: pos}) }); err != nil {
		res.Stats.QueueMs = ms(time.Since(queued))
		if errors.Is(err, ErrBusy) {
			res.Outcome, res.RetryAfter = OutcomeBusy, time.Second
			return res, nil
		}
		res.Outcome = OutcomeCancelled
		return res, nil
	}
	defer p.queue.release()
	res.Stats.QueueMs = ms(time.Since(queued))
	p.running.Add(1)
	defer p.running.Add(-1)
	p.runs.Add(1)

	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("run panicked: %v", r)
		}
	}()

	t0 := time.Now()
	b := p.cache.get(req.Files, entry)
	bundleMs := ms(time.Since(t0))
	if len(b.Errors) > 0 {
		for i := range b.Errors {
			emit(Event{Kind: EventError, Error: &b.Errors[i]})
		}
		res.Stats.BundleMs = bundleMs
		res.Outcome = OutcomeError
		if b.Errors[0].Kind == KindInvalidRequest {
			res.Outcome = OutcomeInvalid
		}
		return res, nil
	}
	if ctx.Err() != nil {
		res.Outcome = OutcomeCancelled
		return res, nil
	}
	r := execute(ctx, job{Code: b.Code, Input: req.Input, Timeout: timeout, Deterministic: req.Deterministic, Limits: p.cfg.Limits}, emit)
	r.Stats.QueueMs = res.Stats.QueueMs
	r.Stats.BundleMs = bundleMs
	return r, nil
}

func (p *Pool) clamp(d time.Duration) time.Duration {
	if d <= 0 {
		return p.cfg.DefaultTimeout
	}
	return min(max(d, p.cfg.MinTimeout), p.cfg.MaxTimeout)
}

// Close stops accepting runs. Runs in flight finish on their own.
func (p *Pool) Close() error {
	p.once.Do(func() { close(p.closed) })
	return nil
}

// bundleCache keeps recent bundles by content hash. It is safe for concurrent use.
type bundleCache struct {
	size int

	mu    sync.Mutex // guards the fields below
	m     map[[32]byte]*cacheEntry
	clock uint64
}

type cacheEntry struct {
	b    bundled
	used uint64
}

func newBundleCache(size int) *bundleCache {
	return &bundleCache{size: size, m: map[[32]byte]*cacheEntry{}}
}

// get returns the bundle of files, building it on a miss.
func (c *bundleCache) get(files []File, entry string) bundled {
	key := bundleKey(files, entry)
	c.mu.Lock()
	if e, ok := c.m[key]; ok {
		c.clock++
		e.used = c.clock
		c.mu.Unlock()
		return e.b
	}
	c.mu.Unlock()
	b := bundle(files, entry)
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.m) >= c.size {
		var oldest [32]byte
		var min uint64 = ^uint64(0)
		for k, e := range c.m {
			if e.used < min {
				oldest, min = k, e.used
			}
		}
		delete(c.m, oldest)
	}
	c.clock++
	c.m[key] = &cacheEntry{b: b, used: c.clock}
	return b
}

// bundleKey hashes what decides a bundle's bytes: the bundler version
// (options live in this binary), the entry and the files, each length-prefixed.
func bundleKey(files []File, entry string) [32]byte {
	h := sha256.New()
	write := func(s string) {
		var n [8]byte
		binary.LittleEndian.PutUint64(n[:], uint64(len(s)))
		h.Write(n[:])
		h.Write([]byte(s))
	}
	write(esbuildVersion)
	write(entry)
	for _, f := range files {
		write(f.Path)
		write(f.Source)
	}
	var k [32]byte
	h.Sum(k[:0])
	return k
}
