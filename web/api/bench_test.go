package api_test

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/playground-dev/playground/engine"
	"github.com/playground-dev/playground/ratelimit"
	"github.com/playground-dev/playground/sandbox"
	"github.com/playground-dev/playground/web/api"
	"github.com/playground-dev/playground/ws"
)

// BenchmarkHTTPRunHello measures POST /api/v1/run of a hello-world snippet
// over loopback on a real pool (one client, sequential): request → whole
// JSON answer. It reports the p50 and p99 latency.
func BenchmarkHTTPRunHello(b *testing.B) {
	for _, accept := range []string{"application/json", "application/x-ndjson"} {
		b.Run(strings.TrimPrefix(accept, "application/"), func(b *testing.B) {
			pool, err := sandbox.NewPool(sandbox.Config{Workers: runtime.NumCPU()})
			if err != nil {
				b.Fatal(err)
			}
			defer pool.Close()
			lim := ratelimit.New(ratelimit.Config{PerSecond: 1e9, Burst: 1 << 30})
			h := api.New(api.Config{Engine: &engine.Engine{Runner: pool, Limiter: lim, Limits: ws.Limits{MaxFiles: 8, MaxSourceBytes: 1 << 16, MaxMessageBytes: 1 << 20}}})
			srv := httptest.NewServer(h)
			defer srv.Close()
			defer h.Close()
			body := `{"code":"console.log('hello, world')"}`
			do := func() {
				req, _ := http.NewRequest(http.MethodPost, srv.URL+"/api/v1/run", strings.NewReader(body))
				req.Header.Set("Content-Type", "application/json")
				req.Header.Set("Accept", accept)
				resp, err := http.DefaultClient.Do(req)
				if err != nil {
					b.Fatal(err)
				}
				out, _ := io.ReadAll(resp.Body)
				resp.Body.Close()
				if resp.StatusCode != 200 || !strings.Contains(string(out), `"outcome":"ok"`) {
					b.Fatalf("answer %d: %s", resp.StatusCode, out)
				}
			}
			for range 20 { // warm the bundle cache and the workers
				do()
			}
			lat := make([]time.Duration, 0, b.N)
			b.ResetTimer()
			for range b.N {
				t0 := time.Now()
				do()
				lat = append(lat, time.Since(t0))
			}
			b.StopTimer()
			slices.Sort(lat)
			b.ReportMetric(float64(lat[len(lat)/2].Microseconds())/1000, "p50-ms")
			b.ReportMetric(float64(lat[len(lat)*99/100].Microseconds())/1000, "p99-ms")
		})
	}
}

// BenchmarkHTTPTape measures what a tape costs, over loopback on a real
// pool (one client, sequential): a deterministic hello-world run without
// and with "record": true (request → the whole JSON answer, tape included),
// and POST /api/v1/replay of its tape (request → the comparison's answer).
// It reports the p50 and p99 latency.
func BenchmarkHTTPTape(b *testing.B) {
	pool, err := sandbox.NewPool(sandbox.Config{Workers: runtime.NumCPU()})
	if err != nil {
		b.Fatal(err)
	}
	defer pool.Close()
	lim := ratelimit.New(ratelimit.Config{PerSecond: 1e9, Burst: 1 << 30})
	h := api.New(api.Config{Engine: &engine.Engine{Runner: pool, Limiter: lim, Limits: ws.Limits{MaxFiles: 8, MaxSourceBytes: 1 << 16, MaxMessageBytes: 1 << 20, MaxOutputBytes: 1 << 20}}})
	srv := httptest.NewServer(h)
	defer srv.Close()
	defer h.Close()
	do := func(path, body, want string) []byte {
		req, _ := http.NewRequest(http.MethodPost, srv.URL+path, strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			b.Fatal(err)
		}
		out, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != 200 || !strings.Contains(string(out), want) {
			b.Fatalf("answer %d: %s", resp.StatusCode, out)
		}
		return out
	}
	run := `{"code":"console.log('hello, world', Math.random())","deterministic":true}`
	record := `{"code":"console.log('hello, world', Math.random())","deterministic":true,"record":true}`
	var res api.Result
	if err := json.Unmarshal(do("/api/v1/run", record, `"tape"`), &res); err != nil {
		b.Fatal(err)
	}
	tape := string(res.Tape)
	for _, c := range []struct{ name, path, body, want string }{
		{"run", "/api/v1/run", run, `"outcome":"ok"`},
		{"record", "/api/v1/run", record, `"tape"`},
		{"replay", "/api/v1/replay", tape, `"identical":true`},
	} {
		b.Run(c.name, func(b *testing.B) {
			for range 20 { // warm the bundle cache and the workers
				do(c.path, c.body, c.want)
			}
			lat := make([]time.Duration, 0, b.N)
			b.ResetTimer()
			for range b.N {
				t0 := time.Now()
				do(c.path, c.body, c.want)
				lat = append(lat, time.Since(t0))
			}
			b.StopTimer()
			slices.Sort(lat)
			b.ReportMetric(float64(lat[len(lat)/2].Microseconds())/1000, "p50-ms")
			b.ReportMetric(float64(lat[len(lat)*99/100].Microseconds())/1000, "p99-ms")
		})
	}
}
