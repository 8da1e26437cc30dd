package js

import (
	"context"
	"testing"
	"time"

	"github.com/playground-dev/playground/sandbox/pipe"
)

// BenchmarkLoopGuards is what the array guards add to a run: the scan
// guards (parity/scan.go) when a program names includes, indexOf or
// lastIndexOf, and the loop guard of each parity.LoopGuardNames name it
// spells (parity/loops.go, usage.go). new+execute-loop is
// BenchmarkNewHello's loop program, which names none; the other two name
// includes (the scan guards) and join (its loop guard), so their
// difference to it is those guards' installation.
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
