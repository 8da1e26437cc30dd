package main

import (
	"encoding/json"
	"fmt"
	"sync"
	"time"

	"github.com/dop251/goja"
	"github.com/playground-dev/playground/sandbox/libs"
)

// The bare-goja floor: a workload's code in goja.New() with nothing of
// ours. The timed region is what any fresh-runtime-per-run design pays:
// goja.New(), compiling the workload, evaluating each library it requires
// (from the bundle the project ships, sandbox/libs/dist, compiled once per
// process), JSON.parse of the input text and JSON.stringify of the output,
// all with goja's own built-ins. console.log is a no-op here.

var (
	libProgs   = map[string]*goja.Program{}
	libProgsMu sync.Mutex
)

func libProgram(name string) (*goja.Program, error) {
	libProgsMu.Lock()
	defer libProgsMu.Unlock()
	if p, ok := libProgs[name]; ok {
		return p, nil
	}
	set, err := libs.New("")
	if err != nil {
		return nil, err
	}
	src, err := set.Source(name)
	if err != nil {
		return nil, err
	}
	p, err := goja.Compile(name+".js", src, false)
	if err != nil {
		return nil, err
	}
	libProgs[name] = p
	return p, nil
}

// bareWrapper makes the script's top level a function body, as
// harness.js does for node.
const bareWrapper = `(function (inputText, requireLib, console) {
const input = JSON.parse(inputText);
const facts = {};
const require = (name) => name === 'playground' ? { facts, input, host: {} } : requireLib(name);
let output;
(function () {
%s
})();
return [JSON.stringify(output === undefined ? null : output), JSON.stringify(facts)];
})`

// runBare runs w once in a bare goja runtime (the library bundles are the
// ones package libs embeds).
func runBare(w workload, input []byte, timeout time.Duration) result {
	t0 := time.Now()
	vm := goja.New()
	timer := time.AfterFunc(timeout, func() { vm.Interrupt("timeout") })
	defer timer.Stop()
	prog, err := goja.Compile("main.js", fmt.Sprintf(bareWrapper, w.code), false)
	if err != nil {
		return result{Outcome: "error", Detail: err.Error()}
	}
	fnv, err := vm.RunProgram(prog)
	if err != nil {
		return bareErr(err)
	}
	fn, _ := goja.AssertFunction(fnv)
	loaded := map[string]goja.Value{}
	requireLib := func(name string) (goja.Value, error) {
		if v, ok := loaded[name]; ok {
			return v, nil
		}
		p, err := libProgram(name)
		if err != nil {
			return nil, err
		}
		v, err := vm.RunProgram(p)
		if err != nil {
			return nil, err
		}
		loaded[name] = v
		return v, nil
	}
	console := vm.NewObject()
	noop := func(goja.FunctionCall) goja.Value { return goja.Undefined() }
	for _, level := range []string{"log", "info", "warn", "error", "debug"} {
		console.Set(level, noop)
	}
	v, err := fn(goja.Undefined(), vm.ToValue(string(input)), vm.ToValue(requireLib), console)
	if err != nil {
		return bareErr(err)
	}
	parts := v.Export().([]any)
	ms := since(t0)
	return result{Outcome: "ok", Ms: []float64{ms},
		Output: json.RawMessage(parts[0].(string)), Facts: json.RawMessage(parts[1].(string))}
}

func bareErr(err error) result {
	if _, ok := err.(*goja.InterruptedError); ok {
		return result{Outcome: "timeout"}
	}
	return result{Outcome: "error", Detail: trim(err.Error())}
}
