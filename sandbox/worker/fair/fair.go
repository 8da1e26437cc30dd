// Package fair is the eviction rule of a worker's caches (compiled
// bundles, library programs and chunks, RegExp programs): a least-recently-used cache within a byte
// budget and a count, whose entries each belong to an owner (the client
// whose run made them), and whose evictions fall on the owner holding the
// most. A client that fills a cache evicts its own entries first: what it
// caches is charged to it, and the next client's entries stay (issue 22).
//
// Recency is hashicorp/golang-lru's; this package adds the owners.
package fair

import (
	"sync"

	lru "github.com/hashicorp/golang-lru/v2"
)

// Cache is an LRU cache of values by key, each with an owner and a size
// in bytes. After every Add it holds at most count entries and budget
// bytes, except that the entry just added is always kept (a run needs
// it). It is safe for concurrent use.
type Cache[K comparable, V any] struct {
	mu     sync.Mutex
	lru    *lru.Cache[K, entry[V]] // recency; sized so that it never evicts by itself
	owners map[string]*holding
	bytes  int64
	budget int64
	count  int
}

type entry[V any] struct {
	v     V
	owner string
	size  int64
}

// holding is what one owner has in the cache.
type holding struct {
	bytes int64
	n     int
}

// New returns a cache of at most count entries (≥ 1) and budget bytes.
func New[K comparable, V any](count int, budget int64) *Cache[K, V] {
	c := &Cache[K, V]{owners: map[string]*holding{}, budget: budget, count: max(count, 1)}
	c.lru, _ = lru.New[K, entry[V]](c.count + 1) // error only for a size < 1
	return c
}

// Get returns the value of k and marks it most recently used.
func (c *Cache[K, V]) Get(k K) (V, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.lru.Get(k)
	return e.v, ok
}

// Contains reports whether k is cached, without marking it used.
func (c *Cache[K, V]) Contains(k K) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.lru.Contains(k)
}

// Add caches v under k for owner, size bytes (replacing what k held),
// then evicts until the cache is within its count and budget: each time
// the least recently used entry of the owner holding the most bytes (the
// most entries, when only the count is over), never k itself.
func (c *Cache[K, V]) Add(k K, v V, owner string, size int64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if old, ok := c.lru.Peek(k); ok {
		c.forget(old)
	}
	c.lru.Add(k, entry[V]{v: v, owner: owner, size: size})
	h := c.owners[owner]
	if h == nil {
		h = &holding{}
		c.owners[owner] = h
	}
	h.bytes += size
	h.n++
	c.bytes += size
	for c.lru.Len() > 1 && (c.bytes > c.budget || c.lru.Len() > c.count) {
		if !c.evict(k, c.bytes > c.budget) {
			return
		}
	}
}

// evict removes the least recently used entry of the owner that holds
// the most bytes (byBytes) or entries, other than keep; it reports false
// when only keep is left.
func (c *Cache[K, V]) evict(keep K, byBytes bool) bool {
	keys := c.lru.Keys() // oldest first
	oldest := map[string]K{}
	for _, k := range keys {
		if k == keep {
			continue
		}
		e, _ := c.lru.Peek(k)
		if _, seen := oldest[e.owner]; !seen {
			oldest[e.owner] = k
		}
	}
	var victim string
	found := false
	for owner := range oldest {
		if !found || c.more(owner, victim, byBytes) {
			victim, found = owner, true
		}
	}
	if !found {
		return false
	}
	k := oldest[victim]
	e, _ := c.lru.Peek(k)
	c.lru.Remove(k)
	c.forget(e)
	return true
}

// more reports whether owner a holds more than b (bytes or entries), ties
// going to the smaller name so that the choice does not depend on map
// order.
func (c *Cache[K, V]) more(a, b string, byBytes bool) bool {
	ha, hb := c.owners[a], c.owners[b]
	x, y := int64(ha.n), int64(hb.n)
	if byBytes {
		x, y = ha.bytes, hb.bytes
	}
	if x != y {
		return x > y
	}
	return a < b
}

// forget takes e's size off its owner's holding and the total.
func (c *Cache[K, V]) forget(e entry[V]) {
	h := c.owners[e.owner]
	h.bytes -= e.size
	h.n--
	if h.n == 0 {
		delete(c.owners, e.owner)
	}
	c.bytes -= e.size
}

// Len is the number of entries.
func (c *Cache[K, V]) Len() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.lru.Len()
}

// Bytes is the sum of the entries' sizes.
func (c *Cache[K, V]) Bytes() int64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.bytes
}

// Owned is the bytes and entries owner holds.
func (c *Cache[K, V]) Owned(owner string) (bytes int64, n int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if h := c.owners[owner]; h != nil {
		return h.bytes, h.n
	}
	return 0, 0
}

// Keys lists the keys, least recently used first.
func (c *Cache[K, V]) Keys() []K {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.lru.Keys()
}

// SetBudget changes the byte budget; it applies from the next Add.
func (c *Cache[K, V]) SetBudget(budget int64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.budget = budget
}
