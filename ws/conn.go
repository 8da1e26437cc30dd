package ws

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"

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
	c *websocket.Conn
}

// Accept upgrades the request. A refused origin is answered by the library
// with HTTP 403 and a plain-text reason, and Accept returns its error. The
// subprotocol is selected when the client offers it.
func Accept(w http.ResponseWriter, r *http.Request, opts AcceptOptions) (*Conn, error) {
	c, err := websocket.Accept(w, r, &websocket.AcceptOptions{
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
	return &Conn{c: c}, nil
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

// Close closes the connection with a status code and reason.
func (c *Conn) Close(code websocket.StatusCode, reason string) error { return c.c.Close(code, reason) }

// CloseNow closes the connection without a handshake.
func (c *Conn) CloseNow() error { return c.c.CloseNow() }

// Subprotocol returns the negotiated subprotocol ("" when none).
func (c *Conn) Subprotocol() string { return c.c.Subprotocol() }
