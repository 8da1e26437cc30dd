// Package js is the playground's runtime core: one run of a bundled
// snippet inside one fresh goja.Runtime, in a worker process.
//
// The core keeps the VM and its set-up (runtime.go), the clock and the
// event loop with its timers and their Timeout handles (loop.go,
// timeout.go), the limits and the emission of events (runtime.go,
// console.go, errors.go), facts (facts.go), the host bridge (host.go), the
// libraries and the compilation of a bundle (libraries.go, usage.go) and a
// run's lifecycle (New, then Execute). Its modules are packages of their
// own, none of which imports js; each states its contract in its doc:
//
//   - intrinsic: the built-ins the runtime calls on a snippet's behalf,
//     safe from a snippet's replacements, and reading JS values without
//     running code (descriptors, primitive strings, Number::toString);
//   - inspect: Node's util.inspect (previews, %-formatting, tables); the
//     core gives it an inspect.Host (an error's stack in the user's files);
//   - parity: the goja-versus-V8 patches, each naming the goja behaviour
//     and the upstream issue it works around; the core holds a
//     parity.Patcher and serves it a parity.Host (throw, the run's Locale);
//   - webapi: the polyfill and URL programs, which the core evaluates
//     lazily (polyfill.go), and Web Crypto behind a webapi.Host (throw, a
//     DOMException, a DataView's bytes);
//   - intl: Intl for the locales it carries.
//
// The core implements each Host with a conversion of *Runtime to a named
// type (inspectHost, parityHost, webapiHost), so the seams cost no
// allocation and add no exported method to Runtime. Package jstest is the
// in-process test harness shared by the core's and the modules' tests.
//
// Concurrency: a Runtime, and every module value it holds, is used on one
// goroutine at a time (see Runtime); only a run's context reaches it from
// elsewhere, through goja's Interrupt. Compiled programs and the tables
// built once per process are shared read-only by every runtime.
//
// The package belongs to the worker side of the process boundary: it
// imports sandbox/pipe, sandbox/libs and sandbox/worker/bundle, and
// nothing of the parent (cmd/playground/deps_test.go).
package js
