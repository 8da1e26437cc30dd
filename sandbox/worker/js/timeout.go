package js

import (
	"container/heap"

	"github.com/dop251/goja"

	"github.com/playground-dev/playground/sandbox/worker/js/parity"
)

// Timer handles: setTimeout and setInterval return a Timeout object, as
// Node's do (lib/internal/timers.js), not a browser's number, so Node code
// that calls t.unref() or t.refresh() runs. Its prototype has Node 20's
// methods: refresh, unref, ref, hasRef, close, [Symbol.toPrimitive] (the
// timer's id: +t, `${t}`, and clearTimeout accepts it) and
// [Symbol.dispose] when the run has that symbol. Unlike Node's, a handle
// has no own fields (Node's _idleTimeout, _onTimeout… are its internals),
// so console.log prints it as `Timeout {}`.

// timeoutHandle returns the handle of t, a new object each call.
func (e *Runtime) timeoutHandle(t *timer) goja.Value {
	vm := e.vm
	if e.timeoutProto == nil {
		e.makeTimeoutProto()
	}
	h := vm.CreateObject(e.timeoutProto)
	// The timer rides on the handle under a symbol of this runtime's (not
	// hidden: Reflect.ownKeys lists it, and its value is an object with no
	// properties; a copy under it acts as the same handle, no more): the
	// handle keeps the timer alive for refresh, and nothing keeps a fired
	// timer once its handle is gone.
	must(h.DefineDataPropertySymbol(e.timerKey, vm.ToValue(&timerRef{t}), goja.FLAG_FALSE, goja.FLAG_FALSE, goja.FLAG_FALSE))
	return h
}

// timerRef is what a handle holds: a pointer in a struct with no exported
// fields, so goja shows it as an empty object.
type timerRef struct{ t *timer }

// timerOf returns the timer of a handle, nil for any other value.
func (e *Runtime) timerOf(v goja.Value) *timer {
	o, ok := v.(*goja.Object)
	if !ok || e.timerKey == nil || o.ExportType() == proxyType {
		return nil // a Proxy's get trap is not asked (one further down the chain is, as Node's clearTimeout reads timer._onTimeout through it)
	}
	v = o.GetSymbol(e.timerKey) // nil when absent
	if v == nil {
		return nil
	}
	if r, ok := v.Export().(*timerRef); ok {
		return r.t
	}
	return nil
}

// makeTimeoutProto makes Timeout.prototype. Its constructor is named
// Timeout (previews and t.constructor.name say so) and cannot be called,
// as no global holds it.
func (e *Runtime) makeTimeoutProto() {
	vm := e.vm
	e.timerKey = goja.NewSymbol("timer")
	proto := vm.NewObject()
	ctor := vm.ToValue(func(goja.ConstructorCall) *goja.Object {
		e.throw("TypeError", "Illegal constructor")
		return nil
	}).(*goja.Object)
	parity.NameFn(vm, ctor, "Timeout")
	must(ctor.DefineDataProperty("prototype", proto, goja.FLAG_FALSE, goja.FLAG_FALSE, goja.FLAG_FALSE))
	must(proto.DefineDataProperty("constructor", ctor, goja.FLAG_TRUE, goja.FLAG_FALSE, goja.FLAG_TRUE))
	this := func(c goja.FunctionCall, method string) *timer {
		t := e.timerOf(c.This)
		if t == nil {
			e.throw("TypeError", "Timeout.prototype."+method+" called on an object that is not a Timeout")
		}
		return t
	}
	method := func(name string, fn func(c goja.FunctionCall, t *timer) goja.Value) {
		f := vm.ToValue(func(c goja.FunctionCall) goja.Value { return fn(c, this(c, name)) }).(*goja.Object)
		parity.NameFn(vm, f, name)
		must(proto.DefineDataProperty(name, f, goja.FLAG_TRUE, goja.FLAG_FALSE, goja.FLAG_TRUE))
	}
	// refresh re-arms the timer its delay from now: a pending one moves, a
	// fired one runs again (Node's "reactivate"); a cleared one stays so.
	method("refresh", func(c goja.FunctionCall, t *timer) goja.Value {
		switch {
		case t.cleared:
		case t.index >= 0:
			e.timerSeq++
			t.when, t.seq = addClock(e.clock.now(), t.delay), e.timerSeq
			heap.Fix(&e.timers, t.index)
		default:
			e.checkTimers()
			e.schedule(t)
		}
		return c.This
	})
	method("unref", func(c goja.FunctionCall, t *timer) goja.Value {
		if !t.unref && t.index >= 0 {
			e.refTimers--
		}
		t.unref = true
		return c.This
	})
	method("ref", func(c goja.FunctionCall, t *timer) goja.Value {
		if t.unref && t.index >= 0 {
			e.refTimers++
		}
		t.unref = false
		return c.This
	})
	method("hasRef", func(_ goja.FunctionCall, t *timer) goja.Value { return vm.ToValue(!t.unref) })
	method("close", func(c goja.FunctionCall, t *timer) goja.Value {
		e.cancel(t)
		return c.This
	})
	symbolMethod := func(sym *goja.Symbol, name string, fn func(goja.FunctionCall) goja.Value) {
		f := vm.ToValue(fn).(*goja.Object)
		parity.NameFn(vm, f, name)
		must(proto.DefineDataPropertySymbol(sym, f, goja.FLAG_TRUE, goja.FLAG_FALSE, goja.FLAG_TRUE))
	}
	if d := e.disposeSymbol; d != nil {
		symbolMethod(d, "[nodejs.dispose]", func(c goja.FunctionCall) goja.Value {
			e.cancel(this(c, "[Symbol.dispose]"))
			return goja.Undefined()
		})
	}
	symbolMethod(goja.SymToPrimitive, "[Symbol.toPrimitive]", func(c goja.FunctionCall) goja.Value {
		return vm.ToValue(this(c, "[Symbol.toPrimitive]").id)
	})
	e.timeoutProto = proto
}
