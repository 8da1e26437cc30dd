// Package parity holds the patches that make goja behave as V8 (Node)
// does where a snippet can tell them apart: error wordings, JSON.parse's
// and JSON.stringify's, parseInt past 2^53, relational operators on
// numeric strings, regular expressions' Unicode properties, and the like.
//
// Each patch names, in its comment, the goja behaviour it works around
// and the upstream goja issue or pull request (or says that none was
// found), so that it can be deleted when goja is bumped and the upstream
// fix is in.
//
// Contract: the algorithms are pure functions (strings, numbers, goja's
// AST: V8JSONError, IndentJSON, ExactParseInt, RelationalFix,
// RewriteUnicodeProperties); the built-ins they replace are installed by a
// Patcher, which the core keeps by value per runtime (Patcher.Init) and
// calls before any snippet code runs, one Install method per patch the
// program may reach. What a Patcher needs from the core is a Host: throw a
// JS error, mark a function as native (for Function.prototype.toString),
// and the run's intl.Locale; the intrinsics it reads or records are the
// runtime's intrinsic.Builtins. It never imports the core package js.
//
// Concurrency: nothing here holds state across runtimes; what is built
// for a runtime is used on that runtime's goroutine only.
package parity
