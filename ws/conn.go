package ws

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/coder/websocket"
)

// AcceptOptions configures Accept.
type AcceptOptions struct {
	// OriginPatterns are extra hosts (path.Match patterns, as
	// websocket.AcceptOptions.OriginPatterns) allowed besides the request's
	// own host.
	OriginPatterns []string
	// InsecureSkipOriginCheck accepts any origin; for tests and local tools only.
	InsecureSkipOriginCheck bool
	// ReadLimit is the largest client message in bytes: a longer one
	// closes the connection with 1009 (message too big). Defaults to 1 MiB.
	ReadLimit int64
	// MessageLimit, when positive and below ReadLimit, is the largest
	// message Read returns whole: of a longer one (up to ReadLimit) Read
	// keeps only the first MessageLimit bytes, reads past the rest without
	// holding it, and returns a *MessageTooBigError, so that the message
	// can be answered and the connection stays open.
	MessageLimit int64
}

// MessageTooBigError is returned by Conn.Read for a message longer than
// AcceptOptions.MessageLimit: Size is its length in bytes, and RunID the
// id of a run message (its top-level "type" is "run" and "id" a valid
// run id, wherever they are in it), else "". The connection stays usable.
type MessageTooBigError struct {
	Size  int64
	Limit int64
	RunID string
}

func (e *MessageTooBigError) Error() string {
	return fmt.Sprintf("the message is %d bytes; the limit is maxMessageBytes=%d", e.Size, e.Limit)
}

// ErrBinaryFrame is returned by Conn.Read for a binary frame, which the
// protocol does not allow.
var ErrBinaryFrame = errors.New("binary frames are not part of the protocol; send JSON text frames")

// Conn is one accepted WebSocket speaking the protocol. Read must be called
// from one goroutine and Write from one goroutine (they may differ); Close
// may be called from any.
type Conn struct {
	c            *websocket.Conn
	cc           *corkConn // the socket under c
	messageLimit int64     // AcceptOptions.MessageLimit; 0: messages are read whole
}

// Accept upgrades the request. A refused origin is answered by the library
// with HTTP 403 and a plain-text reason, and Accept returns its error. The
// subprotocol is selected when the client offers it.
func Accept(w http.ResponseWriter, r *http.Request, opts AcceptOptions) (*Conn, error) {
	hw := &hijackWriter{ResponseWriter: w}
	c, err := websocket.Accept(hw, r, &websocket.AcceptOptions{
		Subprotocols:       []string{Subprotocol},
		OriginPatterns:     opts.OriginPatterns,
		InsecureSkipVerify: opts.InsecureSkipOriginCheck,
		CompressionMode:    websocket.CompressionDisabled,
	})
	if err != nil {
		return nil, err
	}
	limit := opts.ReadLimit
	if limit <= 0 {
		limit = 1 << 20
	}
	c.SetReadLimit(limit)
	conn := &Conn{c: c, cc: hw.cc}
	if opts.MessageLimit > 0 && opts.MessageLimit < limit {
		conn.messageLimit = opts.MessageLimit
	}
	return conn, nil
}

// Read returns the next frame's bytes. It returns ErrBinaryFrame for a
// binary frame (the connection stays usable), a *MessageTooBigError for a
// message over AcceptOptions.MessageLimit (the connection stays usable),
// ErrInvalidUTF8 for a text frame that is not UTF-8 (the connection is
// closed with 1007), ErrEmptyFrames for a message of more than 16 empty
// fragments (protocol abuse: the connection is closed with 1008), and the
// library's error when the connection is closed or the read limit is
// exceeded.
func (c *Conn) Read(ctx context.Context) ([]byte, error) {
	typ, b, err := c.read(ctx)
	var tooBig *MessageTooBigError
	if errors.As(err, &tooBig) {
		if typ != websocket.MessageText {
			return nil, ErrBinaryFrame
		}
		return nil, err
	}
	if errors.Is(err, ErrEmptyFrames) {
		_ = c.c.Close(websocket.StatusPolicyViolation, "too many empty continuation frames")
		return nil, ErrEmptyFrames
	}
	if err != nil {
		return nil, err
	}
	if typ != websocket.MessageText {
		return nil, ErrBinaryFrame
	}
	if !utf8.Valid(b) {
		// RFC 6455 §8.1: a text message that is not UTF-8 fails the
		// connection with 1007 (invalid frame payload data).
		_ = c.c.Close(websocket.StatusInvalidFramePayloadData, "a text frame is not valid UTF-8")
		return nil, ErrInvalidUTF8
	}
	return b, nil
}

// read reads the next message whole, or, past messageLimit, its head and
// the length of the rest (a *MessageTooBigError).
func (c *Conn) read(ctx context.Context) (websocket.MessageType, []byte, error) {
	if c.messageLimit <= 0 {
		return c.c.Read(ctx)
	}
	typ, r, err := c.c.Reader(ctx)
	if err != nil {
		return 0, nil, err
	}
	var buf bytes.Buffer
	n, err := buf.ReadFrom(io.LimitReader(r, c.messageLimit+1))
	if err != nil {
		return 0, nil, err
	}
	if n <= c.messageLimit {
		return typ, buf.Bytes(), nil
	}
	// Past the limit: the rest is read (the library still enforces
	// ReadLimit) through a scanner that keeps only the run's id, so that
	// the run can be answered and the next message read.
	var sc runIDScanner
	_, _ = sc.Write(buf.Bytes())
	rest, err := io.Copy(&sc, r)
	if err != nil {
		return 0, nil, err
	}
	return typ, nil, &MessageTooBigError{Size: n + rest, Limit: c.messageLimit, RunID: sc.runID()}
}

// ErrInvalidUTF8 is returned by Conn.Read for a text frame that is not
// valid UTF-8; the connection has been closed with status 1007.
var ErrInvalidUTF8 = errors.New("a text frame is not valid UTF-8")

// Write sends v as one JSON text frame.
func (c *Conn) Write(ctx context.Context, v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	return c.WriteRaw(ctx, b)
}

// WriteRaw sends b, which must be one JSON object, as a text frame.
func (c *Conn) WriteRaw(ctx context.Context, b []byte) error {
	return c.c.Write(ctx, websocket.MessageText, b)
}

// Ping sends a ping and waits for the pong; Read must be running concurrently.
func (c *Conn) Ping(ctx context.Context) error { return c.c.Ping(ctx) }

// Close closes the connection with a status code and reason, after
// sending what a Cork held.
func (c *Conn) Close(code websocket.StatusCode, reason string) error {
	c.cc.close(closeFlushTimeout)
	return c.c.Close(code, reason)
}

// closeFlushTimeout bounds Close's flush of what a Cork held: a peer that
// stopped reading must not hold Close (coder/websocket gives the close
// handshake 5 s too).
const closeFlushTimeout = 5 * time.Second

// Cork holds the frames that Write, WriteRaw and WriteHeld write until
// Uncork, which sends them in one system call: a run's started, log and
// done frames queued together cost one write instead of three (issue 12).
// Only the writing goroutine calls Cork and Uncork.
func (c *Conn) Cork() { c.cc.cork() }

// TryCork corks the connection when that costs no wait: no write is in
// progress, nothing is held from an earlier TryUncork, and Close has not
// begun. It reports whether it corked; if so the caller writes with
// WriteHeld and ends with TryUncork or Uncork.
func (c *Conn) TryCork() bool { return c.cc.tryCork() }

// WriteHeld adds b, which must be one JSON object, as a text frame to what
// the cork holds, without a system call unless the held bytes pass 64 KiB:
// then they are sent first, within timeout (0: no deadline). Uncorked, it
// is WriteRaw. It fails with net.ErrClosed once Close has begun. Only the
// goroutine that corked calls it.
func (c *Conn) WriteHeld(b []byte, timeout time.Duration) error {
	if c.cc != nil {
		if held, err := c.cc.holdFrame(b, timeout); held {
			return err
		}
	}
	return c.WriteRaw(context.Background(), b)
}

// Holding reports whether the cork holds bytes not yet sent (a
// TryUncork that could not send them all).
func (c *Conn) Holding() bool {
	if c.cc == nil {
		return false
	}
	c.cc.mu.Lock()
	defer c.cc.mu.Unlock()
	return len(c.cc.buf) > 0
}

// Uncork sends what Cork held, within timeout (0: no deadline), and stops
// holding. Its error is the socket's: the connection is then unusable.
func (c *Conn) Uncork(timeout time.Duration) error { return c.cc.uncork(timeout) }

// TryUncork sends what the cork holds as far as the socket takes it
// without waiting. flushed is true when all of it left and the connection
// is uncorked; otherwise the rest stays held (and corked) for Uncork, and
// TryCork fails until then. Its error is the socket's.
func (c *Conn) TryUncork() (flushed bool, err error) { return c.cc.tryUncork() }

// CloseNow closes the connection without a handshake.
func (c *Conn) CloseNow() error { return c.c.CloseNow() }

// Subprotocol returns the negotiated subprotocol ("" when none).
func (c *Conn) Subprotocol() string { return c.c.Subprotocol() }

// hijackWriter hands the library a corkConn around the hijacked socket.
type hijackWriter struct {
	http.ResponseWriter
	cc *corkConn
}

func (w *hijackWriter) Hijack() (net.Conn, *bufio.ReadWriter, error) {
	var hj http.Hijacker
	for rw := w.ResponseWriter; hj == nil; { // as the library looks for one: through Unwrap
		switch t := rw.(type) {
		case http.Hijacker:
			hj = t
		case interface{ Unwrap() http.ResponseWriter }:
			rw = t.Unwrap()
		default:
			return nil, nil, errors.New("http.ResponseWriter does not implement http.Hijacker")
		}
	}
	nc, brw, err := hj.Hijack()
	if err != nil {
		return nil, nil, err
	}
	if err := brw.Writer.Flush(); err != nil { // nothing is buffered after the 101; be sure
		nc.Close()
		return nil, nil, err
	}
	// Every byte the client sends passes corkConn.Read, which follows the
	// frames (frameScanner): what the server had read ahead is handed to
	// it first, and the reader the library gets holds nothing.
	pre, _ := brw.Reader.Peek(brw.Reader.Buffered())
	w.cc = &corkConn{Conn: nc, raw: newRawSocket(nc), pre: append([]byte(nil), pre...)}
	brw.Reader.Reset(w.cc)
	brw.Writer.Reset(w.cc)
	return w.cc, brw, nil
}

// Unwrap lets http.ResponseController reach the server's writer.
func (w *hijackWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// corkConn is a socket that can hold its writes (cork) and send them at
// once (uncork), read and written with raw system calls (rawSocket). It is
// safe for concurrent use; a nil *corkConn does nothing. While corked,
// everything written to it is appended whole under mu, so the frames the
// library writes (pings, pongs, close: one Write each) never split a frame
// added by holdFrame.
type corkConn struct {
	net.Conn
	raw     *rawSocket   // nil: use Conn's own Read and Write
	pre     []byte       // read ahead by the HTTP server before the hijack; Read returns it first
	frames  frameScanner // the client's frames, as Read passes them (one reader: the library's)
	mu      sync.Mutex
	corked  bool
	closing bool // Close began: writes go through at once, Cork holds nothing
	buf     []byte
}

func (c *corkConn) Read(p []byte) (int, error) {
	var n int
	var err error
	switch {
	case len(c.pre) > 0:
		n = copy(p, c.pre)
		c.pre = c.pre[n:]
	case c.raw != nil:
		n, err = c.raw.read(p)
	default:
		n, err = c.Conn.Read(p)
	}
	if ferr := c.frames.scan(p[:n]); ferr != nil {
		return 0, ferr
	}
	return n, err
}

func (c *corkConn) writeThrough(p []byte) (int, error) {
	if c.raw != nil {
		return c.raw.write(p)
	}
	return c.Conn.Write(p)
}

// maxCork is how much a cork holds before it writes through.
const maxCork = 64 << 10

func (c *corkConn) Write(p []byte) (int, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if !c.corked {
		return c.writeThrough(p)
	}
	c.buf = append(c.buf, p...)
	if len(c.buf) >= maxCork {
		if err := c.flushLocked(0); err != nil {
			return 0, err
		}
	}
	return len(p), nil
}

// holdFrame appends b as an unmasked text frame (RFC 6455 §5.2: FIN and
// opcode 1, then the payload length in 7, 7+16 or 7+64 bits) when
// corked, flushing within timeout past maxCork (err is the flush's). It
// reports held false when not corked (nothing was done). Closing, it holds
// nothing and fails with net.ErrClosed: no data frame may follow the close
// frame.
func (c *corkConn) holdFrame(b []byte, timeout time.Duration) (held bool, err error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closing {
		return true, net.ErrClosed
	}
	if !c.corked {
		return false, nil
	}
	n := len(b)
	switch {
	case n < 126:
		c.buf = append(c.buf, 0x81, byte(n))
	case n <= 0xffff:
		c.buf = append(c.buf, 0x81, 126, byte(n>>8), byte(n))
	default:
		c.buf = append(c.buf, 0x81, 127, byte(uint64(n)>>56), byte(uint64(n)>>48), byte(uint64(n)>>40), byte(uint64(n)>>32),
			byte(n>>24), byte(n>>16), byte(n>>8), byte(n))
	}
	c.buf = append(c.buf, b...)
	if len(c.buf) >= maxCork {
		err = c.flushLocked(timeout)
	}
	return true, err
}

func (c *corkConn) cork() {
	if c == nil {
		return
	}
	c.mu.Lock()
	c.corked = !c.closing
	c.mu.Unlock()
}

func (c *corkConn) tryCork() bool {
	if c == nil || c.raw == nil || !c.mu.TryLock() {
		return false
	}
	defer c.mu.Unlock()
	if c.closing || c.corked || len(c.buf) > 0 {
		return false
	}
	c.corked = true
	return true
}

// close flushes what a cork held, within timeout, and stops corking for
// good: the close frame the library writes next goes out at once.
func (c *corkConn) close(timeout time.Duration) {
	if c == nil {
		return
	}
	c.mu.Lock()
	c.closing = true
	c.mu.Unlock()
	_ = c.uncork(timeout)
}

func (c *corkConn) uncork(timeout time.Duration) error {
	if c == nil {
		return nil
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.corked = false
	if len(c.buf) == 0 {
		return nil
	}
	return c.flushLocked(timeout)
}

// tryUncork writes what is held as far as the socket takes it now; when
// all of it left, it uncorks.
func (c *corkConn) tryUncork() (bool, error) {
	if c == nil {
		return true, nil
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.buf) > 0 {
		if c.raw == nil {
			return false, nil // only a raw socket can be tried without waiting
		}
		n, err := c.raw.tryWrite(c.buf)
		if err != nil {
			c.buf = c.buf[:0]
			c.corked = false
			return false, err
		}
		if n < len(c.buf) {
			c.buf = c.buf[:copy(c.buf, c.buf[n:])]
			return false, nil
		}
		c.release()
	}
	c.corked = false
	return true, nil
}

// flushLocked writes what is held; a write that must wait for the peer
// waits at most timeout (0: no deadline).
func (c *corkConn) flushLocked(timeout time.Duration) error {
	p := c.buf
	var err error
	if c.raw != nil {
		// Try without a deadline first: setting one costs a timer, and
		// the socket almost always takes the bytes at once.
		var n int
		n, err = c.raw.tryWrite(p)
		p = p[n:]
	}
	if err == nil && len(p) > 0 {
		if timeout > 0 {
			_ = c.Conn.SetWriteDeadline(time.Now().Add(timeout))
		}
		_, err = c.writeThrough(p)
		if timeout > 0 {
			_ = c.Conn.SetWriteDeadline(time.Time{})
		}
	}
	c.release()
	return err
}

// release empties the held bytes; a large burst's buffer is not kept on
// an idle socket.
func (c *corkConn) release() {
	if cap(c.buf) > 4<<10 {
		c.buf = nil
	} else {
		c.buf = c.buf[:0]
	}
}
