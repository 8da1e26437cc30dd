package web

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"net/http"
	"net/netip"
	"runtime/metrics"
	"sync"
	"sync/atomic"
	"time"

	"github.com/playground-dev/playground/engine"
	"github.com/playground-dev/playground/session"
	"github.com/playground-dev/playground/static"
	"github.com/playground-dev/playground/ws"
)

// Config configures a Server. Engine is required to serve sockets.
type Config struct {
	// Engine runs every socket's runs; the server's other transports share
	// it. Its Limits are announced in every hello (SocketLimits), its
	// Metrics are what /api/stats reports, and Drain and Close drain it.
	Engine *engine.Engine
	// Modules are announced in every hello.
	Modules []string
	// Host lists the host function names announced in hello.
	Host []string
	// HostGlobals lists the host functions (or namespaces) snippets may also
	// call as globals, announced in hello (sandbox.Config.HostGlobals).
	HostGlobals []string
	// OriginPatterns are browser origins allowed besides the server's own
	// host (path.Match patterns such as "*.example.com").
	OriginPatterns []string
	// EmbedOrigins are the origins (scheme://host[:port], "*." allowed at the
	// host's start, or "*" for any) whose pages may frame /embed, besides
	// the server's own; invalid entries are logged and ignored.
	EmbedOrigins []string
	// InsecureSkipOriginCheck accepts WebSockets from any origin (tests only).
	InsecureSkipOriginCheck bool
	// AllowedHosts are the Host names the server answers (DNS rebinding;
	// "*.example.com" for subdomains; IP literals always pass); others get
	// 403. Empty: every host (see LoopbackHosts for a loopback server).
	AllowedHosts []string
	// TrustedProxies are peers whose X-Forwarded-For is believed.
	TrustedProxies []netip.Prefix
	// Session is the template for each session's tuning (ping interval,
	// outbox size); its Engine, Key, Hello and Budget are set here.
	Session session.Config
	// PoolStats, if set, adds the sandbox pool's figures to /api/stats.
	PoolStats func() any
	// Programs, if set, serves the endpoints for programs (/api/v1/ and
	// /mcp), on the same Engine as the sockets. Close closes it.
	Programs Programs
	// Metrics, if set, serves GET /metrics; Ready serves GET and HEAD /readyz.
	Metrics, Ready http.Handler
	// Sockets, if set, caps the sockets one client (IP) holds open at once;
	// past it an upgrade is refused with 429. MaxSockets caps this server's
	// sockets in all (0: no cap); past it an upgrade is refused with 503,
	// unless another client holds at least two sockets more than this one:
	// then that client's newest session ends (its run's done is sent, then
	// 1001) to make room, so many clients together cannot lock out one.
	Sockets    engine.Counter
	MaxSockets int
	// SocketMaxOutputBytes, when positive and below Limits.MaxOutputBytes,
	// is a socket run's output cap (hello.limits.maxOutputBytes): its
	// outbox holds a whole done message. The HTTP API and MCP have
	// Limits.MaxOutputBytes.
	SocketMaxOutputBytes int
	// OutboxBudget, if set, bounds the bytes waiting in all sessions'
	// outboxes, in all and per client (session.Budget).
	OutboxBudget *session.Budget
	// WriteTimeout bounds each write of a plain HTTP answer (every route
	// but /ws), so a client that stops reading holds its handler no
	// longer; ResponseBytes bounds one answer's body, past it the
	// connection is cut. Defaults DefaultWriteTimeout and
	// DefaultResponseBytes.
	WriteTimeout  time.Duration
	ResponseBytes int64
	// Instrument, if set, wraps each route's handler (route is its
	// pattern, websocket says it upgrades), to count and time requests.
	Instrument func(route string, websocket bool, h http.Handler) http.Handler
	Log        *slog.Logger
}

// Programs serves the endpoints for programs. Close cancels their runs in
// flight (each still answers with its done).
type Programs interface {
	http.Handler
	Close()
}

// Server serves the playground. It is an http.Handler; Close and Wait end
// its WebSocket sessions, which http.Server.Shutdown does not track.
type Server struct {
	cfg      Config
	mux      *http.ServeMux
	handler  http.Handler    // mux behind the request log
	metrics  *engine.Metrics // the engine's, or the server's own without one
	programs Programs        // nil without Config.Programs
	started  time.Time
	draining atomic.Bool  // set by Drain
	open     atomic.Int64 // sockets upgraded or upgrading, for MaxSockets
	refusals throttle     // their log lines: a flood of refused upgrades is not a flood of lines
	roster   roster       // open sockets by client, for making room at MaxSockets

	frameAncestors string // CSP frame-ancestors of /embed, from cfg.EmbedOrigins

	ctx    context.Context // cancelled by Close: sessions end with 1001
	cancel context.CancelFunc

	mu       sync.Mutex // guards closed and every sessions.Add
	closed   bool       // set by Close; no session starts after it
	sessions sync.WaitGroup
}

// NewServer returns a Server ready to serve.
func NewServer(cfg Config) *Server {
	if cfg.Log == nil {
		cfg.Log = slog.Default()
	}
	if cfg.WriteTimeout <= 0 {
		cfg.WriteTimeout = DefaultWriteTimeout
	}
	if cfg.ResponseBytes <= 0 {
		cfg.ResponseBytes = DefaultResponseBytes
	}
	s := &Server{cfg: cfg, mux: http.NewServeMux(), started: time.Now()}
	s.ctx, s.cancel = context.WithCancel(context.Background())
	s.metrics = &engine.Metrics{}
	if cfg.Engine != nil {
		s.metrics = &cfg.Engine.Metrics
	}
	s.programs = cfg.Programs
	var rejected []string
	s.frameAncestors, rejected = frameAncestors(cfg.EmbedOrigins)
	for _, r := range rejected {
		cfg.Log.Error("embed origin ignored", "origin", r)
	}
	s.routes()
	return s
}

func (s *Server) routes() {
	s.handle("GET /{$}", http.HandlerFunc(s.handleIndex))
	s.handle("GET /ws", http.HandlerFunc(s.handleWS))
	s.handle("GET /watch", http.HandlerFunc(s.handleWatch))
	s.handle("GET /static/", http.StripPrefix("/static/", cacheControl(http.FileServerFS(static.FS()))))
	s.handle("GET /healthz", http.HandlerFunc(s.handleHealth))
	s.handle("GET /api/stats", http.HandlerFunc(s.handleStats))
	s.handle("GET /embed", http.HandlerFunc(s.handleEmbed))
	s.handle("GET /favicon.ico", serveBytes("image/x-icon", faviconICO))
	s.handle("GET /favicon.svg", serveBytes("image/svg+xml", faviconSVG))
	if s.programs != nil {
		s.handle("/api/v1/", s.programs)
		s.handle("/mcp", s.programs)
	}
	if s.cfg.Metrics != nil {
		s.handle("GET /metrics", s.cfg.Metrics)
	}
	if s.cfg.Ready != nil {
		s.handle("GET /readyz", s.cfg.Ready) // GET patterns match HEAD too
	}
	s.handler = logRequests(checkHost(s.mux, s.cfg.AllowedHosts), s.cfg.Log, func(r *http.Request) string { return s.ClientIP(r) })
}

// handle registers h for pattern, its writes guarded (guardWrites) unless
// it upgrades to a WebSocket, instrumented when the config says so.
func (s *Server) handle(pattern string, h http.Handler) {
	if pattern != "GET /ws" {
		h = guardWrites(h, s.cfg.WriteTimeout, s.cfg.ResponseBytes)
	}
	if s.cfg.Instrument != nil {
		h = s.cfg.Instrument(pattern, pattern == "GET /ws", h)
	}
	s.mux.Handle(pattern, h)
}

// ServeHTTP implements http.Handler.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) { s.handler.ServeHTTP(w, r) }

// ClientIP is the rate-limit key of r: its peer's IP, or the address its
// trusted proxy forwarded (Config.TrustedProxies); IPv6 keyed by /64.
func (s *Server) ClientIP(r *http.Request) string { return clientIP(r, s.cfg.TrustedProxies) }

// Drain starts a graceful shutdown: new sockets are refused with 503 and
// Retry-After, and every new run (on an open socket, or for programs) ends
// busy with retryAfterMs, so that clients retry on another instance; runs
// in flight go on. Close ends what is left.
func (s *Server) Drain() {
	s.draining.Store(true)
	s.drainEngine()
}

// drainEngine makes the engine refuse new runs (Engine.Drain).
func (s *Server) drainEngine() {
	if s.cfg.Engine != nil {
		s.cfg.Engine.Drain()
	}
}

// Draining reports whether Drain was called.
func (s *Server) Draining() bool { return s.draining.Load() }

// Metrics returns the counters of all sessions and runs (the engine's).
func (s *Server) Metrics() *engine.Metrics { return s.metrics }

// Close ends every session: each closes its socket with 1001 (going away)
// and cancels its run. No session starts after Close, so a Wait that
// follows it never races with a sessions.Add (sync.WaitGroup's rule).
func (s *Server) Close() {
	s.mu.Lock()
	s.closed = true
	s.mu.Unlock()
	s.draining.Store(true)
	s.drainEngine()
	if s.programs != nil {
		s.programs.Close()
	}
	s.cancel()
}

// addSession counts a session that is about to start; it reports false once
// Close was called.
func (s *Server) addSession() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return false
	}
	s.sessions.Add(1)
	return true
}

// Wait blocks until every session has ended or ctx is done.
func (s *Server) Wait(ctx context.Context) error {
	done := make(chan struct{})
	go func() { s.sessions.Wait(); close(done) }()
	select {
	case <-done:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

func (s *Server) handleWS(w http.ResponseWriter, r *http.Request) {
	ip := s.ClientIP(r)
	if s.Draining() || !s.addSession() {
		w.Header().Set("Retry-After", "1")
		http.Error(w, "server is shutting down: retry, a load balancer sends you to another instance", http.StatusServiceUnavailable)
		return
	}
	defer s.sessions.Done()
	if n := s.open.Add(1); s.cfg.MaxSockets > 0 && n > int64(s.cfg.MaxSockets) && !s.roster.makeRoom(ip) {
		s.open.Add(-1)
		if ok, n := s.refusals.allow(); ok {
			s.cfg.Log.Warn("websocket refused: server full", "ip", ip, "maxSockets", s.cfg.MaxSockets, "alsoRefusedSinceLastLine", n)
		}
		w.Header().Set("Retry-After", "5")
		http.Error(w, fmt.Sprintf("server is full: it holds %d sockets, its limit", s.cfg.MaxSockets), http.StatusServiceUnavailable)
		return
	}
	defer s.open.Add(-1)
	if s.cfg.Sockets != nil {
		release, ok := s.cfg.Sockets.Acquire(ip)
		if !ok {
			if ok, n := s.refusals.allow(); ok {
				s.cfg.Log.Warn("websocket refused: too many sockets from one client", "ip", ip, "max", s.cfg.Sockets.Max(), "alsoRefusedSinceLastLine", n)
			}
			w.Header().Set("Retry-After", "5")
			http.Error(w, fmt.Sprintf("too many sockets: this client holds %d, the limit (maxSocketsPerClient); close a tab", s.cfg.Sockets.Max()), http.StatusTooManyRequests)
			return
		}
		defer release()
	}
	conn, err := ws.Accept(w, r, ws.AcceptOptions{
		OriginPatterns:          s.cfg.OriginPatterns,
		InsecureSkipOriginCheck: s.cfg.InsecureSkipOriginCheck,
		ReadLimit:               session.FrameLimit(s.cfg.Engine.Limits.MaxMessageBytes),
		MessageLimit:            s.cfg.Engine.Limits.MaxMessageBytes,
	})
	if err != nil {
		s.cfg.Log.Warn("websocket refused", "ip", ip, "err", err)
		return
	}
	cfg := s.cfg.Session
	cfg.Engine, cfg.Key, cfg.Budget = s.cfg.Engine, ip, s.cfg.OutboxBudget
	cfg.Hello = ws.Hello{Limits: session.SocketLimits(s.cfg.Engine.Limits, s.cfg.SocketMaxOutputBytes), Modules: s.cfg.Modules, Host: s.cfg.Host, HostGlobals: s.cfg.HostGlobals}
	if cfg.Log == nil {
		cfg.Log = s.cfg.Log
	}
	sess := session.New(conn, cfg)
	s.cfg.Log.Info("session opened", "session", sess.ID(), "ip", ip)
	// The upgrade's traceparent parents each run's span (no span lives as long as the socket).
	ctx, end := context.WithCancel(s.cfg.Engine.Trace.Extract(s.ctx, r.Header)) // end: made room for another client (roster)
	defer end()
	defer s.roster.add(ip, end)()
	err = sess.Serve(ctx)
	s.cfg.Log.Info("session closed", "session", sess.ID(), "ip", ip, "err", err)
}

func (s *Server) handleHealth(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.Write([]byte("ok\n"))
}

// Stats is the body of GET /api/stats.
type Stats struct {
	Sessions   int64 `json:"sessions"`
	ActiveRuns int64 `json:"activeRuns"`
	QueuedRuns int64 `json:"queuedRuns"`
	Runs       int64 `json:"runs"`
	UptimeSec  int64 `json:"uptimeSec"`
	// GoMemoryBytes is all memory the server's Go runtime holds from the OS
	// (runtime/metrics /memory/classes/total:bytes minus released).
	GoMemoryBytes int64 `json:"goMemoryBytes"`
	Pool          any   `json:"pool,omitempty"`
}

func (s *Server) handleStats(w http.ResponseWriter, r *http.Request) {
	st := Stats{
		Sessions:   s.metrics.Sessions.Load(),
		ActiveRuns: s.metrics.ActiveRuns.Load(),
		QueuedRuns: s.metrics.QueuedRuns.Load(),
		Runs:       s.metrics.Runs.Load(),
		UptimeSec:  int64(time.Since(s.started).Seconds()),
	}
	ms := []metrics.Sample{{Name: "/memory/classes/total:bytes"}, {Name: "/memory/classes/heap/released:bytes"}}
	metrics.Read(ms)
	st.GoMemoryBytes = int64(ms[0].Value.Uint64() - ms[1].Value.Uint64())
	if s.cfg.PoolStats != nil {
		st.Pool = s.cfg.PoolStats()
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	json.NewEncoder(w).Encode(st)
}

func cacheControl(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Cache-Control", "no-cache")
		h.ServeHTTP(w, r)
	})
}
