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
	builtins := func(vm *goja.Runtime) map[string]goja.Value {
		arr := vm.NewArray().Prototype()
		m := map[string]goja.Value{}
		for _, name := range parity.LoopGuardNames {
			holder := arr
			switch name {
			case "freeze", "seal":
				holder = vm.Get("Object").ToObject(vm)
			case "raw":
				holder = vm.Get("String").ToObject(vm)
			case "from":
				holder = vm.Get("Array").ToObject(vm)
			}
			m[name] = holder.Get(name)
		}
		return m
	}
	for _, loops := range [][]string{{"join"}, {"from", "map", "raw", "seal"}, nil} {
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
			if want := loops == nil || slices.Contains(loops, name); replaced != want {
				t.Errorf("Loops %v: %s replaced = %v; want %v", loops, name, replaced, want)
			}
		}
	}
}
