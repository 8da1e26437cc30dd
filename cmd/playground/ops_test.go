package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/coder/websocket"
	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"

	"github.com/playground-dev/playground/ratelimit/redistest"
)

// get fetches url and returns the status and body.
func get(t *testing.T, url string) (int, string, http.Header) {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp.StatusCode, string(b), resp.Header
}

// scrape parses GET /metrics with the Prometheus text parser.
func scrape(t *testing.T, addr string) map[string]*dto.MetricFamily {
	t.Helper()
	resp, err := http.Get("http://" + addr + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	p := expfmt.NewTextParser(model.UTF8Validation)
	fams, err := p.TextToMetricFamilies(resp.Body)
	if err != nil {
		t.Fatalf("parse /metrics: %v", err)
	}
	return fams
}

// value sums the samples of family name whose labels include want.
func value(fams map[string]*dto.MetricFamily, name string, want map[string]string) (float64, bool) {
	f, ok := fams[name]
	if !ok {
		return 0, false
	}
	sum := 0.0
	for _, m := range f.GetMetric() {
		match := true
		for k, v := range want {
			found := false
			for _, l := range m.GetLabel() {
				if l.GetName() == k && l.GetValue() == v {
					found = true
				}
			}
			match = match && found
		}
		if !match {
			continue
		}
		switch {
		case m.Counter != nil:
			sum += m.GetCounter().GetValue()
		case m.Gauge != nil:
			sum += m.GetGauge().GetValue()
		case m.Histogram != nil:
			sum += float64(m.GetHistogram().GetSampleCount())
		}
	}
	return sum, true
}

// TestMetricsAndReadiness scrapes the real server's /metrics after runs of
// several outcomes and checks /readyz.
func TestMetricsAndReadiness(t *testing.T) {
	addr := server(t, "-rate", "0.01", "-burst", "3")
	c := dial(t, addr)
	c.send(runMsg("ok", "main.ts", "console.log('hi')"))
	c.until("ok")
	c.send(runMsg("err", "main.ts", "throw new Error('x')"))
	c.until("err")
	c.send(runMsg("bad", "main.ts", "import 'left-pad';"))
	c.until("bad")
	c.send(runMsg("limited", "main.ts", "1")) // the 4th run of a burst of 3
	c.until("limited")
	status, body, _ := get(t, "http://"+addr+"/readyz")
	if status != 200 || !strings.HasPrefix(body, "ready") || !strings.Contains(body, "ok workers") {
		t.Errorf("/readyz = %d %q; want 200 ready", status, body)
	}

	fams := scrape(t, addr)
	for _, tc := range []struct {
		name   string
		labels map[string]string
		min    float64
	}{
		{"playground_runs_total", map[string]string{"outcome": "ok"}, 1},
		{"playground_runs_total", map[string]string{"outcome": "error", "error_kind": "RUNTIME_ERROR"}, 1},
		{"playground_runs_total", map[string]string{"outcome": "error", "error_kind": "BUNDLE_ERROR"}, 1},
		{"playground_refusals_total", map[string]string{"reason": "rate_limited"}, 1},
		{"playground_run_duration_seconds", nil, 2},
		{"playground_sessions_open", nil, 1},
		{"playground_workers_live", nil, 1},
		{"playground_http_requests_total", map[string]string{"route": "GET /readyz", "code": "200"}, 1},
		{"playground_build_info", nil, 1},
		{"go_goroutines", nil, 1},
		{"process_resident_memory_bytes", nil, 1},
	} {
		v, ok := value(fams, tc.name, tc.labels)
		if !ok || v < tc.min {
			t.Errorf("%s%v = %v (present %v); want ≥ %v", tc.name, tc.labels, v, ok, tc.min)
		}
	}
	for name, f := range fams {
		for _, m := range f.GetMetric() {
			for _, l := range m.GetLabel() {
				if strings.Contains(l.GetValue(), "127.0.0.1") {
					t.Errorf("%s has a label holding a client address: %s=%s", name, l.GetName(), l.GetValue())
				}
			}
		}
	}
}

// TestDrainFinishesRunsThenGoesAway: on shutdown a run in flight finishes
// (within -drain-timeout) and gets its done; meanwhile /readyz fails, new
// sockets are refused with 503 and Retry-After, and new runs on the open
// socket end busy; then the socket closes with 1001.
func TestDrainFinishesRunsThenGoesAway(t *testing.T) {
	addr, stop := startServer(t, "-drain-timeout", "10s")
	c, other := dial(t, addr), dial(t, addr)
	c.send(runMsg("slow", "main.ts", "console.log('start');\nawait new Promise((r) => setTimeout(r, 1500));\nconsole.log('end');"))
	first := c.untilStarted()
	stopped := make(chan error, 1)
	go func() { stopped <- stop() }()
	waitFor(t, "/readyz to fail", func() bool {
		status, body, _ := get(t, "http://"+addr+"/readyz")
		return status == http.StatusServiceUnavailable && strings.Contains(body, "FAIL draining")
	})
	status, _, h := get(t, "http://"+addr+"/ws")
	if status != http.StatusServiceUnavailable || h.Get("Retry-After") == "" {
		t.Errorf("new socket while draining: %d, Retry-After %q; want 503 with Retry-After", status, h.Get("Retry-After"))
	}
	other.send(runMsg("late", "main.ts", "1")) // on another socket: a run on c would cancel c's
	late := other.until("late")
	other.CloseNow() // a peer that does not read would hold the close handshake for its 5s timeout
	slow := only(c.continueUntil("slow", first), "done")
	if late[0].str("type") != "done" || late[0].str("outcome") != "busy" || late[0].num("retryAfterMs") <= 0 {
		t.Errorf("a run sent while draining: %v; want done busy with retryAfterMs", late)
	}
	if slow[0].str("outcome") != "ok" {
		t.Errorf("the run in flight: %v; want it to finish ok within the drain timeout", slow[0])
	}
	_, err := c.Next()
	if websocket.CloseStatus(err) != websocket.StatusGoingAway {
		t.Errorf("after the drain: %v; want a close with 1001", err)
	}
	if err := <-stopped; err != nil {
		t.Errorf("run: %v", err)
	}
}

// TestDrainCancelsRunsPastTimeout: a run that outlives -drain-timeout ends
// cancelled, with its done, before the socket closes with 1001.
func TestDrainCancelsRunsPastTimeout(t *testing.T) {
	addr, stop := startServer(t, "-drain-timeout", "200ms")
	c := dial(t, addr)
	c.send(runMsg("forever", "main.ts", "console.log('before');\nwhile (true) {}"))
	var seen []msg
	for len(seen) == 0 || seen[len(seen)-1].str("type") != "log" {
		seen = append(seen, c.read())
	}
	start := time.Now()
	go stop()
	ms := c.continueUntil("forever", seen)
	if done := ms[len(ms)-1]; done.str("outcome") != "cancelled" {
		t.Errorf("done = %v; want cancelled", done)
	}
	if d, wait := time.Since(start), 200*time.Millisecond-cancelMargin(200*time.Millisecond); d < wait {
		t.Errorf("cancelled after %v; want the drain timeout less its cancel margin (%v) waited first", d, wait)
	}
	if _, err := c.Next(); websocket.CloseStatus(err) != websocket.StatusGoingAway {
		t.Errorf("after the done: %v; want a close with 1001", err)
	}
}

// TestInstancesShareLimitsThroughRedis: two server instances and one Redis
// give one client IP one burst between them; with Redis killed, runs fall
// back to in-process limits and none fails, and /readyz says why.
func TestInstancesShareLimitsThroughRedis(t *testing.T) {
	r := redistest.Start(t)
	// -redis-timeout: this tests sharing; a script slowed past the 200 ms
	// default by a loaded machine would decide in-process (and flake).
	flags := []string{"-redis", r.URL(), "-redis-timeout", "10s", "-rate", "0.01", "-burst", "4", "-workers", "1"}
	a := server(t, flags...)
	b := server(t, flags...)
	ca, cb := dial(t, a), dial(t, b)
	outcomes := map[string]int{}
	for i := range 12 {
		c := ca
		if i%2 == 1 {
			c = cb
		}
		id := fmt.Sprintf("r%d", i)
		c.send(runMsg(id, "main.ts", "1"))
		ms := c.until(id)
		outcomes[ms[len(ms)-1].str("outcome")]++
	}
	if outcomes["ok"] != 4 || outcomes["rate_limited"] != 8 {
		t.Errorf("12 runs from one IP over two instances: %v; want 4 ok (one shared burst) and 8 rate_limited", outcomes)
	}

	r.Kill()
	waitFor(t, "/readyz to report Redis down", func() bool {
		status, body, _ := get(t, "http://"+a+"/readyz")
		return status == http.StatusServiceUnavailable && strings.Contains(body, "redis unreachable")
	})
	for i := range 4 { // a fresh in-process bucket per instance: the burst again
		id := fmt.Sprintf("f%d", i)
		ca.send(runMsg(id, "main.ts", "1"))
		ms := ca.until(id)
		if o := ms[len(ms)-1].str("outcome"); o != "ok" {
			t.Errorf("run %s with Redis down: %s; want ok (in-process fallback)", id, o)
		}
	}
	if v, _ := value(scrape(t, a), "playground_redis_fallbacks_total", nil); v < 1 {
		t.Errorf("playground_redis_fallbacks_total = %v; want the outage counted", v)
	}
}

// lockedBuffer collects a server's log (run writes it from many goroutines).
type lockedBuffer struct {
	mu sync.Mutex
	b  strings.Builder
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// TestLogLines: one structured line per HTTP request and per run, with the
// outcome, timings, bytes and client key; never the snippet's source or
// output.
func TestLogLines(t *testing.T) {
	var logs lockedBuffer
	ctx, cancel := context.WithCancel(context.Background())
	ready := make(chan string, 1)
	errc := make(chan error, 1)
	go func() {
		errc <- run(ctx, []string{"-addr", "127.0.0.1:0", "-log-level", "info"}, func(string) string { return "" }, &logs, ready)
	}()
	addr := <-ready
	c := dial(t, addr)
	c.send(runMsg("logged", "main.ts", "const secret = 'SOURCE-MARKER';\nconsole.log('OUTPUT-' + 'MARKER');\nexport default 'RESULT-MARKER';"))
	c.until("logged")
	get(t, "http://"+addr+"/healthz")
	c.CloseNow()
	cancel()
	if err := <-errc; err != nil {
		t.Fatal(err)
	}
	out := logs.String()
	for _, want := range []string{
		`msg="run finished"`, "run=logged", "key=127.0.0.1", "outcome=ok", "runMs=", "queueMs=", "outputBytes=",
		`msg="http request" method=GET route="GET /healthz" status=200`,
		`route="GET /ws" status=101`,
	} {
		if !strings.Contains(out, want) {
			t.Errorf("the log lacks %q:\n%s", want, out)
		}
	}
	for _, leak := range []string{"SOURCE-MARKER", "OUTPUT-MARKER", "RESULT-MARKER"} {
		if strings.Contains(out, leak) {
			t.Errorf("the log holds the snippet's %s", leak)
		}
	}
	if n := strings.Count(out, `msg="run finished"`); n != 1 {
		t.Errorf("%d run lines for one run; want 1", n)
	}
}

// TestDrainDelay: with -drain-delay, /readyz fails at once while new sockets
// and runs are still served for that long (a balancer that does not retry a
// refused upgrade has time to stop sending clients).
func TestDrainDelay(t *testing.T) {
	addr, stop := startServer(t, "-drain-delay", "1500ms")
	go stop()
	waitFor(t, "/readyz to fail", func() bool {
		status, _, _ := get(t, "http://"+addr+"/readyz")
		return status == http.StatusServiceUnavailable
	})
	c := dial(t, addr) // still accepted
	c.send(runMsg("during", "main.ts", "console.log('still served')"))
	if ms := c.until("during"); ms[len(ms)-1].str("outcome") != "ok" {
		t.Errorf("a run during the drain delay: %v; want ok", ms[len(ms)-1])
	}
}

// TestDrainEndsHTTPRunsWithinTimeout: a run in flight on the HTTP API,
// which http.Server.Shutdown waits for, is cancelled within -drain-timeout
// and gets its done; a fixed shutdown wait in front of the cancel once made
// it end 10 s past the timeout. The bound is the drain timeout plus a
// loaded machine's slack, far below that 10 s.
func TestDrainEndsHTTPRunsWithinTimeout(t *testing.T) {
	addr, stop := startServer(t, "-drain-timeout", "1s", "-max-timeout", "60s")
	type result struct {
		outcome string
		err     error
	}
	res := make(chan result, 1)
	go func() {
		body := `{"code":"await new Promise((r) => setTimeout(r, 50000));","timeoutMs":55000}`
		resp, err := http.Post("http://"+addr+"/api/v1/run", "application/json", strings.NewReader(body))
		if err != nil {
			res <- result{err: err}
			return
		}
		defer resp.Body.Close()
		var r struct{ Outcome string }
		err = json.NewDecoder(resp.Body).Decode(&r)
		res <- result{r.Outcome, err}
	}()
	waitFor(t, "the run to start", func() bool { return stats(t, addr)["activeRuns"] == 1 })
	start := time.Now()
	stopped := make(chan error, 1)
	go func() { stopped <- stop() }()
	r := <-res
	if d := time.Since(start); r.err != nil || r.outcome != "cancelled" || d > 6*time.Second {
		t.Errorf("the HTTP run in flight: outcome %q, err %v, after %v; want cancelled within the 1 s drain timeout (+ slack)", r.outcome, r.err, d)
	}
	if err := <-stopped; err != nil {
		t.Errorf("run: %v", err)
	}
}

// TestRelativePathFlags: a relative -libraries works (workers run in
// another directory, where it once named nothing and every worker failed
// to start), and a flag naming a missing file or directory, or one of the
// wrong kind, is an exit with a message naming the flag.
func TestRelativePathFlags(t *testing.T) {
	dir := t.TempDir()
	if err := os.Mkdir(filepath.Join(dir, "libs"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "libs", "greeter.js"), []byte("export const greet = (n) => `hi ${n}`;\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Chdir(dir)
	addr := server(t, "-libraries", "libs")
	body := `{"code":"import { greet } from \"greeter\";\nconsole.log(greet(1));"}`
	resp, err := http.Post("http://"+addr+"/api/v1/run", "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	var r struct {
		Outcome string
		Logs    []struct{ Text string }
	}
	err = json.NewDecoder(resp.Body).Decode(&r)
	resp.Body.Close()
	if err != nil || r.Outcome != "ok" || len(r.Logs) != 1 || r.Logs[0].Text != "hi 1" {
		t.Errorf("a run importing from a relative -libraries: %+v, %v; want ok and \"hi 1\"", r, err)
	}

	for _, tc := range []struct{ flags []string }{
		{[]string{"-libraries", "missing"}},
		{[]string{"-libraries", "libs/greeter.js"}}, // a file, not a directory
		{[]string{"-api-keys", "missing.txt"}},
		{[]string{"-api-keys", "libs"}}, // a directory, not a file
	} {
		_, err := parseFlags(tc.flags, func(string) string { return "" }, io.Discard)
		if err == nil || !strings.HasPrefix(err.Error(), tc.flags[0]+" ") {
			t.Errorf("%q: %v; want an error naming the flag", tc.flags, err)
		}
	}
}
