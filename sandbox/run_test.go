package sandbox

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
)

// recorder collects a run's events.
type recorder struct {
	mu     sync.Mutex
	events []Event
}

func (r *recorder) emit(ev Event) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.events = append(r.events, ev)
}

func (r *recorder) kinds() []EventKind {
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []EventKind
	for _, e := range r.events {
		out = append(out, e.Kind)
	}
	return out
}

func (r *recorder) logs() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []string
	for _, e := range r.events {
		if e.Kind == EventLog {
			out = append(out, e.Text)
		}
	}
	return out
}

func (r *recorder) errors() []Error {
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []Error
	for _, e := range r.events {
		if e.Kind == EventError {
			out = append(out, *e.Error)
		}
	}
	return out
}

func run(t *testing.T, p *Pool, req Request) (Result, *recorder) {
	t.Helper()
	rec := &recorder{}
	// The run's own budget decides when it ends; this only keeps a broken
	// pool from hanging the test.
	ctx, cancel := context.WithTimeout(t.Context(), max(req.Timeout, 5*time.Second)+60*time.Second)
	defer cancel()
	res, err := p.Run(ctx, req, rec.emit)
	if err != nil {
		t.Fatalf("Run: %v", err)
	}
	return res, rec
}

func files(kv ...string) []File {
	var fs []File
	for i := 0; i+1 < len(kv); i += 2 {
		fs = append(fs, File{Path: kv[i], Source: kv[i+1]})
	}
	return fs
}

func TestRunTwoFileTypeScript(t *testing.T) {
	p := newTestPool(t, Config{Workers: 1})
	res, rec := run(t, p, Request{Files: files(
		"src/main.ts", `import { facts } from "playground";
import { Counter } from "./counter.js";
const c = new Counter();
facts.count = c.value;
for (let i = 0; i < 3; i++) {
  await new Promise((r) => setTimeout(r, 5));
  c.inc();
  facts.count = c.value;
  console.log("tick", i, { v: c.value });
}
export default { final: c.value };
`,
		"src/counter.ts", `export class Counter { value: number = 0; inc(): void { this.value++; } }
`)})
	if res.Outcome != OutcomeOK {
		t.Fatalf("outcome = %s; events %+v", res.Outcome, rec.events)
	}
	want := []string{"tick 0 { v: 1 }", "tick 1 { v: 2 }", "tick 2 { v: 3 }"}
	if got := rec.logs(); strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("logs = %q; want %q", got, want)
	}
	if got := string(res.Facts["count"]); got != "3" {
		t.Errorf("facts.count = %s; want 3", got)
	}
	if got := string(res.Output); got != `{"final":3}` {
		t.Errorf("output = %s; want {\"final\":3}", got)
	}
	var facts int
	for _, e := range rec.events {
		if e.Kind == EventFact {
			facts++
		}
	}
	if facts != 4 {
		t.Errorf("got %d fact events; want 4", facts)
	}
}

func TestRunTimeoutKeepsOutput(t *testing.T) {
	p := newTestPool(t, Config{Workers: 1})
	start := time.Now()
	res, rec := run(t, p, Request{Timeout: time.Second, Files: files("main.js", "console.log('before'); while (true) {}")})
	if res.Outcome != OutcomeTimeout || !res.TimedOut {
		t.Fatalf("outcome = %s timedOut=%v; want timeout", res.Outcome, res.TimedOut)
	}
	if got := rec.logs(); len(got) != 1 || got[0] != "before" {
		t.Errorf("logs = %q; want [before]", got)
	}
	if el := time.Since(start); el > 5*time.Second {
		t.Errorf("timeout took %v", el)
	}
	errs := rec.errors()
	if len(errs) != 1 || errs[0].Kind != KindTimeout {
		t.Errorf("errors = %+v; want one TIMEOUT", errs)
	}
}

func TestOutputLimit(t *testing.T) {
	p := newTestPool(t, Config{Workers: 1, Limits: Limits{MaxOutputBytes: 1000}})
	res, rec := run(t, p, Request{Files: files("main.ts", `for (let i = 0; ; i++) console.log("line", i);`)})
	if res.Outcome != OutcomeOutputLimit || !res.Stats.Truncated {
		t.Fatalf("outcome %s truncated=%v; want output_limit", res.Outcome, res.Stats.Truncated)
	}
	logs := rec.logs()
	if len(logs) == 0 || logs[0] != "line 0" || res.Stats.OutputBytes > 1000 {
		t.Errorf("kept %d logs (%d bytes); want the first lines, at most 1000 bytes", len(logs), res.Stats.OutputBytes)
	}
	if errs := rec.errors(); len(errs) != 1 || errs[0].Kind != KindOutputLimit {
		t.Errorf("errors = %+v; want one OUTPUT_LIMIT", errs)
	}
}

// TestOutputLimitCountedAlikeOnBothEnds: many short lines reach the cap
// the worker counts (pipe.OutputBytes: text and previews, 4 bytes for
// console.log("x")) before the pool's count does, so the worker ends the
// run itself and stays; the pool does not kill it on a count of its own
// (it once counted whole pipe lines, ~17 times as many bytes).
func TestOutputLimitCountedAlikeOnBothEnds(t *testing.T) {
	const limit = 2000
	p := newTestPool(t, Config{Workers: 1, Limits: Limits{MaxOutputBytes: limit}})
	before := p.Stats()
	res, rec := run(t, p, Request{Files: files("main.ts", `for (;;) console.log("x");`)})
	if res.Outcome != OutcomeOutputLimit || res.Stats.OutputBytes != limit {
		t.Errorf("outcome %s, outputBytes %d; want output_limit at exactly %d", res.Outcome, res.Stats.OutputBytes, limit)
	}
	if n := len(rec.logs()); n != limit/4 {
		t.Errorf("%d lines sent; want %d (4 bytes each)", n, limit/4)
	}
	if errs := rec.errors(); len(errs) != 1 || errs[0].Kind != KindOutputLimit {
		t.Errorf("errors = %+v; want one OUTPUT_LIMIT", errs)
	}
	if k := p.Stats().Kills - before.Kills; k != 0 {
		t.Errorf("%d workers killed; want 0: the worker ended the run at its own count", k)
	}
}

func TestCancelStopsRun(t *testing.T) {
	p := newTestPool(t, Config{Workers: 1})
	ctx, cancel := context.WithCancel(t.Context())
	rec := &recorder{}
	done := make(chan Result)
	go func() {
		res, _ := p.Run(ctx, Request{Files: files("main.js", "while(true){}")}, rec.emit)
		done <- res
	}()
	for len(rec.kinds()) == 0 {
		time.Sleep(time.Millisecond)
	}
	cancel()
	select {
	case res := <-done:
		if res.Outcome != OutcomeCancelled {
			t.Errorf("outcome = %s; want cancelled", res.Outcome)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("cancel did not stop the run")
	}
	if s := p.Stats(); s.Busy != 0 {
		t.Errorf("busy = %d after cancel; want 0", s.Busy)
	}
}

func TestRegexBacktrackingHasNoStackLimit(t *testing.T) {
	p := newTestPool(t, Config{Workers: 1})
	res, rec := run(t, p, Request{Files: files("main.ts", `
const s = "a".repeat(200000);
console.log(/^(?:(a)|b)*\1$/.test(s), /(?<=a)b/.test("ab"), /^(?!x)a+$/.test(s));
`)})
	if res.Outcome != OutcomeOK {
		t.Fatalf("outcome %s: %+v", res.Outcome, rec.errors())
	}
	if got := rec.logs(); len(got) != 1 || got[0] != "true true true" {
		t.Errorf("logs = %q; want [true true true]: a long backtracking match must not silently fail", got)
	}
}

func TestWorkerRecycledAfterMaxRuns(t *testing.T) {
	p := newTestPool(t, Config{Workers: 1, Spares: 1, MaxRunsPerWorker: 2})
	// Two workers take runs in turn: 8 runs retire each of the first four
	// after its second run.
	for i := range 8 {
		if res, rec := run(t, p, Request{Files: files("main.js", "1")}); res.Outcome != OutcomeOK {
			t.Fatalf("run %d: %s %+v", i, res.Outcome, rec.errors())
		}
	}
	if st := p.Stats(); st.Restarts < 3 || st.Kills != 0 || st.Crashes != 0 {
		t.Errorf("stats = %+v; want a replacement for every worker that served 2 runs, none killed", st)
	}
}

// TestOutputLimitCountsEveryByte: bytes that are not console text count
// too — %c arguments, facts, host call arguments — and done's outputBytes
// is what was sent.
func TestOutputLimitCountsEveryByte(t *testing.T) {
	p := newTestPool(t, Config{Workers: 1, Limits: Limits{MaxOutputBytes: 20_000}, Host: map[string]HostFunc{
		"echo": func(_ context.Context, c HostCall) (json.RawMessage, error) { return c.Args[0], nil },
	}})
	for name, src := range map[string]string{
		"%c arguments": `const big = "x".repeat(5000); for (;;) console.log("%c", big);`,
		"facts":        `import { facts } from "playground"; for (let i = 0; ; i++) facts["k" + i] = "v".repeat(500);`,
		"host calls":   `import { host } from "playground"; for (;;) await host.echo("a".repeat(3000));`,
	} {
		t.Run(name, func(t *testing.T) {
			res, rec := run(t, p, Request{Files: files("main.ts", src)})
			if res.Outcome != OutcomeOutputLimit || res.Stats.OutputBytes > 20_000 || res.Stats.OutputBytes < 10_000 {
				t.Errorf("outcome %s, outputBytes %d; want output_limit with at most 20,000 bytes sent", res.Outcome, res.Stats.OutputBytes)
			}
			sent := 0
			for _, ev := range rec.events {
				b, _ := json.Marshal(ev)
				sent += len(b)
			}
			if sent > 25_000 {
				t.Errorf("the events forwarded hold %d bytes; want them capped near 20,000", sent)
			}
		})
	}
}

// Script mode through the pool: requested, detected, echoed by started,
// and an unknown mode refused.
func TestRunScriptMode(t *testing.T) {
	p := newTestPool(t, Config{Workers: 1})
	started := func(rec *recorder) string {
		rec.mu.Lock()
		defer rec.mu.Unlock()
		for _, e := range rec.events {
			if e.Kind == EventStarted {
				return e.Mode
			}
		}
		return "(no started event)"
	}
	for _, mode := range []string{ModeScript, ""} {
		res, rec := run(t, p, Request{Files: files("agent.js", "const _ = require('lodash');\noutput = { sum: _.sum(input.values) };"),
			Input: []byte(`{"values":[1,2,3]}`), Mode: mode})
		if res.Outcome != OutcomeOK || string(res.Output) != `{"sum":6}` || started(rec) != ModeScript {
			t.Errorf("mode %q: %s output %s started.mode %q errors %+v", mode, res.Outcome, res.Output, started(rec), rec.errors())
		}
	}
	_, rec := run(t, p, Request{Files: files("main.js", "console.log(1)")})
	if started(rec) != ModeModule {
		t.Errorf("a plain snippet started as %q; want module", started(rec))
	}
	res, rec := run(t, p, Request{Files: files("main.js", "1"), Mode: "cjs"})
	if errs := rec.errors(); res.Outcome != OutcomeInvalid || len(errs) != 1 || !strings.Contains(errs[0].Message, `"cjs"`) {
		t.Errorf("mode cjs: %s %+v; want invalid naming the mode", res.Outcome, errs)
	}
}

// TestBundlingCountsAgainstTheRunsTimeout: bundling and compiling share the
// run's own deadline, in the pool too (no fixed bundling limit): a 1 ms run
// whose bundling alone takes longer ends as a timeout, its worker (which
// cannot stop esbuild) is retired rather than counted as a crash or handed
// another job, and the same code with a long timeout runs ok.
func TestBundlingCountsAgainstTheRunsTimeout(t *testing.T) {
	p := newTestPool(t, Config{Workers: 1, MinTimeout: time.Millisecond})
	var b strings.Builder
	for i := range 6_000 {
		fmt.Fprintf(&b, "const v%d = [%d, { k: 'x%d' }];\n", i, i, i)
	}
	b.WriteString("console.log(v5999.length)\n")
	heavy := b.String()

	res, rec := run(t, p, Request{Files: files("main.js", heavy), Timeout: time.Millisecond})
	if res.Outcome != OutcomeTimeout {
		t.Fatalf("outcome %s, errors %+v; want timeout (bundling counts against the 1 ms)", res.Outcome, rec.errors())
	}
	if errs := rec.errors(); len(errs) != 1 || errs[0].Kind != KindTimeout {
		t.Errorf("errors %+v; want one TIMEOUT", errs)
	}
	for range 3 { // the next runs go to live workers, never the exiting one
		res, rec = run(t, p, Request{Files: files("main.js", `console.log("next")`)})
		if res.Outcome != OutcomeOK || !slices.Equal(rec.logs(), []string{"next"}) {
			t.Fatalf("next run: outcome %s, logs %q, errors %+v", res.Outcome, rec.logs(), rec.errors())
		}
	}
	res, rec = run(t, p, Request{Files: files("main.js", heavy), Timeout: 30 * time.Second})
	if res.Outcome != OutcomeOK || !slices.Equal(rec.logs(), []string{"2"}) {
		t.Fatalf("with 30 s: outcome %s, logs %q, errors %+v; want ok, 2", res.Outcome, rec.logs(), rec.errors())
	}
	if s := p.Stats(); s.Crashes != 0 {
		t.Errorf("stats count %d crashes; the abandoning worker was retired, not crashed", s.Crashes)
	}
}

// TestRunDatesAreUTC: a worker's Date is in UTC, named as Node names it,
// whatever the machine's TZ (the worker inherits the server's environment),
// so Date's local-time methods agree with Intl's default time zone.
func TestRunDatesAreUTC(t *testing.T) {
	t.Setenv("TZ", "Asia/Tokyo")
	p := newTestPool(t, Config{Workers: 1})
	res, rec := run(t, p, Request{Files: files("main.js", `const d = new Date(0);
console.log(String(d));
console.log(d.getHours(), d.getTimezoneOffset(), new Date(2024, 0, 15).toISOString());
console.log(new Intl.DateTimeFormat("en-US", { hour: "numeric" }).format(d));`)})
	if res.Outcome != OutcomeOK {
		t.Fatalf("outcome = %s; events %+v", res.Outcome, rec.events)
	}
	want := []string{"Thu Jan 01 1970 00:00:00 GMT+0000 (Coordinated Universal Time)", "0 0 2024-01-15T00:00:00.000Z", "12 AM"}
	if got := rec.logs(); !slices.Equal(got, want) {
		t.Errorf("logs = %q; want %q", got, want)
	}
}
