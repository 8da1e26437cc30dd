package inspect

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"unicode"

	"golang.org/x/text/width"

	"github.com/playground-dev/playground/sandbox/worker/js/intrinsic"
)

// Render prints a preview as Node 20's console.log prints the value it
// stands for (util.inspect with its defaults): a string at the top level as
// itself, everything else as inspect does it (see inspector).
func Render(p any, top bool) string {
	if s, ok := p.(string); ok && top {
		return s
	}
	in := inspector{depth: inspectDepth, breakLength: inspectBreakLength}
	return in.value(p, 0)
}

// renderCell prints a console.table cell as Node 20 does: inspect with
// breakLength Infinity, at most 3 array items, and depth 0 (-1 for an
// object of more than two keys, which prints as [Object]).
func renderCell(p any) string {
	in := inspector{depth: 0, breakLength: math.MaxInt32, maxItems: 3}
	if t, ok := p.(Tagged); ok && t["$t"] == "object" {
		if props, _ := t["props"].(object); len(props) > 2 {
			in.depth = -1
		}
	}
	return in.value(p, 0)
}

// Node 20's util.inspect defaults (lib/internal/util/inspect.js:
// inspectDefaultOptions, kMinLineLength).
const (
	inspectDepth       = 2
	inspectBreakLength = 80
	inspectCompact     = 3
	minLineLength      = 16
)

// inspector lays previews out as Node 20's util.inspect lays values out
// (lib/internal/util/inspect.js: formatValue, formatRaw, formatProperty,
// reduceToSingleString, isBelowBreakLength, groupArrayElements, strEscape):
// nested objects past depth print as [Object] / [Array] / [Foo]; an object
// goes on one line when it fits in breakLength and nests fewer than compact
// levels, else one entry per line; arrays of more than six short items are
// grouped in aligned columns. Previews are capped by the encoder first
// (depth 5, keys, string lengths), so what inspect shows is always there.
type inspector struct {
	depth, breakLength int
	maxItems           int // table cells: items shown of an array (0: all)
	indentLvl          int // inspect's ctx.indentationLvl
	currentDepth       int // inspect's ctx.currentDepth: the level last entered
}

func (in *inspector) value(p any, recurse int) string {
	switch x := p.(type) {
	case nil:
		return "null"
	case bool:
		return strconv.FormatBool(x)
	case int64:
		return strconv.FormatInt(x, 10)
	case int:
		return strconv.Itoa(x)
	case float64:
		return intrinsic.FormatNumber(x)
	case string:
		return in.str(x)
	case []any: // JSON-mode array
		return in.list(x, nil, "", "[", "]", "[Array]", true, recurse)
	case object: // JSON-mode object
		return in.props(x, "", "", "[Object]", recurse)
	case Tagged:
		ref := ""
		if t, _ := x["$t"].(string); t != "circular" {
			if n, ok := x["ref"].(int); ok {
				ref = fmt.Sprintf("<ref *%d>", n)
			}
		}
		return in.tagged(x, ref, recurse)
	}
	return fmt.Sprint(p)
}

func (in *inspector) tagged(x Tagged, ref string, recurse int) string {
	t, _ := x["$t"].(string)
	switch t {
	case "undefined":
		return "undefined"
	case "bigint":
		s, _ := x["v"].(string)
		return s + "n"
	case "symbol", "number", "regexp", "date", "bytes":
		s, _ := x["v"].(string)
		return s
	case "function":
		base := functionBase(x)
		props, _ := x["props"].(object)
		if len(props) == 0 {
			return base
		}
		if recurse > in.depth {
			return "[Function]"
		}
		if ref != "" {
			base = ref + " " + base
		}
		recurse++
		in.currentDepth = recurse
		out := make([]string, 0, len(props))
		for _, f := range props {
			out = append(out, in.entry(f, recurse))
		}
		return in.reduce(out, base, "{", "}", false, recurse, nil)
	case "error":
		base := in.errorText(x)
		props, _ := x["props"].(object)
		cause, hasCause := x["cause"]
		errs, hasErrors := x["errors"]
		if len(props) == 0 && !hasCause && !hasErrors {
			return base
		}
		if ref != "" {
			base = ref + " " + base
		}
		if recurse > in.depth {
			return base
		}
		recurse++
		in.currentDepth = recurse
		out := make([]string, 0, len(props)+2)
		for _, f := range props {
			out = append(out, in.entry(f, recurse))
		}
		if hasCause {
			out = append(out, "[cause]: "+in.nested(cause, recurse))
		}
		if hasErrors {
			out = append(out, "[errors]: "+in.nested(errs, recurse))
		}
		return in.reduce(out, base, "{", "}", false, recurse, nil)
	case "circular":
		if n, ok := x["ref"].(int); ok {
			return fmt.Sprintf("[Circular *%d]", n)
		}
		path, _ := x["path"].(string)
		return "[Circular " + path + "]"
	case "revoked":
		return "<Revoked Proxy>"
	case "more":
		n := fmt.Sprint(x["count"])
		if n == "1" {
			return "... 1 more item"
		}
		return "... " + n + " more items"
	case "empty":
		if n := fmt.Sprint(x["count"]); n != "1" {
			return "<" + n + " empty items>"
		}
		return "<1 empty item>"
	case "getter":
		if l, ok := x["label"].(string); ok {
			return "[" + l + "]"
		}
		return "[Getter]"
	case "boxed":
		c, _ := x["class"].(string)
		return "[" + c + ": " + in.value(x["v"], recurse) + "]"
	case "array":
		items, _ := x["items"].([]any)
		c, _ := x["class"].(string)
		open, cut := "[", "[Array]"
		if c != "" {
			open, cut = fmt.Sprintf("%s(%v) [", c, x["length"]), "["+c+"]"
		}
		extras, _ := x["props"].(object)
		return in.list(items, extras, ref, open, "]", cut, true, recurse)
	case "set":
		values, _ := x["values"].([]any)
		open, cut := collectionOpen(x, "Set", countShown(values))
		return in.list(values, nil, ref, open, "}", cut, false, recurse)
	case "map":
		entries, _ := x["entries"].([]any)
		if x["params"] == true {
			return in.params(x, entries, recurse)
		}
		open, cut := collectionOpen(x, "Map", countShown(entries))
		if len(entries) == 0 {
			return open + "}"
		}
		if recurse > in.depth {
			return cut
		}
		recurse++
		in.currentDepth = recurse
		in.indentLvl += 2
		out := make([]string, len(entries))
		for i, en := range entries {
			if kv, ok := en.([2]any); ok {
				k := in.value(kv[0], recurse)
				out[i] = k + " => " + in.value(kv[1], recurse)
			} else {
				out[i] = in.value(en, recurse)
			}
		}
		in.indentLvl -= 2
		return in.reduce(out, ref, open, "}", false, recurse, nil)
	case "object":
		class, _ := x["class"].(string)
		props, _ := x["props"].(object)
		prefix, cut := "", "[Object]"
		switch {
		case class == "[Arguments]": // [Object] past the depth, as Node
			prefix = class + " "
		case strings.HasPrefix(class, "["): // [Object: null prototype]
			prefix, cut = class+" ", class
		case class != "Object" && class != "":
			prefix, cut = class+" ", "["+class+"]"
		}
		if len(props) == 0 && (class == "WeakMap" || class == "WeakSet") {
			return class + " { <items unknown> }"
		}
		return in.props(props, ref, prefix, cut, recurse)
	}
	return "[" + t + "]"
}

// params lays out a URLSearchParams as Node's does (its
// [util.inspect.custom] in lib/internal/url.js): "URLSearchParams { 'a'
// => '1', 'b' => '2' }" on one line up to the break length, else one entry
// a line, indented by two spaces whatever the nesting, the brace closing
// the last line.
func (in *inspector) params(x Tagged, entries []any, recurse int) string {
	class, _ := x["class"].(string)
	out := make([]string, 0, len(entries))
	length := -2
	for _, en := range entries {
		s := ""
		if kv, ok := en.([2]any); ok {
			s = in.value(kv[0], recurse+1) + " => " + in.value(kv[1], recurse+1)
		} else {
			s = in.value(en, recurse+1)
		}
		out = append(out, s)
		length += utf16Len(s) + 2 // Node counts the text's UTF-16 length
	}
	switch {
	case length > in.breakLength:
		return class + " {\n  " + strings.Join(out, ",\n  ") + " }"
	case len(out) > 0:
		return class + " { " + strings.Join(out, ", ") + " }"
	}
	return class + " {}"
}

// collectionOpen is how a Map or Set (base) of n entries opens, and how it
// prints past the depth: "Map(2) {" and [Map], or for a subclass
// "Registry(2) [Map] {" and [Registry [Map]].
func collectionOpen(x Tagged, base string, n int) (open, cut string) {
	if c, _ := x["class"].(string); c != "" {
		return fmt.Sprintf("%s(%d) [%s] {", c, n, base), "[" + c + " [" + base + "]]"
	}
	return fmt.Sprintf("%s(%d) {", base, n), "[" + base + "]"
}

// functionBase is how inspect names a function (getFunctionBase,
// getClassBase): [Function: f], [AsyncFunction (anonymous)],
// [class C extends B].
func functionBase(x Tagged) string {
	name, _ := x["name"].(string)
	kind, _ := x["kind"].(string)
	if kind == "class" {
		if name == "" {
			name = "(anonymous)"
		}
		if ext, _ := x["extends"].(string); ext != "" {
			return "[class " + name + " extends " + ext + "]"
		}
		return "[class " + name + "]"
	}
	if kind == "" {
		kind = "Function"
	}
	if name != "" {
		return "[" + kind + ": " + name + "]"
	}
	return "[" + kind + " (anonymous)]"
}

// errorText is an error's stack (or name: message), its lines indented to
// where it stands, as formatError does.
func (in *inspector) errorText(x Tagged) string {
	name, _ := x["name"].(string)
	msg, _ := x["message"].(string)
	head := name
	if msg != "" {
		head += ": " + msg
	}
	text := head
	if s, _ := x["stack"].(string); s != "" {
		text = s
		if strings.HasPrefix(s, "    at ") { // frames without their error's line
			text = head + "\n" + s
		}
	}
	// formatError: an error whose stack has no frames after its message is
	// shown in brackets.
	pos := 0
	if msg != "" {
		if i := strings.Index(text, msg); i >= 0 {
			pos = i + len(msg)
		}
	}
	if !strings.Contains(text[pos:], "\n    at") {
		text = "[" + text + "]"
	}
	if in.indentLvl != 0 {
		text = strings.ReplaceAll(text, "\n", "\n"+strings.Repeat(" ", in.indentLvl))
	}
	return text
}

// list lays out an array's (arrayLike) or a Set's items, then an array's
// own non-index properties (extras) as key: value, as inspect appends them
// (kArrayExtrasType).
func (in *inspector) list(items []any, extras object, ref, open, close, cut string, arrayLike bool, recurse int) string {
	if len(items) == 0 && len(extras) == 0 {
		return open + close
	}
	if recurse > in.depth {
		return cut
	}
	recurse++
	in.currentDepth = recurse
	shown := items
	if in.maxItems > 0 && arrayLike {
		shown = in.capItems(items)
	}
	out := make([]string, len(shown), len(shown)+len(extras))
	numeric := true
	for i, it := range shown {
		out[i] = in.nested(it, recurse)
		if !isMore(it) && !isNumeric(it) {
			numeric = false
		}
	}
	moreLast := arrayLike && len(shown) > 0 && isMore(shown[len(shown)-1])
	if len(extras) > 0 {
		for _, f := range extras {
			out = append(out, in.entry(f, recurse))
		}
		// groupArrayElements pads numbers to the right only when every entry
		// it groups is an element that is a number (value[i] for an extra is
		// not), and leaves the last entry out of the columns when there are
		// more than maxArrayLength (100) entries, whatever it is.
		numeric = numeric && moreLast
		moreLast = len(out) > 100
	}
	var num *bool
	if arrayLike {
		num = &numeric
	}
	return in.reduce(out, ref, open, close, moreLast, recurse, num)
}

// capItems keeps a table cell's first maxItems items and counts the rest.
func (in *inspector) capItems(items []any) []any {
	n, rest := 0, 0
	var kept []any
	for _, it := range items {
		if m, ok := it.(Tagged); ok && m["$t"] == "more" {
			c, _ := strconv.Atoi(fmt.Sprint(m["count"]))
			rest += c
			continue
		}
		if n < in.maxItems {
			kept = append(kept, it)
			n++
		} else {
			rest++
		}
	}
	if rest > 0 {
		kept = append(kept, Tagged{"$t": "more", "count": rest})
	}
	return kept
}

func isMore(p any) bool {
	m, ok := p.(Tagged)
	return ok && m["$t"] == "more"
}

// isNumeric: inspect right-aligns grouped columns of numbers and BigInts.
func isNumeric(p any) bool {
	switch x := p.(type) {
	case int64, int, float64:
		return true
	case Tagged:
		return x["$t"] == "number" || x["$t"] == "bigint"
	}
	return false
}

// props lays out an object's properties: key: value.
func (in *inspector) props(props object, ref, prefix, cut string, recurse int) string {
	if len(props) == 0 {
		return prefix + "{}"
	}
	if recurse > in.depth {
		return cut
	}
	recurse++
	in.currentDepth = recurse
	out := make([]string, 0, len(props))
	state := ""
	for _, f := range props {
		switch {
		case f.Key == "[[state]]" && prefix == "Promise ": // formatPromise
			if state, _ = f.Value.(string); state == "pending" {
				out = append(out, "<pending>")
			}
		case f.Key == "[[result]]" && prefix == "Promise ":
			v := in.nested(f.Value, recurse)
			if state == "rejected" {
				v = "<rejected> " + v
			}
			out = append(out, v)
		default:
			out = append(out, in.entry(f, recurse))
		}
	}
	return in.reduce(out, ref, prefix+"{", "}", false, recurse, nil)
}

// nested lays out a value one level in (indented two more columns).
func (in *inspector) nested(v any, recurse int) string {
	in.indentLvl += 2
	defer func() { in.indentLvl -= 2 }()
	return in.value(v, recurse)
}

// entry lays out one property as inspect does: "key: value" (a string key
// quoted when it is not an identifier, a symbol key as written), or just
// what a cut ("…" key) says.
func (in *inspector) entry(f field, recurse int) string {
	v := in.nested(f.Value, recurse)
	switch {
	case f.Key == "…":
		return v
	case f.Symbol:
		return f.Key + ": " + v
	}
	return propKey(f.Key) + ": " + v
}

// reduce is inspect's reduceToSingleString with compact 3; numeric is
// non-nil for array-like output (grouped when it has more than 6 entries),
// whose last entry is "... n more items" when moreLast is set.
func (in *inspector) reduce(output []string, base, open, close string, moreLast bool, recurse int, numeric *bool) string {
	entries := len(output)
	if numeric != nil && entries > 6 {
		output = in.group(output, *numeric, moreLast)
	}
	lead := ""
	if base != "" {
		lead = base + " "
	}
	if in.currentDepth-recurse < inspectCompact && entries == len(output) {
		start := len(output) + in.indentLvl + utf16Len(open) + utf16Len(base) + 10
		if in.belowBreakLength(output, start, base) {
			joined := strings.Join(output, ", ")
			if !strings.Contains(joined, "\n") {
				return lead + open + " " + joined + " " + close
			}
		}
	}
	ind := "\n" + strings.Repeat(" ", in.indentLvl)
	return lead + open + ind + "  " + strings.Join(output, ","+ind+"  ") + ind + close
}

func (in *inspector) belowBreakLength(output []string, start int, base string) bool {
	total := len(output) + start
	if total+len(output) > in.breakLength {
		return false
	}
	for _, o := range output {
		total += utf16Len(o)
		if total > in.breakLength {
			return false
		}
	}
	return base == "" || !strings.Contains(base, "\n")
}

// group is inspect's groupArrayElements: many short entries in aligned
// columns, about as many rows as columns × 2.5.
func (in *inspector) group(output []string, numeric, moreLast bool) []string {
	const separatorSpace = 2
	outputLength := len(output)
	if moreLast {
		outputLength-- // the "more items" entry is not grouped
	}
	dataLen := make([]int, outputLength)
	totalLength, maxLength := 0, 0
	for i := 0; i < outputLength; i++ {
		l := stringWidth(output[i])
		dataLen[i] = l
		totalLength += l + separatorSpace
		maxLength = max(maxLength, l)
	}
	actualMax := maxLength + separatorSpace
	if actualMax*3+in.indentLvl >= in.breakLength || !(float64(totalLength)/float64(actualMax) > 5 || maxLength <= 6) {
		return output
	}
	const approxCharHeights = 2.5
	averageBias := math.Sqrt(float64(actualMax) - float64(totalLength)/float64(len(output)))
	biasedMax := math.Max(float64(actualMax)-3-averageBias, 1)
	columns := min(
		int(math.Floor(math.Sqrt(approxCharHeights*biasedMax*float64(outputLength))/biasedMax+0.5)), // Math.round
		(in.breakLength-in.indentLvl)/actualMax,
		inspectCompact*4,
		15,
	)
	if columns <= 1 {
		return output
	}
	maxLineLength := make([]int, columns)
	for i := 0; i < columns; i++ {
		lineMax := 0
		for j := i; j < outputLength; j += columns {
			lineMax = max(lineMax, dataLen[j])
		}
		maxLineLength[i] = lineMax + separatorSpace
	}
	pad := func(s string, width int, start bool) string {
		n := width - utf16Len(s)
		if n <= 0 {
			return s
		}
		if start {
			return strings.Repeat(" ", n) + s
		}
		return s + strings.Repeat(" ", n)
	}
	var tmp []string
	for i := 0; i < outputLength; i += columns {
		end := min(i+columns, outputLength)
		var b strings.Builder
		j := i
		for ; j < end-1; j++ {
			padding := maxLineLength[j-i] + utf16Len(output[j]) - dataLen[j]
			b.WriteString(pad(output[j]+", ", padding, numeric))
		}
		if numeric {
			padding := maxLineLength[j-i] + utf16Len(output[j]) - dataLen[j] - separatorSpace
			b.WriteString(pad(output[j], padding, true))
		} else {
			b.WriteString(output[j])
		}
		tmp = append(tmp, b.String())
	}
	if outputLength < len(output) {
		tmp = append(tmp, output[outputLength])
	}
	return tmp
}

// str quotes a nested string as strEscape does, split after each line
// break when it is long (formatPrimitive).
func (in *inspector) str(s string) string {
	if n := utf16Len(s); n > minLineLength && n > in.breakLength-in.indentLvl-4 && strings.Contains(s, "\n") {
		lines := strings.SplitAfter(s, "\n")
		if lines[len(lines)-1] == "" {
			lines = lines[:len(lines)-1]
		}
		for i, l := range lines {
			lines[i] = quoteJS(l)
		}
		return strings.Join(lines, " +\n"+strings.Repeat(" ", in.indentLvl+2))
	}
	return quoteJS(s)
}

func countShown(items []any) int {
	n := 0
	for _, it := range items {
		if m, ok := it.(Tagged); ok && m["$t"] == "more" {
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

// propKey prints a property key as inspect does: bare when it matches
// /^[a-zA-Z_][a-zA-Z_0-9]*$/, else quoted.
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
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || (i > 0 && c >= '0' && c <= '9') {
			continue
		}
		return false
	}
	return true
}

// quoteJS quotes s as inspect's strEscape does: single quotes, or double
// quotes when s has a single quote and no double one, or backquotes when it
// has both (and no backquote or "${"); control characters, the quote used,
// backslash and U+007F–U+009F escaped (\n, \x0B, \x7F), all else as is.
func quoteJS(s string) string {
	q := byte('\'')
	if strings.Contains(s, "'") {
		switch {
		case !strings.Contains(s, `"`):
			q = '"'
		case !strings.Contains(s, "`") && !strings.Contains(s, "${"):
			q = '`'
		}
	}
	var b strings.Builder
	b.Grow(len(s) + 2)
	b.WriteByte(q)
	for _, r := range s {
		switch {
		case r == '\'' && q == '\'':
			b.WriteString(`\'`)
		case r == '\\':
			b.WriteString(`\\`)
		case r < 0x20 || r >= 0x7f && r <= 0x9f:
			switch r {
			case '\b':
				b.WriteString(`\b`)
			case '\t':
				b.WriteString(`\t`)
			case '\n':
				b.WriteString(`\n`)
			case '\f':
				b.WriteString(`\f`)
			case '\r':
				b.WriteString(`\r`)
			default:
				fmt.Fprintf(&b, `\x%02X`, r)
			}
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte(q)
	return b.String()
}

// utf16Len is a JS string's length (UTF-16 code units).
func utf16Len(s string) int {
	n := 0
	for _, r := range s {
		n++
		if r > 0xffff {
			n++
		}
	}
	return n
}

// stringWidth is how many columns s takes in a terminal, as Node's
// getStringWidth counts them: East Asian wide and fullwidth characters
// two, combining marks and zero-width characters none.
func stringWidth(s string) int {
	n := 0
	for _, r := range s {
		switch {
		case r < 0x300:
			n++
		case unicode.Is(unicode.Mn, r) || unicode.Is(unicode.Me, r) || unicode.Is(unicode.Cf, r):
		default:
			if k := width.LookupRune(r).Kind(); k == width.EastAsianWide || k == width.EastAsianFullwidth {
				n += 2
			} else {
				n++
			}
		}
	}
	return n
}
