package metrics_test

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/playground-dev/playground/metrics"
)

func get(t *testing.T, h http.Handler, method string) (int, string, http.Header) {
	t.Helper()
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest(method, "/readyz", nil))
	return rec.Code, rec.Body.String(), rec.Header()
}

func TestReadiness(t *testing.T) {
	pool := metrics.Pool{Live: 3, Started: 3}
	draining := false
	var storeErr error
	r := metrics.NewReadiness(
		metrics.WorkersCheck(func() metrics.Pool { return pool }),
		metrics.BreakerCheck(func() metrics.Pool { return pool }),
		metrics.StoreCheck(func() error { return storeErr }, false),
		metrics.DrainCheck(func() bool { return draining }),
	)

	code, body, h := get(t, r, "GET")
	if code != 200 || body != "ready\nok workers\nok breaker\nok redis\nok draining\n" {
		t.Errorf("all checks pass: %d %q; want 200 and each check ok", code, body)
	}
	if h.Get("Cache-Control") != "no-store" || !strings.HasPrefix(h.Get("Content-Type"), "text/plain") {
		t.Errorf("headers = %v", h)
	}

	cases := []struct {
		name   string
		set    func()
		reason string
	}{
		{"no workers", func() { pool.Live, pool.Started = 0, 0 }, "FAIL workers: no worker process has started\n"},
		{"no worker can start", func() { pool.Started, pool.StartFailures = 0, 4 }, "FAIL workers: no worker process has started: 4 failed to start"},
		{"breaker", func() { pool.BreakerOpen = true }, "FAIL breaker: circuit breaker open"},
		{"redis", func() { storeErr = errors.New("redis unreachable, using in-process limits: connection refused") },
			"FAIL redis: redis unreachable, using in-process limits: connection refused\n"},
		{"draining", func() { draining = true }, "FAIL draining: draining: shutting down"},
	}
	for _, c := range cases {
		pool, draining, storeErr = metrics.Pool{Live: 3, Started: 3}, false, nil
		c.set()
		code, body, _ := get(t, r, "GET")
		if code != 503 || !strings.HasPrefix(body, "not ready\n") || !strings.Contains(body, c.reason) {
			t.Errorf("%s: %d %q; want 503 with %q", c.name, code, body, c.reason)
		}
		if strings.Count(body, "FAIL") != 1 {
			t.Errorf("%s: body %q; want exactly one failing check", c.name, body)
		}
		code, body, _ = get(t, r, "HEAD")
		if code != 503 || body != "" {
			t.Errorf("%s: HEAD = %d %q; want 503 and no body", c.name, code, body)
		}
	}
}

func TestReadinessWarnDoesNotFail(t *testing.T) {
	r := metrics.NewReadiness(
		metrics.StoreCheck(func() error { return errors.New("redis unreachable, using in-process limits: i/o timeout") }, true),
		metrics.Check{Name: "ctx", Func: func(ctx context.Context) error {
			if _, ok := ctx.Deadline(); !ok {
				return errors.New("no deadline")
			}
			return nil
		}},
	)
	code, body, _ := get(t, r, "GET")
	if code != 200 || body != "ready\nWARN redis: redis unreachable, using in-process limits: i/o timeout\nok ctx\n" {
		t.Errorf("warn-only failure: %d %q; want 200 with the warning in the body", code, body)
	}
	ready, results := r.Check(context.Background())
	if !ready || len(results) != 2 || results[0].Err == nil || !results[0].Warn {
		t.Errorf("Check = %v %+v", ready, results)
	}
}

// TestReadinessDegradedIsAWarning: a check whose error is marked Degraded
// is shown as WARN and leaves the server ready, even when the check is not
// a Warn one; other errors of the same check still fail it.
func TestReadinessDegradedIsAWarning(t *testing.T) {
	var err error
	r := metrics.NewReadiness(metrics.StoreCheck(func() error { return err }, false))
	err = metrics.Degraded(errors.New("redis answers PING but not a limit script in time"))
	if code, body, _ := get(t, r, "GET"); code != 200 || body != "ready\nWARN redis: redis answers PING but not a limit script in time\n" {
		t.Errorf("degraded: %d %q; want 200 with a WARN line", code, body)
	}
	err = errors.New("redis unreachable")
	if code, body, _ := get(t, r, "GET"); code != 503 || !strings.Contains(body, "FAIL redis: redis unreachable") {
		t.Errorf("down: %d %q; want 503 with a FAIL line", code, body)
	}
}
