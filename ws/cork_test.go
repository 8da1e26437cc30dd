package ws

import (
	"net"
	"syscall"
	"testing"
	"time"
)

// wrapped hides a TCP connection's type behind net.Conn, as web's
// LimitListener connections do, and forwards its descriptor.
type wrapped struct{ net.Conn }

func (w wrapped) SyscallConn() (syscall.RawConn, error) { return w.Conn.(syscall.Conn).SyscallConn() }

// TestRawSocketThroughAWrapper: a wrapped socket that forwards its
// descriptor is still read and written raw (production sockets come
// wrapped by the listener's connection caps); one that does not, and a
// socket of another kind, are used as they are.
func TestRawSocketThroughAWrapper(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	go func() {
		if c, err := ln.Accept(); err == nil {
			defer c.Close()
			time.Sleep(100 * time.Millisecond)
		}
	}()
	nc, err := net.Dial("tcp", ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	if newRawSocket(wrapped{nc}) == nil {
		t.Error("a wrapper that forwards SyscallConn is not read raw")
	}
	if newRawSocket(struct{ net.Conn }{nc}) != nil {
		t.Error("a wrapper without SyscallConn is read raw")
	}
	a, b := net.Pipe()
	defer a.Close()
	defer b.Close()
	if newRawSocket(a) != nil {
		t.Error("a net.Pipe is read raw")
	}
}

// TestCloseFlushIsBounded: Close flushes what a cork held within
// closeFlushTimeout even when the peer reads nothing, and corks no more
// afterwards (the close frame must not wait in the buffer).
func TestCloseFlushIsBounded(t *testing.T) {
	a, b := net.Pipe() // writes block until the other end reads: b never does
	defer a.Close()
	defer b.Close()
	c := &corkConn{Conn: a}
	c.cork()
	if _, err := c.Write([]byte("held")); err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() {
		c.close(50 * time.Millisecond)
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(10 * time.Second): // a failure guard: unbounded, it never returns
		t.Fatal("close waited on a peer that reads nothing")
	}
	c.cork()
	if c.corked {
		t.Error("corked after close began")
	}
}
