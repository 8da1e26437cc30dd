package ratelimit

import (
	"sync"

	"github.com/redis/go-redis/v9"
)

// Counts bounds how many of something one key may hold at once: open
// sockets per client IP, active runs per client key. *LocalCounts (one
// process) and *SharedCounts (all instances sharing a Store) implement it.
type Counts interface {
	// Acquire takes one of key's slots if it holds fewer than the maximum;
	// ok is false when it holds them all (nothing was taken). release gives
	// the slot back; it may be called more than once (later calls do
	// nothing) and from any goroutine. release is non-nil when ok.
	Acquire(key string) (release func(), ok bool)
	// Max is the slots each key may hold.
	Max() int
}

// LocalCounts is Counts for a single instance: a map of key -> slots held,
// in memory. Keys that hold nothing take no memory. Safe for concurrent use.
type LocalCounts struct {
	max int

	mu   sync.Mutex
	held map[string]int
}

// NewLocalCounts returns counts allowing n slots per key; n < 1 means 1.
func NewLocalCounts(n int) *LocalCounts {
	return &LocalCounts{max: max(n, 1), held: map[string]int{}}
}

// Max is the slots each key may hold.
func (c *LocalCounts) Max() int { return c.max }

// Held returns the slots key holds now.
func (c *LocalCounts) Held(key string) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.held[key]
}

// Acquire implements Counts.
func (c *LocalCounts) Acquire(key string) (func(), bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.held[key] >= c.max {
		return nil, false
	}
	c.held[key]++
	var once sync.Once
	return func() {
		once.Do(func() {
			c.mu.Lock()
			defer c.mu.Unlock()
			if c.held[key]--; c.held[key] <= 0 {
				delete(c.held, key)
			}
		})
	}, true
}

// SharedCounts is Counts held in Redis, so that the maximum holds across all
// instances sharing the Store. Each slot is a lease: a member of a sorted set
// per key, scored by its expiry on Redis's clock. The Store refreshes this
// instance's leases every LeaseTTL/3; a crashed instance stops refreshing,
// and its slots free themselves LeaseTTL later. While the Store is in
// fallback, slots are taken from an in-process LocalCounts with the same
// maximum (each instance then allows the maximum on its own); a slot is
// always released where it was taken. Safe for concurrent use.
type SharedCounts struct {
	store *Store
	local *LocalCounts
	name  string
}

// NewSharedCounts returns counts allowing max slots per key across all
// instances sharing store; name separates them from other counts on the
// same store (e.g. "sockets", "runs").
func NewSharedCounts(store *Store, name string, max int) *SharedCounts {
	return &SharedCounts{store: store, local: NewLocalCounts(max), name: name}
}

// Max is the slots each key may hold.
func (c *SharedCounts) Max() int { return c.local.max }

// acquireScript takes a slot when fewer than ARGV[1] unexpired leases exist.
// KEYS[1] the set; ARGV[1] max; ARGV[2] TTL in ms; ARGV[3] the lease id.
// Returns 1 when taken, 0 when full.
var acquireScript = redis.NewScript(`
local t = redis.call("TIME")
local now = t[1] * 1000 + math.floor(t[2] / 1000)
local ttl = tonumber(ARGV[2])
redis.call("ZREMRANGEBYSCORE", KEYS[1], "-inf", now)
if redis.call("ZCARD", KEYS[1]) >= tonumber(ARGV[1]) then
  return 0
end
redis.call("ZADD", KEYS[1], now + ttl, ARGV[3])
redis.call("PEXPIRE", KEYS[1], ttl)
return 1
`)

// Acquire implements Counts. It makes one Redis round trip bounded by
// StoreConfig.Timeout (and release another); if Redis does not answer, the
// slot is taken in-process instead.
func (c *SharedCounts) Acquire(key string) (func(), bool) {
	if !c.store.shared() {
		return c.local.Acquire(key)
	}
	rkey := c.store.cfg.Prefix + "count:" + c.name + ":" + key
	id := c.store.addLease(rkey) // before the script, so a refresh cannot miss it
	ctx, cancel := c.store.opContext()
	n, err := acquireScript.Run(ctx, c.store.rdb, []string{rkey}, c.local.max, c.store.cfg.LeaseTTL.Milliseconds(), id).Int()
	cancel()
	c.store.observe(err)
	if err != nil {
		c.store.dropLease(rkey, id)
		return c.local.Acquire(key)
	}
	if n == 0 {
		c.store.dropLease(rkey, id)
		return nil, false
	}
	var once sync.Once
	return func() {
		once.Do(func() {
			c.store.dropLease(rkey, id)
			if !c.store.shared() {
				return // the lease expires by itself
			}
			ctx, cancel := c.store.opContext()
			defer cancel()
			c.store.observe(c.store.rdb.ZRem(ctx, rkey, id).Err())
		})
	}, true
}
