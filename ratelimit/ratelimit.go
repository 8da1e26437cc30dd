// Package ratelimit bounds what one client key (an IP, an API key name) may
// do: start runs at a rate (token buckets) and hold a number of things at
// once (sockets, active runs).
//
// For one instance: Limiter keeps one token bucket per key over
// golang.org/x/time/rate, with bounded memory (idle keys are evicted, and
// past Config.MaxKeys the least recently seen key is dropped); LocalCounts
// counts held slots in memory.
//
// For several instances: a Store connects to the Redis they share;
// SharedLimiter (github.com/go-redis/redis_rate) and SharedCounts (expiring
// leases) decide there, so N instances enforce one budget per key. While
// Redis is unreachable they decide in-process; Store.Status says so for
// readiness, and Store.Fallbacks counts it for metrics.
//
//	store, err := ratelimit.NewStore(ratelimit.StoreConfig{URL: "redis://10.0.0.20:6379/0", Log: log})
//	if err != nil { … } // a malformed URL only; an unreachable Redis is a fallback
//	defer store.Close()
//	runs := ratelimit.NewShared(store, "runs", ratelimit.Config{PerSecond: 4, Burst: 8})
//	sockets := ratelimit.NewSharedCounts(store, "sockets", 16)
//	if release, ok := sockets.Acquire(ip); ok { defer release(); … }
package ratelimit

import (
	"sync"
	"time"

	"github.com/hashicorp/golang-lru/v2/simplelru"
	"golang.org/x/time/rate"
)

// Config configures a Limiter. The zero value works: a zero field means its
// default (DefaultConfig).
type Config struct {
	// PerSecond is the refill rate in tokens (runs) per second.
	PerSecond float64
	// Burst is the bucket size.
	Burst int
	// MaxKeys bounds the keys tracked at once.
	MaxKeys int
	// IdleTTL is how long an untouched key is kept. A key idle this long has
	// a full bucket again anyway unless IdleTTL is shorter than Burst/PerSecond.
	IdleTTL time.Duration
	// Now is the clock; defaults to time.Now. Tests inject a fake one.
	Now func() time.Time
}

// DefaultConfig returns the defaults of every field, written once here;
// the flags of cmd/playground read theirs from it.
func DefaultConfig() Config {
	return Config{PerSecond: 4, Burst: 8, MaxKeys: 100_000, IdleTTL: 10 * time.Minute}
}

func (c Config) withDefaults() Config {
	d := DefaultConfig()
	if c.PerSecond <= 0 {
		c.PerSecond = d.PerSecond
	}
	if c.Burst <= 0 {
		c.Burst = d.Burst
	}
	if c.MaxKeys <= 0 {
		c.MaxKeys = d.MaxKeys
	}
	if c.IdleTTL <= 0 {
		c.IdleTTL = d.IdleTTL
	}
	if c.Now == nil {
		c.Now = time.Now
	}
	return c
}

// Limiter decides whether a key may start a run now. It is safe for concurrent use.
type Limiter struct {
	cfg Config

	mu   sync.Mutex                     // guards keys
	keys *simplelru.LRU[string, *entry] // least recently seen first
}

type entry struct {
	lim  *rate.Limiter
	seen time.Time
}

// New returns a Limiter.
func New(cfg Config) *Limiter {
	cfg = cfg.withDefaults()
	keys, err := simplelru.NewLRU[string, *entry](cfg.MaxKeys, nil)
	if err != nil {
		panic(err) // only for a size < 1, which withDefaults rules out
	}
	return &Limiter{cfg: cfg, keys: keys}
}

// Config returns the limiter's effective configuration.
func (l *Limiter) Config() Config { return l.cfg }

// Allow reports whether key may start a run now, taking a token if so. When
// it may not, retryAfter is how long until a token is available.
func (l *Limiter) Allow(key string) (ok bool, retryAfter time.Duration) {
	now := l.cfg.Now()
	l.mu.Lock()
	defer l.mu.Unlock()
	e := l.entryLocked(key, now)
	r := e.lim.ReserveN(now, 1)
	if !r.OK() {
		return false, time.Second
	}
	if d := r.DelayFrom(now); d > 0 {
		r.CancelAt(now) // do not spend a token on a refusal
		return false, d
	}
	return true, 0
}

// Len returns the number of keys tracked.
func (l *Limiter) Len() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.keys.Len()
}

// entryLocked returns key's entry, creating it, after dropping the keys
// idle for IdleTTL (the least recently seen first); past MaxKeys the LRU
// drops the least recently seen. l.mu must be held.
func (l *Limiter) entryLocked(key string, now time.Time) *entry {
	for {
		_, old, ok := l.keys.GetOldest()
		if !ok || now.Sub(old.seen) < l.cfg.IdleTTL {
			break
		}
		l.keys.RemoveOldest()
	}
	if e, ok := l.keys.Get(key); ok {
		e.seen = now
		return e
	}
	e := &entry{lim: rate.NewLimiter(rate.Limit(l.cfg.PerSecond), l.cfg.Burst), seen: now}
	l.keys.Add(key, e)
	return e
}
