package worker

import (
	"testing"

	"github.com/playground-dev/playground/sandbox/pipe"
)

// TestProgramCacheIsPerClient reproduces issue 22's side channel:
// done.stats.bundleMs was 0.001 on a program-cache hit, so a client
// confirmed a PIN inside another client's snippet by submitting
// candidates. Another client's identical snippet is a miss (bundled
// again, its own entry, so its bundleMs is a real bundle's); the same
// client's is a hit.
func TestProgramCacheIsPerClient(t *testing.T) {
	c := startWorker(t)
	src := "const pin = '4821';\nconsole.log(pin.length);"
	for i, step := range []struct {
		client  string
		entries int
	}{{"token-a", 1}, {"token-b", 2}, {"token-a", 2}, {"token-b", 2}} {
		j := job(src)
		j.Client = step.client
		c.send(pipe.Command{Op: pipe.OpRun, Job: j})
		if _, res := c.result(nil); res.Outcome != pipe.OutcomeOK {
			t.Fatalf("run %d: %s", i, res.Outcome)
		}
		if got := c.cacheLen(); got != step.entries {
			t.Errorf("run %d (%s): %d cached programs; want %d", i, step.client, got, step.entries)
		}
	}
}

// TestPreparedRuntimeIsPerClient: a runtime prepared after one client's
// run with libraries serves only that client; another client's run with
// the same libraries builds its own.
func TestPreparedRuntimeIsPerClient(t *testing.T) {
	c := startWorker(t)
	j := job(lodashRun)
	j.Client = "token-a"
	c.send(pipe.Command{Op: pipe.OpRun, Job: j})
	if _, res := c.result(nil); res.Outcome != pipe.OutcomeOK {
		t.Fatalf("run: %s", res.Outcome)
	}
	p := c.wk.next
	if p == nil || p.key.client != "token-a" {
		t.Fatalf("prepared %+v; want one for token-a", p)
	}
	j = job(lodashRun)
	j.Client = "token-b"
	c.send(pipe.Command{Op: pipe.OpRun, Job: j})
	if _, res := c.result(nil); res.Outcome != pipe.OutcomeOK {
		t.Fatalf("run: %s", res.Outcome)
	}
	if c.wk.next == p {
		t.Error("token-a's prepared runtime is still there after token-b's run (it should have been discarded)")
	}
}
