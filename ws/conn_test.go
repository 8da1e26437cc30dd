package ws

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"
)

// countConn counts the writes that reach the socket.
type countConn struct {
	net.Conn
	writes int
	data   bytes.Buffer
}

func (c *countConn) Write(p []byte) (int, error) {
	c.writes++
	return c.data.Write(p)
}

func TestCorkHoldsWritesUntilUncork(t *testing.T) {
	under := &countConn{}
	c := &corkConn{Conn: under}
	if _, err := c.Write([]byte("a")); err != nil || under.writes != 1 {
		t.Fatalf("uncorked write: %v, %d writes; want it passed through", err, under.writes)
	}
	c.cork()
	for _, s := range []string{"b", "c", "d"} {
		if n, err := c.Write([]byte(s)); n != 1 || err != nil {
			t.Fatalf("corked write: %d, %v", n, err)
		}
	}
	if under.writes != 1 {
		t.Fatalf("%d writes while corked; want none", under.writes-1)
	}
	if err := c.uncork(0); err != nil {
		t.Fatal(err)
	}
	if under.writes != 2 || under.data.String() != "abcd" {
		t.Errorf("after uncork: %d writes, %q; want one more write of the held bytes", under.writes, under.data.String())
	}
	if err := c.uncork(0); err != nil || under.writes != 2 {
		t.Errorf("an empty uncork wrote (%d writes, %v)", under.writes, err)
	}
	var nilConn *corkConn // a Conn whose socket was never hijacked
	nilConn.cork()
	if err := nilConn.uncork(time.Second); err != nil {
		t.Error(err)
	}
}

func TestCorkedFramesArriveInOrderAndBeforeClose(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		c, err := Accept(w, r, AcceptOptions{InsecureSkipOriginCheck: true})
		if err != nil {
			t.Error(err)
			return
		}
		ctx := context.Background()
		c.Cork()
		for _, m := range []string{`{"n":1}`, `{"n":2}`} {
			if err := c.WriteRaw(ctx, []byte(m)); err != nil {
				t.Error(err)
			}
		}
		if err := c.Uncork(time.Second); err != nil {
			t.Error(err)
		}
		c.Cork()
		if err := c.WriteRaw(ctx, []byte(`{"n":3}`)); err != nil {
			t.Error(err)
		}
		c.Close(websocket.StatusNormalClosure, "bye") // sends the held frame first
	}))
	ctx, cl := dialTest(t, srv)
	var got []string
	for {
		_, b, err := cl.Read(ctx)
		if err != nil {
			if websocket.CloseStatus(err) != websocket.StatusNormalClosure {
				t.Errorf("close: %v; want a normal closure", err)
			}
			break
		}
		got = append(got, string(b))
	}
	if strings.Join(got, "") != `{"n":1}{"n":2}{"n":3}` {
		t.Errorf("frames %q; want 1, 2, 3 in order", got)
	}
}

func TestRawSocketMovesMoreThanTheSocketHolds(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	accepted := make(chan net.Conn, 1)
	go func() {
		c, err := ln.Accept()
		if err != nil {
			close(accepted)
			return
		}
		accepted <- c
	}()
	client, err := net.Dial("tcp", ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer client.Close()
	server, ok := <-accepted
	if !ok {
		t.Fatal("accept failed")
	}
	defer server.Close()
	a, b := newRawSocket(server), newRawSocket(client)
	if a == nil || b == nil {
		t.Fatal("a TCP socket got no raw reader and writer")
	}
	if p1, _ := net.Pipe(); newRawSocket(p1) != nil {
		t.Error("an in-memory pipe got a raw socket; want it used as it is")
	}
	want := bytes.Repeat([]byte("0123456789abcdef"), 1<<17) // 2 MiB: the writer must wait for the reader
	done := make(chan error, 1)
	go func() {
		_, err := a.write(want)
		server.(*net.TCPConn).CloseWrite()
		done <- err
	}()
	var got bytes.Buffer
	buf := make([]byte, 32<<10)
	for {
		n, err := b.read(buf)
		got.Write(buf[:n])
		if err != nil {
			if !errors.Is(err, io.EOF) {
				t.Fatal(err)
			}
			break
		}
	}
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got.Bytes(), want) {
		t.Errorf("read %d bytes; want the %d written, in order", got.Len(), len(want))
	}
	server.Close()
	if _, err := a.read(buf); err == nil || !errors.Is(err, net.ErrClosed) {
		t.Errorf("read on a closed socket: %v; want net.ErrClosed", err)
	}
}

// TestReadInvalidUTF8Closes1007: a text frame that is not UTF-8 fails the
// connection with 1007 (RFC 6455 §8.1) instead of being read with its
// bytes replaced.
func TestReadInvalidUTF8Closes1007(t *testing.T) {
	readErr := make(chan error, 1)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		c, err := Accept(w, r, AcceptOptions{InsecureSkipOriginCheck: true})
		if err != nil {
			readErr <- err
			return
		}
		_, err = c.Read(r.Context())
		readErr <- err
	}))
	ctx, cl := dialTest(t, srv)
	if err := cl.Write(ctx, websocket.MessageText, []byte("{\"type\":\"ping\",\"x\":\"\xff\xfe\"}")); err != nil {
		t.Fatal(err)
	}
	// The client reads (and so answers the close handshake) while the
	// server's Read closes.
	if _, _, err := cl.Read(ctx); websocket.CloseStatus(err) != websocket.StatusInvalidFramePayloadData {
		t.Errorf("client read: %v; want a close with 1007", err)
	}
	if err := <-readErr; !errors.Is(err, ErrInvalidUTF8) {
		t.Errorf("Read: %v; want ErrInvalidUTF8", err)
	}
}

// dialTest dials srv as a WebSocket client; the server, the client and
// the returned context (10 s) end with the test.
func dialTest(t *testing.T, srv *httptest.Server) (context.Context, *websocket.Conn) {
	t.Helper()
	t.Cleanup(srv.Close)
	ctx, cancel := context.WithTimeout(t.Context(), 10*time.Second)
	t.Cleanup(cancel)
	cl, _, err := websocket.Dial(ctx, "ws"+strings.TrimPrefix(srv.URL, "http"), nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cl.CloseNow() })
	return ctx, cl
}
