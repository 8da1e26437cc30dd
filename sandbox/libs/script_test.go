package libs

import "testing"

// TestExportsObject: esbuild's closing export clause becomes an object
// literal (renamed, shorthand and quoted names); output without one is an
// error, not a chunk that evaluates to nothing.
func TestExportsObject(t *testing.T) {
	for _, tc := range []struct{ code, body, object string }{
		{"var a=1;function b(){}export{a as chunk,b};\n", "var a=1;function b(){}", "{chunk:a,b}"},
		{"var x=2;export{x as default};\n", "var x=2;", "{default:x}"},
		{`var s="export{";var y=3;export{y as "a-b"};`, `var s="export{";var y=3;`, `{"a-b":y}`},
	} {
		body, object, err := exportsObject(tc.code)
		if err != nil || body != tc.body || object != tc.object {
			t.Errorf("exportsObject(%q) = %q, %q, %v; want %q, %q", tc.code, body, object, err, tc.body, tc.object)
		}
	}
	for _, code := range []string{"var a=1;", "export{a};var b=2;", "export{a,{b}};"} {
		if _, _, err := exportsObject(code); err == nil {
			t.Errorf("exportsObject(%q): no error", code)
		}
	}
}
