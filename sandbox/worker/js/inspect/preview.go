package inspect

import (
	"encoding/json"
	"math"
	"math/big"
	"reflect"
	"strings"

	"github.com/dop251/goja"

	"github.com/playground-dev/playground/sandbox/pipe"
	"github.com/playground-dev/playground/sandbox/worker/js/intrinsic"
)

// Tagged is a preview of what JSON cannot hold: {"$t": tag, ...}.
type Tagged = map[string]any

// object is a JSON object that keeps its keys in insertion order, as a
// console shows properties.
type object []field

type field struct {
	Key   string
	Value any
	// Symbol marks a symbol-keyed property: Key is "[Symbol(desc)]", as
	// Node prints it (unquoted).
	Symbol bool
}

// MarshalJSON encodes o as a JSON object with its keys in order.
func (o object) MarshalJSON() ([]byte, error) {
	b := []byte{'{'}
	for i, f := range o {
		if i > 0 {
			b = append(b, ',')
		}
		k, err := json.Marshal(f.Key)
		if err != nil {
			return nil, err
		}
		v, err := json.Marshal(f.Value)
		if err != nil {
			return nil, err
		}
		b = append(append(append(b, k...), ':'), v...)
	}
	return append(b, '}'), nil
}

var (
	proxyType = reflect.TypeOf(goja.Proxy{})
	// goja reports Map and Set with class "Object"; their export types
	// (builtin_map.go, builtin_set.go) tell them apart without running code.
	mapType = reflect.TypeOf([][2]any{})
	setType = reflect.TypeOf([]any{})
	// A class constructor exports as a constructor-only Go function
	// (goja's classFuncObject); every other function as a FunctionCall one.
	classType   = reflect.TypeOf((func(goja.ConstructorCall) *goja.Object)(nil))
	promiseType = reflect.TypeOf((*goja.Promise)(nil))
	// A BigInt wrapper object exports as its *big.Int.
	bigIntType = reflect.TypeOf((*big.Int)(nil))
	// A Symbol wrapper object exports as its description text.
	stringType = reflect.TypeOf("")
	// An ArrayBuffer exports as a goja.ArrayBuffer (its bytes, not copied).
	arrayBufferType = reflect.TypeOf(goja.ArrayBuffer{})
)

// Builtins are the intrinsics a preview calls (intrinsic.Builtins) and
// the polyfill classes it shows by their fields.
type Builtins struct {
	intrinsic.Builtins
	// domExceptionName is the name getter of the polyfill's DOMException
	// (set when its group loads: domExceptionName).
	domExceptionName *goja.Object
	// inspected are the polyfill classes previewed by their fields, as
	// Node's inspect shows them (URL, events, encoders), and paramsForEach
	// is URLSearchParams.prototype.forEach: both taken when their group
	// loads (CaptureInspected).
	inspected     []inspectedClass
	paramsForEach *goja.Object
}

// Encoder turns goja values into previews (console arguments) or into JSON
// (facts, output). It never runs snippet code: it reads properties through
// descriptors, shows accessors without calling them, and does not look inside
// a Proxy; the only getters it calls are the runtime polyfills' own
// (inspected.go), and, through goja's stack formatting, an error's message
// getter that readMessages ran before (messages). An encoder is used
// on the runtime's goroutine only.
type Encoder struct {
	vm  *goja.Runtime
	b   *Builtins
	lim pipe.PreviewLimits
	// host lays out an error's stack; user makes its frames the user's,
	// as error events show them.
	host Host
	user bool
	// json selects the facts/output form: plain objects and arrays as JSON
	// objects and arrays, tags only for what JSON cannot hold.
	json bool

	ancestors []*goja.Object
	paths     []string
	// refs numbers the objects a circular reference points back to, as
	// Node's <ref *1> and [Circular *1].
	refs map[*goja.Object]int
	// budget is what is left of the current preview's byte budget
	// (approximately its JSON size): once spent, collections end with a
	// "more" entry and strings are cut, so a value that shares one large
	// sub-structure many times is previewed in bounded time and size.
	budget int
	busy   bool
	// messages are what the message getters of the errors an uncaught
	// error's report prints returned, read before its previews
	// (Runtime.readMessages): shown as those errors' messages. A console
	// line reads none.
	messages map[*goja.Object]string
	// cutDeep is set when the current value was cut at lim.Depth.
	cutDeep bool
}

// jsonLimits are the JSON encoder's (facts, output, %j): nothing is cut
// but by the caller's byte budget, and objects nested deeper than
// MaxJSONDepth levels (JSON.stringify's own recursion gives up before V8's would).
var jsonLimits = pipe.PreviewLimits{Depth: MaxJSONDepth, Keys: math.MaxInt32, String: math.MaxInt32}

// MaxJSONDepth is the deepest nesting of arrays and objects facts and
// output hold.
const MaxJSONDepth = 1000

// Complete reports whether the last encodeBudget kept all of its value:
// nothing was cut for the budget or the depth.
func (e *Encoder) Complete() bool {
	return e.budget > 0 && !e.cutDeep
}

// CutDeep reports whether the last encodeBudget cut its value at the depth
// limit.
func (e *Encoder) CutDeep() bool { return e.cutDeep }

// DefaultPreviewBudget is the byte budget of one preview when the caller
// gives none (encode): about the size of its JSON.
const DefaultPreviewBudget = 256 << 10

// Encode returns the preview of v within DefaultPreviewBudget bytes.
func (e *Encoder) Encode(v goja.Value) (out any) {
	return e.EncodeBudget(v, DefaultPreviewBudget)
}

// EncodeBudget returns the preview of v, built within about budget bytes of
// JSON (checked while it is built, before anything large is copied). It
// never runs snippet code; were it re-entered all the same (it is not
// reentrant), the inner value is shown as opaque.
func (e *Encoder) EncodeBudget(v goja.Value, budget int) (out any) {
	if e.busy {
		return Tagged{"$t": "object", "class": "Object", "props": object{}}
	}
	e.busy = true
	defer func() { e.busy = false }()
	e.ancestors, e.paths = e.ancestors[:0], e.paths[:0]
	clear(e.refs)
	e.budget = max(budget, 64)
	e.cutDeep = false
	return e.value(v, "$", 0)
}

// Used is how much of budget the last encodeBudget(v, budget) spent.
func (e *Encoder) Used(budget int) int {
	return max(0, min(budget, budget-e.budget))
}

// Capped caps s as a preview's string outside a preview (an error's
// message, say).
func (e *Encoder) Capped(s string) string {
	if e.busy {
		return e.str(s)
	}
	e.budget = DefaultPreviewBudget
	return e.str(s)
}

// spend takes n bytes from the budget and reports whether any were left.
func (e *Encoder) spend(n int) bool {
	ok := e.budget > 0
	e.budget -= n
	return ok
}

func (e *Encoder) value(v goja.Value, path string, depth int) any {
	switch {
	case v == nil || goja.IsUndefined(v):
		return Tagged{"$t": "undefined"}
	case goja.IsNull(v):
		return nil
	}
	if sym, ok := v.(*goja.Symbol); ok {
		// Symbol.prototype.toString copies the description: cap it as a
		// string (a description is a value the snippet chose).
		s, err := e.b.SymbolString(sym)
		if err != nil {
			return Tagged{"$t": "symbol", "v": "Symbol()"}
		}
		d := strings.TrimSuffix(strings.TrimPrefix(s.String(), "Symbol("), ")")
		return Tagged{"$t": "symbol", "v": "Symbol(" + e.str(d) + ")"}
	}
	if obj, ok := v.(*goja.Object); ok { // before Export, which would call getters
		return e.object(obj, path, depth)
	}
	switch x := v.Export().(type) {
	case bool:
		return x
	case string:
		return e.str(x)
	case int64:
		e.spend(8)
		return x
	case float64:
		e.spend(8)
		return number(x)
	case *big.Int:
		return Tagged{"$t": "bigint", "v": e.bigint(x)}
	}
	return e.str(v.String())
}

// bigint prints x in decimal, cut like a string: a BigInt of millions of
// digits is not converted in full (that alone would take seconds), only
// its leading digits, followed by "…" and its digit count.
func (e *Encoder) bigint(x *big.Int) string {
	limit := min(e.lim.String, max(e.budget, 16))
	// bits·log10(2) bounds the digit count from above (+1).
	if digits := int(float64(x.BitLen())*math.Log10(2)) + 1; digits <= limit {
		e.spend(digits)
		return x.String()
	}
	// The leading digits come from a float with enough precision, and
	// the exact digit count from its exponent.
	f := new(big.Float).SetPrec(uint(limit)*4 + 64).SetInt(x)
	txt := f.Text('e', limit-1) // d.ddd…e+NNN
	mant, _, _ := strings.Cut(txt, "e+")
	mant = strings.Replace(mant, ".", "", 1)
	e.spend(len(mant))
	return mant + "…"
}

func number(f float64) any {
	switch {
	case math.IsNaN(f):
		return Tagged{"$t": "number", "v": "NaN"}
	case math.IsInf(f, 1):
		return Tagged{"$t": "number", "v": "Infinity"}
	case math.IsInf(f, -1):
		return Tagged{"$t": "number", "v": "-Infinity"}
	case f == 0 && math.Signbit(f):
		return Tagged{"$t": "number", "v": "-0"}
	}
	return f
}

// maxName caps a class, function or error name: a name is not a value, so
// the user's string cap does not apply, but a hostile one is still bounded.
const maxName = 200

func capName(s string) string {
	if len(s) <= maxName {
		return s
	}
	return strings.ToValidUTF8(s[:maxName], "") + "…"
}

// str caps s at the preview's string limit and what is left of its byte
// budget, counting the kept part against the budget. Only the kept part is
// copied.
func (e *Encoder) str(s string) string {
	limit := min(e.lim.String, max(e.budget, 16))
	if len(s) <= limit {
		e.spend(len(s) + 2)
		return strings.ToValidUTF8(s, "\uFFFD")
	}
	n := 0
	for i := range s {
		if n == limit {
			e.spend(i + 2)
			return strings.ToValidUTF8(s[:i], "\uFFFD") + "…"
		}
		n++
	}
	e.spend(len(s) + 2)
	return strings.ToValidUTF8(s, "\uFFFD")
}

// unproxy returns the innermost target of a Proxy (o itself when it is not
// one), read from goja without running a trap, or nil when a Proxy on the
// way is revoked. Node's util.inspect does the same by default
// (showProxy: false).
func unproxy(o *goja.Object) *goja.Object {
	for o != nil && o.ExportType() == proxyType {
		p, ok := o.Export().(goja.Proxy) // a Proxy exports itself: no trap runs
		if !ok {
			return nil
		}
		o = p.Target()
	}
	return o
}

// Host is what an Encoder needs from the runtime that owns it.
type Host interface {
	// ErrorStack is the stack text an error preview shows for the error o:
	// head (its "Name: message" line) and the frames of stack, goja's
	// stack text of o; user selects the user's frames, as error events
	// show them, over the bundle's.
	ErrorStack(o *goja.Object, head, stack string, user bool) string
}

// NewEncoder returns an encoder of console previews on vm, within lim;
// user makes an error's frames the user's (Host.ErrorStack).
func NewEncoder(vm *goja.Runtime, b *Builtins, lim pipe.PreviewLimits, host Host, user bool) Encoder {
	return Encoder{vm: vm, b: b, lim: lim, host: host, user: user}
}

// NewJSONEncoder returns an encoder of facts and output on vm: plain
// objects and arrays as JSON, within jsonLimits.
func NewJSONEncoder(vm *goja.Runtime, b *Builtins, host Host) Encoder {
	return Encoder{vm: vm, b: b, lim: jsonLimits, host: host, json: true}
}

// SetDOMExceptionName records get, the name getter of the polyfill's
// DOMException, when its group loads: errors of that class are named by
// it.
func (b *Builtins) SetDOMExceptionName(get *goja.Object) { b.domExceptionName = get }

// errorClasses are ECMAScript's error classes.
var errorClasses = map[string]bool{"Error": true, "TypeError": true, "RangeError": true, "ReferenceError": true,
	"SyntaxError": true, "EvalError": true, "URIError": true, "AggregateError": true}

// IsErrorClass reports whether name is one of ECMAScript's error classes.
func IsErrorClass(name string) bool { return errorClasses[name] }

// Busy reports whether e is encoding a value now (a getter it called is
// running).
func (e *Encoder) Busy() bool { return e.busy }

// SwapMessages sets the error messages the next previews show (see
// messages) to m and returns the ones set before.
func (e *Encoder) SwapMessages(m map[*goja.Object]string) (old map[*goja.Object]string) {
	old, e.messages = e.messages, m
	return old
}

// SetMessage records s as the message the error o shows: what its message
// getter returned.
func (e *Encoder) SetMessage(o *goja.Object, s string) {
	if e.messages == nil {
		e.messages = map[*goja.Object]string{}
	}
	e.messages[o] = s
}

// Message is the message SetMessage recorded for o.
func (e *Encoder) Message(o *goja.Object) (string, bool) {
	s, ok := e.messages[o]
	return s, ok
}
