//go:generate go run ./libs/gen.go

// Package sandbox bundles and runs untrusted JavaScript/TypeScript snippets.
//
// A run takes a [Request] (in-memory files, an entry path, input JSON, a
// timeout), bundles the files with esbuild's Go API (no filesystem access:
// every import resolves to a given file or to the "playground" runtime
// module), and executes the bundle in a fresh goja runtime with console,
// facts, input and timers. Events stream through a callback as they happen;
// the run ends with a [Result].
//
// The package imports no other project package: it is the engine, and the
// WebSocket session, the HTTP API and the tests reach it through the same
// [Pool.Run] call.
package sandbox
