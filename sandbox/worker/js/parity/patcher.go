package parity

import (
	"github.com/dop251/goja"
	"github.com/playground-dev/playground/sandbox/worker/js/jsonvalue"

	"github.com/playground-dev/playground/sandbox/worker/js/intl"
	"github.com/playground-dev/playground/sandbox/worker/js/intrinsic"
)

// Host is what the patches need from the runtime that installs them. Its
// Throw panics with the JS error (goja's way to throw from Go) and does
// not return.
type Host interface {
	// Throw throws a new error of the global class (TypeError, …).
	Throw(class, msg string)
	// Locale is the run's intl.Locale, made on first use.
	Locale() *intl.Locale
}

// Patcher installs the patches on one goja.Runtime. The core keeps one by
// value per runtime (Init) and calls an Install method per patch the
// program may reach, before any snippet code runs.
type Patcher struct {
	vm *goja.Runtime
	b  *intrinsic.Builtins
	h  Host
	// natives are the functions Function.prototype.toString prints as
	// native code, with their names (MarkNative).
	natives map[*goja.Object]string
	// client keys the RegExp programs this runtime caches (SetClient).
	client string
	// json parses JSON.parse's plain calls (InstallJSONParse), made at
	// the first.
	json *jsonvalue.Parser
	// arrayValues is the intrinsic Array.prototype.values
	// (noteArrayValues).
	arrayValues *goja.Object
	// arrayCtor is the intrinsic Array (installFlat).
	arrayCtor *goja.Object
	// indexNames are the decimal names of array indexes JSON.stringify
	// read (stringifier.indexKey), made once for all its calls.
	indexNames []string
	// stringifyHint is the length of the last JSON.stringify text, the
	// next one's first capacity (at most maxStringifyHint).
	stringifyHint int
	// iterGuarded: %ArrayIteratorPrototype%.next is replaced
	// (installIteratorGuard).
	iterGuarded bool
	// Indices, when set, makes the d flag a RegExp constructed without it
	// and decorated (package regexpidx); unset, the flag is a SyntaxError.
	Indices func(re *goja.Object, flags string) *goja.Object
}

// SetClient keys the process-wide caches p fills (regexpPrograms) by
// client, an opaque token of the run's client: a run never hits, or
// learns the timing of, another client's entries.
func (p *Patcher) SetClient(client string) { p.client = client }

// Init makes p patch vm: b are vm's intrinsics (a patch that replaces one
// the runtime itself calls, JSON.parse or parseInt, records the original
// there), h the runtime.
func (p *Patcher) Init(vm *goja.Runtime, b *intrinsic.Builtins, h Host) {
	*p = Patcher{vm: vm, b: b, h: h}
}

// builtinFunc is the function o holds as name, read before any snippet
// code runs (so it is the intrinsic); a missing one is the runtime's bug.
func builtinFunc(o *goja.Object, name string) goja.Callable {
	f, ok := goja.AssertFunction(o.Get(name))
	if !ok {
		panic("sandbox: missing builtin " + name)
	}
	return f
}

func (p *Patcher) replace(holder *goja.Object, name string, length int, fn func(goja.FunctionCall) goja.Value) {
	Replace(p.vm, holder, name, length, fn)
}

// Replace defines holder[name] as fn, a Go function that looks native:
// its name and length as given, writable, configurable, not enumerable.
func Replace(vm *goja.Runtime, holder *goja.Object, name string, length int, fn func(goja.FunctionCall) goja.Value) {
	f := vm.ToValue(fn).(*goja.Object)
	must(f.DefineDataProperty("name", vm.ToValue(name), goja.FLAG_FALSE, goja.FLAG_TRUE, goja.FLAG_FALSE))
	if length != 0 { // a Go function's length is 0
		must(f.DefineDataProperty("length", vm.ToValue(length), goja.FLAG_FALSE, goja.FLAG_TRUE, goja.FLAG_FALSE))
	}
	must(holder.DefineDataProperty(name, f, goja.FLAG_TRUE, goja.FLAG_TRUE, goja.FLAG_FALSE))
}

// call calls a captured built-in, rethrowing what it throws.
func call(f goja.Callable, this goja.Value, args ...goja.Value) goja.Value {
	v, err := f(this, args...)
	if err != nil {
		panic(err)
	}
	return v
}

func (p *Patcher) jsString(v goja.Value) goja.String { return JSString(p.vm, v) }

// JSString is ToString(v) as a goja string (goja's ToString keeps a
// number a number).
func JSString(vm *goja.Runtime, v goja.Value) goja.String {
	s := v.ToString()
	if gs, ok := s.(goja.String); ok {
		return gs
	}
	return vm.ToValue(s.String()).(goja.String)
}

func must(err error) {
	if err != nil {
		panic(err)
	}
}
