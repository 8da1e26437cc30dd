package worker

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/playground-dev/playground/sandbox/libs"
	"github.com/playground-dev/playground/sandbox/pipe"
	"github.com/playground-dev/playground/sandbox/worker/js"
)

// conn is the parent's end of an in-process worker: the worker's serving
// loop runs in a goroutine of the test, on io.Pipes, without the process
// setup of Main (memory limits, watchdog).
type conn struct {
	t    *testing.T
	in   *pipe.Writer
	out  *pipe.Reader
	wk   *worker
	stop func() int
}

func (c *conn) cacheLen() int { return c.wk.cache.m.Len() }

func startWorker(t *testing.T) *conn {
	t.Helper()
	set, err := libs.New("")
	if err != nil {
		t.Fatal(err)
	}
	cmdR, cmdW := io.Pipe()
	outR, outW := io.Pipe()
	wk := newWorker(outW, pipe.MemoryLayoutFor(256<<20), set)
	code := make(chan int, 1)
	go func() {
		code <- wk.serveAll(cmdR)
		outW.Close()
	}()
	c := &conn{t: t, in: pipe.NewWriter(cmdW), out: pipe.NewReader(outR, 1<<20), wk: wk}
	c.stop = sync.OnceValue(func() int {
		cmdW.Close()
		for { // drain until the worker is done writing
			if _, err := c.out.Next(); err != nil {
				break
			}
		}
		return <-code
	})
	if m := c.next(); !m.Ready {
		t.Fatalf("first message %+v; want ready", m)
	}
	t.Cleanup(func() { c.stop() })
	return c
}

func (c *conn) send(cmd pipe.Command) {
	c.t.Helper()
	if err := c.in.Write(cmd); err != nil {
		c.t.Fatal(err)
	}
}

func (c *conn) next() pipe.Message {
	c.t.Helper()
	line, err := c.out.Next()
	if err != nil {
		c.t.Fatalf("read: %v", err)
	}
	var m pipe.Message
	if err := json.Unmarshal(line, &m); err != nil || !m.Valid() {
		c.t.Fatalf("bad message %s: %v", line, err)
	}
	return m
}

// result reads events until the result, answering host calls with answer.
func (c *conn) result(answer func(pipe.HostCall) pipe.HostReply) ([]pipe.Event, pipe.Result) {
	c.t.Helper()
	var evs []pipe.Event
	for {
		m := c.next()
		switch {
		case m.Result != nil:
			return evs, *m.Result
		case m.Call != nil:
			r := answer(*m.Call)
			c.send(pipe.Command{Op: pipe.OpReply, Reply: &r})
		case m.Event != nil:
			evs = append(evs, *m.Event)
		}
	}
}

func job(src string) *pipe.Job {
	return &pipe.Job{Files: []pipe.File{{Path: "main.ts", Source: src}}, Entry: "main.ts", Timeout: 5 * time.Second, Host: []string{"echo"}}
}

func logs(evs []pipe.Event) string {
	var out []string
	for _, e := range evs {
		if e.Kind == pipe.EventLog {
			out = append(out, e.Text)
		}
	}
	return strings.Join(out, "|")
}

func TestServesJobsInOrder(t *testing.T) {
	c := startWorker(t)
	noCalls := func(h pipe.HostCall) pipe.HostReply { t.Fatalf("unexpected call %+v", h); return pipe.HostReply{} }
	for i, src := range []string{"console.log('one')", "console.log('two')", "console.log('one')"} {
		c.send(pipe.Command{Op: pipe.OpRun, Job: job(src)})
		evs, res := c.result(noCalls)
		if res.Outcome != pipe.OutcomeOK || !strings.Contains(logs(evs), []string{"one", "two", "one"}[i]) {
			t.Errorf("run %d: %s %q", i, res.Outcome, logs(evs))
		}
		if evs[0].Kind != pipe.EventStarted || evs[0].Timeout != 5*time.Second {
			t.Errorf("run %d: first event %+v; want started with the job's timeout", i, evs[0])
		}
	}
	if n := c.stop(); n != 0 {
		t.Errorf("exit code %d after stdin ended; want 0", n)
	}
}

func TestHostCallRoundTrip(t *testing.T) {
	c := startWorker(t)
	c.send(pipe.Command{Op: pipe.OpRun, Job: job("import { host } from 'playground';\nconsole.log(await host.echo('x'));")})
	var got []pipe.HostCall
	evs, res := c.result(func(h pipe.HostCall) pipe.HostReply {
		got = append(got, h)
		return pipe.HostReply{ID: h.ID, Result: json.RawMessage(`"echoed"`), Duration: 3 * time.Millisecond}
	})
	if res.Outcome != pipe.OutcomeOK || logs(evs) != "echoed" || len(got) != 1 || got[0].Name != "echo" || string(got[0].Args[0]) != `"x"` {
		t.Errorf("outcome %s, logs %q, calls %+v", res.Outcome, logs(evs), got)
	}
	for _, e := range evs {
		if e.Kind == pipe.EventCall && !e.Pending && (e.Duration != 3*time.Millisecond || !e.OK) { // the settled event
			t.Errorf("call event %+v; want the reply's duration", e)
		}
	}
	// A reply to no pending call (a late one) is dropped, not delivered to the next run.
	c.send(pipe.Command{Op: pipe.OpReply, Reply: &pipe.HostReply{ID: got[0].ID, Result: json.RawMessage(`"late"`)}})
	c.send(pipe.Command{Op: pipe.OpRun, Job: job("console.log('after')")})
	if evs, res := c.result(nil); res.Outcome != pipe.OutcomeOK || logs(evs) != "after" {
		t.Errorf("next run: %s %q", res.Outcome, logs(evs))
	}
}

func TestCancelInterruptsRun(t *testing.T) {
	c := startWorker(t)
	c.send(pipe.Command{Op: pipe.OpRun, Job: job("console.log('spin'); while (true) {}")})
	if m := c.next(); !m.Accepted {
		t.Fatalf("got %+v; want accepted first, at once", m)
	}
	if m := c.next(); m.Event == nil || m.Event.Kind != pipe.EventStarted {
		t.Fatalf("got %+v; want started", m)
	}
	if m := c.next(); m.Event == nil || m.Event.Text != "spin" {
		t.Fatalf("got %+v; want the log", m)
	}
	c.send(pipe.Command{Op: pipe.OpCancel})
	if _, res := c.result(nil); res.Outcome != pipe.OutcomeCancelled {
		t.Errorf("outcome %s; want cancelled", res.Outcome)
	}
	c.send(pipe.Command{Op: pipe.OpCancel}) // a cancel with no run is ignored
	c.send(pipe.Command{Op: pipe.OpRun, Job: job("console.log('next')")})
	if evs, res := c.result(nil); res.Outcome != pipe.OutcomeOK || logs(evs) != "next" {
		t.Errorf("next run: %s %q", res.Outcome, logs(evs))
	}
}

func TestBundleErrorsAreCached(t *testing.T) {
	c := startWorker(t)
	for range 2 {
		c.send(pipe.Command{Op: pipe.OpRun, Job: job("import 'left-pad';")})
		evs, res := c.result(nil)
		if res.Outcome != pipe.OutcomeError || len(evs) != 1 || evs[0].Error.Kind != pipe.KindBundle {
			t.Errorf("outcome %s events %+v; want one BUNDLE_ERROR", res.Outcome, evs)
		}
	}
	bad := job("1")
	bad.Entry = "other.ts"
	c.send(pipe.Command{Op: pipe.OpRun, Job: bad})
	if _, res := c.result(nil); res.Outcome != pipe.OutcomeInvalid {
		t.Errorf("entry not among the files: outcome %s; want invalid", res.Outcome)
	}
	if n := c.cacheLen(); n != 2 {
		t.Errorf("cache holds %d bundles; want 2 (the same files are bundled once)", n)
	}
}

// TestPreparedRuntimeForLibraries: after a run that imports a library the
// worker prepares the next runtime with it evaluated; a matching run takes
// it and runs correctly, a different one discards it.
func TestPreparedRuntimeForLibraries(t *testing.T) {
	c := startWorker(t)
	lodash := "import _ from 'lodash';\nconsole.log(_.sum([1, 2]), typeof globalThis.leak);\nglobalThis.leak = 1;"
	for i, src := range []string{lodash, lodash, "console.log(typeof globalThis.leak)", lodash} {
		c.send(pipe.Command{Op: pipe.OpRun, Job: job(src)})
		evs, res := c.result(nil)
		want := "3 undefined"
		if i == 2 {
			want = "undefined"
		}
		if res.Outcome != pipe.OutcomeOK || logs(evs) != want {
			t.Errorf("run %d: %s %q; want %q (no state crosses runs)", i, res.Outcome, logs(evs), want)
		}
	}
}

// TestBundlingCountsAgainstTheRunsTimeout: bundling and compiling share
// the run's own deadline. A snippet whose bundling alone takes far longer
// than its 1 ms limit (megabytes of code) ends as a timeout naming that
// limit, keeps nothing in the cache, and the worker exits after it (the
// abandoned esbuild work cannot be stopped otherwise).
func TestBundlingCountsAgainstTheRunsTimeout(t *testing.T) {
	c := startWorker(t)
	var b strings.Builder
	for i := range 200_000 {
		fmt.Fprintf(&b, "const v%d = [%d, %d, { k: 'x%d' }];\n", i, i, i*2, i)
	}
	j := job(b.String())
	j.Timeout = time.Millisecond
	c.send(pipe.Command{Op: pipe.OpRun, Job: j})
	evs, res := c.result(nil)
	if res.Outcome != pipe.OutcomeTimeout || !res.TimedOut {
		t.Fatalf("outcome %s (timedOut %v); want timeout", res.Outcome, res.TimedOut)
	}
	if len(evs) != 1 || evs[0].Error == nil || evs[0].Error.Kind != pipe.KindTimeout || !strings.Contains(evs[0].Error.Message, "1 ms") {
		t.Errorf("events %+v; want one TIMEOUT error naming the run's 1 ms", evs)
	}
	if n := c.cacheLen(); n != 0 {
		t.Errorf("cache holds %d bundles; want none (the bundle overran its run)", n)
	}
	if code := c.stop(); code != pipe.ExitAbandoned {
		t.Errorf("exit code %d; want %d (abandoned work)", code, pipe.ExitAbandoned)
	}
}

// TestOneDeadline: bundling spends part of a run's time and the runtime
// gets what is left (one deadline from the job's arrival), while the
// started event and the TIMEOUT error announce the limit the run asked for.
func TestOneDeadline(t *testing.T) {
	c := startWorker(t)
	var b strings.Builder
	for i := range 2_000 { // a bundle that takes a few ms to build (well inside the limit, under -race too)
		fmt.Fprintf(&b, "const v%d = [%d, { k: 'x%d' }];\n", i, i, i)
	}
	b.WriteString("for (;;);\n")
	j := job(b.String())
	j.Timeout = 1500 * time.Millisecond
	c.send(pipe.Command{Op: pipe.OpRun, Job: j})
	evs, res := c.result(nil)
	if res.Outcome != pipe.OutcomeTimeout || res.Stats.Bundle <= 0 {
		t.Fatalf("outcome %s (bundle %v); want a timeout after bundling", res.Outcome, res.Stats.Bundle)
	}
	var started, timedOut bool
	for _, ev := range evs {
		if ev.Kind == pipe.EventStarted {
			started = ev.Timeout == j.Timeout
		}
		if ev.Error != nil && ev.Error.Kind == pipe.KindTimeout {
			timedOut = strings.Contains(ev.Error.Message, "1500 ms")
		}
	}
	if !started || !timedOut {
		t.Errorf("events %+v; want started and the TIMEOUT error announcing 1500 ms", evs)
	}
}

// TestParentsDeadline: a job's Deadline (the parent's instant, from which
// it also counts its kill) is the run's end, not Timeout from the worker's
// taking the job: a job whose deadline has passed by the time it arrives
// (it waited in a loaded pipe) times out before its program runs, while its
// events still announce the limit the run asked for.
func TestParentsDeadline(t *testing.T) {
	c := startWorker(t)
	j := job("console.log('ran');")
	j.Timeout = 10 * time.Second
	j.Deadline = time.Now().Add(-time.Millisecond).UnixNano()
	c.send(pipe.Command{Op: pipe.OpRun, Job: j})
	evs, res := c.result(nil)
	if res.Outcome != pipe.OutcomeTimeout {
		t.Errorf("outcome %s; want timeout (its deadline had passed)", res.Outcome)
	}
	var timeouts []string
	for _, ev := range evs {
		if ev.Kind == pipe.EventLog {
			t.Errorf("the program ran (%+v) past its deadline", ev)
		}
		if ev.Error != nil && ev.Error.Kind == pipe.KindTimeout {
			timeouts = append(timeouts, ev.Error.Message)
		}
	}
	if len(timeouts) != 1 || !strings.Contains(timeouts[0], "10000 ms") {
		t.Errorf("TIMEOUT errors %q; want one, announcing the run's 10000 ms", timeouts)
	}
}

// TestBigIntConstantsStayOutOfCompiling: goja's compiler folds constant
// expressions outside any run's limits; `1n << 400000000n` must be
// computed by the run (under its deadline and memory), so the run ends
// as a timeout of its own (not an abandoned compile), the program cached
// for it is small, and the next run on the worker is ok.
func TestBigIntConstantsStayOutOfCompiling(t *testing.T) {
	c := startWorker(t)
	j := job("const x = 1n << 400000000n;\nwhile (x > 0n) {}")
	j.Timeout = time.Second // room for bundling under -race and load; js.TestCompileDoesNotFoldBigInts checks the folding itself
	c.send(pipe.Command{Op: pipe.OpRun, Job: j})
	_, res := c.result(nil)
	if res.Outcome != pipe.OutcomeTimeout {
		t.Errorf("outcome %s; want timeout", res.Outcome)
	}
	if c.wk.abandoned {
		t.Error("the worker abandoned the bundle: compiling folded the constants")
	}
	if n := c.wk.cache.size(); n > 1<<20 {
		t.Errorf("program cache holds ~%d bytes; want the program small", n)
	}
	c.send(pipe.Command{Op: pipe.OpRun, Job: job("console.log('innocent')")})
	if evs, res := c.result(nil); res.Outcome != pipe.OutcomeOK || logs(evs) != "innocent" {
		t.Errorf("next run: %s %q", res.Outcome, logs(evs))
	}
}

// TestProgramCacheIsBoundedInBytes: entries past the byte budget evict
// the least recently used; one over half the budget is never kept.
func TestProgramCacheIsBoundedInBytes(t *testing.T) {
	set, err := libs.New("")
	if err != nil {
		t.Fatal(err)
	}
	c := newProgramCache(64, 100<<10, js.NewLibraries(set))
	src := func(n int) []pipe.File {
		return []pipe.File{{Path: "main.js", Source: fmt.Sprintf("console.log(%q);", strings.Repeat("x", n))}}
	}
	var keys [][32]byte
	for i := range 6 {
		f := src(1000 + i) // ~1 kB of code: ~17 kB estimated
		k := bundleKey(f, "main.js", "", "")
		keys = append(keys, k)
		c.add(k, c.build(f, "main.js", "", ""), "")
	}
	if c.size() > 100<<10 || c.has(keys[0]) || !c.has(keys[5]) {
		t.Errorf("size %d, oldest kept %v, newest kept %v; want ≤ 100 kB, the oldest evicted", c.size(), c.has(keys[0]), c.has(keys[5]))
	}
	big := src(10_000) // ~160 kB estimated: over half the budget
	k := bundleKey(big, "main.js", "", "")
	c.add(k, c.build(big, "main.js", "", ""), "")
	if c.has(k) {
		t.Error("an entry over half the budget was kept")
	}
}

// TestProgramCacheChargesTheFiller: a client that compiles bundle after
// bundle past the budget evicts its own; another client's bundle, older
// than all of them, stays cached (issue 22).
func TestProgramCacheChargesTheFiller(t *testing.T) {
	set, err := libs.New("")
	if err != nil {
		t.Fatal(err)
	}
	c := newProgramCache(64, 100<<10, js.NewLibraries(set))
	build := func(client string, i int) [32]byte {
		f := []pipe.File{{Path: "main.js", Source: fmt.Sprintf("console.log(%q);", strings.Repeat("x", 1000+i))}}
		k := bundleKey(f, "main.js", "", client)
		c.add(k, c.build(f, "main.js", "", client), client)
		return k
	}
	victim := build("victim", 0)
	for i := range 20 {
		build("filler", i)
		if c.size() > 100<<10 {
			t.Fatalf("after the filler's bundle %d: %d bytes; budget 100 kB", i, c.size())
		}
	}
	if !c.has(victim) {
		t.Error("the filler's bundles evicted the victim's")
	}
}

// TestIdleAnnouncesTimerWaits: a run waiting only on a timer at least
// pipe.IdleMin away (and maybe on host replies) says so once per wait,
// with the wait and the replies it has received, and goes on by itself
// (it never waits for an answer); a shorter wait and a deterministic run
// send nothing.
func TestIdleAnnouncesTimerWaits(t *testing.T) {
	c := startWorker(t)
	src := `import { host } from 'playground';
await new Promise(r => setTimeout(r, 2));
console.log('short');
const p = host.echo('x');
setTimeout(() => console.log('long'), 200);
console.log(await p);`
	for _, det := range []bool{false, true} {
		j := job(src)
		j.Deterministic = det
		c.send(pipe.Command{Op: pipe.OpRun, Job: j})
		var seq []string
		var idles []pipe.Idle
		var call *pipe.HostCall
	read:
		for {
			m := c.next()
			switch {
			case m.Result != nil:
				if m.Result.Outcome != pipe.OutcomeOK {
					t.Errorf("deterministic=%v: outcome %s", det, m.Result.Outcome)
				}
				break read
			case m.Event != nil && m.Event.Kind == pipe.EventLog:
				seq = append(seq, m.Event.Text)
			case m.Call != nil:
				seq = append(seq, "call")
				call = m.Call
				if det { // nothing to announce: answer at once
					c.send(pipe.Command{Op: pipe.OpReply, Reply: &pipe.HostReply{ID: call.ID, Result: json.RawMessage(`"x"`)}})
				}
			case m.Idle != nil:
				seq = append(seq, fmt.Sprintf("idle(%d)", m.Idle.Replies))
				idles = append(idles, *m.Idle)
				if m.Idle.Replies == 0 && call != nil { // the reply wakes it before the timer
					c.send(pipe.Command{Op: pipe.OpReply, Reply: &pipe.HostReply{ID: call.ID, Result: json.RawMessage(`"x"`)}})
				}
			}
		}
		want := "short call idle(0) x idle(1) long"
		if det {
			want = "short call x long"
		}
		if got := strings.Join(seq, " "); got != want {
			t.Errorf("deterministic=%v: messages %q; want %q", det, got, want)
		}
		for _, id := range idles {
			if id.Wait < pipe.IdleMin || id.Wait > 200*time.Millisecond {
				t.Errorf("idle wait %v; want within [IdleMin, 200ms] (the timer's delay)", id.Wait)
			}
		}
	}
}
