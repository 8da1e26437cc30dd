package js

import (
	"bytes"
	"strings"
	"testing"

	"github.com/playground-dev/playground/sandbox/pipe"
)

// TestPlainDataAsBefore: facts and output of plain data are byte for byte
// what the preview encoder wrote for them (fastJSON off), and the input
// and JSON.parse build the same values; what jsonvalue refuses takes the
// old path.
func TestPlainDataAsBefore(t *testing.T) {
	codes := []string{
		`rt.facts.rows = Array.from({ length: 50 }, (_, i) => ({ id: i, name: "item-" + i + "<&>", v: i * 1.5, tags: ["a", i % 2 === 0], nested: { deep: [null, true, -7, 1e21, 1e-7, 0.1] } }));
		 rt.facts.rows.push({ late: "é😀\u2028" }); await null; rt.done(rt.facts.rows.slice(48));`,
		`const v = JSON.parse('{"__proto__":1,"a":[1,2,{"b":"\\u00e9"}],"2":"two","1":"one"}'); rt.facts.v = v; rt.done([v, Object.keys(v), Object.getPrototypeOf(v) === Object.prototype]);`,
		`rt.done({ u: undefined, n: NaN, i: -Infinity, z: -0, d: new Date(0), m: new Map([[1, 2]]), big: 10n, f() {}, s: Symbol("q"), hole: [1, , 3] });`,
		`const o = { a: 1 }; o.self = o; rt.facts.cyc = { o }; rt.done(o);`,
		`rt.done(rt.input);`,
		`rt.done(JSON.parse(JSON.stringify(rt.input)));`,
	}
	input := []byte(`{"rows":[{"id":1,"name":"x","v":2.5},{"id":2,"name":"\u00e9","v":-0.0}],"s":"a\u0000b"}`)
	for _, code := range codes {
		run := func(fast bool) ([]pipe.Event, pipe.Result) {
			t.Helper()
			old := fastJSON
			fastJSON = fast
			defer func() { fastJSON = old }()
			prg, err := Compile("(async function (rt) {\n" + code + "\n})")
			if err != nil {
				t.Fatal(err)
			}
			j := Job{Program: prg, Timeout: 5e9, Limits: pipe.DefaultLimits(), Input: input}
			var evs []pipe.Event
			r := New(j)
			res := r.Execute(t.Context(), j, func(ev pipe.Event) { evs = append(evs, ev) })
			if fast && (r.jsonOut == nil || strings.Contains(code, "rt.input") && r.jsonIn == nil) {
				t.Errorf("%s: the fast path was not used (encoder %v, parser %v)", code, r.jsonOut != nil, r.jsonIn != nil)
			}
			return evs, res
		}
		slowEvs, slow := run(false)
		fastEvs, fast := run(true)
		if slow.Outcome != fast.Outcome || !bytes.Equal(slow.Output, fast.Output) {
			t.Errorf("%s\noutput: fast %s %s\n        old  %s %s", code, fast.Outcome, fast.Output, slow.Outcome, slow.Output)
		}
		for k, v := range slow.Facts {
			if !bytes.Equal(v, fast.Facts[k]) {
				t.Errorf("%s\nfact %s: fast %s, old %s", code, k, fast.Facts[k], v)
			}
		}
		if len(slowEvs) != len(fastEvs) {
			t.Errorf("%s: %d events fast, %d before", code, len(fastEvs), len(slowEvs))
		}
	}
}
