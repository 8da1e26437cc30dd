// Package webapi holds the web APIs goja lacks and Node has, as the
// playground's runtime provides them: the polyfill program (polyfill.js:
// TextEncoder/TextDecoder, AbortController, EventTarget, structuredClone,
// DOMException, …) and WHATWG URL and URLSearchParams from core-js-pure
// (thirdparty/url.js, rebuilt by thirdparty/gen.go), and the Web Crypto
// subset (Crypto: getRandomValues, randomUUID, subtle.digest).
//
// Contract: the programs are compiled once per process and shared by every
// runtime; evaluating one is the core's job (package js installs the names
// lazily, evaluates a group on the first read of one of its names, and
// hands the classes a group exports to inspect.Encoder.CaptureInspected
// before any snippet code sees them). Crypto needs a Host from the core:
// throwing a JS error or a DOMException (the polyfill's class, which the
// core loads), and a DataView's bytes read through the intrinsic getters.
// This package imports neither the core package js nor anything of the
// parent process; it reads typed arrays through package intrinsic.
//
// Concurrency: the compiled programs are immutable and safe to share;
// each evaluation belongs to one goja.Runtime and its goroutine.
//
// Not here: the Timeout handle of setTimeout (js/timeout.go), whose
// methods (refresh, ref, unref, close) are the event loop's own.
package webapi
