package web

import (
	"bufio"
	"io"
	"log/slog"
	"net"
	"net/netip"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/playground-dev/playground/ratelimit"
)

// acceptAll serves ll: every accepted connection is sent on the channel.
func acceptAll(t *testing.T, ll net.Listener) <-chan net.Conn {
	t.Helper()
	out := make(chan net.Conn, 100)
	go func() {
		for {
			c, err := ll.Accept()
			if err != nil {
				close(out)
				return
			}
			out <- c
		}
	}()
	t.Cleanup(func() { ll.Close() })
	return out
}

// connect dials addr from src and reports the first line the server
// wrote within a moment ("" when it wrote nothing: the connection is held).
func connect(t *testing.T, addr, src string) (net.Conn, string) {
	t.Helper()
	d := net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(src)}}
	c, err := d.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	c.SetReadDeadline(time.Now().Add(300 * time.Millisecond))
	line, err := bufio.NewReader(c).ReadString('\n')
	c.SetReadDeadline(time.Time{})
	if err != nil && !isTimeout(err) && err != io.EOF {
		t.Fatalf("read: %v", err)
	}
	return c, strings.TrimSpace(line)
}

func isTimeout(err error) bool {
	ne, ok := err.(net.Error)
	return ok && ne.Timeout()
}

func listen(t *testing.T, l ConnLimits) (*limitListener, string) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	l.Log = slog.New(slog.NewTextHandler(io.Discard, nil))
	ll := LimitListener(ln, l).(*limitListener)
	return ll, ln.Addr().String()
}

// waitHeld waits until ll holds n connections in all (the accept loop runs
// on its own goroutine); a guard, not a timing assertion.
func waitHeld(t *testing.T, ll *limitListener, n int) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		if total, _ := ll.held(""); total == n {
			return
		}
		if time.Now().After(deadline) {
			total, _ := ll.held("")
			t.Fatalf("listener holds %d connections; want %d", total, n)
		}
		time.Sleep(time.Millisecond)
	}
}

// TestLimitListenerPerIP: one IP holds at most PerIP connections (the next
// is answered 429 and closed), another IP is served meanwhile, and a
// closed connection's place frees.
func TestLimitListenerPerIP(t *testing.T) {
	ll, addr := listen(t, ConnLimits{PerIP: 2, Total: 10})
	accepted := acceptAll(t, ll)
	var held []net.Conn // the server's ends
	for range 2 {
		if _, line := connect(t, addr, "127.0.0.2"); line != "" {
			t.Fatalf("a connection under the cap got %q; want it held", line)
		}
		held = append(held, <-accepted)
	}
	// A held connection forwards its descriptor: ws reads and writes it raw.
	if sc, ok := held[0].(syscall.Conn); !ok {
		t.Error("a held connection hides its descriptor (no SyscallConn)")
	} else if _, err := sc.SyscallConn(); err != nil {
		t.Errorf("SyscallConn: %v", err)
	}
	if _, line := connect(t, addr, "127.0.0.2"); !strings.HasPrefix(line, "HTTP/1.1 429") {
		t.Errorf("a 3rd connection from one IP: %q; want HTTP 429", line)
	}
	if total, ip := ll.held("127.0.0.2"); ip != 2 || total != 2 {
		t.Errorf("held %d in all, %d by 127.0.0.2; want 2 and 2 (a refused one is not counted)", total, ip)
	}
	if _, line := connect(t, addr, "127.0.0.3"); line != "" {
		t.Errorf("another IP: %q; want its connection held", line)
	}
	<-accepted
	held[0].Close()
	held[0].Close() // a second close gives nothing back twice
	if total, ip := ll.held("127.0.0.2"); ip != 1 || total != 2 {
		t.Errorf("after a close: %d in all, %d by 127.0.0.2; want 2 and 1", total, ip)
	}
	if _, line := connect(t, addr, "127.0.0.2"); line != "" {
		t.Errorf("after a close: %q; want the connection held", line)
	}
	<-accepted
}

// TestLimitListenerTotal: past Total every connection is answered 503,
// trusted proxies too; a trusted proxy is not capped per IP.
func TestLimitListenerTotal(t *testing.T) {
	ll, addr := listen(t, ConnLimits{PerIP: 1, Total: 3, Trusted: []netip.Prefix{netip.MustParsePrefix("127.0.0.4/32")}})
	accepted := acceptAll(t, ll)
	for i := range 3 { // three from the proxy, past its per-IP cap of 1
		if _, line := connect(t, addr, "127.0.0.4"); line != "" {
			t.Fatalf("proxy connection %d: %q; want it held (a trusted proxy has no per-IP cap)", i, line)
		}
		<-accepted
	}
	for _, src := range []string{"127.0.0.4", "127.0.0.5"} {
		if _, line := connect(t, addr, src); !strings.HasPrefix(line, "HTTP/1.1 503") {
			t.Errorf("from %s on a full listener: %q; want HTTP 503", src, line)
		}
	}
	waitHeld(t, ll, 3)
}

func TestServerConnLimits(t *testing.T) {
	s := NewServer(Config{Sockets: ratelimit.NewLocalCounts(16), MaxSockets: 100, Log: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if l := s.ConnLimits(); l.PerIP != 32 || l.Total != 132 || l.Fresh != 32 {
		t.Errorf("ConnLimits = %d per IP, %d in all, %d fresh; want 32, 132, 32", l.PerIP, l.Total, l.Fresh)
	}
	if l := NewServer(Config{Log: slog.New(slog.NewTextHandler(io.Discard, nil))}).ConnLimits(); l.PerIP != 0 || l.Total != 0 {
		t.Errorf("without socket caps: %d per IP, %d in all; want none", l.PerIP, l.Total)
	}
}

func TestThrottle(t *testing.T) {
	now := time.Unix(1000, 0)
	th := throttle{now: func() time.Time { return now }}
	if ok, n := th.allow(); !ok || n != 0 {
		t.Errorf("first line: %v %d; want logged", ok, n)
	}
	for range 5 {
		if ok, _ := th.allow(); ok {
			t.Fatal("a line within the second was logged")
		}
	}
	now = now.Add(time.Second)
	if ok, n := th.allow(); !ok || n != 5 {
		t.Errorf("a second later: %v %d; want logged, with 5 suppressed", ok, n)
	}
}

// TestLimitListenerFresh: past Total, a client holding no connection still
// gets one, up to Fresh more; one that holds one does not.
func TestLimitListenerFresh(t *testing.T) {
	ll, addr := listen(t, ConnLimits{PerIP: 5, Total: 2, Fresh: 1})
	accepted := acceptAll(t, ll)
	for range 2 {
		if _, line := connect(t, addr, "127.0.0.2"); line != "" {
			t.Fatalf("under the total: %q", line)
		}
		<-accepted
	}
	if _, line := connect(t, addr, "127.0.0.2"); !strings.HasPrefix(line, "HTTP/1.1 503") {
		t.Errorf("past the total, from a client holding two: %q; want 503", line)
	}
	if _, line := connect(t, addr, "127.0.0.3"); line != "" {
		t.Errorf("past the total, from a client holding none: %q; want it held (fresh)", line)
	}
	<-accepted
	if _, line := connect(t, addr, "127.0.0.4"); !strings.HasPrefix(line, "HTTP/1.1 503") {
		t.Errorf("past total and fresh: %q; want 503", line)
	}
	waitHeld(t, ll, 3)
}
