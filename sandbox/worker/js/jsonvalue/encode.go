package jsonvalue

import (
	"math"
	"reflect"
	"strconv"
	"unicode/utf8"

	"github.com/dop251/goja"

	"github.com/playground-dev/playground/jsonwire"
)

// Encoder writes plain data — ordinary objects whose prototype is
// Object.prototype, arrays, strings, finite numbers, booleans and null —
// as JSON text, straight from the goja values. Anything else (undefined,
// NaN, ±Infinity, -0, a BigInt, a symbol or a symbol-keyed property, a
// function, a Proxy, a class instance, a Date, Map, Set…, a hole or a
// cycle) is not taken, and the caller encodes the value its own way.
//
// It reads an object's own enumerable string-keyed properties in order,
// and an array's elements, as JSON.stringify does (ECMA-262 §25.5.2): an
// accessor property is read through its getter, which is snippet code
// running on this goroutine under the run's interrupt (Node's
// JSON.stringify and structured clone read it the same way). It calls no
// toJSON: a value that has one is a function-valued property, not taken.
//
// Strings are written as encoding/json writes them (HTML-safe, invalid
// UTF-16 as U+FFFD), numbers as encoding/json writes a float64, so that
// its text is byte for byte what the runtime wrote before for the same
// value. An Encoder is used on its runtime's goroutine only.
type Encoder struct {
	vm        *goja.Runtime
	objProto  *goja.Object
	arrProto  *goja.Object
	ancestors []*goja.Object
	buf       []byte
	budget    int
	ok        bool
	// index holds the decimal strings of array indexes, made once for all
	// the Encoder's arrays: reading an element by its name then allocates
	// nothing.
	index []string
	// interrupted is the interrupt (a deadline, a cancel) that stopped a
	// getter during the last Encode.
	interrupted *goja.InterruptedError
}

// MaxEncodeDepth is the deepest nesting Encode writes (the runtime's
// facts and output give up at the same depth).
const MaxEncodeDepth = 1000

// NewEncoder returns an Encoder for vm. It captures Object.prototype and
// Array.prototype as they are now, before any snippet code runs.
func NewEncoder(vm *goja.Runtime) *Encoder {
	return &Encoder{vm: vm, objProto: vm.NewObject().Prototype(), arrProto: vm.NewArray().Prototype()}
}

var (
	proxyType = reflect.TypeOf(goja.Proxy{})
	intType   = reflect.TypeOf(int64(0))
	floatType = reflect.TypeOf(float64(0))
	boolType  = reflect.TypeOf(false)
)

// Encode returns the JSON text of v when v is plain data of at most budget
// bytes of text, or ok false (also when a getter threw, or was stopped by
// the runtime's interrupt: Interrupted then says so, and the interrupt is
// the caller's to raise again). The returned slice is the Encoder's own
// buffer, valid until the next Encode.
func (e *Encoder) Encode(v goja.Value, budget int) (_ []byte, ok bool) {
	e.buf = e.buf[:0]
	e.ancestors = e.ancestors[:0]
	e.budget = budget
	e.ok = true
	e.interrupted = nil
	defer func() {
		if x := recover(); x != nil {
			ie, isInterrupt := x.(*goja.InterruptedError)
			if !isInterrupt {
				panic(x)
			}
			e.interrupted, ok = ie, false
		}
	}()
	if ex := e.vm.Try(func() { e.value(v, 0) }); ex != nil {
		return nil, false // a getter threw
	}
	if !e.ok || len(e.buf) > e.budget {
		return nil, false
	}
	return e.buf, true
}

// Interrupted returns the interrupt that stopped the last Encode, or nil.
func (e *Encoder) Interrupted() *goja.InterruptedError { return e.interrupted }

func (e *Encoder) fail() { e.ok = false }

func (e *Encoder) value(v goja.Value, depth int) {
	if !e.ok {
		return
	}
	if len(e.buf) > e.budget {
		e.fail()
		return
	}
	switch {
	case v == nil || goja.IsUndefined(v):
		e.fail()
		return
	case goja.IsNull(v):
		e.buf = append(e.buf, "null"...)
		return
	}
	if o, ok := v.(*goja.Object); ok {
		e.object(o, depth)
		return
	}
	if s, ok := v.(goja.String); ok {
		e.str(s.String())
		return
	}
	// By the type Export would return, without exporting (boxing a
	// number allocates).
	switch v.ExportType() {
	case boolType:
		if v.ToBoolean() {
			e.buf = append(e.buf, "true"...)
		} else {
			e.buf = append(e.buf, "false"...)
		}
	case intType:
		e.buf = strconv.AppendInt(e.buf, v.ToInteger(), 10)
	case floatType:
		x := v.ToFloat()
		if math.IsNaN(x) || math.IsInf(x, 0) || x == 0 && math.Signbit(x) {
			e.fail()
			return
		}
		e.buf, _ = jsonwire.AppendFloat(e.buf, x) // finite: checked above
	default: // a symbol, a BigInt
		e.fail()
	}
}

func (e *Encoder) object(o *goja.Object, depth int) {
	if depth >= MaxEncodeDepth || o.ExportType() == proxyType {
		e.fail()
		return
	}
	for _, a := range e.ancestors {
		if a == o {
			e.fail() // a cycle
			return
		}
	}
	proto := o.Prototype()
	switch {
	case proto == e.arrProto && o.ClassName() == "Array":
		e.ancestors = append(e.ancestors, o)
		e.array(o, depth)
	case proto == e.objProto && o.ClassName() == "Object":
		if _, fn := goja.AssertFunction(o); fn {
			e.fail()
			return
		}
		if len(o.Symbols()) > 0 {
			e.fail()
			return
		}
		e.ancestors = append(e.ancestors, o)
		e.buf = append(e.buf, '{')
		for i, k := range o.Keys() {
			if i > 0 {
				e.buf = append(e.buf, ',')
			}
			e.str(k)
			e.buf = append(e.buf, ':')
			e.value(o.Get(k), depth+1)
			if !e.ok {
				return
			}
		}
		e.buf = append(e.buf, '}')
	default:
		e.fail()
		return
	}
	e.ancestors = e.ancestors[:len(e.ancestors)-1]
}

func (e *Encoder) array(o *goja.Object, depth int) {
	n := o.Get("length").ToInteger()
	e.buf = append(e.buf, '[')
	for i := int64(0); i < n; i++ {
		if i > 0 {
			e.buf = append(e.buf, ',')
		}
		v := o.Get(e.indexName(i))
		if v == nil || goja.IsUndefined(v) {
			e.fail() // a hole, or undefined: the caller's encoding says which
			return
		}
		e.value(v, depth+1)
		if !e.ok {
			return
		}
	}
	e.buf = append(e.buf, ']')
}

// maxIndexNames bounds Encoder.index: longer arrays name their later
// elements one by one.
const maxIndexNames = 1 << 17

// indexName is i in decimal.
func (e *Encoder) indexName(i int64) string {
	if i < int64(len(e.index)) {
		return e.index[i]
	}
	if i >= maxIndexNames {
		return strconv.FormatInt(i, 10)
	}
	for j := int64(len(e.index)); j <= i; j++ {
		e.index = append(e.index, strconv.FormatInt(j, 10))
	}
	return e.index[i]
}

// str writes s as encoding/json writes a string (jsonwire.AppendString),
// or fails on invalid UTF-8, which goja's strings never convert to (the
// caller's encoding says what it shows).
func (e *Encoder) str(s string) {
	if !utf8.ValidString(s) {
		e.fail()
		return
	}
	e.buf = jsonwire.AppendString(e.buf, s)
}
