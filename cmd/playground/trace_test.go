package main

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/playground-dev/playground/tracing"
	"github.com/playground-dev/playground/tracing/tracingtest"
	"github.com/playground-dev/playground/ws/wstest"
)

// traceparents of the callers, one trace each (W3C Trace Context).
const (
	httpTrace, httpSpan = "11111111111111111111111111111111", "1111111111111111"
	wsTrace, wsSpan     = "22222222222222222222222222222222", "2222222222222222"
	mcpTrace, mcpSpan   = "33333333333333333333333333333333", "3333333333333333"
	// mcpHeaderTrace is the MCP request's HTTP header: _meta wins over it.
	mcpHeaderTrace = "44444444444444444444444444444444"
)

func traceparentOf(traceID, spanID string) string { return "00-" + traceID + "-" + spanID + "-01" }

// TestTracesOfEveryTransport runs the real server with -otlp-endpoint at an
// in-process OTLP/HTTP receiver: a run over HTTP, two over one WebSocket
// and one over MCP each export a run span parented on the caller's
// traceparent (the request's header, the upgrade's, _meta's), with queue,
// bundle and execute children and a span per host call; the client key
// (its IP) is never exported.
func TestTracesOfEveryTransport(t *testing.T) {
	rcv := tracingtest.Start(t)
	addr, stop := startServer(t, "-otlp-endpoint", rcv.URL())
	code := "import { host } from 'playground';\nconsole.log(await host.echo('hi'));"

	// HTTP: the request's traceparent.
	body, _ := json.Marshal(map[string]any{"code": code})
	_, b := postJSON(t, "http://"+addr+"/api/v1/run", body, "Traceparent", traceparentOf(httpTrace, httpSpan))
	if !strings.Contains(string(b), `"outcome":"ok"`) {
		t.Fatalf("HTTP run: %s; want outcome ok", b)
	}

	// WebSocket: the upgrade's traceparent parents every run of the socket.
	c := newClient(t, wstest.Dial(t, "ws://"+addr+"/ws", wstest.Options{
		Header: http.Header{"Traceparent": {traceparentOf(wsTrace, wsSpan)}}}))
	for _, id := range []string{"ws-1", "ws-2"} {
		c.send(runMsg(id, "main.ts", code))
		if ms := c.until(id); ms[len(ms)-1].str("outcome") != "ok" {
			t.Fatalf("socket run %s: %s; want ok", id, types(ms))
		}
	}

	// MCP: params._meta.traceparent, over the HTTP request's own.
	mcpBody, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": 1, "method": "tools/call",
		"params": map[string]any{"name": "run_in_sandbox", "arguments": map[string]any{"code": code},
			"_meta": map[string]any{"traceparent": traceparentOf(mcpTrace, mcpSpan)}}})
	_, b = postJSON(t, "http://"+addr+"/mcp", mcpBody, "Accept", "application/json, text/event-stream",
		"Traceparent", traceparentOf(mcpHeaderTrace, "4444444444444444"))
	if !strings.Contains(string(b), "hi") || strings.Contains(string(b), `"isError":true`) {
		t.Fatalf("MCP run: %s; want it to log hi", b)
	}

	c.Close()
	if err := stop(); err != nil { // the shutdown flushes the spans still batched
		t.Fatalf("stop: %v", err)
	}
	spans := rcv.Spans()
	runs := map[string][]tracingtest.Span{} // by trace id
	for _, s := range spans {
		if s.Name == tracing.SpanRun {
			runs[s.TraceID] = append(runs[s.TraceID], s)
		}
	}
	for _, want := range []struct {
		transport, trace, parent string
		runs                     int
	}{{"HTTP", httpTrace, httpSpan, 1}, {"WebSocket", wsTrace, wsSpan, 2}, {"MCP", mcpTrace, mcpSpan, 1}} {
		got := runs[want.trace]
		if len(got) != want.runs {
			t.Errorf("%s: %d run spans in trace %s; want %d (all spans: %+v)", want.transport, len(got), want.trace, want.runs, spans)
			continue
		}
		for _, run := range got {
			if run.ParentSpanID != want.parent {
				t.Errorf("%s: run span's parent %s; want the caller's span %s", want.transport, run.ParentSpanID, want.parent)
			}
			if run.Attributes[tracing.AttrOutcome] != "ok" || run.Attributes[tracing.AttrRunID] == "" || len(run.Attributes[tracing.AttrClientHash]) != 16 {
				t.Errorf("%s: run span attributes %v; want outcome ok, a run id and a client hash", want.transport, run.Attributes)
			}
			children := map[string]int{}
			for _, s := range spans {
				if s.ParentSpanID == run.SpanID && s.TraceID == run.TraceID {
					children[s.Name]++
				}
			}
			for _, name := range []string{tracing.SpanQueue, tracing.SpanBundle, tracing.SpanExecute, "host.echo"} {
				if children[name] != 1 {
					t.Errorf("%s run %s: children %v; want one %s", want.transport, run.Attributes[tracing.AttrRunID], children, name)
				}
			}
		}
	}
	if _, ok := runs[mcpHeaderTrace]; ok {
		t.Error("the MCP run took the HTTP header's traceparent over _meta's")
	}
	if rcv.Contains([]byte("127.0.0.1")) {
		t.Error("the client's IP (its key) was exported")
	}
}

// TestNoEndpointNoExport: without -otlp-endpoint nothing is exported, even
// for a request that carries a traceparent.
func TestNoEndpointNoExport(t *testing.T) {
	rcv := tracingtest.Start(t)
	t.Setenv("OTEL_EXPORTER_OTLP_ENDPOINT", rcv.URL()) // only the flag turns tracing on
	addr, stop := startServer(t)
	body, _ := json.Marshal(map[string]any{"code": "console.log(1)"})
	_, b := postJSON(t, "http://"+addr+"/api/v1/run", body, "Traceparent", traceparentOf(httpTrace, httpSpan))
	if !strings.Contains(string(b), `"outcome":"ok"`) {
		t.Fatalf("run: %s; want ok", b)
	}
	if err := stop(); err != nil {
		t.Fatal(err)
	}
	if n := rcv.Requests(); n != 0 {
		t.Errorf("the receiver got %d export requests; want none", n)
	}
}

func TestBadOTLPEndpointIsAClearError(t *testing.T) {
	err := run(t.Context(), []string{"-addr", "127.0.0.1:0", "-otlp-endpoint", "127.0.0.1:4318"}, func(string) string { return "" }, io.Discard, nil)
	if err == nil || !strings.Contains(err.Error(), "-otlp-endpoint") || !strings.Contains(err.Error(), "http://127.0.0.1:4318") {
		t.Errorf("run with -otlp-endpoint 127.0.0.1:4318: %v; want an error naming the flag and an example", err)
	}
}

// TestFetchIsTracedUnderItsHostCall: with -otlp-endpoint and -fetch-policy,
// a snippet's fetch is a client span under its host call's span, and the
// request the API gets carries the run's trace (traceparent, W3C Trace
// Context), while the policy's secret header is exported nowhere.
func TestFetchIsTracedUnderItsHostCall(t *testing.T) {
	const secret = "s3cret-trace-token"
	got := make(chan string, 1)
	api := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case got <- r.Header.Get("Traceparent"):
		default:
		}
		w.Write([]byte(`{"ok":true}`))
	}))
	t.Cleanup(api.Close)
	rcv := tracingtest.Start(t)
	policy := filepath.Join(t.TempDir(), "policy.json")
	if err := os.WriteFile(policy, []byte(`{"allow":[{"origin":"`+api.URL+`","headers":{"Authorization":"Bearer `+secret+`"}}]}`), 0o600); err != nil {
		t.Fatal(err)
	}
	addr, stop := startServer(t, "-otlp-endpoint", rcv.URL(), "-fetch-policy", policy)
	body, _ := json.Marshal(map[string]any{"code": "const r = await fetch('" + api.URL + "/x'); console.log(r.status);"})
	req, _ := http.NewRequest("POST", "http://"+addr+"/api/v1/run", bytes.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Traceparent", traceparentOf(httpTrace, httpSpan))
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if !strings.Contains(string(b), `"outcome":"ok"`) || !strings.Contains(string(b), `"text":"200"`) {
		t.Fatalf("run: %s; want ok and status 200", b)
	}
	if err := stop(); err != nil {
		t.Fatalf("stop: %v", err)
	}
	tp := <-got
	if !strings.HasPrefix(tp, "00-"+httpTrace+"-") {
		t.Errorf("the API got traceparent %q; want the run's trace %s", tp, httpTrace)
	}
	spans := rcv.Spans()
	var hostCall tracingtest.Span
	for _, s := range spans {
		if s.Name == "host.fetch" && s.TraceID == httpTrace {
			hostCall = s
		}
	}
	if hostCall.SpanID == "" {
		t.Fatalf("no host.fetch span in trace %s: %+v", httpTrace, spans)
	}
	client := 0
	for _, s := range spans {
		if s.TraceID == httpTrace && s.ParentSpanID == hostCall.SpanID {
			client++
			if !strings.HasSuffix(tp, "-"+s.SpanID+"-01") {
				t.Errorf("the API's traceparent %q names span %s; want the client span %s", tp, tp, s.SpanID)
			}
		}
	}
	if client != 1 {
		t.Errorf("%d spans under host.fetch; want the fetch's client span", client)
	}
	if rcv.Contains([]byte(secret)) {
		t.Error("the policy's secret header was exported")
	}
}
