package js

import (
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/dop251/goja"

	"github.com/playground-dev/playground/sandbox/pipe"
)

// The host bridge, worker side: a snippet's host.<name>(...args) — or
// <name>(...args) for a name the operator exposes as a global — checks that
// its arguments are JSON data, emits the call's start event (pending, with
// a per-run call id), sends a pipe.HostCall through Job.Call and returns a
// promise that the matching pipe.HostReply settles (on the event loop, see
// loop), which emits the call's second event. The parent runs the handler
// (sandbox/host.go).

// callIDs numbers host calls across every run of a process, so that a late
// reply to an earlier run's call matches nothing. The wire's callId is the
// per-run number (pendingCall.seq) instead.
var callIDs atomic.Int64

type pendingCall struct {
	seq     int64 // the call's number in its run: the event's CallID
	name    string
	args    []json.RawMessage
	started time.Duration // the run's clock at the call
	resolve func(any) error
	reject  func(any) error
	fetch   bool // a fetch (fetch.go): settled by settleFetch
}

// maxArgDepth bounds how deeply host call arguments may nest.
const maxArgDepth = 64

// hostObject builds the snippet's `host`: one function per host name; a
// dotted name such as "kv.get" becomes host.kv.get. It also defines the
// globals the job names (Job.Globals): a host function, or a namespace such
// as kv, under its own name — the same objects as under host. A name that
// is already a global is left alone (the parent refuses such a
// configuration; see pipe.ReservedGlobals).
func (e *Runtime) hostObject() *goja.Object {
	root := e.vm.NewObject()
	var nested []*goja.Object
	for _, name := range e.host {
		if name == pipe.FetchHost {
			continue // fetch's own bridge (fetch.go), not host.fetch
		}
		obj := root
		parts := strings.Split(name, ".")
		for _, p := range parts[:len(parts)-1] {
			next, ok := obj.Get(p).(*goja.Object)
			if !ok {
				next = e.vm.NewObject()
				must(obj.Set(p, next))
				nested = append(nested, next)
			}
			obj = next
		}
		must(obj.Set(parts[len(parts)-1], e.hostFunction(name)))
	}
	for _, o := range append(nested, root) { // host.kv is as frozen as host
		e.parity.NameNatives(o)
		_, _ = e.b.Freeze(goja.Undefined(), o)
	}
	g := e.vm.GlobalObject()
	for _, name := range e.globals {
		v := root.Get(name)
		if v == nil || goja.IsUndefined(v) || e.ownProperty(g, name) {
			continue
		}
		// Writable and configurable, as a global var: a snippet may still
		// declare its own function of that name.
		must(g.DefineDataProperty(name, v, goja.FLAG_TRUE, goja.FLAG_TRUE, goja.FLAG_FALSE))
	}
	return root
}

// ownProperty reports whether o has an own property name, reading only
// that property (GetOwnPropertyNames on the global object would build every
// goja built-in: a fifth of a plain run's worker CPU).
func (e *Runtime) ownProperty(o *goja.Object, name string) bool {
	d, err := e.b.GetDescriptor(goja.Undefined(), o, e.vm.ToValue(name))
	return err == nil && d != nil && !goja.IsUndefined(d)
}

func (e *Runtime) hostFunction(name string) func(goja.FunctionCall) goja.Value {
	return func(c goja.FunctionCall) goja.Value {
		if e.numCalls >= e.lim.MaxHostCalls {
			e.throw("RangeError", fmt.Sprintf("host.%s: this run made its %d host calls, the limit", name, e.lim.MaxHostCalls))
		}
		args := make([]json.RawMessage, len(c.Arguments))
		w := argWriter{e: e, budget: e.lim.MaxOutputBytes}
		for i, a := range c.Arguments {
			b, bad := w.arg(a)
			if bad != nil {
				e.throw(bad.class, fmt.Sprintf("host.%s: argument %d %s", name, i+1, bad.msg))
			}
			args[i] = b
		}
		e.numCalls++
		p, resolve, reject := e.vm.NewPromise()
		id := callIDs.Add(1)
		pc := &pendingCall{seq: int64(e.numCalls), name: name, args: args, started: e.clock.now(), resolve: resolve, reject: reject}
		if !e.send(pipe.Event{Kind: pipe.EventCall, CallID: pc.seq, Pending: true, Name: name, Args: args}) {
			return e.vm.ToValue(p) // the run is stopping (a limit): the call is never made
		}
		e.calls[id] = pc
		now := time.Now()
		if e.clock.virtual {
			now = e.clock.base.Add(e.clock.elapsed)
		}
		e.call(pipe.HostCall{ID: id, Name: name, Args: args, Now: now})
		return e.vm.ToValue(p)
	}
}

// settleCall resolves or rejects a pending call's promise and reports it.
func (e *Runtime) settleCall(r pipe.HostReply) {
	pc, ok := e.calls[r.ID]
	if !ok {
		return // a reply to an earlier run's call
	}
	delete(e.calls, r.ID)
	d := r.Duration
	if e.clock.virtual {
		// On the virtual clock, as every other time of the run: the
		// handler's wall time would make two runs differ.
		d = e.clock.now() - pc.started
	}
	if pc.fetch {
		e.settleFetch(pc, r, d)
		return
	}
	e.send(pipe.Event{Kind: pipe.EventCall, CallID: pc.seq, Name: pc.name, Duration: d, OK: r.Error == "", CallError: r.Error, Args: capArgs(pc.args), Result: capJSON(r.Result)})
	if r.Error != "" {
		errObj, err := e.vm.New(e.vm.Get("Error"), e.vm.ToValue("host."+pc.name+": "+r.Error))
		if err != nil {
			_ = pc.reject(r.Error)
			return
		}
		_ = pc.reject(errObj)
		return
	}
	if len(r.Result) == 0 {
		_ = pc.resolve(goja.Undefined())
		return
	}
	v, err := e.parseJSON(r.Result)
	if err != nil {
		_ = pc.reject(err.Error())
		return
	}
	_ = pc.resolve(v)
}

// capArgs repeats a call's arguments in its settled event only when they
// are small (16 KiB in all); the pending event carried all of them, and
// sending large ones twice would count them twice against the output cap.
func capArgs(args []json.RawMessage) []json.RawMessage {
	n := 0
	for _, a := range args {
		n += len(a)
	}
	if n > 16<<10 {
		return []json.RawMessage{json.RawMessage(`{"$t":"more","count":` + fmt.Sprint(n) + `}`)}
	}
	return args
}

// capJSON keeps a call's result in its event only when it is small; the
// snippet still gets all of it.
func capJSON(b json.RawMessage) json.RawMessage {
	if len(b) > 16<<10 {
		return json.RawMessage(`{"$t":"more","count":` + fmt.Sprint(len(b)) + `}`)
	}
	return b
}

// argWriter encodes host call arguments as JSON, following JSON.stringify
// where it is exact (own enumerable properties, a Date as its ISO string,
// NaN and ±Infinity as null, undefined as null in an array and absent in an
// object) and refusing what JSON cannot carry instead of sending something
// else: functions, symbols, BigInts, cycles, Maps, Sets, Proxies, accessors
// and other built-in objects. Like a preview, it never runs snippet code (no
// getters, no toJSON, no Proxy traps). The arguments of one call share a
// byte budget (Limits.MaxOutputBytes): the parent counts them as output.
type argWriter struct {
	e         *Runtime
	buf       []byte
	budget    int
	ancestors []*goja.Object
}

// argError says why an argument was refused: class is the JS error class,
// msg follows "host.<name>: argument <n> ".
type argError struct{ class, msg string }

const jsonKinds = "host functions take JSON data (objects, arrays, strings, numbers, booleans, null)"

// arg encodes one argument.
func (w *argWriter) arg(v goja.Value) (json.RawMessage, *argError) {
	start := len(w.buf)
	w.ancestors = w.ancestors[:0]
	if goja.IsUndefined(v) {
		w.buf = append(w.buf, "null"...)
	} else if err := w.value(v, "", 0); err != nil {
		return nil, err
	}
	if len(w.buf) > w.budget {
		return nil, &argError{class: "RangeError", msg: fmt.Sprintf("makes the call's arguments larger than %d bytes (the run's output limit)", w.budget)}
	}
	return json.RawMessage(w.buf[start:len(w.buf):len(w.buf)]), nil
}

// fail refuses the value at path (inside the argument; "" for itself),
// which is what (a function, a symbol…); hint says what to do instead.
func (w *argWriter) fail(class, path, what, hint string) *argError {
	where := ""
	if path != "" {
		where = " (at " + path + ")"
	}
	if hint != "" {
		hint += "; "
	}
	return &argError{class: class, msg: "is or holds " + what + where + "; " + hint + jsonKinds}
}

func (w *argWriter) value(v goja.Value, path string, depth int) *argError {
	if len(w.buf) > w.budget {
		return &argError{class: "RangeError", msg: fmt.Sprintf("makes the call's arguments larger than %d bytes (the run's output limit)", w.budget)}
	}
	switch {
	case v == nil || goja.IsUndefined(v) || goja.IsNull(v):
		w.buf = append(w.buf, "null"...)
		return nil
	case goja.IsBigInt(v):
		return w.fail("TypeError", path, "a BigInt", "pass String(n) or Number(n)")
	}
	if _, ok := v.(*goja.Symbol); ok {
		return w.fail("TypeError", path, "a symbol", "")
	}
	if o, ok := v.(*goja.Object); ok {
		return w.object(o, path, depth)
	}
	switch x := v.Export().(type) {
	case bool:
		w.buf = strconv.AppendBool(w.buf, x)
	case int64:
		w.buf = strconv.AppendInt(w.buf, x, 10)
	case float64:
		b, err := json.Marshal(x)
		if err != nil { // NaN, ±Infinity: null, as JSON.stringify writes them
			b = []byte("null")
		}
		w.buf = append(w.buf, b...)
	default:
		w.str(v.String())
	}
	return nil
}

func (w *argWriter) str(s string) {
	b, _ := json.Marshal(strings.ToValidUTF8(s, "\uFFFD"))
	w.buf = append(w.buf, b...)
}

func (w *argWriter) object(o *goja.Object, path string, depth int) *argError {
	en := &w.e.jsonEn
	if o.ExportType() == proxyType {
		return w.fail("TypeError", path, "a Proxy", "a host call runs no traps: pass a plain copy of its data")
	}
	if slices.Contains(w.ancestors, o) {
		return w.fail("TypeError", path, "a cycle (an object that contains itself)", "")
	}
	if depth >= maxArgDepth {
		return w.fail("RangeError", path, fmt.Sprintf("values nested deeper than %d levels", maxArgDepth), "")
	}
	class := o.ClassName()
	if class == "Object" {
		switch o.ExportType() {
		case mapType:
			return w.fail("TypeError", path, "a Map", "pass Object.fromEntries(map) or [...map]")
		case setType:
			return w.fail("TypeError", path, "a Set", "pass [...set]")
		}
	}
	switch class {
	case "Function":
		return w.fail("TypeError", path, "a function", "a function cannot cross to the host")
	case "Date":
		if t, err := w.e.b.DateValue(o); err == nil && goja.IsNaN(t) {
			w.buf = append(w.buf, "null"...)
			return nil
		}
		iso, err := w.e.b.DateISO(o)
		if err != nil {
			w.buf = append(w.buf, "null"...)
			return nil
		}
		w.str(iso.String())
		return nil
	case "Object", "Array":
	default:
		return w.fail("TypeError", path, "a "+class, "")
	}
	w.ancestors = append(w.ancestors, o)
	defer func() { w.ancestors = w.ancestors[:len(w.ancestors)-1] }()
	if class == "Array" {
		w.buf = append(w.buf, '[')
		n := en.ArrayLength(o)
		for i := int64(0); i < n; i++ {
			if i > 0 {
				w.buf = append(w.buf, ',')
			}
			idx := strconv.FormatInt(i, 10)
			p := path + "[" + idx + "]"
			v, ok := en.OwnData(o, idx)
			if !ok && en.HasOwn(o, idx) {
				return w.fail("TypeError", p, "a getter", "a host call runs no snippet code: pass the value")
			}
			if err := w.value(v, p, depth+1); err != nil { // a hole is null, as in JSON
				return err
			}
		}
		w.buf = append(w.buf, ']')
		return nil
	}
	w.buf = append(w.buf, '{')
	first := true
	for _, k := range en.EnumerableKeys(o) {
		p := path + "." + k
		v, ok := en.OwnData(o, k)
		if !ok {
			return w.fail("TypeError", p, "a getter", "a host call runs no snippet code: pass the value")
		}
		if goja.IsUndefined(v) {
			continue // absent, as in JSON
		}
		if !first {
			w.buf = append(w.buf, ',')
		}
		first = false
		w.str(k)
		w.buf = append(w.buf, ':')
		if err := w.value(v, p, depth+1); err != nil {
			return err
		}
	}
	w.buf = append(w.buf, '}')
	return nil
}

// goja reports Map and Set with class "Object"; their export types
// (builtin_map.go, builtin_set.go) tell them apart without running code.
var (
	mapType = reflect.TypeOf([][2]any{})
	setType = reflect.TypeOf([]any{})
)
