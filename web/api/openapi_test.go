package api_test

// End-to-end tests on a real sandbox pool and the real rate limiter: every
// answer is checked against docs/openapi.json.

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/playground-dev/playground/engine"
	"github.com/playground-dev/playground/ratelimit"
	"github.com/playground-dev/playground/runs"
	"github.com/playground-dev/playground/sandbox"
	"github.com/playground-dev/playground/web/api"
)

// spec is docs/openapi.json with its component schemas resolvable.
type spec struct {
	t     *testing.T
	doc   map[string]any
	raw   map[string]any // components.schemas
	cache map[string]*jsonschema.Resolved
}

func loadSpec(t *testing.T) *spec {
	t.Helper()
	b, err := os.ReadFile("../../docs/openapi.json")
	if err != nil {
		t.Fatal(err)
	}
	var doc map[string]any
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatalf("openapi.json: %v", err)
	}
	if doc["openapi"] != "3.1.0" {
		t.Fatalf("openapi = %v; want 3.1.0", doc["openapi"])
	}
	return &spec{t: t, doc: doc, raw: doc["components"].(map[string]any)["schemas"].(map[string]any), cache: map[string]*jsonschema.Resolved{}}
}

// schema compiles an OpenAPI schema object (JSON Schema 2020-12) with the
// components as $defs.
func (s *spec) schema(obj any) *jsonschema.Resolved {
	s.t.Helper()
	b, _ := json.Marshal(map[string]any{"$defs": s.raw, "allOf": []any{obj}})
	b = []byte(strings.ReplaceAll(string(b), "#/components/schemas/", "#/$defs/"))
	var sc jsonschema.Schema
	if err := json.Unmarshal(b, &sc); err != nil {
		s.t.Fatalf("schema: %v", err)
	}
	r, err := sc.Resolve(nil)
	if err != nil {
		s.t.Fatalf("resolve: %v", err)
	}
	return r
}

// response returns the documented schema of POST path's answer with status
// and content type; it fails the test when the answer is undocumented.
func (s *spec) response(path string, status int, ctype string) *jsonschema.Resolved {
	return s.responseOf("post", path, status, ctype)
}

func (s *spec) responseOf(method, path string, status int, ctype string) *jsonschema.Resolved {
	s.t.Helper()
	key := method + " " + path + " " + strconv.Itoa(status) + " " + ctype
	if r, ok := s.cache[key]; ok {
		return r
	}
	op := s.doc["paths"].(map[string]any)[path].(map[string]any)[method].(map[string]any)
	resp, ok := op["responses"].(map[string]any)[strconv.Itoa(status)].(map[string]any)
	if !ok {
		s.t.Fatalf("%s answered %d, which openapi.json does not document", path, status)
	}
	media, ok := resp["content"].(map[string]any)[ctype].(map[string]any)
	if !ok {
		s.t.Fatalf("%s %d answered %s, which openapi.json does not document", path, status, ctype)
	}
	r := s.schema(media["schema"])
	s.cache[key] = r
	return r
}

func (s *spec) check(what string, r *jsonschema.Resolved, body []byte) {
	s.t.Helper()
	var v any
	if err := json.Unmarshal(body, &v); err != nil {
		s.t.Fatalf("%s: not JSON: %v: %s", what, err, body)
	}
	if err := r.Validate(v); err != nil {
		s.t.Errorf("%s does not match openapi.json: %v\n%s", what, err, body)
	}
}

// realServer serves the API on a one-worker pool with an echo host function
// and a rate limit of burst runs.
func realServer(t *testing.T, burst int) *httptest.Server {
	t.Helper()
	pool, err := sandbox.NewPool(sandbox.Config{Workers: 1, MaxFiles: 8, MaxSourceBytes: 4000, MaxInputBytes: 4000, Host: map[string]sandbox.HostFunc{
		"echo": func(_ context.Context, c sandbox.HostCall) (json.RawMessage, error) { return c.Args[0], nil },
	}})
	if err != nil {
		t.Fatal(err)
	}
	a := pool.Announce()
	lim := ratelimit.New(ratelimit.Config{PerSecond: 0.001, Burst: burst})
	limits := engine.HelloLimits(a, engine.ClientLimits{PerSecond: 0.001, Burst: burst})
	keys, _ := api.ParseKeys(strings.NewReader("ci " + testKey))
	hub := runs.New(runs.Config{})
	h := api.New(api.Config{Engine: &engine.Engine{Runner: pool, Limiter: lim, Limits: limits, Hub: hub}, Keys: keys, Host: a.Host, Modules: a.Modules})
	srv := httptest.NewServer(h)
	t.Cleanup(func() {
		h.Close()
		hub.Close()
		srv.Close()
		if err := pool.Close(); err != nil {
			t.Errorf("pool.Close: %v", err)
		}
	})
	return srv
}

const twoFiles = `{"files":[
 {"path":"main.ts","source":"import { facts, input, host } from \"playground\";\nimport { double } from \"./util\";\nconsole.log(\"n is\", input.n);\nfacts.seen = true;\nconst r = await host.echo(\"hi\");\nexport default { d: double(input.n), r };"},
 {"path":"util.ts","source":"export const double = (n: number) => n * 2;"}],
 "input":{"n":21}}`

func TestRealRunsMatchOpenAPI(t *testing.T) {
	s := loadSpec(t)
	srv := realServer(t, 100)
	url := srv.URL + "/api/v1/run"

	resp := post(t, url, twoFiles)
	b, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != 200 {
		t.Fatalf("status %d: %s", resp.StatusCode, b)
	}
	s.check("200 application/json", s.response("/api/v1/run", 200, "application/json"), b)
	var r api.Result
	json.Unmarshal(b, &r)
	if !r.Success || string(r.Output) != `{"d":42,"r":"hi"}` || len(r.Logs) != 1 || r.Logs[0].Text != "n is 21" || string(r.Facts["seen"]) != "true" ||
		len(r.Calls) != 1 || r.Calls[0].Name != "echo" {
		t.Errorf("result = %s; want output {d:42,r:hi}, log 'n is 21', fact seen, one echo call", b)
	}

	resp = post(t, url, `{"code":"const x: number = 1;\nx.nope();"}`)
	b, _ = io.ReadAll(resp.Body)
	s.check("200 error", s.response("/api/v1/run", 200, "application/json"), b)
	json.Unmarshal(b, &r)
	if r.Success || r.ErrorType == nil || *r.ErrorType != "RUNTIME_ERROR" || r.Errors[0].File != "main.ts" || r.Errors[0].Line != 2 {
		t.Errorf("failing run = %s; want RUNTIME_ERROR at main.ts:2", b)
	}

	resp = post(t, url, `{"code":"while (true) {}","timeoutMs":100}`)
	b, _ = io.ReadAll(resp.Body)
	s.check("200 timeout", s.response("/api/v1/run", 200, "application/json"), b)
	json.Unmarshal(b, &r)
	if r.Outcome != "timeout" || !r.TimedOut || r.ErrorType == nil || *r.ErrorType != "TIMEOUT" {
		t.Errorf("loop = %s; want outcome timeout, errorType TIMEOUT", b)
	}

	for _, accept := range []string{"application/x-ndjson", "text/event-stream"} {
		resp = post(t, url, twoFiles, "Accept", accept)
		if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != accept {
			t.Fatalf("%s: status %d %q", accept, resp.StatusCode, resp.Header.Get("Content-Type"))
		}
		msgSchema := s.response("/api/v1/run", 200, "application/x-ndjson")
		var types []string
		sc := bufio.NewScanner(resp.Body)
		for sc.Scan() {
			line := sc.Text()
			if accept == "text/event-stream" {
				data, ok := strings.CutPrefix(line, "data: ")
				if !ok {
					continue
				}
				line = data
			}
			s.check(accept+" line", msgSchema, []byte(line))
			var m struct{ Type string }
			json.Unmarshal([]byte(line), &m)
			types = append(types, m.Type)
		}
		if got := strings.Join(types, " "); got != "started log fact call call done" && got != "queued started log fact call call done" { // a call starts, then settles
			t.Errorf("%s: types %q; want started log fact call call done", accept, got)
		}
	}

	resp, err := http.Get(srv.URL + "/api/v1/info")
	if err != nil {
		t.Fatal(err)
	}
	b, _ = io.ReadAll(resp.Body)
	resp.Body.Close()
	s.check("GET /api/v1/info", s.responseOf("get", "/api/v1/info", resp.StatusCode, resp.Header.Get("Content-Type")), b)
	var info api.Info
	json.Unmarshal(b, &info)
	if info.Protocol != "playground.v1" || info.Limits.MaxFiles != 8 || len(info.Host) != 1 || info.Host[0] != "echo" ||
		len(info.Require) != len(info.Modules)+1 || info.Require[0] != "playground" {
		t.Errorf("info = %s; want the limits, the echo host function and what a script may require", b)
	}

	problems := []struct {
		body, ctype, auth string
		status            int
	}{
		{body: `{"code":1}`, status: 400},
		{body: `{"files":[{"path":"/etc/passwd.js","source":""}]}`, status: 400},
		{body: `{"code":"` + strings.Repeat("x", 90_000) + `"}`, status: 413}, // over maxMessageBytes + maxInputBytes (4 × 4000 + 64 KiB + 4000)
		{body: `{"code":"1"}`, ctype: "text/plain", status: 415},
		{body: `{"code":"1"}`, auth: "Bearer nope-nope-nope-nope", status: 401},
	}
	for _, p := range problems {
		req, _ := http.NewRequestWithContext(t.Context(), http.MethodPost, url, strings.NewReader(p.body))
		req.Header.Set("Content-Type", "application/json")
		if p.ctype != "" {
			req.Header.Set("Content-Type", p.ctype)
		}
		if p.auth != "" {
			req.Header.Set("Authorization", p.auth)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != p.status {
			t.Errorf("%s: status %d; want %d", p.body[:min(len(p.body), 40)], resp.StatusCode, p.status)
			continue
		}
		s.check(strconv.Itoa(p.status), s.response("/api/v1/run", p.status, "application/problem+json"), b)
	}
}

func TestRealRateLimitAndKeyShare(t *testing.T) {
	s := loadSpec(t)
	srv := realServer(t, 1)
	url := srv.URL + "/api/v1/run"
	if resp := post(t, url, `{"code":"1"}`); resp.StatusCode != 200 {
		t.Fatalf("first run: %d", resp.StatusCode)
	}
	resp := post(t, url, `{"code":"1"}`)
	b, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != 429 || resp.Header.Get("Retry-After") == "" {
		t.Fatalf("second run: %d Retry-After %q; want 429 with Retry-After", resp.StatusCode, resp.Header.Get("Retry-After"))
	}
	s.check("429", s.response("/api/v1/run", 429, "application/problem+json"), b)
	// A key has its own bucket.
	if resp := post(t, url, `{"code":"1"}`, "Authorization", "Bearer "+testKey); resp.StatusCode != 200 {
		t.Errorf("run with a key after the IP's burst: %d; want 200", resp.StatusCode)
	}
}

func TestRealDisconnectFreesWorker(t *testing.T) {
	srv := realServer(t, 100)
	url := srv.URL + "/api/v1/run"
	ctx, cancel := context.WithCancel(t.Context())
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, url, strings.NewReader(`{"code":"console.log('spinning'); while (true) {}","timeoutMs":30000}`))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/x-ndjson")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	sc := bufio.NewScanner(resp.Body)
	for sc.Scan() && !strings.Contains(sc.Text(), `"type":"log"`) {
	}
	cancel() // the client goes away while the loop spins in the only worker
	resp.Body.Close()
	// The only worker must be free again long before the 30 s limit: the
	// next run completes (the test's own deadline is the bound).
	done := make(chan api.Result, 1)
	go func() {
		resp := post(t, url, `{"code":"export default 7"}`)
		var r api.Result
		json.NewDecoder(resp.Body).Decode(&r)
		done <- r
	}()
	select {
	case r := <-done:
		if !r.Success || string(r.Output) != "7" {
			t.Errorf("next run = %+v; want ok with output 7", r)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("the worker stayed busy after the client disconnected")
	}
}

// TestRealLiveRunsMatchOpenAPI: wait false, the events (NDJSON and SSE)
// and the tape endpoint answer as documented.
func TestRealLiveRunsMatchOpenAPI(t *testing.T) {
	s := loadSpec(t)
	srv := realServer(t, 100)
	resp := post(t, srv.URL+"/api/v1/run", `{"code":"console.log('hi'); export default 1","wait":false}`)
	b, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != 202 {
		t.Fatalf("wait false: %d %s", resp.StatusCode, b)
	}
	s.check("202", s.response("/api/v1/run", 202, "application/json"), b)
	var st api.Started
	json.Unmarshal(b, &st)
	events := "/api/v1/runs/{id}/events"
	for _, accept := range []string{"", "text/event-stream"} {
		req, _ := http.NewRequestWithContext(t.Context(), http.MethodGet, srv.URL+st.EventsURL, nil)
		req.Header.Set("Authorization", "Bearer "+st.Watch)
		if accept != "" {
			req.Header.Set("Accept", accept)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		ct := resp.Header.Get("Content-Type")
		schema := s.responseOf("get", events, resp.StatusCode, "application/x-ndjson")
		s.responseOf("get", events, resp.StatusCode, ct) // documented
		var types []string
		sc := bufio.NewScanner(resp.Body)
		for sc.Scan() {
			line := sc.Text()
			if ct == "text/event-stream" {
				data, ok := strings.CutPrefix(line, "data: ")
				if !ok {
					continue
				}
				line = data
			}
			s.check("events line", schema, []byte(line))
			var m struct{ Type string }
			json.Unmarshal([]byte(line), &m)
			types = append(types, m.Type)
		}
		resp.Body.Close()
		if len(types) < 3 || types[len(types)-1] != "done" {
			t.Errorf("events %q: types %v; want the run through done", accept, types)
		}
	}
	for _, c := range []struct {
		path, auth, query string
		status            int
	}{
		{st.EventsURL, "Bearer nope", "", 404},
		{st.EventsURL, "Bearer " + st.Watch, "?wait=0", 400},
		{st.TapeURL, "Bearer " + st.Watch, "", 404},
		{st.TapeURL, "", "", 404},
	} {
		req, _ := http.NewRequestWithContext(t.Context(), http.MethodGet, srv.URL+c.path+c.query, nil)
		if c.auth != "" {
			req.Header.Set("Authorization", c.auth)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != c.status {
			t.Fatalf("%s%s: %d; want %d", c.path, c.query, resp.StatusCode, c.status)
		}
		path := events
		if strings.HasSuffix(c.path, "/tape") {
			path = "/api/v1/runs/{id}/tape"
		}
		s.check(fmt.Sprint(c.status), s.responseOf("get", path, c.status, "application/problem+json"), b)
	}
}

// TestSpecRejectsWrongShapes proves the checks above can fail.
func TestSpecRejectsWrongShapes(t *testing.T) {
	s := loadSpec(t)
	for _, c := range []struct {
		status int
		ctype  string
		body   string
	}{
		{200, "application/json", `{"outcome":"ok"}`},
		{200, "application/json", `{"id":"a","outcome":"fine","output":null,"facts":{},"logs":[],"errors":[],"calls":[],"durationMs":1,"timedOut":false,"timeoutMs":1,"stats":{"queueMs":0,"bundleMs":0,"runMs":0,"logs":0,"outputBytes":0,"truncated":false},"success":true,"error":null,"errorType":null,"executionTimeMs":1}`},
		{200, "application/x-ndjson", `{"type":"log","id":"a","seq":0,"t":0,"level":"log","text":"","args":[]}`},
		{400, "application/problem+json", `{"type":"urn:playground:problem:invalid-request","status":400}`},
	} {
		var v any
		json.Unmarshal([]byte(c.body), &v)
		if err := s.response("/api/v1/run", c.status, c.ctype).Validate(v); err == nil {
			t.Errorf("%d %s accepted %s; want a schema error", c.status, c.ctype, c.body)
		}
	}
}
