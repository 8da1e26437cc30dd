// Package js is the playground's runtime core: one run of a bundled
// snippet inside one fresh goja.Runtime, in a worker process.
//
// The core keeps the VM and its set-up (runtime.go), the clock and the
// event loop with its timers (loop.go, timeout.go), the limits and the
// emission of events (runtime.go, console.go, errors.go), facts
// (facts.go), the host bridge (host.go), the libraries (libraries.go) and
// a run's lifecycle (New, then Execute). Its modules are packages of their
// own, none of which imports js:
//
//   - intrinsic: the built-ins the runtime calls on a snippet's behalf,
//     safe from a snippet's replacements (the core embeds one
//     intrinsic.Builtins per runtime, through inspect.Builtins);
//   - inspect: Node's util.inspect (previews, %-formatting, tables); the
//     core implements inspect.Host to lay out an error's stack in the
//     user's files;
//   - parity: the goja-versus-V8 patches' algorithms, each naming the
//     goja behaviour and upstream issue it works around; the core installs
//     them (json.go, regexp.go, guard.go);
//   - webapi: the polyfill and URL programs, which the core evaluates
//     lazily (polyfill.go);
//   - intl: Intl for the locales it carries (locale.go installs it).
//
// Concurrency: a Runtime, and every module value it holds, is used on one
// goroutine at a time (see Runtime); only a run's context reaches it from
// elsewhere, through goja's Interrupt. Compiled programs and the tables
// built once per process are shared read-only by every runtime.
//
// The package belongs to the worker side of the process boundary: it
// imports sandbox/pipe and sandbox/libs, and nothing of the parent
// (cmd/playground/deps_test.go).
package js
