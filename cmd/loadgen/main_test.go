package main

import (
	"context"
	"encoding/json"
	"fmt"
	"github.com/playground-dev/playground/engine"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/playground-dev/playground/ratelimit"
	"github.com/playground-dev/playground/ratelimit/redistest"
	"github.com/playground-dev/playground/runs"
	"github.com/playground-dev/playground/sandbox"
	"github.com/playground-dev/playground/sandbox/worker"
	"github.com/playground-dev/playground/web"
	"github.com/playground-dev/playground/ws"
)

func TestMain(m *testing.M) {
	worker.ServeIfWorker() // the pool re-executes this test binary as its worker
	os.Exit(m.Run())
}

// loadServer serves a pool of workers with no rate limit, as the
// benchmarks run the server (-rate 1e6 -burst 1e6), and returns its
// address; it is closed when the test ends.
func loadServer(t *testing.T, workers int) string {
	t.Helper()
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	pool, err := sandbox.NewPool(sandbox.Config{Workers: workers, Log: log})
	if err != nil {
		t.Fatal(err)
	}
	site := web.NewServer(web.Config{
		Engine: &engine.Engine{Runner: pool, Limiter: ratelimit.New(ratelimit.Config{PerSecond: 1e6, Burst: 1e6}),
			Limits: ws.Limits{MaxMessageBytes: 1 << 20}, Log: log},
		PoolStats: func() any { return pool.Stats() },
		Log:       log,
	})
	srv := httptest.NewServer(site)
	t.Cleanup(func() {
		srv.Close()
		site.Close()
		pool.Close()
	})
	return strings.TrimPrefix(srv.URL, "http://")
}

func TestLoadgenReportsRuns(t *testing.T) {
	addr := loadServer(t, 2)
	var out strings.Builder
	if err := run(t.Context(), []string{"-addr", addr, "-conns", "4", "-duration", "500ms", "-idle", "5"}, &out); err != nil {
		t.Fatalf("run: %v\n%s", err, out.String())
	}
	m := regexp.MustCompile(`runs +(\d+) \((\d+) runs/s\) +ok=(\d+)`).FindStringSubmatch(out.String())
	if m == nil {
		t.Fatalf("report has no runs line:\n%s", out.String())
	}
	if n, _ := strconv.Atoi(m[1]); n < 10 || m[1] != m[3] {
		t.Errorf("runs = %s, ok = %s; want at least 10, all ok:\n%s", m[1], m[3], out.String())
	}
	for _, want := range []string{"latency ok    p50", "memory idle", "idle sockets  5"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("report lacks %q:\n%s", want, out.String())
		}
	}
}

// TestLoadgenRunsAFile: -file replaces the hello with one file: a snippet
// that imports a library runs ok, one that throws ends error (so the file
// is what ran), and a missing file is an error before any load.
func TestLoadgenRunsAFile(t *testing.T) {
	addr := loadServer(t, 1)
	dir := t.TempDir()
	for name, tc := range map[string]struct{ src, outcome string }{
		"lodash.js": {"import _ from 'lodash';\nconsole.log(_.chunk([1, 2, 3], 2).length);\n", "ok"},
		"throws.ts": {"const n: number = 1;\nthrow new Error('no ' + n);\n", "error"},
	} {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, []byte(tc.src), 0o644); err != nil {
			t.Fatal(err)
		}
		var out strings.Builder
		if err := run(t.Context(), []string{"-addr", addr, "-conns", "1", "-duration", "300ms", "-file", path}, &out); err != nil {
			t.Fatalf("%s: run: %v\n%s", name, err, out.String())
		}
		m := regexp.MustCompile(`runs +(\d+) \(\d+ runs/s\) +(\w+)=(\d+)\n`).FindStringSubmatch(out.String())
		if m == nil || m[1] == "0" || m[2] != tc.outcome || m[3] != m[1] {
			t.Errorf("%s: report %q; want every run %s", name, out.String(), tc.outcome)
		}
	}
	if err := run(t.Context(), []string{"-addr", addr, "-file", filepath.Join(dir, "missing.js")}, io.Discard); err == nil {
		t.Error("a missing -file: no error")
	}
}

// scenarioServer serves a pool of two workers (with the default reserve)
// whose host has sleep(ms), and caps runs at 2, sockets at 4 and
// connections at 6 per IP, as the real server caps them by flags.
func scenarioServer(t *testing.T) string {
	t.Helper()
	return scenarioServerWith(t, nil)
}

// scenarioServerWith is scenarioServer whose engine has hub (nil: none).
func scenarioServerWith(t *testing.T, hub *runs.Hub) string {
	t.Helper()
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	sleep := func(ctx context.Context, c sandbox.HostCall) (json.RawMessage, error) {
		var ms float64
		if len(c.Args) > 0 {
			_ = json.Unmarshal(c.Args[0], &ms)
		}
		select {
		case <-time.After(time.Duration(ms) * time.Millisecond):
		case <-ctx.Done():
			return nil, ctx.Err()
		}
		return c.Args[0], nil
	}
	pool, err := sandbox.NewPool(sandbox.Config{Workers: 2, Log: log, Host: map[string]sandbox.HostFunc{"sleep": sleep}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { pool.Close() })
	site := web.NewServer(web.Config{
		Engine: &engine.Engine{Runner: pool, Limiter: ratelimit.New(ratelimit.Config{PerSecond: 1e6, Burst: 1e6}),
			Limits: ws.Limits{MaxMessageBytes: 1 << 20}, Runs: ratelimit.NewLocalCounts(2), Hub: hub, Log: log},
		PoolStats: func() any { return pool.Stats() },
		Sockets:   ratelimit.NewLocalCounts(4),
		Log:       log,
	})
	srv := httptest.NewUnstartedServer(site)
	srv.Listener = web.LimitListener(srv.Listener, web.ConnLimits{PerIP: 6, Log: log})
	srv.Start()
	t.Cleanup(srv.Close)
	t.Cleanup(func() { site.Close() })
	return strings.TrimPrefix(srv.URL, "http://")
}

// field returns the first submatch of pattern in report, or fails.
func field(t *testing.T, report, pattern string) string {
	t.Helper()
	m := regexp.MustCompile(pattern).FindStringSubmatch(report)
	if m == nil {
		t.Fatalf("report lacks %s:\n%s", pattern, report)
	}
	return m[1]
}

// TestScenarioFloodSleep: the attacker's sockets past the per-IP cap are
// refused with 429, its runs past the per-IP run cap end busy, and the
// victim (another source address) is served, never busy; the server's
// RSS is sampled (the server is this process, found by its port).
func TestScenarioFloodSleep(t *testing.T) {
	addr := scenarioServer(t)
	var out strings.Builder
	if err := run(t.Context(), []string{"-scenario", "flood-sleep", "-addr", addr, "-duration", "3s",
		"-attack-sockets", "6", "-victim-every", "50ms"}, &out); err != nil {
		t.Fatalf("run: %v\n%s", err, out.String())
	}
	r := out.String()
	if got := field(t, r, `most open at once (\d+)`); got != "4" {
		t.Errorf("attacker sockets open at once = %s; want 4 (the cap):\n%s", got, r)
	}
	if field(t, r, `refused \d+ \((429=\d+)\)`) == "" {
		t.Errorf("no 429 refusals:\n%s", r)
	}
	if busy := field(t, r, `attacker runs .*busy=(\d+)`); busy == "0" {
		t.Errorf("the attacker's 3rd concurrent run was not busy:\n%s", r)
	}
	if ok, _ := strconv.Atoi(field(t, r, `victim runs +ok=(\d+)`)); ok < 3 {
		t.Errorf("victim ok runs = %d; want several:\n%s", ok, r)
	}
	if strings.Contains(field(t, r, `victim runs +(.*);`), "busy") {
		t.Errorf("the victim was answered busy:\n%s", r)
	}
	if field(t, r, `server RSS +start ([\d.]+) MiB`) == "0.0" || !strings.Contains(r, fmt.Sprintf("pid %d", os.Getpid())) {
		t.Errorf("RSS not sampled from this process (pid %d):\n%s", os.Getpid(), r)
	}
	for _, want := range []string{"victim ok     p50", "goal          victim p99", "server CPU"} {
		if !strings.Contains(r, want) {
			t.Errorf("report lacks %q:\n%s", want, r)
		}
	}
}

// TestScenarioSockets: the attacker holds at most the per-IP cap, and the
// victim still connects for each of its runs.
func TestScenarioSockets(t *testing.T) {
	addr := scenarioServer(t)
	var out strings.Builder
	if err := run(t.Context(), []string{"-scenario", "sockets", "-addr", addr, "-duration", "2s",
		"-attack-sockets", "50", "-pid", strconv.Itoa(os.Getpid())}, &out); err != nil {
		t.Fatalf("run: %v\n%s", err, out.String())
	}
	r := out.String()
	if got := field(t, r, `most open at once (\d+)`); got != "4" {
		t.Errorf("attacker sockets open at once = %s; want 4 (the cap):\n%s", got, r)
	}
	if strings.Contains(r, "dial failed") || field(t, r, `victim runs +ok=(\d+)`) == "0" {
		t.Errorf("the victim could not connect or run:\n%s", r)
	}
}

func TestScenarioBadFlags(t *testing.T) {
	for _, args := range [][]string{
		{"-scenario", "nope"},
		{"-scenario", "sockets", "-attacker", "not-an-ip"},
		{"-scenario", "sockets", "-victim", "x"},
		{"-scenario", "sockets", "-attacker", "0"},
	} {
		if err := run(t.Context(), args, io.Discard); err == nil {
			t.Errorf("run(%q) = nil; want an error", args)
		}
	}
}

func TestSources(t *testing.T) {
	got, err := sources("300")
	if err != nil || len(got) != 300 || got[0] != "127.0.1.1" || got[249] != "127.0.1.250" || got[250] != "127.0.2.1" {
		t.Errorf("sources(300) = %v…, %v", got[:3], err)
	}
	if got, err := sources("127.0.0.2, 127.0.0.4"); err != nil || len(got) != 2 || got[1] != "127.0.0.4" {
		t.Errorf("sources(list) = %v, %v", got, err)
	}
}

func TestListenerPID(t *testing.T) {
	srv := httptest.NewServer(http.NotFoundHandler())
	defer srv.Close()
	_, port, _ := strings.Cut(strings.TrimPrefix(srv.URL, "http://127.0.0.1"), ":")
	pid, err := listenerPID(port)
	if err != nil || pid != os.Getpid() {
		t.Errorf("listenerPID(%s) = %d, %v; want this process, %d", port, pid, err, os.Getpid())
	}
	if rss(pid) <= 0 || fdCount(pid) <= 0 {
		t.Errorf("rss = %d, fds = %d; want both positive", rss(pid), fdCount(pid))
	}
	if rss(-1) != -1 || fdCount(-1) != -1 || cpuTime(-1) != -1 {
		t.Error("rss, fdCount or cpuTime of no process is not -1")
	}
	if cpuTime(pid) <= 0 {
		t.Errorf("cpuTime = %v; want positive (this test process has run)", cpuTime(pid))
	}
}

// TestScenarioNoAttack: the baseline runs the victim alone.
func TestScenarioNoAttack(t *testing.T) {
	addr := scenarioServer(t)
	var out strings.Builder
	if err := run(t.Context(), []string{"-scenario", "flood-sleep", "-no-attack", "-addr", addr, "-duration", "1s",
		"-victim-every", "50ms", "-pid", strconv.Itoa(os.Getpid())}, &out); err != nil {
		t.Fatalf("run: %v\n%s", err, out.String())
	}
	r := out.String()
	if field(t, r, `sockets opened (\d+)`) != "0" || !strings.Contains(r, "attacker none") {
		t.Errorf("the baseline attacked:\n%s", r)
	}
	if ok, _ := strconv.Atoi(field(t, r, `victim runs +ok=(\d+)`)); ok < 3 || !strings.Contains(r, "victim server queueMs") {
		t.Errorf("victim ok runs = %d; want several, with the server's queue times:\n%s", ok, r)
	}
}

// TestScenarioConnections: idle keep-alive connections from the attacker
// stop at the listener's per-IP cap (refusals counted by status), and the
// victim still connects for each run.
func TestScenarioConnections(t *testing.T) {
	addr := scenarioServer(t)
	var out strings.Builder
	if err := run(t.Context(), []string{"-scenario", "connections", "-addr", addr, "-duration", "2s",
		"-attack-sockets", "50", "-pid", strconv.Itoa(os.Getpid())}, &out); err != nil {
		t.Fatalf("run: %v\n%s", err, out.String())
	}
	r := out.String()
	if got := field(t, r, `most open at once (\d+)`); got != "6" {
		t.Errorf("attacker connections open at once = %s; want 6 (the cap):\n%s", got, r)
	}
	if !strings.Contains(r, "429=") {
		t.Errorf("no 429 refusals counted:\n%s", r)
	}
	if strings.Contains(r, "dial failed") || field(t, r, `victim runs +ok=(\d+)`) == "0" {
		t.Errorf("the victim could not connect or run:\n%s", r)
	}
}

// TestScenarioReattach: detached runs cut off again and again lose and
// duplicate nothing across reattaches (the full 1,000 is the benchmark in
// docs/benchmarks.md).
func TestScenarioReattach(t *testing.T) {
	hub := runs.New(runs.Config{})
	t.Cleanup(hub.Close)
	addr := scenarioServerWith(t, hub)
	var out strings.Builder
	if err := run(t.Context(), []string{"-scenario", "reattach", "-addr", addr, "-reattaches", "60", "-lines", "100", "-victim", "127.0.0.1"}, &out); err != nil {
		t.Fatalf("%v\n%s", err, out.String())
	}
	if field(t, out.String(), `(\d+) forced disconnects`) != "60" || field(t, out.String(), `lost (\d+)`) != "0" || field(t, out.String(), `duplicated (\d+)`) != "0" {
		t.Fatalf("report:\n%s", out.String())
	}
}

// TestScenarioReattachAcrossInstances: reattaches alternate between two
// instances sharing one redis-server; nothing is lost or duplicated.
func TestScenarioReattachAcrossInstances(t *testing.T) {
	r := redistest.Start(t)
	var addrs []string
	for range 2 {
		s, err := runs.NewRedisStream(runs.RedisConfig{URL: r.URL()})
		if err != nil {
			t.Fatal(err)
		}
		hub := runs.New(runs.Config{Stream: s})
		t.Cleanup(func() { hub.Close(); s.Close() })
		addrs = append(addrs, scenarioServerWith(t, hub))
	}
	var out strings.Builder
	if err := run(t.Context(), []string{"-scenario", "reattach", "-addr", addrs[0], "-reattach-to", addrs[1], "-reattaches", "40", "-lines", "100", "-victim", "127.0.0.1"}, &out); err != nil {
		t.Fatalf("%v\n%s", err, out.String())
	}
	if field(t, out.String(), `(\d+) instances`) != "2" || field(t, out.String(), `lost (\d+)`) != "0" || field(t, out.String(), `duplicated (\d+)`) != "0" {
		t.Fatalf("report:\n%s", out.String())
	}
}
