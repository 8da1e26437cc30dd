// Package intrinsic finds the built-in functions (intrinsics) that the
// runtime and its modules call on a snippet's behalf, so that a snippet
// that replaces Object.getOwnPropertyDescriptor, Map.prototype.forEach or
// JSON.parse cannot intercept them.
//
// Contract: Builtins.Init is called on a fresh goja.Runtime, before any
// snippet code runs; it captures Object's functions at once and finds
// every other intrinsic on its first call, reading own data properties
// through descriptors (no getter and no Proxy trap runs) and accepting
// only the Go-backed function whose code is the intrinsic's in a pristine
// runtime. A replaced intrinsic fails its call with a TypeError.
//
// Concurrency: a Builtins belongs to one goja.Runtime and is used on that
// runtime's goroutine only. The table of intrinsic code addresses is
// built once per process and shared read-only.
//
// It needs nothing from the core package js and imports no project
// package.
package intrinsic
