package js

import (
	"context"
	"encoding/json"
	"strconv"
	"testing"
	"time"

	"github.com/playground-dev/playground/sandbox/libs"
	"github.com/playground-dev/playground/sandbox/pipe"
	"github.com/playground-dev/playground/sandbox/worker/bundle"
)

// BenchmarkFactRows is what a fact of n rows adds to a run (issue 21: a
// fact of 1e3 rows adds ≤ 1 ms): the realwork workload fact_rows (n rows
// {id, name, v} assigned as one fact) against the same script without the
// assignment. What the fact costs is fact minus nofact.
//
//	go test ./sandbox/worker/js -run '^$' -bench FactRows -benchmem -count 5
func BenchmarkFactRows(b *testing.B) {
	set, err := libs.New("")
	if err != nil {
		b.Fatal(err)
	}
	const rows = `const { facts } = require('playground');
const rows = [];
for (let i = 0; i < input.n; i++) rows.push({ id: i, name: 'name-' + i, v: (i * 31) % 1000 });
`
	for _, c := range []struct{ name, code string }{
		{"nofact", rows + "output = rows.length;"},
		{"fact", rows + "facts.rows = rows;\noutput = rows.length;"},
	} {
		res := bundle.BundleMode([]pipe.File{{Path: "main.js", Source: c.code}}, "main.js", pipe.ModeScript, set)
		if len(res.Errors) > 0 {
			b.Fatal(res.Errors)
		}
		prg, err := Compile(res.Code)
		if err != nil {
			b.Fatal(err)
		}
		for _, n := range []int{1e3, 1e4} {
			lim := pipe.DefaultLimits()
			lim.MaxFactsBytes = 4 << 20 // as cmd/realwork's server
			j := Job{Program: prg, Timeout: 10 * time.Second, Limits: lim, Mode: pipe.ModeScript, Entry: "main.js",
				Input: json.RawMessage(`{"n":` + strconv.Itoa(n) + `}`)}
			b.Run(c.name+"/n="+strconv.Itoa(n), func(b *testing.B) {
				for b.Loop() {
					if r := New(j).Execute(context.Background(), j, func(pipe.Event) {}); r.Outcome != pipe.OutcomeOK {
						b.Fatal(r.Outcome)
					}
				}
			})
		}
	}
}
