package parity

import (
	"fmt"
	"slices"
	"strings"
	"unicode"

	"github.com/dop251/goja/ast"
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
//
// Patch for: goja accepts \p{…} in a unicode pattern and never matches
// it, and refuses the d and v flags. Upstream: dop251/goja#715 ("Enable
// unicode matchers in regexp", open pull request as of 2026-11); the same
// gap in k6's fork is grafana/sobek#18. Delete this file, js.installRegExp
// and the libs.EngineFeatures rewrite when goja matches \p{…}.

// RewriteUnicodeProperties replaces each \p{…} and \P{…} of a unicode
// pattern with the code point ranges it stands for: a class outside
// brackets, the bare ranges inside (the complement for \P).
func RewriteUnicodeProperties(s string) (string, error) {
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

// RewriteRegExpLiteral rewrites \p{…} in a unicode regex literal of a
// parsed bundle (esbuild leaves a literal whose \p{…} is inside a class as
// a literal; Compile calls it for each). Only the pattern goja compiles
// changes; positions, and so the source map, do not.
func RewriteRegExpLiteral(re *ast.RegExpLiteral) error {
	if strings.Contains(re.Flags, "u") && (strings.Contains(re.Pattern, `\p{`) || strings.Contains(re.Pattern, `\P{`)) {
		out, err := RewriteUnicodeProperties(re.Pattern)
		if err != nil {
			return fmt.Errorf("SyntaxError: Invalid regular expression: /%s/%s: %v", re.Pattern, re.Flags, err)
		}
		re.Pattern = out
	}
	return nil
}
