package api_test

import (
	"context"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/playground-dev/playground/tracing"
	"github.com/playground-dev/playground/web/api"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
)

// TestRunSpansParentedOnTheCaller: a run over POST /api/v1/run is a child
// of the request's traceparent, and one over MCP (the Go SDK's client)
// of its params._meta.traceparent.
func TestRunSpansParentedOnTheCaller(t *testing.T) {
	rec := tracetest.NewSpanRecorder()
	tp := sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(rec))
	defer tp.Shutdown(context.Background())
	tr := tracing.NewWithProvider(tp, nil)
	srv := newServer(t, newFake("ok"), &keyLimiter{}, func(c *api.Config) { c.Engine.Trace = tr })

	resp := post(t, srv.URL+"/api/v1/run", `{"id":"via-http","code":"1"}`,
		"Traceparent", "00-11111111111111111111111111111111-1111111111111111-01")
	if resp.StatusCode != 200 {
		t.Fatalf("status %d", resp.StatusCode)
	}
	cs := mcpSession(t, srv.URL, nil)
	res, err := cs.CallTool(t.Context(), &mcp.CallToolParams{Name: api.ToolRun, Arguments: map[string]any{"code": "1"},
		Meta: mcp.Meta{"traceparent": "00-22222222222222222222222222222222-2222222222222222-01"}})
	if err != nil || res.IsError {
		t.Fatalf("tools/call: %v %+v", err, res)
	}

	parents := map[string]string{} // trace id → parent span id of each run span
	for _, s := range rec.Ended() {
		if s.Name() == tracing.SpanRun {
			parents[s.Parent().TraceID().String()] = s.Parent().SpanID().String()
		}
	}
	for trace, span := range map[string]string{"11111111111111111111111111111111": "1111111111111111", "22222222222222222222222222222222": "2222222222222222"} {
		if parents[trace] != span {
			t.Errorf("run spans by trace %v; want one in trace %s under span %s", parents, trace, span)
		}
	}
}
