package js

import (
	"context"
	"testing"
	"time"

	"github.com/playground-dev/playground/sandbox/pipe"
)

// BenchmarkNewHello is a plain run's runtime work: a fresh runtime (New)
// and a hello-world program executed on it. The without-… sub-benchmarks
// turn one Node-compatibility addition off (without-additions: all of
// them), so what an addition costs a plain run is the difference to
// new+execute; the remaining sub-benchmarks run one install step once more
// on a fresh runtime (built-ins it touches are built already there, so
// they show only its own functions). Allocation per op is the measure that
// holds on a loaded machine:
//
//	go test ./sandbox/worker/js -run '^$' -bench NewHello -benchmem -count 5
func BenchmarkNewHello(b *testing.B) {
	prg, err := Compile(`(async function (rt) { console.log("hello"); })`)
	if err != nil {
		b.Fatal(err)
	}
	j := Job{Program: prg, Timeout: 5 * time.Second, Limits: pipe.DefaultLimits()}
	run := func(b *testing.B) {
		for b.Loop() {
			New(j).Execute(context.Background(), j, func(pipe.Event) {})
		}
	}
	b.Run("new+execute", run)
	// The worker's default: host functions echo and sleep, also as globals.
	b.Run("new+execute-host-globals", func(b *testing.B) {
		j := j
		j.Host, j.Globals = []string{"echo", "sleep"}, []string{"echo", "sleep"}
		for b.Loop() {
			New(j).Execute(context.Background(), j, func(pipe.Event) {})
		}
	})
	for _, off := range []struct {
		name string
		flag *bool
		on   bool
	}{
		{"without-additions", &nodeAdditions, false},
		{"without-guards", &guardsOn, false},
		{"without-regexp", &benchOff.regexp, true},
		{"without-locale", &benchOff.locale, true},
		{"without-polyfill-holders", &benchOff.holders, true},
	} {
		b.Run("new+execute-"+off.name, func(b *testing.B) {
			old := *off.flag
			*off.flag = off.on
			defer func() { *off.flag = old }()
			run(b)
		})
	}
	for _, step := range []struct {
		name string
		f    func(*Runtime)
	}{
		// installPolyfills defines non-configurable statics: it cannot run twice.
		{"guards", (*Runtime).installGuards}, // inside installPolyfills
		{"locale", (*Runtime).installLocale},
	} {
		b.Run(step.name, func(b *testing.B) {
			for b.Loop() {
				b.StopTimer()
				e := New(j)
				b.StartTimer()
				step.f(e)
			}
		})
	}
}
