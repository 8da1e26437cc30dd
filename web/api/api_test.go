package api_test

import (
	"bufio"
	"bytes"
	"compress/flate"
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/playground-dev/playground/engine"
	"github.com/playground-dev/playground/sandbox"
	"github.com/playground-dev/playground/web/api"
	"github.com/playground-dev/playground/ws"
)

// fakeRunner emits a fixed transcript, or blocks until cancelled, or
// answers busy; it records every request and whether its run was cancelled.
type fakeRunner struct {
	mode string // "ok", "block", "busy", "slow" (ok after 500 ms)

	mu        sync.Mutex
	reqs      []sandbox.Request
	started   chan struct{} // closed when a blocking run has emitted started
	cancelled chan struct{} // closed when a blocking run saw its ctx end
}

func newFake(mode string) *fakeRunner {
	return &fakeRunner{mode: mode, started: make(chan struct{}), cancelled: make(chan struct{})}
}

func (f *fakeRunner) Run(ctx context.Context, req sandbox.Request, emit func(sandbox.Event)) (sandbox.Result, error) {
	f.mu.Lock()
	f.reqs = append(f.reqs, req)
	f.mu.Unlock()
	switch f.mode {
	case "busy":
		return sandbox.Result{Outcome: sandbox.OutcomeBusy, RetryAfter: 1500 * time.Millisecond}, nil
	case "block":
		emit(sandbox.Event{Kind: sandbox.EventStarted, Timeout: 5 * time.Second})
		close(f.started)
		<-ctx.Done()
		close(f.cancelled)
		return sandbox.Result{Outcome: sandbox.OutcomeCancelled, Facts: map[string]json.RawMessage{}}, nil
	}
	if f.mode == "slow" {
		select {
		case <-ctx.Done():
			return sandbox.Result{Outcome: sandbox.OutcomeCancelled, Facts: map[string]json.RawMessage{}}, nil
		case <-time.After(500 * time.Millisecond):
		}
	}
	emit(sandbox.Event{Kind: sandbox.EventQueued, Position: 1})
	emit(sandbox.Event{Kind: sandbox.EventStarted, Timeout: 5 * time.Second})
	emit(sandbox.Event{Kind: sandbox.EventLog, T: 500 * time.Microsecond, Level: "log", Text: "hello 2", Args: []json.RawMessage{json.RawMessage(`"hello"`), json.RawMessage(`2`)}})
	emit(sandbox.Event{Kind: sandbox.EventFact, T: 600 * time.Microsecond, Key: "count", Value: json.RawMessage(`1`)})
	emit(sandbox.Event{Kind: sandbox.EventCall, T: 700 * time.Microsecond, Name: "echo", Duration: 100 * time.Microsecond, OK: true, Args: []json.RawMessage{json.RawMessage(`"hi"`)}, Result: json.RawMessage(`"hi"`)})
	if strings.Contains(req.Files[0].Source, "throw") {
		emit(sandbox.Event{Kind: sandbox.EventError, T: 800 * time.Microsecond, Error: &sandbox.Error{Kind: sandbox.KindRuntime, Message: "Error: boom", File: req.Files[0].Path, Line: 1, Column: 7}})
		return sandbox.Result{Outcome: sandbox.OutcomeError, Facts: map[string]json.RawMessage{"count": json.RawMessage(`1`)}, End: 900 * time.Microsecond}, nil
	}
	return sandbox.Result{Outcome: sandbox.OutcomeOK, Output: json.RawMessage(`{"n":42}`), Facts: map[string]json.RawMessage{"count": json.RawMessage(`1`)},
		End: 900 * time.Microsecond, Stats: sandbox.Stats{Run: 900 * time.Microsecond, Logs: 1}}, nil
}

func (f *fakeRunner) requests() []sandbox.Request {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]sandbox.Request(nil), f.reqs...)
}

// keyLimiter allows every key except deny, and records the keys it saw.
type keyLimiter struct {
	deny string
	mu   sync.Mutex
	keys []string
}

func (l *keyLimiter) Allow(key string) (bool, time.Duration) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.keys = append(l.keys, key)
	if key == l.deny {
		return false, 2500 * time.Millisecond
	}
	return true, 0
}

var testLimits = ws.Limits{MaxFiles: 3, MaxSourceBytes: 1000, MaxMessageBytes: 8000, TimeoutMs: ws.Range{Default: 5000, Min: 50, Max: 30000},
	RunsPerSecond: 4, RunBurst: 8, MemoryBytes: 256 << 20}

const testKey = "sk-test-0123456789abcdef"

func newServer(t *testing.T, r engine.Runner, lim engine.Limiter, mod func(*api.Config)) *httptest.Server {
	t.Helper()
	keys, err := api.ParseKeys(strings.NewReader("# test keys\nalice " + testKey + "\n"))
	if err != nil {
		t.Fatal(err)
	}
	cfg := api.Config{Engine: &engine.Engine{Runner: r, Limiter: lim, Limits: testLimits}, Keys: keys,
		Modules: []string{"lodash"}, Host: []string{"echo"}}
	if mod != nil {
		mod(&cfg)
	}
	h := api.New(cfg)
	srv := httptest.NewServer(h)
	t.Cleanup(func() { h.Close(); srv.Close() })
	return srv
}

// post sends a JSON body with the headers hdr (name, value, …); the
// response's body is closed when the test ends.
func post(t *testing.T, url, body string, hdr ...string) *http.Response {
	t.Helper()
	return do(t, http.MethodPost, url, strings.NewReader(body), append([]string{"Content-Type", "application/json"}, hdr...)...)
}

// get is post for a GET without a body.
func get(t *testing.T, url string, hdr ...string) *http.Response {
	t.Helper()
	return do(t, http.MethodGet, url, nil, hdr...)
}

func do(t *testing.T, method, url string, body io.Reader, hdr ...string) *http.Response {
	t.Helper()
	req, err := http.NewRequestWithContext(t.Context(), method, url, body)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i+1 < len(hdr); i += 2 {
		req.Header.Set(hdr[i], hdr[i+1])
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { resp.Body.Close() })
	return resp
}

func decode[T any](t *testing.T, r io.Reader) T {
	t.Helper()
	var v T
	if err := json.NewDecoder(r).Decode(&v); err != nil {
		t.Fatalf("decode: %v", err)
	}
	return v
}

func TestRunJSONResult(t *testing.T) {
	srv := newServer(t, newFake("ok"), &keyLimiter{}, nil)
	resp := post(t, srv.URL+"/api/v1/run", `{"files":[{"path":"main.ts","source":"console.log('hello', 2)"}],"input":{"a":1}}`)
	if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "application/json" {
		t.Fatalf("status %d %q; want 200 application/json", resp.StatusCode, resp.Header.Get("Content-Type"))
	}
	if resp.Header.Get("Access-Control-Allow-Origin") != "" {
		t.Errorf("CORS header sent without -api-origins")
	}
	r := decode[api.Result](t, resp.Body)
	if !r.Success || r.Outcome != "ok" || string(r.Output) != `{"n":42}` || r.Error != nil || r.ErrorType != nil {
		t.Errorf("result = %+v; want success, outcome ok, output {n:42}, no error", r)
	}
	if len(r.Logs) != 1 || r.Logs[0].Text != "hello 2" || r.Logs[0].Level != "log" || len(r.Logs[0].Args) != 2 {
		t.Errorf("logs = %+v; want one log 'hello 2' with two args", r.Logs)
	}
	if string(r.Facts["count"]) != "1" || len(r.Calls) != 1 || r.Calls[0].Name != "echo" || !r.Calls[0].OK {
		t.Errorf("facts %v calls %+v; want count=1 and one echo call", r.Facts, r.Calls)
	}
	if r.ExecutionTimeMs <= 0 || r.ExecutionTimeMs != r.DurationMs || r.TimeoutMs != 5000 || !strings.HasPrefix(r.ID, "http-") {
		t.Errorf("executionTimeMs %v durationMs %v timeoutMs %v id %q", r.ExecutionTimeMs, r.DurationMs, r.TimeoutMs, r.ID)
	}
}

func TestRunErrorFieldsForAgents(t *testing.T) {
	srv := newServer(t, newFake("ok"), &keyLimiter{}, nil)
	resp := post(t, srv.URL+"/api/v1/run", `{"code":"throw new Error('boom')","id":"agent-1"}`)
	r := decode[api.Result](t, resp.Body)
	if resp.StatusCode != 200 || r.Success || r.ID != "agent-1" || r.ErrorType == nil || *r.ErrorType != "RUNTIME_ERROR" || r.Error == nil || *r.Error != "Error: boom" {
		t.Fatalf("status %d result %+v; want 200, success false, errorType RUNTIME_ERROR, error 'Error: boom'", resp.StatusCode, r)
	}
	if len(r.Errors) != 1 || r.Errors[0].File != "main.ts" || r.Errors[0].Line != 1 || r.Errors[0].Column != 7 {
		t.Errorf("errors = %+v; want one at main.ts:1:7", r.Errors)
	}
}

func TestCodeShorthandInputDataAndModePassThrough(t *testing.T) {
	f := newFake("ok")
	srv := newServer(t, f, &keyLimiter{}, nil)
	post(t, srv.URL+"/api/v1/run", `{"code":"output = input.x","inputData":{"x":3},"mode":"script","timeoutMs":100,"deterministic":true}`)
	post(t, srv.URL+"/api/v1/run", `{"code":"export default 1"}`)
	reqs := f.requests()
	if len(reqs) != 2 {
		t.Fatalf("runner got %d runs; want 2", len(reqs))
	}
	q := reqs[0]
	if len(q.Files) != 1 || q.Files[0].Path != "main.js" || q.Mode != "script" || string(q.Input) != `{"x":3}` || q.Timeout != 100*time.Millisecond || !q.Deterministic {
		t.Errorf("script request = %+v; want main.js, mode script, input {x:3}, 100ms, deterministic", q)
	}
	if reqs[1].Files[0].Path != "main.ts" || reqs[1].Mode != "" {
		t.Errorf("module request = %+v; want main.ts and no mode", reqs[1])
	}
	if q.Key != "127.0.0.1" || q.Session == "" {
		t.Errorf("key %q session %q; want the client IP and a session id", q.Key, q.Session)
	}
}

func TestNDJSONStreamsInOrder(t *testing.T) {
	srv := newServer(t, newFake("ok"), &keyLimiter{}, nil)
	resp := post(t, srv.URL+"/api/v1/run", `{"id":"r1","code":"x"}`, "Accept", "application/x-ndjson")
	if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "application/x-ndjson" {
		t.Fatalf("status %d %q; want 200 application/x-ndjson", resp.StatusCode, resp.Header.Get("Content-Type"))
	}
	var types []string
	sc := bufio.NewScanner(resp.Body)
	for i := 1; sc.Scan(); i++ {
		var m struct {
			Type string `json:"type"`
			ID   string `json:"id"`
			Seq  int    `json:"seq"`
		}
		if err := json.Unmarshal(sc.Bytes(), &m); err != nil {
			t.Fatalf("line %d %q: %v", i, sc.Bytes(), err)
		}
		if m.Seq != i || m.ID != "r1" {
			t.Errorf("line %d: seq %d id %q; want seq %d id r1", i, m.Seq, m.ID, i)
		}
		types = append(types, m.Type)
	}
	if got := strings.Join(types, " "); got != "queued started log fact call done" {
		t.Errorf("types = %q; want queued started log fact call done", got)
	}
}

func TestSSEStreamsEvents(t *testing.T) {
	srv := newServer(t, newFake("ok"), &keyLimiter{}, nil)
	resp := post(t, srv.URL+"/api/v1/run", `{"id":"r2","code":"x"}`, "Accept", "text/event-stream")
	if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "text/event-stream" {
		t.Fatalf("status %d %q; want 200 text/event-stream", resp.StatusCode, resp.Header.Get("Content-Type"))
	}
	b, _ := io.ReadAll(resp.Body)
	events := strings.Split(strings.TrimSpace(string(b)), "\n\n")
	if len(events) != 6 {
		t.Fatalf("%d events; want 6:\n%s", len(events), b)
	}
	last := events[5]
	if !strings.HasPrefix(last, "event: done\nid: 6\ndata: {") || !strings.Contains(last, `"outcome":"ok"`) {
		t.Errorf("last event = %q; want event: done, id: 6, data with outcome ok", last)
	}
	if !strings.HasPrefix(events[2], "event: log\nid: 3\ndata: ") {
		t.Errorf("third event = %q; want the log with id 3", events[2])
	}
}

type problem struct {
	Type         string   `json:"type"`
	Title        string   `json:"title"`
	Status       int      `json:"status"`
	Detail       string   `json:"detail"`
	Field        string   `json:"field"`
	RetryAfterMs *float64 `json:"retryAfterMs"`
}

func TestErrorStatuses(t *testing.T) {
	tests := []struct {
		name, body, ctype, auth string
		runner                  string
		deny                    string
		status                  int
		field                   string
		retryAfter              string
	}{
		{name: "not JSON", body: `nope`, status: 400, field: "body"},
		{name: "malformed", body: `{"code":`, status: 400, field: "body"},
		{name: "unknown field", body: `{"code":"x","sauce":1}`, status: 400, field: "sauce"},
		{name: "wrong type", body: `{"code":"x","timeoutMs":"5"}`, status: 400, field: "timeoutMs"},
		{name: "nested wrong type", body: `{"files":[{"path":1,"source":""}]}`, status: 400, field: "files.path"},
		{name: "no files", body: `{}`, status: 400, field: "files"},
		{name: "files and code", body: `{"code":"x","files":[{"path":"a.ts","source":""}]}`, status: 400, field: "code"},
		{name: "bad path", body: `{"files":[{"path":"../a.ts","source":""}]}`, status: 400, field: "files[0].path"},
		{name: "bad mode", body: `{"code":"x","mode":"turbo"}`, status: 400, field: "mode"},
		{name: "bad id", body: `{"code":"x","id":"a b"}`, status: 400, field: "id"},
		{name: "negative timeout", body: `{"code":"x","timeoutMs":-1}`, status: 400, field: "timeoutMs"},
		{name: "entry not a file", body: `{"code":"x","entry":"b.ts"}`, status: 400, field: "entry"},
		{name: "no entry", body: `{"files":[{"path":"a.ts","source":""},{"path":"b.ts","source":""}]}`, status: 400, field: "entry"},
		{name: "too many files", body: `{"files":[{"path":"a.ts","source":""},{"path":"b.ts","source":""},{"path":"c.ts","source":""},{"path":"main.ts","source":""}]}`, status: 400, field: "files"},
		{name: "too much source", body: `{"code":"` + strings.Repeat("x", 1001) + `"}`, status: 400, field: "files"},
		{name: "input twice", body: `{"code":"x","input":1,"inputData":2}`, status: 400, field: "inputData"},
		{name: "body too large", body: `{"code":"` + strings.Repeat("x", 9000) + `"}`, status: 413},
		{name: "not JSON content type", body: `{"code":"x"}`, ctype: "text/plain", status: 415},
		{name: "unknown key", body: `{"code":"x"}`, auth: "Bearer sk-nobody-0123456789", status: 401},
		{name: "not bearer", body: `{"code":"x"}`, auth: "Basic YTpi", status: 401},
		{name: "rate limited", body: `{"code":"x"}`, deny: "127.0.0.1", status: 429, retryAfter: "3"},
		{name: "rate limited key", body: `{"code":"x"}`, auth: "Bearer " + testKey, deny: "key:alice", status: 429, retryAfter: "3"},
		{name: "busy", body: `{"code":"x"}`, runner: "busy", status: 503, retryAfter: "2"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			runner := "ok"
			if tc.runner != "" {
				runner = tc.runner
			}
			srv := newServer(t, newFake(runner), &keyLimiter{deny: tc.deny}, nil)
			for _, accept := range []string{"application/json", "application/x-ndjson"} {
				req, _ := http.NewRequestWithContext(t.Context(), http.MethodPost, srv.URL+"/api/v1/run", strings.NewReader(tc.body))
				ct := "application/json"
				if tc.ctype != "" {
					ct = tc.ctype
				}
				req.Header.Set("Content-Type", ct)
				req.Header.Set("Accept", accept)
				if tc.auth != "" {
					req.Header.Set("Authorization", tc.auth)
				}
				resp, err := http.DefaultClient.Do(req)
				if err != nil {
					t.Fatal(err)
				}
				p := decode[problem](t, resp.Body)
				resp.Body.Close()
				if resp.StatusCode != tc.status || resp.Header.Get("Content-Type") != "application/problem+json" || p.Status != tc.status || p.Detail == "" {
					t.Errorf("%s: status %d %q problem %+v; want %d application/problem+json with a detail", accept, resp.StatusCode, resp.Header.Get("Content-Type"), p, tc.status)
				}
				if p.Field != tc.field {
					t.Errorf("%s: field = %q; want %q (detail %q)", accept, p.Field, tc.field, p.Detail)
				}
				if got := resp.Header.Get("Retry-After"); got != tc.retryAfter {
					t.Errorf("%s: Retry-After = %q; want %q", accept, got, tc.retryAfter)
				}
				if tc.retryAfter != "" && (p.RetryAfterMs == nil || *p.RetryAfterMs <= 0) {
					t.Errorf("%s: retryAfterMs = %v; want > 0", accept, p.RetryAfterMs)
				}
				if tc.status == 401 && resp.Header.Get("WWW-Authenticate") == "" {
					t.Errorf("401 without WWW-Authenticate")
				}
			}
		})
	}
}

func TestUnknownEndpointAndMethod(t *testing.T) {
	srv := newServer(t, newFake("ok"), &keyLimiter{}, nil)
	resp, err := http.Get(srv.URL + "/api/v1/run")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusMethodNotAllowed || !strings.Contains(resp.Header.Get("Allow"), "POST") {
		t.Errorf("GET /api/v1/run = %d Allow %q; want 405 allowing POST", resp.StatusCode, resp.Header.Get("Allow"))
	}
	resp = post(t, srv.URL+"/api/v1/nothing", `{}`)
	if resp.StatusCode != 404 || resp.Header.Get("Content-Type") != "application/problem+json" {
		t.Errorf("POST /api/v1/nothing = %d %q; want 404 problem", resp.StatusCode, resp.Header.Get("Content-Type"))
	}
}

func TestAPIKeyGetsItsOwnLimitAndQueueShare(t *testing.T) {
	f := newFake("ok")
	lim := &keyLimiter{}
	srv := newServer(t, f, lim, nil)
	post(t, srv.URL+"/api/v1/run", `{"code":"x"}`, "Authorization", "Bearer "+testKey)
	post(t, srv.URL+"/api/v1/run", `{"code":"x"}`)
	reqs := f.requests()
	if len(reqs) != 2 || reqs[0].Key != "key:alice" || reqs[1].Key != "127.0.0.1" {
		t.Fatalf("queue keys = %v; want key:alice then 127.0.0.1", reqs)
	}
	if strings.Join(lim.keys, " ") != "key:alice 127.0.0.1" {
		t.Errorf("limiter keys = %v; want key:alice then 127.0.0.1", lim.keys)
	}
}

func TestClientIPIsInjected(t *testing.T) {
	f := newFake("ok")
	srv := newServer(t, f, &keyLimiter{}, func(c *api.Config) {
		c.ClientIP = func(r *http.Request) string { return "203.0.113.9" }
	})
	post(t, srv.URL+"/api/v1/run", `{"code":"x"}`)
	if reqs := f.requests(); len(reqs) != 1 || reqs[0].Key != "203.0.113.9" {
		t.Errorf("key = %v; want the injected client IP", reqs)
	}
}

func TestDisconnectCancelsRun(t *testing.T) {
	for _, accept := range []string{"application/json", "application/x-ndjson"} {
		t.Run(accept, func(t *testing.T) {
			f := newFake("block")
			var metrics *engine.Metrics
			srv := newServer(t, f, &keyLimiter{}, func(c *api.Config) { metrics = &c.Engine.Metrics })
			ctx, cancel := context.WithCancel(t.Context())
			req, _ := http.NewRequestWithContext(ctx, http.MethodPost, srv.URL+"/api/v1/run", strings.NewReader(`{"code":"x"}`))
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("Accept", accept)
			errc := make(chan error, 1)
			go func() {
				resp, err := http.DefaultClient.Do(req)
				if err == nil {
					_, err = io.ReadAll(resp.Body)
					resp.Body.Close()
				}
				errc <- err
			}()
			<-f.started
			if metrics.ActiveRuns.Load() != 1 {
				t.Errorf("active runs = %d while running; want 1", metrics.ActiveRuns.Load())
			}
			cancel()
			select {
			case <-f.cancelled:
			case <-time.After(10 * time.Second):
				t.Fatal("the run was not cancelled after the client went away")
			}
			if err := <-errc; err == nil {
				t.Errorf("client read finished without error; want the cancellation")
			}
		})
	}
}

func TestCloseCancelsRunsWithDone(t *testing.T) {
	f := newFake("block")
	keys, _ := api.ParseKeys(strings.NewReader(""))
	h := api.New(api.Config{Engine: &engine.Engine{Runner: f, Limiter: &keyLimiter{}, Limits: testLimits}, Keys: keys})
	srv := httptest.NewServer(h)
	defer srv.Close()
	go func() { <-f.started; h.Close() }()
	resp := post(t, srv.URL+"/api/v1/run", `{"code":"x"}`, "Accept", "application/x-ndjson")
	b, _ := io.ReadAll(resp.Body)
	if !strings.Contains(string(b), `"type":"done"`) || !strings.Contains(string(b), `"outcome":"cancelled"`) {
		t.Errorf("stream after Close = %s; want a done with outcome cancelled", b)
	}
}

func TestCORSOnlyWhenAllowed(t *testing.T) {
	srv := newServer(t, newFake("ok"), &keyLimiter{}, func(c *api.Config) { c.CORSOrigins = []string{"https://docs.example.org"} })
	resp := post(t, srv.URL+"/api/v1/run", `{"code":"x"}`, "Origin", "https://docs.example.org")
	if got := resp.Header.Get("Access-Control-Allow-Origin"); got != "https://docs.example.org" {
		t.Errorf("allowed origin: Access-Control-Allow-Origin = %q", got)
	}
	resp = post(t, srv.URL+"/api/v1/run", `{"code":"x"}`, "Origin", "https://evil.example")
	if got := resp.Header.Get("Access-Control-Allow-Origin"); got != "" {
		t.Errorf("other origin: Access-Control-Allow-Origin = %q; want none", got)
	}
	req, _ := http.NewRequest(http.MethodOptions, srv.URL+"/api/v1/run", nil)
	req.Header.Set("Origin", "https://docs.example.org")
	req.Header.Set("Access-Control-Request-Method", "POST")
	req.Header.Set("Access-Control-Request-Headers", "authorization,content-type")
	pre, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	pre.Body.Close()
	if pre.StatusCode/100 != 2 || !strings.Contains(strings.ToLower(pre.Header.Get("Access-Control-Allow-Headers")), "authorization") {
		t.Errorf("preflight = %d, allow-headers %q; want 2xx allowing authorization", pre.StatusCode, pre.Header.Get("Access-Control-Allow-Headers"))
	}
}

func TestParseKeys(t *testing.T) {
	k, err := api.ParseKeys(strings.NewReader("# comment\n\nalice  " + testKey + "\nbob\tsk-bob-0123456789abcdef\n"))
	if err != nil || k.Len() != 2 {
		t.Fatalf("ParseKeys = %v, %v; want 2 keys", k, err)
	}
	if name, ok := k.Lookup("sk-bob-0123456789abcdef"); !ok || name != "bob" {
		t.Errorf("Lookup(bob's key) = %q, %v", name, ok)
	}
	if _, ok := k.Lookup("sk-bob-0123456789abcdeX"); ok {
		t.Errorf("Lookup of an unknown key succeeded")
	}
	for _, bad := range []string{"alice", "alice short", "al ice " + testKey, "a " + testKey + "\na sk-other-0123456789abc", "a " + testKey + "\nb " + testKey, "bad/name " + testKey} {
		if _, err := api.ParseKeys(strings.NewReader(bad)); err == nil || !strings.Contains(err.Error(), "line") {
			t.Errorf("ParseKeys(%q) err = %v; want an error naming the line", bad, err)
		}
	}
}

func mcpSession(t *testing.T, url string, hc *http.Client) *mcp.ClientSession {
	t.Helper()
	c := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil)
	cs, err := c.Connect(t.Context(), &mcp.StreamableClientTransport{Endpoint: url + "/mcp", HTTPClient: hc, DisableStandaloneSSE: true}, nil)
	if err != nil {
		t.Fatalf("connect: %v", err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

func TestMCPToolsWithGoSDKClient(t *testing.T) {
	f := newFake("ok")
	srv := newServer(t, f, &keyLimiter{}, nil)
	cs := mcpSession(t, srv.URL, nil)
	tools, err := cs.ListTools(t.Context(), nil)
	if err != nil {
		t.Fatal(err)
	}
	var run *mcp.Tool
	names := []string{}
	for _, tl := range tools.Tools {
		names = append(names, tl.Name)
		if tl.Name == api.ToolRun {
			run = tl
		}
	}
	if len(names) != 2 || run == nil || run.OutputSchema == nil {
		t.Fatalf("tools = %v; want run_in_sandbox (with an output schema) and list_modules", names)
	}
	// Every sub-schema is an object: {} marshalled as true breaks clients
	// such as the TypeScript SDK's.
	sb, _ := json.Marshal(run.OutputSchema)
	if strings.Contains(string(sb), ":true") {
		t.Errorf("output schema holds a boolean schema: %s", sb)
	}
	for _, want := range []string{"30000 ms", "lodash", "echo", "files"} {
		if !strings.Contains(run.Description, want) {
			t.Errorf("run tool description lacks %q:\n%s", want, run.Description)
		}
	}

	files := []ws.File{{Path: "main.ts", Source: "console.log('hello', 2)"}, {Path: "util.ts", Source: "export const x = 1"}}
	res, err := cs.CallTool(t.Context(), &mcp.CallToolParams{Name: api.ToolRun, Arguments: map[string]any{"files": files, "input": map[string]any{"a": 1}}})
	if err != nil {
		t.Fatal(err)
	}
	if res.IsError || len(res.Content) == 0 {
		t.Fatalf("result = %+v; want a successful call with text", res)
	}
	text := res.Content[0].(*mcp.TextContent).Text
	if !strings.Contains(text, "outcome: ok") || !strings.Contains(text, "hello 2") || !strings.Contains(text, `output: {"n":42}`) {
		t.Errorf("summary = %q; want the outcome, the log line and the output", text)
	}
	b, _ := json.Marshal(res.StructuredContent)
	var out api.RunToolOutput
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatal(err)
	}
	if !out.Success || len(out.Logs) != 1 || string(out.Output) != `{"n":42}` {
		t.Errorf("structured content = %s; want success, one log, output", b)
	}
	// The share link opens the same files in the page.
	prefix := srv.URL + "/#code="
	if !strings.HasPrefix(out.ShareURL, prefix) {
		t.Fatalf("shareUrl = %q; want %s…", out.ShareURL, prefix)
	}
	raw, err := base64.RawURLEncoding.DecodeString(strings.TrimPrefix(out.ShareURL, prefix))
	if err != nil {
		t.Fatal(err)
	}
	j, err := io.ReadAll(flate.NewReader(bytes.NewReader(raw)))
	if err != nil {
		t.Fatal(err)
	}
	var shared struct {
		Entry string    `json:"entry"`
		Files []ws.File `json:"files"`
	}
	if err := json.Unmarshal(j, &shared); err != nil || shared.Entry != "main.ts" || len(shared.Files) != 2 || shared.Files[1] != files[1] {
		t.Errorf("share link holds %s (%v); want entry main.ts and both files", j, err)
	}
	if reqs := f.requests(); len(reqs) != 1 || string(reqs[0].Input) != `{"a":1}` || reqs[0].Key != "127.0.0.1" {
		t.Errorf("runner requests = %+v; want one with input {a:1} keyed by IP", reqs)
	}

	// A failing snippet is a tool error with the error in the text.
	res, err = cs.CallTool(t.Context(), &mcp.CallToolParams{Name: api.ToolRun, Arguments: map[string]any{"code": "throw new Error('boom')"}})
	if err != nil || !res.IsError || !strings.Contains(res.Content[0].(*mcp.TextContent).Text, "RUNTIME_ERROR at main.ts:1:7: Error: boom") {
		t.Errorf("failing run = %+v, %v; want isError with the located error", res, err)
	}
	// Bad input is a tool error naming the field.
	res, err = cs.CallTool(t.Context(), &mcp.CallToolParams{Name: api.ToolRun, Arguments: map[string]any{}})
	if err != nil || !res.IsError || !strings.Contains(res.Content[0].(*mcp.TextContent).Text, "code") {
		t.Errorf("empty run = %+v, %v; want isError naming code", res, err)
	}

	res, err = cs.CallTool(t.Context(), &mcp.CallToolParams{Name: api.ToolModules})
	if err != nil || res.IsError {
		t.Fatalf("list_modules = %+v, %v", res, err)
	}
	b, _ = json.Marshal(res.StructuredContent)
	var mods api.ModulesOutput
	if err := json.Unmarshal(b, &mods); err != nil || len(mods.Modules) != 1 || mods.Modules[0] != "lodash" || mods.Host[0] != "echo" || mods.Limits.MaxFiles != 3 {
		t.Errorf("list_modules = %s; want lodash, echo and the limits", b)
	}
}

type bearer struct{ key string }

func (b bearer) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+b.key)
	return http.DefaultTransport.RoundTrip(r)
}

func TestMCPKeys(t *testing.T) {
	f := newFake("ok")
	srv := newServer(t, f, &keyLimiter{}, nil)
	cs := mcpSession(t, srv.URL, &http.Client{Transport: bearer{testKey}})
	if _, err := cs.CallTool(t.Context(), &mcp.CallToolParams{Name: api.ToolRun, Arguments: map[string]any{"code": "1"}}); err != nil {
		t.Fatal(err)
	}
	if reqs := f.requests(); len(reqs) != 1 || reqs[0].Key != "key:alice" {
		t.Errorf("requests = %+v; want one keyed key:alice", reqs)
	}
	c := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil)
	_, err := c.Connect(t.Context(), &mcp.StreamableClientTransport{Endpoint: srv.URL + "/mcp", HTTPClient: &http.Client{Transport: bearer{"sk-wrong-0123456789abcdef"}}, MaxRetries: -1}, nil)
	if err == nil || !strings.Contains(err.Error(), "401") && !strings.Contains(strings.ToLower(err.Error()), "unauthorized") {
		t.Errorf("connect with an unknown key: err = %v; want 401", err)
	}
}

func TestMCPRateLimitedIsToolError(t *testing.T) {
	srv := newServer(t, newFake("ok"), &keyLimiter{deny: "127.0.0.1"}, nil)
	cs := mcpSession(t, srv.URL, nil)
	res, err := cs.CallTool(t.Context(), &mcp.CallToolParams{Name: api.ToolRun, Arguments: map[string]any{"code": "1"}})
	if err != nil || !res.IsError || !strings.Contains(res.Content[0].(*mcp.TextContent).Text, "rate limited: retry after 2500 ms") {
		t.Errorf("rate limited call = %+v, %v; want a tool error saying when to retry", res, err)
	}
}

func TestMCPClientCancelCancelsRun(t *testing.T) {
	f := newFake("block")
	srv := newServer(t, f, &keyLimiter{}, nil)
	cs := mcpSession(t, srv.URL, nil)
	ctx, cancel := context.WithCancel(t.Context())
	errc := make(chan error, 1)
	go func() {
		_, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: api.ToolRun, Arguments: map[string]any{"code": "for(;;){}"}})
		errc <- err
	}()
	<-f.started
	cancel()
	select {
	case <-f.cancelled:
	case <-time.After(10 * time.Second):
		t.Fatal("the run went on after the MCP client cancelled its call")
	}
	if err := <-errc; err == nil {
		t.Errorf("cancelled call returned no error")
	}
}

// A body that trickles in is cut at Config.BodyReadTimeout with a 408; a
// body sent in time still runs, and its answer, whole or streamed, outlives
// the deadline; and the connection serves a next request after it.
func TestSlowBodyTimesOut(t *testing.T) {
	srv := newServer(t, newFake("ok"), &keyLimiter{}, func(c *api.Config) { c.BodyReadTimeout = 300 * time.Millisecond })
	conn, err := net.Dial("tcp", srv.Listener.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	body := `{"files":[{"path":"main.ts","source":"console.log(1)"}]}`
	fmt.Fprintf(conn, "POST /api/v1/run HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n%s", len(body), body[:5])
	start := time.Now()
	done := make(chan struct{})
	go func() { // trickle the rest, a byte every 100 ms, until the answer comes
		defer close(done)
		for i := 5; i < len(body); i++ {
			select {
			case <-t.Context().Done():
				return
			case <-time.After(100 * time.Millisecond):
			}
			if _, err := conn.Write([]byte{body[i]}); err != nil {
				return
			}
		}
	}()
	resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		t.Fatal(err)
	}
	if resp.StatusCode != http.StatusRequestTimeout {
		t.Errorf("status %d; want 408 for a body still arriving after the timeout", resp.StatusCode)
	}
	if waited := time.Since(start); waited > 3*time.Second {
		t.Errorf("answered after %v; want about the 300 ms timeout", waited)
	}
	conn.Close()
	<-done

	// In time: the run's answer, 500 ms later, outlives the 200 ms body
	// deadline; both requests go over one kept-alive connection.
	ok := newServer(t, newFake("slow"), &keyLimiter{}, func(c *api.Config) { c.BodyReadTimeout = 200 * time.Millisecond })
	for _, url := range []string{"/api/v1/run", "/api/v1/run?stream=ndjson"} {
		resp = post(t, ok.URL+url, body)
		b, _ := io.ReadAll(resp.Body)
		if resp.StatusCode != 200 || !strings.Contains(string(b), `"outcome":"ok"`) {
			t.Errorf("%s: status %d, body %.300s; want the run's answer, outcome ok", url, resp.StatusCode, b)
		}
	}
}
