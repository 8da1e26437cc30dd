package js

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/dop251/goja"

	"github.com/playground-dev/playground/sandbox/pipe"
	"github.com/playground-dev/playground/sandbox/worker/js/inspect"
	"github.com/playground-dev/playground/sandbox/worker/js/intrinsic"
	"github.com/playground-dev/playground/sandbox/worker/js/parity"
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
			must(parity.SetNative(e.vm, o, name, fn))
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
		if text, data, ok := c.e.enc.Table(call.Arguments[0], call.Argument(1)); ok {
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
		return inspect.Render(c.e.enc.Encode(v), true)
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
	text := label + ": " + inspect.FormatDuration(millis(c.e.clock.now())-start)
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
	// No message getter runs: building a console line never runs snippet
	// code (issue 22); an error whose message is an accessor shows it
	// ([Getter]). Only the report of an uncaught error reads it
	// (readMessages, errors.go).
	budget := c.budget()
	lineBudget := budget
	cutArgs := false // arguments past the spent budget were counted, not previewed
	previews := make([]any, len(args))
	for i, a := range args {
		if budget <= 0 && i > 0 {
			// Spent: the arguments left are counted, not previewed (each
			// preview has a floor of its own, so ten thousand of them
			// would still make a line of megabytes).
			previews[i] = inspect.Tagged{"$t": "more", "count": len(args) - i}
			previews = previews[:i+1]
			cutArgs = true
			break
		}
		if str, ok := a.(goja.String); ok && str.Length() <= maxStackString {
			// console.log(err.stack): V8's layout, the user's positions.
			if s, ok := c.e.v8StackText(str.String()); ok {
				a = c.e.vm.ToValue(s)
				args[i] = a
			}
		}
		// The text repeats what the previews hold: each gets half of what
		// is left.
		previews[i] = c.e.enc.EncodeBudget(a, budget/2)
		budget -= 2 * c.e.enc.Used(budget/2)
	}
	shown, cut := markCutStrings(args, previews)
	cut = cut || cutArgs
	text := inspect.FormatLine(&c.e.b, shown, args, func(v goja.Value) string {
		s, ok := inspect.JSONText(c.e.jsonEn.EncodeBudget(v, max(budget/2, 1024)))
		if !ok {
			c.e.throw("TypeError", "Do not know how to serialize a BigInt")
		}
		return s
	}, c.e.enc.FormatString)
	switch {
	case head == "":
	case text == "":
		text = head
	default:
		text = head + " " + text
	}
	text += suffix
	raw := make([]json.RawMessage, len(previews))
	argBytes := 0
	for i, p := range previews {
		raw[i] = mustJSON(p)
		argBytes += len(raw[i])
	}
	// A line that does not fit its budget (what is left of the run's
	// output, at most maxEventBytes) is cut rather than ending the run
	// (issue 22): first, previews over half the budget become a "more"
	// tag of their size, last first (the encoder checks its budget between
	// values, so a shared structure may overrun it); then the text is cut
	// to what is left, with Node's "... N more characters". A short line
	// at the end of the run's output is left whole: it ends the run at the
	// limit, as any event does.
	const minCut = 256 // parts shorter than this are never cut
	fits := func() bool { return len(text)+argBytes <= lineBudget }
	for i := len(raw) - 1; i >= 0 && !fits() && argBytes > lineBudget/2; i-- {
		if len(raw[i]) <= minCut {
			continue
		}
		more := mustJSON(inspect.Tagged{"$t": "more", "count": len(raw[i])})
		argBytes += len(more) - len(raw[i])
		raw[i] = more
		cut = true
	}
	if !fits() && len(text) > minCut {
		text = cutText(text, max(lineBudget-argBytes-64, minCut/2))
		cut = true
	}
	if cut {
		c.e.stats.Truncated = true
	}
	c.emit(level, text, raw)
}

// markCutStrings returns previews for the line's text in which each
// string argument the preview cut (at previewString or the budget) ends
// as Node ends a cut string, "... N more characters", N in UTF-16 units;
// cut reports whether any was. The previews sent as args keep their "…".
func markCutStrings(args []goja.Value, previews []any) (shown []any, cut bool) {
	shown = previews
	for i := range previews { // previews may stop short of args (print: a spent budget)
		s, isString := args[i].(goja.String)
		p, isPreview := previews[i].(string)
		if !isString || !isPreview || !strings.HasSuffix(p, "…") {
			continue
		}
		kept := strings.TrimSuffix(p, "…")
		k := utf16Len(kept)
		n := s.Length() - k
		if n <= 0 || n == 1 && s.CharAt(s.Length()-1) == '…' {
			continue // the string itself ends in "…": nothing was cut
		}
		if !cut {
			shown = slices.Clone(previews)
			cut = true
		}
		shown[i] = kept + moreCharacters(n)
	}
	return shown, cut
}

// cutText cuts text to at most n bytes (on a character boundary) and says
// how many characters were cut, as Node says of a string.
func cutText(text string, n int) string {
	for n > 0 && n < len(text) && !utf8.RuneStart(text[n]) {
		n--
	}
	return text[:n] + moreCharacters(utf8.RuneCountInString(text[n:]))
}

func moreCharacters(n int) string {
	if n == 1 {
		return "... 1 more character"
	}
	return fmt.Sprintf("... %d more characters", n)
}

// utf16Len is the length of s in UTF-16 units, as JS counts a string.
func utf16Len(s string) int {
	n := 0
	for _, r := range s {
		n += utf16.RuneLen(r)
	}
	return n
}

// dir prints v as util.inspect(v, options) does, as Node's console.dir
// (inspect.Encoder.Dir).
func (c *console) dir(v, options goja.Value) {
	text, p := c.e.enc.Dir(v, options, c.budget()/2) // the text repeats what the preview holds
	c.emit("log", text, []json.RawMessage{mustJSON(p)})
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
// messages until restoreMessages(outer) puts back the enclosing ones.
// Only the report of an uncaught error (report true, errors.go) calls it:
// what a getter throws is dropped, and the run's limit stopping the
// getter ends the run with that limit. A console line does not (issue 22:
// building a preview never runs snippet code): such an error shows its
// accessor ([Getter]). With report false the getter runs as the
// snippet's own code (what it throws, the caller throws).
func (e *Runtime) readMessages(vals []goja.Value, report bool) (outer map[*goja.Object]string) {
	enc := &e.enc
	outer = enc.SwapMessages(nil)
	if enc.Busy() {
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
		if s, ok := intrinsic.PrimitiveString(got); ok {
			enc.SetMessage(o, s)
			enc.StackString(o)
		}
	}
	return outer
}

// restoreMessages puts back the messages readMessages found.
func (e *Runtime) restoreMessages(outer map[*goja.Object]string) { e.enc.SwapMessages(outer) }

// messageAccessor is the getter of the error o's message, the first
// "message" along its prototype chain, nil when that is a data property
// (or there is none, or a Proxy is in the way).
func (e *Runtime) messageAccessor(o *goja.Object) goja.Callable {
	desc, _, ok := e.enc.Lookup(o, e.vm.ToValue("message"))
	if !ok || desc == nil {
		return nil
	}
	if _, data := intrinsic.DescValue(desc); data {
		return nil
	}
	get, _ := intrinsic.DescField(desc, "get")
	fn, _ := goja.AssertFunction(get)
	return fn
}

func mustJSON(v any) json.RawMessage {
	b, err := json.Marshal(v)
	if err != nil {
		return json.RawMessage(`null`)
	}
	return b
}
