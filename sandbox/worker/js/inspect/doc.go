// Package inspect is Node's util.inspect in Go, for the playground's
// runtime: it turns goja values into previews (console arguments, facts
// and output: preview*.go), lays previews out as Node prints them
// (format.go), applies console.log's %-specifiers (line.go) and draws
// console.table's tables (table.go).
//
// Contract: an Encoder never runs snippet code. It reads properties through
// descriptors with the intrinsics of a Builtins (intrinsic.Builtins, which
// the core initialises before any snippet code runs), shows accessors
// without calling them and does not look inside a Proxy. The only getters
// it calls are the runtime polyfills' own (CaptureInspected, taken when a
// polyfill group loads) and, through goja's stack formatting, an error's
// message getter whose result the core read before (SetMessage) — which
// the core does only for the report of an uncaught error, never for a
// console line (issue 22).
//
// What it needs from the core is one Host: the layout of an error's stack
// (the core maps goja's frames back to the user's files). It imports
// neither the core package js nor anything of the parent process.
//
// Concurrency: an Encoder and its Builtins belong to one goja.Runtime and
// are used on that runtime's goroutine only. Render, FormatLine and the
// other functions of previews hold no state.
package inspect
