package parity

import (
	"golang.org/x/text/cases"
	"golang.org/x/text/language"
)

// localeCase is s upper-cased (or lower-cased) with the special casing
// rules of the locale tag, as V8 (ICU) applies them for Turkish and
// Azeri (dotted and dotless i) and Lithuanian (the dot above kept or
// dropped): golang.org/x/text/cases has the same rules from the Unicode
// SpecialCasing data. ok is false for a locale without special rules,
// whose case mapping is the locale-independent one.
func localeCase(s string, tag language.Tag, upper bool) (_ string, ok bool) {
	base, _ := tag.Base()
	switch base.String() {
	case "tr", "az", "lt":
	default:
		return "", false
	}
	t := language.Make(base.String())
	if upper {
		return cases.Upper(t).String(s), true
	}
	return cases.Lower(t).String(s), true
}
