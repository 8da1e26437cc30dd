package sandbox

import (
	"context"
	"encoding/json"
	"errors"
	"sync"
	"testing"

	"github.com/playground-dev/playground/tracing"
	"go.opentelemetry.io/otel/codes"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
	"go.opentelemetry.io/otel/trace"
)

// TestHostCallSpans: under a traced run (a recording span in Run's
// context), each host call is a child span host.<name> whose context the
// handler gets; a failed call's span is an error without the error's text
// or the call's arguments.
func TestHostCallSpans(t *testing.T) {
	var mu sync.Mutex
	seen := map[string]trace.SpanContext{} // the span each handler's context carries
	handler := func(fail bool) HostFunc {
		return func(ctx context.Context, c HostCall) (json.RawMessage, error) {
			mu.Lock()
			seen[c.Name] = trace.SpanContextFromContext(ctx)
			mu.Unlock()
			if fail {
				return nil, errors.New("refused: secret-in-error")
			}
			return json.RawMessage(`1`), nil
		}
	}
	p := newTestPool(t, Config{Workers: 1, Host: map[string]HostFunc{"echo": handler(false), "fail": handler(true)}})
	rec := tracetest.NewSpanRecorder()
	tp := sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(rec))
	defer tp.Shutdown(context.Background())
	ctx, run := tp.Tracer("test").Start(context.Background(), "run")
	res, err := p.Run(ctx, Request{Files: files("main.ts", `
import { host } from "playground";
await host.echo("secret-arg");
try { await host.fail(); } catch {}
`)}, func(Event) {})
	run.End()
	if err != nil || res.Outcome != OutcomeOK {
		t.Fatalf("run: %v %s", err, res.Outcome)
	}
	spans := map[string]sdktrace.ReadOnlySpan{}
	for _, s := range rec.Ended() {
		spans[s.Name()] = s
	}
	for _, name := range []string{"echo", "fail"} {
		s := spans["host."+name]
		if s == nil {
			t.Fatalf("spans %v; want host.%s", spans, name)
		}
		if s.Parent().SpanID() != run.SpanContext().SpanID() {
			t.Errorf("host.%s's parent %v; want the run's span", name, s.Parent().SpanID())
		}
		if seen[name].SpanID() != s.SpanContext().SpanID() {
			t.Errorf("the %s handler's context carries span %v; want its call's %v", name, seen[name].SpanID(), s.SpanContext().SpanID())
		}
		for _, kv := range s.Attributes() {
			if v := kv.Value.String(); v == `"secret-arg"` || v == "secret-arg" || v == "refused: secret-in-error" {
				t.Errorf("host.%s records %s=%s", name, kv.Key, v)
			}
		}
	}
	if st := spans["host.fail"].Status(); st.Code != codes.Error || st.Description != "host call failed" {
		t.Errorf("a failed call's span status %v; want Error without the error's text", st)
	}
	if st := spans["host.echo"].Status(); st.Code == codes.Error {
		t.Errorf("a call that succeeded has status %v", st)
	}
	for _, kv := range spans["host.fail"].Attributes() {
		if string(kv.Key) == tracing.AttrErrorType && kv.Value.AsString() != tracing.HostErrorType {
			t.Errorf("a failed call's error.type %s; want %s", kv.Value.AsString(), tracing.HostErrorType)
		}
	}
}

// TestHostCallsUntracedMakeNoSpan: without a span in Run's context a host
// handler's context carries none.
func TestHostCallsUntracedMakeNoSpan(t *testing.T) {
	var got trace.SpanContext
	p := newTestPool(t, Config{Workers: 1, Host: map[string]HostFunc{"echo": func(ctx context.Context, c HostCall) (json.RawMessage, error) {
		got = trace.SpanContextFromContext(ctx)
		return nil, nil
	}}})
	res, err := p.Run(context.Background(), Request{Files: files("main.ts", `import { host } from "playground"; await host.echo();`)}, func(Event) {})
	if err != nil || res.Outcome != OutcomeOK {
		t.Fatalf("run: %v %s", err, res.Outcome)
	}
	if got.IsValid() {
		t.Errorf("an untraced run's host call carries span %v", got)
	}
}
