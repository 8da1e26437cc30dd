package rewrite

import (
	"github.com/dop251/goja"
)

// builder is the value a rewritten string variable holds while it is being
// appended to: its string is the concatenation of parts. Only the natives
// below ever see one; every read of the variable replaces it by its string.
type builder struct {
	parts []goja.String
	n     int // the string's length in UTF-16 code units
}

func (b *builder) add(s goja.String) {
	b.parts = append(b.parts, s)
	b.n += s.Length()
}

// DefineNatives defines on obj (the runtime object a rewritten bundle
// receives) the functions StringBuilding's code calls: FieldAppend,
// FieldBuilder, FieldParts, FieldFlush and FieldLength, as non-enumerable, read-only
// properties. Each is called only by rewritten code, with the arguments it
// writes; anything else is an internal error, thrown as a TypeError.
func DefineNatives(vm *goja.Runtime, obj *goja.Object) {
	builderOf := func(v goja.Value) (*builder, *goja.Object) {
		if o, ok := v.(*goja.Object); ok {
			if b, ok := o.Export().(*builder); ok {
				return b, o
			}
		}
		if s, ok := v.(goja.String); ok {
			b := &builder{parts: make([]goja.String, 0, 8)}
			b.add(s)
			return b, vm.ToValue(b).(*goja.Object)
		}
		panic(vm.NewTypeError("internal error: not a string builder"))
	}
	define := func(name string, f func(goja.FunctionCall) goja.Value) {
		if err := obj.DefineDataProperty(name, vm.ToValue(f), goja.FLAG_FALSE, goja.FLAG_FALSE, goja.FLAG_FALSE); err != nil {
			panic(err)
		}
	}
	define(FieldAppend, func(c goja.FunctionCall) goja.Value {
		b, o := builderOf(c.Argument(0))
		if keep := c.Argument(1).ToInteger(); keep >= 0 && int(keep) < len(b.parts) {
			for _, p := range b.parts[keep:] {
				b.n -= p.Length()
			}
			clear(b.parts[keep:])
			b.parts = b.parts[:keep]
		}
		s, ok := c.Argument(2).(goja.String)
		if !ok {
			panic(vm.NewTypeError("internal error: appending a non-string"))
		}
		b.add(s)
		return o
	})
	define(FieldBuilder, func(c goja.FunctionCall) goja.Value {
		_, o := builderOf(c.Argument(0))
		return o
	})
	define(FieldParts, func(c goja.FunctionCall) goja.Value {
		b, _ := builderOf(c.Argument(0))
		return vm.ToValue(len(b.parts))
	})
	define(FieldLength, func(c goja.FunctionCall) goja.Value {
		b, _ := builderOf(c.Argument(0))
		return vm.ToValue(b.n)
	})
	define(FieldFlush, func(c goja.FunctionCall) goja.Value {
		b, _ := builderOf(c.Argument(0))
		var sb goja.StringBuilder
		sb.Grow(b.n)
		for _, p := range b.parts {
			sb.WriteString(p)
		}
		return sb.String()
	})
}
