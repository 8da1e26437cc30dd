package ratelimit

import (
	"math"
	"time"

	"github.com/go-redis/redis_rate/v10"
)

// RateLimiter is what *Limiter and *SharedLimiter have in common: the
// method set the server uses (engine.Limiter is its Allow). cmd/playground
// picks one by the -redis flag.
type RateLimiter interface {
	// Allow reports whether key may start a run now, taking a token if so;
	// when not, retryAfter is how long until a token is available.
	Allow(key string) (ok bool, retryAfter time.Duration)
	// Config is the effective configuration (rate and burst, announced to clients).
	Config() Config
}

var (
	_ RateLimiter = (*Limiter)(nil)
	_ RateLimiter = (*SharedLimiter)(nil)
	_ Counts      = (*LocalCounts)(nil)
	_ Counts      = (*SharedCounts)(nil)
)

// SharedLimiter is a Limiter whose buckets live in Redis, so that every
// server instance sharing the Store draws on one bucket per key: N
// instances give a client the budget of one, not N. It uses
// github.com/go-redis/redis_rate (GCRA, one Lua script per decision, Redis's
// clock). While the Store is in fallback, decisions are made by an
// in-process Limiter with the same Config, so each instance then grants the
// whole budget on its own.
//
// It has the method set of *Limiter that callers use (Allow, Config), so it
// satisfies engine.Limiter. It is safe for concurrent use.
type SharedLimiter struct {
	store *Store
	local *Limiter
	rl    *redis_rate.Limiter
	limit redis_rate.Limit
	name  string
}

// NewShared returns a SharedLimiter over store. cfg is read as by New
// (PerSecond, Burst; MaxKeys and IdleTTL bound the fallback limiter; Now is
// only used by the fallback: Redis decides by its own clock). name separates
// this limiter's buckets from other limiters' on the same Store (e.g. "runs").
func NewShared(store *Store, name string, cfg Config) *SharedLimiter {
	local := New(cfg)
	cfg = local.Config()
	return &SharedLimiter{store: store, local: local, rl: redis_rate.NewLimiter(store.rdb), limit: redisLimit(cfg), name: name}
}

// redisLimit expresses PerSecond (a float) as redis_rate's integer Rate per
// Period with the same emission interval: one token every 1/PerSecond s.
func redisLimit(cfg Config) redis_rate.Limit {
	if r := cfg.PerSecond; r == math.Trunc(r) && r <= math.MaxInt32 {
		return redis_rate.Limit{Rate: int(r), Burst: cfg.Burst, Period: time.Second}
	}
	period := time.Duration(float64(time.Second) / cfg.PerSecond)
	if period <= 0 {
		period = 1
	}
	return redis_rate.Limit{Rate: 1, Burst: cfg.Burst, Period: period}
}

// Config returns the limiter's effective configuration.
func (l *SharedLimiter) Config() Config { return l.local.Config() }

// Allow reports whether key may start a run now, taking a token if so. When
// it may not, retryAfter is how long until a token is available. It makes
// one Redis round trip bounded by StoreConfig.Timeout; if Redis does not
// answer, the decision is made in-process (the store logs and counts the
// switch once) and no error reaches the caller.
func (l *SharedLimiter) Allow(key string) (ok bool, retryAfter time.Duration) {
	if !l.store.shared() {
		return l.local.Allow(key)
	}
	ctx, cancel := l.store.opContext()
	defer cancel()
	res, err := l.rl.Allow(ctx, l.store.cfg.Prefix+"rate:"+l.name+":"+key, l.limit)
	l.store.observe(err)
	if err != nil {
		return l.local.Allow(key)
	}
	if res.Allowed > 0 {
		return true, 0
	}
	retry := res.RetryAfter
	if retry <= 0 {
		retry = time.Millisecond
	}
	return false, retry
}
