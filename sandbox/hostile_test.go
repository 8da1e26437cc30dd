package sandbox

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// Each hostile class must end with its outcome within its budget plus a
// generous slack, leave the parent (this test process) running, and leave
// the pool able to run the next snippet.
func TestHostileSnippets(t *testing.T) {
	nested := func(open, close string, n int) string {
		return "const x = " + strings.Repeat(open, n) + "0" + strings.Repeat(close, n) + ";"
	}
	tests := []struct {
		name    string
		src     string
		outcome Outcome
		kind    ErrorKind
		log     string // a log line that must have been delivered
		// orMemory accepts memory_limit too: nesting exhausts a worker's
		// stack or its memory, whichever it reaches first.
		orMemory bool
	}{
		{"infinite loop", "console.log('spin'); while (true) {}", OutcomeTimeout, KindTimeout, "spin", false},
		// Backtracking in goja's regexp2: no interrupt reaches it, and the
		// worker is killed at the deadline.
		{"regex backtracking", "console.log('regex'); /^(?=.)(a+)+$/.test('a'.repeat(40) + '!');", OutcomeTimeout, KindTimeout, "regex", false},
		{"array-like walk in a builtin", "Array.prototype.reverse.call({ length: 2 ** 53 - 1 });", OutcomeTimeout, KindTimeout, "", false},
		{"microtask flood", "const f = () => queueMicrotask(f); f();", OutcomeTimeout, KindTimeout, "", false},
		{"promise chain flood", "const f = (): Promise<unknown> => Promise.resolve().then(f); f();", OutcomeMemoryLimit, KindMemoryLimit, "", false},
		{"huge fill", "console.log('alloc'); new Array(3e8).fill(0);", OutcomeMemoryLimit, KindMemoryLimit, "alloc", false},
		{"huge repeat", "const s = 'x'.repeat(2 ** 28); console.log(s.length);", OutcomeMemoryLimit, KindMemoryLimit, "", false},
		{"repeat past V8's string length", "console.log('before'); const s = 'x'.repeat(2 ** 29); console.log(s.length);", OutcomeError, KindRuntime, "before", false},
		{"BigInt shift computed at run time", "let n = 2n ** 40n; console.log('shift'); const x = 1n << n;", OutcomeMemoryLimit, KindMemoryLimit, "shift", false},
		{"huge join", "new Array(2 ** 24).join('x'.repeat(1000));", OutcomeMemoryLimit, KindMemoryLimit, "", false},
		{"growth loop", "const a = []; while (true) a.push({ n: a.length, s: 'x' + a.length });", OutcomeMemoryLimit, KindMemoryLimit, "", false},
		{"output flood", "for (;;) console.log('x'.repeat(1000));", OutcomeOutputLimit, KindOutputLimit, strings.Repeat("x", 1000), false},
		{"deeply nested arrays in source", nested("[", "]", 200_000), OutcomeError, KindSyntax, "", true},
		{"deeply nested unary in source", "const x = " + strings.Repeat("!", 300_000) + "0;", OutcomeError, KindSyntax, "", true},
		{"deeply nested value stringified", "let a = []; for (let i = 0; i < 1e5; i++) a = [a]; console.log('built'); String(a);", OutcomeError, KindRuntime, "built", true},
	}
	p := newTestPool(t, Config{Workers: 2, MemoryBytes: 128 << 20, MaxSourceBytes: 1 << 20, DefaultTimeout: time.Second, MaxTimeout: time.Minute, Limits: Limits{MaxOutputBytes: 64 << 10}})
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			// A class that must end by a limit other than time gets a budget
			// it cannot reach, even in a slow (race-detector) worker.
			timeout := time.Second
			if tt.outcome != OutcomeTimeout {
				timeout = time.Minute // a guard: under -race on a loaded machine these took up to 25 s
			}
			start := time.Now()
			res, rec := run(t, p, Request{Timeout: timeout, Files: files("main.ts", tt.src)})
			elapsed := time.Since(start)
			outcome, kind := tt.outcome, tt.kind
			if tt.orMemory && res.Outcome == OutcomeMemoryLimit {
				outcome, kind = OutcomeMemoryLimit, KindMemoryLimit
			}
			if res.Outcome != outcome {
				t.Fatalf("outcome = %s; want %s (errors %+v)", res.Outcome, tt.outcome, rec.errors())
			}
			errs := rec.errors()
			if len(errs) == 0 || errs[len(errs)-1].Kind != kind {
				t.Errorf("errors = %+v; want the last of kind %s", errs, kind)
			}
			if tt.log != "" {
				if logs := rec.logs(); len(logs) == 0 || logs[0] != tt.log {
					t.Errorf("logs = %.80q; want %q first (output before the stop is kept)", logs, tt.log)
				}
			}
			if tt.outcome == OutcomeTimeout && elapsed > 5*time.Second {
				t.Errorf("took %v; want it stopped near its 1s budget", elapsed)
			}
			next, rec := run(t, p, Request{Files: files("main.ts", "console.log('next')")})
			if next.Outcome != OutcomeOK || len(rec.logs()) != 1 {
				t.Errorf("next run: outcome %s logs %q; want ok [next]", next.Outcome, rec.logs())
			}
		})
	}
}

// TestHostileOneLiners: one-liners that crashed a worker (a Go panic inside
// a built-in or a preview, a Go stack overflow) end as output or a
// catchable error at the user's line, through a real worker process, and
// no worker crashes.
func TestHostileOneLiners(t *testing.T) {
	tests := []struct {
		name, src string
		outcome   Outcome
		logs      []string
		errPrefix string // the uncaught error's message, when the outcome is error
	}{
		{"sort comparator truncates the array", "const a = [5, 3, 1, 4, 2]; a.sort((x, y) => { a.length = 0; return x - y; }); console.log(a, a.length);", OutcomeOK, []string{"[ 1, 2, 3, 4, 5 ] 5"}, ""},
		{"sort a huge sparse array-like", "const o: any = { length: 2 ** 53 - 1, 7: 'b', 3: 'a' }; Array.prototype.sort.call(o); console.log(o[0], o[1], o[3], o[7]);", OutcomeOK, []string{"a b undefined undefined"}, ""},
		{"repeat 2**62 caught", "try { 'ab'.repeat(2 ** 62); } catch (e) { console.log(String(e)); }", OutcomeOK, []string{"RangeError: Invalid string length"}, ""},
		{"repeat 2**62 uncaught", "console.log('before');\n'ab'.repeat(2 ** 62);", OutcomeError, []string{"before"}, "RangeError: Invalid string length"},
		{"padStart 2**62", "try { 'ab'.padStart(2 ** 62); } catch (e) { console.log(String(e)); }", OutcomeOK, []string{"RangeError: Invalid string length"}, ""},
		{"asUintN huge bits", "console.log(BigInt.asUintN(2 ** 53 - 1, 5n)); try { BigInt.asUintN(2 ** 53 - 1, -5n); } catch (e) { console.log(String(e)); }", OutcomeOK, []string{"5n", "RangeError: Maximum BigInt size exceeded"}, ""},
		{"apply with length 2**53-1", "try { Math.max.apply(null, { length: 2 ** 53 - 1 } as any); } catch (e) { console.log(String(e)); }", OutcomeOK, []string{"RangeError: Invalid array length"}, ""},
		{"Map holding itself", "const m = new Map(); m.set(m, m); console.log(m);", OutcomeOK, []string{"<ref *1> Map(1) { [Circular *1] => [Circular *1] }"}, ""},
		{"getter of a Map key", "const k = { get x() { console.log('GETTER'); return 1; } }; console.log(new Map([[k, 1]]));", OutcomeOK, []string{"Map(1) { { x: [Getter] } => 1 }"}, ""},
		{"getRandomValues of a Map holding itself", "const m = new Map(); m.set(m, m); try { crypto.getRandomValues(m as any); } catch (e: any) { console.log(e.name); }", OutcomeOK, []string{"TypeMismatchError"}, ""},
		{"%c with a huge argument", "console.log('%c', 'x'.repeat(30 << 20)); console.log('after');", OutcomeOK, []string{"", "after"}, ""},
		{"a huge line then another", "console.log('x'.repeat(100 * 2 ** 20)); console.log('after');", OutcomeOK, nil, ""},
		{"Proxy preview runs no trap", "console.log(new Proxy({ a: 1 }, { get() { throw new Error('trap'); }, ownKeys() { throw new Error('trap'); } }));", OutcomeOK, []string{"{ a: 1 }"}, ""},
	}
	p := newTestPool(t, Config{Workers: 2, MemoryBytes: 256 << 20, DefaultTimeout: 5 * time.Second, MaxTimeout: time.Minute})
	crashes := p.Stats().Crashes
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, rec := run(t, p, Request{Timeout: 20 * time.Second, Files: files("main.ts", tt.src)})
			if res.Outcome != tt.outcome {
				t.Fatalf("outcome %s (errors %+v); want %s", res.Outcome, rec.errors(), tt.outcome)
			}
			logs := rec.logs()
			if tt.logs != nil && strings.Join(logs, "\n") != strings.Join(tt.logs, "\n") {
				t.Errorf("logs %.200q; want %q", logs, tt.logs)
			}
			if tt.logs == nil && (len(logs) != 2 || logs[1] != "after" || len(logs[0]) > 64<<10) {
				t.Errorf("%d logs; want a truncated line and after", len(logs))
			}
			if res.Stats.OutputBytes > 1<<20 {
				t.Errorf("outputBytes %d", res.Stats.OutputBytes)
			}
			errs := rec.errors()
			if tt.errPrefix != "" && (len(errs) != 1 || errs[0].Kind != KindRuntime || !strings.HasPrefix(errs[0].Message, tt.errPrefix) || errs[0].Line != 2) {
				t.Errorf("errors %+v; want one RUNTIME_ERROR %q at main.ts:2", errs, tt.errPrefix)
			}
		})
	}
	if c := p.Stats().Crashes; c != crashes {
		t.Errorf("%d worker crashes; want none", c-crashes)
	}
}

// TestRunsDoNotShareState: a worker serves many runs, each in a fresh
// runtime, so mutated built-ins and globals never reach the next run.
func TestRunsDoNotShareState(t *testing.T) {
	p := newTestPool(t, Config{Workers: 1, Spares: 1})
	res, rec := run(t, p, Request{Files: files("main.ts", `
Array.prototype.push = function () { return -1; };
(Object.prototype as any).polluted = "yes";
(globalThis as any).leaked = 42;
JSON.stringify = () => "hijacked";
Math.random = () => 0.5;
console.log("mutated");
`)})
	if res.Outcome != OutcomeOK {
		t.Fatalf("mutating run: %s %+v", res.Outcome, rec.errors())
	}
	for i := range 4 { // enough runs to land on every worker, the mutated one included
		res, rec := run(t, p, Request{Files: files("main.ts", `
const a: number[] = []; a.push(1);
console.log(a.length, ({} as any).polluted, typeof (globalThis as any).leaked, JSON.stringify({ k: 1 }), Math.random() !== 0.5 || Math.random() !== 0.5);
`)})
		if res.Outcome != OutcomeOK {
			t.Fatalf("run %d: %s %+v", i, res.Outcome, rec.errors())
		}
		if got := rec.logs(); len(got) != 1 || got[0] != `1 undefined undefined {"k":1} true` {
			t.Errorf("run %d saw %q; want a pristine runtime", i, got)
		}
	}
}

func TestNoFileIsRead(t *testing.T) {
	p := newTestPool(t, Config{Workers: 1})
	res, rec := run(t, p, Request{Files: files("main.ts", `
const r1 = eval("1 + 1\n//# sourceMappingURL=/etc/passwd");
const r2 = new Function("return 2\n//# sourceMappingURL=file:///etc/hostname")();
console.log(r1, r2);
`)})
	if res.Outcome != OutcomeOK {
		t.Fatalf("outcome %s: %+v", res.Outcome, rec.errors())
	}
	if got := rec.logs(); len(got) != 1 || got[0] != "2 2" {
		t.Errorf("logs = %q", got)
	}
}

// TestCircuitBreaker: a worker binary that cannot start must not be
// restarted in a tight loop, and runs must not hang on it.
func TestCircuitBreaker(t *testing.T) {
	p := newTestPool(t, Config{Workers: 2, Command: []string{"/bin/false"}})
	time.Sleep(1500 * time.Millisecond)
	st := p.Stats()
	if st.Failures < 3 {
		t.Fatalf("failures = %d; want the failed starts counted", st.Failures)
	}
	// Without backoff three spawners would fail hundreds of times in 1.5s.
	if st.Failures > 40 {
		t.Errorf("failures = %d in 1.5s; want the breaker to back off", st.Failures)
	}
	if !st.BreakerOpen {
		t.Error("Stats().BreakerOpen = false after repeated start failures")
	}
	if h := newTestPool(t, Config{Workers: 1}); h.Stats().BreakerOpen {
		t.Error("a healthy pool reports its breaker open")
	}
	ctx, cancel := context.WithTimeout(t.Context(), 300*time.Millisecond)
	defer cancel()
	res, err := p.Run(ctx, Request{Files: files("main.js", "1")}, func(Event) {})
	if err != nil || res.Outcome != OutcomeCancelled {
		t.Errorf("run with no worker: %v %s; want it to end with its context", err, res.Outcome)
	}
}

// idleWorkers returns the pids of the pool's started workers.
func idleWorkers(p *Pool) []int {
	p.mu.Lock()
	defer p.mu.Unlock()
	var pids []int
	for w := range p.procs {
		pids = append(pids, w.cmd.Process.Pid)
	}
	return pids
}

// TestDeadIdleWorkers: workers killed while idle (the OOM killer, an
// operator) are noticed at once: stats tell the truth and no run is handed
// to them; a stopped worker (SIGSTOP) is found when it does not accept its
// job, killed, and the job retried on a fresh worker.
func TestDeadIdleWorkers(t *testing.T) {
	p := newTestPool(t, Config{Workers: 2, Spares: 1, AcceptTimeout: 500 * time.Millisecond})
	for i := range 3 { // every worker started and proven
		if res, _ := run(t, p, Request{Files: files("main.ts", "1")}); res.Outcome != OutcomeOK {
			t.Fatalf("warm-up run %d: %s", i, res.Outcome)
		}
	}
	waitFor := func(what string, cond func() bool) {
		t.Helper()
		deadline := time.Now().Add(30 * time.Second)
		for !cond() {
			if time.Now().After(deadline) {
				t.Fatalf("timed out waiting for %s", what)
			}
			time.Sleep(10 * time.Millisecond)
		}
	}
	waitFor("3 workers", func() bool { return len(idleWorkers(p)) == 3 })
	before := p.Stats()
	for _, pid := range idleWorkers(p) {
		if err := syscall.Kill(pid, syscall.SIGKILL); err != nil {
			t.Fatal(err)
		}
	}
	waitFor("the killed workers to be counted and replaced", func() bool {
		st := p.Stats()
		return st.Crashes >= before.Crashes+3 && st.Restarts >= before.Restarts+3
	})
	for i := range 3 {
		res, rec := run(t, p, Request{Files: files("main.ts", "console.log('after kill')")})
		if res.Outcome != OutcomeOK || len(rec.logs()) != 1 {
			t.Errorf("run %d after the idle workers were killed: %s %+v; want ok", i, res.Outcome, rec.errors())
		}
	}

	waitFor("3 idle workers again", func() bool { return len(idleWorkers(p)) == 3 && p.Stats().Idle == 3 })
	stopped := idleWorkers(p)[0]
	if err := syscall.Kill(stopped, syscall.SIGSTOP); err != nil {
		t.Fatal(err)
	}
	kills := p.Stats().Kills
	for i := range 3 { // one of them lands on the stopped worker and is retried
		res, rec := run(t, p, Request{Files: files("main.ts", "console.log('after stop')")})
		if res.Outcome != OutcomeOK || len(rec.logs()) != 1 {
			t.Errorf("run %d with a stopped worker: %s %+v; want ok", i, res.Outcome, rec.errors())
		}
	}
	if k := p.Stats().Kills; k != kills+1 {
		t.Errorf("kills = %d; want %d: the stopped worker killed once it did not accept its job", k, kills+1)
	}
}

// fakeWorkerPool is a pool whose workers are a shell script that says
// ready, reads its job, and then does what then says (without a line).
func fakeWorkerPool(t *testing.T, then string) *Pool {
	t.Helper()
	return newTestPool(t, Config{Workers: 1, Spares: -1, Command: []string{"/bin/sh", "-c", `echo '{"ready":true}'; read job; ` + then}})
}

// TestWorkerCrashBeforeAnyLineIsNotRetried: a cached job's first lines wait
// up to the worker's next watchdog tick to leave together, so a snippet that ends its
// worker at once (a fatal out-of-memory) may leave no line behind. The
// worker took the job and may have run it: the run ends there, reported,
// and is not re-run on a fresh worker.
func TestWorkerCrashBeforeAnyLineIsNotRetried(t *testing.T) {
	ran := filepath.Join(t.TempDir(), "ran")
	p := fakeWorkerPool(t, `echo job >> '`+ran+`'; echo 'fatal error: out of memory' >&2; exit 2`)
	res, rec := run(t, p, Request{Files: files("main.ts", "1")})
	if res.Outcome != OutcomeMemoryLimit {
		t.Errorf("outcome = %s (errors %+v); want memory_limit", res.Outcome, rec.errors())
	}
	if errs := rec.errors(); len(errs) != 1 || errs[0].Kind != KindMemoryLimit {
		t.Errorf("errors = %+v; want one MEMORY_LIMIT", errs)
	}
	if b, err := os.ReadFile(ran); err != nil || string(b) != "job\n" {
		t.Errorf("the job ran %q (%v); want once, not again on a fresh worker", b, err)
	}
	if st := p.Stats(); st.Crashes != 0 {
		t.Errorf("%d workers crashed; want 0: a run over its memory is the run's outcome, not a crash", st.Crashes)
	}
	if errs := rec.errors(); len(errs) == 1 && !strings.Contains(errs[0].Message, "while bundling it or before its first event") {
		t.Errorf("message %q; want it to say the run had not started", errs[0].Message)
	}
}

// TestWorkerKilledFromOutsideIsRetried: a worker that another process
// killed (SIGKILL: the OOM killer, an operator) before it said a word is
// stale, not the job's doing: the job gets one fresh worker.
func TestWorkerKilledFromOutsideIsRetried(t *testing.T) {
	p := fakeWorkerPool(t, `kill -9 $$`)
	_, err := p.Run(t.Context(), Request{Files: files("main.ts", "1")}, func(Event) {})
	if !errors.Is(err, errNotStarted) {
		t.Errorf("Run: %v; want errNotStarted after the retry", err)
	}
	if st := p.Stats(); st.Crashes != 2 {
		t.Errorf("%d workers crashed; want 2: the job was tried on a second worker", st.Crashes)
	}
}

// TestMemoryLimitKeepsStats: a run killed over its memory still reports
// what it did (its logs, bytes and run time) and is not a worker crash.
func TestMemoryLimitKeepsStats(t *testing.T) {
	p := newTestPool(t, Config{Workers: 1, MemoryBytes: 256 << 20}) // reached in a few arrays, under -race too
	before := p.Stats().Crashes
	res, rec := run(t, p, Request{Files: files("main.ts", "console.log('hi');\nconst parts: Float64Array[] = [];\nwhile (true) parts.push(new Float64Array(8e6).fill(1));"), Timeout: 20 * time.Second})
	if res.Outcome != OutcomeMemoryLimit {
		t.Fatalf("outcome %s %+v; want memory_limit", res.Outcome, rec.errors())
	}
	if res.Stats.Logs != 1 || res.Stats.OutputBytes == 0 || res.Stats.Run <= 0 {
		t.Errorf("stats %+v; want the one log, its bytes and the run's time", res.Stats)
	}
	if c := p.Stats().Crashes; c != before {
		t.Errorf("%d crashes; want none: the run's memory is its outcome", c-before)
	}
}

// TestOneTimeoutError: a worker that reported its run's TIMEOUT and then
// did not end it within the kill grace is killed, and the client still
// sees one TIMEOUT error, not a second from the parent.
func TestOneTimeoutError(t *testing.T) {
	p := fakeWorkerPool(t, `echo '{"accepted":true}'; echo '{"event":{"kind":"started","t":0,"timeout":100000000}}'; echo '{"event":{"kind":"error","t":0,"error":{"kind":"TIMEOUT","message":"run exceeded its time limit of 100 ms"}}}'; exec sleep 30`)
	res, rec := run(t, p, Request{Files: files("main.ts", "while (true) {}"), Timeout: 100 * time.Millisecond})
	if res.Outcome != OutcomeTimeout {
		t.Errorf("outcome %s; want timeout", res.Outcome)
	}
	if errs := rec.errors(); len(errs) != 1 || errs[0].Kind != KindTimeout {
		t.Errorf("errors %+v; want one TIMEOUT", errs)
	}
}

// TestDeepNativeRecursion: recursion that passes through Go at every level
// (a conversion calling valueOf, a getter, a Proxy trap) reaches the JS
// call-stack cap (pipe.Limits.MaxCallStack, about Node's depth) well inside
// the worker's Go stack: it ends as the RangeError, or at its deadline
// while the overflow unwinds (goja re-panics at every Go frame, which costs
// seconds at that depth), never as a Go stack overflow; at a lower cap
// each ends as the RangeError.
func TestDeepNativeRecursion(t *testing.T) {
	p := newTestPool(t, Config{Workers: 1, DefaultTimeout: 2 * time.Second, MaxTimeout: time.Minute})
	crashes := p.Stats().Crashes
	shapes := map[string]string{
		"valueOf":    "const objs: any[] = []; for (let i = 0; i < 20000; i++) objs.push({ valueOf() { return i === 0 ? 0 : +objs[i - 1] + 1; } }); console.log(+objs[19999]);",
		"getter":     "const o = { n: 20000, get deep(): number { return this.n-- > 0 ? this.deep : 0; } }; console.log(o.deep);",
		"proxy trap": "const p: any = new Proxy({}, { get(t: any, k) { t.n = (t.n || 0) + 1; return t.n < 20000 ? p.x : t.n; } }); console.log(p.x);",
		"toString":   "function g(n: number): string { return n === 0 ? '' : String({ toString() { return g(n - 1); } }); } console.log(g(20000).length);",
		"array map":  "function f(n: number): number { return n === 0 ? 0 : [n].map((x) => f(x - 1))[0] + 1; } console.log(f(20000));",
	}
	for name, src := range shapes {
		t.Run(name, func(t *testing.T) {
			res, rec := run(t, p, Request{Files: files("main.ts", src)})
			errs := rec.errors()
			switch res.Outcome {
			case OutcomeError:
				if len(errs) != 1 || errs[0].Message != "RangeError: Maximum call stack size exceeded" {
					t.Errorf("errors %+v; want the RangeError", errs)
				}
			case OutcomeTimeout:
			default:
				t.Errorf("outcome %s (errors %+v); want error or timeout", res.Outcome, errs)
			}
			next, rec := run(t, p, Request{Files: files("main.ts", "console.log('next')")})
			if next.Outcome != OutcomeOK || len(rec.logs()) != 1 {
				t.Errorf("next run: outcome %s logs %q; want ok [next]", next.Outcome, rec.logs())
			}
		})
	}
	if c := p.Stats().Crashes; c != crashes {
		t.Errorf("%d worker crashes; want none", c-crashes)
	}
	// With a lower cap the overflow unwinds in well under a second, and
	// every shape ends as the RangeError a snippet expects.
	low := newTestPool(t, Config{Workers: 1, DefaultTimeout: 30 * time.Second, MaxTimeout: time.Minute, Limits: Limits{MaxCallStack: 3_000}})
	for name, src := range shapes {
		res, rec := run(t, low, Request{Files: files("main.ts", src)})
		if errs := rec.errors(); res.Outcome != OutcomeError || len(errs) != 1 || errs[0].Message != "RangeError: Maximum call stack size exceeded" {
			t.Errorf("%s at 3,000 frames: outcome %s, errors %+v; want the RangeError", name, res.Outcome, errs)
		}
	}
}
