package ratelimit_test

import (
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/redis/go-redis/v9"

	"github.com/playground-dev/playground/ratelimit"
	"github.com/playground-dev/playground/ratelimit/redistest"
)

// BenchmarkAllow compares one rate-limit decision in-process and through a
// redis-server on loopback (one Lua script per decision), in parallel.
func BenchmarkAllow(b *testing.B) {
	cfg := ratelimit.Config{PerSecond: 1e9, Burst: 1 << 30, MaxKeys: 1 << 20}
	b.Run("local", func(b *testing.B) {
		l := ratelimit.New(cfg)
		b.RunParallel(func(pb *testing.PB) {
			i := 0
			for pb.Next() {
				l.Allow(fmt.Sprint("k", i%1000))
				i++
			}
		})
	})
	b.Run("redis", func(b *testing.B) {
		r := redistest.Start(b)
		s := newStore(b, r.URL(), ratelimit.StoreConfig{})
		l := ratelimit.NewShared(s, "runs", cfg)
		b.ResetTimer()
		b.RunParallel(func(pb *testing.PB) {
			i := 0
			for pb.Next() {
				l.Allow(fmt.Sprint("k", i%1000))
				i++
			}
		})
		b.StopTimer()
		if !s.Up() {
			b.Fatal("redis went down during the benchmark: the numbers are the fallback's")
		}
	})
}

// BenchmarkCountsAcquireRelease is one slot taken and given back (two Redis
// round trips), as a socket open and close or a run start and end would.
func BenchmarkCountsAcquireRelease(b *testing.B) {
	r := redistest.Start(b)
	s := newStore(b, r.URL(), ratelimit.StoreConfig{})
	c := ratelimit.NewSharedCounts(s, "sockets", 1<<20)
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		i := 0
		for pb.Next() {
			rel, ok := c.Acquire(fmt.Sprint("k", i%1000))
			if !ok {
				b.Error("Acquire = false")
				return
			}
			rel()
			i++
		}
	})
	b.StopTimer()
	if !s.Up() {
		b.Fatal("redis went down during the benchmark")
	}
}

// BenchmarkRedisMemory reports what Redis holds per client key: one run
// budget (redis_rate's key) and one held slot (a sorted set with one lease),
// from INFO memory before and after 10,000 distinct keys.
func BenchmarkRedisMemory(b *testing.B) {
	r := redistest.Start(b)
	s := newStore(b, r.URL(), ratelimit.StoreConfig{})
	rdb := redis.NewClient(&redis.Options{Addr: r.Addr()})
	defer rdb.Close()
	used := func() float64 {
		info, err := rdb.Info(b.Context(), "memory").Result()
		if err != nil {
			b.Fatal(err)
		}
		for _, line := range strings.Split(info, "\r\n") {
			if v, ok := strings.CutPrefix(line, "used_memory:"); ok {
				n, _ := strconv.ParseFloat(v, 64)
				return n
			}
		}
		b.Fatal("no used_memory in INFO")
		return 0
	}
	lim := ratelimit.NewShared(s, "runs", ratelimit.Config{PerSecond: slow, Burst: 8})
	counts := ratelimit.NewSharedCounts(s, "sockets", 16)
	const keys = 10_000
	for i := 0; i < b.N; i++ {
		rdb.FlushAll(b.Context())
		before := used()
		for k := range keys {
			lim.Allow(fmt.Sprint("198.51.", k/256, ".", k%256))
		}
		mid := used()
		for k := range keys {
			counts.Acquire(fmt.Sprint("198.51.", k/256, ".", k%256))
		}
		after := used()
		b.ReportMetric((mid-before)/keys, "B/rate-key")
		b.ReportMetric((after-mid)/keys, "B/count-key")
	}
}
