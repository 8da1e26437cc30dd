package runs

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/playground-dev/playground/ws"
	"github.com/redis/go-redis/v9"
)

// RedisConfig configures NewRedisStream.
type RedisConfig struct {
	// URL is the Redis URL (redis://[:password@]host:port/db, rediss://
	// for TLS), the one -redis names for the shared limits.
	URL string
	// MaxLen bounds each run's stream (XADD MAXLEN ~): about the hub's
	// BufferMessages. Default DefaultBufferMessages.
	MaxLen int64
	// TTL is how long a run's stream lives while the run goes on, renewed
	// at each write: longer than a run's time limit. Default 10m.
	TTL time.Duration
	// Retain is how long a finished run's stream stays (the hub's Retain).
	// Default DefaultRetain.
	Retain time.Duration
	// Queue bounds the messages waiting to be written; past it messages
	// are dropped (counted, logged) rather than slowing runs. Default 65,536.
	Queue int
	Log   *slog.Logger
}

// RedisStream carries runs' messages through Redis streams: one stream
// per run, keyed by the SHA-256 of its watch token (TokenHash), each entry
// one message with the entry id 0-SEQ, so XREAD after 0-SEQ reads exactly
// the messages after SEQ. A second key holds the run's id, so that a
// token of another run is not found. Both expire (TTL while the run goes
// on, Retain after its done). Writes leave from one goroutine, in order,
// pipelined; a run never waits for Redis. It is safe for concurrent use;
// Close ends its goroutine.
//
// Redis commands: XADD (MAXLEN ~), XREAD BLOCK, SET EX, EXPIRE, GET
// (https://redis.io/docs/latest/develop/data-types/streams/).
type RedisStream struct {
	cfg     RedisConfig
	rdb     *redis.Client
	q       chan op
	dropped atomic.Uint64
	stop    chan struct{}
	done    chan struct{}
	once    sync.Once
}

// op is one write: a message, the run's opening (id set) or its end.
type op struct {
	key  string
	id   string // opening: the run's id
	it   Item
	end  bool // the run ended without done (Close)
	sync chan struct{}
}

// NewRedisStream returns a stream on the Redis at cfg.URL and starts its
// writer. It does not wait for Redis; the error is for a malformed URL.
func NewRedisStream(cfg RedisConfig) (*RedisStream, error) {
	if cfg.MaxLen <= 0 {
		cfg.MaxLen = DefaultBufferMessages
	}
	if cfg.TTL <= 0 {
		cfg.TTL = 10 * time.Minute
	}
	if cfg.Retain <= 0 {
		cfg.Retain = DefaultRetain
	}
	if cfg.Queue <= 0 {
		cfg.Queue = 1 << 16
	}
	if cfg.Log == nil {
		cfg.Log = slog.Default()
	}
	opt, err := redis.ParseURL(cfg.URL)
	if err != nil {
		return nil, fmt.Errorf("runs: redis URL: %w", err)
	}
	opt.ReadTimeout = 10 * time.Second // above the longest XREAD BLOCK (blockFor)
	opt.ContextTimeoutEnabled = true
	opt.DisableIdentity = true
	s := &RedisStream{cfg: cfg, rdb: redis.NewClient(opt), q: make(chan op, cfg.Queue), stop: make(chan struct{}), done: make(chan struct{})}
	go s.loop()
	return s, nil
}

// Close stops the writer after what is queued has been tried, and closes
// the connection.
func (s *RedisStream) Close() error {
	s.once.Do(func() { close(s.stop) })
	<-s.done
	return s.rdb.Close()
}

// Dropped returns how many messages were dropped because the queue was full.
func (s *RedisStream) Dropped() uint64 { return s.dropped.Load() }

// Flush waits until what was queued before it has been written (tests).
func (s *RedisStream) Flush(ctx context.Context) error {
	c := make(chan struct{})
	select {
	case s.q <- op{sync: c}:
	case <-ctx.Done():
		return ctx.Err()
	}
	select {
	case <-c:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

const keyPrefix = "playground:run:"

func streamKey(token string) string { return keyPrefix + TokenHash(token) }

func (s *RedisStream) push(o op) {
	select {
	case s.q <- o:
	default:
		if s.dropped.Add(1) == 1 {
			s.cfg.Log.Warn("run stream queue full: messages dropped (watchers on other instances will see a gap)", "queue", s.cfg.Queue)
		}
	}
}

// Open implements Stream.
func (s *RedisStream) Open(id, token string) StreamWriter {
	w := &redisWriter{s: s, key: streamKey(token)}
	s.push(op{key: w.key, id: id})
	return w
}

type redisWriter struct {
	s   *RedisStream
	key string
}

func (w *redisWriter) Write(it Item) { w.s.push(op{key: w.key, it: it}) }
func (w *redisWriter) Close()        { w.s.push(op{key: w.key, end: true}) }

// loop writes what is queued, up to 256 operations per pipeline.
func (s *RedisStream) loop() {
	defer close(s.done)
	batch := make([]op, 0, 256)
	for {
		batch = batch[:0]
		select {
		case o := <-s.q:
			batch = append(batch, o)
		case <-s.stop:
			return
		}
	more:
		for len(batch) < cap(batch) {
			select {
			case o := <-s.q:
				batch = append(batch, o)
			default:
				break more
			}
		}
		s.write(batch)
	}
}

func (s *RedisStream) write(batch []op) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	p := s.rdb.Pipeline()
	var syncs []chan struct{}
	for _, o := range batch {
		switch {
		case o.sync != nil:
			syncs = append(syncs, o.sync)
		case o.id != "":
			p.Set(ctx, o.key+":id", o.id, s.cfg.TTL)
		case o.end:
			p.Expire(ctx, o.key+":id", s.cfg.Retain)
			p.Expire(ctx, o.key, s.cfg.Retain)
		default:
			b, err := o.it.Bytes()
			if err != nil {
				continue
			}
			p.XAdd(ctx, &redis.XAddArgs{Stream: o.key, MaxLen: s.cfg.MaxLen, Approx: true, ID: "0-" + strconv.FormatUint(o.it.Seq, 10),
				Values: []any{"t", o.it.Type, "m", b}})
			ttl := s.cfg.TTL
			if o.it.Type == ws.TypeDone {
				ttl = s.cfg.Retain
				p.Expire(ctx, o.key+":id", ttl)
			}
			p.Expire(ctx, o.key, ttl)
		}
	}
	if p.Len() > 0 {
		if _, err := p.Exec(ctx); err != nil {
			s.cfg.Log.Warn("run stream write failed", "err", err, "ops", p.Len())
		}
	}
	for _, c := range syncs {
		close(c)
	}
}

// Watch implements Stream.
func (s *RedisStream) Watch(ctx context.Context, id, token string, after uint64) (*Watcher, error) {
	key := streamKey(token)
	got, err := s.rdb.Get(ctx, key+":id").Result()
	switch {
	case errors.Is(err, redis.Nil):
		return nil, ErrNotFound
	case err != nil:
		return nil, fmt.Errorf("the run's stream could not be read: %w", err)
	case got != id:
		return nil, ErrNotFound
	}
	return NewRemoteWatcher(&redisWatcher{s: s, key: key, cursor: after}), nil
}

// Watched implements Stream: a watcher on another instance refreshes the
// run's presence key (blockFor × 2) before each read.
func (s *RedisStream) Watched(token string) bool {
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	n, err := s.rdb.Exists(ctx, streamKey(token)+":w").Result()
	return err == nil && n > 0
}

// Last implements Stream.
func (s *RedisStream) Last(ctx context.Context, id, token string) (Item, error) {
	key := streamKey(token)
	got, err := s.rdb.Get(ctx, key+":id").Result()
	switch {
	case errors.Is(err, redis.Nil):
		return Item{}, ErrNotFound
	case err != nil:
		return Item{}, fmt.Errorf("the run's stream could not be read: %w", err)
	case got != id:
		return Item{}, ErrNotFound
	}
	msgs, err := s.rdb.XRevRangeN(ctx, key, "+", "-", 1).Result()
	if err != nil {
		return Item{}, fmt.Errorf("the run's stream could not be read: %w", err)
	}
	if len(msgs) == 0 {
		return Item{}, nil
	}
	_, seqStr, _ := strings.Cut(msgs[0].ID, "-")
	seq, _ := strconv.ParseUint(seqStr, 10, 64)
	typ, _ := msgs[0].Values["t"].(string)
	b, _ := msgs[0].Values["m"].(string)
	return Item{Seq: seq, Type: typ, B: []byte(b)}, nil
}

type redisWatcher struct {
	s      *RedisStream
	key    string
	cursor uint64
	ended  bool
}

// blockFor is the longest one XREAD BLOCK waits before the watcher checks
// that the run's stream still exists.
const blockFor = 5 * time.Second

func (w *redisWatcher) Next(ctx context.Context) ([]Item, error) {
	for {
		if w.ended {
			return nil, io.EOF
		}
		w.present()
		block := blockFor
		if dl, ok := ctx.Deadline(); ok {
			block = min(block, time.Until(dl))
		}
		if block <= 0 || ctx.Err() != nil {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
			return nil, context.DeadlineExceeded
		}
		// The read's own deadline is past the block, so that Redis's empty
		// answer at the block's end arrives; a caller that gives up
		// (cancel, not its deadline) ends the read at once.
		rctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), block+2*time.Second)
		stop := context.AfterFunc(ctx, func() {
			if !errors.Is(ctx.Err(), context.DeadlineExceeded) {
				cancel()
			}
		})
		res, err := w.s.rdb.XRead(rctx, &redis.XReadArgs{Streams: []string{w.key, "0-" + strconv.FormatUint(w.cursor, 10)}, Count: maxBatch, Block: max(block, time.Millisecond)}).Result()
		stop()
		cancel()
		if ctx.Err() != nil && len(res) == 0 {
			return nil, ctx.Err()
		}
		if errors.Is(err, redis.Nil) || (err == nil && len(res) == 0) {
			n, err := w.s.rdb.Exists(ctx, w.key+":id").Result()
			if err == nil && n == 0 {
				return nil, ErrDropped // the run's stream expired
			}
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("the run's stream could not be read: %w", err)
		}
		var out []Item
		for _, m := range res[0].Messages {
			_, seqStr, _ := strings.Cut(m.ID, "-")
			seq, err := strconv.ParseUint(seqStr, 10, 64)
			if err != nil {
				continue
			}
			if seq != w.cursor+1 {
				return out, ErrDropped // trimmed (MAXLEN) or lost
			}
			typ, _ := m.Values["t"].(string)
			b, _ := m.Values["m"].(string)
			out = append(out, Item{Seq: seq, Type: typ, B: []byte(b)})
			w.cursor = seq
			if typ == ws.TypeDone {
				w.ended = true
				break
			}
		}
		if len(out) > 0 {
			return out, nil
		}
	}
}

// present marks the run watched for 2 × blockFor (Watched): an orphan's
// grace waits for this watcher. It is set before every read, whatever the
// reader's deadline.
func (w *redisWatcher) present() {
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	w.s.rdb.Set(ctx, w.key+":w", 1, 2*blockFor)
}

func (w *redisWatcher) Close() {
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	w.s.rdb.Del(ctx, w.key+":w") // another watcher sets it again within blockFor
}
