package sandbox

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"sync/atomic"
	"time"

	"github.com/dop251/goja"
)

// HostFunc is a function of the server that snippets call as
// host.<name>(...args), which returns a Promise. It runs in the server
// process, never in a worker. args holds the JSON of each argument (a value
// JSON cannot hold arrives as its preview). The result is the JSON the
// promise resolves to (nil resolves to undefined); an error rejects it with
// the error's text, which the client sees. ctx is cancelled when the run ends
// or the call exceeds Config.HostCallTimeout. Handlers are called
// concurrently and must be safe for that.
type HostFunc func(ctx context.Context, call HostCall) (json.RawMessage, error)

// HostCall describes one call of a host function.
type HostCall struct {
	Name string
	Args []json.RawMessage
	// Session is the caller's session id (Request.Session), for state that
	// lives as long as a browser tab.
	Session string
	// Key is the caller's fairness key (its IP).
	Key string
}

// hostCall is a call as it crosses the pipe, worker → parent.
type hostCall struct {
	ID   int64             `json:"id"`
	Name string            `json:"name"`
	Args []json.RawMessage `json:"args"`
}

// hostReply is the answer, parent → worker. Ms is the handler's duration.
type hostReply struct {
	ID     int64           `json:"id"`
	Result json.RawMessage `json:"result,omitempty"`
	Error  string          `json:"error,omitempty"`
	Ms     float64         `json:"ms"`
}

// callIDs numbers host calls across every run of a process.
var callIDs atomic.Int64

type pendingCall struct {
	name    string
	args    []json.RawMessage
	resolve func(any) error
	reject  func(any) error
}

// hostObject builds the snippet's `host`: one function per host name; a
// dotted name such as "kv.get" becomes host.kv.get.
func (e *execution) hostObject() *goja.Object {
	root := e.vm.NewObject()
	for _, name := range e.host {
		obj := root
		parts := strings.Split(name, ".")
		for _, p := range parts[:len(parts)-1] {
			next, ok := obj.Get(p).(*goja.Object)
			if !ok {
				next = e.vm.NewObject()
				must(obj.Set(p, next))
			}
			obj = next
		}
		must(obj.Set(parts[len(parts)-1], e.hostFunction(name)))
	}
	_, _ = e.b.freeze(goja.Undefined(), root)
	return root
}

func (e *execution) hostFunction(name string) func(goja.FunctionCall) goja.Value {
	return func(c goja.FunctionCall) goja.Value {
		if e.numCalls >= e.maxCalls {
			e.throw("RangeError", fmt.Sprintf("host.%s: this run made its %d host calls, the limit", name, e.maxCalls))
		}
		e.numCalls++
		args := make([]json.RawMessage, len(c.Arguments))
		for i, a := range c.Arguments {
			args[i] = e.jsonValue(a)
		}
		p, resolve, reject := e.vm.NewPromise()
		id := callIDs.Add(1) // unique in the worker: a late reply to an earlier run matches nothing
		e.calls[id] = &pendingCall{name: name, args: args, resolve: resolve, reject: reject}
		e.call(hostCall{ID: id, Name: name, Args: args})
		return e.vm.ToValue(p)
	}
}

// settleCall resolves or rejects a pending call's promise and reports it.
func (e *execution) settleCall(r hostReply) {
	pc, ok := e.calls[r.ID]
	if !ok {
		return // a reply to an earlier run's call
	}
	delete(e.calls, r.ID)
	e.send(Event{Kind: EventCall, Name: pc.name, Ms: r.Ms, OK: r.Error == "", CallError: r.Error, Args: pc.args, Result: capJSON(r.Result)})
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

// hostNames lists the registered host functions, sorted.
func hostNames(h map[string]HostFunc) []string {
	names := make([]string, 0, len(h))
	for n := range h {
		names = append(names, n)
	}
	slices.Sort(names)
	return names
}

// serveHostCall runs one call's handler in the server and sends its reply.
func (p *Pool) serveHostCall(ctx context.Context, req Request, c hostCall, reply func(hostReply)) {
	start := time.Now()
	r := hostReply{ID: c.ID}
	fn, ok := p.cfg.Host[c.Name]
	if !ok {
		r.Error = "no such host function"
	} else {
		cctx, cancel := context.WithTimeout(ctx, p.cfg.HostCallTimeout)
		res, err := safeCall(cctx, fn, HostCall{Name: c.Name, Args: c.Args, Session: req.Session, Key: req.Key})
		cancel()
		switch {
		case err != nil && cctx.Err() == context.DeadlineExceeded && ctx.Err() == nil:
			r.Error = fmt.Sprintf("timed out after %v", p.cfg.HostCallTimeout)
		case err != nil:
			r.Error = err.Error()
		case len(res) > 0 && !json.Valid(res):
			r.Error = "the host function returned invalid JSON"
		default:
			r.Result = res
		}
	}
	r.Ms = ms(time.Since(start))
	reply(r)
}

// safeCall runs fn, turning a panic into an error so one bad handler cannot
// take the server down.
func safeCall(ctx context.Context, fn HostFunc, c HostCall) (res json.RawMessage, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("the host function failed")
		}
	}()
	return fn(ctx, c)
}

// capJSON keeps a call's result in its event only when it is small; the
// snippet still gets all of it.
func capJSON(b json.RawMessage) json.RawMessage {
	if len(b) > 16<<10 {
		return json.RawMessage(`{"$t":"more","count":` + fmt.Sprint(len(b)) + `}`)
	}
	return b
}
