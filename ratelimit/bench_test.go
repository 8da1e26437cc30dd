package ratelimit_test

import (
	"fmt"
	"testing"

	"github.com/playground-dev/playground/ratelimit"
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
		r := startRedis(b)
		s := newStore(b, r.url(), ratelimit.StoreConfig{})
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
	r := startRedis(b)
	s := newStore(b, r.url(), ratelimit.StoreConfig{})
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
