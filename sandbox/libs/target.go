package libs

import "github.com/evanw/esbuild/pkg/api"

// Target is the ECMAScript level esbuild lowers code that runs in goja to:
// snippets (sandbox/worker/bundle), operator libraries (operator.go) and
// the vendored ones (gen.go). It is the highest level goja runs, with the
// exceptions of EngineFeatures, pinned by bundle.TestBundleTargetRunsInGoja.
const Target = api.ES2022

// EngineFeatures returns esbuild's Supported overrides for code that runs
// in goja: goja has no async generators or for-await, which esbuild then
// lowers to generators; and its regexes never match \p{…} and refuse the
// d and v flags, so esbuild turns a literal using them into a
// `new RegExp(…)` call, which the runtime's RegExp rewrites or refuses
// with a SyntaxError at the snippet's line (sandbox/worker/js/parity/regexp.go).
// The caller owns the map.
func EngineFeatures() map[string]bool {
	return map[string]bool{
		"async-generator":                 false,
		"for-await":                       false,
		"regexp-unicode-property-escapes": false,
		"regexp-match-indices":            false,
		"regexp-set-notation":             false,
	}
}
