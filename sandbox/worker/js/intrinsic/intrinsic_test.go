package intrinsic

import (
	"testing"

	"github.com/dop251/goja"
)

func TestLazyIntrinsicsResolve(t *testing.T) {
	codes := map[uintptr]string{}
	for _, in := range lazyIntrinsics {
		pc := intrinsicCode()[in.key()]
		if other, dup := codes[pc]; dup {
			t.Errorf("%s and %s share their Go code: the check could not tell them apart", in.key(), other)
		}
		codes[pc] = in.key()
		vm := goja.New()
		var b Builtins
		b.Init(vm)
		if _, err := resolve(vm, &b, in); err != nil {
			t.Errorf("%s in a fresh runtime: %v", in.key(), err)
		}
	}
}
