package js

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// render prints a preview the way a browser console prints the value it
// stands for: strings at the top level as themselves, nested ones quoted.
func render(p any, top bool) string {
	var b strings.Builder
	renderTo(&b, p, top)
	return b.String()
}

func renderTo(b *strings.Builder, p any, top bool) {
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
		if top {
			b.WriteString(x)
		} else {
			b.WriteString(quoteJS(x))
		}
	case []any: // JSON-mode array
		renderList(b, "", x, "[", "]")
	case object: // JSON-mode object
		renderProps(b, "", x)
	case map[string]any:
		if t, ok := x["$t"].(string); ok {
			if t != "circular" {
				if n, ok := x["ref"].(int); ok {
					fmt.Fprintf(b, "<ref *%d> ", n)
				}
			}
			renderTagged(b, t, x)
		}
	default:
		fmt.Fprint(b, x)
	}
}

func renderTagged(b *strings.Builder, t string, x map[string]any) {
	switch t {
	case "undefined":
		b.WriteString("undefined")
	case "bigint":
		b.WriteString(x["v"].(string) + "n")
	case "symbol", "number", "regexp":
		b.WriteString(x["v"].(string))
	case "date":
		b.WriteString(x["v"].(string))
	case "function":
		if n, _ := x["name"].(string); n != "" {
			b.WriteString("[Function: " + n + "]")
		} else {
			b.WriteString("[Function (anonymous)]")
		}
	case "error":
		if s, _ := x["stack"].(string); s != "" {
			name, _ := x["name"].(string)
			msg, _ := x["message"].(string)
			head := name
			if msg != "" {
				head += ": " + msg
			}
			if strings.HasPrefix(s, head) {
				b.WriteString(s)
			} else {
				b.WriteString(head + "\n" + s)
			}
			return
		}
		b.WriteString(x["name"].(string))
		if m, _ := x["message"].(string); m != "" {
			b.WriteString(": " + m)
		}
	case "circular":
		if n, ok := x["ref"].(int); ok {
			fmt.Fprintf(b, "[Circular *%d]", n)
		} else {
			b.WriteString("[Circular " + x["path"].(string) + "]")
		}
	case "revoked":
		b.WriteString("<Revoked Proxy>")
	case "more":
		fmt.Fprintf(b, "... %v more", x["count"])
	case "empty":
		if c, _ := x["count"].(int); c == 1 || fmt.Sprint(x["count"]) == "1" {
			b.WriteString("<1 empty item>")
		} else {
			fmt.Fprintf(b, "<%v empty items>", x["count"])
		}
	case "getter":
		if l, ok := x["label"].(string); ok {
			b.WriteString("[" + l + "]")
		} else {
			b.WriteString("[Getter]")
		}
	case "array":
		items, _ := x["items"].([]any)
		prefix := ""
		if c, _ := x["class"].(string); c != "" {
			prefix = fmt.Sprintf("%s(%v) ", c, x["length"])
		}
		renderList(b, prefix, items, "[", "]")
	case "boxed":
		c, _ := x["class"].(string)
		b.WriteString("[" + c + ": " + render(x["v"], false) + "]")
	case "set":
		values, _ := x["values"].([]any)
		renderList(b, fmt.Sprintf("Set(%d) ", countShown(values)), values, "{", "}")
	case "map":
		entries, _ := x["entries"].([]any)
		var parts []string
		for _, en := range entries {
			if kv, ok := en.([2]any); ok {
				parts = append(parts, render(kv[0], false)+" => "+render(kv[1], false))
			} else {
				parts = append(parts, render(en, false))
			}
		}
		fmt.Fprintf(b, "Map(%d) ", countShown(entries))
		writeJoined(b, "{", "}", parts)
	case "object":
		class, _ := x["class"].(string)
		props, _ := x["props"].(object)
		prefix := ""
		if class != "Object" {
			prefix = class + " "
		}
		renderProps(b, prefix, props)
	default:
		b.WriteString("[" + t + "]")
	}
}

func countShown(items []any) int {
	n := 0
	for _, it := range items {
		if m, ok := it.(map[string]any); ok && m["$t"] == "more" {
			switch c := m["count"].(type) { // int or int64, as the encoder counted
			case int:
				n += c
			case int64:
				n += int(c)
			}
			continue
		}
		n++
	}
	return n
}

func renderList(b *strings.Builder, prefix string, items []any, open, close string) {
	parts := make([]string, len(items))
	for i, it := range items {
		parts[i] = render(it, false)
	}
	b.WriteString(prefix)
	writeJoined(b, open, close, parts)
}

func renderProps(b *strings.Builder, prefix string, props object) {
	parts := make([]string, 0, len(props))
	for _, f := range props {
		if f.Key == "…" {
			parts = append(parts, render(f.Value, false))
			continue
		}
		parts = append(parts, propKey(f.Key)+": "+render(f.Value, false))
	}
	b.WriteString(prefix)
	if len(parts) == 0 {
		b.WriteString("{}")
		return
	}
	writeJoined(b, "{", "}", parts)
}

func writeJoined(b *strings.Builder, open, close string, parts []string) {
	if len(parts) == 0 {
		b.WriteString(open + close)
		return
	}
	b.WriteString(open + " " + strings.Join(parts, ", ") + " " + close)
}

func propKey(k string) string {
	if isIdentifier(k) {
		return k
	}
	return quoteJS(k)
}

func isIdentifier(s string) bool {
	if s == "" {
		return false
	}
	for i, r := range s {
		if r == '_' || r == '$' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r > 0x7f || (i > 0 && r >= '0' && r <= '9') {
			continue
		}
		return false
	}
	return true
}

func quoteJS(s string) string {
	q := strconv.Quote(s)
	q = strings.ReplaceAll(q[1:len(q)-1], `\"`, `"`)
	return "'" + strings.ReplaceAll(q, "'", `\'`) + "'"
}

// formatNumber formats f as JavaScript's Number::toString does
// (ECMA-262, Number::toString with radix 10): the shortest digits that
// round-trip, in positional notation for exponents from -7 to 20 and as
// 1.5e+21 / 1e-7 outside.
func formatNumber(f float64) string {
	switch {
	case math.IsNaN(f):
		return "NaN"
	case math.IsInf(f, 1):
		return "Infinity"
	case math.IsInf(f, -1):
		return "-Infinity"
	case f == 0:
		return "0"
	}
	sign := ""
	if f < 0 {
		sign, f = "-", -f
	}
	e := strconv.FormatFloat(f, 'e', -1, 64) // d.ddde±XX
	mant, exp, _ := strings.Cut(e, "e")
	digits := strings.Replace(mant, ".", "", 1)
	x, _ := strconv.Atoi(exp)
	k, n := len(digits), x+1 // value = 0.digits × 10^n
	switch {
	case k <= n && n <= 21:
		return sign + digits + strings.Repeat("0", n-k)
	case 0 < n && n <= 21:
		return sign + digits[:n] + "." + digits[n:]
	case -6 < n && n <= 0:
		return sign + "0." + strings.Repeat("0", -n) + digits
	}
	es := "+"
	if n-1 < 0 {
		es = "-"
	}
	m := digits[:1]
	if k > 1 {
		m += "." + digits[1:]
	}
	return sign + m + "e" + es + strconv.Itoa(abs(n-1))
}

func abs(i int) int {
	if i < 0 {
		return -i
	}
	return i
}
