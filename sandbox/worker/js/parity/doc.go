// Package parity holds the patches that make goja behave as V8 (Node)
// does where a snippet can tell them apart: JSON.parse's error wording
// (jsonerr.go), JSON.stringify in Go (stringify.go, jsongap.go), parseInt
// past 2^53 (parseint.go), %TypedArray%.from of a primitive
// (typedarray.go), relational chains (relational.go), BigInt constant
// folding (bigint.go), regular expressions' Unicode properties
// (regexp.go, regexp_install.go), the locale methods (locale.go, with
// package intl), built-ins that look native (natives.go), and the guards
// that turn goja's Go panics into V8's errors (guard.go), its uninterruptible
// array scans into answers (scan.go), and its other array loops into
// loops that stop at the run's interrupt (loops.go).
//
// Each patch names, in its comment, the goja behaviour it works around
// and the upstream goja issue or pull request (or says that none was
// found as of 2026-11), so that it can be deleted when goja is bumped and
// the upstream fix is in. Two V8 parities stay in the core because they
// read the run's program and stacks: the TypeError wordings
// (js/v8message.go) and Error.captureStackTrace with the constructor
// frames (js/errors.go); they carry the same comment.
//
// Contract: the algorithms are pure functions (strings, numbers, goja's
// AST: V8JSONError, JSONGap, ExactParseInt, RelationalFix,
// UnfoldBigIntOperators, RewriteUnicodeProperties, Walk). The built-ins
// are replaced by a Patcher, which the core keeps by value per runtime
// (Patcher.Init) and calls before any snippet code runs, one Install
// method per patch the program may reach (InstallGuards takes the set of
// guards). What a Patcher needs from the core is a Host: throw a JS error
// and the run's intl.Locale; the intrinsics it reads, or records when it
// replaces one the runtime itself calls (JSON.parse, parseInt), are the
// runtime's intrinsic.Builtins. It never imports the core package js.
//
// Concurrency: a Patcher belongs to one goja.Runtime and is used on that
// runtime's goroutine only; the RegExp literal cache (regexpPrograms) is
// per process and safe for concurrent use.
package parity
