package main

import (
	"io"
	"log/slog"
	"net/http/httptest"
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/playground-dev/playground/ratelimit"
	"github.com/playground-dev/playground/sandbox"
	"github.com/playground-dev/playground/sandbox/worker"
	"github.com/playground-dev/playground/web"
	"github.com/playground-dev/playground/ws"
)

func TestMain(m *testing.M) {
	worker.ServeIfWorker() // the pool re-executes this test binary as its worker
	os.Exit(m.Run())
}

func TestLoadgenReportsRuns(t *testing.T) {
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	pool, err := sandbox.NewPool(sandbox.Config{Workers: 2, Log: log})
	if err != nil {
		t.Fatal(err)
	}
	defer pool.Close()
	site := web.NewServer(web.Config{
		Runner:    pool,
		Limiter:   ratelimit.New(ratelimit.Config{PerSecond: 1e6, Burst: 1e6}),
		Limits:    ws.Limits{MaxMessageBytes: 1 << 20},
		PoolStats: func() any { return pool.Stats() },
		Log:       log,
	})
	srv := httptest.NewServer(site)
	defer srv.Close()
	defer site.Close()
	var out strings.Builder
	addr := strings.TrimPrefix(srv.URL, "http://")
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
