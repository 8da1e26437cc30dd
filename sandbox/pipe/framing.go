package pipe

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sync"
	"time"
)

// Writer writes one JSON object per line. Write flushes at once, so that a
// message arrives as it happens; WriteSoon lets a burst of messages (a
// run's events) go out in one system call. It is safe for concurrent use:
// a worker's event loop and watchdog, or a parent's run loop and host
// replies, share one.
type Writer struct {
	mu      sync.Mutex // guards the fields below
	w       *bufio.Writer
	pending bool          // WriteSoon left bytes that the timer (or FlushPending) must flush
	timer   *time.Timer   // flushes pending bytes after delay
	delay   time.Duration // FlushDelay; 0: no timer (NewTickedWriter)
}

// FlushDelay is the longest a message from WriteSoon waits in the buffer
// of a NewWriter.
const FlushDelay = time.Millisecond

// NewWriter returns a Writer on w whose WriteSoon lines leave within
// FlushDelay, by a timer.
func NewWriter(w io.Writer) *Writer {
	return &Writer{w: bufio.NewWriterSize(w, 64<<10), delay: FlushDelay}
}

// NewTickedWriter returns a Writer on w without WriteSoon's timer: lines
// from WriteSoon wait for the next Write or for the caller's FlushPending,
// which the caller runs on a tick of its own (a worker's watchdog). Arming
// a timer for each run woke the runtime's poller thread each time (issue
// 12).
func NewTickedWriter(w io.Writer) *Writer {
	return &Writer{w: bufio.NewWriterSize(w, 64<<10)}
}

// FlushPending flushes what WriteSoon left buffered, if anything; it
// returns the write's error.
func (w *Writer) FlushPending() error {
	w.mu.Lock()
	defer w.mu.Unlock()
	if !w.pending {
		return nil
	}
	w.pending = false
	return w.w.Flush()
}

// Write encodes v as one line and flushes it with anything buffered. A
// value whose encoding fails is not written.
func (w *Writer) Write(v any) error { return w.write(v, flushNow) }

// Buffer encodes v as one line but leaves it buffered: the next Write
// sends both in one system call. For a message that is about to be
// followed by another at once.
func (w *Writer) Buffer(v any) error { return w.write(v, flushLater) }

// WriteSoon encodes v as one line and flushes it within FlushDelay, or
// earlier with the next Write. A worker sends a run's events this way: a
// short run's events and its result leave in one system call (issue 12),
// and a long run's still stream.
func (w *Writer) WriteSoon(v any) error { return w.write(v, flushSoon) }

const (
	flushNow = iota
	flushLater
	flushSoon
)

func (w *Writer) write(v any, when int) error {
	w.mu.Lock()
	defer w.mu.Unlock()
	// The pipe's messages are encoded by hand (encode.go) straight into
	// the buffer's free space; anything else, or a value the encoders
	// cannot write alike, by encoding/json.
	b, ok := appendValue(w.w.AvailableBuffer(), v)
	if !ok {
		var err error
		if b, err = json.Marshal(v); err != nil {
			return err
		}
	}
	w.w.Write(b)
	w.w.WriteByte('\n')
	switch when {
	case flushLater:
		return nil
	case flushSoon:
		if !w.pending {
			w.pending = true
			if w.delay == 0 {
				return nil // the caller's FlushPending sends it
			}
			if w.timer == nil {
				w.timer = time.AfterFunc(w.delay, w.flushPending)
			} else {
				w.timer.Reset(w.delay)
			}
		}
		return nil
	}
	if w.pending {
		w.pending = false
		if w.timer != nil {
			w.timer.Stop()
		}
	}
	return w.w.Flush()
}

// flushPending is the timer's flush of what WriteSoon buffered.
func (w *Writer) flushPending() { _ = w.FlushPending() }

// ErrLineTooLong is returned by Reader.Next for a line over its cap.
var ErrLineTooLong = errors.New("pipe: line too long")

// Reader reads lines of at most max bytes (newline included). It is not
// safe for concurrent use: each end has one reading goroutine.
type Reader struct {
	br  *bufio.Reader
	max int
	buf []byte
}

// NewReader returns a Reader on r whose lines may hold at most max bytes.
func NewReader(r io.Reader, max int) *Reader {
	return &Reader{br: bufio.NewReaderSize(r, 64<<10), max: max}
}

// Next returns the next line without its newline; the slice is the
// caller's. At the end of the input it returns io.EOF (a last line without
// a newline is dropped: the writer died mid-line). A line over the cap is
// ErrLineTooLong, after which the Reader must not be used.
func (r *Reader) Next() ([]byte, error) {
	r.buf = r.buf[:0]
	for {
		chunk, err := r.br.ReadSlice('\n')
		if err == nil && len(r.buf) == 0 && len(chunk) <= r.max {
			return bytes.Clone(chunk[:len(chunk)-1]), nil // the whole line was buffered: one copy
		}
		if len(r.buf)+len(chunk) > r.max {
			return nil, fmt.Errorf("%w (over %d bytes)", ErrLineTooLong, r.max)
		}
		if err == bufio.ErrBufferFull {
			r.buf = append(r.buf, chunk...)
			continue
		}
		if err != nil {
			if err == io.EOF {
				return nil, io.EOF
			}
			return nil, err
		}
		r.buf = append(r.buf, chunk...)
		return bytes.Clone(r.buf[:len(r.buf)-1]), nil
	}
}
