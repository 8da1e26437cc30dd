package parity

import (
	"testing"

	"github.com/dop251/goja"

	"github.com/playground-dev/playground/sandbox/worker/js/intrinsic"
)

// TestLongArray: the loop and scan guards leave a dense long array to
// goja's own built-ins (its loop is as long as its data) and take a
// sparse one, whose length is no measure of what it holds.
func TestLongArray(t *testing.T) {
	vm := goja.New()
	var b intrinsic.Builtins
	b.Init(vm)
	p := Patcher{vm: vm, b: &b}
	// One long array is built (a second or so), then lengthened.
	for _, c := range []struct {
		src  string
		want bool
	}{
		{`Array.from({length: 10}, (_, i) => i)`, false},                        // short
		{`var d = new Array(2**22 + 100).fill(0); d`, false},                    // dense
		{`d.length = 2**23; d`, true},                                           // half holes: passes with p = 2^-24
		{`new Array(2**22 + 100)`, true},                                        // holes only
		{`const s = []; s.length = 2**32 - 1; s[0] = 1; s[2**31] = 2; s`, true}, // sparse
	} {
		v, err := vm.RunString(c.src)
		if err != nil {
			t.Fatal(c.src, err)
		}
		if got := p.longArray(v.(*goja.Object)); got != c.want {
			t.Errorf("longArray(%s) = %v; want %v", c.src, got, c.want)
		}
	}
}
