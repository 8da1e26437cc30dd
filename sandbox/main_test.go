package sandbox

import (
	"testing"

	"go.uber.org/goleak"

	"github.com/playground-dev/playground/sandbox/worker"
)

func TestMain(m *testing.M) {
	worker.ServeIfWorker() // the pool re-executes this test binary as its worker
	goleak.VerifyTestMain(m)
}

// newTestPool returns a pool whose workers are this test binary; it is
// closed when the test ends.
func newTestPool(t testing.TB, cfg Config) *Pool {
	t.Helper()
	if cfg.Log == nil {
		cfg.Log = testLogger(t)
	}
	p, err := NewPool(cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { p.Close() })
	return p
}
