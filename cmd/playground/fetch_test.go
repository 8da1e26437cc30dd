package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
)

// fetchServer starts the real playground with a fetch policy (written to
// a file) whose templates read env, and returns its address.
func fetchServer(t *testing.T, policy string, env map[string]string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "policy.json")
	if err := os.WriteFile(path, []byte(policy), 0o600); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	ready := make(chan string, 1)
	errc := make(chan error, 1)
	args := []string{"-addr", "127.0.0.1:0", "-log-level", "warn", "-workers", "1", "-fetch-policy", path}
	go func() { errc <- run(ctx, args, func(k string) string { return env[k] }, t.Output(), ready) }()
	select {
	case addr := <-ready:
		t.Cleanup(func() {
			cancel()
			if err := <-errc; err != nil {
				t.Errorf("run: %v", err)
			}
		})
		return addr
	case err := <-errc:
		cancel()
		t.Fatalf("run: %v", err)
		return ""
	}
}

// TestFetchThroughThePool: a snippet's fetch reaches an allowed loopback
// API through the server; the policy's secret header reaches the API and
// never the snippet, its errors or the call messages.
func TestFetchThroughThePool(t *testing.T) {
	const secret = "s3cret-demo-token"
	var mu sync.Mutex
	var auths []string
	api := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		auths = append(auths, r.Header.Get("Authorization"))
		mu.Unlock()
		b, _ := io.ReadAll(r.Body)
		w.Header().Set("Content-Type", "application/json")
		json.NewEncoder(w).Encode(map[string]any{"path": r.URL.Path, "method": r.Method, "body": string(b)})
	}))
	t.Cleanup(api.Close)
	addr := fetchServer(t, `{"allow":[{"origin":"`+api.URL+`","methods":["GET","POST"],"headers":{"Authorization":"Bearer ${DEMO_TOKEN}"}}]}`,
		map[string]string{"DEMO_TOKEN": secret})
	c := dial(t, addr)
	for _, h := range c.hello["host"].([]any) {
		if h == "fetch" {
			t.Errorf("hello.host lists fetch; it is a global, not host.fetch")
		}
	}
	c.send(runMsg("r1", "main.js", `
const res = await fetch("`+api.URL+`/data", { method: "POST", body: "hi" });
console.log(res.status, JSON.stringify(await res.json()));
console.log(res.headers.has("authorization"), typeof host === "undefined" || host.fetch === undefined);
try { await fetch("http://169.254.169.254/latest/meta-data/") } catch (e) { console.log(e.message) }
try { await fetch("`+api.URL+`/x", { method: "DELETE" }) } catch (e) { console.log(e.message) }`))
	ms := c.until("r1")
	if done := ms[len(ms)-1]; done.str("outcome") != "ok" {
		t.Fatalf("run = %v; want ok", ms)
	}
	var logs []string
	for _, m := range only(ms, "log") {
		logs = append(logs, m.str("text"))
	}
	want := []string{
		`200 {"body":"hi","method":"POST","path":"/data"}`,
		"false true",
		"fetch failed: the fetch policy allows no request to http://169.254.169.254:80 (-fetch-policy names the origins a snippet may fetch)",
		"fetch failed: the fetch policy allows GET, POST to " + api.URL + ", not DELETE",
	}
	if strings.Join(logs, "\n") != strings.Join(want, "\n") {
		t.Errorf("logs:\n%s\nwant:\n%s", strings.Join(logs, "\n"), strings.Join(want, "\n"))
	}
	mu.Lock()
	if len(auths) != 1 || auths[0] != "Bearer "+secret {
		t.Errorf("the API saw Authorization %q; want the policy's header once", auths)
	}
	mu.Unlock()
	calls := only(ms, "call")
	if len(calls) != 6 { // three fetches: pending and settled each
		t.Fatalf("call messages = %v; want 6", calls)
	}
	settled := calls[1]
	if settled.str("name") != "fetch" || settled["ok"] != true || !strings.Contains(toJSON(t, settled["result"]), `"status":200`) ||
		toJSON(t, settled["args"]) != `[{"method":"POST","url":"`+api.URL+`/data"}]` {
		t.Errorf("the first fetch's settled call = %v; want fetch, {method, url}, status 200", settled)
	}
	for _, m := range ms {
		if b := toJSON(t, m); strings.Contains(b, secret) {
			t.Errorf("message %s holds the policy's secret", b)
		}
	}

	// A deterministic run's live fetch is refused (a tape would answer it).
	run := runMsg("r2", "main.js", `try { await fetch("`+api.URL+`/d") } catch (e) { console.log(e.message) }`)
	run["deterministic"] = true
	c.send(run)
	ms = c.until("r2")
	if logs := only(ms, "log"); len(logs) != 1 || !strings.Contains(logs[0].str("text"), "fetch in a deterministic run reaches the network; record a tape (run.record) or replay one") {
		t.Errorf("deterministic fetch: %v; want refused", logs)
	}
}

func toJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestFetchWithoutPolicy(t *testing.T) {
	c := dial(t, server(t))
	c.send(runMsg("r1", "main.js", `try { await fetch("https://example.org/") } catch (e) { console.log(e.name, e.message) }`))
	logs := only(c.until("r1"), "log")
	if len(logs) != 1 || logs[0].str("text") != "TypeError fetch is disabled: the server has no fetch policy (-fetch-policy)" {
		t.Errorf("logs = %v; want the TypeError naming the policy", logs)
	}
}

// TestFetchPolicyChecked: a bad policy stops the server at start, saying what.
func TestFetchPolicyChecked(t *testing.T) {
	dir := t.TempDir()
	for _, tt := range []struct{ name, policy, want string }{
		{"unknown field", `{"allow":[{"origin":"https://a.example"}],"limit":{}}`, `unknown field "limit"`},
		{"missing env", `{"allow":[{"origin":"https://a.example","headers":{"Authorization":"Bearer ${NOT_SET}"}}]}`, "NOT_SET is not set"},
		{"bad origin", `{"allow":[{"origin":"https://a.example/path"}]}`, "without a path"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(dir, strings.ReplaceAll(tt.name, " ", "-")+".json")
			if err := os.WriteFile(path, []byte(tt.policy), 0o600); err != nil {
				t.Fatal(err)
			}
			err := run(t.Context(), []string{"-addr", "127.0.0.1:0", "-fetch-policy", path}, func(string) string { return "" }, io.Discard, nil)
			if err == nil || !strings.Contains(err.Error(), "-fetch-policy") || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("run with %s = %v; want a start error naming -fetch-policy and %q", tt.policy, err, tt.want)
			}
		})
	}
	err := run(t.Context(), []string{"-addr", "127.0.0.1:0", "-fetch-policy", filepath.Join(dir, "absent.json")}, func(string) string { return "" }, io.Discard, nil)
	if err == nil || !strings.Contains(err.Error(), "-fetch-policy") {
		t.Errorf("a missing policy file: %v; want a start error", err)
	}
}

// TestFetchAbortCancelsTheRequest: aborting a fetch rejects it with an
// AbortError and ends the server's request to the API (the host call's
// context is cancelled through the pipe), long before any time cap.
func TestFetchAbortCancelsTheRequest(t *testing.T) {
	started, cancelled := make(chan struct{}, 1), make(chan struct{}, 1)
	api := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/hang":
			started <- struct{}{}
			<-r.Context().Done() // ends only when the client gives up
			cancelled <- struct{}{}
		case "/started":
			<-started
		case "/cancelled": // answers once the hanging request was cancelled
			select {
			case <-cancelled:
				io.WriteString(w, "yes")
			case <-r.Context().Done():
			}
		}
	}))
	t.Cleanup(api.Close)
	addr := fetchServer(t, `{"allow":[{"origin":"`+api.URL+`"}],"limits":{"timeoutMs":60000}}`, nil)
	c := dial(t, addr)
	msg := runMsg("r1", "main.js", `
const ctl = new AbortController();
const hanging = fetch("`+api.URL+`/hang", { signal: ctl.signal });
await fetch("`+api.URL+`/started");
ctl.abort();
try { await hanging; console.log("resolved") } catch (e) { console.log(e.name) }
console.log(await (await fetch("`+api.URL+`/cancelled")).text());`)
	msg["timeoutMs"] = 30000
	c.send(msg)
	ms := c.until("r1")
	var logs []string
	for _, m := range only(ms, "log") {
		logs = append(logs, m.str("text"))
	}
	if strings.Join(logs, "\n") != "AbortError\nyes" {
		t.Errorf("logs = %q (run %v); want the AbortError, then the API's word that the request was cancelled", logs, ms[len(ms)-1])
	}
	var aborted bool
	for _, m := range only(ms, "call") {
		aborted = aborted || m.str("error") == "aborted"
	}
	if !aborted {
		t.Errorf("no call message says aborted: %v", only(ms, "call"))
	}
}

// TestFetchRecordedThenReplayedOffline: a deterministic run may fetch while
// it records its tape, and its replay answers the fetch from the tape: the
// API is gone by then, and the replay is identical.
func TestFetchRecordedThenReplayedOffline(t *testing.T) {
	var hits atomic.Int32
	api := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		w.Header().Set("Content-Type", "application/json")
		w.Write([]byte(`{"price":42}`))
	}))
	addr := fetchServer(t, `{"allow":[{"origin":"`+api.URL+`","methods":["GET"]}]}`, nil)
	post := func(path string, body []byte) map[string]any {
		t.Helper()
		resp, err := http.Post("http://"+addr+path, "application/json", bytes.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		var out map[string]any
		if err := json.NewDecoder(resp.Body).Decode(&out); err != nil {
			t.Fatal(err)
		}
		return out
	}
	code := "const r = await fetch('" + api.URL + "/price'); console.log((await r.json()).price);"
	live, _ := json.Marshal(map[string]any{"code": code, "deterministic": true})
	if out := post("/api/v1/run", live); !strings.Contains(fmt.Sprint(out["errors"]), "deterministic") {
		t.Errorf("a deterministic run's live fetch: %v; want it refused, naming deterministic mode", out)
	}
	rec, _ := json.Marshal(map[string]any{"code": code, "deterministic": true, "record": true})
	resp, err := http.Post("http://"+addr+"/api/v1/run", "application/json", bytes.NewReader(rec))
	if err != nil {
		t.Fatal(err)
	}
	var out struct {
		Outcome string
		Logs    []struct{ Text string }
		Tape    json.RawMessage // as written: a tape's key order is part of it
	}
	err = json.NewDecoder(resp.Body).Decode(&out)
	resp.Body.Close()
	if err != nil || out.Outcome != "ok" || len(out.Tape) == 0 || len(out.Logs) != 1 || out.Logs[0].Text != "42" {
		t.Fatalf("recorded run: %+v (%v); want ok, a tape and the price logged", out, err)
	}
	api.Close()
	before := hits.Load()
	rep := post("/api/v1/replay", out.Tape)
	if rep["identical"] != true {
		t.Errorf("replay: %v; want identical", rep)
	}
	if hits.Load() != before {
		t.Errorf("the replay reached the API")
	}
}
