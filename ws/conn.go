package ws

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"net"
	"net/http"
	"sync"
	"time"

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
	// ReadLimit is the largest client message in bytes. Defaults to 1 MiB.
	ReadLimit int64
}

// ErrBinaryFrame is returned by Conn.Read for a binary frame, which the
// protocol does not allow.
var ErrBinaryFrame = errors.New("binary frames are not part of the protocol; send JSON text frames")

// Conn is one accepted WebSocket speaking the protocol. Read must be called
// from one goroutine and Write from one goroutine (they may differ); Close
// may be called from any.
type Conn struct {
	c  *websocket.Conn
	cc *corkConn // the socket under c
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
	return &Conn{c: c, cc: hw.cc}, nil
}

// Read returns the next frame's bytes. It returns ErrBinaryFrame for a
// binary frame (the connection stays usable) and the library's error when
// the connection is closed or the read limit is exceeded.
func (c *Conn) Read(ctx context.Context) ([]byte, error) {
	typ, b, err := c.c.Read(ctx)
	if err != nil {
		return nil, err
	}
	if typ != websocket.MessageText {
		return nil, ErrBinaryFrame
	}
	return b, nil
}

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

// Cork holds the frames that Write and WriteRaw write until Uncork, which
// sends them in one system call: a run's started, log and done frames
// queued together cost one write instead of three (issue 12). Only the
// writing goroutine calls Cork and Uncork.
func (c *Conn) Cork() { c.cc.cork() }

// Uncork sends what Cork held, within timeout (0: no deadline), and stops
// holding. Its error is the socket's: the connection is then unusable.
func (c *Conn) Uncork(timeout time.Duration) error { return c.cc.uncork(timeout) }

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
	w.cc = &corkConn{Conn: nc, raw: newRawSocket(nc)}
	brw.Writer.Reset(w.cc)
	return w.cc, brw, nil
}

// Unwrap lets http.ResponseController reach the server's writer.
func (w *hijackWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// corkConn is a socket that can hold its writes (cork) and send them at
// once (uncork), read and written with raw system calls (rawSocket). It is safe for concurrent use; a nil *corkConn does
// nothing.
type corkConn struct {
	net.Conn
	raw     *rawSocket // nil: use Conn's own Read and Write
	mu      sync.Mutex
	corked  bool
	closing bool // Close began: writes go through at once, Cork holds nothing
	buf     []byte
}

func (c *corkConn) Read(p []byte) (int, error) {
	if c.raw != nil {
		return c.raw.read(p)
	}
	return c.Conn.Read(p)
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
		if err := c.flushLocked(); err != nil {
			return 0, err
		}
	}
	return len(p), nil
}

func (c *corkConn) cork() {
	if c == nil {
		return
	}
	c.mu.Lock()
	c.corked = !c.closing
	c.mu.Unlock()
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
	if timeout > 0 {
		_ = c.Conn.SetWriteDeadline(time.Now().Add(timeout))
		defer c.Conn.SetWriteDeadline(time.Time{})
	}
	return c.flushLocked()
}

func (c *corkConn) flushLocked() error {
	_, err := c.writeThrough(c.buf)
	if cap(c.buf) > 4<<10 {
		c.buf = nil // do not keep a large burst's buffer on an idle socket
	} else {
		c.buf = c.buf[:0]
	}
	return err
}
