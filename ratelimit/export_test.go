package ratelimit

import (
	"context"
	"strings"
	"sync/atomic"

	"github.com/redis/go-redis/v9"
)

// Crash stops the store's refresh goroutine and drops its connections
// without releasing its leases, as a killed process would.
func (s *Store) Crash() {
	s.stopOnce.Do(func() { close(s.stop) })
	<-s.done
	s.closed.Store(true)
	_ = s.rdb.Close()
}

// CountCommands returns a counter of the commands the store's client
// sends from now on with an argument containing arg (a key).
func (s *Store) CountCommands(arg string) *atomic.Int64 {
	n := &atomic.Int64{}
	s.rdb.AddHook(countHook{n, arg})
	return n
}

type countHook struct {
	n   *atomic.Int64
	arg string
}

func (h countHook) count(cmd redis.Cmder) {
	for _, a := range cmd.Args() {
		if s, ok := a.(string); ok && strings.Contains(s, h.arg) {
			h.n.Add(1)
			return
		}
	}
}

func (h countHook) DialHook(next redis.DialHook) redis.DialHook { return next }

func (h countHook) ProcessHook(next redis.ProcessHook) redis.ProcessHook {
	return func(ctx context.Context, cmd redis.Cmder) error {
		h.count(cmd)
		return next(ctx, cmd)
	}
}

func (h countHook) ProcessPipelineHook(next redis.ProcessPipelineHook) redis.ProcessPipelineHook {
	return func(ctx context.Context, cmds []redis.Cmder) error {
		for _, c := range cmds {
			h.count(c)
		}
		return next(ctx, cmds)
	}
}
