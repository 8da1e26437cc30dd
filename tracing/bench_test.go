package tracing_test

import (
	"context"
	"net/http"
	"testing"
	"time"

	"github.com/playground-dev/playground/tracing"
	"github.com/playground-dev/playground/tracing/tracingtest"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
)

// discard is an exporter that drops every batch.
type discard struct{}

func (discard) ExportSpans(context.Context, []sdktrace.ReadOnlySpan) error { return nil }
func (discard) Shutdown(context.Context) error                             { return nil }

// ends is a span processor that takes every ended span and keeps none: the
// SDK's own work for a span (start, attributes, end, the read-only
// snapshot a processor receives) without a queue or an export.
type ends struct{}

func (ends) OnStart(context.Context, sdktrace.ReadWriteSpan) {}
func (ends) OnEnd(sdktrace.ReadOnlySpan)                     {}
func (ends) Shutdown(context.Context) error                  { return nil }
func (ends) ForceFlush(context.Context) error                { return nil }

// BenchmarkRunSpans is the server's tracing work for one run with one host
// call (extract, the run span, its three stages, the host call's span)
// through the SDK's batch processor: "on" without the export (the exporter
// discards), "otlp" with New's real exporter sending to a counting
// receiver on loopback (in this process). "off" is a nil Tracer; "sdk" is
// the floor of any design that makes these spans with the SDK: its spans
// ended into a processor that drops them (no queue, no export). Spans the
// batch processor drops when the exporter falls behind are not exported,
// so "otlp" is a floor under a load this steady.
//
//	go test ./tracing -run '^$' -bench RunSpans -benchmem
func BenchmarkRunSpans(b *testing.B) {
	h := http.Header{"Traceparent": {traceparent}}
	for _, mode := range []string{"off", "sdk", "on", "otlp"} {
		b.Run(mode, func(b *testing.B) {
			var tr *tracing.Tracer
			switch mode {
			case "sdk":
				tr = tracing.NewWithProvider(sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(ends{})), nil)
			case "on":
				tp := sdktrace.NewTracerProvider(sdktrace.WithBatcher(discard{}))
				defer tp.Shutdown(context.Background())
				tr = tracing.NewWithProvider(tp, nil)
			case "otlp":
				var err error
				tr, err = tracing.New(context.Background(), tracing.Config{Endpoint: tracingtest.StartCounter(b).URL()})
				if err != nil {
					b.Fatal(err)
				}
				defer tr.Shutdown(context.Background())
			}
			b.ReportAllocs()
			for b.Loop() {
				ctx := tr.Extract(context.Background(), h)
				ctx, run := tr.StartRun(ctx, "run-1", "203.0.113.9", time.Time{})
				_, call := tracing.StartHostCall(ctx, "echo", true)
				call.End(true)
				run.End("ok", "", time.Microsecond, time.Microsecond, time.Microsecond)
			}
		})
	}
}
