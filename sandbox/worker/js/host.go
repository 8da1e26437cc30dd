package js

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"sync/atomic"

	"github.com/dop251/goja"

	"github.com/playground-dev/playground/sandbox/pipe"
)

// The host bridge, worker side: a snippet's host.<name>(...args) sends a
// pipe.HostCall through Job.Call and returns a promise that the matching
// pipe.HostReply settles (on the event loop, see loop). The parent runs the
// handler (sandbox/host.go).

// callIDs numbers host calls across every run of a process, so that a late
// reply to an earlier run's call matches nothing.
var callIDs atomic.Int64

type pendingCall struct {
	name    string
	args    []json.RawMessage
	resolve func(any) error
	reject  func(any) error
}

// hostObject builds the snippet's `host`: one function per host name; a
// dotted name such as "kv.get" becomes host.kv.get.
func (e *Runtime) hostObject() *goja.Object {
	root := e.vm.NewObject()
	var nested []*goja.Object
	for _, name := range e.host {
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
		e.nameNatives(o)
		_, _ = e.b.freeze(goja.Undefined(), o)
	}
	return root
}

func (e *Runtime) hostFunction(name string) func(goja.FunctionCall) goja.Value {
	return func(c goja.FunctionCall) goja.Value {
		if e.numCalls >= e.lim.MaxHostCalls {
			e.throw("RangeError", fmt.Sprintf("host.%s: this run made its %d host calls, the limit", name, e.lim.MaxHostCalls))
		}
		e.numCalls++
		args := make([]json.RawMessage, len(c.Arguments))
		for i, a := range c.Arguments {
			args[i] = e.jsonValue(a)
			// A function cannot cross to the host: refuse it rather than
			// send its preview as if it were data.
			if _, isFn := goja.AssertFunction(a); isFn || bytes.Contains(args[i], []byte(`{"$t":"function"`)) {
				e.throw("TypeError", fmt.Sprintf("host.%s: argument %d is or holds a function; host functions take JSON data (objects, arrays, strings, numbers, booleans, null)", name, i+1))
			}
		}
		p, resolve, reject := e.vm.NewPromise()
		id := callIDs.Add(1)
		e.calls[id] = &pendingCall{name: name, args: args, resolve: resolve, reject: reject}
		e.call(pipe.HostCall{ID: id, Name: name, Args: args})
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
	e.send(pipe.Event{Kind: pipe.EventCall, Name: pc.name, Duration: r.Duration, OK: r.Error == "", CallError: r.Error, Args: pc.args, Result: capJSON(r.Result)})
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
	v, err := e.b.jsonParse(goja.Undefined(), e.vm.ToValue(string(r.Result)))
	if err != nil {
		_ = pc.reject(err.Error())
		return
	}
	_ = pc.resolve(v)
}

// capJSON keeps a call's result in its event only when it is small; the
// snippet still gets all of it.
func capJSON(b json.RawMessage) json.RawMessage {
	if len(b) > 16<<10 {
		return json.RawMessage(`{"$t":"more","count":` + fmt.Sprint(len(b)) + `}`)
	}
	return b
}
