package tracing_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/playground-dev/playground/tracing"
	"github.com/playground-dev/playground/tracing/tracingtest"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
	"go.opentelemetry.io/otel/trace"
	"go.opentelemetry.io/otel/trace/noop"
)

// A traceparent of the W3C specification's example
// (https://www.w3.org/TR/trace-context/#examples-of-http-traceparent-headers).
const (
	parentTrace = "4bf92f3577b34da6a3ce929d0e0e4736"
	parentSpan  = "00f067aa0ba902b7"
	traceparent = "00-" + parentTrace + "-" + parentSpan + "-01"
)

func recorded(t *testing.T) (*tracing.Tracer, *tracetest.SpanRecorder) {
	t.Helper()
	rec := tracetest.NewSpanRecorder()
	tp := sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(rec))
	t.Cleanup(func() { _ = tp.Shutdown(context.Background()) })
	return tracing.NewWithProvider(tp, []byte("test hash key")), rec
}

func attr(s sdktrace.ReadOnlySpan, key string) (string, bool) {
	for _, kv := range s.Attributes() {
		if string(kv.Key) == key {
			return kv.Value.String(), true
		}
	}
	return "", false
}

func byName(spans []sdktrace.ReadOnlySpan) map[string]sdktrace.ReadOnlySpan {
	m := map[string]sdktrace.ReadOnlySpan{}
	for _, s := range spans {
		m[s.Name()] = s
	}
	return m
}

func TestNoEndpointIsOffAndFree(t *testing.T) {
	tr, err := tracing.New(context.Background(), tracing.Config{})
	if tr != nil || err != nil {
		t.Fatalf("New without endpoint = %v, %v; want nil, nil", tr, err)
	}
	ctx := context.Background()
	h := http.Header{"Traceparent": {traceparent}}
	allocs := testing.AllocsPerRun(100, func() {
		c := tr.Extract(ctx, h)
		c = tr.ExtractMeta(c, map[string]any{"traceparent": traceparent})
		c, run := tr.StartRun(c, "r1", "203.0.113.9", time.Time{})
		c, call := tracing.StartHostCall(c, "kv.get", true)
		call.End(false)
		run.End("ok", "", time.Millisecond, time.Millisecond, time.Millisecond)
		if c != ctx {
			t.Fatal("a nil Tracer changed the context")
		}
	})
	if allocs != 0 {
		t.Errorf("tracing off allocates %v times per run; want 0", allocs)
	}
	if got := tr.Transport(http.DefaultTransport); got != http.DefaultTransport {
		t.Errorf("a nil Tracer wrapped the transport")
	}
	if err := tr.Shutdown(ctx); err != nil {
		t.Errorf("Shutdown of a nil Tracer: %v", err)
	}
}

func TestBadEndpointsAreRefusedAtStart(t *testing.T) {
	for in, want := range map[string]string{
		"127.0.0.1:4318":                   "want one such as http://127.0.0.1:4318",
		"localhost:4318":                   "scheme must be http or https",
		"grpc://127.0.0.1:4317":            "scheme must be http or https",
		"http://":                          "no host",
		"http://user:pw@127.0.0.1:4318":    "user info",
		"http://127.0.0.1:4318/?x=1":       "query or fragment",
		"http://127.0.0.1:4318/#frag":      "query or fragment",
		"http://127.0.0.1:4318/%zz":        "not a URL",
		"https://collector.example.org:ab": "not a URL",
	} {
		tr, err := tracing.New(context.Background(), tracing.Config{Endpoint: in})
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("New(%q) = %v, %v; want an error saying %q", in, tr, err, want)
		}
	}
}

func TestRunSpanHasStagesAndRemoteParent(t *testing.T) {
	tr, rec := recorded(t)
	const key = "198.51.100.7"
	ctx := tr.Extract(context.Background(), http.Header{"Traceparent": {traceparent}})
	received := time.Now().Add(-50 * time.Millisecond)
	ctx, run := tr.StartRun(ctx, "run-1", key, received)
	runSC := trace.SpanContextFromContext(ctx)
	if runSC.TraceID().String() != parentTrace {
		t.Fatalf("the run's trace is %s; want the traceparent's %s", runSC.TraceID(), parentTrace)
	}
	_, call := tracing.StartHostCall(ctx, "kv.get", true)
	call.End(true)
	// Stages of a few nanoseconds: shorter than the time from StartRun to
	// End, so none is clamped.
	run.End("error", "RUNTIME_ERROR", 2, 3, 5)

	spans := byName(rec.Ended())
	root, ok := spans[tracing.SpanRun]
	if !ok {
		t.Fatalf("no %s span among %v", tracing.SpanRun, spans)
	}
	if p := root.Parent(); p.SpanID().String() != parentSpan || !p.IsRemote() {
		t.Errorf("run span's parent = %v (remote %v); want the traceparent's span %s", p.SpanID(), p.IsRemote(), parentSpan)
	}
	if !root.StartTime().Equal(received) {
		t.Errorf("run span starts %v; want its arrival %v", root.StartTime(), received)
	}
	if root.SpanKind() != trace.SpanKindServer {
		t.Errorf("run span kind = %v; want server", root.SpanKind())
	}
	for k, want := range map[string]string{tracing.AttrRunID: "run-1", tracing.AttrOutcome: "error", tracing.AttrErrorType: "RUNTIME_ERROR"} {
		if got, _ := attr(root, k); got != want {
			t.Errorf("run span %s = %q; want %q", k, got, want)
		}
	}
	hash, _ := attr(root, tracing.AttrClientHash)
	if hash != tr.HashKey(key) || len(hash) != 16 || strings.Contains(hash, key) {
		t.Errorf("client hash = %q; want HashKey's 16 hex digits, not the key", hash)
	}
	if root.Status().Code != codes.Error {
		t.Errorf("run span status = %v; want Error for outcome error", root.Status())
	}
	for _, s := range rec.Ended() {
		for _, kv := range s.Attributes() {
			if strings.Contains(kv.Value.String(), key) {
				t.Errorf("span %s attribute %s holds the client key", s.Name(), kv.Key)
			}
		}
	}
	// The stages follow each other, children of the run, in its time.
	var prevEnd time.Time
	for i, name := range []string{tracing.SpanQueue, tracing.SpanBundle, tracing.SpanExecute} {
		s, ok := spans[name]
		if !ok {
			t.Fatalf("no %s span", name)
		}
		if s.Parent().SpanID() != root.SpanContext().SpanID() {
			t.Errorf("%s's parent is %v; want the run span", name, s.Parent().SpanID())
		}
		want := []time.Duration{2, 3, 5}[i]
		if d := s.EndTime().Sub(s.StartTime()); d != want {
			t.Errorf("%s lasts %v; want %v", name, d, want)
		}
		if i > 0 && !s.StartTime().Equal(prevEnd) {
			t.Errorf("%s starts %v; want the previous stage's end %v", name, s.StartTime(), prevEnd)
		}
		if s.StartTime().Before(root.StartTime()) || s.EndTime().After(root.EndTime()) {
			t.Errorf("%s [%v, %v] is outside the run [%v, %v]", name, s.StartTime(), s.EndTime(), root.StartTime(), root.EndTime())
		}
		prevEnd = s.EndTime()
	}
	host, ok := spans["host.kv.get"]
	if !ok {
		t.Fatal("no host.kv.get span")
	}
	if host.Parent().SpanID() != root.SpanContext().SpanID() {
		t.Errorf("the host call's parent is %v; want the run span", host.Parent().SpanID())
	}
	if got, _ := attr(host, tracing.AttrHostName); got != "kv.get" || host.Status().Code == codes.Error {
		t.Errorf("host span name attribute %q, status %v; want kv.get, not an error", got, host.Status())
	}
}

func TestStagesAreClampedAndEmptyOnesLeftOut(t *testing.T) {
	tr, rec := recorded(t)
	_, run := tr.StartRun(context.Background(), "r", "k", time.Time{})
	run.End("busy", "", time.Hour, 0, 0) // a worker's clock cannot push a stage past the run's end
	spans := byName(rec.Ended())
	if _, ok := spans[tracing.SpanBundle]; ok {
		t.Error("a run without bundling has a bundle span")
	}
	q, root := spans[tracing.SpanQueue], spans[tracing.SpanRun]
	if q == nil || root == nil {
		t.Fatalf("spans = %v; want a run and its queue", spans)
	}
	if q.EndTime().After(root.EndTime()) {
		t.Errorf("queue ends %v, after the run %v", q.EndTime(), root.EndTime())
	}
	if root.Parent().IsValid() {
		t.Errorf("a run without traceparent has parent %v; want a new trace", root.Parent())
	}
}

func TestHostCallSpans(t *testing.T) {
	tr, rec := recorded(t)
	ctx, run := tr.StartRun(context.Background(), "r", "k", time.Time{})
	_, c := tracing.StartHostCall(ctx, "fetch", true)
	c.End(false)
	_, c = tracing.StartHostCall(ctx, "made.up<name>", false)
	c.End(false)
	run.End("ok", "", 0, 0, 0)
	spans := byName(rec.Ended())
	f := spans["host.fetch"]
	if f == nil {
		t.Fatalf("spans %v; want host.fetch", spans)
	}
	if et, _ := attr(f, tracing.AttrErrorType); et != tracing.HostErrorType || f.Status().Code != codes.Error || f.Status().Description != "host call failed" {
		t.Errorf("failed call: error.type %q status %v; want %q, Error", et, f.Status(), tracing.HostErrorType)
	}
	if _, ok := spans["host.unknown"]; !ok {
		t.Errorf("spans %v; an unknown function's call should be host.unknown", spans)
	}
	for name := range spans {
		if strings.Contains(name, "made.up") {
			t.Errorf("span %q carries a name the server does not know", name)
		}
	}
	// Outside a traced run, no span.
	before := len(rec.Ended())
	_, c = tracing.StartHostCall(context.Background(), "fetch", true)
	c.End(true)
	if len(rec.Ended()) != before {
		t.Error("a host call outside a traced run made a span")
	}
}

func TestExtractMeta(t *testing.T) {
	tr, _ := recorded(t)
	other := "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01"
	ctx := tr.Extract(context.Background(), http.Header{"Traceparent": {other}})
	for _, tc := range []struct {
		name string
		meta map[string]any
		want string // the trace id
	}{
		{"meta wins over the header", map[string]any{"traceparent": traceparent, "tracestate": "vendor=x"}, parentTrace},
		{"no meta", nil, "0af7651916cd43dd8448eb211c80319c"},
		{"not a string", map[string]any{"traceparent": 42}, "0af7651916cd43dd8448eb211c80319c"},
		{"invalid", map[string]any{"traceparent": "00-zz-yy-01"}, "0af7651916cd43dd8448eb211c80319c"},
	} {
		sc := trace.SpanContextFromContext(tr.ExtractMeta(ctx, tc.meta))
		if sc.TraceID().String() != tc.want || !sc.IsRemote() {
			t.Errorf("%s: trace %s; want %s", tc.name, sc.TraceID(), tc.want)
		}
	}
	sc := trace.SpanContextFromContext(tr.ExtractMeta(context.Background(), map[string]any{"traceparent": traceparent, "tracestate": "vendor=x"}))
	if sc.TraceState().Get("vendor") != "x" {
		t.Errorf("tracestate = %q; want vendor=x", sc.TraceState())
	}
	if sc := trace.SpanContextFromContext(tr.Extract(context.Background(), http.Header{"Traceparent": {"garbage"}})); sc.IsValid() {
		t.Errorf("an invalid traceparent made span context %v", sc)
	}
}

func TestHashKey(t *testing.T) {
	a := tracing.NewWithProvider(noop.NewTracerProvider(), []byte("a"))
	b := tracing.NewWithProvider(noop.NewTracerProvider(), []byte("b"))
	if h1, h2 := a.HashKey("192.0.2.1"), a.HashKey("192.0.2.1"); h1 != h2 {
		t.Error("one key hashes two ways")
	}
	if a.HashKey("192.0.2.1") == a.HashKey("192.0.2.2") {
		t.Error("two keys hash the same")
	}
	if a.HashKey("192.0.2.1") == b.HashKey("192.0.2.1") {
		t.Error("the hash does not depend on the hash key")
	}
	r1 := tracing.NewWithProvider(noop.NewTracerProvider(), nil)
	r2 := tracing.NewWithProvider(noop.NewTracerProvider(), nil)
	if r1.HashKey("192.0.2.1") == r2.HashKey("192.0.2.1") {
		t.Error("two random hash keys hash the same")
	}
}

func TestTransportPropagatesTheHostCallSpan(t *testing.T) {
	tr, rec := recorded(t)
	got := make(chan string, 1)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got <- r.Header.Get("Traceparent")
	}))
	defer srv.Close()
	ctx, run := tr.StartRun(context.Background(), "r", "k", time.Time{})
	ctx, call := tracing.StartHostCall(ctx, "fetch", true)
	req, _ := http.NewRequestWithContext(ctx, "GET", srv.URL+"/data", nil)
	req.Header.Set("Authorization", "Bearer s3cret-token")
	resp, err := (&http.Client{Transport: tr.Transport(http.DefaultTransport)}).Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	call.End(true)
	run.End("ok", "", 0, 0, 0)
	tp := <-got
	hostSC := trace.SpanContextFromContext(ctx)
	if !strings.HasPrefix(tp, "00-"+hostSC.TraceID().String()+"-") {
		t.Fatalf("outgoing traceparent %q; want the run's trace %s", tp, hostSC.TraceID())
	}
	var client sdktrace.ReadOnlySpan
	for _, s := range rec.Ended() {
		if s.SpanKind() == trace.SpanKindClient {
			client = s
		}
		for _, kv := range s.Attributes() {
			if strings.Contains(kv.Value.String(), "s3cret") {
				t.Errorf("span %s attribute %s holds a header's secret", s.Name(), kv.Key)
			}
		}
	}
	if client == nil || client.Parent().SpanID() != hostSC.SpanID() {
		t.Fatalf("client span %v; want one under the host call %s", client, hostSC.SpanID())
	}
	if !strings.HasSuffix(tp, "-"+client.SpanContext().SpanID().String()+"-01") {
		t.Errorf("outgoing traceparent %q; want the client span %s as parent", tp, client.SpanContext().SpanID())
	}
	if m, _ := attr(client, "http.request.method"); m != "GET" {
		t.Errorf("client span method %q; want GET", m)
	}
}

// TestExportsOverOTLP sends a run's spans through the real exporter to an
// OTLP/HTTP receiver on loopback.
func TestExportsOverOTLP(t *testing.T) {
	rcv := tracingtest.Start(t)
	tr, err := tracing.New(context.Background(), tracing.Config{Endpoint: rcv.URL() + "/", ServiceVersion: "v9.9.9"})
	if err != nil {
		t.Fatal(err)
	}
	defer tr.Shutdown(context.Background())
	const key = "key:acme-client"
	ctx := tr.Extract(context.Background(), http.Header{"Traceparent": {traceparent}})
	ctx, run := tr.StartRun(ctx, "otlp-run", key, time.Time{})
	_, c := tracing.StartHostCall(ctx, "sleep", true)
	c.End(true)
	run.End("ok", "", time.Millisecond, time.Millisecond, time.Millisecond)
	flush, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := tr.ForceFlush(flush); err != nil {
		t.Fatalf("ForceFlush: %v", err)
	}
	spans := rcv.Wait(t, 30*time.Second, func(s []tracingtest.Span) bool { return len(s) >= 5 })
	byName := map[string]tracingtest.Span{}
	for _, s := range spans {
		byName[s.Name] = s
	}
	root := byName[tracing.SpanRun]
	if root.TraceID != parentTrace || root.ParentSpanID != parentSpan || root.Kind != "SPAN_KIND_SERVER" {
		t.Errorf("run span trace %s parent %s kind %s; want %s, %s, server", root.TraceID, root.ParentSpanID, root.Kind, parentTrace, parentSpan)
	}
	if root.Attributes[tracing.AttrRunID] != "otlp-run" || root.Attributes[tracing.AttrOutcome] != "ok" || root.Attributes[tracing.AttrClientHash] != tr.HashKey(key) {
		t.Errorf("run span attributes %v", root.Attributes)
	}
	if root.Resource["service.name"] != tracing.ServiceName || root.Resource["service.version"] != "v9.9.9" || root.Scope != tracing.ScopeName {
		t.Errorf("resource %v scope %q; want service playground v9.9.9, scope %s", root.Resource, root.Scope, tracing.ScopeName)
	}
	for _, name := range []string{tracing.SpanQueue, tracing.SpanBundle, tracing.SpanExecute, "host.sleep"} {
		if s, ok := byName[name]; !ok || s.ParentSpanID != root.SpanID || s.TraceID != parentTrace {
			t.Errorf("%s: %+v; want a child of the run span %s", name, s, root.SpanID)
		}
	}
	if rcv.Contains([]byte(key)) || rcv.Contains([]byte("acme-client")) {
		t.Error("the client key left the process")
	}
}

// TestCounterCountsWhatTheReceiverDecodes: the counting receiver (the
// benchmark's) counts as many spans as the decoding one receives.
func TestCounterCountsWhatTheReceiverDecodes(t *testing.T) {
	full, counter := tracingtest.Start(t), tracingtest.StartCounter(t)
	for _, rcv := range []*tracingtest.Receiver{full, counter} {
		tr, err := tracing.New(context.Background(), tracing.Config{Endpoint: rcv.URL()})
		if err != nil {
			t.Fatal(err)
		}
		for i := range 7 {
			ctx, run := tr.StartRun(context.Background(), fmt.Sprint("r", i), "k", time.Time{})
			_, c := tracing.StartHostCall(ctx, "echo", true)
			c.End(true)
			run.End("ok", "", 1, 1, 1)
		}
		if err := tr.Shutdown(context.Background()); err != nil {
			t.Fatal(err)
		}
	}
	if len(full.Spans()) != 35 || full.Count() != 35 || counter.Count() != 35 || len(counter.Spans()) != 0 {
		t.Errorf("decoded %d (count %d), counted %d (kept %d); want 35, 35, 35, 0", len(full.Spans()), full.Count(), counter.Count(), len(counter.Spans()))
	}
	if full.Requests() < 1 || counter.Requests() < 1 {
		t.Errorf("requests %d and %d; want at least one each", full.Requests(), counter.Requests())
	}
}

// The attribute keys are the ones the docs name.
func TestAttributeKeys(t *testing.T) {
	for _, k := range []string{tracing.AttrRunID, tracing.AttrOutcome, tracing.AttrClientHash, tracing.AttrHostName} {
		if !attribute.Key(k).Defined() || !strings.HasPrefix(k, "playground.") {
			t.Errorf("attribute %q: want a playground. key", k)
		}
	}
	if tracing.AttrErrorType != "error.type" {
		t.Errorf("error attribute %q; want the semantic convention's error.type", tracing.AttrErrorType)
	}
}
