// Package api serves programs: the HTTP run API (POST /api/v1/run: one JSON
// result, or the run's protocol messages as NDJSON or server-sent events)
// and the MCP Streamable HTTP endpoint (/mcp). Runs go through the same
// engine.Engine as WebSocket sessions: the same limits, the same rate
// limiter and fair queue (keyed by client IP, or by API key name), the same
// events; a client that disconnects cancels its run. With the engine's Hub
// (runs.Hub) a run may also outlive its request ("wait": false, the MCP
// start_run tool) and any run is followed by its watch token
// (GET /api/v1/runs/{id}/events, the MCP wait_run tool; live.go). docs/api.md is the
// contract and docs/openapi.json its machine-readable form (OpenAPI 3.1).
package api

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"log/slog"
	"net/http"
	"net/netip"
	"strings"
	"sync"
	"time"

	"github.com/playground-dev/playground/engine"
	"github.com/playground-dev/playground/ws"
	"github.com/rs/cors"
)

// Config configures a Handler. Engine is required.
type Config struct {
	// Engine runs every request; its Limits are the announced limits and
	// its Limiter is shared with the WebSocket sessions.
	Engine *engine.Engine
	// Modules and Host are the importable bare modules and the host
	// function names, as hello announces them (MCP tool description and
	// the list tool).
	Modules []string
	Host    []string
	// ClientIP returns the rate-limit key of a request without an API key.
	// Nil means the peer's IP from RemoteAddr (no proxy is trusted).
	ClientIP func(*http.Request) string
	// Calls, if set, limits the JSON-RPC calls of /mcp per client key: each
	// call (each call of a batch) takes a token, whatever its method; past
	// it a POST is 429 with Retry-After. See MaxBatchCalls.
	Calls engine.Limiter
	// Keys are the accepted API keys. Nil: none, and every Bearer key is 401.
	Keys *Keys
	// CORSOrigins are the browser origins allowed to call these endpoints
	// cross-origin ("*" for any). Empty: no CORS headers at all.
	CORSOrigins []string
	// PageURL is the playground page's absolute URL for share links
	// (…/#code=…). Empty: derived from each request's Host.
	PageURL string
	// StreamBufferBytes caps what a streaming response may hold unwritten;
	// a client that falls further behind is cut off and its run cancelled.
	// Default 8 MiB.
	StreamBufferBytes int
	// Version is announced as the MCP server's version. Default "dev".
	Version string
	// BodyReadTimeout is how long a request's body may take to arrive
	// (default DefaultBodyReadTimeout); past it /api/v1/run answers 408.
	BodyReadTimeout time.Duration
	Log             *slog.Logger
}

// Handler serves /api/v1/ and /mcp. It is safe for concurrent use. Close
// cancels every run in flight (each still answers with its done).
type Handler struct {
	cfg     Config
	handler http.Handler
	ctx     context.Context
	cancel  context.CancelFunc
	// requests maps an MCP HTTP request's id to its context (see requestHeader).
	requests sync.Map
}

// clientKeyHeader carries the authenticated client key from the auth
// middleware to the MCP tool handlers (which see only headers). Any value
// a client sends is removed first.
const clientKeyHeader = "Playground-Internal-Client-Key"

// New returns a Handler ready to serve.
func New(cfg Config) *Handler {
	if cfg.Log == nil {
		cfg.Log = slog.Default()
	}
	if cfg.StreamBufferBytes <= 0 {
		cfg.StreamBufferBytes = 8 << 20
	}
	if cfg.BodyReadTimeout <= 0 {
		cfg.BodyReadTimeout = DefaultBodyReadTimeout
	}
	if cfg.Version == "" {
		cfg.Version = "dev"
	}
	if cfg.ClientIP == nil {
		cfg.ClientIP = peerIP
	}
	h := &Handler{cfg: cfg}
	h.ctx, h.cancel = context.WithCancel(context.Background())
	mux := http.NewServeMux()
	mux.Handle("POST /api/v1/run", h.auth(http.HandlerFunc(h.handleRun)))
	mux.Handle("GET /api/v1/info", h.auth(http.HandlerFunc(h.handleInfo)))
	// A run's watch token is their Bearer credential, not an API key.
	mux.HandleFunc("GET /api/v1/runs/{id}/events", h.handleEvents)
	mux.HandleFunc("GET /api/v1/runs/{id}/tape", h.handleTape)
	mux.Handle("POST /api/v1/replay", h.auth(http.HandlerFunc(h.handleReplay)))
	mux.HandleFunc("/api/v1/run", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Allow", http.MethodPost)
		writeProblem(w, Problem{Type: "urn:playground:problem:method-not-allowed", Status: http.StatusMethodNotAllowed,
			Detail: r.Method + " /api/v1/run: runs are started with POST"})
	})
	mux.HandleFunc("/api/v1/replay", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Allow", http.MethodPost)
		writeProblem(w, Problem{Type: "urn:playground:problem:method-not-allowed", Status: http.StatusMethodNotAllowed,
			Detail: r.Method + " /api/v1/replay: a tape is replayed with POST"})
	})
	mux.HandleFunc("/api/v1/", func(w http.ResponseWriter, r *http.Request) {
		writeProblem(w, Problem{Type: "urn:playground:problem:not-found", Status: http.StatusNotFound,
			Detail: "no such endpoint: " + r.Method + " " + r.URL.Path + " (the API is POST /api/v1/run, POST /api/v1/replay, GET /api/v1/info, GET /api/v1/runs/{id}/events and GET /api/v1/runs/{id}/tape)"})
	})
	mux.Handle("/mcp", h.auth(h.mcpHandler()))
	var handler http.Handler = mux
	if len(cfg.CORSOrigins) > 0 {
		handler = cors.New(cors.Options{
			AllowedOrigins:   cfg.CORSOrigins,
			AllowedMethods:   []string{http.MethodGet, http.MethodPost, http.MethodDelete},
			AllowedHeaders:   []string{"Content-Type", "Authorization", "Accept", "Last-Event-ID", "Mcp-Session-Id", "Mcp-Protocol-Version"},
			ExposedHeaders:   []string{"Retry-After", "Mcp-Session-Id", "WWW-Authenticate"},
			AllowCredentials: false,
			MaxAge:           600,
		}).Handler(mux)
	}
	h.handler = bodyDeadline(handler, cfg.BodyReadTimeout)
	return h
}

// ServeHTTP implements http.Handler.
func (h *Handler) ServeHTTP(w http.ResponseWriter, r *http.Request) { h.handler.ServeHTTP(w, r) }

// Close cancels every run in flight; their responses end with done
// (outcome cancelled). Runs that arrive afterwards are cancelled at once.
func (h *Handler) Close() { h.cancel() }

// auth resolves the client key: "key:"+name for a known Bearer key, the
// client IP without an Authorization header; 401 otherwise.
func (h *Handler) auth(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		r.Header.Del(clientKeyHeader)
		r.Header.Del(pageURLHeader)
		r.Header.Del(requestHeader)
		key := h.cfg.ClientIP(r)
		if a := r.Header.Get("Authorization"); a != "" {
			scheme, token, _ := strings.Cut(a, " ")
			if !strings.EqualFold(scheme, "Bearer") || strings.TrimSpace(token) == "" {
				writeProblem(w, Problem{Type: "urn:playground:problem:unauthorized", Status: http.StatusUnauthorized,
					Detail: `the Authorization header must be "Bearer KEY"`})
				return
			}
			name, ok := h.cfg.Keys.Lookup(strings.TrimSpace(token))
			if !ok {
				writeProblem(w, Problem{Type: "urn:playground:problem:unauthorized", Status: http.StatusUnauthorized,
					Detail: "unknown API key; leave out the Authorization header to be limited by IP"})
				return
			}
			key = "key:" + name
		}
		r.Header.Set(clientKeyHeader, key)
		next.ServeHTTP(w, r)
	})
}

// peerIP is the default ClientIP: the peer's address from RemoteAddr (no
// proxy is trusted), an IPv6 address keyed by its /64 as web keys sockets.
func peerIP(r *http.Request) string {
	ap, err := netip.ParseAddrPort(r.RemoteAddr)
	if err != nil {
		return r.RemoteAddr
	}
	ip := ap.Addr().Unmap()
	if ip.Is6() {
		p, _ := ip.Prefix(64)
		return p.String()
	}
	return ip.String()
}

func newID(prefix string) string {
	var b [8]byte
	_, _ = rand.Read(b[:])
	return prefix + hex.EncodeToString(b[:])
}

// runContext is ctx, also cancelled by Close.
func (h *Handler) runContext(ctx context.Context) (context.Context, context.CancelFunc) {
	ctx, cancel := context.WithCancel(ctx)
	stop := context.AfterFunc(h.ctx, cancel)
	return ctx, func() { stop(); cancel() }
}

// active counts an admitted run as active until the returned func is called.
func (h *Handler) active() func() {
	h.cfg.Engine.Metrics.ActiveRuns.Add(1)
	return func() { h.cfg.Engine.Metrics.ActiveRuns.Add(-1) }
}

// Info is the body of GET /api/v1/info: what hello announces to sockets.
type Info struct {
	Protocol string    `json:"protocol"` // "playground.v1"
	Limits   ws.Limits `json:"limits"`
	Modules  []string  `json:"modules"` // importable bare modules besides "playground"
	Host     []string  `json:"host"`    // host functions, called as host.<name>(…)
	// Require is what a script (mode "script") may require(): "playground"
	// and Modules; any other module is a SECURITY_ERROR naming it.
	Require []string `json:"require"`
}

func (h *Handler) handleInfo(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-cache")
	b, _ := json.Marshal(Info{Protocol: ws.Subprotocol, Limits: h.cfg.Engine.Limits, Modules: orEmpty(h.cfg.Modules), Host: orEmpty(h.cfg.Host),
		Require: append([]string{"playground"}, h.cfg.Modules...)})
	w.Write(append(b, '\n'))
}
