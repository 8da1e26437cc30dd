package js

import (
	"context"
	"testing"
	"time"

	"github.com/dop251/goja"

	"github.com/playground-dev/playground/sandbox/pipe"
)

// BenchmarkNewHello is a plain run's runtime work: a fresh runtime (New)
// and a hello-world program executed on it. A run installs only the
// globals and Node-compatibility additions its program may reach
// (usage.go): new+execute is the plain hello (it reaches console only);
// new+execute-dynamic is the same hello with one computed member access,
// which may reach anything, so it gets everything (what every run got
// before pay-per-use set-up); new+execute-loop sums an array in a for loop
// (a[i] with a numeric i, which is not dynamic). The without-… sub-benchmarks narrow what
// install may add (installable) for the dynamic hello, so that what an
// addition costs is the difference to new+execute-dynamic; without-additions
// drops every addition of issue 9 (guards, RegExp, locale, polyfill holders
// and statics, native toString) but keeps the runtime's own globals.
// Allocation per op is the measure that holds on a loaded machine:
//
//	go test ./sandbox/worker/js -run '^$' -bench NewHello -benchmem -count 5
func BenchmarkNewHello(b *testing.B) {
	hello := mustCompile(b, `(async function (rt) { console.log("hello"); })`)
	dynamic := mustCompile(b, `(async function (rt) { const k = "log"; console[k]("hello"); })`)
	loop := mustCompile(b, `(async function (rt) { const a = [1, 2, 3]; let s = 0; for (let i = 0; i < a.length; i++) s += a[i]; console.log(s); })`)
	job := func(prg *goja.Program) Job {
		return Job{Program: prg, Timeout: 5 * time.Second, Limits: pipe.DefaultLimits()}
	}
	run := func(j Job) func(b *testing.B) {
		return func(b *testing.B) {
			for b.Loop() {
				New(j).Execute(context.Background(), j, func(pipe.Event) {})
			}
		}
	}
	plain := job(hello)
	dyn := plain
	dyn.Program = dynamic
	b.Run("new+execute", run(plain))
	b.Run("new+execute-dynamic", run(dyn))
	lp := plain
	lp.Program = loop
	b.Run("new+execute-loop", run(lp)) // a[i] with a numeric i: not dynamic (numeric.go)
	// The worker's default: host functions echo and sleep, also as globals.
	withHost := func(j Job) Job {
		j.Host, j.Globals = []string{"echo", "sleep"}, []string{"echo", "sleep"}
		return j
	}
	b.Run("new+execute-host-globals", run(withHost(plain)))
	b.Run("new+execute-dynamic-host-globals", run(withHost(dyn)))
	for _, off := range []struct {
		name string
		mask need
		prg  Job
	}{
		{"new+execute-without-additions", needAdditions, plain},
		{"new+execute-dynamic-without-additions", needAdditions, dyn},
		{"new+execute-dynamic-without-guards", needStringGuards | needSortGuard | needBigIntGuards | needApplyGuards, dyn},
		{"new+execute-dynamic-without-regexp", needRegExp, dyn},
		{"new+execute-dynamic-without-locale", needLocale, dyn},
		{"new+execute-dynamic-without-polyfills", needPolyfills, dyn},
	} {
		b.Run(off.name, func(b *testing.B) {
			old := installable
			installable &^= off.mask
			defer func() { installable = old }()
			run(off.prg)(b)
		})
	}
}

func mustCompile(b *testing.B, src string) *goja.Program {
	b.Helper()
	prg, err := Compile(src)
	if err != nil {
		b.Fatal(err)
	}
	return prg
}
