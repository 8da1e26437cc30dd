package js

import (
	"context"
	"testing"
	"time"

	"github.com/playground-dev/playground/sandbox/pipe"
)

// BenchmarkNewHello is a plain run's runtime work: a fresh runtime (New)
// and a hello-world program executed on it. The sub-benchmarks measure what
// the Node-compatibility additions add to New (each runs its install step
// once more on a fresh runtime, which costs what it cost inside New).
func BenchmarkNewHello(b *testing.B) {
	prg, err := Compile(`(async function (rt) { console.log("hello"); })`)
	if err != nil {
		b.Fatal(err)
	}
	j := Job{Program: prg, Timeout: 5 * time.Second, Limits: pipe.DefaultLimits()}
	b.Run("new+execute", func(b *testing.B) {
		for b.Loop() {
			New(j).Execute(context.Background(), j, func(pipe.Event) {})
		}
	})
	b.Run("new+execute-without-additions", func(b *testing.B) {
		nodeAdditions = false
		defer func() { nodeAdditions = true }()
		for b.Loop() {
			New(j).Execute(context.Background(), j, func(pipe.Event) {})
		}
	})
	b.Run("new+execute-without-guards", func(b *testing.B) {
		guardsOn = false
		defer func() { guardsOn = true }()
		for b.Loop() {
			New(j).Execute(context.Background(), j, func(pipe.Event) {})
		}
	})
	for _, step := range []struct {
		name string
		f    func(*Runtime)
	}{
		{"polyfills", (*Runtime).installPolyfills},
		{"guards", (*Runtime).installGuards}, // inside polyfills

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
