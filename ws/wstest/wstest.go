// Package wstest is a client of the socket protocol playground.v1 for
// tests, as net/http/httptest is a server for them: it dials a server's
// socket, sends client messages encoded from ws's own types, reads the
// server's messages with their header decoded, and collects a run's
// messages until its done. It is test support only: nothing outside
// _test.go files imports it.
//
// The contract: every operation (the dial, each read and each write) is
// bounded by Options.Timeout and by the test's context, so a server that
// stops answering fails the test instead of hanging it; a failure calls
// t.Fatal, so a Client is used from the test's own goroutine (Next and
// UntilClosed return their error instead, for tests that expect one);
// the connection is closed when the test ends.
package wstest

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"testing"
	"time"

	"github.com/coder/websocket"
	"github.com/playground-dev/playground/ws"
)

// Options configures Dial. The zero value dials as the browser client does.
type Options struct {
	// Header is sent with the upgrade request: Origin, Traceparent,
	// X-Forwarded-For and the like.
	Header http.Header
	// LocalAddr is the IP the client dials from, such as 127.0.0.2, so that
	// one test has several client addresses; "" lets the system choose.
	LocalAddr string
	// Timeout bounds the dial and each read and write: a guard only, which
	// a test on a loaded machine under -race must not reach. Defaults to 60s.
	Timeout time.Duration
	// ReadLimit is the largest message the client reads, in bytes.
	// Defaults to 16 MiB (a run's done may carry its output and tape).
	ReadLimit int64
}

// Client is one socket speaking playground.v1, closed when its test ends.
// Its methods must be called from one goroutine, the test's: they fail the
// test with t.Fatal.
type Client struct {
	t       testing.TB
	conn    *websocket.Conn
	timeout time.Duration
	hello   Message
}

// Dial opens a socket to url (ws:// or http://, with its path) offering
// ws.Subprotocol, and reads the server's hello. It fails the test when the
// upgrade is refused, the server does not select the subprotocol, or the
// first message is not a hello of playground.v1.
func Dial(t testing.TB, url string, opts Options) *Client {
	t.Helper()
	c, _, err := TryDial(t, url, opts)
	if err != nil {
		t.Fatalf("dial %s: %v", url, err)
	}
	return c
}

// TryDial is Dial for a test that expects the upgrade may be refused: it
// returns the error and the server's response (its body still readable)
// instead of failing. Once the upgrade succeeded it fails the test as Dial
// does.
func TryDial(t testing.TB, url string, opts Options) (*Client, *http.Response, error) {
	t.Helper()
	if opts.Timeout <= 0 {
		opts.Timeout = 60 * time.Second
	}
	if opts.ReadLimit <= 0 {
		opts.ReadLimit = 16 << 20
	}
	do := &websocket.DialOptions{Subprotocols: []string{ws.Subprotocol}, HTTPHeader: opts.Header}
	if opts.LocalAddr != "" {
		d := &net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(opts.LocalAddr)}}
		do.HTTPClient = &http.Client{Transport: &http.Transport{DialContext: d.DialContext}}
	}
	ctx, cancel := context.WithTimeout(t.Context(), opts.Timeout)
	defer cancel()
	conn, resp, err := websocket.Dial(ctx, url, do)
	if err != nil {
		return nil, resp, err
	}
	t.Cleanup(func() { conn.CloseNow() })
	conn.SetReadLimit(opts.ReadLimit)
	if got := conn.Subprotocol(); got != ws.Subprotocol {
		t.Fatalf("dial %s: subprotocol %q; want %q", url, got, ws.Subprotocol)
	}
	c := &Client{t: t, conn: conn, timeout: opts.Timeout}
	c.hello = c.Read()
	if h := As[ws.Hello](t, c.hello); h.Protocol != ws.Subprotocol {
		t.Fatalf("dial %s: hello %s; want protocol %q", url, c.hello, ws.Subprotocol)
	}
	return c, resp, nil
}

// Hello returns the hello the server sent first.
func (c *Client) Hello() Message { return c.hello }

// Conn returns the underlying connection, for what the protocol's helpers
// do not cover: reading on another goroutine, frames the protocol forbids.
func (c *Client) Conn() *websocket.Conn { return c.conn }

// Send writes a client message (*ws.Run, *ws.Cancel, *ws.Ping or
// *ws.Watch) as one text frame: the type's JSON with its "type" first.
func (c *Client) Send(m ws.Message) {
	c.t.Helper()
	typ := typeOf(m)
	fields, err := json.Marshal(m)
	if err != nil {
		c.t.Fatalf("Send(%T): %v", m, err)
	}
	b := append([]byte(`{"type":"`), typ...)
	if len(fields) > len("{}") { // the type's fields follow the tag
		b = append(append(b, `",`...), fields[1:]...)
	} else {
		b = append(b, `"}`...)
	}
	c.SendFrame(websocket.MessageText, b)
}

// SendJSON writes v as json.Marshal encodes it, in one text frame: for
// messages ws has no type for, such as the malformed ones a test sends on
// purpose.
func (c *Client) SendJSON(v any) {
	c.t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		c.t.Fatalf("SendJSON: %v", err)
	}
	c.SendFrame(websocket.MessageText, b)
}

// SendFrame writes b as one frame of type typ, as given.
func (c *Client) SendFrame(typ websocket.MessageType, b []byte) {
	c.t.Helper()
	ctx, cancel := context.WithTimeout(c.t.Context(), c.timeout)
	defer cancel()
	if err := c.conn.Write(ctx, typ, b); err != nil {
		c.t.Fatalf("write: %v", err)
	}
}

// Next reads the next message, returning the read error (the connection's
// end: test it with websocket.CloseStatus) instead of failing. It fails the
// test only for a message that is not a JSON object with a string "type".
func (c *Client) Next() (Message, error) {
	c.t.Helper()
	ctx, cancel := context.WithTimeout(c.t.Context(), c.timeout)
	defer cancel()
	_, b, err := c.conn.Read(ctx)
	if err != nil {
		return Message{}, err
	}
	m := Message{Raw: b}
	if err := json.Unmarshal(b, &m.RunHeader); err != nil || m.Type == "" {
		c.t.Fatalf("server sent %q; want a JSON object with a type (%v)", b, err)
	}
	return m, nil
}

// Read reads the next message; it fails the test if the connection ends.
func (c *Client) Read() Message {
	c.t.Helper()
	m, err := c.Next()
	if err != nil {
		c.t.Fatalf("read: %v", err)
	}
	return m
}

// Until reads run id's messages with seq after after, up to and including
// its done, and returns them; messages of other runs and of no run are
// read past. It fails the test unless their seqs are after+1, after+2, …
// with no gap (the protocol's rule).
func (c *Client) Until(id string, after uint64) []Message {
	c.t.Helper()
	var out []Message
	for {
		m := c.Read()
		if m.ID != id {
			continue
		}
		if want := after + uint64(len(out)) + 1; m.Seq != want {
			c.t.Fatalf("run %s: message %s has seq %d; want %d", id, m, m.Seq, want)
		}
		out = append(out, m)
		if m.Type == ws.TypeDone {
			return out
		}
	}
}

// UntilClosed reads, discarding messages, until the connection ends, and
// returns the error that ended it: test it with websocket.CloseStatus.
func (c *Client) UntilClosed() error {
	c.t.Helper()
	for {
		if _, err := c.Next(); err != nil {
			return err
		}
	}
}

// Close closes the socket with 1000 (normal closure), waiting (up to
// Options.Timeout) for the server's close frame.
func (c *Client) Close() error { return c.conn.Close(websocket.StatusNormalClosure, "") }

// CloseNow drops the connection without a close handshake, as a client
// that goes away does.
func (c *Client) CloseNow() { c.conn.CloseNow() }

// Message is one server message: its header decoded, and its bytes as they
// arrived. Type is always set; ID, Seq and T are a run's message's (ID also
// of protocol_error and watch_error), zero for others.
type Message struct {
	ws.RunHeader
	Raw json.RawMessage
}

// String returns the message's JSON, for failure messages.
func (m Message) String() string { return string(m.Raw) }

// Decode decodes the message into v as json.Unmarshal does.
func (m Message) Decode(v any) error { return json.Unmarshal(m.Raw, v) }

// As decodes m into T, one of ws's server message types (ws.Hello,
// ws.Started, ws.Log, ws.Done …). It fails the test unless m's type is
// T's and m has no field T lacks: a test reads the wire through the types
// the server encodes it from.
func As[T any](t testing.TB, m Message) T {
	t.Helper()
	var v T
	if want := typeOf(any(&v)); m.Type != want {
		t.Fatalf("message %s is a %q; want %q (%T)", m, m.Type, want, v)
	}
	d := json.NewDecoder(bytes.NewReader(m.Raw))
	d.DisallowUnknownFields()
	if err := d.Decode(&v); err != nil {
		t.Fatalf("message %s as %T: %v", m, v, err)
	}
	return v
}

// typeOf returns the "type" of the message v points to: a client message
// or a server message of package ws.
func typeOf(v any) string {
	switch v.(type) {
	case *ws.Run:
		return ws.TypeRun
	case *ws.Cancel:
		return ws.TypeCancel
	case *ws.Ping:
		return ws.TypePing
	case *ws.Watch:
		return ws.TypeWatch
	case *ws.Hello:
		return ws.TypeHello
	case *ws.Queued:
		return ws.TypeQueued
	case *ws.Started:
		return ws.TypeStarted
	case *ws.Log:
		return ws.TypeLog
	case *ws.Fact:
		return ws.TypeFact
	case *ws.Call, *ws.CallStart:
		return ws.TypeCall
	case *ws.Error:
		return ws.TypeError
	case *ws.Done:
		return ws.TypeDone
	case *ws.Pong:
		return ws.TypePong
	case *ws.ProtocolError:
		return ws.TypeProtocolError
	case *ws.WatchError:
		return ws.TypeWatchError
	}
	panic(fmt.Sprintf("wstest: %T is not a message of package ws", v))
}
