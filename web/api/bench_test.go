package api_test

import (
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
