package ratelimit

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/redis/go-redis/v9"
)

// StoreConfig configures a Store. URL is required.
type StoreConfig struct {
	// URL is the Redis to share limits through, as redis.ParseURL reads it:
	// "redis://[user:password@]host:port[/db]" or "rediss://…" for TLS,
	// "unix:///path/to/redis.sock" for a socket.
	URL string
	// Prefix starts every key this Store writes, so that one Redis can serve
	// other applications (or two playgrounds).
	Prefix string
	// Timeout bounds one limit decision's Redis round trip (and one
	// operation's read and write). A decision that does not get an answer
	// within it is made in-process, and so are the next ones until a probe
	// finds Redis answering a script within it again.
	Timeout time.Duration
	// ProbeInterval is how often Redis is pinged: an outage is noticed (and
	// Status reports it) within one interval even without traffic, and a
	// Redis that is back is used again within one interval.
	ProbeInterval time.Duration
	// LeaseTTL is how long a count taken by this instance (an open socket, an
	// active run) outlives the instance's last refresh of it: a crashed
	// instance's counts disappear this long after it died. Leases are
	// refreshed every LeaseTTL/3.
	LeaseTTL time.Duration
	// Instance names this server instance in lease ids (for debugging with
	// redis-cli). Defaults to a random 12-hex-digit id.
	Instance string
	// Log receives one Warn when Redis becomes unreachable and one Info when
	// it is back. Defaults to slog.Default().
	Log *slog.Logger
}

// DefaultStoreConfig returns the defaults of every field but URL, written
// once here; a zero field of a StoreConfig means its default.
func DefaultStoreConfig() StoreConfig {
	return StoreConfig{Prefix: "playground:", Timeout: 200 * time.Millisecond, ProbeInterval: time.Second, LeaseTTL: 30 * time.Second}
}

func (c StoreConfig) withDefaults() StoreConfig {
	d := DefaultStoreConfig()
	if c.Prefix == "" {
		c.Prefix = d.Prefix
	}
	if c.Timeout <= 0 {
		c.Timeout = d.Timeout
	}
	if c.ProbeInterval <= 0 {
		c.ProbeInterval = d.ProbeInterval
	}
	if c.LeaseTTL <= 0 {
		c.LeaseTTL = d.LeaseTTL
	}
	if c.Instance == "" {
		var b [6]byte
		_, _ = rand.Read(b[:])
		c.Instance = hex.EncodeToString(b[:])
	}
	if c.Log == nil {
		c.Log = slog.Default()
	}
	return c
}

// ErrStoreDown is wrapped by Store.Status while Redis is unreachable.
var ErrStoreDown = errors.New("redis unreachable, using in-process limits")

// ErrStoreSlow is wrapped by Store.Status while Redis answers PING but
// not a script within StoreConfig.Timeout (a half-dead or overloaded
// Redis): decisions are made in-process, as when it is down, but the
// instance and its connection are fine.
var ErrStoreSlow = errors.New("redis answers PING but not a limit script in time, using in-process limits")

// probeTimeout bounds a probe's PING and a connection's dial (reads and
// writes are still bounded by Timeout): probes run in the background, so
// a Redis behind a slow TLS handshake is still found.
const probeTimeout = time.Second

// probeScript is what a probe runs after its PING answers: decisions run
// scripts, and a Redis can answer PING while its scripts hang (CLIENT
// PAUSE WRITE, a long-running script, an overloaded replica). It is not
// flagged no-writes, so it waits where the limit scripts wait.
var probeScript = redis.NewScript(`return 1`)

// Store is this instance's connection to the Redis that instances share
// limits through, and the state of that connection. SharedLimiter and
// SharedCounts decide through it; while Redis is unreachable they decide
// in-process. The Store pings Redis every ProbeInterval, so it notices an
// outage without traffic and a recovery without a caller's help.
//
// A Store owns one goroutine (probing and lease refresh), ended by Close.
// All methods are safe for concurrent use.
type Store struct {
	cfg StoreConfig
	rdb *redis.Client

	down      atomic.Bool // Redis did not answer the last operation or probe
	slow      atomic.Bool // down, and the last probe's PING answered: scripts time out
	closed    atomic.Bool // Close was called: decisions are in-process, silently
	fallbacks atomic.Uint64
	mu        sync.Mutex // guards lastErr and the transitions of down
	lastErr   error

	leaseMu sync.Mutex                     // guards leases and seq
	leases  map[string]map[string]struct{} // redis key -> lease ids this instance holds there
	seq     uint64

	stop     chan struct{}
	stopOnce sync.Once
	done     chan struct{}
}

// NewStore parses cfg.URL and returns a Store. It does not wait for Redis:
// a Redis that is not reachable yet makes the Store start in fallback (see
// Status). The error is for a malformed URL only.
func NewStore(cfg StoreConfig) (*Store, error) {
	cfg = cfg.withDefaults()
	if cfg.URL == "" {
		return nil, errors.New("ratelimit: redis URL is empty")
	}
	opt, err := redis.ParseURL(cfg.URL)
	if err != nil {
		return nil, fmt.Errorf("ratelimit: redis URL %q: %w", redactURL(cfg.URL), err)
	}
	opt.DialTimeout, opt.ReadTimeout, opt.WriteTimeout = max(cfg.Timeout, probeTimeout), cfg.Timeout, cfg.Timeout
	opt.MaxRetries = -1   // a failed call falls back at once; the prober finds Redis again
	opt.DialerRetries = 1 // likewise a failed dial (the default retries 5 times, 100ms apart)
	opt.ContextTimeoutEnabled = true
	opt.DisableIdentity = true // no CLIENT SETINFO: older servers answer it with an error
	redisLogOnce.Do(func() { redis.SetLogger(redisLogger{cfg.Log}) })
	s := &Store{
		cfg: cfg, rdb: redis.NewClient(opt),
		leases: map[string]map[string]struct{}{},
		stop:   make(chan struct{}), done: make(chan struct{}),
	}
	_ = s.Probe(context.Background())
	go s.loop()
	return s, nil
}

// redactURL hides a password in a Redis URL, for errors and logs.
func redactURL(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return "(unparsable)"
	}
	return u.Redacted()
}

// redisLogOnce routes go-redis's own log lines (a process-wide setting of
// that package) to the first Store's logger at Debug: the Store already
// logs each outage once, and go-redis would repeat it for every failed dial.
var redisLogOnce sync.Once

type redisLogger struct{ log *slog.Logger }

func (l redisLogger) Printf(ctx context.Context, format string, v ...any) {
	l.log.DebugContext(ctx, fmt.Sprintf(format, v...), "component", "go-redis")
}

// Config returns the store's effective configuration.
func (s *Store) Config() StoreConfig { return s.cfg }

// Status is nil while Redis answers, else an error wrapping ErrStoreDown
// and the last Redis error ("redis unreachable, using in-process limits:
// dial tcp 127.0.0.1:6379: connect: connection refused"), or ErrStoreSlow
// while Redis answers PING but its scripts time out. It does no I/O.
func (s *Store) Status() error {
	if !s.down.Load() {
		return nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.slow.Load() {
		return fmt.Errorf("%w (%v): %v", ErrStoreSlow, s.cfg.Timeout, s.lastErr)
	}
	return fmt.Errorf("%w: %v", ErrStoreDown, s.lastErr)
}

// Up reports whether Redis answered the last operation or probe.
func (s *Store) Up() bool { return !s.down.Load() }

// Fallbacks counts how many times Redis became unreachable and decisions
// moved in-process (a monotonic counter, for a metric).
func (s *Store) Fallbacks() uint64 { return s.fallbacks.Load() }

// Probe pings Redis once, then runs a script as decisions do, and updates
// the state: a PING unanswered within a second enters fallback (down); a
// script unanswered within Timeout enters it too, as slow (Status wraps
// ErrStoreSlow), so that a Redis that answers PING but hangs on scripts
// is not used again (each decision then waiting Timeout for nothing) until
// its scripts answer; both answered leaves it. The Store probes by itself
// every ProbeInterval; tests may call it directly.
func (s *Store) Probe(ctx context.Context) error {
	pctx, cancel := context.WithTimeout(ctx, max(s.cfg.Timeout, probeTimeout))
	err := s.rdb.Ping(pctx).Err()
	cancel()
	if err != nil {
		s.observe(err)
		return err
	}
	sctx, cancel := context.WithTimeout(ctx, s.cfg.Timeout)
	err = probeScript.Run(sctx, s.rdb, nil).Err()
	cancel()
	if err != nil && !errors.Is(err, redis.Nil) {
		s.markSlow(err)
		return err
	}
	s.observe(nil)
	return nil
}

// Close stops the probing and refreshing goroutine, releases the leases this
// instance holds (best effort, so that a graceful exit frees its counts at
// once rather than after LeaseTTL) and closes the connections. Decisions made
// after Close are in-process.
func (s *Store) Close() error {
	s.stopOnce.Do(func() { close(s.stop) })
	<-s.done
	if s.closed.Swap(true) {
		return nil
	}
	s.leaseMu.Lock()
	leases := s.leases
	s.leases = map[string]map[string]struct{}{}
	s.leaseMu.Unlock()
	if !s.down.Load() && len(leases) > 0 { // release in Redis what this instance holds
		ctx, cancel := context.WithTimeout(context.Background(), 5*s.cfg.Timeout)
		pipe := s.rdb.Pipeline()
		for key, ids := range leases {
			members := make([]any, 0, len(ids))
			for id := range ids {
				members = append(members, id)
			}
			pipe.ZRem(ctx, key, members...)
		}
		_, _ = pipe.Exec(ctx)
		cancel()
	}
	return s.rdb.Close()
}

// observe records the outcome of a Redis operation: an error moves the store
// into fallback (logged and counted once per outage), a success out of it.
// redis.Nil is an answer, not an outage.
func (s *Store) observe(err error) {
	if s.closed.Load() {
		return
	}
	if err != nil && !errors.Is(err, redis.Nil) {
		if timedOut(err) {
			// An answer that did not come in time: slow until the next
			// probe says otherwise (its PING failing marks the store down).
			s.markSlow(err)
			return
		}
		s.markDown(err)
		return
	}
	if !s.down.Load() {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.down.Load() {
		s.down.Store(false)
		s.slow.Store(false)
		s.lastErr = nil
		s.cfg.Log.Info("redis reachable again; limits are shared", "redis", s.redacted())
	}
}

// timedOut reports whether err is a deadline passing, not a refusal.
func timedOut(err error) bool {
	var ne net.Error
	return errors.Is(err, context.DeadlineExceeded) || errors.As(err, &ne) && ne.Timeout()
}

func (s *Store) markDown(err error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.lastErr = err
	s.slow.Store(false)
	if s.down.Load() {
		return
	}
	s.down.Store(true)
	s.fallbacks.Add(1)
	s.cfg.Log.Warn("redis unreachable; using in-process limits until it answers", "redis", s.redacted(), "err", err)
}

// markSlow enters fallback for a Redis whose PING answers but whose
// scripts do not, logging once per outage (a dead Redis that comes back
// half-dead is logged again, as such).
func (s *Store) markSlow(err error) {
	if s.closed.Load() {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.lastErr = err
	if s.down.Load() && s.slow.Load() {
		return
	}
	if !s.down.Load() {
		s.fallbacks.Add(1)
	}
	s.down.Store(true)
	s.slow.Store(true)
	s.cfg.Log.Warn("redis answers PING but a script took longer than the timeout; using in-process limits until scripts answer", "redis", s.redacted(), "timeout", s.cfg.Timeout, "err", err)
}

// redacted is the Redis address without credentials, for logs.
func (s *Store) redacted() string {
	o := s.rdb.Options()
	return o.Network + ":" + o.Addr
}

// loop pings Redis every ProbeInterval and refreshes this instance's leases
// every LeaseTTL/3 while Redis is up.
func (s *Store) loop() {
	defer close(s.done)
	probe := time.NewTicker(s.cfg.ProbeInterval)
	defer probe.Stop()
	refresh := time.NewTicker(s.cfg.LeaseTTL / 3)
	defer refresh.Stop()
	for {
		select {
		case <-s.stop:
			return
		case <-probe.C:
			_ = s.Probe(context.Background())
		case <-refresh.C:
			if !s.down.Load() {
				s.refresh()
			}
		}
	}
}

// refreshScript moves the expiry of this instance's leases in one sorted set
// forward, dropping any that have already expired (the instance was cut off
// for longer than the TTL, and another may have taken the slot).
// KEYS[1] the set; ARGV[1] the TTL in ms; ARGV[2..] lease ids.
var refreshScript = redis.NewScript(`
local t = redis.call("TIME")
local now = t[1] * 1000 + math.floor(t[2] / 1000)
local ttl = tonumber(ARGV[1])
redis.call("ZREMRANGEBYSCORE", KEYS[1], "-inf", now)
for i = 2, #ARGV do
  redis.call("ZADD", KEYS[1], "XX", now + ttl, ARGV[i])
end
redis.call("PEXPIRE", KEYS[1], ttl)
return 1
`)

func (s *Store) refresh() {
	s.leaseMu.Lock()
	batch := make(map[string][]any, len(s.leases))
	for key, ids := range s.leases {
		args := make([]any, 0, len(ids)+1)
		args = append(args, s.cfg.LeaseTTL.Milliseconds())
		for id := range ids {
			args = append(args, id)
		}
		batch[key] = args
	}
	s.leaseMu.Unlock()
	if len(batch) == 0 {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*s.cfg.Timeout)
	defer cancel()
	pipe := s.rdb.Pipeline()
	for key, args := range batch {
		refreshScript.Run(ctx, pipe, []string{key}, args...)
	}
	_, err := pipe.Exec(ctx)
	if err != nil && isNoScript(err) {
		// A restarted Redis has forgotten the script: EVAL loads it.
		pipe = s.rdb.Pipeline()
		for key, args := range batch {
			refreshScript.Eval(ctx, pipe, []string{key}, args...)
		}
		_, err = pipe.Exec(ctx)
	}
	s.observe(err)
}

func isNoScript(err error) bool {
	return err != nil && strings.HasPrefix(err.Error(), "NOSCRIPT")
}

// addLease records a lease this instance holds so that refresh keeps it
// alive, and returns its id.
func (s *Store) addLease(key string) string {
	s.leaseMu.Lock()
	defer s.leaseMu.Unlock()
	s.seq++
	id := fmt.Sprintf("%s:%d", s.cfg.Instance, s.seq)
	ids := s.leases[key]
	if ids == nil {
		ids = map[string]struct{}{}
		s.leases[key] = ids
	}
	ids[id] = struct{}{}
	return id
}

func (s *Store) dropLease(key, id string) {
	s.leaseMu.Lock()
	defer s.leaseMu.Unlock()
	if ids := s.leases[key]; ids != nil {
		delete(ids, id)
		if len(ids) == 0 {
			delete(s.leases, key)
		}
	}
}

// shared reports whether decisions should go to Redis now.
func (s *Store) shared() bool { return !s.down.Load() && !s.closed.Load() }

// opContext bounds one decision's Redis round trip.
func (s *Store) opContext() (context.Context, context.CancelFunc) {
	return context.WithTimeout(context.Background(), s.cfg.Timeout)
}
