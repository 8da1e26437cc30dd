package pipe

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"
)

// writeCounter counts the writes that reach it and signals each.
type writeCounter struct {
	mu     sync.Mutex
	writes int
	data   bytes.Buffer
	wrote  chan struct{}
}

func (w *writeCounter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.writes++
	w.data.Write(p)
	select {
	case w.wrote <- struct{}{}:
	default:
	}
	return len(p), nil
}

func TestWriteSoonBatchesUntilWrite(t *testing.T) {
	wc := &writeCounter{wrote: make(chan struct{}, 1)}
	w := NewWriter(wc)
	w.delay = time.Hour // only the Write below may flush
	if err := w.Buffer(Message{Accepted: true}); err != nil {
		t.Fatal(err)
	}
	for range 2 {
		if err := w.WriteSoon(Message{Event: &Event{Kind: EventLog, Text: "x"}}); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Write(Message{Result: &Result{Outcome: OutcomeOK}}); err != nil {
		t.Fatal(err)
	}
	wc.mu.Lock()
	defer wc.mu.Unlock()
	lines := strings.Split(strings.TrimSuffix(wc.data.String(), "\n"), "\n")
	if wc.writes != 1 || len(lines) != 4 {
		t.Errorf("%d writes of %d lines; want the four messages in one write", wc.writes, len(lines))
	}
}

func TestWriteSoonFlushesWithoutAnotherWrite(t *testing.T) {
	wc := &writeCounter{wrote: make(chan struct{}, 1)}
	w := NewWriter(wc)
	if err := w.WriteSoon(Message{Event: &Event{Kind: EventLog, Text: "alone"}}); err != nil {
		t.Fatal(err)
	}
	<-wc.wrote // the flush timer sends it (the test's own timeout bounds the wait)
	wc.mu.Lock()
	defer wc.mu.Unlock()
	if !strings.Contains(wc.data.String(), `"alone"`) {
		t.Errorf("flushed %q; want the event", wc.data.String())
	}
}

func TestRawFileMovesMoreThanAPipeHolds(t *testing.T) {
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	rr, rw := RawFile(r), RawFile(w)
	if _, ok := rr.(*rawFile); !ok {
		t.Fatalf("RawFile of a pipe is %T; want the raw reader", rr)
	}
	want := bytes.Repeat([]byte("0123456789abcdef"), 1<<16) // 1 MiB: the writer must wait for the reader
	done := make(chan error, 1)
	go func() {
		_, err := rw.Write(want)
		w.Close()
		done <- err
	}()
	got, err := io.ReadAll(rr)
	if err != nil {
		t.Fatal(err)
	}
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("read %d bytes; want the %d written, in order", len(got), len(want))
	}
	r.Close()
}

func TestRawFileLeavesBlockingFilesAlone(t *testing.T) {
	f, err := os.Create(filepath.Join(t.TempDir(), "f"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if got := RawFile(f); got != io.ReadWriter(f) {
		t.Errorf("RawFile of a regular file is %T; want the file itself", got)
	}
}

// TestTickedWriterWaitsForFlushPending: without the timer, WriteSoon's
// lines leave with the next Write or with FlushPending, not before.
func TestTickedWriterWaitsForFlushPending(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		wc := &writeCounter{wrote: make(chan struct{}, 1)}
		w := NewTickedWriter(wc)
		if err := w.Buffer(Message{Accepted: true}); err != nil {
			t.Fatal(err)
		}
		if err := w.WriteSoon(Message{Event: &Event{Kind: EventStarted}}); err != nil {
			t.Fatal(err)
		}
		time.Sleep(3 * FlushDelay) // on synctest's clock: a timer, had there been one, would have fired
		synctest.Wait()
		wc.mu.Lock()
		if wc.writes != 0 {
			t.Errorf("%d writes before FlushPending; want none", wc.writes)
		}
		wc.mu.Unlock()
		if err := w.FlushPending(); err != nil {
			t.Fatal(err)
		}
		if err := w.FlushPending(); err != nil { // nothing pending: no write
			t.Fatal(err)
		}
		wc.mu.Lock()
		defer wc.mu.Unlock()
		if lines := strings.Count(wc.data.String(), "\n"); wc.writes != 1 || lines != 2 {
			t.Errorf("%d writes of %d lines; want the two lines in one write", wc.writes, lines)
		}
	})
}
