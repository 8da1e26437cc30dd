package runs

import (
	"context"
	"errors"
	"io"
	"sync"
	"testing"
	"time"

	"github.com/playground-dev/playground/ratelimit/redistest"
	"github.com/playground-dev/playground/ws"
)

func redisHub(t *testing.T, url string) (*Hub, *RedisStream) {
	t.Helper()
	s, err := NewRedisStream(RedisConfig{URL: url})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	h := New(Config{Stream: s})
	t.Cleanup(h.Close)
	return h, s
}

// TestRedisWatcherOnAnotherInstance: a run held by hub A is followed from
// hub B through Redis, from a cursor, live, to its done, exactly once.
func TestRedisWatcherOnAnotherInstance(t *testing.T) {
	r := redistest.Start(t)
	a, sa := redisHub(t, r.URL())
	b, _ := redisHub(t, r.URL())
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()

	run := a.Open("r1", "ip")
	send := run.Tee(func(any) {})
	send(ws.Started{RunHeader: hdr(ws.TypeStarted, "r1", 1)})
	send(ws.Log{RunHeader: hdr(ws.TypeLog, "r1", 2), Text: "before"})
	if err := sa.Flush(ctx); err != nil {
		t.Fatal(err)
	}
	if _, err := b.Watch(ctx, "r2", run.Token(), 0); !errors.Is(err, ErrNotFound) {
		t.Fatalf("another id with the token: %v; want ErrNotFound", err)
	}
	if _, err := b.Watch(ctx, "r1", NewToken(), 0); !errors.Is(err, ErrNotFound) {
		t.Fatalf("a wrong token: %v; want ErrNotFound", err)
	}
	w, err := b.Watch(ctx, "r1", run.Token(), 1)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	var seqs []uint64
	var texts []string
	var werr error
	var wg sync.WaitGroup
	wg.Go(func() {
		for {
			items, err := w.Next(ctx)
			for _, it := range items {
				seqs = append(seqs, it.Seq)
				texts = append(texts, string(it.B))
			}
			if err != nil {
				werr = err
				return
			}
		}
	})
	for i := uint64(3); i <= 50; i++ {
		send(ws.Log{RunHeader: hdr(ws.TypeLog, "r1", i), Text: "live"})
	}
	send(ws.Done{RunHeader: hdr(ws.TypeDone, "r1", 51), Outcome: ws.OutcomeOK})
	wg.Wait()
	if !errors.Is(werr, io.EOF) {
		t.Fatalf("remote watcher ended with %v; want io.EOF after done", werr)
	}
	want(t, seqs, 2, 51)
	if texts[0] != `{"type":"log","id":"r1","seq":2,"t":0,"level":"","text":"before","args":null}` {
		t.Fatalf("first message %s", texts[0])
	}
}

// TestRemoteWatcherHoldsAnOrphan: a watcher on another instance marks the
// run watched (Stream.Watched) while it reads, and no longer once closed,
// so an orphan's grace waits for it like for a local watcher.
func TestRemoteWatcherHoldsAnOrphan(t *testing.T) {
	r := redistest.Start(t)
	a, sa := redisHub(t, r.URL())
	b, _ := redisHub(t, r.URL())
	run := a.Open("r1", "ip")
	run.Tee(func(any) {})(ws.Started{RunHeader: hdr(ws.TypeStarted, "r1", 1)})
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	if err := sa.Flush(ctx); err != nil {
		t.Fatal(err)
	}
	if sa.Watched(run.Token()) {
		t.Fatal("watched before anyone watches")
	}
	w, err := b.Watch(ctx, "r1", run.Token(), 1)
	if err != nil {
		t.Fatal(err)
	}
	short, stop := context.WithTimeout(ctx, 50*time.Millisecond)
	_, err = w.Next(short) // nothing after seq 1: it waits, marked present, until short ends
	stop()
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("Next: %v; want the deadline", err)
	}
	if !sa.Watched(run.Token()) {
		t.Fatal("a remote watcher reading the run does not mark it watched")
	}
	w.Close()
	if sa.Watched(run.Token()) {
		t.Fatal("still watched after the remote watcher closed")
	}
}

// TestTapeFromAnotherInstance: a finished run's tape is read on an
// instance that did not run it; a running run is not ended there.
func TestTapeFromAnotherInstance(t *testing.T) {
	r := redistest.Start(t)
	a, sa := redisHub(t, r.URL())
	b, _ := redisHub(t, r.URL())
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	run := a.Open("r1", "ip")
	send := run.Tee(func(any) {})
	send(ws.Started{RunHeader: hdr(ws.TypeStarted, "r1", 1)})
	if err := sa.Flush(ctx); err != nil {
		t.Fatal(err)
	}
	if _, ended, err := b.Tape(ctx, "r1", run.Token()); err != nil || ended {
		t.Fatalf("a running run: ended %v, %v; want not ended", ended, err)
	}
	send(ws.Done{RunHeader: hdr(ws.TypeDone, "r1", 2), Outcome: ws.OutcomeOK, Tape: []byte(`{"version":1}`)})
	if err := sa.Flush(ctx); err != nil {
		t.Fatal(err)
	}
	tape, ended, err := b.Tape(ctx, "r1", run.Token())
	if err != nil || !ended || string(tape) != `{"version":1}` {
		t.Fatalf("tape %s, ended %v, %v", tape, ended, err)
	}
	if _, _, err := b.Tape(ctx, "r2", run.Token()); !errors.Is(err, ErrNotFound) {
		t.Fatalf("another id: %v; want ErrNotFound", err)
	}
}
