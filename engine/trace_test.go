package engine_test

import (
	"context"
	"errors"
	"net/http"
	"testing"
	"time"

	"github.com/playground-dev/playground/engine"
	"github.com/playground-dev/playground/sandbox"
	"github.com/playground-dev/playground/tracing"
	"github.com/playground-dev/playground/ws"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
	"go.opentelemetry.io/otel/trace"
)

// tracedRunner fails like a snippet that throws, and records the span its
// context carries (the run's, which host calls are children of).
type tracedRunner struct {
	span trace.SpanContext
	err  error
}

func (r *tracedRunner) Run(ctx context.Context, req sandbox.Request, emit func(sandbox.Event)) (sandbox.Result, error) {
	r.span = trace.SpanContextFromContext(ctx)
	if r.err != nil {
		return sandbox.Result{}, r.err
	}
	emit(sandbox.Event{Kind: sandbox.EventStarted, Timeout: time.Second})
	emit(sandbox.Event{Kind: sandbox.EventError, Error: &sandbox.Error{Kind: sandbox.KindRuntime, Message: "boom"}})
	return sandbox.Result{Outcome: sandbox.OutcomeError, Stats: sandbox.Stats{Queue: 1, Bundle: 2, Run: 3}}, nil
}

func TestEngineTracesEachRun(t *testing.T) {
	rec := tracetest.NewSpanRecorder()
	tp := sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(rec))
	defer tp.Shutdown(context.Background())
	tr := tracing.NewWithProvider(tp, nil)
	r := &tracedRunner{}
	e := &engine.Engine{Runner: r, Limiter: &countingLimiter{n: 10}, Trace: tr}
	ctx := tr.Extract(context.Background(), http.Header{"Traceparent": {"00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"}})
	done := e.Run(ctx, engine.Job{Run: run1("main.ts"), Key: "192.0.2.5", Session: "s"}, func(any) {})
	if done.Outcome != "error" {
		t.Fatalf("outcome %s; want error", done.Outcome)
	}
	var run sdktrace.ReadOnlySpan
	children := map[string]bool{}
	for _, s := range rec.Ended() {
		if s.Name() == tracing.SpanRun {
			run = s
		}
	}
	if run == nil {
		t.Fatal("no run span")
	}
	for _, s := range rec.Ended() {
		if s.Parent().SpanID() == run.SpanContext().SpanID() {
			children[s.Name()] = true
		}
	}
	if r.span.SpanID() != run.SpanContext().SpanID() {
		t.Errorf("the Runner's context carries span %s; want the run's %s", r.span.SpanID(), run.SpanContext().SpanID())
	}
	if run.Parent().TraceID().String() != "4bf92f3577b34da6a3ce929d0e0e4736" || run.Parent().SpanID().String() != "00f067aa0ba902b7" {
		t.Errorf("run span parent %v; want the traceparent's", run.Parent())
	}
	want := map[string]string{tracing.AttrRunID: "r1", tracing.AttrOutcome: "error", tracing.AttrErrorType: ws.KindRuntime, tracing.AttrClientHash: tr.HashKey("192.0.2.5")}
	for _, kv := range run.Attributes() {
		if w, ok := want[string(kv.Key)]; ok && kv.Value.AsString() != w {
			t.Errorf("%s = %q; want %q", kv.Key, kv.Value.AsString(), w)
		}
		delete(want, string(kv.Key))
		if kv.Value.AsString() == "192.0.2.5" {
			t.Errorf("attribute %s holds the client key", kv.Key)
		}
	}
	if len(want) > 0 {
		t.Errorf("run span lacks %v", want)
	}
	for _, name := range []string{tracing.SpanQueue, tracing.SpanBundle, tracing.SpanExecute} {
		if !children[name] {
			t.Errorf("run span's children %v; want %s", children, name)
		}
	}

	// A server fault: the run's error kind is INTERNAL.
	rec.Reset()
	e.Runner = &tracedRunner{err: errors.New("pool broke")}
	e.Run(context.Background(), engine.Job{Run: run1("main.ts"), Key: "k"}, func(any) {})
	for _, s := range rec.Ended() {
		if s.Name() != tracing.SpanRun {
			continue
		}
		for _, kv := range s.Attributes() {
			if string(kv.Key) == tracing.AttrErrorType && kv.Value.AsString() != ws.KindInternal {
				t.Errorf("a server fault's error.type = %s; want %s", kv.Value.AsString(), ws.KindInternal)
			}
		}
		if s.Parent().IsValid() {
			t.Errorf("a run without traceparent has parent %v; want a trace of its own", s.Parent())
		}
	}
}

// TestEngineWithoutTracerMakesNoSpan: Trace nil leaves the Runner's
// context without a span.
func TestEngineWithoutTracerMakesNoSpan(t *testing.T) {
	r := &tracedRunner{}
	e := &engine.Engine{Runner: r, Limiter: &countingLimiter{n: 1}}
	e.Run(context.Background(), engine.Job{Run: run1("main.ts"), Key: "k"}, func(any) {})
	if r.span.IsValid() {
		t.Errorf("the Runner's context carries span %v without a tracer", r.span)
	}
}
