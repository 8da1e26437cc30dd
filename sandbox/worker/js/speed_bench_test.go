package js

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/playground-dev/playground/sandbox/pipe"
)

// The per-run cost of issue 12: BenchmarkNewHello (new_bench_test.go) is a
// plain run's runtime work; these are the set-up pieces it is made of, and
// the tests that keep the lazily captured intrinsics (runtime.go) honest.

// BenchmarkSetup is New alone: a fresh goja runtime with the playground's
// global scope, no snippet run.
func BenchmarkSetup(b *testing.B) {
	j := Job{Timeout: 5 * time.Second, Limits: pipe.DefaultLimits()}
	for b.Loop() {
		New(j)
	}
}

// runSnippet runs code (the body of the bundle's async function) on a fresh
// runtime and returns its events and result.
func runSnippet(t *testing.T, code string) ([]pipe.Event, pipe.Result) {
	t.Helper()
	prg, err := Compile("(async function (rt) {\n" + code + "\n})")
	if err != nil {
		t.Fatal(err)
	}
	j := Job{Program: prg, Timeout: 5 * time.Second, Limits: pipe.DefaultLimits()}
	var evs []pipe.Event
	res := New(j).Execute(context.Background(), j, func(ev pipe.Event) { evs = append(evs, ev) })
	return evs, res
}

func TestLazyIntrinsicsRefuseReplacements(t *testing.T) {
	evs, res := runSnippet(t, `
const spy = function () { globalThis.ran = (globalThis.ran || 0) + 1; return "spy"; };
Map.prototype.forEach = spy;
Set.prototype.forEach = spy;
Date.prototype.toISOString = spy;
Date.prototype.getTime = spy;
Symbol.prototype.toString = spy;
BigInt.prototype.toString = spy;
Object.defineProperty(/x/.constructor.prototype, "source", { get: spy });
Object.defineProperty(Object.getPrototypeOf(/x/), "flags", { get: spy });
console.log(new Map([[1, 2]]), new Set([1]), new Date(0), Symbol("s"), 12n, /a/g);
console.log(globalThis.ran === undefined ? "no snippet code ran" : "ran " + globalThis.ran);
`)
	if res.Outcome != pipe.OutcomeOK {
		t.Fatalf("outcome %s; events %+v", res.Outcome, evs)
	}
	var logs []pipe.Event
	for _, ev := range evs {
		if ev.Kind == pipe.EventLog {
			logs = append(logs, ev)
		}
	}
	if len(logs) != 2 {
		t.Fatalf("logs %+v; want 2", logs)
	}
	if logs[1].Text != "no snippet code ran" {
		t.Errorf("the encoder called a replaced builtin: %q", logs[1].Text)
	}
	if args := string(joinRaw(logs[0].Args)); strings.Contains(args, "spy") || !strings.Contains(args, `"class":"Map"`) {
		t.Errorf("previews %s; want opaque values, no spy output", args)
	}
}

func TestLazyIntrinsicsUnchangedPreviews(t *testing.T) {
	// Replacing one builtin leaves the others found: each is checked alone.
	evs, _ := runSnippet(t, `
Map.prototype.forEach = function () {};
console.log(new Set([1]), new Date(0), /a/g, 12n, Symbol("s"));
`)
	for _, ev := range evs {
		if ev.Kind == pipe.EventLog {
			want := `[{"$t":"set","values":[1]},{"$t":"date","v":"1970-01-01T00:00:00.000Z"},{"$t":"regexp","v":"/a/g"},{"$t":"bigint","v":"12"},{"$t":"symbol","v":"Symbol(s)"}]`
			if got := string(joinRaw(ev.Args)); got != want {
				t.Errorf("args %s; want %s", got, want)
			}
			return
		}
	}
	t.Fatal("no log event")
}

func TestReplacedReflectKeepsGlobalLookups(t *testing.T) {
	// The polyfills' lookups of names a holder lacks use Reflect.has/get,
	// found before the snippet runs: replacing them changes nothing there.
	evs, res := runSnippet(t, `
Reflect.has = Reflect.get = () => { globalThis.ran = 1; return true; };
try { void notDefinedAnywhere; } catch (err) { console.log(err instanceof ReferenceError); }
console.log(typeof alsoNotDefined, globalThis.ran === undefined);
`)
	var texts []string
	for _, ev := range evs {
		if ev.Kind == pipe.EventLog {
			texts = append(texts, ev.Text)
		}
	}
	if res.Outcome != pipe.OutcomeOK || strings.Join(texts, "|") != "true|undefined true" {
		t.Errorf("outcome %s, logs %q; want a ReferenceError and no call of the replacement", res.Outcome, texts)
	}
}

func joinRaw(args []json.RawMessage) []byte {
	b, _ := json.Marshal(args)
	return b
}
