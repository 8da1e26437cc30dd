package metrics_test

import (
	"log/slog"
	"net"
	"strings"
	"testing"
	"time"

	dto "github.com/prometheus/client_model/go"

	"github.com/playground-dev/playground/metrics"
	"github.com/playground-dev/playground/ratelimit"
)

// TestStoreFallbackIsVisible wires a real ratelimit.Store whose Redis does
// not answer, as cmd/playground does: /metrics shows the fallback and
// /readyz says why.
func TestStoreFallbackIsVisible(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close() // nobody listens there now
	st, err := ratelimit.NewStore(ratelimit.StoreConfig{URL: "redis://" + addr, ProbeInterval: time.Hour, Log: slog.New(slog.DiscardHandler)})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	m := metrics.New(metrics.Config{Store: func() metrics.Store { return metrics.Store{Up: st.Up(), Fallbacks: st.Fallbacks()} }})
	fams := scrape(t, m.Handler())
	if v := value(t, fams, "playground_redis_up", dto.MetricType_GAUGE, nil); v != 0 {
		t.Errorf("redis_up = %v; want 0", v)
	}
	if v := value(t, fams, "playground_redis_fallbacks_total", dto.MetricType_COUNTER, nil); v != 1 {
		t.Errorf("redis_fallbacks_total = %v; want 1", v)
	}
	code, body, _ := get(t, metrics.NewReadiness(metrics.StoreCheck(st.Status, false)), "GET")
	if code != 503 || !strings.Contains(body, "FAIL redis: redis unreachable, using in-process limits: ") {
		t.Errorf("/readyz = %d %q; want 503 saying redis is unreachable and limits are in-process", code, body)
	}
}
