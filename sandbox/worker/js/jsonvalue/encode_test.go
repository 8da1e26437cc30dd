package jsonvalue

import (
	"encoding/json"
	"strconv"
	"strings"
	"testing"

	"github.com/dop251/goja"
	"github.com/google/go-cmp/cmp"
)

// TestEncodePlainData: plain data is written as JSON.stringify writes it
// (the same JSON value), and everything else is refused.
func TestEncodePlainData(t *testing.T) {
	vm := goja.New()
	en := NewEncoder(vm)
	stringify, _ := goja.AssertFunction(vm.Get("JSON").ToObject(vm).Get("stringify"))
	taken := []string{
		`null`, `true`, `0`, `-5`, `1.5`, `1e21`, `1e-7`, `"a<b>"`, `"é😀\n"`, `[]`, `({})`,
		`({a: 1, b: [1, "x", {c: null}], "d e": {f: false}})`,
		`({2: "b", 1: "a", z: 0})`,
		`JSON.parse('{"__proto__": 1, "x": [1.25, -0.5]}')`,
		`(() => { const shared = {s: 1}; return [shared, shared, {t: shared}]; })()`,
		`({get g() { return 7; }, h: 1})`,
		`Array.from({length: 100}, (_, i) => ({id: i, name: "item-" + i, v: i * 1.5}))`,
		`"\ud800"`,
	}
	for _, src := range taken {
		v, err := vm.RunString(src)
		if err != nil {
			t.Fatal(err)
		}
		got, ok := en.Encode(v, 1<<20)
		if !ok {
			t.Errorf("%s: not taken", src)
			continue
		}
		want, _ := stringify(goja.Undefined(), v)
		var g, w any
		if err := json.Unmarshal(got, &g); err != nil {
			t.Errorf("%s: %s is not JSON: %v", src, got, err)
			continue
		}
		_ = json.Unmarshal([]byte(want.String()), &w)
		if d := cmp.Diff(w, g); d != "" {
			t.Errorf("%s: (-JSON.stringify +Encode)\n%s", src, d)
		}
	}
	refused := []string{
		`undefined`, `NaN`, `Infinity`, `-0`, `1n`, `Symbol()`, `(() => 1)`, `[1, , 3]`, `[undefined]`, `({a: undefined})`,
		`new Date(0)`, `new Map()`, `new Proxy({}, {})`, `Object.create(null)`, `new (class C {})()`,
		`(() => { const a = []; a.push(a); return a; })()`, `({[Symbol("s")]: 1})`, `({toJSON() { return 1; }})`,
		`({get g() { throw new Error("no"); }})`, `[[[{x: 1n}]]]`,
	}
	for _, src := range refused {
		v, err := vm.RunString(src)
		if err != nil {
			t.Fatal(err)
		}
		if got, ok := en.Encode(v, 1<<20); ok {
			t.Errorf("%s: taken as %s", src, got)
		}
	}
	big, _ := vm.RunString(`"x".repeat(100)`)
	if _, ok := en.Encode(big, 50); ok {
		t.Error("over the budget, taken")
	}
	deep, _ := vm.RunString(`JSON.parse("[".repeat(` + "1500" + `) + "]".repeat(1500))`)
	if _, ok := en.Encode(deep, 1<<20); ok {
		t.Error("deeper than MaxEncodeDepth, taken")
	}
	_ = strings.Repeat
}

func BenchmarkEncodeRows(b *testing.B) {
	vm := goja.New()
	en := NewEncoder(vm)
	v, err := vm.RunString(`({rows: Array.from({length: 1e4}, (_, i) => ({id: i, name: "item-" + i, v: i * 1.5}))})`)
	if err != nil {
		b.Fatal(err)
	}
	out, _ := en.Encode(v, 1<<30)
	b.SetBytes(int64(len(out)))
	for b.Loop() {
		if _, ok := en.Encode(v, 1<<30); !ok {
			b.Fatal("not taken")
		}
	}
}

// TestEncodeArrayPastIndexNames: an array longer than the names the
// Encoder keeps (maxIndexNames) is written whole and in order, its later
// elements named one by one, by the same Encoder before and after.
func TestEncodeArrayPastIndexNames(t *testing.T) {
	vm := goja.New()
	en := NewEncoder(vm)
	n := maxIndexNames + 3
	v, err := vm.RunString("Array.from({length: " + strconv.Itoa(n) + "}, (_, i) => i % 7 === 0 ? 'x' + i : i)")
	if err != nil {
		t.Fatal(err)
	}
	for range 2 {
		got, ok := en.Encode(v, 1<<24)
		if !ok {
			t.Fatal("not taken")
		}
		var xs []any
		if err := json.Unmarshal(got, &xs); err != nil || len(xs) != n {
			t.Fatalf("%d elements, %v; want %d", len(xs), err, n)
		}
		for _, i := range []int{0, 1, maxIndexNames - 1, maxIndexNames, n - 1} {
			want := any(float64(i))
			if i%7 == 0 {
				want = "x" + strconv.Itoa(i)
			}
			if xs[i] != want {
				t.Errorf("element %d = %v; want %v", i, xs[i], want)
			}
		}
	}
	if len(en.index) != maxIndexNames {
		t.Errorf("%d index names kept; want maxIndexNames (%d)", len(en.index), maxIndexNames)
	}
}
