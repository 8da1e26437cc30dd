package sandbox

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

func TestHostFunctions(t *testing.T) {
	var cancelled atomic.Bool
	var logged lockedBuffer
	p := newTestPool(t, Config{Workers: 1, Log: slog.New(slog.NewTextHandler(&logged, nil)), Limits: Limits{MaxHostCalls: 5}, HostCallTimeout: 300 * time.Millisecond, Host: map[string]HostFunc{
		"echo": func(_ context.Context, c HostCall) (json.RawMessage, error) {
			return json.Marshal(map[string]any{"args": c.Args, "session": c.Session})
		},
		"fail": func(context.Context, HostCall) (json.RawMessage, error) { return nil, errors.New("nope") },
		"boom": func(context.Context, HostCall) (json.RawMessage, error) { panic("handler bug") },
		"kv.get": func(context.Context, HostCall) (json.RawMessage, error) {
			return json.RawMessage(`"v"`), nil
		},
		"slow": func(ctx context.Context, _ HostCall) (json.RawMessage, error) {
			<-ctx.Done()
			cancelled.Store(true)
			return nil, ctx.Err()
		},
	}})
	res, rec := run(t, p, Request{ID: "run-42", Session: "tab1", Files: files("main.ts", `
import { host } from "playground";
const r = await host.echo("hi", 2, { a: [1] });
console.log(JSON.stringify(r));
console.log(await host.kv.get("k"));
for (const name of ["fail", "boom", "slow"]) {
  try { await (host as any)[name](); } catch (e) { console.log(name, String(e)); }
}
try { await host.echo(); } catch (e) { console.log(String(e)); }
`)})
	if res.Outcome != OutcomeOK {
		t.Fatalf("outcome %s: %+v", res.Outcome, rec.errors())
	}
	want := []string{
		`{"args":["hi",2,{"a":[1]}],"session":"tab1"}`,
		`v`,
		`fail Error: host.fail: nope`,
		`boom Error: host.boom: the host function failed`,
		`slow Error: host.slow: timed out after 300ms`,
		`RangeError: host.echo: this run made its 5 host calls, the limit`,
	}
	if got := rec.logs(); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("logs:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	var calls []string
	for _, e := range rec.events {
		if e.Kind == EventCall && !e.Pending {
			s := e.Name
			if !e.OK {
				s += " error: " + e.CallError
			}
			calls = append(calls, s)
			if e.Name == "slow" && (e.Duration < 250*time.Millisecond || e.Duration > 5*time.Second) {
				t.Errorf("slow call took %v; want about 300ms", e.Duration)
			}
		}
	}
	if got := strings.Join(calls, "|"); got != "echo|kv.get|fail error: nope|boom error: the host function failed|slow error: timed out after 300ms" {
		t.Errorf("call events = %s", got)
	}
	if !cancelled.Load() {
		t.Error("the slow handler's context was not cancelled")
	}
	if l := logged.String(); !strings.Contains(l, "host function panicked") || !strings.Contains(l, "run=run-42") || !strings.Contains(l, "handler bug") {
		t.Errorf("server log = %q; want the panic logged with the run id", l)
	}
}

// lockedBuffer is a bytes.Buffer safe for the pool's concurrent logging.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

func TestHostCallCancelledWithRun(t *testing.T) {
	started := make(chan struct{})
	done := make(chan error, 1)
	p := newTestPool(t, Config{Workers: 1, Host: map[string]HostFunc{
		"wait": func(ctx context.Context, _ HostCall) (json.RawMessage, error) {
			close(started)
			<-ctx.Done()
			done <- ctx.Err()
			return nil, ctx.Err()
		},
	}})
	res, rec := run(t, p, Request{Timeout: time.Second, Files: files("main.ts", `
import { host } from "playground";
await host.wait();
`)})
	<-started
	if res.Outcome != OutcomeTimeout {
		t.Fatalf("outcome %s: %+v; want timeout (a pending host call keeps the run alive)", res.Outcome, rec.errors())
	}
	select {
	case err := <-done:
		if err == nil {
			t.Error("handler context ended without error")
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the handler's context was not cancelled when the run ended")
	}
}

// TestLateHostReplyIsIgnored: a reply that arrives after its run ended must
// not settle a call of the next run on the same worker.
func TestLateHostReplyIsIgnored(t *testing.T) {
	release := make(chan struct{})
	p := newTestPool(t, Config{Workers: 1, Spares: 1, Host: map[string]HostFunc{
		"late": func(ctx context.Context, _ HostCall) (json.RawMessage, error) {
			<-release
			return json.RawMessage(`"late"`), nil
		},
		"now": func(context.Context, HostCall) (json.RawMessage, error) { return json.RawMessage(`"now"`), nil },
	}})
	// The first run leaves a call pending and ends (its worker is reused).
	res, _ := run(t, p, Request{Timeout: 100 * time.Millisecond, Files: files("main.ts", `import { host } from "playground";
host.late(); await new Promise((r) => setTimeout(r, 20));`)})
	if res.Outcome != OutcomeTimeout {
		t.Fatalf("first run: %s; want timeout (a pending call keeps it alive)", res.Outcome)
	}
	close(release)
	for i := range 4 {
		res, rec := run(t, p, Request{Files: files("main.ts", `import { host } from "playground";
console.log(await host.now());`)})
		if res.Outcome != OutcomeOK || len(rec.logs()) != 1 || rec.logs()[0] != "now" {
			t.Fatalf("run %d: %s %q; want the run's own reply", i, res.Outcome, rec.logs())
		}
	}
}

// A Go embedder exposes host functions as globals (Config.HostGlobals);
// names that are not identifiers, name no host function, or would shadow
// a JavaScript global are refused when the pool is made.
func TestHostGlobalsConfig(t *testing.T) {
	host := map[string]HostFunc{
		"log":     func(context.Context, HostCall) (json.RawMessage, error) { return nil, nil },
		"console": func(context.Context, HostCall) (json.RawMessage, error) { return nil, nil },
		"kv.get":  func(context.Context, HostCall) (json.RawMessage, error) { return nil, nil },
	}
	for _, tc := range []struct {
		globals []string
		want    string
	}{
		{[]string{"console"}, `host global "console": the name is a JavaScript global`},
		{[]string{"log", "setTimeout"}, `host global "setTimeout": the name is a JavaScript global`},
		{[]string{"input"}, `host global "input": the name is a JavaScript global`},
		{[]string{"kv.get"}, `host global "kv.get": not a JavaScript identifier`},
		{[]string{"await"}, `host global "await": not a JavaScript identifier`},
		{[]string{"nope"}, `host global "nope": no host function is named "nope" or "nope".<name> (host functions: console, kv.get, log)`},
		{[]string{"log", "log"}, `host global "log": named twice`},
	} {
		_, err := NewPool(Config{Workers: 1, Host: host, HostGlobals: tc.globals, Log: testLogger(t)})
		if err == nil || !strings.HasPrefix(err.Error(), tc.want) {
			t.Errorf("HostGlobals %q: error %v; want %q", tc.globals, err, tc.want)
		}
	}
	p, err := NewPool(Config{Workers: 1, Host: host, HostGlobals: []string{"log", "kv"}, Log: testLogger(t)})
	if err != nil {
		t.Fatalf("log and kv: %v", err)
	}
	p.Close()
}

// `await log("hello")` runs as written; the call's start event (its id
// and arguments) comes before the event that settles it, and the handler
// sees the run's clock: the virtual one in a deterministic run.
func TestHostGlobalCall(t *testing.T) {
	clocks := make(chan HostCall, 4)
	p := newTestPool(t, Config{Workers: 1, HostGlobals: []string{"log"}, Host: map[string]HostFunc{
		"log": func(_ context.Context, c HostCall) (json.RawMessage, error) {
			clocks <- c
			return json.RawMessage(`"logged"`), nil
		},
	}})
	for _, det := range []bool{false, true} {
		res, rec := run(t, p, Request{Deterministic: det, Files: files("main.ts", `
const r = await log("hello", { n: 1 });
console.log(r);
try { await log(console.log); } catch (e) { console.log(String(e)); }
`)})
		if res.Outcome != OutcomeOK {
			t.Fatalf("outcome %s: %+v", res.Outcome, rec.errors())
		}
		logs := rec.logs()
		if len(logs) != 2 || logs[0] != "logged" || !strings.HasPrefix(logs[1], "TypeError: host.log: argument 1 is or holds a function") {
			t.Errorf("logs = %q", logs)
		}
		var calls []string
		for _, e := range rec.events {
			if e.Kind != EventCall {
				continue
			}
			args, _ := json.Marshal(e.Args)
			calls = append(calls, fmt.Sprintf("%d %v %s %s ok=%v %s", e.CallID, e.Pending, e.Name, args, e.OK, e.Result))
		}
		want := []string{`1 true log ["hello",{"n":1}] ok=false `, `1 false log ["hello",{"n":1}] ok=true "logged"`}
		if strings.Join(calls, "\n") != strings.Join(want, "\n") {
			t.Errorf("call events:\n%s\nwant:\n%s", strings.Join(calls, "\n"), strings.Join(want, "\n"))
		}
		c := <-clocks
		virtual := time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)
		if c.Deterministic != det || (det && !c.Clock.Equal(virtual)) || (!det && time.Since(c.Clock).Abs() > time.Minute) {
			t.Errorf("deterministic=%v: handler saw Deterministic=%v Clock=%v", det, c.Deterministic, c.Clock)
		}
	}
}

// done.facts is every fact change the run streamed, also when its worker
// was killed at the deadline (stuck in a builtin) or ended itself at its
// memory limit; past the facts cap the run ends output_limit with the
// facts as they were, and the next run on the pool is served.
func TestFactsSurviveStopsAndCap(t *testing.T) {
	p := newTestPool(t, Config{Workers: 1, MemoryBytes: 128 << 20, MaxTimeout: time.Minute, Limits: Limits{MaxFactsBytes: 1000}})
	prefix := `import { facts } from "playground";
const tick = () => new Promise((r) => setTimeout(r, 1));
facts.a = 1;
facts.list = [];
await tick();
facts.list.push(1); // nested: sent when the task ends
facts.gone = true;
delete facts.gone;
await tick();
facts.c = "first";
facts.c = "last"; // a second set at once: sent at once too
`
	want := `{"a":1,"c":"last","list":[1]}`
	for _, tc := range []struct {
		name, stop string
		timeout    time.Duration
		outcome    Outcome
	}{
		{"killed in a builtin at the deadline", "/^(?=.)(a+)+$/.test('a'.repeat(40) + '!');", time.Second, OutcomeTimeout},
		{"loop interrupted at the deadline", "while (true) {}", time.Second, OutcomeTimeout},
		{"memory limit", "const a = []; for (;;) a.push('x'.repeat(2 ** 24) + a.length);", 30 * time.Second, OutcomeMemoryLimit},
		{"facts cap", "for (let i = 0; i < 100; i++) facts['k' + i] = 'x'.repeat(100);", 30 * time.Second, OutcomeOutputLimit},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res, rec := run(t, p, Request{Timeout: tc.timeout, Files: files("main.ts", prefix+tc.stop)})
			if res.Outcome != tc.outcome {
				t.Fatalf("outcome %s: %+v; want %s", res.Outcome, rec.errors(), tc.outcome)
			}
			got, _ := json.Marshal(res.Facts)
			w := want
			if tc.outcome == OutcomeOutputLimit {
				// 26 bytes of the prefix's facts, then 104 per key: 9 keys fit in 1000.
				var keys []string
				for i := range 9 {
					keys = append(keys, fmt.Sprintf(`"k%d":"%s"`, i, strings.Repeat("x", 100)))
				}
				w = `{"a":1,"c":"last",` + strings.Join(keys, ",") + `,"list":[1]}`
				if errs := rec.errors(); len(errs) != 1 || !strings.Contains(errs[0].Message, "facts limit (1000 bytes") {
					t.Errorf("errors %+v; want the facts limit named", errs)
				}
			}
			if string(got) != w {
				t.Errorf("done.facts = %s; want %s", got, w)
			}
			next, _ := run(t, p, Request{Files: files("main.ts", "console.log('next')")})
			if next.Outcome != OutcomeOK {
				t.Errorf("next run: %s", next.Outcome)
			}
		})
	}
}

// TestArrayScanOfAHugeArrayLikeEnds: the reproduction — a push into
// a fact's array, then includes over an array-like of length 2^53 - 1,
// which goja counted through until the pool killed the worker (the push was
// lost) — ends with the specification's answer, and done.facts has the push.
func TestArrayScanOfAHugeArrayLikeEnds(t *testing.T) {
	p := newTestPool(t, Config{Workers: 1})
	res, rec := run(t, p, Request{Timeout: 5 * time.Second, Files: files("main.ts", `import { facts } from "playground";
facts.n = 1;
facts.todos = [];
facts.n = 2;
facts.todos.push("a");
console.log(Array.prototype.includes.call({ length: 2 ** 53 - 1 }, "x"), Array.prototype.lastIndexOf.call({ length: 2 ** 53 - 1, 7: "x" }, "x"));
const a = []; a[2 ** 32 - 2] = 1; // a sparse array goja scanned index by index
console.log(a.lastIndexOf(2), a.indexOf(1), a.includes(undefined));`)})
	if res.Outcome != OutcomeOK {
		t.Fatalf("outcome %s: %+v", res.Outcome, rec.errors())
	}
	if got, _ := json.Marshal(res.Facts); string(got) != `{"n":2,"todos":["a"]}` {
		t.Errorf("done.facts = %s", got)
	}
	if logs := rec.logs(); len(logs) != 2 || logs[0] != "false 7" || logs[1] != "-1 4294967294 true" {
		t.Errorf("logs %q; want [\"false 7\" \"-1 4294967294 true\"]", logs)
	}
}

// A Go program embedding the pool registers its host functions and names
// the ones snippets may call as globals, as written for a page that
// registers them (SandpackVM style): `await log("hello")`.
func ExampleConfig_hostGlobals() {
	logged := make(chan string, 16)
	p, err := NewPool(Config{
		Host: map[string]HostFunc{
			"log": func(_ context.Context, c HostCall) (json.RawMessage, error) {
				for _, a := range c.Args {
					logged <- string(a) // each argument's JSON
				}
				return nil, nil // resolves to undefined
			},
		},
		HostGlobals: []string{"log"}, // also host.log; "console" or "fetch" would be refused here
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer p.Close()
	_, _ = p.Run(context.Background(), Request{Files: []File{{Path: "main.js", Source: `await log("hello");`}}}, func(ev Event) {
		if ev.Kind == EventCall && ev.Pending {
			fmt.Println("call", ev.CallID, ev.Name, "started")
		}
	})
}
