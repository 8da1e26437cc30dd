package inspect

import (
	"bytes"
	"errors"
	"fmt"
	"math/big"
	"reflect"
	"strconv"
	"strings"

	"github.com/dop251/goja"

	"github.com/playground-dev/playground/sandbox/worker/js/intrinsic"
)

func (e *Encoder) object(o *goja.Object, path string, depth int) any {
	e.spend(16)
	if o = unproxy(o); o == nil {
		return Tagged{"$t": "revoked"}
	}
	for i, a := range e.ancestors {
		if a == o {
			if e.refs == nil {
				e.refs = map[*goja.Object]int{}
			}
			n, ok := e.refs[a]
			if !ok {
				n = len(e.refs) + 1
				e.refs[a] = n
			}
			return Tagged{"$t": "circular", "path": e.paths[i], "ref": n}
		}
	}
	class := o.ClassName()
	if class == "Object" {
		switch o.ExportType() {
		case mapType:
			class = "Map"
		case setType:
			class = "Set"
		}
	}
	if class == "Object" {
		if _, ok := goja.AssertFunction(o); ok { // goja's async arrow functions say "Object"
			class = "Function"
		}
	}
	if intrinsic.IsTypedArray(o) {
		return e.typedArray(o, depth)
	}
	if !e.json && class == "Object" && o.ExportType() == bigIntType {
		// A BigInt wrapper (Object(1n)): its export type says so without
		// exporting anything, and it exports its primitive.
		if x, ok := o.Export().(*big.Int); ok {
			return Tagged{"$t": "boxed", "class": "BigInt", "v": Tagged{"$t": "bigint", "v": e.bigint(x)}}
		}
	}
	switch class {
	case "String", "Number", "Boolean":
		// A primitive wrapper: its primitive is read by the intrinsic
		// String.prototype.valueOf (an internal slot, no snippet code) or
		// exported by goja. Keys would list every index of a long String.
		if e.json {
			break
		}
		var prim goja.Value = e.vm.ToValue(o.Export())
		if class == "String" {
			v, err := e.b.StringValue(o)
			if err != nil {
				break
			}
			prim = v
		}
		return Tagged{"$t": "boxed", "class": class, "v": e.value(prim, path, depth+1)}
	case "Object":
		// A Symbol wrapper (Object(Symbol("s"))): goja calls its class
		// Object and exports it as a string; the intrinsic
		// Symbol.prototype.toString reads its symbol (and throws for any
		// other object).
		if !e.json && o.ExportType() == stringType {
			if s, err := e.b.SymbolString(o); err == nil {
				return Tagged{"$t": "boxed", "class": "Symbol", "v": Tagged{"$t": "symbol", "v": e.str(s.String())}}
			}
		}
	case "Function":
		t := e.function(o).(Tagged)
		if !e.json && depth < e.lim.Depth {
			// Own enumerable properties (a class's static fields) print
			// after the function, as inspect does: [class C] { count: 1 }.
			e.ancestors = append(e.ancestors, o)
			e.paths = append(e.paths, path)
			if props := e.props(o, path, depth); len(props) > 0 {
				t["props"] = props
			}
			e.ancestors = e.ancestors[:len(e.ancestors)-1]
			e.paths = e.paths[:len(e.paths)-1]
			if n, ok := e.refs[o]; ok {
				t["ref"] = n
			}
		}
		return t
	case "Date":
		if t, err := e.b.DateValue(o); err == nil && goja.IsNaN(t) {
			return Tagged{"$t": "date", "v": "Invalid Date"}
		}
		iso, err := e.b.DateISO(o)
		if err != nil {
			return Tagged{"$t": "date", "v": "Invalid Date"}
		}
		return Tagged{"$t": "date", "v": iso.String()}
	case "RegExp":
		src, err1 := e.b.RegExpSource(o)
		flags, err2 := e.b.RegExpFlags(o)
		if err1 != nil || err2 != nil {
			return Tagged{"$t": "regexp", "v": "/(?:)/"}
		}
		return Tagged{"$t": "regexp", "v": "/" + src.String() + "/" + flags.String()}
	case "Error":
		msg, got := e.messages[o]
		if !got {
			msg = e.DataString(o, "message")
		}
		name, msg := e.ErrorName(o), e.str(msg)
		head := ErrorHead(name, msg, e.ConstructorName(o))
		// goja's stack names the bundle's namespaces and bytecode offsets;
		// show the user's frames instead, as error events do.
		t := Tagged{"$t": "error", "name": name, "message": msg, "stack": e.str(e.host.ErrorStack(o, head, e.StackString(o), e.user))}
		if !e.json && depth < e.lim.Depth {
			e.ancestors = append(e.ancestors, o)
			e.paths = append(e.paths, path)
			e.errorExtras(t, o, path, depth)
			e.ancestors = e.ancestors[:len(e.ancestors)-1]
			e.paths = e.paths[:len(e.paths)-1]
			if n, ok := e.refs[o]; ok {
				t["ref"] = n
			}
		}
		return t
	}

	if depth >= e.lim.Depth {
		e.cutDeep = true
		// A cut container's tag is ~60 bytes of JSON, beside the 16 spent
		// above: counted, so that a structure sharing one sub-structure
		// many times ends in "more" within the budget (issue 22).
		e.spend(48)
		return e.cut(o, class)
	}
	e.ancestors = append(e.ancestors, o)
	e.paths = append(e.paths, path)
	defer func() {
		e.ancestors = e.ancestors[:len(e.ancestors)-1]
		e.paths = e.paths[:len(e.paths)-1]
	}()
	p := e.container(o, class, path, depth)
	if n, ok := e.refs[o]; ok {
		if t, ok := p.(Tagged); ok {
			t["ref"] = n
		}
	}
	return p
}

// container previews an object that may hold others (an array, a Map, a
// Set, a plain or class instance).
func (e *Encoder) container(o *goja.Object, class, path string, depth int) any {
	switch class {
	case "Array":
		return e.array(o, path, depth)
	case "Map":
		return e.mapEntries(o, path, depth)
	case "Set":
		return e.setValues(o, path, depth)
	}
	if t, ok := e.inspectedPreview(o, path, depth); ok {
		return t
	}
	name := e.ConstructorName(o)
	props := e.props(o, path, depth)
	if !e.json && name == "DataView" {
		props = append(e.dataView(o, path, depth), props...)
	}
	if !e.json && o.ExportType() == arrayBufferType {
		if ab, ok := o.Export().(goja.ArrayBuffer); ok {
			props = append(object{
				{Key: "[Uint8Contents]", Value: Tagged{"$t": "bytes", "v": bufferContents(ab)}, Symbol: true},
				{Key: "byteLength", Value: len(ab.Bytes())},
			}, props...)
		}
	}
	if e.json && (name == "Object" || name == "") {
		return props
	}
	if o.ClassName() == "Arguments" {
		name = "[Arguments]" // inspect's prefix for an arguments object
	}
	if tag := e.toStringTag(o); tag != "" && tag != name {
		// inspect's getPrefix: Object [Math], Temp [TT], [Object: null prototype] [Tag].
		if name == "" {
			name = nullPrototype
		}
		name += " [" + capName(tag) + "]"
	}
	if name == "" {
		name = nullPrototype
	}
	if class == "Promise" || o.ExportType() == promiseType {
		name = "Promise"
		if p, ok := o.Export().(*goja.Promise); ok { // exports itself: no code runs
			internal := object{{Key: "[[state]]", Value: [...]string{"pending", "fulfilled", "rejected"}[p.State()]}}
			if p.State() != goja.PromiseStatePending {
				internal = append(internal, field{Key: "[[result]]", Value: e.value(p.Result(), path+".[[result]]", depth+1)})
			}
			props = append(internal, props...)
		}
	}
	return Tagged{"$t": "object", "class": name, "props": props}
}

// dataView previews what Node's inspect lists first of a DataView: its
// byteLength, byteOffset and buffer, read with the intrinsic getters (no
// snippet code; they throw for an object that is not a DataView, which
// then shows none of them).
func (e *Encoder) dataView(o *goja.Object, path string, depth int) object {
	length, offset, buf, err := e.viewFields(o)
	if err != nil {
		return nil
	}
	return object{
		{Key: "byteLength", Value: e.value(length, path+".byteLength", depth+1)},
		{Key: "byteOffset", Value: e.value(offset, path+".byteOffset", depth+1)},
		{Key: "buffer", Value: e.value(buf, path+".buffer", depth+1)},
	}
}

// viewFields reads the DataView o's byteLength, byteOffset and buffer
// through the intrinsic getters (no snippet code runs); they throw for an
// object that is not a DataView.
func (e *Encoder) viewFields(o *goja.Object) (length, offset, buffer goja.Value, err error) {
	g := e.b.DataView(e.vm)
	if g.Err != nil {
		return nil, nil, nil, g.Err
	}
	if length, err = g.ByteLength(o); err != nil {
		return nil, nil, nil, err
	}
	if offset, err = g.ByteOffset(o); err != nil {
		return nil, nil, nil, err
	}
	if buffer, err = g.Buffer(o); err != nil {
		return nil, nil, nil, err
	}
	return length, offset, buffer, nil
}

// DataViewBytes copies the bytes the DataView o views (viewFields).
func (e *Encoder) DataViewBytes(o *goja.Object) ([]byte, error) {
	length, offset, buf, err := e.viewFields(o)
	if err != nil {
		return nil, err
	}
	ab, ok := buf.Export().(goja.ArrayBuffer)
	start, n := offset.ToInteger(), length.ToInteger()
	if !ok || start < 0 || n < 0 || start+n > int64(len(ab.Bytes())) {
		return nil, errors.New("a detached or resized buffer")
	}
	return bytes.Clone(ab.Bytes()[start : start+n]), nil
}

// viewGetters are the intrinsic DataView getters (or the error that they
// were replaced before the first DataView preview).

// bufferContents is an ArrayBuffer's bytes as Node's inspect shows them
// (formatArrayBuffer): <01 ff 10>, the first 100 (maxArrayLength) and
// "... n more bytes"; "(detached)" for a detached one.
func bufferContents(ab goja.ArrayBuffer) string {
	if ab.Detached() {
		return "(detached)"
	}
	b := ab.Bytes()
	const shown = 100
	var sb strings.Builder
	sb.WriteByte('<')
	for i, c := range b[:min(len(b), shown)] {
		if i > 0 {
			sb.WriteByte(' ')
		}
		fmt.Fprintf(&sb, "%02x", c)
	}
	if n := len(b) - shown; n > 0 {
		fmt.Fprintf(&sb, " ... %d more byte", n)
		if n > 1 {
			sb.WriteByte('s')
		}
	}
	sb.WriteByte('>')
	return sb.String()
}

// typedArray previews a typed array as Node does (Uint8Array(3) [ 1, 2, 3 ]):
// its first elements read from its backing slice, never its index keys
// (a typed array of 50 million elements has 50 million of them).
func (e *Encoder) typedArray(o *goja.Object, depth int) any {
	v := reflect.ValueOf(o.Export())
	n := v.Len()
	class := e.ConstructorName(o)
	if e.json {
		class = ""
	}
	if depth >= e.lim.Depth && !e.json {
		return Tagged{"$t": "array", "class": class, "length": n, "items": []any{Tagged{"$t": "more", "count": n}}}
	}
	items := []any{}
	i := 0
	for ; i < n && i < e.lim.Keys && e.budget > 0; i++ {
		el := v.Index(i)
		switch {
		case el.CanInt() && (el.Kind() == reflect.Int64):
			items = append(items, Tagged{"$t": "bigint", "v": strconv.FormatInt(el.Int(), 10)})
		case el.CanUint() && (el.Kind() == reflect.Uint64):
			items = append(items, Tagged{"$t": "bigint", "v": strconv.FormatUint(el.Uint(), 10)})
		case el.CanInt():
			items = append(items, el.Int())
		case el.CanUint():
			items = append(items, int64(el.Uint()))
		default:
			items = append(items, number(el.Float()))
		}
		e.spend(8)
	}
	if i < n {
		items = append(items, Tagged{"$t": "more", "count": n - i})
	}
	if e.json {
		return items
	}
	return Tagged{"$t": "array", "class": class, "length": n, "items": items}
}

// cut is the preview of an object past the depth cap.
func (e *Encoder) cut(o *goja.Object, class string) any {
	if class == "Array" {
		n := e.ArrayLength(o)
		return e.subclassArray(Tagged{"$t": "array", "items": []any{Tagged{"$t": "more", "count": n}}}, o, n)
	}
	keys := e.EnumerableKeys(o)
	return Tagged{"$t": "object", "class": e.classLabel(o, class), "props": object{{Key: "…", Value: Tagged{"$t": "more", "count": len(keys)}}}}
}

func (e *Encoder) classLabel(o *goja.Object, class string) string {
	if class == "Map" || class == "Set" {
		return class
	}
	if n := e.ConstructorName(o); n != "" {
		return n
	}
	return nullPrototype
}

// maxProtoSteps bounds a walk up a prototype chain while previewing (lookup).
const maxProtoSteps = 64

// toStringTag is o's Symbol.toStringTag as Node's inspect shows it beside
// the class: a string data property, own or inherited, that is not an own
// enumerable one (inspect lists that among the properties). A getter is not
// called (Node calls it): no snippet code runs.
func (e *Encoder) toStringTag(o *goja.Object) string {
	desc, on, ok := e.Lookup(o, goja.SymToStringTag)
	if !ok || desc == nil {
		return ""
	}
	v, data := intrinsic.DescValue(desc)
	if !data {
		return ""
	}
	if on == o {
		if descFlag(desc, "enumerable") {
			return ""
		}
	}
	s, _ := intrinsic.PrimitiveString(v)
	return s
}

// nullPrototype is the class of an object without a prototype, as Node's
// util.inspect labels it.
const nullPrototype = "[Object: null prototype]"

func (e *Encoder) ArrayLength(o *goja.Object) int64 {
	v, ok := e.OwnData(o, "length")
	if !ok {
		return 0
	}
	if _, ok := v.(*goja.Object); ok {
		return 0
	}
	n, _ := v.Export().(int64)
	return n
}
