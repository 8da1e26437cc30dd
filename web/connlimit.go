package web

import (
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/netip"
	"sync"
	"syscall"
	"time"
)

// ConnLimits bound the TCP connections a listener keeps open. The socket
// caps (Config.Sockets, Config.MaxSockets) count WebSockets only; a client
// that opens plain connections (one keep-alive request each, then idle, or
// none at all) would otherwise hold a descriptor per connection until
// IdleTimeout, and from one IP exhaust the server's open-file limit.
type ConnLimits struct {
	// PerIP caps one client's connections (keyed like the rate limits: the
	// IP, an IPv6 /64); 0: no cap. Peers in Trusted are not capped per IP
	// (a reverse proxy carries many clients), only in Total.
	PerIP int
	// Total caps all connections; 0: no cap. Past it, a client holding no
	// connection still gets one while fewer than Fresh connections are
	// past Total: a server filled by many clients still lets a newcomer
	// reach the socket cap's fair share (Config.MaxSockets).
	Total, Fresh int
	Trusted      []netip.Prefix
	Log          *slog.Logger
}

// ConnLimits returns the server's connection caps: per IP, the WebSockets
// one client may hold (Config.Sockets) plus 16 for plain HTTP (a browser
// opens up to 6 per host; programs calling /api/v1/ a few); in all,
// Config.MaxSockets plus 32, so that a full server can still answer a
// refused upgrade with its 503 and serve /healthz, and 32 more (Fresh) for
// clients holding none. Without a socket cap the matching connection cap
// is 0 (none).
func (s *Server) ConnLimits() ConnLimits {
	l := ConnLimits{Trusted: s.cfg.TrustedProxies, Log: s.cfg.Log}
	if s.cfg.Sockets != nil {
		l.PerIP = s.cfg.Sockets.Max() + 16
	}
	if s.cfg.MaxSockets > 0 {
		l.Total, l.Fresh = s.cfg.MaxSockets+32, 32
	}
	return l
}

// LimitListener returns ln with l's caps (see ConnLimits): a connection past a cap is
// answered at once with a one-line HTTP 429 (per IP) or 503 (in all) that
// names the cap, and closed, so it holds its descriptor for no longer than
// that write (a client that sent its request first may see a reset
// instead). A connection's place frees when it is closed (also after a
// WebSocket hijack). Refusals are logged at most once a second, with a
// count. The returned listener is safe for concurrent use.
func LimitListener(ln net.Listener, l ConnLimits) net.Listener {
	if l.Log == nil {
		l.Log = slog.Default()
	}
	return &limitListener{Listener: ln, l: l, byIP: map[string]int{}}
}

type limitListener struct {
	net.Listener
	l ConnLimits

	mu   sync.Mutex // guards the fields below
	n    int
	byIP map[string]int

	logs throttle // refusals
}

func (ll *limitListener) Accept() (net.Conn, error) {
	for {
		c, err := ll.Listener.Accept()
		if err != nil {
			return nil, err
		}
		key, perIP := connKey(c.RemoteAddr(), ll.l.Trusted)
		status, why := ll.take(key, perIP)
		if status == 0 {
			return &limitedConn{Conn: c, release: func() { ll.give(key, perIP) }}, nil
		}
		body := why + "\n"
		_ = c.SetWriteDeadline(time.Now().Add(10 * time.Millisecond)) // a new socket's buffer is empty: never waits
		_, _ = fmt.Fprintf(c, "HTTP/1.1 %d %s\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: %d\r\nRetry-After: 5\r\nConnection: close\r\n\r\n%s",
			status, map[int]string{429: "Too Many Requests", 503: "Service Unavailable"}[status], len(body), body)
		c.Close()
		ll.logRefusal(key, why)
	}
}

// connKey is the per-IP key of a peer (like clientIP, without proxies'
// headers, which a listener does not see) and whether it is capped per IP.
func connKey(a net.Addr, trusted []netip.Prefix) (string, bool) {
	ap, err := netip.ParseAddrPort(a.String())
	if err != nil {
		return a.String(), true
	}
	ip := ap.Addr().Unmap()
	if ip.Is6() {
		p, _ := ip.Prefix(64)
		return p.String(), !inAny(ip, trusted)
	}
	return ip.String(), !inAny(ip, trusted)
}

// take takes a place for key, or returns the refusal's status and reason.
func (ll *limitListener) take(key string, perIP bool) (int, string) {
	ll.mu.Lock()
	defer ll.mu.Unlock()
	if ll.l.Total > 0 && ll.n >= ll.l.Total && (ll.byIP[key] > 0 || !perIP || ll.n >= ll.l.Total+ll.l.Fresh) {
		return 503, fmt.Sprintf("server is full: it holds %d connections, its limit", ll.l.Total)
	}
	if perIP && ll.l.PerIP > 0 && ll.byIP[key] >= ll.l.PerIP {
		return 429, fmt.Sprintf("too many connections: this client holds %d, the limit; close some", ll.l.PerIP)
	}
	ll.n++
	if perIP {
		ll.byIP[key]++
	}
	return 0, ""
}

func (ll *limitListener) give(key string, perIP bool) {
	ll.mu.Lock()
	defer ll.mu.Unlock()
	ll.n--
	if perIP {
		if ll.byIP[key]--; ll.byIP[key] <= 0 {
			delete(ll.byIP, key)
		}
	}
}

// held returns the connections held in all and by key (for tests).
func (ll *limitListener) held(key string) (int, int) {
	ll.mu.Lock()
	defer ll.mu.Unlock()
	return ll.n, ll.byIP[key]
}

func (ll *limitListener) logRefusal(key, why string) {
	if ok, n := ll.logs.allow(); ok {
		ll.l.Log.Warn("connection refused", "ip", key, "reason", why, "alsoRefusedSinceLastLine", n)
	}
}

// throttle lets a flood of one kind of log line through at most once a
// second. The zero value is ready; it is safe for concurrent use.
type throttle struct {
	mu   sync.Mutex
	last time.Time
	n    int              // suppressed since last
	now  func() time.Time // nil: time.Now (tests set it)
}

// allow reports whether to log now, and how many lines were suppressed
// since the last one logged.
func (t *throttle) allow() (bool, int) {
	t.mu.Lock()
	defer t.mu.Unlock()
	now := time.Now()
	if t.now != nil {
		now = t.now()
	}
	if now.Sub(t.last) >= time.Second {
		n := t.n
		t.last, t.n = now, 0
		return true, n
	}
	t.n++
	return false, 0
}

// limitedConn gives its place back once, when closed.
type limitedConn struct {
	net.Conn
	once    sync.Once
	release func()
}

// CloseWrite half-closes a TCP connection, as http.Server does before it
// closes one it answered.
func (c *limitedConn) CloseWrite() error {
	if cw, ok := c.Conn.(interface{ CloseWrite() error }); ok {
		return cw.CloseWrite()
	}
	return nil
}

// SyscallConn exposes the socket's descriptor (ws reads and writes it with
// raw system calls), when the wrapped connection has one.
func (c *limitedConn) SyscallConn() (syscall.RawConn, error) {
	sc, ok := c.Conn.(syscall.Conn)
	if !ok {
		return nil, errors.ErrUnsupported
	}
	return sc.SyscallConn()
}

func (c *limitedConn) Close() error {
	err := c.Conn.Close()
	c.once.Do(c.release)
	return err
}
