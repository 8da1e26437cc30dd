package js

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"math/big"
	"slices"
	"strconv"
	"strings"

	"github.com/dop251/goja"

	"github.com/playground-dev/playground/sandbox/pipe"
)

// console is the snippet's console object. Each call becomes one log event
// whose text is the line a browser console would print and whose args are
// previews of the arguments.
type console struct {
	e      *Runtime
	counts map[string]int
	timers map[string]float64
	indent int
}

func newConsole(e *Runtime, n need) *goja.Object {
	c := &console{e: e, counts: map[string]int{}, timers: map[string]float64{}}
	o := e.vm.NewObject()
	i := 0
	def := func(name string, fn func(goja.FunctionCall) goja.Value) {
		if consoleMethods[i] != name {
			panic("sandbox: console method " + name + " out of order")
		}
		if n&(needConsoleFirst<<i) != 0 {
			must(e.setNative(o, name, fn))
		}
		i++
	}
	for _, level := range []string{"log", "info", "warn", "error", "debug"} {
		def(level, c.method(level))
	}
	def("trace", func(call goja.FunctionCall) goja.Value {
		c.print("debug", call.Arguments, "Trace:", c.stackText())
		return goja.Undefined()
	})
	def("dir", func(call goja.FunctionCall) goja.Value {
		c.dir(call.Argument(0), call.Argument(1))
		return goja.Undefined()
	})
	def("assert", func(call goja.FunctionCall) goja.Value {
		if call.Argument(0).ToBoolean() {
			return goja.Undefined()
		}
		// As Node's console.assert: the first argument joins the head as a
		// template literal would convert it (String(obj) is "[object
		// Object]", a Symbol throws), and the line is formatted from there,
		// so a format string in it still applies.
		args := slices.Clone(call.Arguments[min(1, len(call.Arguments)):])
		if len(args) == 0 {
			c.printText("error", "Assertion failed")
			return goja.Undefined()
		}
		if _, ok := args[0].(*goja.Symbol); ok {
			e.throw("TypeError", "Cannot convert a Symbol value to a string")
		}
		args[0] = e.vm.ToValue("Assertion failed: " + args[0].ToString().String())
		c.print("error", args, "", "")
		return goja.Undefined()
	})
	def("count", func(call goja.FunctionCall) goja.Value {
		label := c.label(call)
		c.counts[label]++
		c.printText("info", fmt.Sprintf("%s: %d", label, c.counts[label]))
		return goja.Undefined()
	})
	// The misuses below are warnings in Node's words (its process
	// warnings, which it writes to stderr as "(node:PID) Warning: …").
	def("countReset", func(call goja.FunctionCall) goja.Value {
		label := c.label(call)
		if _, ok := c.counts[label]; !ok {
			c.printText("warn", fmt.Sprintf("Warning: Count for '%s' does not exist", label))
		}
		delete(c.counts, label)
		return goja.Undefined()
	})
	def("time", func(call goja.FunctionCall) goja.Value {
		label := c.label(call)
		if _, ok := c.timers[label]; ok {
			c.printText("warn", fmt.Sprintf("Warning: Label '%s' already exists for console.time()", label))
			return goja.Undefined()
		}
		c.timers[label] = millis(e.clock.now())
		return goja.Undefined()
	})
	def("timeLog", func(call goja.FunctionCall) goja.Value {
		c.timeLog(call, false)
		return goja.Undefined()
	})
	def("timeEnd", func(call goja.FunctionCall) goja.Value {
		c.timeLog(call, true)
		return goja.Undefined()
	})
	group := func(call goja.FunctionCall) goja.Value {
		if len(call.Arguments) > 0 {
			c.print("log", call.Arguments, "", "")
		}
		c.indent++
		return goja.Undefined()
	}
	def("group", group)
	def("groupCollapsed", func(c goja.FunctionCall) goja.Value { return group(c) }) // its own function: it has its own name
	def("groupEnd", func(goja.FunctionCall) goja.Value {
		c.indent = max(0, c.indent-1)
		return goja.Undefined()
	})
	def("table", func(call goja.FunctionCall) goja.Value {
		if len(call.Arguments) == 0 {
			return goja.Undefined()
		}
		data := c.e.enc.encode(call.Arguments[0])
		var columns []string
		if cols, ok := c.e.enc.encode(call.Argument(1)).(map[string]any); ok && cols["$t"] == "array" {
			items, _ := cols["items"].([]any)
			columns = []string{} // given, even when empty: (index) only
			for _, it := range items {
				if s, ok := it.(string); ok {
					columns = append(columns, s)
				}
			}
		}
		if text, ok := renderTable(data, columns); ok {
			c.emit("log", text, []json.RawMessage{mustJSON(data)})
			return goja.Undefined()
		}
		c.print("log", call.Arguments[:1], "", "")
		return goja.Undefined()
	})
	return o
}

func (c *console) method(level string) func(goja.FunctionCall) goja.Value {
	return func(call goja.FunctionCall) goja.Value {
		c.print(level, call.Arguments, "", "")
		return goja.Undefined()
	}
}

func (c *console) label(call goja.FunctionCall) string {
	if v := call.Argument(0); !goja.IsUndefined(v) {
		return render(c.e.enc.encode(v), true)
	}
	return "default"
}

func (c *console) timeLog(call goja.FunctionCall, end bool) {
	label := c.label(call)
	start, ok := c.timers[label]
	if !ok {
		method := "timeLog"
		if end {
			method = "timeEnd"
		}
		c.printText("warn", fmt.Sprintf("Warning: No such label '%s' for console.%s()", label, method))
		return
	}
	text := label + ": " + formatDuration(millis(c.e.clock.now())-start)
	if end {
		delete(c.timers, label)
		c.printText("info", text)
		return
	}
	var extra []goja.Value
	if len(call.Arguments) > 1 {
		extra = call.Arguments[1:]
	}
	c.print("info", extra, text, "")
}

// maxStackString is the longest string (in UTF-16 units) print looks at
// for a stack goja wrote: 12,000 frames (the deepest recursion) take
// about 0.5 MiB; a longer string (a snippet's data) is not converted to
// Go's UTF-8 to look.
const maxStackString = 1 << 20

// formatDuration formats ms as Node's console.timeEnd does (formatTime in
// lib/internal/console/constructor.js): "0.15ms" under a second (at most
// three decimals, trailing zeros dropped), "1.234s" under a minute, else
// "1:02.345 (m:ss.mmm)" or "1:02:03.456 (h:mm:ss.mmm)".
func formatDuration(ms float64) string {
	const second, minute, hour = 1000.0, 60_000.0, 3_600_000.0
	var hours, minutes int
	seconds := 0.0
	if ms >= second {
		if ms >= minute {
			if ms >= hour {
				hours = int(ms / hour)
				ms = math.Mod(ms, hour)
			}
			minutes = int(ms / minute)
			ms = math.Mod(ms, minute)
		}
		seconds = ms / second
	}
	if hours != 0 || minutes != 0 {
		whole, frac, _ := strings.Cut(toFixed3(seconds), ".")
		if len(whole) < 2 {
			whole = "0" + whole
		}
		if hours != 0 {
			return fmt.Sprintf("%d:%02d:%s.%s (h:mm:ss.mmm)", hours, minutes, whole, frac)
		}
		return fmt.Sprintf("%d:%s.%s (m:ss.mmm)", minutes, whole, frac)
	}
	if seconds != 0 {
		return toFixed3(seconds) + "s"
	}
	rounded, _ := strconv.ParseFloat(toFixed3(ms), 64)
	return formatNumber(rounded) + "ms"
}

// toFixed3 is x.toFixed(3) for a non-negative x: the nearest multiple of
// 0.001, the larger one at an exact tie (ECMA-262 Number.prototype.toFixed),
// where strconv rounds half to even (0.0625 is "0.063", not "0.062").
func toFixed3(x float64) string {
	t := new(big.Float).SetPrec(256).SetFloat64(x) // exact: x has at most 53 significant bits
	t.Mul(t, big.NewFloat(1000).SetPrec(256))
	whole, _ := t.Int(nil)
	frac := new(big.Float).SetPrec(256).Sub(t, new(big.Float).SetPrec(256).SetInt(whole))
	if frac.Cmp(big.NewFloat(0.5)) == 0 {
		return strconv.FormatFloat((float64(whole.Int64())+1)/1000, 'f', 3, 64)
	}
	return strconv.FormatFloat(x, 'f', 3, 64)
}

// stackText is console.trace's stack: the calling user frames as an
// error's stack lists them ("\n    at inner (main.ts:3:5)").
func (c *console) stackText() string {
	return formatStack("", c.e.fixFrames(userFrames(c.e.vm.CaptureCallStack(20, nil))))
}

func (c *console) printText(level, text string) {
	c.emit(level, text, []json.RawMessage{mustJSON(text)})
}

// print formats args as a console line: the first argument may be a format
// string with %s %d %i %f %o %O %c. head, when set, starts the line ("Trace:",
// "Assertion failed:", a timer's reading) and suffix ends it.
//
// The line has a byte budget, checked while its previews are built: what is
// left of the run's output (text and previews both count), at most
// maxEventBytes. Past it, strings are cut and collections end in "… n more".
func (c *console) print(level string, args []goja.Value, head, suffix string) {
	defer c.e.restoreMessages(c.e.readMessages(args, false))
	budget := c.budget()
	previews := make([]any, len(args))
	for i, a := range args {
		if str, ok := a.(goja.String); ok && str.Length() <= maxStackString {
			// console.log(err.stack): V8's layout, the user's positions.
			if s, ok := c.e.v8StackText(str.String()); ok {
				a = c.e.vm.ToValue(s)
				args[i] = a
			}
		}
		// The text repeats what the previews hold: each gets half of what
		// is left.
		previews[i] = c.e.enc.encodeBudget(a, budget/2)
		budget -= 2 * c.e.enc.used(budget/2)
	}
	text := formatLine(&c.e.b, previews, args, func(v goja.Value) string {
		return jsonText(c.e, c.e.jsonEn.encodeBudget(v, max(budget/2, 1024)))
	}, c.e.formatString)
	switch {
	case head == "":
	case text == "":
		text = head
	default:
		text = head + " " + text
	}
	text += suffix
	raw := make([]json.RawMessage, len(previews))
	for i, p := range previews {
		raw[i] = mustJSON(p)
	}
	c.emit(level, text, raw)
}

// dir prints v as util.inspect(v, options) does, as Node's console.dir:
// a string quoted, and options.depth (a number; null or Infinity for no
// limit) the levels shown before [Object]. Levels past the preview's depth
// limit (hello.limits) show as what was cut.
func (c *console) dir(v, options goja.Value) {
	depth := inspectDepth
	if o, ok := options.(*goja.Object); ok {
		if d, ok := c.e.enc.ownData(o, "depth"); ok {
			switch {
			case goja.IsNull(d):
				depth = math.MaxInt32
			case isNumber(d):
				if f := d.ToFloat(); f >= math.MaxInt32 {
					depth = math.MaxInt32
				} else if !math.IsNaN(f) {
					depth = int(math.Floor(f))
				}
			}
		}
	}
	depth = min(depth, maxDirDepth)
	budget := c.budget() / 2 // the text repeats what the preview holds
	var p, shown any
	if depth < c.e.enc.lim.Depth {
		p = c.e.enc.encodeBudget(v, budget)
		shown = p
	} else {
		// The preview (the event's args) stops at hello.limits' depth; the
		// text is laid out from a deeper encoding, within the same budget.
		p = c.e.enc.encodeBudget(v, budget/2)
		deep := c.e.enc
		deep.lim.Depth = depth + 1
		shown = deep.encodeBudget(v, budget/2)
	}
	in := inspector{depth: depth, breakLength: inspectBreakLength}
	c.emit("log", in.value(shown, 0), []json.RawMessage{mustJSON(p)})
}

// maxDirDepth bounds console.dir's depth (null and Infinity included): the
// layout's cost grows with the square of the nesting (1,000 levels took
// 3.4 s of Go work the run's interrupt does not stop; 100 take ≈5 ms). A
// value nested deeper shows as cut there.
const maxDirDepth = 100

// isNumber reports whether v is a number primitive.
func isNumber(v goja.Value) bool {
	switch v.Export().(type) {
	case int64, float64:
		return true
	}
	return false
}

// maxEventBytes caps one console event (its text and argument previews).
const maxEventBytes = 1 << 20

// budget is the byte budget of the next console event.
func (c *console) budget() int {
	return max(0, min(maxEventBytes, c.e.lim.MaxOutputBytes-c.e.stats.OutputBytes))
}

func (c *console) emit(level, text string, args []json.RawMessage) {
	if c.indent > 0 {
		pad := strings.Repeat("  ", min(c.indent, 32))
		text = pad + strings.ReplaceAll(text, "\n", "\n"+pad)
	}
	e := c.e
	if e.send(pipe.Event{Kind: pipe.EventLog, Level: level, Text: text, Args: args}) { // counts its bytes
		e.stats.Logs++
	}
}

// readMessages calls the message getter of each of vals that is an error
// whose message is an accessor (zod's ZodError computes its message so),
// as Node's inspect reads err.message, and formats its stack (goja does
// so at the first read, through the getter, as V8 does) — all before any
// preview is built, so that a getter's own console.log prints first. The
// strings they return are the encoder's messages, shown as those errors'
// messages until restoreMessages(outer) puts back those of the enclosing
// line (a getter's own console.log is a line inside the one that called
// it). This
// is the one place snippet code runs for a preview, and it runs as the
// snippet's own: for a console line (report false) what a getter throws,
// console.log throws, as in Node; for the report of an uncaught error
// (report true) it is dropped, and the run's limit stopping the getter
// ends the run with that limit. An error inside another value shows its
// accessor ([Getter]).
func (e *Runtime) readMessages(vals []goja.Value, report bool) (outer map[*goja.Object]string) {
	enc := &e.enc
	outer, enc.messages = enc.messages, nil
	if enc.busy {
		return outer // a getter's own console.log: its previews are opaque anyway
	}
	for _, v := range vals {
		o, ok := v.(*goja.Object)
		if !ok || o.ExportType() == proxyType || o.ClassName() != "Error" {
			continue // a Proxy's traps never run for a preview
		}
		get := e.messageAccessor(o)
		if get == nil {
			continue
		}
		var got goja.Value
		if report {
			var err error
			if got, err = get(o); err != nil {
				var ie *goja.InterruptedError
				if errors.As(err, &ie) && e.stop == nil {
					e.stop = err
				}
				continue
			}
		} else {
			got = e.callOriginal(get, o)
		}
		if s, ok := primitiveString(got); ok {
			if enc.messages == nil {
				enc.messages = map[*goja.Object]string{}
			}
			enc.messages[o] = s
			enc.stackString(o)
		}
	}
	return outer
}

// restoreMessages puts back the messages readMessages found.
func (e *Runtime) restoreMessages(outer map[*goja.Object]string) { e.enc.messages = outer }

// messageAccessor is the getter of the error o's message, the first
// "message" along its prototype chain, nil when that is a data property
// (or there is none, or a Proxy is in the way).
func (e *Runtime) messageAccessor(o *goja.Object) goja.Callable {
	desc, _, ok := e.enc.lookup(o, e.vm.ToValue("message"))
	if !ok || desc == nil {
		return nil
	}
	if _, data := descValue(desc); data {
		return nil
	}
	get, _ := descField(desc, "get")
	fn, _ := goja.AssertFunction(get)
	return fn
}

// formatLine joins previews the way console.log does, applying printf-style
// specifiers when the first argument is a string that holds them.
func formatLine(b *builtins, previews []any, args []goja.Value, asJSON func(goja.Value) string, asString func(goja.Value, any) string) string {
	if len(previews) == 0 {
		return ""
	}
	var parts []string
	rest := previews
	if first, ok := previews[0].(string); ok && strings.ContainsRune(first, '%') {
		var sb strings.Builder
		i := 1
		for j := 0; j < len(first); j++ {
			ch := first[j]
			if ch != '%' || j+1 == len(first) {
				sb.WriteByte(ch)
				continue
			}
			spec := first[j+1]
			if spec == '%' {
				sb.WriteByte('%')
				j++
				continue
			}
			if !strings.ContainsRune("sdifoOcj", rune(spec)) || i >= len(previews) {
				sb.WriteByte(ch)
				continue
			}
			j++
			arg := previews[i]
			switch spec {
			case 's':
				sb.WriteString(asString(args[i], arg))
			case 'd', 'i', 'f':
				sb.WriteString(formatNumeric(b, spec, args[i]))
			case 'o', 'O':
				sb.WriteString(render(arg, false))
			case 'j':
				sb.WriteString(asJSON(args[i]))
			case 'c': // CSS: consumed, not printed
			}
			i++
		}
		parts = append(parts, sb.String())
		rest = previews[i:]
	} else {
		parts = append(parts, render(previews[0], true))
		rest = previews[1:]
	}
	for _, p := range rest {
		parts = append(parts, render(p, true))
	}
	return strings.Join(parts, " ")
}

// jsonText prints a JSON-mode preview as %j does (JSON.stringify), from
// the preview, so no toJSON, getter or Proxy trap runs (Node's %j calls
// them: an accessor is left out here, a documented deviation). A cycle
// prints [Circular] as Node's util.format does; a BigInt throws Node's
// TypeError.
func jsonText(e *Runtime, p any) string {
	var b strings.Builder
	top, circular := writeJSON(e, &b, p)
	switch {
	case circular:
		return "[Circular]"
	case !top:
		return "undefined"
	}
	return b.String()
}

// writeJSON writes p as JSON; ok is false for a value JSON.stringify
// leaves out (undefined, a function, a symbol, an accessor).
func writeJSON(e *Runtime, b *strings.Builder, p any) (ok, circular bool) {
	switch x := p.(type) {
	case nil:
		b.WriteString("null")
	case bool:
		b.WriteString(strconv.FormatBool(x))
	case int64:
		b.WriteString(strconv.FormatInt(x, 10))
	case float64:
		b.WriteString(formatNumber(x))
	case string:
		writeJSONString(b, x)
	case []any:
		b.WriteByte('[')
		first := true
		for _, it := range x {
			if m, ok := it.(tagged); ok && m["$t"] == "more" {
				break // cut by the preview limits
			}
			if !first {
				b.WriteByte(',')
			}
			first = false
			var sub strings.Builder
			ok, c := writeJSON(e, &sub, it)
			if c {
				return true, true
			}
			if ok {
				b.WriteString(sub.String())
			} else {
				b.WriteString("null")
			}
		}
		b.WriteByte(']')
	case object:
		b.WriteByte('{')
		n := 0
		for _, f := range x {
			if f.Key == "…" {
				break
			}
			var sub strings.Builder
			ok, c := writeJSON(e, &sub, f.Value)
			if c {
				return true, true
			}
			if !ok {
				continue
			}
			if n > 0 {
				b.WriteByte(',')
			}
			n++
			writeJSONString(b, f.Key)
			b.WriteByte(':')
			b.WriteString(sub.String())
		}
		b.WriteByte('}')
	case tagged:
		switch x["$t"] {
		case "undefined", "function", "symbol", "getter", "revoked":
			return false, false
		case "circular":
			return true, true
		case "number":
			if x["v"] == "-0" {
				b.WriteString("0")
			} else {
				b.WriteString("null")
			}
		case "bigint":
			e.throw("TypeError", "Do not know how to serialize a BigInt")
		case "date":
			if v, _ := x["v"].(string); v != "Invalid Date" {
				writeJSONString(b, v)
			} else {
				b.WriteString("null")
			}
		case "empty":
			n, _ := x["count"].(int64)
			for i := int64(0); i < n && i < 1000; i++ {
				if i > 0 {
					b.WriteByte(',')
				}
				b.WriteString("null")
			}
		case "object":
			if props, ok := x["props"].(object); ok {
				return writeJSON(e, b, props)
			}
			b.WriteString("{}")
		default: // map, set, regexp, error: no own enumerable data
			b.WriteString("{}")
		}
	default:
		b.WriteString("null")
	}
	return true, false
}

// formatNumeric prints v as Node's %d (Number(v): 1.5 stays 1.5), %i
// (parseInt(v): truncated) and %f (parseFloat(v)) do, a BigInt as 5n under
// %d and %i. The conversions are the intrinsics, called on primitives only,
// where they run no snippet code. An object prints NaN: Node would call its
// valueOf or toString, which a preview never does (a documented deviation).
func formatNumeric(b *builtins, spec byte, v goja.Value) string {
	if _, ok := v.(*goja.Object); ok {
		return "NaN"
	}
	if _, ok := v.(*goja.Symbol); ok {
		return "NaN"
	}
	if goja.IsBigInt(v) {
		if spec == 'f' {
			return v.String()
		}
		return v.String() + "n"
	}
	conv := map[byte]goja.Callable{'d': b.Number, 'i': b.ParseInt, 'f': b.ParseFloat}[spec]
	r, err := conv(goja.Undefined(), v)
	if err != nil {
		return "NaN"
	}
	f := r.ToFloat()
	if spec == 'i' {
		f = exactParseInt(v.String(), 0, f) // goja's drifts past 2^53
	}
	if f == 0 && (math.Signbit(f) || spec == 'i' && strings.HasPrefix(strings.TrimSpace(v.String()), "-")) {
		return "-0" // goja's parseInt("-0.5") is 0, V8's (and Node's %i) -0
	}
	return formatNumber(f)
}

// writeJSONString writes s as a JSON string the way JSON.stringify does:
// unlike json.Marshal, it leaves <, > and & as they are.
func writeJSONString(b *strings.Builder, s string) {
	var q bytes.Buffer
	enc := json.NewEncoder(&q)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s)
	b.Write(bytes.TrimSuffix(q.Bytes(), []byte("\n"))) // Encode ends the value with a newline
}

func mustJSON(v any) json.RawMessage {
	b, err := json.Marshal(v)
	if err != nil {
		return json.RawMessage(`null`)
	}
	return b
}

// formatString is %s of v (p its preview), as Node's util.format: a
// function is String(fn); an object whose toString is its own or its
// class's (not a built-in's) is String(obj), which runs that toString, as
// Node does; any other object is inspected at depth 0 ("{ a: [Object] }");
// a primitive prints as console.log prints it.
func (e *Runtime) formatString(v goja.Value, p any) string {
	o, ok := v.(*goja.Object)
	if !ok {
		return render(p, true)
	}
	if _, fn := goja.AssertFunction(o); fn || !e.enc.builtInToString(o) {
		return o.ToString().String()
	}
	in := inspector{depth: 0, breakLength: inspectBreakLength}
	return in.value(p, 0)
}
