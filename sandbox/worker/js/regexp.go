package js

import (
	"fmt"
	"slices"
	"strings"
	"sync"
	"unicode"

	lru "github.com/hashicorp/golang-lru/v2"

	"github.com/dop251/goja"
	"github.com/dop251/goja/ast"

	"github.com/playground-dev/playground/sandbox/worker/js/inspect"
)

// Regular expressions goja does not match as Node does. goja parses
// \p{…} in a unicode pattern without error and then never matches it, and
// refuses the d (match indices) and v (set notation) flags. The bundler has
// esbuild turn every regex literal that uses one of these into a
// `new RegExp(pattern, flags)` call (libs.EngineFeatures), and the global
// RegExp is a Proxy of the intrinsic whose construct and call traps
// rewrite \p{…} and \P{…} into explicit character classes from Go's
// unicode tables (Unicode 15, as Node 20's ICU), and refuse d and v with a
// SyntaxError that names the flag, at the snippet's line. A property the
// tables lack (Emoji, Script_Extensions, …) is a SyntaxError that names it.

// installRegExp replaces the global RegExp with the rewriting Proxy.
func (e *Runtime) installRegExp() {
	vm := e.vm
	g := vm.GlobalObject()
	target := g.Get("RegExp").ToObject(vm)
	construct, _ := goja.AssertConstructor(target) // no Reflect: a plain run need not build it
	call, _ := goja.AssertFunction(target)
	fix := func(args []goja.Value) []goja.Value {
		if len(args) == 0 {
			return args
		}
		flags := ""
		if len(args) > 1 && !goja.IsUndefined(args[1]) {
			flags = args[1].String()
		}
		for _, f := range "dv" {
			if strings.ContainsRune(flags, f) {
				name := map[rune]string{'d': "d (match indices, hasIndices)", 'v': "v (unicode sets)"}[f]
				e.throw("SyntaxError", fmt.Sprintf("Invalid regular expression flags '%s': the %s flag is not supported in the playground", flags, name))
			}
		}
		s, ok := inspect.PrimitiveString(args[0]) // an object is never exported (getters, cycles)
		if !ok || !strings.Contains(flags, "u") || !strings.Contains(s, `\p{`) && !strings.Contains(s, `\P{`) {
			return args
		}
		out, err := rewriteUnicodeProperties(s)
		if err != nil {
			e.throw("SyntaxError", fmt.Sprintf("Invalid regular expression: /%s/%s: %v", s, flags, err))
		}
		args = slices.Clone(args)
		args[0] = vm.ToValue(out)
		return args
	}
	var self *goja.Object // the Proxy: `new RegExp` passes it as newTarget
	p := vm.NewProxy(target, &goja.ProxyTrapConfig{
		Construct: func(t *goja.Object, args []goja.Value, newTarget *goja.Object) *goja.Object {
			args = fix(args)
			if newTarget == t || newTarget == self { // not a subclass: its prototype is RegExp.prototype
				if v, ok := e.cachedRegExp(args); ok {
					return v.(*goja.Object)
				}
			}
			v, err := construct(newTarget, args...)
			if err != nil {
				panic(err)
			}
			return v
		},
		Apply: func(t *goja.Object, this goja.Value, args []goja.Value) goja.Value {
			args = fix(args)
			if v, ok := e.cachedRegExp(args); ok { // RegExp(string, flags) is new RegExp(string, flags)
				return v
			}
			v, err := call(this, args...)
			if err != nil {
				panic(err)
			}
			return v
		},
	})
	// goja's instanceof cannot see through a Proxy of a function; the
	// target's own @@hasInstance (which the Proxy forwards to) walks the
	// prototype chain as OrdinaryHasInstance does.
	proto := target.Get("prototype")
	must(target.DefineDataPropertySymbol(goja.SymHasInstance, vm.ToValue(func(c goja.FunctionCall) goja.Value {
		o, ok := c.Argument(0).(*goja.Object)
		for ok {
			pv, err := e.b.GetPrototypeOf(goja.Undefined(), o)
			if err != nil || goja.IsNull(pv) {
				return vm.ToValue(false)
			}
			if pv.StrictEquals(proto) {
				return vm.ToValue(true)
			}
			o, ok = pv.(*goja.Object)
		}
		return vm.ToValue(false)
	}), goja.FLAG_FALSE, goja.FLAG_FALSE, goja.FLAG_FALSE))
	po := vm.ToValue(p).(*goja.Object)
	self = po
	e.markNative(po, "RegExp") // the Proxy prints as the native constructor
	must(g.DefineDataProperty("RegExp", po, goja.FLAG_TRUE, goja.FLAG_TRUE, goja.FLAG_FALSE))
}

// regexpPrograms caches, per process, a program that is just the regex
// literal /pattern/flags for patterns that `new RegExp(string, flags)`
// builds at run time: goja compiles a literal's pattern once, when the
// program is compiled, and each evaluation makes a fresh RegExp object
// (ECMA-262 RegularExpressionLiteral evaluation), while new RegExp compiles
// the pattern again in every fresh runtime — a library such as
// validator builds its IPv4/IPv6 patterns that way at load, a third of its
// import. Keys are pattern + NUL + flags; at most 512 programs.
var regexpPrograms = sync.OnceValue(func() *lru.Cache[string, *goja.Program] {
	c, err := lru.New[string, *goja.Program](512)
	must(err)
	return c
})

// maxCachedPattern bounds the patterns regexpPrograms keeps (bytes).
const maxCachedPattern = 4 << 10

// cachedRegExp returns a fresh RegExp for args = (pattern, flags) from the
// program cache, or false when args are not a pattern string and a flags
// string (or none) that a literal can spell exactly: no "/", no line
// terminator, not empty, not starting with "*" (a comment), flags only
// from "gimsuy". Anything else — or a pattern goja refuses — takes the
// intrinsic constructor, which throws its own SyntaxError.
func (e *Runtime) cachedRegExp(args []goja.Value) (goja.Value, bool) {
	if len(args) == 0 || len(args) > 2 {
		return nil, false
	}
	pattern, ok := inspect.PrimitiveString(args[0])
	if !ok || pattern == "" || len(pattern) > maxCachedPattern || pattern[0] == '*' ||
		strings.ContainsAny(pattern, "/\n\r\u2028\u2029") {
		return nil, false
	}
	flags := ""
	if len(args) == 2 && !goja.IsUndefined(args[1]) {
		if flags, ok = inspect.PrimitiveString(args[1]); !ok || strings.Trim(flags, "gimsuy") != "" {
			return nil, false
		}
	}
	key := pattern + "\x00" + flags
	cache := regexpPrograms()
	prg, ok := cache.Get(key)
	if !ok {
		var err error
		if prg, err = goja.Compile("", "/"+pattern+"/"+flags, true); err != nil {
			return nil, false
		}
		cache.Add(key, prg)
	}
	v, err := e.vm.RunProgram(prg)
	if err != nil {
		return nil, false
	}
	return v, true
}

// rewriteUnicodeProperties replaces each \p{…} and \P{…} of a unicode
// pattern with the code point ranges it stands for: a class outside
// brackets, the bare ranges inside (the complement for \P).
func rewriteUnicodeProperties(s string) (string, error) {
	var b strings.Builder
	inClass := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '\\' && i+1 < len(s) && (s[i+1] == 'p' || s[i+1] == 'P') && i+2 < len(s) && s[i+2] == '{':
			end := strings.IndexByte(s[i:], '}')
			if end < 0 {
				return "", fmt.Errorf("invalid property name")
			}
			name := s[i+3 : i+end]
			tab, err := unicodeProperty(name)
			if err != nil {
				return "", err
			}
			negate := s[i+1] == 'P'
			if inClass {
				if negate {
					tab = complement(tab)
				}
				writeRanges(&b, tab)
			} else {
				b.WriteByte('[')
				if negate {
					b.WriteByte('^')
				}
				writeRanges(&b, tab)
				b.WriteByte(']')
			}
			i += end
		case c == '\\' && i+1 < len(s):
			b.WriteByte(c)
			b.WriteByte(s[i+1])
			i++
		case c == '[' && !inClass:
			inClass = true
			b.WriteByte(c)
		case c == ']' && inClass:
			inClass = false
			b.WriteByte(c)
		default:
			b.WriteByte(c)
		}
	}
	return b.String(), nil
}

// generalCategories maps the long General_Category names to Go's short ones.
var generalCategories = map[string]string{
	"Letter": "L", "Cased_Letter": "LC", "Uppercase_Letter": "Lu", "Lowercase_Letter": "Ll", "Titlecase_Letter": "Lt",
	"Modifier_Letter": "Lm", "Other_Letter": "Lo", "Mark": "M", "Combining_Mark": "M", "Nonspacing_Mark": "Mn",
	"Spacing_Mark": "Mc", "Enclosing_Mark": "Me", "Number": "N", "Decimal_Number": "Nd", "digit": "Nd",
	"Letter_Number": "Nl", "Other_Number": "No", "Punctuation": "P", "punct": "P", "Connector_Punctuation": "Pc",
	"Dash_Punctuation": "Pd", "Open_Punctuation": "Ps", "Close_Punctuation": "Pe", "Initial_Punctuation": "Pi",
	"Final_Punctuation": "Pf", "Other_Punctuation": "Po", "Symbol": "S", "Math_Symbol": "Sm", "Currency_Symbol": "Sc",
	"Modifier_Symbol": "Sk", "Other_Symbol": "So", "Separator": "Z", "Space_Separator": "Zs", "Line_Separator": "Zl",
	"Paragraph_Separator": "Zp", "Other": "C", "Control": "Cc", "cntrl": "Cc", "Format": "Cf", "Surrogate": "Cs",
	"Private_Use": "Co", "Unassigned": "Cn",
}

// unicodeProperty returns the table a property escape's name stands for
// (ECMA-262 UnicodeMatchProperty: General_Category and Script values,
// and the binary properties Go's unicode package has).
func unicodeProperty(name string) (*unicode.RangeTable, error) {
	key, value, hasValue := strings.Cut(name, "=")
	if hasValue {
		switch key {
		case "General_Category", "gc":
			return generalCategory(value)
		case "Script", "sc":
			if t, ok := unicode.Scripts[value]; ok {
				return t, nil
			}
			return nil, fmt.Errorf("invalid property name (unknown script %q)", value)
		case "Script_Extensions", "scx":
			return nil, fmt.Errorf("invalid property name: Script_Extensions is not supported in the playground")
		}
		return nil, fmt.Errorf("invalid property name %q", name)
	}
	if t, err := generalCategory(name); err == nil {
		return t, nil
	}
	switch name {
	case "Any":
		return &unicode.RangeTable{R16: []unicode.Range16{{0, 0xffff, 1}}, R32: []unicode.Range32{{0x10000, 0x10ffff, 1}}}, nil
	case "ASCII":
		return &unicode.RangeTable{R16: []unicode.Range16{{0, 0x7f, 1}}}, nil
	case "Assigned":
		return complement(unassigned()), nil
	case "Alphabetic", "Alpha":
		return merge(unicode.L, unicode.Nl, unicode.Other_Alphabetic), nil
	case "Uppercase", "Upper":
		return merge(unicode.Lu, unicode.Other_Uppercase), nil
	case "Lowercase", "Lower":
		return merge(unicode.Ll, unicode.Other_Lowercase), nil
	case "White_Space", "space":
		return unicode.White_Space, nil
	}
	if t, ok := unicode.Properties[name]; ok {
		return t, nil
	}
	return nil, fmt.Errorf("invalid property name: \\p{%s} is not supported in the playground", name)
}

func generalCategory(name string) (*unicode.RangeTable, error) {
	if short, ok := generalCategories[name]; ok {
		name = short
	}
	switch name {
	case "LC":
		return merge(unicode.Lu, unicode.Ll, unicode.Lt), nil
	case "Cn":
		return unassigned(), nil
	case "C":
		return merge(unicode.C, unassigned()), nil
	}
	if t, ok := unicode.Categories[name]; ok {
		return t, nil
	}
	return nil, fmt.Errorf("invalid property name")
}

// interval is a closed range of code points.
type interval struct{ lo, hi rune }

func intervals(t *unicode.RangeTable) []interval {
	var out []interval
	add := func(lo, hi, stride rune) {
		if stride == 1 {
			out = append(out, interval{lo, hi})
			return
		}
		for r := lo; r <= hi; r += stride {
			out = append(out, interval{r, r})
		}
	}
	for _, r := range t.R16 {
		add(rune(r.Lo), rune(r.Hi), rune(r.Stride))
	}
	for _, r := range t.R32 {
		add(rune(r.Lo), rune(r.Hi), rune(r.Stride))
	}
	return normalize(out)
}

func normalize(in []interval) []interval {
	slices.SortFunc(in, func(a, b interval) int { return int(a.lo - b.lo) })
	var out []interval
	for _, iv := range in {
		if n := len(out); n > 0 && iv.lo <= out[n-1].hi+1 {
			out[n-1].hi = max(out[n-1].hi, iv.hi)
			continue
		}
		out = append(out, iv)
	}
	return out
}

func fromIntervals(ivs []interval) *unicode.RangeTable {
	t := &unicode.RangeTable{}
	for _, iv := range ivs {
		t.R32 = append(t.R32, unicode.Range32{Lo: uint32(iv.lo), Hi: uint32(iv.hi), Stride: 1})
	}
	return t
}

func merge(ts ...*unicode.RangeTable) *unicode.RangeTable {
	var all []interval
	for _, t := range ts {
		all = append(all, intervals(t)...)
	}
	return fromIntervals(normalize(all))
}

func complement(t *unicode.RangeTable) *unicode.RangeTable {
	var out []interval
	next := rune(0)
	for _, iv := range intervals(t) {
		if iv.lo > next {
			out = append(out, interval{next, iv.lo - 1})
		}
		next = iv.hi + 1
	}
	if next <= unicode.MaxRune {
		out = append(out, interval{next, unicode.MaxRune})
	}
	return fromIntervals(out)
}

// unassigned is General_Category=Cn: every code point no category holds.
func unassigned() *unicode.RangeTable {
	var all []*unicode.RangeTable
	for name, t := range unicode.Categories {
		if len(name) == 2 { // the leaf categories
			all = append(all, t)
		}
	}
	return complement(merge(all...))
}

func writeRanges(b *strings.Builder, t *unicode.RangeTable) {
	for _, iv := range intervals(t) {
		fmt.Fprintf(b, `\u{%X}`, iv.lo)
		if iv.hi != iv.lo {
			fmt.Fprintf(b, `-\u{%X}`, iv.hi)
		}
	}
}

// rewriteRegExpLiteral rewrites \p{…} in a unicode regex literal of a
// parsed bundle (esbuild leaves a literal whose \p{…} is inside a class as
// a literal; Compile calls it for each). Only the pattern goja compiles
// changes; positions, and so the source map, do not.
func rewriteRegExpLiteral(re *ast.RegExpLiteral) error {
	if strings.Contains(re.Flags, "u") && (strings.Contains(re.Pattern, `\p{`) || strings.Contains(re.Pattern, `\P{`)) {
		out, err := rewriteUnicodeProperties(re.Pattern)
		if err != nil {
			return fmt.Errorf("SyntaxError: Invalid regular expression: /%s/%s: %v", re.Pattern, re.Flags, err)
		}
		re.Pattern = out
	}
	return nil
}
