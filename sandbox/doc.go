// Package sandbox is the parent side of the engine that bundles and runs
// untrusted JavaScript/TypeScript snippets: the Pool of worker processes,
// its fair queue, limits and crash recovery. It runs in the server process
// and never imports goja: every snippet is bundled and executed in a worker
// process (sandbox/worker), which the pool starts from the same binary and
// speaks to over a pipe (sandbox/pipe).
//
// A run takes a [Request] (in-memory files, an entry path, input JSON, a
// timeout); events stream through a callback as they happen; the run ends
// with a [Result]. The package imports no other project package outside
// sandbox/: the run engine (package engine, which every transport shares:
// the WebSocket session, the HTTP API, MCP and the CLI) and the tests reach
// it through the same [Pool.Run] call.
//
// The layout under sandbox/, by the process a file runs in:
//
//	sandbox/             server process: Pool, queue, worker processes, host functions
//	sandbox/pipe/        both: the pipe contract (messages, framing, limits, memory layout)
//	sandbox/libs/        both: the importable libraries (vendored and the operator's)
//	sandbox/worker/      worker process: the serving loop, memory watchdog, program cache
//	sandbox/worker/bundle/  worker process: esbuild bundling, in memory
//	sandbox/worker/js/   worker process: the goja runtime (event loop, console, facts, host bridge)
package sandbox
