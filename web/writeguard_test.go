package web

import (
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"
	"time"
)

// TestWriteGuardDeadline: a client that asks and never reads cannot hold a
// handler that writes: once the socket's buffers are full, a write fails
// with the deadline's error, and the handler returns.
func TestWriteGuardDeadline(t *testing.T) {
	werr := make(chan error, 1)
	srv := httptest.NewServer(guardWrites(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		chunk := make([]byte, 64<<10)
		for range 4096 { // 256 MiB: far past what loopback buffers hold
			if _, err := w.Write(chunk); err != nil {
				werr <- err
				return
			}
		}
		werr <- nil
	}), 100*time.Millisecond, 1<<40))
	defer srv.Close()
	c, err := net.Dial("tcp", strings.TrimPrefix(srv.URL, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if _, err := io.WriteString(c, "GET / HTTP/1.1\r\nHost: x\r\n\r\n"); err != nil {
		t.Fatal(err)
	}
	select { // reads nothing
	case err := <-werr:
		if !errors.Is(err, os.ErrDeadlineExceeded) {
			t.Errorf("the handler's write: %v; want the write deadline's error", err)
		}
	case <-time.After(30 * time.Second): // a guard only
		t.Fatal("the handler was still writing to a client that does not read")
	}
}

// TestWriteGuardBudget: an answer past its byte budget fails the write
// that passes it, and the client sees the answer cut (not a complete,
// shorter one); an answer within it arrives whole and may be flushed.
func TestWriteGuardBudget(t *testing.T) {
	werr := make(chan error, 1)
	srv := httptest.NewServer(guardWrites(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n := 1000
		if r.URL.Path == "/big" {
			n = 3000
		}
		_, err := w.Write([]byte(strings.Repeat("a", n/2)))
		http.NewResponseController(w).Flush()
		if err == nil {
			_, err = w.Write([]byte(strings.Repeat("a", n-n/2)))
		}
		werr <- err
	}), time.Minute, 2000))
	defer srv.Close()

	resp, err := http.Get(srv.URL + "/small")
	if err != nil {
		t.Fatal(err)
	}
	b, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	if err != nil || len(b) != 1000 || <-werr != nil {
		t.Errorf("an answer of 1000 bytes under a 2000 budget: %d bytes, %v", len(b), err)
	}

	resp, err = http.Get(srv.URL + "/big")
	if err != nil {
		t.Fatal(err)
	}
	_, err = io.ReadAll(resp.Body)
	resp.Body.Close()
	if werr := <-werr; !errors.Is(werr, ErrResponseTooLarge) {
		t.Errorf("the write past the budget: %v; want ErrResponseTooLarge", werr)
	}
	if err == nil {
		t.Errorf("the client read a cut answer without an error; want it to see the cut")
	}
}
