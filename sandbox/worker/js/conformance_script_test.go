package js_test

import "testing"

// scriptDeviations are the script-mode conformance snippets whose output is
// not Node's on purpose; want is the playground's exact output.
var scriptDeviations = map[string]struct{ reason, want string }{
	"top_level_arguments": {
		reason: "a script is the body of a function, as in the code-execution services script mode stands in for (top-level return): arguments is that function's, empty",
		want:   "object\n",
	},
}

// TestConformanceScript runs every snippet of testdata/conformance/script
// in script mode and compares its console output with Node 20's for the
// same code run as a classic script by vm.runInNewContext
// (<name>.golden, recorded by testdata/conformance/script/record.mjs):
// sloppy mode (implicit globals, this, with, legacy octal, Annex B
// function declarations in blocks), strict where the code says so.
func TestConformanceScript(t *testing.T) {
	conformance(t, "testdata/conformance/script", "script", 10, scriptDeviations, "script mode differs from Node 20's vm.runInNewContext")
}
