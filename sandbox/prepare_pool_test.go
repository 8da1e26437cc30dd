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
