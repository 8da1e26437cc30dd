package parity

import (
	"strconv"
	"strings"

	"github.com/dop251/goja"

	"github.com/playground-dev/playground/sandbox/worker/js/intrinsic"
)

// V8's message for a cycle JSON.stringify meets (JsonStringifier's
// ConstructCircularStructureErrorMessage): the object the circle starts
// at, up to two keys and objects after it, an ellipsis for more, the last
// one, and the key that closes the circle.
const (
	circlePrefixLines  = 2 // kCircularErrorMessagePrefixCount
	circlePostfixLines = 1 // kCircularErrorMessagePostfixCount
)

// circular throws V8's TypeError for the cycle that closes when the object
// s.stack[start] is met again under key last.
func (s *stringifier) circular(start int, last jsonKey) {
	var b strings.Builder
	b.WriteString("Converting circular structure to JSON\n    --> starting at object with constructor ")
	s.constructorName(&b, s.stack[start].obj)
	line := func(f frame) {
		b.WriteString("\n    |     ")
		writeCircleKey(&b, f.key)
		b.WriteString(" -> object with constructor ")
		s.constructorName(&b, f.obj)
	}
	i := start + 1
	for end := min(len(s.stack), i+circlePrefixLines); i < end; i++ {
		line(s.stack[i])
	}
	if len(s.stack) > i+circlePostfixLines {
		b.WriteString("\n    |     ...")
	}
	for i = max(i, len(s.stack)-circlePostfixLines); i < len(s.stack); i++ {
		line(s.stack[i])
	}
	b.WriteString("\n    --- ")
	writeCircleKey(&b, last)
	b.WriteString(" closes the circle")
	s.p.h.Throw("TypeError", b.String())
}

// writeCircleKey writes k as V8's message names it: index 3, property
// 'x', or <anonymous> for the empty name.
func writeCircleKey(b *strings.Builder, k jsonKey) {
	switch {
	case k.index >= 0:
		b.WriteString("index ")
		b.WriteString(strconv.FormatInt(k.index, 10))
	case k.name == "":
		b.WriteString("<anonymous>")
	default:
		b.WriteString("property '")
		b.WriteString(k.name)
		b.WriteString("'")
	}
}

// constructorName writes o's constructor name in quotes as V8's
// JSReceiver::GetConstructorName finds it, without running snippet code
// (own data properties only, read through the intrinsics): along o's
// prototype chain, the first Symbol.toStringTag string, or a prototype's
// constructor function named other than "" and "Object"; else "Array"
// for an array, "Arguments" for an arguments object, "Object" for the
// rest (a Proxy too).
func (s *stringifier) constructorName(b *strings.Builder, o *goja.Object) {
	b.WriteByte('\'')
	b.WriteString(s.findConstructorName(o))
	b.WriteByte('\'')
}

func (s *stringifier) findConstructorName(o *goja.Object) string {
	in := s.p.b
	if o.ExportType() == proxyType {
		return "Object"
	}
	seen := 0
	for cur := o; cur != nil && cur.ExportType() != proxyType && seen < 1000; cur, seen = in.Proto(cur), seen+1 {
		if d, err := in.GetDescriptor(goja.Undefined(), cur, goja.SymToStringTag); err == nil && !goja.IsUndefined(d) {
			if v, ok := intrinsic.DescValue(d.ToObject(s.vm)); ok {
				if tag, ok := intrinsic.PrimitiveString(v); ok {
					return tag
				}
			}
		}
		if cur == o {
			continue
		}
		c, ok := in.OwnData(cur, "constructor")
		f, isObj := c.(*goja.Object)
		if !ok || !isObj {
			continue
		}
		if _, fn := goja.AssertFunction(f); !fn || f.ExportType() == proxyType {
			continue
		}
		if n, ok := in.OwnData(f, "name"); ok {
			if name, ok := intrinsic.PrimitiveString(n); ok && name != "" && name != "Object" {
				return name
			}
		}
	}
	switch o.ClassName() {
	case "Array", "Arguments":
		return o.ClassName()
	}
	return "Object"
}
