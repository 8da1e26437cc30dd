package metrics_test

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"

	"github.com/playground-dev/playground/metrics"
)

// scrape GETs /metrics from h as Prometheus would and parses the text format.
func scrape(t *testing.T, h http.Handler) map[string]*dto.MetricFamily {
	t.Helper()
	req := httptest.NewRequest("GET", "/metrics", nil)
	req.Header.Set("Accept", "text/plain; version=0.0.4")
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	if rec.Code != 200 {
		t.Fatalf("GET /metrics = %d: %s", rec.Code, rec.Body)
	}
	if ct := rec.Header().Get("Content-Type"); !strings.HasPrefix(ct, "text/plain") {
		t.Fatalf("Content-Type = %q; want the text format", ct)
	}
	p := expfmt.NewTextParser(model.UTF8Validation)
	fams, err := p.TextToMetricFamilies(rec.Body)
	if err != nil {
		t.Fatalf("parsing /metrics: %v", err)
	}
	return fams
}

func family(t *testing.T, fams map[string]*dto.MetricFamily, name string, typ dto.MetricType) *dto.MetricFamily {
	t.Helper()
	f, ok := fams[name]
	if !ok {
		t.Fatalf("metric %s missing", name)
	}
	if f.GetType() != typ {
		t.Fatalf("metric %s has type %v; want %v", name, f.GetType(), typ)
	}
	return f
}

func labels(m *dto.Metric) map[string]string {
	out := map[string]string{}
	for _, l := range m.GetLabel() {
		out[l.GetName()] = l.GetValue()
	}
	return out
}

// value returns the value of the sample of family name whose labels include want.
func value(t *testing.T, fams map[string]*dto.MetricFamily, name string, typ dto.MetricType, want map[string]string) float64 {
	t.Helper()
	f := family(t, fams, name, typ)
next:
	for _, m := range f.GetMetric() {
		got := labels(m)
		for k, v := range want {
			if got[k] != v {
				continue next
			}
		}
		switch typ {
		case dto.MetricType_COUNTER:
			return m.GetCounter().GetValue()
		case dto.MetricType_GAUGE:
			return m.GetGauge().GetValue()
		}
		t.Fatalf("value of %s: unsupported type", name)
	}
	t.Fatalf("metric %s has no sample with labels %v", name, want)
	return 0
}

func TestScrape(t *testing.T) {
	var poolCalls atomic.Int64
	m := metrics.New(metrics.Config{
		Pool: func() metrics.Pool {
			poolCalls.Add(1)
			return metrics.Pool{Workers: 2, Live: 3, Idle: 1, Busy: 2, Parked: 3, Queued: 5, Runs: 1234, Kills: 7, Crashes: 2,
				Restarts: 9, StartFailures: 1, PSSBytes: 28 << 20, BreakerOpen: true}
		},
		Sessions: func() metrics.Sessions { return metrics.Sessions{Open: 11, ActiveRuns: 4, QueuedRuns: 2} },
		Store:    func() metrics.Store { return metrics.Store{Up: false, Fallbacks: 3} },
		Version:  "v1.2.3",
	})
	ms := time.Millisecond
	m.RunDone("ok", "", 1*ms, 2*ms, 40*ms, 100)
	m.RunDone("ok", "", 3*ms, 2*ms, 60*ms, 50)
	m.RunDone("error", "RUNTIME_ERROR", 0, 2*ms, 5*ms, 10)
	m.RunDone("timeout", "TIMEOUT", 0, 2*ms, 5*time.Second, 0)
	m.RunDone("rate_limited", "", 0, 0, 0, 0)
	m.RunDone("busy", "", 0, 0, 0, 0)
	m.RunDone("invalid", "INVALID_REQUEST", 0, 0, 0, 0)
	m.RunDone("203.0.113.9", "run-id-42", 0, 0, 0, 0) // never a label
	m.Refused(metrics.RefusedTooManySockets)
	m.Refused(metrics.RefusedDraining)
	m.Refused("198.51.100.4")
	m.BytesSent(1000)
	m.BytesSent(24)
	m.BytesSent(-5) // ignored

	fams := scrape(t, m.Handler())
	if n := poolCalls.Load(); n != 1 {
		t.Errorf("Pool func called %d times in one scrape; want 1", n)
	}

	C, G := dto.MetricType_COUNTER, dto.MetricType_GAUGE
	checks := []struct {
		name   string
		typ    dto.MetricType
		labels map[string]string
		want   float64
	}{
		{"playground_runs_total", C, map[string]string{"outcome": "ok", "error_kind": "none"}, 2},
		{"playground_runs_total", C, map[string]string{"outcome": "error", "error_kind": "RUNTIME_ERROR"}, 1},
		{"playground_runs_total", C, map[string]string{"outcome": "timeout", "error_kind": "TIMEOUT"}, 1},
		{"playground_runs_total", C, map[string]string{"outcome": "rate_limited", "error_kind": "none"}, 1},
		{"playground_runs_total", C, map[string]string{"outcome": "invalid", "error_kind": "INVALID_REQUEST"}, 1},
		{"playground_runs_total", C, map[string]string{"outcome": "other", "error_kind": "other"}, 1},
		{"playground_runs_total", C, map[string]string{"outcome": "cancelled", "error_kind": "none"}, 0},
		{"playground_refusals_total", C, map[string]string{"reason": "rate_limited"}, 1},
		{"playground_refusals_total", C, map[string]string{"reason": "busy"}, 1},
		{"playground_refusals_total", C, map[string]string{"reason": "too_many_sockets"}, 1},
		{"playground_refusals_total", C, map[string]string{"reason": "draining"}, 1},
		{"playground_refusals_total", C, map[string]string{"reason": "too_many_runs"}, 0},
		{"playground_refusals_total", C, map[string]string{"reason": "other"}, 1},
		{"playground_run_output_bytes_total", C, nil, 160},
		{"playground_sent_bytes_total", C, nil, 1024},
		{"playground_sessions_open", G, nil, 11},
		{"playground_runs_active", G, nil, 4},
		{"playground_runs_queued", G, nil, 2},
		{"playground_workers_max", G, nil, 2},
		{"playground_workers_live", G, nil, 3},
		{"playground_workers_idle", G, nil, 1},
		{"playground_workers_busy", G, nil, 2},
		{"playground_runs_parked", G, nil, 3},
		{"playground_pool_queued_runs", G, nil, 5},
		{"playground_pool_runs_total", C, nil, 1234},
		{"playground_worker_kills_total", C, nil, 7},
		{"playground_worker_crashes_total", C, nil, 2},
		{"playground_worker_restarts_total", C, nil, 9},
		{"playground_worker_start_failures_total", C, nil, 1},
		{"playground_workers_pss_bytes", G, nil, 28 << 20},
		{"playground_pool_breaker_open", G, nil, 1},
		{"playground_redis_up", G, nil, 0},
		{"playground_redis_fallbacks_total", C, nil, 3},
		{"playground_build_info", G, map[string]string{"version": "v1.2.3"}, 1},
	}
	for _, c := range checks {
		if got := value(t, fams, c.name, c.typ, c.labels); got != c.want {
			t.Errorf("%s%v = %v; want %v", c.name, c.labels, got, c.want)
		}
	}

	// Histograms: the 5 runs that reached a worker (ok ×2, error, timeout,
	// and the unknown outcome), in seconds.
	for _, h := range []struct {
		name string
		sum  float64
	}{
		{"playground_run_queue_seconds", 0.004},
		{"playground_run_bundle_seconds", 0.008},
		{"playground_run_duration_seconds", 5.105},
	} {
		f := family(t, fams, h.name, dto.MetricType_HISTOGRAM)
		hist := f.GetMetric()[0].GetHistogram()
		if hist.GetSampleCount() != 5 {
			t.Errorf("%s count = %d; want 5 (refused runs are not timed)", h.name, hist.GetSampleCount())
		}
		if d := hist.GetSampleSum() - h.sum; d > 1e-9 || d < -1e-9 {
			t.Errorf("%s sum = %v; want %v", h.name, hist.GetSampleSum(), h.sum)
		}
	}
	// The 5s timeout run is in the 5s bucket and not in the 2.5s one.
	for _, b := range family(t, fams, "playground_run_duration_seconds", dto.MetricType_HISTOGRAM).GetMetric()[0].GetHistogram().GetBucket() {
		switch b.GetUpperBound() {
		case 2.5:
			if b.GetCumulativeCount() != 4 {
				t.Errorf("run_duration_seconds le=2.5 = %d; want 4", b.GetCumulativeCount())
			}
		case 5:
			if b.GetCumulativeCount() != 5 {
				t.Errorf("run_duration_seconds le=5 = %d; want 5", b.GetCumulativeCount())
			}
		}
	}

	bi := labels(family(t, fams, "playground_build_info", G).GetMetric()[0])
	if !strings.HasPrefix(bi["goversion"], "go") || bi["revision"] == "" {
		t.Errorf("build_info labels = %v; want goversion and revision", bi)
	}
	// The Go and process collectors.
	family(t, fams, "go_goroutines", G)
	family(t, fams, "go_memstats_heap_alloc_bytes", G)
	family(t, fams, "process_resident_memory_bytes", G)
	family(t, fams, "process_cpu_seconds_total", C)

	// Naming conventions and bounded labels over all of this package's metrics.
	allowed := map[string]map[string]bool{
		"outcome":    {"ok": true, "error": true, "timeout": true, "memory_limit": true, "output_limit": true, "cancelled": true, "rate_limited": true, "busy": true, "invalid": true, "other": true},
		"error_kind": {"none": true, "BUNDLE_ERROR": true, "SYNTAX_ERROR": true, "RUNTIME_ERROR": true, "TIMEOUT": true, "MEMORY_LIMIT": true, "OUTPUT_LIMIT": true, "SECURITY_ERROR": true, "INVALID_REQUEST": true, "INTERNAL": true, "other": true},
		"reason":     {"rate_limited": true, "busy": true, "too_many_sockets": true, "too_many_runs": true, "draining": true, "origin": true, "other": true},
	}
	for name, f := range fams {
		if !strings.HasPrefix(name, "playground_") {
			continue
		}
		switch f.GetType() {
		case dto.MetricType_COUNTER:
			if !strings.HasSuffix(name, "_total") {
				t.Errorf("counter %s does not end in _total", name)
			}
		case dto.MetricType_HISTOGRAM:
			if !strings.HasSuffix(name, "_seconds") {
				t.Errorf("histogram %s does not end in its unit", name)
			}
		case dto.MetricType_GAUGE:
			if strings.HasSuffix(name, "_total") {
				t.Errorf("gauge %s ends in _total", name)
			}
		}
		if f.GetHelp() == "" {
			t.Errorf("%s has no help", name)
		}
		for _, s := range f.GetMetric() {
			for k, v := range labels(s) {
				if name == "playground_build_info" {
					continue
				}
				if !allowed[k][v] {
					t.Errorf("%s has label %s=%q outside its bounded set", name, k, v)
				}
			}
		}
	}
}

func TestScrapeWithoutOptionalSources(t *testing.T) {
	m := metrics.New(metrics.Config{})
	fams := scrape(t, m.Handler())
	for _, absent := range []string{"playground_sessions_open", "playground_workers_live", "playground_redis_up", "playground_redis_fallbacks_total"} {
		if _, ok := fams[absent]; ok {
			t.Errorf("%s is exposed without its source configured", absent)
		}
	}
	// Run metrics exist at zero before any run, so rate() has a baseline.
	if got := value(t, fams, "playground_runs_total", dto.MetricType_COUNTER, map[string]string{"outcome": "ok"}); got != 0 {
		t.Errorf("runs_total{ok} = %v before any run; want 0", got)
	}
	if got := value(t, fams, "playground_build_info", dto.MetricType_GAUGE, nil); got != 1 {
		t.Errorf("build_info = %v; want 1", got)
	}
	// The OpenMetrics format is negotiated too.
	req := httptest.NewRequest("GET", "/metrics", nil)
	req.Header.Set("Accept", "application/openmetrics-text; version=1.0.0")
	rec := httptest.NewRecorder()
	m.Handler().ServeHTTP(rec, req)
	body, _ := io.ReadAll(rec.Body)
	if !strings.HasPrefix(rec.Header().Get("Content-Type"), "application/openmetrics-text") || !strings.HasSuffix(string(body), "# EOF\n") {
		t.Errorf("OpenMetrics scrape: Content-Type %q, body ends %q", rec.Header().Get("Content-Type"), body[max(0, len(body)-20):])
	}
}

func TestInstrumentHandler(t *testing.T) {
	m := metrics.New(metrics.Config{})
	mux := http.NewServeMux()
	mux.Handle("GET /api/thing", m.InstrumentHandler("/api/thing", false, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if _, ok := w.(http.Flusher); !ok {
			t.Error("the instrumented ResponseWriter lost http.Flusher")
		}
		if r.URL.Query().Get("fail") != "" {
			http.Error(w, "no", http.StatusTooManyRequests)
			return
		}
		w.Write([]byte("ok"))
	})))
	mux.Handle("GET /ws", m.InstrumentHandler("/ws", true, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if _, ok := w.(http.Hijacker); !ok {
			t.Error("the instrumented ResponseWriter lost http.Hijacker")
		}
		w.WriteHeader(http.StatusSwitchingProtocols)
	})))
	srv := httptest.NewServer(mux)
	defer srv.Close()
	for _, path := range []string{"/api/thing", "/api/thing", "/api/thing?fail=1", "/ws"} {
		resp, err := http.Get(srv.URL + path)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
	}
	fams := scrape(t, m.Handler())
	C := dto.MetricType_COUNTER
	for _, c := range []struct {
		labels map[string]string
		want   float64
	}{
		{map[string]string{"route": "/api/thing", "code": "200"}, 2},
		{map[string]string{"route": "/api/thing", "code": "429"}, 1},
		{map[string]string{"route": "/ws", "code": "101"}, 1},
	} {
		if got := value(t, fams, "playground_http_requests_total", C, c.labels); got != c.want {
			t.Errorf("http_requests_total%v = %v; want %v", c.labels, got, c.want)
		}
	}
	h := family(t, fams, "playground_http_request_duration_seconds", dto.MetricType_HISTOGRAM)
	if len(h.GetMetric()) != 1 || labels(h.GetMetric()[0])["route"] != "/api/thing" || h.GetMetric()[0].GetHistogram().GetSampleCount() != 3 {
		t.Errorf("http_request_duration_seconds = %v; want 3 samples for /api/thing only (WebSockets are not timed)", h.GetMetric())
	}
}
