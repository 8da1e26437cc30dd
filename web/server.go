package web

import (
	"context"
	"encoding/json"
	"log/slog"
	"net/http"
	"net/netip"
	"runtime/metrics"
	"sync"
	"time"

	"github.com/playground-dev/playground/session"
	"github.com/playground-dev/playground/static"
	"github.com/playground-dev/playground/ws"
)

// Config configures a Server. Runner, Limiter and Limits are required.
type Config struct {
	Runner  session.Runner
	Limiter session.Limiter
	// Limits and Modules are announced in every hello and enforced by sessions.
	Limits  ws.Limits
	Modules []string
	// Host lists the host function names announced in hello.
	Host []string
	// OriginPatterns are browser origins allowed besides the server's own
	// host (path.Match patterns such as "*.example.com").
	OriginPatterns []string
	// EmbedOrigins are the origins (scheme://host[:port], "*." allowed at the
	// host's start, or "*" for any) whose pages may frame /embed, besides
	// the server's own; invalid entries are logged and ignored.
	EmbedOrigins []string
	// InsecureSkipOriginCheck accepts WebSockets from any origin (tests only).
	InsecureSkipOriginCheck bool
	// TrustedProxies are peers whose X-Forwarded-For is believed.
	TrustedProxies []netip.Prefix
	// Session is the template for each session's tuning (ping interval,
	// outbox size); its Runner, Limiter, Key, Hello and Metrics are set here.
	Session session.Config
	// PoolStats, if set, adds the sandbox pool's figures to /api/stats.
	PoolStats func() any
	Log       *slog.Logger
}

// Server serves the playground. It is an http.Handler; Close and Wait end
// its WebSocket sessions, which http.Server.Shutdown does not track.
type Server struct {
	cfg     Config
	mux     *http.ServeMux
	metrics session.Metrics
	started time.Time

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
	s := &Server{cfg: cfg, mux: http.NewServeMux(), started: time.Now()}
	s.ctx, s.cancel = context.WithCancel(context.Background())
	var rejected []string
	s.frameAncestors, rejected = frameAncestors(cfg.EmbedOrigins)
	for _, r := range rejected {
		cfg.Log.Error("embed origin ignored", "origin", r)
	}
	s.routes()
	return s
}

func (s *Server) routes() {
	s.mux.HandleFunc("GET /{$}", s.handleIndex)
	s.mux.HandleFunc("GET /ws", s.handleWS)
	s.mux.Handle("GET /static/", http.StripPrefix("/static/", cacheControl(http.FileServerFS(static.FS()))))
	s.mux.HandleFunc("GET /healthz", s.handleHealth)
	s.mux.HandleFunc("GET /api/stats", s.handleStats)
	s.mux.HandleFunc("GET /embed", s.handleEmbed)
	s.mux.HandleFunc("GET /favicon.ico", serveBytes("image/x-icon", faviconICO))
	s.mux.HandleFunc("GET /favicon.svg", serveBytes("image/svg+xml", faviconSVG))
}

// ServeHTTP implements http.Handler.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) { s.mux.ServeHTTP(w, r) }

// Metrics returns the counters of all sessions.
func (s *Server) Metrics() *session.Metrics { return &s.metrics }

// Close ends every session: each closes its socket with 1001 (going away)
// and cancels its run. No session starts after Close, so a Wait that
// follows it never races with a sessions.Add (sync.WaitGroup's rule).
func (s *Server) Close() {
	s.mu.Lock()
	s.closed = true
	s.mu.Unlock()
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
	ip := clientIP(r, s.cfg.TrustedProxies)
	if !s.addSession() {
		http.Error(w, "server is shutting down", http.StatusServiceUnavailable)
		return
	}
	defer s.sessions.Done()
	conn, err := ws.Accept(w, r, ws.AcceptOptions{
		OriginPatterns:          s.cfg.OriginPatterns,
		InsecureSkipOriginCheck: s.cfg.InsecureSkipOriginCheck,
		ReadLimit:               s.cfg.Limits.MaxMessageBytes,
	})
	if err != nil {
		s.cfg.Log.Warn("websocket refused", "ip", ip, "err", err)
		return
	}
	cfg := s.cfg.Session
	cfg.Runner, cfg.Limiter, cfg.Key, cfg.Metrics = s.cfg.Runner, s.cfg.Limiter, ip, &s.metrics
	cfg.Hello = ws.Hello{Limits: s.cfg.Limits, Modules: s.cfg.Modules, Host: s.cfg.Host}
	if cfg.Log == nil {
		cfg.Log = s.cfg.Log
	}
	sess := session.New(conn, cfg)
	s.cfg.Log.Info("session opened", "session", sess.ID(), "ip", ip)
	err = sess.Serve(s.ctx)
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
