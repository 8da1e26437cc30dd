package parity

import (
	"github.com/playground-dev/playground/sandbox/worker/js/intrinsic"
	"math"
	"strings"

	"github.com/dop251/goja"
)

// JSONGap is JSON.stringify's gap for its space argument (ECMA-262
// JSON.stringify steps 5–8): a Number or String object is converted first;
// a number gives that many spaces, at most 10; a string its first 10
// UTF-16 code units (only those are read: the space may be huge); anything
// else none.
//
// Patcher.stringify (stringify.go) lays its text out with this gap.
func JSONGap(space goja.Value) string {
	if o, ok := space.(*goja.Object); ok {
		switch o.ClassName() {
		case "Number":
			space = o.ToNumber()
		case "String":
			space = o.ToString()
		}
	}
	switch {
	case intrinsic.IsNumber(space):
		f := space.ToFloat()
		if math.IsNaN(f) || f < 1 {
			return ""
		}
		return strings.Repeat(" ", int(min(10, f)))
	case goja.IsString(space):
		s := space.(goja.String)
		return s.Substring(0, min(10, s.Length())).String()
	}
	return ""
}
