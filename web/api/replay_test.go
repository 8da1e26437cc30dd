package api_test

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/playground-dev/playground/engine"
	"github.com/playground-dev/playground/ratelimit"
	"github.com/playground-dev/playground/sandbox"
	"github.com/playground-dev/playground/tape"
	"github.com/playground-dev/playground/web/api"
)

// tapeServer serves the API on a real one-worker pool whose host.echo
// counts its calls, and fails the test when replaying is set: a replay
// must answer every host call from its tape.
func tapeServer(t *testing.T, replaying *atomic.Bool, calls *atomic.Int64) *httptest.Server {
	t.Helper()
	pool, err := sandbox.NewPool(sandbox.Config{Workers: 1, MaxFiles: 8, MaxSourceBytes: 4000, MaxInputBytes: 4000, Limits: sandbox.Limits{MaxOutputBytes: 16 << 10}, Host: map[string]sandbox.HostFunc{
		// big answers 40 KiB: past the tape's bound (twice the 16 KiB
		// output cap), though its call message shows only {"$t":"more"}.
		"big": func(context.Context, sandbox.HostCall) (json.RawMessage, error) {
			return json.Marshal(strings.Repeat("b", 40<<10))
		},
		"echo": func(_ context.Context, c sandbox.HostCall) (json.RawMessage, error) {
			if replaying.Load() {
				t.Errorf("host.echo(%s) ran during a replay", c.Args)
			}
			if !c.Recording { // every run these tests make records its tape
				t.Errorf("host.echo(%s) in a recorded run: HostCall.Recording is not set", c.Args)
			}
			calls.Add(1)
			return c.Args[0], nil
		},
	}})
	if err != nil {
		t.Fatal(err)
	}
	a := pool.Announce()
	limits := engine.HelloLimits(a, engine.ClientLimits{PerSecond: 1000, Burst: 1000})
	h := api.New(api.Config{Engine: &engine.Engine{Runner: pool, Limiter: ratelimit.New(ratelimit.Config{PerSecond: 1000, Burst: 1000}), Limits: limits},
		Host: a.Host, Modules: a.Modules})
	srv := httptest.NewServer(h)
	t.Cleanup(func() {
		h.Close()
		srv.Close()
		if err := pool.Close(); err != nil {
			t.Errorf("pool.Close: %v", err)
		}
	})
	return srv
}

const recordedRun = `{"files":[{"path":"main.ts","source":"import { host, facts } from \"playground\";\nfacts.a = await host.echo({ x: [1, 2] });\nconsole.log(\"r\", Math.random(), Date.now());\nawait new Promise((r) => setTimeout(r, 50));\nexport default await host.echo(\"b\");"}],"deterministic":true,"record":true}`

// TestReplayEndpoint records a deterministic run through POST /api/v1/run
// (JSON and NDJSON) and replays its tape through POST /api/v1/replay: the
// answers match openapi.json, the replay is identical, and no host
// function runs during it.
func TestReplayEndpoint(t *testing.T) {
	s := loadSpec(t)
	var replaying atomic.Bool
	var calls atomic.Int64
	srv := tapeServer(t, &replaying, &calls)

	resp := post(t, srv.URL+"/api/v1/run", recordedRun)
	b, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != 200 {
		t.Fatalf("record: %d %s", resp.StatusCode, b)
	}
	s.check("a recorded run", s.response("/api/v1/run", 200, "application/json"), b)
	var r api.Result
	json.Unmarshal(b, &r)
	if len(r.Tape) == 0 || calls.Load() != 2 {
		t.Fatalf("record: %s; want a tape and 2 host calls (made %d)", b, calls.Load())
	}
	var tp struct {
		Version  int               `json:"version"`
		Calls    []json.RawMessage `json:"calls"`
		Messages []json.RawMessage `json:"messages"`
	}
	json.Unmarshal(r.Tape, &tp)
	if tp.Version != 1 || len(tp.Calls) != 2 || string(tp.Calls[0]) != `{"name":"echo","args":[{"x":[1,2]}],"result":{"x":[1,2]}}` || len(tp.Messages) < 6 {
		t.Errorf("tape %s; want version 1, the two echo calls with their answers, the messages", r.Tape)
	}

	// The NDJSON stream's done carries the same tape.
	resp = post(t, srv.URL+"/api/v1/run", recordedRun, "Accept", "application/x-ndjson")
	var streamed json.RawMessage
	sc := bufio.NewScanner(resp.Body)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		s.check("a streamed message", s.response("/api/v1/run", 200, "application/x-ndjson"), sc.Bytes())
		var d struct {
			Type string          `json:"type"`
			Tape json.RawMessage `json:"tape"`
		}
		json.Unmarshal(sc.Bytes(), &d)
		if d.Type == "done" {
			streamed = d.Tape
		}
	}
	resp.Body.Close()
	if len(streamed) == 0 {
		t.Fatal("the NDJSON done has no tape")
	}

	replaying.Store(true)
	for _, tape := range []json.RawMessage{r.Tape, streamed} {
		resp = post(t, srv.URL+"/api/v1/replay", string(tape))
		b, _ = io.ReadAll(resp.Body)
		if resp.StatusCode != 200 {
			t.Fatalf("replay: %d %s", resp.StatusCode, b)
		}
		s.check("a replay", s.responseOf("post", "/api/v1/replay", 200, "application/json"), b)
		var rr api.ReplayResult
		json.Unmarshal(b, &rr)
		if !rr.Identical || rr.Messages != len(tp.Messages) || rr.Outcome != "ok" {
			t.Errorf("replay = %s; want identical over %d messages", b, len(tp.Messages))
		}
	}
	if calls.Load() != 4 {
		t.Errorf("host.echo ran %d times; want 4 (two recorded runs, no replay)", calls.Load())
	}

	// ?messages=true: the replay's own messages too, in order, done last.
	resp = post(t, srv.URL+"/api/v1/replay?messages=true", string(r.Tape))
	b, _ = io.ReadAll(resp.Body)
	s.check("a replay with its messages", s.responseOf("post", "/api/v1/replay", 200, "application/json"), b)
	var shown api.ReplayResult
	if err := json.Unmarshal(b, &shown); err != nil || len(shown.Replayed) == 0 {
		t.Fatalf("replay with messages = %s (%v); want its messages", b, err)
	}
	var notQueued int // a busy pool may queue the replay first: the tape has no queued message
	for _, m := range shown.Replayed {
		if !strings.Contains(string(m), `"type":"queued"`) {
			notQueued++
		}
	}
	if !shown.Identical || notQueued != len(tp.Messages) || !strings.Contains(string(shown.Replayed[len(shown.Replayed)-1]), `"type":"done"`) {
		t.Errorf("replay with messages = %s; want identical and its %d messages, done last", b, len(tp.Messages))
	}

	// A changed host answer is the first divergence, where the run logs it.
	changed := strings.Replace(string(r.Tape), `"result":"b"`, `"result":"c"`, 1)
	resp = post(t, srv.URL+"/api/v1/replay", changed)
	b, _ = io.ReadAll(resp.Body)
	s.check("a divergent replay", s.responseOf("post", "/api/v1/replay", 200, "application/json"), b)
	var rr api.ReplayResult
	json.Unmarshal(b, &rr)
	if rr.Identical || !strings.Contains(string(rr.Expected), `"result":"b"`) || !strings.Contains(string(rr.Received), `"result":"c"`) {
		t.Errorf("changed answer: %s; want a divergence expecting b, receiving c", b)
	}
}

// TestReplayRefusals: a tape that cannot be replayed is a 400 naming the
// field and saying why; other problems are the documented statuses.
func TestReplayRefusals(t *testing.T) {
	s := loadSpec(t)
	var replaying atomic.Bool
	var calls atomic.Int64
	srv := tapeServer(t, &replaying, &calls)
	resp := post(t, srv.URL+"/api/v1/run", strings.Replace(recordedRun, `"deterministic":true`, `"deterministic":false`, 1))
	var r api.Result
	json.NewDecoder(resp.Body).Decode(&r)
	resp.Body.Close()
	if len(r.Tape) == 0 {
		t.Fatal("a non-deterministic run with record: no tape")
	}
	resp = post(t, srv.URL+"/api/v1/run", recordedRun)
	var good api.Result
	json.NewDecoder(resp.Body).Decode(&good)
	resp.Body.Close()
	replaying.Store(true)
	var info api.Info
	resp, err := http.Get(srv.URL + "/api/v1/info")
	if err != nil {
		t.Fatal(err)
	}
	json.NewDecoder(resp.Body).Decode(&info)
	resp.Body.Close()
	over := int(tape.MaxBytes(info.Limits)) // the source alone is as long as the largest tape

	for _, c := range []struct {
		name, body, ctype string
		status            int
		field, detail     string
	}{
		{"non-deterministic", string(r.Tape), "", 400, "deterministic", "not deterministic"},
		{"other version", strings.Replace(string(good.Tape), `"version":1`, `"version":7`, 1), "", 400, "version", "version 1"},
		{"unknown field", strings.Replace(string(good.Tape), `"version":1`, `"version":1,"colour":"red"`, 1), "", 400, "colour", "unknown field"},
		{"not kept", `{"version":1,"error":"too big"}`, "", 400, "error", "not kept whole"},
		{"bad file", strings.Replace(string(good.Tape), `"path":"main.ts"`, `"path":"/etc/x.ts"`, 1), "", 400, "files[0].path", ""},
		{"not JSON", `{"version":1,`, "", 400, "tape", "ends early"},
		{"text/plain", string(good.Tape), "text/plain", 415, "", "application/json"},
		{"too large", `{"version":1,"files":[{"path":"a.ts","source":"` + strings.Repeat("x", over) + `"}]}`, "", 413, "", "bytes"},
	} {
		t.Run(c.name, func(t *testing.T) {
			hdr := []string{}
			if c.ctype != "" {
				hdr = []string{"Content-Type", c.ctype}
			}
			resp := post(t, srv.URL+"/api/v1/replay", c.body, hdr...)
			b, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if resp.StatusCode != c.status {
				t.Fatalf("status %d %s; want %d", resp.StatusCode, b, c.status)
			}
			s.check("a refused replay", s.responseOf("post", "/api/v1/replay", c.status, "application/problem+json"), b)
			var p api.Problem
			json.Unmarshal(b, &p)
			if p.Field != c.field || !strings.Contains(p.Detail, c.detail) {
				t.Errorf("problem %s; want field %q, detail containing %q", b, c.field, c.detail)
			}
		})
	}
	req, _ := http.NewRequestWithContext(t.Context(), http.MethodGet, srv.URL+"/api/v1/replay", nil)
	resp, err = http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 405 || resp.Header.Get("Allow") != "POST" {
		t.Errorf("GET /api/v1/replay: %d %s; want 405 with Allow: POST", resp.StatusCode, b)
	}
	s.check("405", s.responseOf("post", "/api/v1/replay", 405, "application/problem+json"), b)
	resp = post(t, srv.URL+"/api/v1/replay", string(good.Tape), "Authorization", "Bearer not-a-key-of-this-server")
	b, _ = io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 401 {
		t.Errorf("an unknown key: %d %s; want 401", resp.StatusCode, b)
	}
	s.check("401", s.responseOf("post", "/api/v1/replay", 401, "application/problem+json"), b)
	if calls.Load() != 4 {
		t.Errorf("host.echo ran %d times; want 4 (the two recorded runs only)", calls.Load())
	}
}

// TestTapeBound: a run whose messages and host calls pass the tape's bound
// (twice the run's output cap) runs on and ends ok, and its done.tape is
// only the version and the reason, never a cut tape; replaying it is a 400
// naming the field error.
func TestTapeBound(t *testing.T) {
	var replaying atomic.Bool
	var calls atomic.Int64
	srv := tapeServer(t, &replaying, &calls)
	resp := post(t, srv.URL+"/api/v1/run", `{"code":"import { host } from \"playground\";\nconst b = await host.big();\nexport default b.length;","deterministic":true,"record":true}`)
	var r api.Result
	json.NewDecoder(resp.Body).Decode(&r)
	resp.Body.Close()
	if r.Outcome != "ok" || string(r.Output) != "40960" {
		t.Fatalf("run: %+v; want ok with output 40960", r)
	}
	var tp map[string]any
	json.Unmarshal(r.Tape, &tp)
	reason, _ := tp["error"].(string)
	if len(tp) != 2 || tp["version"] != 1.0 || !strings.Contains(reason, "more than 32768 bytes") {
		t.Errorf("tape %s; want only the version and an error naming the 32768-byte bound", r.Tape)
	}
	resp = post(t, srv.URL+"/api/v1/replay", string(r.Tape))
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 400 || !strings.Contains(string(b), `"field":"error"`) {
		t.Errorf("replay of a tape that was not kept: %d %s; want 400 naming error", resp.StatusCode, b)
	}
}

// TestRecordedStreamHoldsItsTape: a recorded run's NDJSON stream has room
// for its tape besides the stream's buffer: a 200 KB input (on the tape)
// through a 64 KiB stream buffer still ends with done and its tape.
func TestRecordedStreamHoldsItsTape(t *testing.T) {
	pool, err := sandbox.NewPool(sandbox.Config{Workers: 1, MaxInputBytes: 1 << 20})
	if err != nil {
		t.Fatal(err)
	}
	a := pool.Announce()
	h := api.New(api.Config{Engine: &engine.Engine{Runner: pool, Limiter: ratelimit.New(ratelimit.Config{PerSecond: 1000, Burst: 1000}),
		Limits: engine.HelloLimits(a, engine.ClientLimits{PerSecond: 1000, Burst: 1000})}, StreamBufferBytes: 64 << 10})
	srv := httptest.NewServer(h)
	t.Cleanup(func() {
		h.Close()
		srv.Close()
		pool.Close()
	})
	input, _ := json.Marshal(map[string]string{"s": strings.Repeat("i", 200_000)})
	resp := post(t, srv.URL+"/api/v1/run", `{"code":"import { input } from \"playground\";\nexport default input.s.length;","deterministic":true,"record":true,"input":`+string(input)+`}`,
		"Accept", "application/x-ndjson")
	defer resp.Body.Close()
	sc := bufio.NewScanner(resp.Body)
	sc.Buffer(nil, 4<<20)
	var done struct {
		Type    string          `json:"type"`
		Outcome string          `json:"outcome"`
		Tape    json.RawMessage `json:"tape"`
	}
	for sc.Scan() {
		json.Unmarshal(sc.Bytes(), &done)
	}
	if done.Type != "done" || done.Outcome != "ok" || !strings.Contains(string(done.Tape), string(input)) {
		t.Errorf("last message %s %s with a %d-byte tape; want done ok with the tape holding the input", done.Type, done.Outcome, len(done.Tape))
	}
	resp = post(t, srv.URL+"/api/v1/replay", string(done.Tape))
	var rr api.ReplayResult
	json.NewDecoder(resp.Body).Decode(&rr)
	resp.Body.Close()
	if !rr.Identical {
		t.Errorf("replay %+v; want identical", rr)
	}
}

// TestMCPRecord: run_in_sandbox with record: true returns the run's tape
// in its structured content.
func TestMCPRecord(t *testing.T) {
	var replaying atomic.Bool
	var calls atomic.Int64
	srv := tapeServer(t, &replaying, &calls)
	cs := mcpSession(t, srv.URL, nil)
	res, err := cs.CallTool(t.Context(), &mcp.CallToolParams{Name: api.ToolRun, Arguments: map[string]any{
		"code": "import { host } from \"playground\";\nconsole.log(await host.echo(7));", "deterministic": true, "record": true}})
	if err != nil || res.IsError {
		t.Fatalf("call: %v %+v", err, res)
	}
	b, _ := json.Marshal(res.StructuredContent)
	var out struct {
		Tape struct {
			Version  int               `json:"version"`
			Calls    []json.RawMessage `json:"calls"`
			Messages []json.RawMessage `json:"messages"`
		} `json:"tape"`
	}
	json.Unmarshal(b, &out)
	if out.Tape.Version != 1 || len(out.Tape.Calls) != 1 || string(out.Tape.Calls[0]) != `{"args":[7],"name":"echo","result":7}` || len(out.Tape.Messages) != 5 {
		t.Errorf("structured content %s; want a tape with the echo call and 5 messages", b)
	}
}
