package pipe

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sync"
)

// Writer writes one JSON object per line and flushes it, so that a message
// arrives as it happens. It is safe for concurrent use: a worker's event
// loop and watchdog, or a parent's run loop and host replies, share one.
type Writer struct {
	mu sync.Mutex // guards w
	w  *bufio.Writer
}

// NewWriter returns a Writer on w.
func NewWriter(w io.Writer) *Writer { return &Writer{w: bufio.NewWriterSize(w, 64<<10)} }

// Write encodes v as one line and flushes it with anything buffered. A
// value whose encoding fails is not written.
func (w *Writer) Write(v any) error { return w.write(v, true) }

// Buffer encodes v as one line but leaves it buffered: the next Write
// sends both in one system call. For a message that is about to be
// followed by another at once.
func (w *Writer) Buffer(v any) error { return w.write(v, false) }

func (w *Writer) write(v any, flush bool) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	w.w.Write(b)
	w.w.WriteByte('\n')
	if !flush {
		return nil
	}
	return w.w.Flush()
}

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
