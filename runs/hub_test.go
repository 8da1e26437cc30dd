package runs

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/playground-dev/playground/ws"
)

func hdr(typ, id string, seq uint64) ws.RunHeader {
	return ws.RunHeader{Type: typ, ID: id, Seq: seq}
}

// publishRun sends started, n logs and done through r.Tee and returns what
// the owner received.
func publishRun(r *Run, n int) []any {
	var got []any
	send := r.Tee(func(v any) { got = append(got, v) })
	send(ws.Started{RunHeader: hdr(ws.TypeStarted, r.ID(), 1), TimeoutMs: 1000})
	for i := range n {
		send(ws.Log{RunHeader: hdr(ws.TypeLog, r.ID(), uint64(i+2)), Level: "log", Text: fmt.Sprint("line ", i)})
	}
	send(ws.Done{RunHeader: hdr(ws.TypeDone, r.ID(), uint64(n+2)), Outcome: ws.OutcomeOK})
	return got
}

// drain reads w to its end and returns the seqs it got and the final error.
func drain(t *testing.T, w *Watcher) ([]uint64, error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	var seqs []uint64
	for {
		items, err := w.Next(ctx)
		for _, it := range items {
			seqs = append(seqs, it.Seq)
		}
		if err != nil {
			return seqs, err
		}
	}
}

func want(t *testing.T, seqs []uint64, from, to uint64) {
	t.Helper()
	if len(seqs) != int(to-from+1) {
		t.Fatalf("got %d messages %v; want seq %d..%d", len(seqs), seqs, from, to)
	}
	for i, s := range seqs {
		if s != from+uint64(i) {
			t.Fatalf("message %d has seq %d; want %d (all: %v)", i, s, from+uint64(i), seqs)
		}
	}
}

func TestStartedCarriesToken(t *testing.T) {
	h := New(Config{})
	defer h.Close()
	r := h.Open("r1", "ip")
	got := publishRun(r, 1)
	st := got[0].(ws.Started)
	if st.Watch != r.Token() || len(st.Watch) != 22 {
		t.Fatalf("started.watch %q; want the run's 22-character token %q", st.Watch, r.Token())
	}
	if r2 := h.Open("r1", "ip"); r2.Token() == r.Token() {
		t.Fatal("two runs got the same token")
	}
}

func TestWatchAfterCursorThenLive(t *testing.T) {
	h := New(Config{})
	defer h.Close()
	r := h.Open("r1", "ip")
	send := r.Tee(func(any) {})
	send(ws.Started{RunHeader: hdr(ws.TypeStarted, "r1", 1)})
	send(ws.Log{RunHeader: hdr(ws.TypeLog, "r1", 2), Text: "a"})
	w, err := h.Watch(context.Background(), "r1", r.Token(), 1)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	var seqs []uint64
	var derr error
	var wg sync.WaitGroup
	wg.Go(func() { seqs, derr = drain(t, w) })
	for i := uint64(3); i < 10; i++ {
		send(ws.Log{RunHeader: hdr(ws.TypeLog, "r1", i), Text: "b"})
	}
	send(ws.Done{RunHeader: hdr(ws.TypeDone, "r1", 10), Outcome: ws.OutcomeOK})
	wg.Wait()
	if !errors.Is(derr, io.EOF) {
		t.Fatalf("stream ended with %v; want io.EOF after done", derr)
	}
	want(t, seqs, 2, 10)
}

func TestWrongTokenOrIDIsNotFound(t *testing.T) {
	h := New(Config{})
	defer h.Close()
	r := h.Open("r1", "ip")
	other := h.Open("r2", "ip2")
	for _, c := range []struct{ id, token string }{
		{"r1", ""}, {"r1", "x"}, {"r1", other.Token()}, {"r2", r.Token()}, {"nope", r.Token()},
	} {
		if _, err := h.Watch(context.Background(), c.id, c.token, 0); !errors.Is(err, ErrNotFound) {
			t.Errorf("Watch(%q, %q): %v; want ErrNotFound", c.id, c.token, err)
		}
	}
}

func TestSixteenWatchersEachGetEverything(t *testing.T) {
	h := New(Config{})
	defer h.Close()
	r := h.Open("r1", "ip")
	var ws_ []*Watcher
	for range 16 {
		w, err := h.Watch(context.Background(), "r1", r.Token(), 0)
		if err != nil {
			t.Fatal(err)
		}
		ws_ = append(ws_, w)
	}
	results := make([][]uint64, len(ws_))
	var wg sync.WaitGroup
	for i, w := range ws_ {
		wg.Go(func() { results[i], _ = drain(t, w) })
	}
	publishRun(r, 500)
	wg.Wait()
	for _, s := range results {
		want(t, s, 1, 502)
	}
}

func TestMaxWatchers(t *testing.T) {
	h := New(Config{MaxWatchers: 2})
	defer h.Close()
	r := h.Open("r1", "ip")
	for range 2 {
		if _, err := h.Watch(context.Background(), "r1", r.Token(), 0); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := h.Watch(context.Background(), "r1", r.Token(), 0); !errors.Is(err, ErrTooManyWatchers) {
		t.Fatalf("third watcher: %v; want ErrTooManyWatchers", err)
	}
}

// A watcher that does not read while the run goes past its buffer is
// dropped; the owner received every message meanwhile.
func TestSlowWatcherIsDroppedOwnerIsNot(t *testing.T) {
	h := New(Config{BufferMessages: 10})
	defer h.Close()
	r := h.Open("r1", "ip")
	w, err := h.Watch(context.Background(), "r1", r.Token(), 0)
	if err != nil {
		t.Fatal(err)
	}
	got := publishRun(r, 100)
	if len(got) != 102 {
		t.Fatalf("owner got %d messages; want 102", len(got))
	}
	if _, err := w.Next(context.Background()); !errors.Is(err, ErrDropped) {
		t.Fatalf("slow watcher: %v; want ErrDropped", err)
	}
	// A late watcher asking from the start is told the start is gone.
	if _, err := h.Watch(context.Background(), "r1", r.Token(), 0); !errors.Is(err, ErrGone) {
		t.Fatalf("late watcher from 0: %v; want ErrGone", err)
	}
	// From within the window it gets the rest.
	w2, err := h.Watch(context.Background(), "r1", r.Token(), 95)
	if err != nil {
		t.Fatal(err)
	}
	seqs, err := drain(t, w2)
	if !errors.Is(err, io.EOF) {
		t.Fatal(err)
	}
	want(t, seqs, 96, 102)
}

func TestClientBudgetBoundsBuffers(t *testing.T) {
	h := New(Config{ClientBytes: 64 << 10})
	defer h.Close()
	big := strings.Repeat("x", 1000)
	var rs []*Run
	for i := range 4 {
		r := h.Open(fmt.Sprint("r", i), "ip")
		send := r.Tee(func(any) {})
		for s := uint64(1); s <= 200; s++ {
			send(ws.Log{RunHeader: hdr(ws.TypeLog, r.ID(), s), Text: big})
		}
		rs = append(rs, r)
	}
	if st := h.Stats(); st.Bytes > 64<<10 {
		t.Fatalf("the client's runs hold %d bytes of budget; the bound is %d", st.Bytes, 64<<10)
	}
	for _, r := range rs {
		r.mu.Lock()
		held, res := r.bytes, r.reserved
		r.mu.Unlock()
		if int64(held) > res && len(r.items) > 1 {
			t.Errorf("run %s holds %d bytes on %d reserved", r.ID(), held, res)
		}
	}
	// Another client is not affected.
	o := h.Open("o", "other")
	o.Tee(func(any) {})(ws.Log{RunHeader: hdr(ws.TypeLog, "o", 1), Text: big})
	w, err := h.Watch(context.Background(), "o", o.Token(), 0)
	if err != nil {
		t.Fatal(err)
	}
	items, err := w.Next(context.Background())
	if err != nil || len(items) != 1 {
		t.Fatalf("other client's run: %d items, %v", len(items), err)
	}
}

// TestFinishedRunsGiveWayToALiveRun: a client that ran many runs (each
// retained after its end) still gets a whole buffer for its next one: its
// own oldest finished runs leave first.
func TestFinishedRunsGiveWayToALiveRun(t *testing.T) {
	h := New(Config{ClientBytes: 64 << 10, Retain: time.Hour})
	defer h.Close()
	for i := range 1000 {
		publishRun(h.Open(fmt.Sprint("old", i), "ip"), 1)
	}
	if st := h.Stats(); st.Bytes > 64<<10 {
		t.Fatalf("the client's retained runs hold %d bytes; the bound is %d", st.Bytes, 64<<10)
	}
	r := h.Open("live", "ip")
	publishRun(r, 200)
	w, err := h.Watch(context.Background(), "live", r.Token(), 0)
	if err != nil {
		t.Fatalf("the live run's start is gone: %v", err)
	}
	seqs, _ := drain(t, w)
	want(t, seqs, 1, 202)
}

func TestFinishedRunIsRetainedThenExpires(t *testing.T) {
	h := New(Config{Retain: time.Hour}) // expire is driven by hand below
	defer h.Close()
	r := h.Open("r1", "ip")
	publishRun(r, 3)
	w, err := h.Watch(context.Background(), "r1", r.Token(), 0)
	if err != nil {
		t.Fatalf("a finished run is watchable while retained: %v", err)
	}
	seqs, _ := drain(t, w)
	want(t, seqs, 1, 5)
	h.expire(time.Now().Add(2 * time.Hour))
	if _, err := h.Watch(context.Background(), "r1", r.Token(), 0); !errors.Is(err, ErrNotFound) {
		t.Fatalf("expired run: %v; want ErrNotFound", err)
	}
	if st := h.Stats(); st.Runs != 0 || st.Bytes != 0 {
		t.Fatalf("after expiry the hub holds %+v; want nothing", st)
	}
}

func TestOrphanIsCancelledAfterGraceWithNobody(t *testing.T) {
	h := New(Config{})
	defer h.Close()
	r := h.Open("r1", "ip")
	r.Tee(func(any) {})(ws.Started{RunHeader: hdr(ws.TypeStarted, "r1", 1)})
	cancelled := make(chan struct{})
	var once sync.Once
	r.Orphan(time.Millisecond, func() { once.Do(func() { close(cancelled) }) })
	select {
	case <-cancelled:
	case <-time.After(30 * time.Second):
		t.Fatal("an orphan nobody watches was not cancelled after its grace")
	}
}

func TestOrphanWithWatcherKeepsRunning(t *testing.T) {
	h := New(Config{})
	defer h.Close()
	r := h.Open("r1", "ip")
	send := r.Tee(func(any) {})
	send(ws.Started{RunHeader: hdr(ws.TypeStarted, "r1", 1)})
	w, err := h.Watch(context.Background(), "r1", r.Token(), 1)
	if err != nil {
		t.Fatal(err)
	}
	cancelled := make(chan struct{})
	r.Orphan(time.Nanosecond, sync.OnceFunc(func() { close(cancelled) }))
	r.mu.Lock()
	armed := r.timer != nil
	r.mu.Unlock()
	if armed {
		t.Fatal("an orphan with a watcher has its grace running")
	}
	w.Close() // the last watcher leaves: the grace starts
	select {
	case <-cancelled:
	case <-time.After(30 * time.Second):
		t.Fatal("the orphan was not cancelled after its last watcher left")
	}
}

func TestCloseCancelsOrphans(t *testing.T) {
	h := New(Config{})
	r := h.Open("r1", "ip")
	r.Tee(func(any) {})(ws.Started{RunHeader: hdr(ws.TypeStarted, "r1", 1)})
	cancelled := make(chan struct{})
	r.Orphan(time.Hour, sync.OnceFunc(func() { close(cancelled) }))
	h.Close()
	select {
	case <-cancelled:
	default:
		t.Fatal("Close did not cancel the orphan")
	}
}

func TestRefusedRunLeavesAtOnce(t *testing.T) {
	h := New(Config{})
	defer h.Close()
	r := h.Open("r1", "ip")
	r.Close()
	if st := h.Stats(); st.Runs != 0 {
		t.Fatalf("a run closed before its done is still held: %+v", st)
	}
}

func TestDetachGrace(t *testing.T) {
	h := New(Config{DetachMax: time.Minute})
	defer h.Close()
	if g := h.DetachGrace(5000); g != 5*time.Second {
		t.Errorf("5000 ms: %v", g)
	}
	if g := h.DetachGrace(1e12); g != time.Minute {
		t.Errorf("capped: %v; want 1m", g)
	}
	off := New(Config{DetachMax: -1})
	defer off.Close()
	if g := off.DetachGrace(5000); g != 0 {
		t.Errorf("detach off: %v; want 0", g)
	}
}

// BenchmarkTee is the hub's cost on a hello run nobody watches: open,
// started, one log, done.
func BenchmarkTee(b *testing.B) {
	h := New(Config{})
	defer h.Close()
	nop := func(any) {}
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		r := h.Open("r", "ip")
		send := r.Tee(nop)
		send(ws.Started{RunHeader: hdr(ws.TypeStarted, "r", 1)})
		send(ws.Log{RunHeader: hdr(ws.TypeLog, "r", 2), Text: "hello"})
		send(ws.Done{RunHeader: hdr(ws.TypeDone, "r", 3)})
		if i%4096 == 0 {
			h.expire(time.Now().Add(time.Hour))
		}
	}
}

// BenchmarkPublish is the owner's cost of one log message on a long run,
// with no watcher and with 16 watchers reading it on their own goroutines
// (their reading is not the owner's cost; the wake-ups are).
func BenchmarkPublish(b *testing.B) {
	for _, n := range []int{0, 16} {
		b.Run(fmt.Sprintf("watchers=%d", n), func(b *testing.B) {
			h := New(Config{BufferMessages: 1 << 20, BufferBytes: 1 << 30, ClientBytes: 1 << 40, TotalBytes: 1 << 40})
			defer h.Close()
			r := h.Open("r", "ip")
			send := r.Tee(func(any) {})
			send(ws.Started{RunHeader: hdr(ws.TypeStarted, "r", 1)})
			ctx, cancel := context.WithCancel(context.Background())
			var wg sync.WaitGroup
			for range n {
				w, err := h.Watch(ctx, "r", r.Token(), 0)
				if err != nil {
					b.Fatal(err)
				}
				wg.Go(func() {
					defer w.Close()
					for {
						if _, err := w.Next(ctx); err != nil {
							return
						}
					}
				})
			}
			b.ReportAllocs()
			seq := uint64(1)
			for b.Loop() {
				seq++
				send(ws.Log{RunHeader: hdr(ws.TypeLog, "r", seq), Text: "hello"})
			}
			b.StopTimer()
			cancel()
			wg.Wait()
		})
	}
}
