package webapi

import (
	_ "embed"
	"sync"

	"github.com/dop251/goja"
)

// PolyfillSource is polyfill.js: the web APIs goja lacks and Node has,
// in groups the core evaluates on first use (js.lazyNames).
//
//go:embed polyfill.js
var PolyfillSource string

// PolyfillProgram is PolyfillSource compiled, once per process.
var PolyfillProgram = sync.OnceValue(func() *goja.Program {
	return goja.MustCompile("polyfill.js", PolyfillSource, true)
})

// URLSource is core-js-pure's WHATWG URL and URLSearchParams, lowered for
// goja (thirdparty/gen.go).
//
//go:embed thirdparty/url.js
var URLSource string

// URLProgram evaluates to {URL, URLSearchParams}; about 1 ms the first
// time a run touches URL.
var URLProgram = sync.OnceValue(func() *goja.Program {
	return goja.MustCompile("url.js", URLSource+";__url", false)
})

// Files are the program names of the polyfills' code as goja's stack
// frames start with them: frames the core drops from a snippet's stacks.
var Files = []string{"polyfill.js:", "url.js:"}
