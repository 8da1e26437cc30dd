package intl

import (
	"slices"
	"strings"
	"unicode"

	"github.com/dop251/goja"
	"golang.org/x/text/collate"
	"golang.org/x/text/language"
	"golang.org/x/text/unicode/norm"
)

// collatorLocales are the locales Collator takes: every language
// golang.org/x/text/collate has CLDR collation data for, alone or with a
// region of numberLocaleList or a few more ("sv", "sv-SE"); the data is
// that of the language.
var collatorLocales = lazy("collatorLocales", func() map[string]string {
	m := map[string]string{}
	for _, t := range collate.Supported() {
		if len(t.Extensions()) == 0 && len(t.Variants()) == 0 {
			m[t.String()] = t.String()
		}
	}
	for _, l := range append(slices.Clone(numberLocaleList), "en-AU", "en-CA", "en-NZ", "en-IE", "fr-CA", "fr-BE", "fr-CH",
		"it-CH", "nl-BE", "es-AR", "es-CO", "es-US") {
		lang, _, _ := strings.Cut(l, "-")
		if _, ok := m[lang]; ok {
			m[l] = lang
		}
	}
	return m
})

type collator struct {
	locale, data string
	sensitivity  string
	numeric      bool
	ignorePunct  bool
	col          *collate.Collator
	boundCompare *goja.Object
}

// collators caches x/text collators (which are not safe for concurrent
// use) per runtime: a snippet sorting with localeCompare builds one.
type collatorKey struct {
	data, sensitivity string
	numeric, punct    bool
}

func (e *env) newCollator(api string, locales, options goja.Value) *collator {
	requested := e.canonicalLocaleList(locales)
	o := e.coerceOptions(api, options)
	o.str("usage", []string{"sort", "search"}, "sort", "search")
	o.str("localeMatcher", []string{"lookup", "best fit"}, "best fit")
	if v := o.get("collation"); !goja.IsUndefined(v) {
		if s := e.toString(v); s != "default" {
			e.rangeError("%s: collation %q is not supported in the playground", api, s)
		}
	}
	_, numeric := o.boolean("numeric")
	o.str("caseFirst", []string{"upper", "lower", "false"}, "false", "upper", "lower")
	r := e.resolveLocale(api, requested, collatorLocales())
	c := &collator{locale: r.locale, data: r.data, numeric: numeric}
	c.sensitivity = o.str("sensitivity", []string{"base", "accent", "case", "variant"}, "variant")
	_, c.ignorePunct = o.boolean("ignorePunctuation")
	return c
}

func (e *env) collatorFor(c *collator) *collate.Collator {
	if c.col != nil {
		return c.col
	}
	key := collatorKey{c.data, c.sensitivity, c.numeric, c.ignorePunct}
	if e.collators == nil {
		e.collators = map[collatorKey]*collate.Collator{}
	}
	if col, ok := e.collators[key]; ok {
		c.col = col
		return col
	}
	var opts []collate.Option
	switch c.sensitivity {
	case "base":
		opts = append(opts, collate.IgnoreCase, collate.IgnoreDiacritics)
	case "accent":
		opts = append(opts, collate.IgnoreCase)
	case "case":
		// prepare strips the diacritics
	}
	if c.numeric {
		opts = append(opts, collate.Numeric)
	}
	tag := language.MustParse(c.data)
	c.col = collate.New(tag, opts...)
	e.collators[key] = c.col
	return c.col
}

func (e *env) compare(c *collator, a, b goja.Value) goja.Value {
	x, y := e.toString(a), e.toString(b)
	return e.vm.ToValue(e.collatorFor(c).CompareString(c.prepare(x), c.prepare(y)))
}

func (c *collator) resolvedOptions() []kv {
	return []kv{{"locale", c.locale}, {"usage", "sort"}, {"sensitivity", c.sensitivity}, {"ignorePunctuation", c.ignorePunct},
		{"collation", "default"}, {"numeric", c.numeric}, {"caseFirst", "false"}}
}

func (e *env) installCollator(ns *goja.Object) *goja.Object {
	const api = "Intl.Collator"
	ctor, proto := e.class(ns, "Collator", 0, true, func(args []goja.Value) any {
		return e.newCollator(api, arg(args, 0), arg(args, 1))
	})
	e.method(ctor, "supportedLocalesOf", 1, e.supportedLocalesOf(api, collatorLocales))
	e.getter(proto, "compare", func(call goja.FunctionCall) goja.Value {
		c := stateOf[*collator](e, call.This, "get Intl.Collator.prototype.compare")
		if c.boundCompare == nil {
			c.boundCompare = e.function("", 2, func(call goja.FunctionCall) goja.Value {
				return e.compare(c, call.Argument(0), call.Argument(1))
			})
		}
		return c.boundCompare
	})
	e.method(proto, "resolvedOptions", 0, func(call goja.FunctionCall) goja.Value {
		c := stateOf[*collator](e, call.This, "Intl.Collator.prototype.resolvedOptions")
		return e.object(c.resolvedOptions())
	})
	return proto
}

// prepare does what x/text's collator cannot: sensitivity "case" strips
// diacritics (its IgnoreDiacritics still orders "a" before "á" at the
// tertiary level) and ignorePunctuation strips punctuation and spaces
// (ICU's alternate=shifted at tertiary strength; x/text's "ka-shifted"
// makes every string equal).
func (c *collator) prepare(s string) string {
	if c.sensitivity == "case" {
		s = stripMarks(s)
	}
	if c.ignorePunct {
		s = strings.Map(func(r rune) rune {
			if unicode.IsPunct(r) || unicode.IsSpace(r) || unicode.In(r, unicode.Zs) {
				return -1
			}
			return r
		}, s)
	}
	return s
}

// stripMarks removes combining marks (after canonical decomposition).
func stripMarks(s string) string {
	var b strings.Builder
	for _, r := range norm.NFD.String(s) {
		if !unicode.Is(unicode.Mn, r) {
			b.WriteRune(r)
		}
	}
	return b.String()
}
