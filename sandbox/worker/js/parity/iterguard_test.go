package parity_test

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/dop251/goja"

	"github.com/playground-dev/playground/sandbox/worker/js/intrinsic"
	"github.com/playground-dev/playground/sandbox/worker/js/parity"
)

// guardedVM is a runtime with the loop guards of loops installed.
func guardedVM(loops []string) *goja.Runtime {
	return guardedVMOf(parity.GuardLoops|parity.GuardTypedArrayFrom, loops)
}

// guardedVMOf is a runtime with the guards g installed, of the loop
// guards those of loops.
func guardedVMOf(g parity.Guards, loops []string) *goja.Runtime {
	vm := goja.New()
	var b intrinsic.Builtins
	b.Init(vm)
	var p parity.Patcher
	p.Init(vm, &b, quietHost{})
	p.InstallGuards(g, loops)
	return vm
}

// errDeadline is the value the tests interrupt with.
var errDeadline = errors.New("deadline")

// runInterrupted runs src in vm, interrupted after 200ms, and fails unless
// the run ends by that interrupt. A loop the guards miss runs for minutes:
// the test gives up on it after 20s (the goroutine is left to the process).
func runInterrupted(t *testing.T, vm *goja.Runtime, src string) {
	t.Helper()
	stop := time.AfterFunc(200*time.Millisecond, func() { vm.Interrupt(errDeadline) })
	defer stop.Stop()
	done := make(chan error, 1)
	go func() {
		_, err := vm.RunString(src)
		done <- err
	}()
	select {
	case err := <-done:
		var ie *goja.InterruptedError
		if !errors.As(err, &ie) || ie.Value() != errDeadline {
			t.Errorf("%s: err = %v; want the interrupt", src, err)
		}
	case <-time.After(20 * time.Second):
		t.Fatalf("%s: still running 20s after its interrupt", src)
	}
}

// TestIteratorGuardsStop: a Go loop over the array iterator of a sparse
// array (spread, new Set, Promise.all, Array.from,
// typed arrays, an array pattern's rest) and the implicit join of a
// template literal end at the runtime's interrupt.
func TestIteratorGuardsStop(t *testing.T) {
	const sparse = "const S = new Array(2 ** 32 - 1); S[7] = 1;\n"
	for _, tc := range []struct {
		loops []string
		src   string
	}{
		{[]string{parity.SpreadGuardName}, "[...S]"},
		{[]string{parity.SpreadGuardName}, "Math.max(...S)"},
		{[]string{parity.SpreadGuardName}, "const [a, ...rest] = S"},
		{[]string{parity.SpreadGuardName}, "[...(function* () { yield* S; })()]"},
		{[]string{parity.SpreadGuardName}, "[...S.keys()]"},
		{[]string{"Set"}, "new Set(S)"},
		{[]string{"all"}, "Promise.all(S)"},
		{[]string{"from"}, "Array.from(S)"},
		{[]string{"from"}, "Array.from(S, (x) => x)"},
		{[]string{"Uint8Array"}, "new Uint8Array(S)"},
		{[]string{"Uint8Array", "from"}, "Uint8Array.from(S)"},
		{[]string{"Set"}, "new Set(S.entries())"},
		{[]string{"AggregateError"}, "new AggregateError(S)"},
		{[]string{"join"}, "`${S}`"},
		{[]string{"join"}, `S + ""`},
		{[]string{"join"}, "String([S])"},
	} {
		runInterrupted(t, guardedVM(tc.loops), sparse+tc.src)
	}
	// The typed array constructors iterate in Go: their guard installs
	// the iterator's.
	runInterrupted(t, guardedVMOf(parity.GuardTypedArrayFrom, nil), sparse+"new Float64Array(S)")
}

// TestIteratorGuardsAsNode: with the iterator guards installed (the
// program spells their names), iteration and JSON.stringify give
// Node's results; an iterator of the snippet's, on an array or on
// Array.prototype, sees the array itself as this, also in Array.from of a
// long sparse array. The want lines were printed by Node 20 (v20.20.2)
// running the same source.
func TestIteratorGuardsAsNode(t *testing.T) {
	runHostile(t, []hostileCase{{name: "iterators", src: iteratorsSource, want: []string{strings.Join([]string{
		"spread [1,,3] [1,undefined,3] 3 [1,[undefined,3]]",
		"collections 3 1 [[a,1],[b,2]] 1 true {0:x}",
		"keys [0,1,2] [[0,1],[1,undefined],[2,3]] [1,undefined,3]",
		"same true true true false",
		`next next 0 false TypeError {"value":0,"done":false}`,
		"like [p,undefined] [0,1] [[0,p],[1,undefined]] true",
		"getter true true",
		"from [a,undefined,b] 3",
		"typed [1,0,3] [1,0,3]",
		"own from true 2 [x,y]",
		"own spread true [x,y]",
		"proto iterator true [q]",
		`json [1,null,3] {"a":[null,2],"b":"s"} {"a":[null,2]} [1,"x"] undefined undefined`,
		"json indent [\n  1,\n  {\n    \"a\": []\n  }\n] {\"x\":1}",
		"json toJSON {\"d\":\"D\",\"n\":5} 3",
		"promise [1,undefined,3]",
	}, "\n")}}})
}

const iteratorsSource = `const rs = [];
const show = (v) => {
  if (Array.isArray(v)) return "[" + v.map(show).join(",") + "]";
  if (v && typeof v === "object") return "{" + Object.keys(v).map((k) => k + ":" + show(v[k])).join(",") + "}";
  return String(v);
};
const holey = [1, , 3];
const [h0, ...hrest] = holey;
rs.push("spread " + show(holey) + " " + show([...holey]) + " " + Math.max.apply(null, [...holey].map((x) => x || 0)) + " " + show([h0, hrest]));
rs.push("collections " + new Set(holey).size + " " + new Set([1, 1]).size + " " + show([...new Map([["a", 1], ["b", 2]])]) + " " + new WeakMap([[holey, 1]]).get(holey) + " " + new WeakSet([holey]).has(holey) + " " + show(Object.fromEntries([["0", "x"]])));
rs.push("keys " + show([...holey.keys()]) + " " + show([...holey.entries()]) + " " + show([...holey.values()]));
rs.push("same " + (Array.prototype[Symbol.iterator] === Array.prototype.values) + " " + (Array.prototype.values.name === "values") + " " + (Array.prototype.values.length === 0) + " " + Object.getOwnPropertyDescriptor(Array.prototype, "values").enumerable);
const like = { length: 2, 0: "p" };
const itp = Object.getPrototypeOf([].values());
rs.push("next " + itp.next.name + " " + itp.next.length + " " + Object.getOwnPropertyDescriptor(itp, "next").enumerable + " " + (() => { try { itp.next.call({}); } catch (e) { return e.constructor.name; } })() + " " + JSON.stringify(itp.next.call([5].keys())));
rs.push("like " + show([...Array.prototype.values.call(like)]) + " " + show([...Array.prototype.keys.call(like)]) + " " + show([...Array.prototype.entries.call(like)]) + " " + (Array.prototype.values.call(like).next().value === "p"));
let seenThis;
const withGetter = { length: 1, get 0() { seenThis = this; return 1; } };
const vi = Array.prototype.values.call(withGetter);
vi.next();
rs.push("getter " + (seenThis === withGetter) + " " + (Object.getPrototypeOf(vi) === Object.getPrototypeOf([][Symbol.iterator]())));
rs.push("from " + show(Array.from(["a", , "b"])) + " " + Array.from({ length: 3 }).length);
rs.push("typed " + show(Array.from(new Uint8Array([1, , 3]))) + " " + show([...new Uint8Array([1, , 3])]));
// An iterator of the snippet's sees the array itself, also on a long sparse one.
const long = new Array(2 ** 32 - 1);
let ownThis;
long[Symbol.iterator] = function* () { ownThis = this; yield "x"; yield "y"; };
const fl = Array.from(long);
rs.push("own from " + (ownThis === long) + " " + fl.length + " " + show(fl));
ownThis = undefined;
const ls = [...long];
rs.push("own spread " + (ownThis === long) + " " + show(ls));
const saved = Array.prototype[Symbol.iterator];
let protoThis;
Array.prototype[Symbol.iterator] = function* () { protoThis = this; yield "q"; };
const sp = new Array(2 ** 32 - 1);
rs.push("proto iterator " + (Array.from(sp), protoThis === sp) + " " + show(Array.from(sp)));
Array.prototype[Symbol.iterator] = saved;
rs.push("json " + JSON.stringify(holey) + " " + JSON.stringify({ a: [undefined, 2], b: "s", f() {} }) + " " + JSON.stringify({ a: [undefined, 2], b: "s" }, ["a"]) + " " + JSON.stringify([1, "x"], (k, v) => v) + " " + JSON.stringify(undefined) + " " + JSON.stringify());
rs.push("json indent " + JSON.stringify([1, { a: [] }], {}, 2) + " " + JSON.stringify({ x: 1, y: undefined }, 5));
rs.push("json toJSON " + JSON.stringify({ d: { toJSON: () => "D" }, n: new Number(5) }) + " " + JSON.stringify.length);
Promise.all(holey).then((v) => {
  rs.push("promise " + show(v));
  console.log(rs.join("\n"));
});
`
