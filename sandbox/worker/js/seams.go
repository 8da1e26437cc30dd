package js

// The core's seams to its modules (docs/architecture.md): the Runtime as
// package inspect's Host and package parity's Host, and the installation of
// parity's guards the program may reach.

import (
	"reflect"

	"github.com/dop251/goja"

	"github.com/playground-dev/playground/sandbox/worker/js/intl"
	"github.com/playground-dev/playground/sandbox/worker/js/parity"
)

// proxyType is goja's export type of a Proxy.
var proxyType = reflect.TypeOf(goja.Proxy{})

// inspectHost is the Runtime as its encoders' inspect.Host; a conversion,
// not a second value, so that the encoders hold no closure.
type inspectHost Runtime

// ErrorStack lays out the stack of the error o as a preview shows it:
// goja's stack text parsed back into frames, the user's ones when user
// (as error events show them).
func (h *inspectHost) ErrorStack(o *goja.Object, head, stack string, user bool) string {
	frames := parseStack(capStack(stack))
	if user {
		frames = (*Runtime)(h).userStack(o, frames)
	}
	return formatStack(head, frames)
}

// parityHost is the Runtime as its patches' parity.Host.
type parityHost Runtime

func (h *parityHost) Throw(class, msg string) { (*Runtime)(h).throw(class, msg) }

func (h *parityHost) Locale() *intl.Locale { return (*Runtime)(h).locale() }

// replace defines holder[name] as fn, a Go function that looks native
// (parity.Replace).
func (e *Runtime) replace(holder *goja.Object, name string, length int, fn func(goja.FunctionCall) goja.Value) {
	parity.Replace(e.vm, holder, name, length, fn)
}

// callOriginal calls a captured built-in, rethrowing what it throws.
func (e *Runtime) callOriginal(f goja.Callable, this goja.Value, args ...goja.Value) goja.Value {
	v, err := f(this, args...)
	if err != nil {
		panic(err)
	}
	return v
}

// installGuards installs the guards of package parity that n names, the
// loop guards of loops only (nil: every one; parity.LoopGuardNames).
func (e *Runtime) installGuards(n need, loops []string) {
	var g parity.Guards
	for _, m := range [...]struct {
		need  need
		guard parity.Guards
	}{{needSortGuard, parity.GuardSort}, {needStringGuards, parity.GuardStrings}, {needBigIntGuards, parity.GuardBigInt},
		{needApplyGuards, parity.GuardApply}, {needTypedArrayFrom, parity.GuardTypedArrayFrom}, {needParseInt, parity.GuardParseInt},
		{needScanGuards, parity.GuardScan}, {needLoopGuards, parity.GuardLoops}} {
		if n&m.need != 0 {
			g |= m.guard
		}
	}
	e.parity.InstallGuards(g, loops)
}
