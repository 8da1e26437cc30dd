// Package webapi holds the web APIs goja lacks and Node has, as the
// playground's runtime provides them: the polyfill program (polyfill.js:
// TextEncoder/TextDecoder, AbortController, EventTarget, structuredClone,
// DOMException, …) and WHATWG URL and URLSearchParams from core-js-pure
// (thirdparty/url.js, rebuilt by thirdparty/gen.go).
//
// Contract: the programs are compiled once per process and shared by every
// runtime; evaluating one is the core's job (package js installs the names
// lazily, evaluates a group on the first read of one of its names, and
// hands the classes a group exports to inspect.Encoder.CaptureInspected
// before any snippet code sees them). This package imports neither the
// core package js nor anything of the parent process.
//
// Concurrency: the compiled programs are immutable and safe to share;
// each evaluation belongs to one goja.Runtime and its goroutine.
//
// Not yet moved here: crypto.go (crypto.getRandomValues, randomUUID,
// subtle.digest) and the Timeout handle (timeout.go) are still methods of
// js.Runtime, which they reach for its throw, clock and timers.
package webapi
