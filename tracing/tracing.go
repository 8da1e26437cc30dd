// Package tracing builds the server's OpenTelemetry traces
// (https://opentelemetry.io/docs/specs/otel/trace/api/) with the official Go
// SDK: a span per run with its queue, bundle and execute stages as
// children, a span per host call, and the W3C Trace Context
// (https://www.w3.org/TR/trace-context/) read from what starts a run (an
// HTTP request's headers, a WebSocket upgrade's headers, an MCP request's
// _meta) and written into outgoing HTTP requests. Spans leave the process
// over OTLP/HTTP in protobuf
// (https://opentelemetry.io/docs/specs/otlp/#otlphttp) to the collector
// that -otlp-endpoint names (Jaeger, the OpenTelemetry Collector, any
// OTLP receiver).
//
// Off by default, and then free: New returns a nil *Tracer for an empty
// endpoint, and every method of a nil *Tracer (and StartHostCall without
// a traced run in its context) returns at once without allocating, so the
// run's hot path pays nothing for tracing it does not do.
//
// A span never holds a snippet's source, input, output, a host call's
// arguments or result, or the client's key: the key appears only as a keyed
// hash (HashKey).
package tracing

import (
	"context"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"hash"
	"log/slog"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	"go.opentelemetry.io/contrib/instrumentation/net/http/otelhttp"
	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/exporters/otlp/otlptrace/otlptracehttp"
	"go.opentelemetry.io/otel/propagation"
	"go.opentelemetry.io/otel/sdk/resource"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	semconv "go.opentelemetry.io/otel/semconv/v1.43.0"
	"go.opentelemetry.io/otel/trace"
)

// ScopeName is the instrumentation scope of every span the playground
// makes (the OpenTelemetry "tracer name": the module path).
const ScopeName = "github.com/playground-dev/playground"

// ServiceName is the resource's service.name unless OTEL_SERVICE_NAME or
// OTEL_RESOURCE_ATTRIBUTES says otherwise.
const ServiceName = "playground"

// TracesPath is appended to Config.Endpoint's path: the OTLP/HTTP traces
// path (https://opentelemetry.io/docs/specs/otlp/#otlphttp-request).
const TracesPath = "/v1/traces"

// Span names and attribute keys. Where OpenTelemetry's semantic conventions
// have a term it is used (error.type, service.name); the rest are under
// "playground.".
const (
	SpanRun     = "playground.run" // one run, from its arrival to its done
	SpanQueue   = "queue"          // waiting for a worker (child of the run)
	SpanBundle  = "bundle"         // bundling and compiling in the worker
	SpanExecute = "execute"        // executing in the worker
	// SpanHostPrefix starts a host call's span name: "host.kv.get".
	SpanHostPrefix = "host."

	AttrRunID      = "playground.run.id"      // the client's run id
	AttrOutcome    = "playground.run.outcome" // done.outcome: ok, error, timeout…
	AttrClientHash = "playground.client.hash" // HashKey of the client key
	AttrHostName   = "playground.host.name"   // the host function's name
	AttrErrorType  = string(semconv.ErrorTypeKey)
)

// HostErrorType is a failed host call's error.type (the error's text is
// not recorded: it may hold what the snippet passed).
const HostErrorType = "host_error"

// Config configures New.
type Config struct {
	// Endpoint is the OTLP/HTTP collector's base URL, http or https, as
	// OTEL_EXPORTER_OTLP_ENDPOINT is: "http://127.0.0.1:4318" posts spans to
	// http://127.0.0.1:4318/v1/traces (TracesPath is appended to its path).
	// Empty: tracing is off and New returns nil. The exporter's other
	// settings (OTEL_EXPORTER_OTLP_HEADERS for a collector's credentials,
	// timeouts, compression) and the SDK's (OTEL_TRACES_SAMPLER, OTEL_BSP_*,
	// OTEL_SERVICE_NAME, OTEL_RESOURCE_ATTRIBUTES) come from the
	// environment, as the SDK documents
	// (https://opentelemetry.io/docs/specs/otel/configuration/sdk-environment-variables/);
	// the default samples every span and exports them in batches (at most
	// 512 a request, every 5 s; past 2048 waiting, spans are dropped, never
	// waited for).
	Endpoint string
	// ServiceVersion is the resource's service.version; empty: none.
	ServiceVersion string
	// HashKey keys the client-key hash (HashKey); empty: 32 random bytes,
	// so hashes are stable within one process and cannot be reversed by
	// trying every IP address.
	HashKey []byte
	// Log receives the exporter's errors (a collector that is down),
	// at most one line a minute; nil: slog.Default().
	Log *slog.Logger
}

// Tracer makes the playground's spans. A nil *Tracer is valid and makes
// none (tracing is off). A Tracer is safe for concurrent use.
type Tracer struct {
	tracer   trace.Tracer
	provider trace.TracerProvider
	prop     propagation.TraceContext
	hashKey  []byte
	macs     sync.Pool // of hash.Hash: HMAC-SHA256 under hashKey, reused
	shutdown func(context.Context) error
	flush    func(context.Context) error
}

// New builds the TracerProvider that exports to cfg.Endpoint, or returns
// nil, nil when cfg.Endpoint is empty. The endpoint is checked here, so that
// a typo is an error at start: its scheme must be http or https, it must
// name a host, and it may hold no user info, query or fragment. The
// collector need not be up: spans it misses are dropped and the error is
// logged (New sets the SDK's error handler, otel.SetErrorHandler, which is
// process-wide). Shutdown flushes what is left; call it before the process
// exits.
func New(ctx context.Context, cfg Config) (*Tracer, error) {
	if cfg.Endpoint == "" {
		return nil, nil
	}
	u, err := checkEndpoint(cfg.Endpoint)
	if err != nil {
		return nil, err
	}
	exp, err := otlptracehttp.New(ctx, otlptracehttp.WithEndpointURL(u.String()))
	if err != nil {
		return nil, fmt.Errorf("OTLP exporter: %v", err)
	}
	attrs := []attribute.KeyValue{semconv.ServiceName(ServiceName)}
	if cfg.ServiceVersion != "" {
		attrs = append(attrs, semconv.ServiceVersion(cfg.ServiceVersion))
	}
	// Later detectors win: the environment overrides the defaults.
	res, err := resource.New(ctx, resource.WithTelemetrySDK(), resource.WithAttributes(attrs...), resource.WithFromEnv())
	if err != nil {
		return nil, fmt.Errorf("trace resource: %v", err)
	}
	log := cfg.Log
	if log == nil {
		log = slog.Default()
	}
	otel.SetErrorHandler(&errorLog{log: log})
	tp := sdktrace.NewTracerProvider(sdktrace.WithBatcher(exp), sdktrace.WithResource(res))
	t := newTracer(tp, cfg.HashKey)
	t.shutdown, t.flush = tp.Shutdown, tp.ForceFlush
	return t, nil
}

// NewWithProvider returns a Tracer that makes its spans with tp (a test's
// SDK provider with a tracetest.SpanRecorder, say) and hashes client keys
// with hashKey (empty: random). Shutdown and ForceFlush reach tp when it is
// an SDK provider.
func NewWithProvider(tp trace.TracerProvider, hashKey []byte) *Tracer {
	t := newTracer(tp, hashKey)
	if sdk, ok := tp.(*sdktrace.TracerProvider); ok {
		t.shutdown, t.flush = sdk.Shutdown, sdk.ForceFlush
	}
	return t
}

func newTracer(tp trace.TracerProvider, hashKey []byte) *Tracer {
	if len(hashKey) == 0 {
		hashKey = make([]byte, 32)
		_, _ = rand.Read(hashKey)
	}
	return &Tracer{tracer: tp.Tracer(ScopeName), provider: tp, hashKey: hashKey}
}

// checkEndpoint parses an OTLP/HTTP base URL and returns the traces URL.
func checkEndpoint(s string) (*url.URL, error) {
	u, err := url.Parse(s)
	switch {
	case err != nil:
		return nil, fmt.Errorf("%q is not a URL (want one such as http://127.0.0.1:4318): %v", s, err)
	case u.Scheme != "http" && u.Scheme != "https":
		return nil, fmt.Errorf("%q: the scheme must be http or https (OTLP over HTTP, e.g. http://127.0.0.1:4318)", s)
	case u.Host == "" || u.Hostname() == "":
		return nil, fmt.Errorf("%q: no host (e.g. http://127.0.0.1:4318)", s)
	case u.User != nil:
		return nil, fmt.Errorf("%q: user info in the URL is not allowed (it would be logged); give a collector's credentials in OTEL_EXPORTER_OTLP_HEADERS", s)
	case u.RawQuery != "" || u.ForceQuery || u.Fragment != "":
		return nil, fmt.Errorf("%q: a query or fragment is not allowed; give the collector's base URL", s)
	}
	u.Path = strings.TrimSuffix(u.Path, "/") + TracesPath
	u.RawPath = ""
	return u, nil
}

// Shutdown exports the spans still waiting and stops the exporter; spans
// ended later are dropped. It returns when ctx ends at the latest. A nil
// Tracer returns nil.
func (t *Tracer) Shutdown(ctx context.Context) error {
	if t == nil || t.shutdown == nil {
		return nil
	}
	return t.shutdown(ctx)
}

// ForceFlush exports the spans ended so far and returns when the collector
// has answered (or ctx ends). A nil Tracer returns nil.
func (t *Tracer) ForceFlush(ctx context.Context) error {
	if t == nil || t.flush == nil {
		return nil
	}
	return t.flush(ctx)
}

// HashKey returns the keyed hash that stands for a client key (an IP, or
// "key:"+name) in spans: the first 8 bytes of HMAC-SHA256 (RFC 2104) under
// the Tracer's hash key, in 16 hex digits. The same key hashes the same
// within one Tracer, so one client's runs can be found together; without
// the hash key nobody can tell which IP it was. A nil Tracer returns "".
func (t *Tracer) HashKey(key string) string {
	if t == nil {
		return ""
	}
	m, _ := t.macs.Get().(hash.Hash)
	if m == nil {
		m = hmac.New(sha256.New, t.hashKey)
	}
	m.Reset()
	m.Write([]byte(key))
	var sum [sha256.Size]byte
	s := hex.EncodeToString(m.Sum(sum[:0])[:8])
	t.macs.Put(m)
	return s
}

// Extract returns ctx carrying the remote span context of h's W3C
// traceparent and tracestate headers (https://www.w3.org/TR/trace-context/),
// which parents the spans started under it; ctx unchanged when h has no
// valid traceparent (an invalid one is ignored, as the specification
// says) or t is nil. For a WebSocket, extract from the upgrade request's
// headers into the session's context: each run's span is then a child of
// that remote span, and no local span lives as long as the socket.
func (t *Tracer) Extract(ctx context.Context, h http.Header) context.Context {
	if t == nil || h.Get("traceparent") == "" {
		return ctx
	}
	return t.prop.Extract(ctx, propagation.HeaderCarrier(h))
}

// ExtractMeta is Extract for the Trace Context an MCP request carries in
// its params._meta: the string values of "traceparent" and "tracestate"
// (other keys and non-string values are ignored). A valid traceparent there
// replaces one the context already holds (the HTTP request's).
func (t *Tracer) ExtractMeta(ctx context.Context, meta map[string]any) context.Context {
	if t == nil || meta == nil {
		return ctx
	}
	tp, _ := meta["traceparent"].(string)
	if tp == "" {
		return ctx
	}
	c := propagation.MapCarrier{"traceparent": tp}
	if ts, ok := meta["tracestate"].(string); ok {
		c["tracestate"] = ts
	}
	return t.prop.Extract(ctx, c)
}

// Transport wraps rt so that each outgoing request is a client span
// (otelhttp.NewTransport: method, URL without user info, status) under the
// span in its context and carries that span's traceparent, so the
// server it reaches can join the trace. No header value is recorded. A nil
// Tracer returns rt itself.
func (t *Tracer) Transport(rt http.RoundTripper) http.RoundTripper {
	if t == nil {
		return rt
	}
	return otelhttp.NewTransport(rt, otelhttp.WithTracerProvider(t.provider), otelhttp.WithPropagators(t.prop))
}

// Run is the span of one run; a nil *Run (tracing off) does nothing.
type Run struct {
	span   trace.Span
	tracer trace.Tracer
	runner time.Time // when the run went to the Runner: its queue stage starts
}

// StartRun starts the span of the run with the client's id (AttrRunID),
// for the client key (hashed: AttrClientHash), which arrived at received
// (the span's start; zero: now). Call it when the run goes to the Runner:
// that instant starts its queue stage. The span's parent is the span
// context in ctx (Extract's remote one, from the request that carried the
// run); with none it starts a trace. The returned context carries the
// span, so that host-call spans (StartHostCall) under it are its
// children. A nil Tracer returns ctx and nil, allocating nothing.
func (t *Tracer) StartRun(ctx context.Context, id, key string, received time.Time) (context.Context, *Run) {
	if t == nil {
		return ctx, nil
	}
	now := time.Now()
	if received.IsZero() || received.After(now) {
		received = now
	}
	ctx, span := t.tracer.Start(ctx, SpanRun, trace.WithSpanKind(trace.SpanKindServer), trace.WithTimestamp(received))
	if span.IsRecording() { // not when a sampler (OTEL_TRACES_SAMPLER) or the caller's traceparent left it out
		span.SetAttributes(attribute.String(AttrRunID, id), attribute.String(AttrClientHash, t.HashKey(key)))
	}
	return ctx, &Run{span: span, tracer: t.tracer, runner: now}
}

// End ends the run's span now with its outcome (done.outcome) and
// errorKind (the kind of its last error event, as error.type; "" for
// none), and adds its stages as children, from the durations the run's
// stats measured (a worker times bundling and executing; the stages are
// not live spans, as the server learns them only from the result): queue
// from StartRun for queue, then bundle, then execute, each clamped to end
// by now. A stage of zero length is left out (a run refused by a full
// queue has no bundle). Every outcome but ok and cancelled sets the span's
// status to Error. A nil Run does nothing.
func (r *Run) End(outcome, errorKind string, queue, bundle, execute time.Duration) {
	if r == nil {
		return
	}
	if !r.span.IsRecording() {
		r.span.End()
		return
	}
	end := time.Now()
	ctx := trace.ContextWithSpan(context.Background(), r.span)
	at := r.runner
	for _, st := range [...]struct {
		name string
		d    time.Duration
	}{{SpanQueue, queue}, {SpanBundle, bundle}, {SpanExecute, execute}} {
		if st.d <= 0 {
			continue
		}
		stop := at.Add(st.d)
		if stop.After(end) {
			stop = end
		}
		_, s := r.tracer.Start(ctx, st.name, trace.WithTimestamp(at))
		s.End(trace.WithTimestamp(stop))
		at = stop
	}
	r.span.SetAttributes(attribute.String(AttrOutcome, outcome))
	if errorKind != "" {
		r.span.SetAttributes(attribute.String(AttrErrorType, errorKind))
	}
	if outcome != "ok" && outcome != "cancelled" {
		r.span.SetStatus(codes.Error, outcome)
	}
	r.span.End(trace.WithTimestamp(end))
}

// HostCall is a host call's span; the zero HostCall (the run is not
// traced) does nothing.
type HostCall struct{ span trace.Span }

// StartHostCall starts the span of one call of the host function name
// ("host."+name; AttrHostName) as a child of the run span in ctx, and
// returns ctx carrying it, for the handler (an outgoing request through
// Transport is its child). known is false for a name the server has no
// function for: the span is "host.unknown", so that a worker cannot
// make span names up. Without a recording span in ctx (tracing off, or
// the run's trace not sampled) it returns ctx and the zero HostCall,
// allocating nothing. Never are the call's arguments or result recorded.
func StartHostCall(ctx context.Context, name string, known bool) (context.Context, HostCall) {
	parent := trace.SpanFromContext(ctx)
	if !parent.IsRecording() {
		return ctx, HostCall{}
	}
	if !known {
		name = "unknown"
	}
	ctx, s := parent.TracerProvider().Tracer(ScopeName).Start(ctx, SpanHostPrefix+name,
		trace.WithAttributes(attribute.String(AttrHostName, name)))
	return ctx, HostCall{span: s}
}

// End ends the host call's span; a failed call (ok false: an error, a
// timeout, an unknown function, invalid JSON) sets error.type to
// HostErrorType and the status to Error, without the error's text.
func (h HostCall) End(ok bool) {
	if h.span == nil {
		return
	}
	if !ok {
		h.span.SetAttributes(attribute.String(AttrErrorType, HostErrorType))
		h.span.SetStatus(codes.Error, "host call failed")
	}
	h.span.End()
}

// errorLog is the SDK's error handler: the exporter's errors go to the log,
// at most one line a minute, with how many were left out.
type errorLog struct {
	log     *slog.Logger
	mu      sync.Mutex
	last    time.Time
	skipped int
}

func (e *errorLog) Handle(err error) {
	if err == nil || errors.Is(err, context.Canceled) {
		return
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	if !e.last.IsZero() && time.Since(e.last) < time.Minute {
		e.skipped++
		return
	}
	e.log.Warn("tracing: spans not exported", "err", err, "alsoFailedSinceLastLine", e.skipped)
	e.last, e.skipped = time.Now(), 0
}
