package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"
	"github.com/playground-dev/playground/sandbox"
	"go.uber.org/goleak"
)

func TestMain(m *testing.M) {
	sandbox.ServeIfWorker() // the pool re-executes this test binary as its worker
	goleak.VerifyTestMain(m)
}

// server starts the real playground (run) on a loopback port with extra
// flags and returns its address; it stops when the test ends.
func server(t *testing.T, flags ...string) string {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	ready := make(chan string, 1)
	errc := make(chan error, 1)
	args := append([]string{"-addr", "127.0.0.1:0", "-log-level", "warn"}, flags...)
	go func() { errc <- run(ctx, args, func(string) string { return "" }, t.Output(), ready) }()
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

// msg is any server message, decoded loosely for assertions.
type msg map[string]any

func (m msg) str(k string) string { s, _ := m[k].(string); return s }
func (m msg) num(k string) float64 {
	f, _ := m[k].(float64)
	return f
}

type client struct {
	t     *testing.T
	c     *websocket.Conn
	hello msg
}

func dial(t *testing.T, addr string) *client {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), 10*time.Second)
	defer cancel()
	c, resp, err := websocket.Dial(ctx, "ws://"+addr+"/ws", &websocket.DialOptions{Subprotocols: []string{"playground.v1"}})
	if err != nil {
		t.Fatalf("dial: %v", err)
	}
	if got := resp.Header.Get("Sec-WebSocket-Protocol"); got != "playground.v1" {
		t.Errorf("subprotocol = %q; want playground.v1", got)
	}
	c.SetReadLimit(16 << 20)
	t.Cleanup(func() { c.CloseNow() })
	cl := &client{t: t, c: c}
	cl.hello = cl.read()
	if cl.hello.str("type") != "hello" || cl.hello.str("protocol") != "playground.v1" {
		t.Fatalf("first message = %v; want hello", cl.hello)
	}
	return cl
}

func (c *client) send(v any) {
	c.t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		c.t.Fatal(err)
	}
	c.sendRaw(websocket.MessageText, b)
}

func (c *client) sendRaw(typ websocket.MessageType, b []byte) {
	c.t.Helper()
	ctx, cancel := context.WithTimeout(c.t.Context(), 5*time.Second)
	defer cancel()
	if err := c.c.Write(ctx, typ, b); err != nil {
		c.t.Fatalf("write: %v", err)
	}
}

func (c *client) read() msg {
	c.t.Helper()
	ctx, cancel := context.WithTimeout(c.t.Context(), 20*time.Second)
	defer cancel()
	_, b, err := c.c.Read(ctx)
	if err != nil {
		c.t.Fatalf("read: %v", err)
	}
	var m msg
	if err := json.Unmarshal(b, &m); err != nil {
		c.t.Fatalf("server sent non-JSON %q: %v", b, err)
	}
	return m
}

// until reads messages of run id until its done, checking seq has no gaps.
func (c *client) until(id string) []msg {
	c.t.Helper()
	return c.continueUntil(id, nil)
}

// continueUntil is until for a run whose first messages were already read.
func (c *client) continueUntil(id string, out []msg) []msg {
	c.t.Helper()
	for {
		m := c.read()
		if m.str("id") != id {
			continue
		}
		if got, want := m.num("seq"), float64(len(out)+1); got != want {
			c.t.Fatalf("message %v has seq %v; want %v", m, got, want)
		}
		out = append(out, m)
		if m.str("type") == "done" {
			return out
		}
	}
}

func runMsg(id string, files ...string) map[string]any {
	var fs []map[string]string
	for i := 0; i+1 < len(files); i += 2 {
		fs = append(fs, map[string]string{"path": files[i], "source": files[i+1]})
	}
	return map[string]any{"type": "run", "id": id, "files": fs}
}

func types(ms []msg) string {
	var s []string
	for _, m := range ms {
		s = append(s, m.str("type"))
	}
	return strings.Join(s, " ")
}

func only(ms []msg, typ string) []msg {
	var out []msg
	for _, m := range ms {
		if m.str("type") == typ {
			out = append(out, m)
		}
	}
	return out
}

func stats(t *testing.T, addr string) map[string]float64 {
	t.Helper()
	resp, err := http.Get("http://" + addr + "/api/stats")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var st map[string]any
	if err := json.NewDecoder(resp.Body).Decode(&st); err != nil {
		t.Fatal(err)
	}
	out := map[string]float64{}
	for k, v := range st {
		if f, ok := v.(float64); ok {
			out[k] = f
		}
	}
	return out
}

func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

const counterTS = `export class Counter {
  value: number = 0;
  inc(by: number = 1): number { this.value += by; return this.value; }
}
`

func TestTwoFileTypeScriptRunStreams(t *testing.T) {
	addr := server(t)
	c := dial(t, addr)
	lim, _ := c.hello["limits"].(map[string]any)
	if lim["runsPerSecond"] != 4.0 || lim["runBurst"] != 8.0 || lim["maxFiles"] == nil || lim["timeoutMs"] == nil {
		t.Errorf("hello.limits = %v; want the announced limits", lim)
	}
	c.send(runMsg("r1",
		"src/main.ts", `import { facts } from "playground";
import { Counter } from "./counter.js";
const c = new Counter();
facts.count = 0;
for (let i = 0; i < 3; i++) {
  await new Promise((r) => setTimeout(r, 10));
  facts.count = c.inc();
  console.log("tick", i);
}
console.warn("done");
export default { final: c.value, when: new Date(0) };
`,
		"src/counter.ts", counterTS))
	ms := c.until("r1")
	want := "started fact fact log fact log fact log log done"
	if got := types(ms); got != want {
		t.Fatalf("messages = %s; want %s", got, want)
	}
	var logs []string
	for _, m := range only(ms, "log") {
		logs = append(logs, m.str("level")+":"+m.str("text"))
	}
	if got := strings.Join(logs, "|"); got != "log:tick 0|log:tick 1|log:tick 2|warn:done" {
		t.Errorf("logs = %s", got)
	}
	var lastT float64
	for _, m := range ms[1:] {
		if m.num("t") < lastT {
			t.Errorf("t went backwards at %v", m)
		}
		lastT = m.num("t")
	}
	if lastT < 25 {
		t.Errorf("last t = %v ms; want ≥ 30ms of timers to show", lastT)
	}
	facts := only(ms, "fact")
	if facts[3]["key"] != "count" || facts[3]["value"] != 3.0 {
		t.Errorf("last fact = %v; want count=3", facts[3])
	}
	done := ms[len(ms)-1]
	if done.str("outcome") != "ok" || done["timedOut"] != false {
		t.Errorf("done = %v; want outcome ok", done)
	}
	if got, _ := json.Marshal(done["facts"]); string(got) != `{"count":3}` {
		t.Errorf("done.facts = %s; want {\"count\":3}", got)
	}
	if got, _ := json.Marshal(done["output"]); string(got) != `{"final":3,"when":{"$t":"date","v":"1970-01-01T00:00:00.000Z"}}` {
		t.Errorf("done.output = %s", got)
	}
	st, _ := done["stats"].(map[string]any)
	if st["logs"] != 4.0 || st["outputBytes"] != float64(len("tick 0tick 1tick 2done")) || st["truncated"] != false {
		t.Errorf("done.stats = %v", st)
	}
}

func TestSyntaxErrorInSecondFile(t *testing.T) {
	c := dial(t, server(t))
	c.send(runMsg("r1", "src/main.ts", "import { Counter } from './counter';\nconsole.log(new Counter());\n",
		"src/counter.ts", "export class Counter {\n  value = 0\n  inc() { return this.value +; }\n}\n"))
	ms := c.until("r1")
	if got := types(ms); got != "error done" {
		t.Fatalf("messages = %s; want error done (nothing runs)", got)
	}
	e := ms[0]
	if e.str("kind") != "SYNTAX_ERROR" || e.str("file") != "src/counter.ts" || e.num("line") != 3 || e.num("column") != 30 {
		t.Errorf("error = %v; want SYNTAX_ERROR at src/counter.ts:3:30", e)
	}
	if ms[1].str("outcome") != "error" {
		t.Errorf("done = %v; want outcome error", ms[1])
	}
}

func TestBundleErrors(t *testing.T) {
	c := dial(t, server(t))
	for i, tc := range []struct{ src, kind, text string }{
		{"import './missing';", "BUNDLE_ERROR", `no file missing`},
		{"import pad from 'left-pad';\nconsole.log(pad);", "BUNDLE_ERROR", `importable modules: playground, date-fns, lodash`},
		{"import fs from 'node:fs';\nconsole.log(fs);", "SECURITY_ERROR", `host modules are not available`},
		{"import 'child_process';", "SECURITY_ERROR", `host modules are not available`},
	} {
		id := fmt.Sprintf("b%d", i)
		c.send(runMsg(id, "main.ts", tc.src))
		ms := c.until(id)
		if len(ms) != 2 || ms[0].str("kind") != tc.kind || !strings.Contains(ms[0].str("message"), tc.text) || ms[0].str("file") != "main.ts" || ms[0].num("line") != 1 {
			t.Errorf("%s: messages = %v; want %s mentioning %q at main.ts:1", tc.src, ms, tc.kind, tc.text)
		}
	}
}

func TestUncaughtExceptionIsRuntimeError(t *testing.T) {
	c := dial(t, server(t))
	c.send(runMsg("r1", "src/main.ts", "import { Counter } from './counter';\nconsole.log('before');\nconst c: any = new Counter();\nc.missing();\n",
		"src/counter.ts", counterTS))
	ms := c.until("r1")
	if got := types(ms); got != "started log error done" {
		t.Fatalf("messages = %s", got)
	}
	e := ms[2]
	if e.str("kind") != "RUNTIME_ERROR" || !strings.Contains(e.str("message"), "TypeError") || e.str("file") != "src/main.ts" || e.num("line") != 4 {
		t.Errorf("error = %v; want RUNTIME_ERROR TypeError at src/main.ts:4", e)
	}
	if ms[3].str("outcome") != "error" {
		t.Errorf("done outcome = %s; want error", ms[3].str("outcome"))
	}
}

func TestInfiniteLoopTimesOut(t *testing.T) {
	c := dial(t, server(t))
	run := runMsg("r1", "main.js", "console.log('spinning'); while (true) {}")
	run["timeoutMs"] = 300
	start := time.Now()
	c.send(run)
	ms := c.until("r1")
	elapsed := time.Since(start)
	if got := types(ms); got != "started log error done" {
		t.Fatalf("messages = %s; want the log kept before the timeout", got)
	}
	if ms[0].num("timeoutMs") != 300 {
		t.Errorf("started.timeoutMs = %v; want 300", ms[0]["timeoutMs"])
	}
	done := ms[3]
	if done.str("outcome") != "timeout" || done["timedOut"] != true || ms[2].str("kind") != "TIMEOUT" {
		t.Errorf("done = %v, error = %v; want timeout", done, ms[2])
	}
	if elapsed < 300*time.Millisecond || elapsed > 3*time.Second {
		t.Errorf("timeout after %v; want near 300ms", elapsed)
	}
}

func TestTimeoutIsClamped(t *testing.T) {
	c := dial(t, server(t, "-min-timeout", "100ms", "-max-timeout", "2s"))
	run := runMsg("r1", "main.js", "1")
	run["timeoutMs"] = 1e9
	c.send(run)
	if ms := c.until("r1"); ms[0].num("timeoutMs") != 2000 {
		t.Errorf("started = %v; want timeoutMs clamped to 2000", ms[0])
	}
}

func TestClosingSocketCancelsRun(t *testing.T) {
	addr := server(t)
	c := dial(t, addr)
	c.send(runMsg("r1", "main.js", "while (true) {}"))
	if m := c.read(); m.str("type") != "started" {
		t.Fatalf("got %v; want started", m)
	}
	if n := stats(t, addr)["activeRuns"]; n != 1 {
		t.Fatalf("activeRuns = %v while running; want 1", n)
	}
	c.c.CloseNow()
	waitFor(t, "activeRuns to reach 0", func() bool { return stats(t, addr)["activeRuns"] == 0 })
	waitFor(t, "sessions to reach 0", func() bool { return stats(t, addr)["sessions"] == 0 })
}

func TestNewRunCancelsActiveRun(t *testing.T) {
	c := dial(t, server(t))
	c.send(runMsg("r1", "main.js", "while (true) {}"))
	if m := c.read(); m.str("type") != "started" {
		t.Fatalf("got %v; want started", m)
	}
	c.send(runMsg("r2", "main.js", "console.log('second')"))
	var r1Done, r2Done msg
	var order []string
	for r2Done == nil {
		m := c.read()
		order = append(order, m.str("id")+":"+m.str("type"))
		if m.str("type") == "done" {
			if m.str("id") == "r1" {
				r1Done = m
			} else {
				r2Done = m
			}
		}
	}
	if r1Done == nil || r1Done.str("outcome") != "cancelled" {
		t.Fatalf("r1 done = %v; want cancelled before r2 finished (order %v)", r1Done, order)
	}
	if order[0] != "r1:done" {
		t.Errorf("order = %v; want r1's done first", order)
	}
	if r2Done.str("outcome") != "ok" {
		t.Errorf("r2 done = %v; want ok", r2Done)
	}
}

func TestCancelMessage(t *testing.T) {
	c := dial(t, server(t))
	c.send(runMsg("r1", "main.js", "console.log('x'); while (true) {}"))
	first := []msg{c.read(), c.read()}
	if types(first) != "started log" {
		t.Fatalf("messages = %s; want started log", types(first))
	}
	c.send(map[string]any{"type": "cancel", "id": "nope"})
	c.send(map[string]any{"type": "cancel", "id": "r1"})
	ms := c.continueUntil("r1", first)
	if done := ms[len(ms)-1]; done.str("outcome") != "cancelled" {
		t.Errorf("done = %v; want cancelled", done)
	}
}

func TestBurstPastLimitIsRateLimited(t *testing.T) {
	c := dial(t, server(t, "-rate", "1", "-burst", "3"))
	for i := range 4 {
		c.send(runMsg(fmt.Sprintf("r%d", i), "main.js", "1"))
		ms := c.until(fmt.Sprintf("r%d", i))
		done := ms[len(ms)-1]
		if i < 3 && done.str("outcome") != "ok" {
			t.Fatalf("run %d outcome = %s; want ok within the burst", i, done.str("outcome"))
		}
		if i == 3 {
			if len(ms) != 1 || done.str("outcome") != "rate_limited" || done.num("retryAfterMs") <= 0 || done.num("retryAfterMs") > 1000 {
				t.Fatalf("run past the burst = %v; want only done rate_limited with retryAfterMs in (0, 1000]", ms)
			}
		}
	}
}

func TestProtocolErrorsKeepSocket(t *testing.T) {
	c := dial(t, server(t))
	for _, tc := range []struct {
		typ  websocket.MessageType
		body string
		want string
	}{
		{websocket.MessageText, `{"type":`, "not a JSON object"},
		{websocket.MessageText, `{"type":"launch"}`, "unknown message type"},
		{websocket.MessageBinary, `{"type":"ping"}`, "binary frames"},
		{websocket.MessageText, `{"type":"cancel"}`, "cancel needs"},
	} {
		c.sendRaw(tc.typ, []byte(tc.body))
		m := c.read()
		if m.str("type") != "protocol_error" || !strings.Contains(m.str("message"), tc.want) {
			t.Errorf("%q: got %v; want protocol_error mentioning %q", tc.body, m, tc.want)
		}
	}
	c.send(map[string]any{"type": "ping", "t": 42})
	if m := c.read(); m.str("type") != "pong" || m["t"] != 42.0 {
		t.Errorf("after protocol errors: got %v; want pong 42", m)
	}
	c.send(runMsg("ok", "main.js", "console.log(1)"))
	if ms := c.until("ok"); ms[len(ms)-1].str("outcome") != "ok" {
		t.Errorf("run after protocol errors = %v", ms)
	}
}

func TestInvalidRunEndsWithDone(t *testing.T) {
	c := dial(t, server(t, "-max-files", "2", "-max-source-bytes", "1000"))
	c.send(runMsg("big", "a.js", strings.Repeat("\n", 1500)))
	ms := c.until("big")
	if types(ms) != "error done" || !strings.Contains(ms[0].str("message"), "maxSourceBytes=1000") || ms[1].str("outcome") != "invalid" {
		t.Errorf("messages = %v; want INVALID_REQUEST naming maxSourceBytes, then done invalid", ms)
	}
	c.send(map[string]any{"type": "run", "id": "bad", "files": []map[string]string{{"path": "../x.ts", "source": ""}}})
	ms = c.until("bad")
	if types(ms) != "error done" || ms[0].str("kind") != "INVALID_REQUEST" || !strings.Contains(ms[0].str("message"), "files[0].path") || ms[1].str("outcome") != "invalid" {
		t.Errorf("messages = %v; want INVALID_REQUEST naming files[0].path, then done invalid", ms)
	}
	c.send(runMsg("many", "a.js", "", "b.js", "", "c.js", ""))
	ms = c.until("many")
	if ms[0].str("kind") != "INVALID_REQUEST" || !strings.Contains(ms[0].str("message"), "maxFiles=2") {
		t.Errorf("messages = %v; want INVALID_REQUEST naming maxFiles", ms)
	}
}

func TestRepeatedProtocolErrorsClose(t *testing.T) {
	c := dial(t, server(t))
	for range 20 {
		c.sendRaw(websocket.MessageText, []byte("nope"))
	}
	ctx, cancel := context.WithTimeout(t.Context(), 10*time.Second)
	defer cancel()
	for {
		_, _, err := c.c.Read(ctx)
		if err != nil {
			if got := websocket.CloseStatus(err); got != websocket.StatusPolicyViolation {
				t.Errorf("close status = %v (%v); want 1008", got, err)
			}
			return
		}
	}
}

func TestForeignOriginRefused(t *testing.T) {
	addr := server(t, "-origins", "docs.example.org")
	ctx, cancel := context.WithTimeout(t.Context(), 5*time.Second)
	defer cancel()
	h := http.Header{"Origin": []string{"https://evil.example.com"}}
	_, resp, err := websocket.Dial(ctx, "ws://"+addr+"/ws", &websocket.DialOptions{HTTPHeader: h})
	if err == nil || resp == nil || resp.StatusCode != http.StatusForbidden {
		t.Fatalf("dial from a foreign origin: err=%v resp=%v; want 403", err, resp)
	}
	h.Set("Origin", "https://docs.example.org")
	c, _, err := websocket.Dial(ctx, "ws://"+addr+"/ws", &websocket.DialOptions{HTTPHeader: h})
	if err != nil {
		t.Fatalf("dial from an allowed origin: %v", err)
	}
	c.CloseNow()
}

func TestPageAndAssets(t *testing.T) {
	addr := server(t)
	for path, want := range map[string]string{
		"/":                        `data-testid="run-button"`,
		"/static/app.js":           "PlaygroundClient",
		"/static/editor.bundle.js": "createEditor",
		"/static/client.js":        "playground.v1",
		"/healthz":                 "ok",
	} {
		resp, err := http.Get("http://" + addr + path)
		if err != nil {
			t.Fatal(err)
		}
		body, err := io.ReadAll(resp.Body)
		resp.Body.Close()
		if err != nil {
			t.Fatal(err)
		}
		if resp.StatusCode != 200 || !strings.Contains(string(body), want) {
			t.Errorf("GET %s = %d; want 200 containing %q", path, resp.StatusCode, want)
		}
		if path == "/" && !strings.Contains(resp.Header.Get("Content-Security-Policy"), "script-src 'self'") {
			t.Errorf("GET / has no CSP")
		}
	}
}

func TestFlagsFromEnvironment(t *testing.T) {
	env := map[string]string{"PLAYGROUND_RATE": "10", "PLAYGROUND_BURST": "3", "PORT": "9999"}
	c, err := parseFlags([]string{"-burst", "5"}, func(k string) string { return env[k] }, &strings.Builder{})
	if err != nil {
		t.Fatal(err)
	}
	if c.rate != 10 || c.burst != 5 || c.addr != "127.0.0.1:9999" {
		t.Errorf("rate=%v burst=%v addr=%v; want 10 (env), 5 (flag beats env), 127.0.0.1:9999 ($PORT)", c.rate, c.burst, c.addr)
	}
	if _, err := parseFlags(nil, func(k string) string {
		if k == "PLAYGROUND_RATE" {
			return "fast"
		}
		return ""
	}, &strings.Builder{}); err == nil || !strings.Contains(err.Error(), "PLAYGROUND_RATE") {
		t.Errorf("bad env value: err = %v; want an error naming PLAYGROUND_RATE", err)
	}
}

// TestHostileRunsLeaveServerUp sends snippets that kill their worker over
// the WebSocket and checks the server answers each precisely, counts the
// damage in /api/stats, and keeps serving.
func TestHostileRunsLeaveServerUp(t *testing.T) {
	addr := server(t, "-memory-bytes", "134217728", "-rate", "100", "-burst", "100")
	c := dial(t, addr)
	for i, tc := range []struct{ src, outcome, kind string }{
		{"console.log('a'); new Array(3e8).fill(0);", "memory_limit", "MEMORY_LIMIT"},
		{"const x = " + strings.Repeat("[", 100_000) + strings.Repeat("]", 100_000) + ";", "error", "SYNTAX_ERROR"},
		{"console.log('b'); Array.prototype.indexOf.call({ length: 2 ** 53 - 1 }, 1);", "timeout", "TIMEOUT"},
	} {
		id := fmt.Sprintf("h%d", i)
		run := runMsg(id, "main.ts", tc.src)
		run["timeoutMs"] = 500
		if tc.outcome != "timeout" {
			run["timeoutMs"] = 20_000
		}
		c.send(run)
		ms := c.until(id)
		done := ms[len(ms)-1]
		errs := only(ms, "error")
		if done.str("outcome") != tc.outcome || len(errs) == 0 || errs[len(errs)-1].str("kind") != tc.kind {
			t.Errorf("%.40s…: messages %s, done %v; want %s with %s", tc.src, types(ms), done, tc.outcome, tc.kind)
		}
		for _, e := range errs {
			if strings.Contains(e.str("message"), "/") || strings.Contains(e.str("stack"), ".go") {
				t.Errorf("error leaks a path: %v", e)
			}
		}
		c.send(runMsg(id+"ok", "main.ts", "console.log('still here')"))
		if ms := c.until(id + "ok"); ms[len(ms)-1].str("outcome") != "ok" {
			t.Fatalf("run after %s: %v", tc.outcome, ms)
		}
	}
	resp, err := http.Get("http://" + addr + "/api/stats")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var st struct {
		Pool struct{ Workers, Kills, Crashes, Restarts, Live int }
	}
	if err := json.NewDecoder(resp.Body).Decode(&st); err != nil {
		t.Fatal(err)
	}
	if st.Pool.Workers == 0 || st.Pool.Kills < 1 || st.Pool.Restarts < 3 || st.Pool.Live == 0 {
		t.Errorf("pool stats = %+v; want the kill and the replacements counted", st.Pool)
	}
}

func TestClosingSocketFreesStuckWorker(t *testing.T) {
	addr := server(t)
	c := dial(t, addr)
	c.send(runMsg("r1", "main.js", "console.log('x'); Array.prototype.indexOf.call({ length: 2 ** 53 - 1 }, 1);"))
	c.read() // started
	c.read() // log: the worker is inside the builtin now
	c.c.CloseNow()
	waitFor(t, "activeRuns to reach 0", func() bool { return stats(t, addr)["activeRuns"] == 0 })
	c2 := dial(t, addr)
	c2.send(runMsg("r2", "main.js", "console.log(1)"))
	if ms := c2.until("r2"); ms[len(ms)-1].str("outcome") != "ok" {
		t.Errorf("next run = %v", ms)
	}
}

func TestHostCallsOverWebSocket(t *testing.T) {
	addr := server(t)
	c := dial(t, addr)
	host, _ := c.hello["host"].([]any)
	if len(host) < 5 {
		t.Errorf("hello.host = %v; want the shipped host functions", host)
	}
	c.send(runMsg("r1", "main.ts", `import { host } from "playground";
await host.kv.set("visits", 1);
console.log(await host.echo("hi"), await host.sleep(20));
`))
	ms := c.until("r1")
	if types(ms) != "started call call call log done" {
		t.Fatalf("messages = %s", types(ms))
	}
	calls := only(ms, "call")
	if calls[0].str("name") != "kv.set" || calls[2].str("name") != "sleep" || calls[2].num("ms") < 15 || calls[2]["ok"] != true {
		t.Errorf("calls = %v", calls)
	}
	// The store survives into the next run of the same tab, not another tab's.
	c.send(runMsg("r2", "main.ts", `import { host } from "playground";
console.log(await host.kv.get("visits"), JSON.stringify(await host.kv.list()));`))
	if logs := only(c.until("r2"), "log"); len(logs) != 1 || logs[0].str("text") != `1 ["visits"]` {
		t.Errorf("second run logs = %v", logs)
	}
	other := dial(t, addr)
	other.send(runMsg("r3", "main.ts", `import { host } from "playground";
console.log(await host.kv.get("visits"));`))
	if logs := only(other.until("r3"), "log"); len(logs) != 1 || logs[0].str("text") != "undefined" {
		t.Errorf("another tab sees %v; want undefined", logs)
	}
}

// TestRuntimeOverWebSocket covers the snippet runtime through the real
// WebSocket path: libraries, input and output, unhandled rejections, host
// globals, source-mapped stacks and deterministic mode.
func TestRuntimeOverWebSocket(t *testing.T) {
	c := dial(t, server(t, "-rate", "100", "-burst", "100"))
	mods, _ := c.hello["modules"].([]any)
	if fmt.Sprint(mods) != "[playground date-fns lodash papaparse uuid zod]" {
		t.Errorf("hello.modules = %v", mods)
	}
	t.Run("libraries", func(t *testing.T) {
		c.send(runMsg("lib", "main.ts", "import _ from 'lodash';\nimport { z } from 'zod';\nconsole.log(_.sum([1, 2, 3]), z.number().safeParse('x').success);"))
		if logs := only(c.until("lib"), "log"); len(logs) != 1 || logs[0].str("text") != "6 false" {
			t.Errorf("logs = %v", logs)
		}
	})
	t.Run("input and output", func(t *testing.T) {
		run := runMsg("io", "main.ts", "import { input } from 'playground';\nexport default Promise.resolve({ doubled: input.n * 2, at: new Map([[1, 2]]) });")
		run["input"] = map[string]any{"n": 21}
		c.send(run)
		ms := c.until("io")
		if got, _ := json.Marshal(ms[len(ms)-1]["output"]); string(got) != `{"at":{"$t":"map","entries":[[1,2]]},"doubled":42}` && string(got) != `{"doubled":42,"at":{"$t":"map","entries":[[1,2]]}}` {
			t.Errorf("output = %s", got)
		}
	})
	t.Run("unhandled rejection", func(t *testing.T) {
		c.send(runMsg("rej", "main.ts", "Promise.reject(new Error('nobody caught me'));\nsetTimeout(() => console.log('still running'), 10);"))
		ms := c.until("rej")
		errs := only(ms, "error")
		if len(errs) != 1 || errs[0].str("kind") != "RUNTIME_ERROR" || !strings.Contains(errs[0].str("message"), "Uncaught (in promise) Error: nobody caught me") || errs[0].num("line") != 1 {
			t.Errorf("errors = %v", errs)
		}
		if logs := only(ms, "log"); len(logs) != 1 || ms[len(ms)-1].str("outcome") != "error" {
			t.Errorf("messages = %s; want the run to go on after the rejection and end error", types(ms))
		}
	})
	t.Run("host globals", func(t *testing.T) {
		c.send(runMsg("sec", "main.ts", "console.log(typeof process, typeof fetch);\nfetch('http://example.com');"))
		ms := c.until("sec")
		errs := only(ms, "error")
		if len(errs) != 1 || errs[0].str("kind") != "SECURITY_ERROR" || !strings.HasPrefix(errs[0].str("message"), "fetch is not available") {
			t.Errorf("errors = %v", errs)
		}
	})
	t.Run("stack two files deep", func(t *testing.T) {
		c.send(runMsg("stk", "src/main.ts", "import { a } from './a';\na();", "src/a.ts", "import { b } from './b';\nexport const a = () => b();", "src/b.ts", "export function b() {\n  throw new Error('deep');\n}"))
		errs := only(c.until("stk"), "error")
		if len(errs) != 1 || errs[0].str("file") != "src/b.ts" || errs[0].num("line") != 2 || !strings.Contains(errs[0].str("stack"), "src/a.ts:2") || !strings.Contains(errs[0].str("stack"), "src/main.ts:2") {
			t.Errorf("errors = %v", errs)
		}
	})
	t.Run("deterministic", func(t *testing.T) {
		var streams []string
		for i := range 2 {
			id := fmt.Sprintf("det%d", i)
			run := runMsg(id, "main.ts", "import { facts } from 'playground';\nfacts.r = Math.random();\nawait new Promise((r) => setTimeout(r, 60000));\nconsole.log(Date.now(), performance.now(), crypto.randomUUID());")
			run["deterministic"] = true
			c.send(run)
			var b strings.Builder
			for _, m := range c.until(id) {
				delete(m, "id")
				delete(m, "durationMs")
				delete(m, "stats")
				j, _ := json.Marshal(m)
				b.Write(j)
			}
			streams = append(streams, b.String())
		}
		if streams[0] != streams[1] || !strings.Contains(streams[0], "1704067260000 60000") {
			t.Errorf("deterministic streams differ or lack virtual time:\n%s\n%s", streams[0], streams[1])
		}
	})
}
