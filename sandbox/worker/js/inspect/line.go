package inspect

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"math/big"
	"strconv"
	"strings"

	"github.com/dop251/goja"

	"github.com/playground-dev/playground/sandbox/worker/js/intrinsic"
	"github.com/playground-dev/playground/sandbox/worker/js/parity"
)

// FormatDuration formats ms as Node's console.timeEnd does (formatTime in
// lib/internal/console/constructor.js): "0.15ms" under a second (at most
// three decimals, trailing zeros dropped), "1.234s" under a minute, else
// "1:02.345 (m:ss.mmm)" or "1:02:03.456 (h:mm:ss.mmm)".
func FormatDuration(ms float64) string {
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
	return intrinsic.FormatNumber(rounded) + "ms"
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

// FormatLine joins previews the way console.log does, applying printf-style
// specifiers when the first argument is a string that holds them.
func FormatLine(b *Builtins, previews []any, args []goja.Value, asJSON func(goja.Value) string, asString func(goja.Value, any) string) string {
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
				sb.WriteString(Render(arg, false))
			case 'j':
				sb.WriteString(asJSON(args[i]))
			case 'c': // CSS: consumed, not printed
			}
			i++
		}
		parts = append(parts, sb.String())
		rest = previews[i:]
	} else {
		parts = append(parts, Render(previews[0], true))
		rest = previews[1:]
	}
	for _, p := range rest {
		parts = append(parts, Render(p, true))
	}
	return strings.Join(parts, " ")
}

// JSONText prints a JSON-mode preview as %j does (JSON.stringify), from
// the preview, so no toJSON, getter or Proxy trap runs (Node's %j calls
// them: an accessor is left out here, a documented deviation). A cycle
// prints [Circular] as Node's util.format does.
// ok is false for a BigInt, which the caller throws as Node's TypeError
// ("Do not know how to serialize a BigInt").
func JSONText(p any) (_ string, ok bool) {
	var b strings.Builder
	var bigint bool
	top, circular := writeJSON(&bigint, &b, p)
	switch {
	case bigint:
		return "", false
	case circular:
		return "[Circular]", true
	case !top:
		return "undefined", true
	}
	return b.String(), true
}

// writeJSON writes p as JSON; ok is false for a value JSON.stringify
// leaves out (undefined, a function, a symbol, an accessor).
func writeJSON(bigint *bool, b *strings.Builder, p any) (ok, circular bool) {
	switch x := p.(type) {
	case nil:
		b.WriteString("null")
	case bool:
		b.WriteString(strconv.FormatBool(x))
	case int64:
		b.WriteString(strconv.FormatInt(x, 10))
	case float64:
		b.WriteString(intrinsic.FormatNumber(x))
	case string:
		writeJSONString(b, x)
	case []any:
		b.WriteByte('[')
		first := true
		for _, it := range x {
			if m, ok := it.(Tagged); ok && m["$t"] == "more" {
				break // cut by the preview limits
			}
			if !first {
				b.WriteByte(',')
			}
			first = false
			var sub strings.Builder
			ok, c := writeJSON(bigint, &sub, it)
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
			ok, c := writeJSON(bigint, &sub, f.Value)
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
	case Tagged:
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
			*bigint = true
			return true, true
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
				return writeJSON(bigint, b, props)
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
func formatNumeric(b *Builtins, spec byte, v goja.Value) string {
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
		f = parity.ExactParseInt(v.String(), 0, f) // goja's drifts past 2^53
	}
	if f == 0 && (math.Signbit(f) || spec == 'i' && strings.HasPrefix(strings.TrimSpace(v.String()), "-")) {
		return "-0" // goja's parseInt("-0.5") is 0, V8's (and Node's %i) -0
	}
	return intrinsic.FormatNumber(f)
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

// FormatString is %s of v (p its preview), as Node's util.format: a
// function is String(fn); an object whose toString is its own or its
// class's (not a built-in's) is String(obj), which runs that toString, as
// Node does; any other object is inspected at depth 0 ("{ a: [Object] }");
// a primitive prints as console.log prints it.
func (e *Encoder) FormatString(v goja.Value, p any) string {
	o, ok := v.(*goja.Object)
	if !ok {
		return Render(p, true)
	}
	if _, fn := goja.AssertFunction(o); fn || !e.BuiltInToString(o) {
		return o.ToString().String()
	}
	in := inspector{depth: 0, breakLength: inspectBreakLength}
	return in.value(p, 0)
}

// Dir lays out v as util.inspect(v, options) does, as Node's console.dir:
// a string quoted, and options.depth (a number; null or Infinity for no
// limit) the levels shown before [Object]. Levels past the preview's depth
// limit (hello.limits) show as what was cut. It returns the text and the
// preview (the event's argument), both within about budget bytes.
func (e *Encoder) Dir(v, options goja.Value, budget int) (text string, preview any) {
	depth := inspectDepth
	if o, ok := options.(*goja.Object); ok {
		if d, ok := e.OwnData(o, "depth"); ok {
			switch {
			case goja.IsNull(d):
				depth = math.MaxInt32
			case intrinsic.IsNumber(d):
				if f := d.ToFloat(); f >= math.MaxInt32 {
					depth = math.MaxInt32
				} else if !math.IsNaN(f) {
					depth = int(math.Floor(f))
				}
			}
		}
	}
	depth = min(depth, maxDirDepth)
	var p, shown any
	if depth < e.lim.Depth {
		p = e.EncodeBudget(v, budget)
		shown = p
	} else {
		// The preview (the event's args) stops at hello.limits' depth; the
		// text is laid out from a deeper encoding, within the same budget.
		p = e.EncodeBudget(v, budget/2)
		deep := *e
		deep.lim.Depth = depth + 1
		shown = deep.EncodeBudget(v, budget/2)
	}
	in := inspector{depth: depth, breakLength: inspectBreakLength}
	return in.value(shown, 0), p
}

// maxDirDepth bounds console.dir's depth (null and Infinity included): the
// layout's cost grows with the square of the nesting (1,000 levels took
// 3.4 s of Go work the run's interrupt does not stop; 100 take ≈5 ms). A
// value nested deeper shows as cut there.
const maxDirDepth = 100

// Table lays out data as Node's console.table does, columns (an array of
// strings) naming the columns to show; ok is false when data is not
// tabular (console.table then prints it as console.log). preview is data's
// (the event's argument).
func (e *Encoder) Table(data, columns goja.Value) (text string, preview any, ok bool) {
	preview = e.Encode(data)
	var cols []string
	if c, ok := e.Encode(columns).(map[string]any); ok && c["$t"] == "array" {
		items, _ := c["items"].([]any)
		cols = []string{} // given, even when empty: (index) only
		for _, it := range items {
			if s, ok := it.(string); ok {
				cols = append(cols, s)
			}
		}
	}
	text, ok = renderTable(preview, cols)
	return text, preview, ok
}
