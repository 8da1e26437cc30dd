package ws

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

// frame is a masked client frame (RFC 6455 §5.2) with a zero masking key,
// so the payload goes as it is.
func frame(fin bool, opcode byte, payload string) []byte {
	b0 := opcode
	if fin {
		b0 |= 0x80
	}
	return append([]byte{b0, 0x80 | byte(len(payload)), 0, 0, 0, 0}, payload...)
}

// rawClient opens a WebSocket to srv by hand (the library's client cannot
// send empty fragments) and returns the connection past the 101, with the
// frames in first sent in the same write as the handshake (the server reads
// them ahead, before the hijack).
func rawClient(t *testing.T, srv *httptest.Server, first []byte) (net.Conn, *bufio.Reader) {
	t.Helper()
	c, err := net.Dial("tcp", strings.TrimPrefix(srv.URL, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	_ = c.SetDeadline(time.Now().Add(10 * time.Second)) // a guard only
	req := fmt.Sprintf("GET / HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Protocol: %s\r\n\r\n", Subprotocol)
	if _, err := c.Write(append([]byte(req), first...)); err != nil {
		t.Fatal(err)
	}
	br := bufio.NewReader(c)
	resp, err := http.ReadResponse(br, nil)
	if err != nil || resp.StatusCode != http.StatusSwitchingProtocols {
		t.Fatalf("upgrade: %v %v", resp, err)
	}
	return c, br
}

func readServer(t *testing.T) (*httptest.Server, chan []byte, chan error) {
	msgs, errc := make(chan []byte, 10), make(chan error, 1)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		c, err := Accept(w, r, AcceptOptions{InsecureSkipOriginCheck: true})
		if err != nil {
			errc <- err
			return
		}
		for {
			b, err := c.Read(r.Context())
			if err != nil {
				errc <- err
				return
			}
			msgs <- b
		}
	}))
	t.Cleanup(srv.Close)
	return srv, msgs, errc
}

// TestEmptyContinuationFramesAreAbuse: a text message started and then
// followed by empty continuation frames (which never grow it, so no read
// limit trips) ends the connection with 1008 once it passes
// maxEmptyFrames, also when the frames came in the handshake's packet.
func TestEmptyContinuationFramesAreAbuse(t *testing.T) {
	for _, inHandshake := range []bool{false, true} {
		srv, msgs, errc := readServer(t)
		flood := frame(false, 0x1, "{")
		for range maxEmptyFrames + 1 {
			flood = append(flood, frame(false, 0x0, "")...)
		}
		var br *bufio.Reader
		if inHandshake {
			_, br = rawClient(t, srv, flood)
		} else {
			var c net.Conn
			c, br = rawClient(t, srv, nil)
			if _, err := c.Write(flood); err != nil {
				t.Fatal(err)
			}
		}
		if err := <-errc; !errors.Is(err, ErrEmptyFrames) {
			t.Errorf("in handshake %v: Read: %v; want ErrEmptyFrames", inHandshake, err)
		}
		if len(msgs) != 0 {
			t.Errorf("in handshake %v: a message was read", inHandshake)
		}
		// The close frame: FIN+close, length, then the status 1008.
		hdr := make([]byte, 4)
		if _, err := io.ReadFull(br, hdr); err != nil || hdr[0] != 0x88 || int(hdr[2])<<8|int(hdr[3]) != 1008 {
			t.Errorf("in handshake %v: the server's answer %x, %v; want a close frame with 1008", inHandshake, hdr, err)
		}
	}
}

// TestFragmentsAreRead: a message in fragments, a few of them empty and a
// ping between them, is read whole; the count starts anew for each message.
func TestFragmentsAreRead(t *testing.T) {
	srv, msgs, errc := readServer(t)
	c, _ := rawClient(t, srv, nil)
	var b []byte
	for range 2 {
		b = append(b, frame(false, 0x1, `{"type":`)...)
		for range maxEmptyFrames {
			b = append(b, frame(false, 0x0, "")...)
		}
		b = append(b, frame(true, 0x9, "")...) // a ping between fragments
		b = append(b, frame(true, 0x0, `"ping"}`)...)
	}
	if _, err := c.Write(b); err != nil {
		t.Fatal(err)
	}
	for i := range 2 {
		select {
		case m := <-msgs:
			if string(m) != `{"type":"ping"}` {
				t.Errorf("message %d = %q", i, m)
			}
		case err := <-errc:
			t.Fatalf("message %d: Read: %v", i, err)
		}
	}
}
