package js

import (
	"slices"
	"strings"

	"github.com/dop251/goja"

	"github.com/playground-dev/playground/sandbox/worker/bundle"
)

// Script mode (pipe.ModeScript), for agent code written for isolated-vm
// code-execution services: the globals input (a mutable copy of the run's
// input: a script may change it without touching the frozen one of the
// "playground" module), output (its final value is the run's output) and
// require (the allowed libraries' CommonJS exports). A top-level return
// ends the script; a value other than undefined is the output, and takes
// precedence over the output global.

// nodeBuiltins are Node's built-in modules (node:module builtinModules): a
// require of one is a SECURITY_ERROR that names it.
var nodeBuiltins = []string{
	"assert", "async_hooks", "buffer", "child_process", "cluster", "console", "constants", "crypto",
	"dgram", "diagnostics_channel", "dns", "domain", "events", "fs", "http", "http2",
	"https", "inspector", "module", "net", "os", "path", "perf_hooks", "process", "punycode",
	"querystring", "readline", "repl", "stream", "string_decoder", "sys", "timers", "tls", "trace_events",
	"tty", "url", "util", "v8", "vm", "wasi", "worker_threads", "zlib",
}

// scriptGlobals defines input, output and require on the global object.
func (e *Runtime) scriptGlobals() error {
	input := goja.Undefined()
	if len(e.input) > 0 {
		v, err := e.parseJSON(e.input)
		if err != nil {
			return err
		}
		input = v
	}
	g := e.vm.GlobalObject()
	must(g.Set("input", input))
	must(g.Set("output", goja.Undefined()))
	must(g.Set("require", e.require))
	return nil
}

// require is the script's global require for a name the bundler could not
// see (require(variable)); esbuild's shim calls it. A string literal
// resolves at bundle time with the same rules.
func (e *Runtime) require(c goja.FunctionCall) goja.Value {
	name := c.Argument(0).String()
	if e.registry != nil {
		if _, ok := e.registry.Set().Lookup(name); ok {
			return e.lib(goja.FunctionCall{Arguments: []goja.Value{e.vm.ToValue(name)}})
		}
	}
	var modules []string
	if e.registry != nil {
		modules = e.registry.Set().Modules()
	}
	root, _, _ := strings.Cut(strings.TrimPrefix(name, "node:"), "/")
	if strings.HasPrefix(name, "node:") || slices.Contains(nodeBuiltins, root) {
		e.throwSecurity(bundle.RefusedModule(name, modules) + "; Node's built-in modules are the host's, not the playground's")
	}
	e.throwSecurity(bundle.RefusedModule(name, modules))
	return nil
}

// throwSecurity throws an Error that is reported as a SECURITY_ERROR if
// the snippet does not catch it.
func (e *Runtime) throwSecurity(msg string) {
	o, err := e.vm.New(e.vm.Get("Error"), e.vm.ToValue(msg))
	if err != nil {
		panic(e.vm.NewTypeError(msg))
	}
	if e.security == nil {
		e.security = map[*goja.Object]bool{}
	}
	e.security[o] = true
	e.markGoThrown(o)
	panic(o)
}

// scriptOutput sets the run's output at the end of a script: the value of
// a top-level return, or else the output global's final value.
func (e *Runtime) scriptOutput() {
	if e.gotOutput && !goja.IsUndefined(e.output) {
		return
	}
	e.output, e.gotOutput = e.vm.GlobalObject().Get("output"), false
	if e.output != nil && !goja.IsUndefined(e.output) {
		e.gotOutput = true
	}
}

// fixSpan is fixFrames for a span of the program's positions (positionOf).
func (e *Runtime) fixSpan(s span) span {
	if e.script && s.from.file == e.entry && s.from.line == 1 && s.from.column >= len(bundle.ScriptPrefix) {
		s.from.column -= len(bundle.ScriptPrefix)
		s.to.column -= len(bundle.ScriptPrefix)
	}
	return s
}

// fixFrames moves line-1 columns of a script's entry back past
// bundle.ScriptPrefix.
func (e *Runtime) fixFrames(frames []frame) []frame {
	if !e.script {
		return frames
	}
	for i := range frames {
		if frames[i].file == e.entry && frames[i].line == 1 && frames[i].column > len(bundle.ScriptPrefix) && !frames[i].v8 {
			frames[i].column -= len(bundle.ScriptPrefix)
		}
	}
	return frames
}
