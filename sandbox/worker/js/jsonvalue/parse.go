// Package jsonvalue moves JSON-shaped data between wire bytes and goja
// values without going through goja's own JSON codec, which reads about
// 16 MB/s (encoding/json's token stream, one allocation per token) where a
// run's input, output and facts must cross at 100 MB/s or more
// (docs/benchmarks.md, "Real work").
//
// Parse builds exactly the value JSON.parse (ECMA-262 §25.5.1, no reviver)
// builds for a text: the same ordinary objects and arrays, property order,
// numbers and strings. It reports what it does not take (a syntax error, a
// number beyond float64, a nesting deeper than MaxDepth), and the caller then
// uses JSON.parse itself, whose error or result is the reference.
//
// Everything here runs in the worker process, on the goroutine of the
// goja.Runtime it is given.
package jsonvalue

import (
	"math"
	"strconv"
	"unicode/utf16"
	"unicode/utf8"
	"unsafe"

	"github.com/dop251/goja"
)

// MaxDepth is the deepest nesting of arrays and objects Parse builds
// itself; deeper texts are left to JSON.parse.
const MaxDepth = 2000

// Parser builds goja values from JSON text for one runtime. Its key table
// makes the keys that every row of a table repeats one string each. A
// Parser is used on its runtime's goroutine only; the zero value is not
// usable (NewParser).
type Parser struct {
	vm   *goja.Runtime
	keys map[string]string
	// plainSet is whether Object.prototype has only its standard own
	// properties (checked at each Parse): then o.Set(k, v) on a new object
	// defines an own data property, as CreateDataProperty does, for every k
	// not among them, without DefineDataProperty's descriptor.
	plainSet bool
	objProto *goja.Object
	items    []any // scratch for arrays' elements, a stack shared by nested arrays
	// frozen collects the objects and arrays built, when the caller
	// freezes them afterwards.
	frozen  []*goja.Object
	collect bool
}

// NewParser returns a Parser for vm.
func NewParser(vm *goja.Runtime) *Parser {
	return &Parser{vm: vm, keys: map[string]string{}}
}

// Parse returns the value of the JSON text data, or ok false when data is
// not a text it takes (see the package doc). When collect is set, Built
// then returns every object and array of the value.
func (p *Parser) Parse(data []byte, collect bool) (v goja.Value, ok bool) {
	p.plainSet = p.standardObjectPrototype()
	p.collect = collect
	p.frozen = p.frozen[:0]
	s := scanner{data: data}
	s.space()
	v, ok = p.value(&s, 0)
	if !ok {
		return nil, false
	}
	s.space()
	if s.i != len(s.data) {
		return nil, false
	}
	return v, true
}

// Built returns the objects and arrays of the last Parse with collect set.
// The slice is reused by the next Parse.
func (p *Parser) Built() []*goja.Object { return p.frozen }

// ParseString is Parse of a JS string's text: JSON.parse's argument. A
// string with UTF-16 the text cannot be read back from (a lone surrogate,
// or a U+FFFD it might stand for) is not taken.
func (p *Parser) ParseString(text goja.String) (goja.Value, bool) {
	s := text.String()
	if len(s) != text.Length() {
		// Not ASCII: goja converted UTF-16 to UTF-8, replacing a lone
		// surrogate with U+FFFD.
		for i := 0; i < len(s); {
			r, n := utf8.DecodeRuneInString(s[i:])
			if r == utf8.RuneError {
				return nil, false
			}
			i += n
		}
	}
	return p.Parse(unsafe.Slice(unsafe.StringData(s), len(s)), false)
}

// standardObjectPrototype reports whether Object.prototype's own property
// names are the standard ones (a snippet may have redefined one of those,
// which is why Parse never uses Set for them).
func (p *Parser) standardObjectPrototype() bool {
	if p.objProto == nil {
		p.objProto = p.vm.NewObject().Prototype()
	}
	if p.objProto == nil {
		return false
	}
	for _, n := range p.objProto.GetOwnPropertyNames() {
		if _, ok := standardProtoNames[n]; !ok {
			return false
		}
	}
	return true
}

// standardProtoNames are Object.prototype's own properties in ECMA-262
// (§20.1.3 and Annex B.2.2), of which a new goja runtime has some and the
// worker's runtime may add the rest (TestStandardObjectPrototype).
var standardProtoNames = map[string]struct{}{
	"constructor": {}, "__defineGetter__": {}, "__defineSetter__": {}, "hasOwnProperty": {},
	"__lookupGetter__": {}, "__lookupSetter__": {}, "isPrototypeOf": {}, "propertyIsEnumerable": {},
	"toString": {}, "valueOf": {}, "toLocaleString": {}, "__proto__": {},
}

func (p *Parser) value(s *scanner, depth int) (goja.Value, bool) {
	if s.i >= len(s.data) {
		return nil, false
	}
	switch c := s.data[s.i]; c {
	case '{':
		return p.object(s, depth+1)
	case '[':
		return p.array(s, depth+1)
	case '"':
		str, ok := p.string(s)
		if !ok {
			return nil, false
		}
		return str, true
	case 't':
		return s.literal("true", goja.Value(p.vm.ToValue(true)))
	case 'f':
		return s.literal("false", goja.Value(p.vm.ToValue(false)))
	case 'n':
		return s.literal("null", goja.Null())
	default:
		if c == '-' || c >= '0' && c <= '9' {
			return p.number(s)
		}
		return nil, false
	}
}

func (p *Parser) object(s *scanner, depth int) (goja.Value, bool) {
	if depth > MaxDepth {
		return nil, false
	}
	o := p.vm.NewObject()
	if p.collect {
		p.frozen = append(p.frozen, o)
	}
	s.i++ // {
	s.space()
	if s.peek() == '}' {
		s.i++
		return o, true
	}
	for {
		if s.peek() != '"' {
			return nil, false
		}
		k, ok := p.key(s)
		if !ok {
			return nil, false
		}
		s.space()
		if s.peek() != ':' {
			return nil, false
		}
		s.i++
		s.space()
		v, ok := p.value(s, depth)
		if !ok {
			return nil, false
		}
		// CreateDataProperty, as JSON.parse: no inherited setter runs
		// and "__proto__" is an own property.
		if _, std := standardProtoNames[k]; p.plainSet && !std {
			if o.Set(k, v) != nil {
				return nil, false
			}
		} else if o.DefineDataProperty(k, v, goja.FLAG_TRUE, goja.FLAG_TRUE, goja.FLAG_TRUE) != nil {
			return nil, false
		}
		s.space()
		switch s.peek() {
		case ',':
			s.i++
			s.space()
		case '}':
			s.i++
			return o, true
		default:
			return nil, false
		}
	}
}

func (p *Parser) array(s *scanner, depth int) (goja.Value, bool) {
	if depth > MaxDepth {
		return nil, false
	}
	s.i++ // [
	s.space()
	base := len(p.items)
	defer func() {
		clear(p.items[base:])
		p.items = p.items[:base]
	}()
	if s.peek() != ']' {
		for {
			v, ok := p.value(s, depth)
			if !ok {
				return nil, false
			}
			p.items = append(p.items, v)
			s.space()
			if s.peek() == ',' {
				s.i++
				s.space()
				continue
			}
			if s.peek() != ']' {
				return nil, false
			}
			break
		}
	}
	s.i++ // ]
	a := p.vm.NewArray(p.items[base:]...)
	if p.collect {
		p.frozen = append(p.frozen, a)
	}
	return a, true
}

// key reads an object's key: a string, interned.
func (p *Parser) key(s *scanner) (string, bool) {
	start := s.i + 1
	for i := start; i < len(s.data); i++ {
		c := s.data[i]
		if c == '"' {
			s.i = i + 1
			raw := s.data[start:i]
			if k, ok := p.keys[string(raw)]; ok {
				return k, true
			}
			k := string(raw)
			if len(p.keys) < 4096 {
				p.keys[k] = k
			}
			return k, true
		}
		if c == '\\' || c < 0x20 || c >= 0x80 {
			break
		}
	}
	str, ok := p.string(s)
	if !ok || hasSurrogate(str) {
		return "", false
	}
	return str.String(), true
}

// hasSurrogate reports whether a decoded key holds a lone surrogate, which
// a Go string key cannot carry: such a text goes to JSON.parse.
func hasSurrogate(s goja.String) bool {
	for i := 0; i < s.Length(); i++ {
		if c := s.CharAt(i); c >= 0xD800 && c <= 0xDFFF {
			return true
		}
	}
	return false
}

// string reads a JSON string (RFC 8259 §7) as a goja string: ASCII as
// one Go string, anything else as UTF-16, lone surrogates kept as
// JSON.parse keeps them.
func (p *Parser) string(s *scanner) (goja.String, bool) {
	start := s.i + 1
	i := start
	for ; i < len(s.data); i++ {
		c := s.data[i]
		if c == '"' {
			s.i = i + 1
			return p.vm.ToValue(string(s.data[start:i])).(goja.String), true
		}
		if c == '\\' || c < 0x20 || c >= 0x80 {
			break
		}
	}
	// Escapes or non-ASCII: decode into UTF-16.
	u := make([]uint16, 0, i-start+16)
	for j := start; j < i; j++ {
		u = append(u, uint16(s.data[j]))
	}
	for i < len(s.data) {
		c := s.data[i]
		switch {
		case c == '"':
			s.i = i + 1
			return goja.StringFromUTF16(u), true
		case c < 0x20:
			return nil, false
		case c == '\\':
			if i+1 >= len(s.data) {
				return nil, false
			}
			i++
			switch s.data[i] {
			case '"', '\\', '/':
				u = append(u, uint16(s.data[i]))
			case 'b':
				u = append(u, '\b')
			case 'f':
				u = append(u, '\f')
			case 'n':
				u = append(u, '\n')
			case 'r':
				u = append(u, '\r')
			case 't':
				u = append(u, '\t')
			case 'u':
				if i+4 >= len(s.data) {
					return nil, false
				}
				var r uint16
				for _, h := range s.data[i+1 : i+5] {
					r <<= 4
					switch {
					case h >= '0' && h <= '9':
						r |= uint16(h - '0')
					case h >= 'a' && h <= 'f':
						r |= uint16(h - 'a' + 10)
					case h >= 'A' && h <= 'F':
						r |= uint16(h - 'A' + 10)
					default:
						return nil, false
					}
				}
				u = append(u, r)
				i += 4
			default:
				return nil, false
			}
			i++
		case c < 0x80:
			u = append(u, uint16(c))
			i++
		default:
			r, n := utf8.DecodeRune(s.data[i:])
			if r == utf8.RuneError && n <= 1 {
				return nil, false
			}
			if r >= 0x10000 {
				r1, r2 := utf16.EncodeRune(r)
				u = append(u, uint16(r1), uint16(r2))
			} else {
				u = append(u, uint16(r))
			}
			i += n
		}
	}
	return nil, false
}

// number reads a JSON number (RFC 8259 §6) as JSON.parse does: the
// nearest float64, or not taken when it is beyond float64's range (the
// caller's JSON.parse says what then).
func (p *Parser) number(s *scanner) (goja.Value, bool) {
	start := s.i
	i := start
	if i < len(s.data) && s.data[i] == '-' {
		i++
	}
	digits := i
	if i < len(s.data) && s.data[i] == '0' {
		i++
	} else {
		for i < len(s.data) && s.data[i] >= '0' && s.data[i] <= '9' {
			i++
		}
	}
	if i == digits {
		return nil, false
	}
	integer := true
	if i < len(s.data) && s.data[i] == '.' {
		integer = false
		i++
		d := i
		for i < len(s.data) && s.data[i] >= '0' && s.data[i] <= '9' {
			i++
		}
		if i == d {
			return nil, false
		}
	}
	if i < len(s.data) && (s.data[i] == 'e' || s.data[i] == 'E') {
		integer = false
		i++
		if i < len(s.data) && (s.data[i] == '+' || s.data[i] == '-') {
			i++
		}
		d := i
		for i < len(s.data) && s.data[i] >= '0' && s.data[i] <= '9' {
			i++
		}
		if i == d {
			return nil, false
		}
	}
	s.i = i
	text := s.data[start:i]
	if integer && i-digits <= 15 {
		var n int64
		for _, c := range s.data[digits:i] {
			n = n*10 + int64(c-'0')
		}
		if text[0] == '-' {
			if n == 0 {
				return p.vm.ToValue(math.Copysign(0, -1)), true
			}
			n = -n
		}
		return p.vm.ToValue(n), true
	}
	f, err := strconv.ParseFloat(unsafe.String(unsafe.SliceData(text), len(text)), 64)
	if err != nil {
		return nil, false
	}
	return p.vm.ToValue(f), true
}

// scanner is a position in JSON text.
type scanner struct {
	data []byte
	i    int
}

func (s *scanner) peek() byte {
	if s.i < len(s.data) {
		return s.data[s.i]
	}
	return 0
}

// space skips JSON whitespace (RFC 8259 §2: space, tab, LF, CR).
func (s *scanner) space() {
	for s.i < len(s.data) {
		switch s.data[s.i] {
		case ' ', '\t', '\n', '\r':
			s.i++
		default:
			return
		}
	}
}

func (s *scanner) literal(word string, v goja.Value) (goja.Value, bool) {
	if len(s.data)-s.i < len(word) || string(s.data[s.i:s.i+len(word)]) != word {
		return nil, false
	}
	s.i += len(word)
	return v, true
}
