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
// Contract: the functions here are pure (strings, numbers, goja's AST)
// or take the goja.Runtime they patch; they never import the core package
// js. The core installs the patches on each fresh runtime before any
// snippet code runs.
//
// Concurrency: nothing here holds state across runtimes; what is built
// for a runtime is used on that runtime's goroutine only.
package parity
