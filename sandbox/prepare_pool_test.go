package sandbox

import (
	"testing"
	"time"
)

// TestEarlierLibrariesAreNotChargedToTheNextRun reproduces issue 22's
// "another client's memory is charged to your run": on one worker, (A) a
// script requiring mathjs, papaparse and jstat, (B) `output = 1;`, then
// (C) a script requiring every shipped library. With -memory-bytes 256 MiB
// C ended memory_limit in 7 of 8 rounds (alone it passes, though near the
// cap): the heap the worker retained from A (its compiled libraries, the
// runtime it prepared in the background) counted against C. The test runs
// at 300 MiB, where C still ended memory_limit in 2 of 2 rounds before the
// fix, and leaves C's own heap a margin on a loaded machine. Each of C's
// runs must end ok.
func TestEarlierLibrariesAreNotChargedToTheNextRun(t *testing.T) {
	if testing.Short() {
		t.Skip("evaluates every shipped library several times")
	}
	// Time is not what this test is about: mathjs alone takes 2 s cold, and
	// ten times that under -race on a loaded 2-core machine.
	p := newTestPool(t, Config{Workers: 1, Spares: -1, MemoryBytes: 300 << 20, MaxTimeout: 3 * time.Minute})
	a := "const m = require('mathjs'), p = require('papaparse'), j = require('jstat');\noutput = [m.evaluate('1+2'), p.parse('a,b').data.length, j.jStat.mean([1, 2])];"
	c := "const libs = ['mathjs', 'papaparse', 'jstat', 'lodash', 'date-fns', 'uuid', 'validator', 'zod'].map((n) => require(n));\noutput = libs.length;"
	for round := range 2 {
		for i, src := range []string{a, "output = 1;", c} {
			res, rec := run(t, p, Request{Files: files("main.js", src), Mode: ModeScript, Timeout: 3 * time.Minute})
			if res.Outcome != OutcomeOK {
				t.Errorf("round %d run %c: outcome %s %+v; want ok", round, "ABC"[i], res.Outcome, rec.errors())
			}
		}
	}
}

// TestRunsStayOnTheirClientsWorker: of the idle workers, a run takes the
// one that last served its client (Pool.affine), where the idle set alone
// (first in, first out) would hand it the worker idle the longest: a, a,
// b, a on two workers went a→1, a→2, b→1, a→2, and each run met a runtime
// and library programs prepared for another client. A client whose worker
// is taken gets the other.
func TestRunsStayOnTheirClientsWorker(t *testing.T) {
	p := newTestPool(t, Config{Workers: 2, Spares: -1})
	served := func(key string) *proc { // the worker whose last job was key's
		t.Helper()
		tok := p.clients.Token(key)
		p.mu.Lock()
		defer p.mu.Unlock()
		var w *proc
		for o := range p.procs {
			if o.lastClient == tok {
				if w != nil {
					t.Fatalf("two workers last served %s", key)
				}
				w = o
			}
		}
		return w
	}
	runAs := func(key string) *proc {
		t.Helper()
		for deadline := time.Now().Add(30 * time.Second); p.idleCount() < 2; time.Sleep(time.Millisecond) {
			if time.Now().After(deadline) {
				t.Fatal("the two workers are not idle")
			}
		}
		if res, rec := run(t, p, Request{Key: key, Files: files("main.js", "console.log(1)")}); res.Outcome != OutcomeOK {
			t.Fatalf("%s's run: %s %+v", key, res.Outcome, rec.errors())
		}
		return served(key)
	}
	first := runAs("a")
	if again := runAs("a"); again != first {
		t.Error("a's second run went to the other worker")
	}
	b := runAs("b")
	if b == first {
		t.Error("b took a's worker while another was idle")
	}
	if again := runAs("a"); again != first {
		t.Error("a's run after b's went to b's worker")
	}
	if again := runAs("b"); again != b {
		t.Error("b's second run went to a's worker")
	}
}
