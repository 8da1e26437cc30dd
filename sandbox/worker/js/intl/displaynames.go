package intl

import (
	"regexp"
	"strings"

	"github.com/dop251/goja"
)

// Intl.DisplayNames for the types region, script, currency and language,
// its names recorded from Node 20's ICU by data/gen_names.mjs
// (data/names.json.gz, compacted into data/names.bin): x/text's display
// names are CLDR's of another year ("Turkey" where ICU says "Türkiye"),
// and a name that is not Node's is a wrong value.

type namesData struct {
	Locales map[string]*localeNames
}

type localeNames struct {
	Pattern, Separator       string // "{0} ({1})", ", ": a language and its qualifiers
	Region, Script, Currency styledNames
	Language                 styledNames
	Dialect                  styledNames // "en-US" → "American English"
}

// styledNames are a type's names by style; Short and Narrow hold only
// the names that differ from Long's.
type styledNames struct{ Long, Short, Narrow strMap }

// style returns the names of style, or nil for "long".
func (s *styledNames) style(style string) *strMap {
	switch style {
	case "short":
		return &s.Short
	case "narrow":
		return &s.Narrow
	}
	return nil
}

func (s *styledNames) name(style, code string) (string, bool) {
	if m := s.style(style); m != nil {
		if v, ok := m.get(code); ok {
			return v, true
		}
	}
	return s.Long.get(code)
}

// loadNames reads data/names.bin (tables_test.go's writeNames): each
// locale's pattern, separator, and names of each type.
var loadNames = lazy("names", func() *namesData {
	r := &tableReader{name: "data/names.bin", s: namesTable}
	d := &namesData{Locales: map[string]*localeNames{}}
	for range r.num() {
		loc := r.str()
		n := &localeNames{Pattern: r.str(), Separator: r.str()}
		for _, sn := range n.types() {
			*sn = styledNames{r.strMap(), r.strMap(), r.strMap()}
		}
		d.Locales[loc] = n
	}
	r.done()
	return d
})

// types returns n's names by type, in the order of names.bin.
func (n *localeNames) types() []*styledNames {
	return []*styledNames{&n.Region, &n.Script, &n.Currency, &n.Language, &n.Dialect}
}

var displayNamesLocales = localeMap(numberLocaleList)

type displayNames struct {
	locale, data                      string
	style, typ, fallback, langDisplay string
}

var (
	regionCode   = regexp.MustCompile(`^([A-Za-z]{2}|[0-9]{3})$`)
	scriptCode   = regexp.MustCompile(`^[A-Za-z]{4}$`)
	currencyCode = regexp.MustCompile(`^[A-Za-z]{3}$`)
	// unicode_language_id: language, script, region, variants
	languageID = regexp.MustCompile(`^([A-Za-z]{2,3}|[A-Za-z]{5,8})(-[A-Za-z]{4})?(-([A-Za-z]{2}|[0-9]{3}))?(-([A-Za-z0-9]{5,8}|[0-9][A-Za-z0-9]{3}))*$`)
)

func (e *env) newDisplayNames(api string, locales, options goja.Value) *displayNames {
	requested := e.canonicalLocaleList(locales)
	if options == nil || goja.IsUndefined(options) {
		e.typeError("invalid_argument")
	}
	o := e.getOptionsObject(api, options)
	o.str("localeMatcher", []string{"lookup", "best fit"}, "best fit")
	r := e.resolveLocale(api, requested, displayNamesLocales)
	d := &displayNames{locale: r.locale, data: r.data}
	d.style = o.str("style", []string{"narrow", "short", "long"}, "long")
	d.typ = o.str("type", []string{"language", "region", "script", "currency", "calendar", "dateTimeField"}, "", "calendar", "dateTimeField")
	if d.typ == "" {
		e.typeError("invalid_argument")
	}
	d.fallback = o.str("fallback", []string{"code", "none"}, "code")
	d.langDisplay = o.str("languageDisplay", []string{"dialect", "standard"}, "dialect")
	return d
}

// of is Intl.DisplayNames.prototype.of: the code checked as the type's
// grammar requires (a RangeError otherwise), its name, or the code or
// undefined (fallback) when there is none.
func (e *env) displayNameOf(d *displayNames, code string) goja.Value {
	n := loadNames().Locales[d.data]
	var name string
	var ok bool
	switch d.typ {
	case "region":
		if code == "" {
			return e.vm.ToValue("") // as V8
		}
		if !regionCode.MatchString(code) {
			e.rangeError("invalid_argument")
		}
		name, ok = n.Region.name(d.style, code)
	case "script":
		if !scriptCode.MatchString(code) {
			e.rangeError("invalid_argument")
		}
		name, ok = n.Script.name(d.style, code)
	case "currency":
		if !currencyCode.MatchString(code) {
			e.rangeError("invalid_argument")
		}
		name, ok = n.Currency.name(d.style, strings.ToUpper(code))
	case "language":
		if !languageID.MatchString(code) {
			e.rangeError("invalid_argument")
		}
		name, ok = e.languageName(d, n, code)
	}
	if ok {
		return e.vm.ToValue(name)
	}
	if d.fallback == "none" {
		return goja.Undefined()
	}
	return e.vm.ToValue(code)
}

// languageName composes a language tag's name as ICU does: a dialect
// name for language-region or language-script where the locale has one,
// otherwise the language's name with its script and region in the
// locale's pattern. A tag with variants is a RangeError (their names are
// not recorded).
func (e *env) languageName(d *displayNames, n *localeNames, code string) (string, bool) {
	// the case ICU writes each subtag in; the language's own aliases
	// (iw, mo, tl) are in the recorded names, as Node names them
	parts := strings.Split(code, "-")
	lang, script, region := strings.ToLower(parts[0]), "", ""
	for _, p := range parts[1:] {
		switch {
		case len(p) == 4 && script == "" && region == "" && !isDigit(p[0]):
			script = strings.ToUpper(p[:1]) + strings.ToLower(p[1:])
		case (len(p) == 2 || len(p) == 3 && isDigit(p[0])) && region == "":
			region = strings.ToUpper(p)
		default:
			e.rangeError("Intl.DisplayNames: the language tag %q has a variant (%s), whose name the playground does not have", code, p)
		}
	}
	canon := lang
	for _, q := range []string{script, region} {
		if q != "" {
			canon += "-" + q
		}
	}
	if d.langDisplay == "dialect" && (script == "") != (region == "") {
		m := n.Dialect.style(d.style)
		if m == nil {
			m = &n.Dialect.Long
		}
		if v, ok := m.get(canon); ok {
			return v, true
		}
	}
	name, ok := n.Language.name(d.style, lang)
	if !ok {
		if d.fallback == "none" {
			return "", false
		}
		name = lang
	}
	var quals []string
	for _, q := range []struct {
		code  string
		names *styledNames
	}{{script, &n.Script}, {region, &n.Region}} {
		if q.code == "" {
			continue
		}
		v, ok := q.names.name(d.style, q.code)
		if !ok {
			if d.fallback == "none" {
				return "", false
			}
			v = q.code
		}
		quals = append(quals, v)
	}
	if len(quals) == 0 {
		return name, true
	}
	// inside the pattern's parentheses a name's own are brackets, as
	// ICU writes them: "コンゴ民主共和国[キンシャサ]"
	brackets := strings.NewReplacer("(", "[", ")", "]", "（", "［", "）", "］")
	for i, q := range quals {
		quals[i] = brackets.Replace(q)
	}
	return strings.NewReplacer("{0}", brackets.Replace(name), "{1}", strings.Join(quals, n.Separator)).Replace(n.Pattern), true
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

func (e *env) installDisplayNames(ns *goja.Object) {
	const api = "Intl.DisplayNames"
	ctor, proto := e.class(ns, "DisplayNames", 2, false, func(args []goja.Value) any {
		return e.newDisplayNames(api, arg(args, 0), arg(args, 1))
	})
	e.method(ctor, "supportedLocalesOf", 1, e.supportedLocalesOf(api, func() map[string]string { return displayNamesLocales }))
	e.method(proto, "resolvedOptions", 0, func(c goja.FunctionCall) goja.Value {
		d := stateOf[*displayNames](e, c.This, "Intl.DisplayNames.prototype.resolvedOptions")
		r := []kv{{"locale", d.locale}, {"style", d.style}, {"type", d.typ}, {"fallback", d.fallback}}
		if d.typ == "language" {
			r = append(r, kv{"languageDisplay", d.langDisplay})
		}
		return e.object(r)
	})
	e.method(proto, "of", 1, func(c goja.FunctionCall) goja.Value {
		d := stateOf[*displayNames](e, c.This, "Intl.DisplayNames.prototype.of")
		return e.displayNameOf(d, e.toString(c.Argument(0)))
	})
}
