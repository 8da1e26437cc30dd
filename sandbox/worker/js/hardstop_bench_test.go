package js

import (
	"context"
	"testing"
	"time"

	"github.com/playground-dev/playground/sandbox/pipe"
)

// BenchmarkLoopGuards is what the array guards (parity/scan.go and
// parity/loops.go, installed together when a program names one of their
// methods: usage.go) add to a run: new+execute-loop is
// BenchmarkNewHello's loop program, which names none; the other two
// name includes (the scan guards and the loop guards) and join (the same
// set), so their difference to it is the guards' installation.
//
//	go test ./sandbox/worker/js -run '^$' -bench LoopGuards -benchmem -count 5
func BenchmarkLoopGuards(b *testing.B) {
	for _, c := range []struct{ name, src string }{
		{"new+execute-loop", `(async function (rt) { const a = [1, 2, 3]; let s = 0; for (let i = 0; i < a.length; i++) s += a[i]; console.log(s); })`},
		{"new+execute-loop-includes", `(async function (rt) { const a = [1, 2, 3]; let s = 0; for (let i = 0; i < a.length; i++) s += a[i]; console.log(s, a.includes(2)); })`},
		{"new+execute-loop-join", `(async function (rt) { const a = [1, 2, 3]; let s = 0; for (let i = 0; i < a.length; i++) s += a[i]; console.log(s, a.join("-")); })`},
	} {
		j := Job{Program: mustCompile(b, c.src), Timeout: 5 * time.Second, Limits: pipe.DefaultLimits()}
		b.Run(c.name, func(b *testing.B) {
			for b.Loop() {
				New(j).Execute(context.Background(), j, func(pipe.Event) {})
			}
		})
	}
}
