package parity

import (
	"math"
	"reflect"
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
	"unsafe"

	"github.com/dop251/goja"

	"github.com/playground-dev/playground/sandbox/worker/js/intrinsic"
)

// JSON.stringify in Go, with ECMA-262's semantics (§25.5.2: SerializeJSONProperty,
// SerializeJSONObject, SerializeJSONArray, QuoteJSONString) and V8's
// messages (Node 20).
//
// goja's builtinJSON_stringify walks an array to its length in Go without
// looking at the runtime's interrupt: `S = []; S.length = 2 ** 32 - 1;
// JSON.stringify(S)` (or `{a: S}`) looped about 4e9 times past the run's
// deadline until the pool killed the worker, and the fact changes made
// since the last task ended were lost. This one counts every element and
// member it serializes and checks the interrupt every checkEvery of them
// (interruptCounter, loops.go), and it stops, as V8 does, with "RangeError:
// Invalid string length" once its text is longer than V8's longest string
// (maxStringLength), whichever comes first; an array longer than half
// that, such as S, is that RangeError at once, as in V8. A guard around
// goja's (a replacer that counted every value) cost 10–35% of every call;
// walking the values here costs nothing extra and is as fast as goja's
// for plain data, faster for strings (BenchmarkStringify).
//
// What it fixes besides: goja's indentation after an empty [] or {} with a
// space argument (the gap is written here, as ECMA-262 lays it out); the
// order of the space's and the replacer array's conversions; V8's message
// for a cycle (which names the constructors and keys of the circle); a
// nesting deeper than Node's, which is V8's RangeError "Maximum call stack
// size exceeded" instead of a Go recursion of any depth; lone surrogates in
// keys.
//
// Patch for: goja's JSON.stringify loops in Go without an interrupt check
// (Runtime.Interrupt's doc), words a cycle without V8's lines, and indents
// one level deeper after an empty [] or {}. Upstream: no upstream issue
// found as of 2026-11. Delete when goja's checks the interrupt and words
// a cycle as V8 does. goja's own also writes a Go value reflected into the
// runtime (a json.Marshaler, a struct) its Go way; this runtime hands
// snippets no such value, and here one is an ordinary object.

const (
	// maxJSONDepth is the deepest nesting of arrays and objects serialized:
	// Node 20 serializes 4175 nested arrays from the top of a fresh stack
	// and throws "Maximum call stack size exceeded" at one more.
	maxJSONDepth = 4175
	// maxIndexNames bounds Patcher.indexNames: the decimal names of
	// later indexes are made one by one.
	maxIndexNames = 1 << 17
	// maxStringifyHint caps the capacity a call's text starts with: the
	// length of the last call's (Patcher.stringifyHint), up to this.
	maxStringifyHint = 1 << 20
	// maxSerializableArrayLength is V8's kMaxSerializableArrayLength: an
	// array (or array Proxy) longer than that is "Invalid string length"
	// before any element is read, as every element takes at least two
	// characters.
	maxSerializableArrayLength = maxStringLength / 2
)

// InstallJSONStringify replaces JSON.stringify with Patcher.stringify.
func (p *Patcher) InstallJSONStringify() {
	holder := p.vm.Get("JSON").ToObject(p.vm)
	p.replace(holder, "stringify", 3, func(c goja.FunctionCall) goja.Value {
		return p.stringify(c.Argument(0), c.Argument(1), c.Argument(2))
	})
}

// jsonKey is a property key being serialized: an array index (index ≥ 0)
// or a property name. name is the key as Go text (an index in decimal);
// value, when set, the key as a JS string. A name that has a lone
// surrogate cannot be Go text (goja's Keys gives U+FFFD for it): wtf says
// so, and the property is read by value through Reflect.get.
type jsonKey struct {
	name  string
	value goja.Value
	index int64
	wtf   bool
}

// frame is an object or array being serialized, with the key its holder
// has it under (for the cycle's message).
type frame struct {
	obj *goja.Object
	key jsonKey
}

// stringifier is one JSON.stringify call's state.
type stringifier struct {
	p   *Patcher
	vm  *goja.Runtime
	buf []byte
	// extra is how many more UTF-8 bytes than UTF-16 code units buf holds:
	// len(buf)-extra is the text's length as JS counts it.
	extra    int
	replacer goja.Callable
	// props is the replacer array's property list; nil: each object's own
	// enumerable string keys.
	props   []jsonKey
	gap     string
	indents []string // indents[d] is gap repeated d times
	stack   []frame
	ops     interruptCounter
}

// stringify is JSON.stringify(value, replacer, space): the text as a JS
// string, or undefined when value serializes to nothing (a function, a
// symbol, undefined). It throws what the snippet's toJSON, replacer,
// getters and Proxy traps throw, and V8's TypeError for a cycle or a
// BigInt, RangeError for a nesting deeper than maxJSONDepth or a text
// longer than maxStringLength UTF-16 code units; it stops at the
// runtime's interrupt.
func (p *Patcher) stringify(value, replacer, space goja.Value) goja.Value {
	s := &stringifier{p: p, vm: p.vm, ops: interruptCounter{vm: p.vm}, buf: make([]byte, 0, p.stringifyHint)}
	if r, ok := replacer.(*goja.Object); ok {
		if f, ok := goja.AssertFunction(r); ok {
			s.replacer = f
		} else if s.isArray(r) {
			s.props = s.propertyList(r)
		}
	}
	s.gap = JSONGap(space)
	s.indents = []string{""}
	var holder *goja.Object
	if s.replacer != nil {
		holder = p.vm.NewObject()
		must(holder.DefineDataProperty("", value, goja.FLAG_TRUE, goja.FLAG_TRUE, goja.FLAG_TRUE))
	}
	top := jsonKey{index: -1, value: p.vm.ToValue("")}
	v, ok := s.prepare(holder, top, value)
	if !ok {
		return goja.Undefined()
	}
	s.write(v, top)
	s.checkLength()
	p.stringifyHint = min(len(s.buf), maxStringifyHint)
	if cap(s.buf)-len(s.buf) > len(s.buf)/8 {
		// A copy: the string would keep the unused capacity alive.
		return p.vm.ToValue(string(s.buf))
	}
	// buf is this call's own and never written again: the string shares it.
	return p.vm.ToValue(unsafe.String(unsafe.SliceData(s.buf), len(s.buf)))
}

// isArray is IsArray(o) (Patcher.isArray).
func (s *stringifier) isArray(o *goja.Object) bool { return s.p.isArray(o) }

// propertyList is the replacer array r's property list (JSON.stringify
// step 4.b): its strings, numbers and String and Number objects as
// strings, each once, in order.
func (s *stringifier) propertyList(r *goja.Object) []jsonKey {
	n := toLength(lengthOf(r))
	list := []jsonKey{}
	seen := map[string]bool{}
	for i := float64(0); i < n; i++ {
		s.ops.tick()
		v := s.get(r, s.indexKey(int64(i)))
		var item goja.String
		switch x := v.(type) {
		case *goja.Object:
			if x.ExportType() == proxyType {
				continue
			}
			if c := x.ClassName(); c != "String" && c != "Number" {
				continue
			}
			item = JSString(s.vm, x)
		case goja.String:
			item = x
		default:
			if v == nil || !intrinsic.IsNumber(v) {
				continue
			}
			item = JSString(s.vm, v)
		}
		k := s.nameKey(item)
		id := k.name
		if k.wtf {
			id = string(utf16Units(item)) // distinct per lone surrogate
		}
		if !seen[id] {
			seen[id] = true
			list = append(list, k)
		}
	}
	return list
}

// utf16Units is s's code units as bytes, two per unit.
func utf16Units(s goja.String) []byte {
	b := make([]byte, 0, 2*s.Length())
	for i := range s.Length() {
		c := s.CharAt(i)
		b = append(b, byte(c>>8), byte(c))
	}
	return b
}

// nameKey is the property key of the JS string k.
func (s *stringifier) nameKey(k goja.String) jsonKey {
	name := k.String()
	return jsonKey{name: name, value: k, index: -1, wtf: len(name) != k.Length() && strings.Contains(name, "\uFFFD") && hasLoneSurrogate(k)}
}

func hasLoneSurrogate(k goja.String) bool {
	n := k.Length()
	for i := 0; i < n; i++ {
		c := k.CharAt(i)
		switch {
		case utf16.IsSurrogate(rune(c)) && c < 0xdc00 && i+1 < n && k.CharAt(i+1) >= 0xdc00 && k.CharAt(i+1) <= 0xdfff:
			i++ // a pair
		case utf16.IsSurrogate(rune(c)):
			return true
		}
	}
	return false
}

// indexKey is the key of index i.
func (s *stringifier) indexKey(i int64) jsonKey {
	p := s.p
	if i < int64(len(p.indexNames)) {
		return jsonKey{name: p.indexNames[i], index: i}
	}
	if i >= maxIndexNames {
		return jsonKey{name: strconv.FormatInt(i, 10), index: i}
	}
	for j := int64(len(p.indexNames)); j <= i; j++ {
		p.indexNames = append(p.indexNames, strconv.FormatInt(j, 10))
	}
	return jsonKey{name: p.indexNames[i], index: i}
}

// keyValue is k as a JS string, the argument toJSON and the replacer get.
func (s *stringifier) keyValue(k jsonKey) goja.Value {
	if k.value == nil {
		return s.vm.ToValue(k.name)
	}
	return k.value
}

// get is Get(o, k); a missing property is undefined.
func (s *stringifier) get(o *goja.Object, k jsonKey) goja.Value {
	var v goja.Value
	if k.wtf {
		v = call(s.p.b.ReflectGet, goja.Undefined(), o, k.value)
	} else {
		v = o.Get(k.name)
	}
	if v == nil {
		return goja.Undefined()
	}
	return v
}

// prepare is SerializeJSONProperty's steps 2–4 on value, holder[key]: its
// toJSON and the replacer called, a Number, String, Boolean or BigInt
// object unwrapped. ok is false when the property serializes to nothing
// (undefined, a symbol, a function).
func (s *stringifier) prepare(holder *goja.Object, key jsonKey, value goja.Value) (_ goja.Value, ok bool) {
	var toJSON goja.Value
	switch o := value.(type) {
	case *goja.Object:
		if o.ExportType() == proxyType && o.Export().(goja.Proxy).Handler() == nil {
			s.p.h.Throw("TypeError", "Cannot perform 'get' on a proxy that has been revoked")
		}
		toJSON = o.Get("toJSON")
	default:
		if value.ExportType() == bigIntType {
			toJSON = value.ToObject(s.vm).Get("toJSON")
		}
	}
	if toJSON != nil {
		if f, ok := goja.AssertFunction(toJSON); ok {
			value = call(f, value, s.keyValue(key))
		}
	}
	if s.replacer != nil {
		value = call(s.replacer, holder, s.keyValue(key), value)
	}
	switch o := value.(type) {
	case *goja.Object:
		if o.ExportType() == proxyType {
			_, fn := goja.AssertFunction(o)
			return o, !fn
		}
		switch o.ClassName() {
		case "Number":
			return o.ToNumber(), true
		case "String":
			return JSString(s.vm, o), true
		case "Boolean":
			b, _ := o.Export().(bool)
			return s.vm.ToValue(b), true
		case "Function":
			return nil, false
		}
		if o.ExportType() == bigIntType {
			s.p.h.Throw("TypeError", "Do not know how to serialize a BigInt")
		}
		_, fn := goja.AssertFunction(o)
		return o, !fn
	case *goja.Symbol:
		return nil, false
	}
	return value, value != nil && !goja.IsUndefined(value)
}

// write appends the JSON text of v, a value prepare let through
// (SerializeJSONProperty's steps 5–12).
func (s *stringifier) write(v goja.Value, key jsonKey) {
	switch x := v.(type) {
	case *goja.Object:
		s.object(x, key)
		return
	case goja.String:
		s.quote(x)
		return
	}
	if goja.IsNull(v) {
		s.buf = append(s.buf, "null"...)
		return
	}
	switch v.ExportType() {
	case boolType:
		s.buf = strconv.AppendBool(s.buf, v.ToBoolean())
	case intType:
		s.buf = strconv.AppendInt(s.buf, v.ToInteger(), 10)
	case floatType:
		s.number(v.ToFloat())
	case bigIntType:
		s.p.h.Throw("TypeError", "Do not know how to serialize a BigInt")
	default:
		s.buf = append(s.buf, "null"...) // no other primitive reaches here
	}
}

// number appends f as Number::toString does; NaN and ±Infinity are null.
func (s *stringifier) number(f float64) {
	switch {
	case math.IsNaN(f) || math.IsInf(f, 0):
		s.buf = append(s.buf, "null"...)
	case f == math.Trunc(f) && math.Abs(f) < 1e15:
		s.buf = strconv.AppendInt(s.buf, int64(f), 10) // -0 too: "0"
	default:
		s.buf = append(s.buf, intrinsic.FormatNumber(f)...)
	}
}

// checkLength throws V8's RangeError once the text is longer than V8's
// longest string.
func (s *stringifier) checkLength() {
	if len(s.buf)-s.extra > maxStringLength {
		s.buf = nil
		s.p.h.Throw("RangeError", "Invalid string length")
	}
}

// object appends the JSON text of o, an array (SerializeJSONArray) or
// another object (SerializeJSONObject), or goja's JSON.rawJSON text.
func (s *stringifier) object(o *goja.Object, key jsonKey) {
	proxy := o.ExportType() == proxyType
	if !proxy && o.ClassName() == "RawJSON" {
		s.buf = append(s.buf, o.Get("rawJSON").String()...)
		return
	}
	for i, f := range s.stack {
		if f.obj == o {
			s.circular(i, key)
		}
	}
	if len(s.stack) >= maxJSONDepth {
		s.p.h.Throw("RangeError", "Maximum call stack size exceeded")
	}
	s.stack = append(s.stack, frame{obj: o, key: key})
	depth := len(s.stack)
	for len(s.indents) <= depth {
		s.indents = append(s.indents, s.indents[len(s.indents)-1]+s.gap)
	}
	if (!proxy && o.ClassName() == "Array") || (proxy && s.isArray(o)) {
		s.array(o, depth)
	} else {
		s.members(o, depth)
	}
	s.stack = s.stack[:depth-1]
}

// newline starts a line at depth's indentation (only with a gap).
func (s *stringifier) newline(depth int) {
	if s.gap != "" {
		s.buf = append(s.buf, '\n')
		s.buf = append(s.buf, s.indents[depth]...)
	}
}

func (s *stringifier) array(o *goja.Object, depth int) {
	n := toLength(lengthOf(o))
	if n == 0 {
		s.buf = append(s.buf, "[]"...)
		return
	}
	if n > maxSerializableArrayLength {
		s.p.h.Throw("RangeError", "Invalid string length")
	}
	s.buf = append(s.buf, '[')
	for i := int64(0); i < int64(n); i++ {
		s.ops.tick()
		if i > 0 {
			s.buf = append(s.buf, ',')
		}
		s.newline(depth)
		k := s.indexKey(i)
		v, ok := s.prepare(o, k, s.get(o, k))
		if ok {
			s.write(v, k)
		} else {
			s.buf = append(s.buf, "null"...)
		}
		s.checkLength()
	}
	s.newline(depth - 1)
	s.buf = append(s.buf, ']')
}

func (s *stringifier) members(o *goja.Object, depth int) {
	keys, names := s.props, []string(nil)
	if keys == nil {
		keys, names = s.ownKeys(o)
	}
	s.buf = append(s.buf, '{')
	empty := true
	for i := range max(len(keys), len(names)) {
		s.ops.tick()
		var k jsonKey
		if names != nil {
			k = jsonKey{name: names[i], index: -1}
		} else {
			k = keys[i]
		}
		v, ok := s.prepare(o, k, s.get(o, k))
		if !ok {
			continue
		}
		if !empty {
			s.buf = append(s.buf, ',')
		}
		empty = false
		s.newline(depth)
		if k.wtf {
			s.quote(k.value.(goja.String))
		} else {
			s.quoteText(k.name, -1)
		}
		s.buf = append(s.buf, ':')
		if s.gap != "" {
			s.buf = append(s.buf, ' ')
		}
		s.write(v, k)
		s.checkLength()
	}
	if !empty {
		s.newline(depth - 1)
	}
	s.buf = append(s.buf, '}')
}

// ownKeys is EnumerableOwnProperties(o, key): its own enumerable string
// keys, integer keys ascending first, as names (goja's Keys, which asks a
// Proxy's ownKeys and getOwnPropertyDescriptor traps). A name with U+FFFD
// may be a lone surrogate goja's Keys turned into one: o's keys are then
// read again as JS strings (Reflect.ownKeys, and each key's descriptor for
// enumerability), which a Proxy's traps see a second time, and returned
// as keys instead.
func (s *stringifier) ownKeys(o *goja.Object) ([]jsonKey, []string) {
	names := o.Keys()
	lossy := false
	for _, name := range names {
		if strings.Contains(name, "\uFFFD") {
			lossy = true
			break
		}
	}
	if !lossy {
		if names == nil {
			names = []string{}
		}
		return nil, names
	}
	keys := []jsonKey{}
	b := s.p.b
	all := call(b.OwnKeys, goja.Undefined(), o).ToObject(s.vm)
	for i := range int64(toLength(lengthOf(all))) {
		name, ok := all.Get(strconv.FormatInt(i, 10)).(goja.String)
		if !ok {
			continue // a symbol
		}
		d := call(b.GetDescriptor, goja.Undefined(), o, name)
		if goja.IsUndefined(d) {
			continue
		}
		if e, _ := intrinsic.DescField(d.ToObject(s.vm), "enumerable"); e == nil || !e.ToBoolean() {
			continue
		}
		keys = append(keys, s.nameKey(name))
	}
	return keys, nil
}

// hexDigits are QuoteJSONString's: lower case, as V8 writes them.
const hexDigits = "0123456789abcdef"

// quote appends QuoteJSONString(v): a lone surrogate as \udxxx.
func (s *stringifier) quote(v goja.String) {
	text, units := v.String(), v.Length()
	if len(text) == units || !strings.Contains(text, "\uFFFD") {
		s.quoteText(text, units) // ASCII, or no surrogate lost
		return
	}
	s.buf = append(s.buf, '"')
	start := len(s.buf)
	for i := 0; i < units; i++ {
		c := rune(v.CharAt(i))
		if utf16.IsSurrogate(c) {
			if c < 0xdc00 && i+1 < units {
				if d := rune(v.CharAt(i + 1)); d >= 0xdc00 && d <= 0xdfff {
					s.buf = utf8.AppendRune(s.buf, utf16.DecodeRune(c, d))
					i++
					continue
				}
			}
			s.buf = append(s.buf, '\\', 'u', hexDigits[c>>12], hexDigits[c>>8&15], hexDigits[c>>4&15], hexDigits[c&15])
			continue
		}
		if c < utf8.RuneSelf {
			s.escapeByte(byte(c))
			continue
		}
		s.buf = utf8.AppendRune(s.buf, c)
	}
	s.extra += utf8Extra(s.buf[start:])
	s.buf = append(s.buf, '"')
}

// utf8Extra is how many more bytes than UTF-16 code units the valid UTF-8
// b has: one per continuation byte, less one per 4-byte sequence (two
// units).
func utf8Extra(b []byte) int {
	extra := 0
	for _, c := range b {
		switch {
		case c >= 0xf0:
			extra--
		case c >= 0x80 && c < 0xc0:
			extra++
		}
	}
	return extra
}

// quoteText appends text, valid UTF-8, as QuoteJSONString does; units is
// its length in UTF-16 code units (-1: count them).
func (s *stringifier) quoteText(text string, units int) {
	s.buf = append(s.buf, '"')
	start := 0
	for i := 0; i < len(text); i++ {
		c := text[i]
		if c >= 0x20 && c != '"' && c != '\\' {
			continue
		}
		s.buf = append(s.buf, text[start:i]...)
		s.escapeByte(c)
		start = i + 1
	}
	s.buf = append(s.buf, text[start:]...)
	s.buf = append(s.buf, '"')
	if units < 0 {
		for i := 0; i < len(text); i++ {
			if text[i] >= utf8.RuneSelf {
				s.extra += len(text) - len(utf16.Encode([]rune(text)))
				return
			}
		}
		return
	}
	s.extra += len(text) - units
}

// escapeByte appends the ASCII c, escaped if QuoteJSONString escapes it.
func (s *stringifier) escapeByte(c byte) {
	switch c {
	case '"', '\\':
		s.buf = append(s.buf, '\\', c)
	case '\b':
		s.buf = append(s.buf, `\b`...)
	case '\f':
		s.buf = append(s.buf, `\f`...)
	case '\n':
		s.buf = append(s.buf, `\n`...)
	case '\r':
		s.buf = append(s.buf, `\r`...)
	case '\t':
		s.buf = append(s.buf, `\t`...)
	default:
		if c < 0x20 {
			s.buf = append(s.buf, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&15])
		} else {
			s.buf = append(s.buf, c)
		}
	}
}

// The export types of goja's primitives.
var (
	boolType  = reflect.TypeOf(false)
	intType   = reflect.TypeOf(int64(0))
	floatType = reflect.TypeOf(float64(0))
)
