package session

import "sync"

// Budget bounds the bytes that wait in the outboxes of all sessions of a
// server, in all and per client key, so that stalled readers cannot grow
// the server however many sockets they open: a session whose message
// would cross either bound is treated as too slow (disconnected), like one
// past its own OutboxBytes. The zero Budget is not usable; use NewBudget. A
// nil *Budget bounds nothing. It is safe for concurrent use.
type Budget struct {
	total, perKey int64

	mu    sync.Mutex // guards the fields below
	used  int64
	byKey map[string]int64
}

// NewBudget returns a budget of total bytes in all and perKey bytes for one
// client key; a bound ≤ 0 is not enforced.
func NewBudget(total, perKey int64) *Budget {
	return &Budget{total: total, perKey: perKey, byKey: map[string]int64{}}
}

// reserve takes n bytes for key; it reports false (taking nothing) when a
// bound would be crossed.
func (b *Budget) reserve(key string, n int) bool {
	if b == nil {
		return true
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if (b.total > 0 && b.used+int64(n) > b.total) || (b.perKey > 0 && b.byKey[key]+int64(n) > b.perKey) {
		return false
	}
	b.used += int64(n)
	b.byKey[key] += int64(n)
	return true
}

// release gives back n bytes of key.
func (b *Budget) release(key string, n int) {
	if b == nil || n == 0 {
		return
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	b.used -= int64(n)
	if b.byKey[key] -= int64(n); b.byKey[key] <= 0 {
		delete(b.byKey, key)
	}
}

// Used returns the bytes held in all and by key.
func (b *Budget) Used(key string) (total, ofKey int64) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.used, b.byKey[key]
}
