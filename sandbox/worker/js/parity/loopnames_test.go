package parity_test

import (
	"slices"
	"testing"

	"github.com/dop251/goja"

	"github.com/playground-dev/playground/sandbox/worker/js/intl"
	"github.com/playground-dev/playground/sandbox/worker/js/intrinsic"
	"github.com/playground-dev/playground/sandbox/worker/js/parity"
)

type quietHost struct{}

func (quietHost) Throw(class, msg string) { panic(class + ": " + msg) }
func (quietHost) Locale() *intl.Locale    { return nil }

// TestLoopGuardsByName: InstallGuards installs the loop guards of the names it is given; the
// other built-ins stay goja's own (a program pays for the guards of the
// names it spells, about 25 allocations each), and nil installs every one.
func TestLoopGuardsByName(t *testing.T) {
	// holder is the object whose property name's guard replaces, and
	// the property's name there.
	holder := func(vm *goja.Runtime, name string) (*goja.Object, string) {
		switch name {
		case "freeze", "seal":
			return vm.Get("Object").ToObject(vm), name
		case "raw":
			return vm.Get("String").ToObject(vm), name
		case "from":
			return vm.Get("Array").ToObject(vm), name
		}
		if parity.IteratorGuardName(name) { // %ArrayIteratorPrototype%.next
			values, _ := goja.AssertFunction(vm.NewArray().Prototype().Get("values"))
			it, _ := values(vm.NewArray())
			return it.ToObject(vm).Prototype(), "next"
		}
		return vm.NewArray().Prototype(), name
	}
	builtins := func(vm *goja.Runtime) map[string]goja.Value {
		m := map[string]goja.Value{}
		for _, name := range parity.LoopGuardNames {
			o, key := holder(vm, name)
			m[name] = o.Get(key)
		}
		return m
	}
	for _, loops := range [][]string{{"join"}, {"from", "map", "raw", "seal"}, {"Set", "all"}, {parity.SpreadGuardName}, nil} {
		vm := goja.New()
		before := builtins(vm)
		var b intrinsic.Builtins
		b.Init(vm)
		var p parity.Patcher
		p.Init(vm, &b, quietHost{})
		p.InstallGuards(parity.GuardLoops, loops)
		after := builtins(vm)
		for _, name := range parity.LoopGuardNames {
			replaced := !after[name].SameAs(before[name])
			want := loops == nil || slices.Contains(loops, name)
			if parity.IteratorGuardName(name) && name != "from" {
				// One guard (%ArrayIteratorPrototype%.next) for all.
				want = want || loops == nil || slices.ContainsFunc(loops, parity.IteratorGuardName)
			}
			if replaced != want {
				t.Errorf("Loops %v: %s replaced = %v; want %v", loops, name, replaced, want)
			}
		}
	}
}
