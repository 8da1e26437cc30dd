package pipe

// ReservedGlobals are the global names a host function may not take
// (Config.HostGlobals, Job.Globals): every global of the worker's runtime
// (the ECMAScript built-ins, the web APIs it adds, the script-mode
// globals), the names Node and browsers give meaning to, and the
// playground's own. The parent refuses a colliding name when the pool is
// configured; the worker's tests check that every global it defines is
// listed here, so the two ends cannot drift apart.
var ReservedGlobals = []string{
	// ECMAScript
	"globalThis", "Infinity", "NaN", "undefined", "eval", "isFinite", "isNaN", "parseFloat", "parseInt",
	"decodeURI", "decodeURIComponent", "encodeURI", "encodeURIComponent", "escape", "unescape",
	"AggregateError", "Array", "ArrayBuffer", "AsyncFunction", "Atomics", "BigInt", "BigInt64Array",
	"BigUint64Array", "Boolean", "DataView", "Date", "Error", "EvalError", "FinalizationRegistry",
	"Float32Array", "Float64Array", "Function", "Int8Array", "Int16Array", "Int32Array", "Intl",
	"Iterator", "JSON", "Map", "Math", "Number", "Object", "Promise", "Proxy", "RangeError",
	"ReferenceError", "Reflect", "RegExp", "Set", "SharedArrayBuffer", "String", "Symbol",
	"SyntaxError", "TypeError", "URIError", "Uint8Array", "Uint8ClampedArray", "Uint16Array",
	"Uint32Array", "WeakMap", "WeakRef", "WeakSet", "GoError",
	// web and Node APIs (provided or not: a host function must not pose as one)
	"console", "setTimeout", "setInterval", "clearTimeout", "clearInterval", "setImmediate",
	"clearImmediate", "queueMicrotask", "structuredClone", "performance", "crypto", "atob", "btoa",
	"URL", "URLSearchParams", "TextEncoder", "TextDecoder", "AbortController", "AbortSignal",
	"EventTarget", "Event", "CustomEvent", "DOMException", "Blob", "File", "FormData", "Headers",
	"Request", "Response", "fetch", "WebSocket", "Worker", "MessageChannel", "MessagePort",
	"BroadcastChannel", "navigator", "location", "window", "self", "document", "global", "process",
	"Buffer", "module", "exports", "__dirname", "__filename", "alert", "prompt", "confirm",
	"localStorage", "sessionStorage", "indexedDB", "caches", "reportError",
	// script mode and the playground's own
	"input", "output", "require", "host", "facts", "playground",
}
