package worker

import (
	"testing"
	"time"

	"github.com/playground-dev/playground/sandbox/pipe"
)

const lodashRun = "import _ from 'lodash';\nconsole.log(_.sum([1, 2]));"

// TestStoppedRunBuysNoPreparation reproduces issue 22's "three runs of
// import { evaluate } from 'mathjs' with timeoutMs 60 bought 8.1 s of
// worker CPU": a run that was stopped (here by its deadline, inside its
// own code after the import) starts no background preparation, so the
// worker does nothing after it that nobody pays for.
func TestStoppedRunBuysNoPreparation(t *testing.T) {
	c := startWorker(t)
	// Compile lodash first, under a run's ordinary limit: the stopped
	// runs below must reach their own code (a bundling past the deadline
	// ends the worker instead).
	c.send(pipe.Command{Op: pipe.OpRun, Job: job(lodashRun)})
	if _, res := c.result(nil); res.Outcome != pipe.OutcomeOK {
		t.Fatalf("warm-up: %s", res.Outcome)
	}
	for i := range 3 {
		j := job("import _ from 'lodash';\nconsole.log(_.sum([1]));\nwhile (true) {}")
		j.Timeout = time.Second
		c.send(pipe.Command{Op: pipe.OpRun, Job: j})
		_, res := c.result(nil)
		if res.Outcome != pipe.OutcomeTimeout {
			t.Fatalf("run %d: outcome %s; want timeout", i, res.Outcome)
		}
		if c.wk.next != nil {
			t.Errorf("run %d: a preparation started after a stopped run", i)
		}
	}
}

// TestPreparationHasADeadline: a preparation that overruns its deadline
// is abandoned (its runtime interrupted and dropped), and the next run
// runs on a runtime of its own, correctly.
func TestPreparationHasADeadline(t *testing.T) {
	c := startWorker(t)
	c.wk.maxPrepare = time.Microsecond // far shorter than evaluating lodash
	for i := range 2 {
		c.send(pipe.Command{Op: pipe.OpRun, Job: job(lodashRun)})
		evs, res := c.result(nil)
		if res.Outcome != pipe.OutcomeOK || logs(evs) != "3" {
			t.Fatalf("run %d: %s %q; want ok 3", i, res.Outcome, logs(evs))
		}
	}
	if c.wk.prepareAbandoned != 1 {
		t.Errorf("%d preparations abandoned; want 1 (the one past its deadline)", c.wk.prepareAbandoned)
	}
}

// TestPreparationNeverRunsBesideARun: a job that arrives while the last
// run's preparation is in flight stops it and waits for it before its
// own clock starts: when the next result arrives, the preparation has
// ended (it was either done or interrupted, never left running).
func TestPreparationNeverRunsBesideARun(t *testing.T) {
	c := startWorker(t)
	c.send(pipe.Command{Op: pipe.OpRun, Job: job(lodashRun)})
	if _, res := c.result(nil); res.Outcome != pipe.OutcomeOK {
		t.Fatalf("first run: %s", res.Outcome)
	}
	p := c.wk.next
	if p == nil {
		t.Fatal("no preparation after a run with a library")
	}
	c.send(pipe.Command{Op: pipe.OpRun, Job: job("console.log(1)")})
	if _, res := c.result(nil); res.Outcome != pipe.OutcomeOK {
		t.Fatalf("second run: %s", res.Outcome)
	}
	select {
	case <-p.done:
	default:
		t.Error("the preparation was still running after the next run ended")
	}
}

// TestRetainedHeapIsNotTheRunsCharge: the heap a worker retains between
// runs (compiled libraries, caches, a prepared runtime) is measured
// before a run starts and credited: the watchdog charges the run with its
// growth over it, never more than maxCredit.
func TestRetainedHeapIsNotTheRunsCharge(t *testing.T) {
	c := startWorker(t)
	c.wk.base = 1 << 40 // a stale, absurd measurement is capped
	c.send(pipe.Command{Op: pipe.OpRun, Job: job(lodashRun)})
	if _, res := c.result(nil); res.Outcome != pipe.OutcomeOK {
		t.Fatalf("run: %s", res.Outcome)
	}
	if got, limit := c.wk.credit.Load(), min(int64(maxCredit), c.wk.mem.Exit-c.wk.mem.Run); got != limit {
		t.Errorf("credit %d; want it capped at %d", got, limit)
	}
	c.wk.base = -baseSlack // as if the heap grew past the last measurement: measured again
	c.send(pipe.Command{Op: pipe.OpRun, Job: job("console.log(1)")})
	if _, res := c.result(nil); res.Outcome != pipe.OutcomeOK {
		t.Fatalf("run: %s", res.Outcome)
	}
	if got := c.wk.credit.Load(); got <= 0 || got > maxCredit {
		t.Errorf("credit %d after a library run; want the retained heap, in (0, %d]", got, maxCredit)
	}
}

// TestSameClientTakesItsPreparationInFlight: a job of the client a
// preparation is for, arriving while it is still in flight (mathjs's
// instance takes ≈ 240 ms to evaluate), lets it finish and runs on it
// rather than stopping it and preparing the same runtime again; a job of
// another client stops it before its clock starts.
func TestSameClientTakesItsPreparationInFlight(t *testing.T) {
	c := startWorker(t)
	c.wk.maxPrepare = time.Minute // -race on a busy machine: the preparation must not run out of time
	src := "import { evaluate } from 'mathjs';\nconsole.log(evaluate('1 + 2'));"
	run := func(client string) {
		t.Helper()
		j := job(src)
		j.Client, j.Timeout = client, time.Minute
		c.send(pipe.Command{Op: pipe.OpRun, Job: j})
		if evs, res := c.result(nil); res.Outcome != pipe.OutcomeOK || logs(evs) != "3" {
			t.Fatalf("%s's run: %s %q", client, res.Outcome, logs(evs))
		}
	}
	run("token-a")
	p := c.wk.next
	if p == nil {
		t.Fatal("no preparation after a run with a library")
	}
	run("token-a")
	if c.wk.prepareAbandoned != 0 || p.rt == nil {
		t.Errorf("token-a's next run stopped its own preparation (%d abandoned)", c.wk.prepareAbandoned)
	}
	q := c.wk.next
	if q == nil || q == p {
		t.Fatal("no new preparation after the second run")
	}
	run("token-b")
	select {
	case <-q.done:
	default:
		t.Error("token-a's preparation still runs after token-b's run")
	}
	if q.rt != nil && !q.abandoned.Load() && c.wk.prepareAbandoned == 0 {
		t.Log("token-a's preparation had finished before token-b's job arrived")
	}
}
