package parity

import (
	"math"
	"testing"

	"github.com/dop251/goja"

	"github.com/playground-dev/playground/sandbox/worker/js/intrinsic"
)

// BenchmarkStringify compares goja's JSON.stringify with the one in Go
// (stringify.go) on the same values, called from Go: rows are 1e4 objects
// {id, name, v, tags: [..]}, strings a long string-heavy value (1e4
// strings of 15–150 characters, with escapes, some non-ASCII). Both give
// the same text (checked first).
//
//	go test ./sandbox/worker/js/parity -run '^$' -bench Stringify -benchmem -count 5
func BenchmarkStringify(b *testing.B) {
	vm := goja.New()
	var in intrinsic.Builtins
	in.Init(vm)
	p := Patcher{vm: vm, b: &in}
	orig := builtinFunc(vm.Get("JSON").ToObject(vm), "stringify")
	p.InstallJSONStringify()
	ours := builtinFunc(vm.Get("JSON").ToObject(vm), "stringify")
	values := map[string]string{
		"rows":    `Array.from({ length: 1e4 }, (_, i) => ({ id: i, name: "user " + i, v: i * 0.25, tags: ["a", "b" + i % 7, i % 3 === 0] }))`,
		"strings": `Array.from({ length: 1e4 }, (_, i) => "text \"" + i + "\" line\n".repeat(1 + i % 10) + (i % 5 === 0 ? "héllo wörld ✓" : ""))`,
	}
	for _, name := range []string{"rows", "strings"} {
		v, err := vm.RunString(values[name])
		if err != nil {
			b.Fatal(err)
		}
		want, _ := orig(nil, v)
		got, _ := ours(nil, v)
		if want.String() != got.String() {
			b.Fatalf("%s: the two disagree", name)
		}
		for _, impl := range []struct {
			name string
			f    goja.Callable
		}{{"goja", orig}, {"ours", ours}} {
			b.Run(name+"/"+impl.name, func(b *testing.B) {
				for b.Loop() {
					if _, err := impl.f(nil, v); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

// BenchmarkFlat compares goja's Array.prototype.flat with the one in Go
// (flat.go) on 1e4 pairs [i, [i, "x"]], flattened by one level and by
// Infinity.
//
//	go test ./sandbox/worker/js/parity -run '^$' -bench Flat -benchmem -count 5
func BenchmarkFlat(b *testing.B) {
	vm := goja.New()
	var in intrinsic.Builtins
	in.Init(vm)
	p := Patcher{vm: vm, b: &in}
	arr := vm.NewArray().Prototype()
	orig := builtinFunc(arr, "flat")
	p.installFlat(arr, "flat")
	ours := builtinFunc(arr, "flat")
	v, err := vm.RunString(`Array.from({ length: 1e4 }, (_, i) => [i, [i, "x"]])`)
	if err != nil {
		b.Fatal(err)
	}
	for _, depth := range []goja.Value{goja.Undefined(), vm.ToValue(math.Inf(1))} {
		for _, impl := range []struct {
			name string
			f    goja.Callable
		}{{"goja", orig}, {"ours", ours}} {
			b.Run(depth.String()+"/"+impl.name, func(b *testing.B) {
				for b.Loop() {
					if _, err := impl.f(v, depth); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}
