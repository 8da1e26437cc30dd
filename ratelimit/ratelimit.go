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
	"container/list"
	"sync"
	"time"

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

	mu  sync.Mutex // guards m and lru
	m   map[string]*list.Element
	lru *list.List // of *entry, most recently seen at the front
}

type entry struct {
	key  string
	lim  *rate.Limiter
	seen time.Time
}

// New returns a Limiter.
func New(cfg Config) *Limiter {
	return &Limiter{cfg: cfg.withDefaults(), m: map[string]*list.Element{}, lru: list.New()}
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
	return len(l.m)
}

// entryLocked returns key's entry, creating it, and evicts idle or excess
// keys from the back of the LRU list. l.mu must be held.
func (l *Limiter) entryLocked(key string, now time.Time) *entry {
	for back := l.lru.Back(); back != nil; back = l.lru.Back() {
		old := back.Value.(*entry)
		if now.Sub(old.seen) < l.cfg.IdleTTL && l.lru.Len() < l.cfg.MaxKeys {
			break
		}
		l.lru.Remove(back)
		delete(l.m, old.key)
	}
	if el, ok := l.m[key]; ok {
		e := el.Value.(*entry)
		e.seen = now
		l.lru.MoveToFront(el)
		return e
	}
	e := &entry{key: key, lim: rate.NewLimiter(rate.Limit(l.cfg.PerSecond), l.cfg.Burst), seen: now}
	l.m[key] = l.lru.PushFront(e)
	return e
}
