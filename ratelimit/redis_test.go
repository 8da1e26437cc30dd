package ratelimit_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"github.com/redis/go-redis/v9"
	"log/slog"
	"net"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/playground-dev/playground/ratelimit"
	"github.com/playground-dev/playground/ratelimit/redistest"
)

// logBuffer is a concurrency-safe log sink for a store's slog.Logger.
type logBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *logBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *logBuffer) count(s string) int {
	b.mu.Lock()
	defer b.mu.Unlock()
	return strings.Count(b.buf.String(), s)
}

func newStore(t testing.TB, url string, cfg ratelimit.StoreConfig) *ratelimit.Store {
	t.Helper()
	cfg.URL = url
	if cfg.Timeout == 0 {
		// Generous, unless a test is about the timeout: the 200 ms default
		// is the production budget, and a loaded machine can spend it on a
		// script, which would turn a test of sharing into a fallback.
		cfg.Timeout = 10 * time.Second
	}
	if cfg.Log == nil {
		cfg.Log = slog.New(slog.DiscardHandler)
	}
	s, err := ratelimit.NewStore(cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// slow is a refill rate that adds no token during a test.
const slow = 1.0 / 3600

func TestSharedLimiterOneBurstAcrossInstances(t *testing.T) {
	r := redistest.Start(t)
	cfg := ratelimit.Config{PerSecond: slow, Burst: 8}
	// Two server instances: each its own Store (connection) and limiter.
	a := ratelimit.NewShared(newStore(t, r.URL(), ratelimit.StoreConfig{Instance: "a"}), "runs", cfg)
	b := ratelimit.NewShared(newStore(t, r.URL(), ratelimit.StoreConfig{Instance: "b"}), "runs", cfg)

	allowed := 0
	var lastRetry time.Duration
	for i := range 20 {
		l := a
		if i%2 == 1 {
			l = b
		}
		ok, retry := l.Allow("203.0.113.7")
		if ok {
			allowed++
		} else {
			lastRetry = retry
		}
	}
	if allowed != 8 {
		t.Errorf("two instances allowed %d of 20 runs for one key; want one shared burst of 8", allowed)
	}
	if lastRetry < time.Hour-time.Minute || lastRetry > time.Hour {
		t.Errorf("retryAfter = %v; want about 1h (one token per hour)", lastRetry)
	}
	// Another key has its own bucket, on both instances.
	if ok, _ := b.Allow("198.51.100.1"); !ok {
		t.Error("Allow for another key = false; want true")
	}
	// Another limiter name on the same store has its own buckets.
	c := ratelimit.NewShared(newStore(t, r.URL(), ratelimit.StoreConfig{}), "keys", cfg)
	if ok, _ := c.Allow("203.0.113.7"); !ok {
		t.Error("Allow on a limiter with another name = false; want its own bucket")
	}
	if a.Config().Burst != 8 || a.Config().PerSecond != slow {
		t.Errorf("Config = %+v; want the given rate and burst", a.Config())
	}
}

func TestSharedLimiterConcurrentInstances(t *testing.T) {
	r := redistest.Start(t)
	cfg := ratelimit.Config{PerSecond: slow, Burst: 25}
	var lims []*ratelimit.SharedLimiter
	for i := range 3 {
		lims = append(lims, ratelimit.NewShared(newStore(t, r.URL(), ratelimit.StoreConfig{Instance: fmt.Sprint(i)}), "runs", cfg))
	}
	var allowed atomic.Int64
	var wg sync.WaitGroup
	for g := range 12 {
		wg.Go(func() {
			for range 10 {
				if ok, _ := lims[g%3].Allow("k"); ok {
					allowed.Add(1)
				}
			}
		})
	}
	wg.Wait()
	if n := allowed.Load(); n != 25 {
		t.Errorf("3 instances × 4 goroutines allowed %d of 120; want exactly the burst, 25", n)
	}
}

func TestSharedLimiterFractionalRate(t *testing.T) {
	r := redistest.Start(t)
	// 0.5/s: one token every 2s. After the burst, the retry is at most 2s.
	l := ratelimit.NewShared(newStore(t, r.URL(), ratelimit.StoreConfig{}), "runs", ratelimit.Config{PerSecond: 0.5, Burst: 1})
	if ok, _ := l.Allow("k"); !ok {
		t.Fatal("first Allow = false")
	}
	ok, retry := l.Allow("k")
	if ok || retry <= time.Second || retry > 2*time.Second {
		t.Errorf("second Allow = %v, %v; want false with retryAfter in (1s, 2s] at 0.5/s", ok, retry)
	}
}

func TestFallbackWhenRedisDiesAndReturns(t *testing.T) {
	r := redistest.Start(t)
	var logs logBuffer
	log := slog.New(slog.NewTextHandler(&logs, nil))
	// A long probe interval: the test probes by hand.
	sa := newStore(t, r.URL(), ratelimit.StoreConfig{Log: log, ProbeInterval: time.Hour})
	sb := newStore(t, r.URL(), ratelimit.StoreConfig{ProbeInterval: time.Hour})
	cfg := ratelimit.Config{PerSecond: slow, Burst: 3}
	a, b := ratelimit.NewShared(sa, "runs", cfg), ratelimit.NewShared(sb, "runs", cfg)

	if err := sa.Status(); err != nil || !sa.Up() {
		t.Fatalf("Status = %v, Up = %v with redis running; want nil, true", err, sa.Up())
	}
	for range 3 {
		if ok, _ := a.Allow("ip"); !ok {
			t.Fatal("Allow within the burst = false")
		}
	}
	if ok, _ := b.Allow("ip"); ok {
		t.Fatal("instance b: Allow past the shared burst = true")
	}

	r.Kill() // Redis dies mid-test

	// Calls neither fail nor block: the in-process limiter (a fresh bucket
	// of 3) decides.
	got := 0
	for range 5 {
		if ok, _ := a.Allow("ip"); ok {
			got++
		}
	}
	if got != 3 {
		t.Errorf("after redis died, %d of 5 allowed; want 3 (the in-process bucket)", got)
	}
	err := sa.Status()
	if !errors.Is(err, ratelimit.ErrStoreDown) || !strings.Contains(err.Error(), "redis unreachable, using in-process limits") {
		t.Errorf("Status = %v; want it to say redis is unreachable", err)
	}
	if sa.Up() {
		t.Error("Up = true with redis dead")
	}
	if n := sa.Fallbacks(); n != 1 {
		t.Errorf("Fallbacks = %d after one outage; want 1", n)
	}
	if n := logs.count("redis unreachable"); n != 1 {
		t.Errorf("logged the outage %d times; want once:\n%s", n, logs.buf.String())
	}
	if err := sa.Probe(context.Background()); err == nil {
		t.Error("Probe with redis dead = nil")
	}

	r.Restart() // Redis is back (empty: no persistence)
	if err := sa.Probe(context.Background()); err != nil {
		t.Fatalf("Probe with redis back = %v", err)
	}
	if err := sb.Probe(context.Background()); err != nil {
		t.Fatalf("Probe with redis back = %v", err)
	}
	if err := sa.Status(); err != nil || !sa.Up() {
		t.Errorf("Status = %v, Up = %v after redis came back; want nil, true", err, sa.Up())
	}
	if n := logs.count("redis reachable again"); n != 1 {
		t.Errorf("logged the recovery %d times; want once:\n%s", n, logs.buf.String())
	}
	// Shared again: the two instances draw on one new bucket of 3.
	allowed := 0
	for i := range 8 {
		l := a
		if i%2 == 1 {
			l = b
		}
		if ok, _ := l.Allow("ip"); ok {
			allowed++
		}
	}
	if allowed != 3 {
		t.Errorf("after recovery two instances allowed %d; want the shared burst, 3", allowed)
	}
	if n := sa.Fallbacks(); n != 1 {
		t.Errorf("Fallbacks = %d; want still 1", n)
	}
}

func TestStoreStartsInFallbackWhenRedisIsDown(t *testing.T) {
	// A port nobody listens on: NewStore succeeds, in fallback.
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	s := newStore(t, "redis://"+addr, ratelimit.StoreConfig{ProbeInterval: time.Hour})
	if !errors.Is(s.Status(), ratelimit.ErrStoreDown) || s.Fallbacks() != 1 {
		t.Errorf("Status = %v, Fallbacks = %d; want in fallback from the start, counted once", s.Status(), s.Fallbacks())
	}
	lim := ratelimit.NewShared(s, "runs", ratelimit.Config{PerSecond: slow, Burst: 2})
	c := ratelimit.NewSharedCounts(s, "sockets", 1)
	ok1, _ := lim.Allow("k")
	ok2, _ := lim.Allow("k")
	ok3, _ := lim.Allow("k")
	if !ok1 || !ok2 || ok3 {
		t.Errorf("in fallback Allow ×3 = %v %v %v; want true true false", ok1, ok2, ok3)
	}
	rel, ok := c.Acquire("k")
	if !ok {
		t.Fatal("in fallback Acquire = false")
	}
	if _, ok := c.Acquire("k"); ok {
		t.Error("in fallback second Acquire with max 1 = true")
	}
	rel()
	if _, ok := c.Acquire("k"); !ok {
		t.Error("in fallback Acquire after release = false")
	}
}

func TestNewStoreRejectsBadURLs(t *testing.T) {
	for _, url := range []string{"", "http://127.0.0.1:6379", "redis://127.0.0.1:6379/notadb", "::"} {
		if s, err := ratelimit.NewStore(ratelimit.StoreConfig{URL: url}); err == nil {
			s.Close()
			t.Errorf("NewStore(%q) = nil error; want one", url)
		} else if !strings.HasPrefix(err.Error(), "ratelimit: redis URL") {
			t.Errorf("NewStore(%q) = %v; want an error naming the redis URL", url, err)
		}
	}
}

func TestNewStoreErrorHidesPassword(t *testing.T) {
	_, err := ratelimit.NewStore(ratelimit.StoreConfig{URL: "redis://:s3cret@127.0.0.1:6379/notadb"})
	if err == nil || strings.Contains(err.Error(), "s3cret") {
		t.Errorf("NewStore error = %v; want an error without the password", err)
	}
}

func TestSharedCountsAcrossInstances(t *testing.T) {
	r := redistest.Start(t)
	a := ratelimit.NewSharedCounts(newStore(t, r.URL(), ratelimit.StoreConfig{Instance: "a"}), "sockets", 2)
	b := ratelimit.NewSharedCounts(newStore(t, r.URL(), ratelimit.StoreConfig{Instance: "b"}), "sockets", 2)
	if a.Max() != 2 {
		t.Errorf("Max = %d; want 2", a.Max())
	}
	relA, ok := a.Acquire("ip")
	if !ok {
		t.Fatal("a: first Acquire = false")
	}
	relB, ok := b.Acquire("ip")
	if !ok {
		t.Fatal("b: first Acquire = false")
	}
	if _, ok := a.Acquire("ip"); ok {
		t.Error("a: third slot across instances with max 2 = true")
	}
	if _, ok := b.Acquire("ip"); ok {
		t.Error("b: third slot across instances with max 2 = true")
	}
	if rel, ok := b.Acquire("other-ip"); !ok {
		t.Error("another key's first Acquire = false")
	} else {
		rel()
	}
	relA()
	relA() // a second release gives nothing back twice
	relC, ok := b.Acquire("ip")
	if !ok {
		t.Fatal("b: Acquire after a released = false")
	}
	if _, ok := b.Acquire("ip"); ok {
		t.Error("double release freed two slots")
	}
	relB()
	relC()
}

func TestSharedCountsConcurrent(t *testing.T) {
	r := redistest.Start(t)
	var cs []*ratelimit.SharedCounts
	for i := range 2 {
		cs = append(cs, ratelimit.NewSharedCounts(newStore(t, r.URL(), ratelimit.StoreConfig{Instance: fmt.Sprint(i)}), "runs", 5))
	}
	var held, peak atomic.Int64
	var mu sync.Mutex
	var wg sync.WaitGroup
	for g := range 16 {
		wg.Go(func() {
			for range 20 {
				rel, ok := cs[g%2].Acquire("k")
				if !ok {
					continue
				}
				n := held.Add(1)
				mu.Lock()
				peak.Store(max(peak.Load(), n))
				mu.Unlock()
				held.Add(-1)
				rel()
			}
		})
	}
	wg.Wait()
	if p := peak.Load(); p > 5 || p < 1 {
		t.Errorf("peak slots held at once across instances = %d; want 1..5", p)
	}
	// Everything was released: all 5 slots are free again.
	for i := range 5 {
		if _, ok := cs[i%2].Acquire("k"); !ok {
			t.Fatalf("Acquire #%d after all releases = false", i+1)
		}
	}
}

func TestCrashedInstanceCountsExpire(t *testing.T) {
	r := redistest.Start(t)
	ttl := time.Second
	crashed := newStore(t, r.URL(), ratelimit.StoreConfig{Instance: "crashed", LeaseTTL: ttl})
	live := newStore(t, r.URL(), ratelimit.StoreConfig{Instance: "live", LeaseTTL: ttl})
	other := newStore(t, r.URL(), ratelimit.StoreConfig{Instance: "other", LeaseTTL: ttl})
	cc := ratelimit.NewSharedCounts(crashed, "sockets", 2)
	lc := ratelimit.NewSharedCounts(live, "sockets", 1)
	oc := ratelimit.NewSharedCounts(other, "sockets", 2)
	oc1 := ratelimit.NewSharedCounts(other, "sockets", 1)

	for range 2 {
		if _, ok := cc.Acquire("ip-crash"); !ok {
			t.Fatal("Acquire on the doomed instance = false")
		}
	}
	if _, ok := lc.Acquire("ip-live"); !ok {
		t.Fatal("Acquire on the live instance = false")
	}
	crashed.Crash() // no release, no more refreshes
	if _, ok := oc.Acquire("ip-crash"); ok {
		t.Fatal("slots of a just-crashed instance are free at once; want them held until the lease expires")
	}

	// Within a few TTLs the crashed instance's slots free themselves; the
	// live instance's lease, refreshed every TTL/3, is still held.
	deadline := time.Now().Add(10 * ttl)
	for {
		if rel, ok := oc.Acquire("ip-crash"); ok {
			rel()
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the crashed instance's slots were still held after %v (lease TTL %v)", 10*ttl, ttl)
		}
		time.Sleep(50 * time.Millisecond)
	}
	time.Sleep(2 * ttl)
	if _, ok := oc1.Acquire("ip-live"); ok {
		t.Error("a live instance's slot expired although it refreshes its leases")
	}
	// A graceful Close releases at once.
	live.Close()
	if _, ok := oc1.Acquire("ip-live"); !ok {
		t.Error("the slot of a closed instance is still held; want Close to release it")
	}
}

func TestSharedCountsFallBackWhenRedisDies(t *testing.T) {
	r := redistest.Start(t)
	s := newStore(t, r.URL(), ratelimit.StoreConfig{ProbeInterval: time.Hour})
	c := ratelimit.NewSharedCounts(s, "runs", 1)
	relRedis, ok := c.Acquire("k")
	if !ok {
		t.Fatal("Acquire = false")
	}
	r.Kill()
	// The Redis slot is unknown to the in-process counts: one slot is free there.
	relLocal, ok := c.Acquire("k")
	if !ok {
		t.Fatal("Acquire with redis dead = false; want the in-process counts to decide")
	}
	if _, ok := c.Acquire("k"); ok {
		t.Error("in-process counts allowed 2 with max 1")
	}
	relRedis() // must not block or panic with redis dead
	relLocal()
	if _, ok := c.Acquire("k"); !ok {
		t.Error("Acquire after the in-process release = false")
	}
	if !errors.Is(s.Status(), ratelimit.ErrStoreDown) {
		t.Errorf("Status = %v; want ErrStoreDown", s.Status())
	}
}

func TestLocalCounts(t *testing.T) {
	c := ratelimit.NewLocalCounts(2)
	r1, ok1 := c.Acquire("a")
	_, ok2 := c.Acquire("a")
	_, ok3 := c.Acquire("a")
	if !ok1 || !ok2 || ok3 {
		t.Fatalf("Acquire ×3 with max 2 = %v %v %v; want true true false", ok1, ok2, ok3)
	}
	if _, ok := c.Acquire("b"); !ok {
		t.Error("another key = false")
	}
	r1()
	r1()
	if n := c.Held("a"); n != 1 {
		t.Errorf("Held after one release (called twice) = %d; want 1", n)
	}
	if c := ratelimit.NewLocalCounts(0); c.Max() != 1 {
		t.Errorf("NewLocalCounts(0).Max() = %d; want 1", c.Max())
	}
	var _ ratelimit.Counts = c
	var _ ratelimit.Counts = (*ratelimit.SharedCounts)(nil)
}

// waitFor polls cond until it holds or 10s pass.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("still not %s after 10s", what)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func TestStoreNoticesOutageAndRecoveryWithoutTraffic(t *testing.T) {
	r := redistest.Start(t)
	s := newStore(t, r.URL(), ratelimit.StoreConfig{ProbeInterval: 20 * time.Millisecond})
	if err := s.Status(); err != nil {
		t.Fatalf("Status = %v with redis running", err)
	}
	r.Kill()
	waitFor(t, "in fallback with redis dead", func() bool { return errors.Is(s.Status(), ratelimit.ErrStoreDown) })
	r.Restart()
	waitFor(t, "back on redis", func() bool { return s.Status() == nil })
	if n := s.Fallbacks(); n != 1 {
		t.Errorf("Fallbacks = %d after one outage; want 1", n)
	}
	// Back on Redis means shared again: a second instance sees this one's spend.
	cfg := ratelimit.Config{PerSecond: slow, Burst: 1}
	if ok, _ := ratelimit.NewShared(s, "runs", cfg).Allow("k"); !ok {
		t.Fatal("first Allow = false")
	}
	other := newStore(t, r.URL(), ratelimit.StoreConfig{})
	if ok, _ := ratelimit.NewShared(other, "runs", cfg).Allow("k"); ok {
		t.Error("another instance's Allow after the burst was spent = true; want the shared bucket")
	}
}

// TestHalfDeadRedisIsSlowNotDead: a Redis that answers PING but holds
// scripts (CLIENT PAUSE WRITE, as a half-dead one does) costs one decision
// its Timeout, then stays out of the decisions: probes, whose PING still
// answers, do not put it back (which made every other run wait the timeout
// again), and Status says slow, not unreachable. Once scripts answer
// again, a probe puts it back.
func TestHalfDeadRedisIsSlowNotDead(t *testing.T) {
	r := redistest.Start(t)
	// Probes by hand. A held script costs a decision or a probe the
	// Timeout: long enough for a live Redis on a loaded machine, short
	// enough for the probes below.
	s := newStore(t, r.URL(), ratelimit.StoreConfig{ProbeInterval: time.Hour, Timeout: 500 * time.Millisecond})
	lim := ratelimit.NewShared(s, "runs", ratelimit.Config{PerSecond: slow, Burst: 100})
	// Live first. A loaded machine may spend the 500 ms on one script:
	// then the store is slow until a probe, as it should be; probe until
	// a decision is shared (each take of a 100-token burst is harmless).
	for deadline := time.Now().Add(30 * time.Second); ; {
		if ok, _ := lim.Allow("k"); !ok {
			t.Fatal("Allow on a live Redis: false")
		}
		if s.Status() == nil {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("Allow on a live Redis: Status %v for 30 s", s.Status())
		}
		_ = s.Probe(t.Context())
	}
	admin := redis.NewClient(&redis.Options{Addr: r.Addr()})
	defer admin.Close()
	if err := admin.Do(t.Context(), "CLIENT", "PAUSE", "60000", "WRITE").Err(); err != nil {
		t.Fatal(err)
	}
	if ok, _ := lim.Allow("k"); !ok {
		t.Fatal("Allow with scripts held: false; want decided in-process")
	}
	// A limit call that timed out is a slow Redis, not a dead one, before
	// any probe: /readyz must not fail in between.
	if !errors.Is(s.Status(), ratelimit.ErrStoreSlow) {
		t.Fatalf("after a limit call timed out: Status %v; want ErrStoreSlow", s.Status())
	}
	if err := s.Probe(t.Context()); !errors.Is(s.Status(), ratelimit.ErrStoreSlow) {
		t.Fatalf("after a probe (%v) with PING answering and scripts held: Status %v; want ErrStoreSlow", err, s.Status())
	}
	sent := s.CountCommands("rate:runs:k") // the decisions' key
	for range 3 {
		if ok, _ := lim.Allow("k"); !ok {
			t.Fatal("Allow while slow: false; want decided in-process")
		}
		_ = s.Probe(t.Context())
	}
	if !errors.Is(s.Status(), ratelimit.ErrStoreSlow) {
		t.Errorf("after 3 probes with scripts held: Status %v; want still ErrStoreSlow", s.Status())
	}
	if n := sent.Load(); n != 0 {
		t.Errorf("%d of 3 decisions while slow went to Redis (each waiting its timeout); want none", n)
	}
	if err := admin.Do(t.Context(), "CLIENT", "UNPAUSE").Err(); err != nil {
		t.Fatal(err)
	}
	// Scripts answer again: a probe puts it back (a few, should one meet
	// a loaded machine's slow moment).
	var err error
	for range 5 {
		if err = s.Probe(t.Context()); err == nil && s.Status() == nil {
			return
		}
	}
	t.Errorf("after UNPAUSE: 5 probes, the last %v, Status %v; want shared again", err, s.Status())
}
