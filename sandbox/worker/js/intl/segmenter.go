package intl

import (
	"math"
	"unicode"

	"github.com/dop251/goja"
	"github.com/rivo/uniseg"
)

// Intl.Segmenter on github.com/rivo/uniseg (Unicode's UAX #29 rules for
// grapheme clusters, words and sentences; ICU's rules are the same
// standard's). Where ICU departs from UAX #29 — word breaks in Chinese,
// Japanese, Thai, Lao, Khmer and Myanmar text come from its dictionaries —
// segment() throws a RangeError naming the character instead of
// splitting the text differently from Node.

var segmenterLocales = localeMap(numberLocaleList)

type segmenter struct {
	locale, granularity string
}

// segments is what segment() returns: the string and its boundaries in
// UTF-16 code units, found on first use.
type segments struct {
	s      *segmenter
	input  goja.String
	bounds []int // starts of the segments, then the string's length
	words  []bool
	ready  bool
}

func (e *env) newSegmenter(api string, locales, options goja.Value) *segmenter {
	requested := e.canonicalLocaleList(locales)
	o := e.getOptionsObject(api, options)
	o.str("localeMatcher", []string{"lookup", "best fit"}, "best fit")
	r := e.resolveLocale(api, requested, segmenterLocales)
	g := o.str("granularity", []string{"grapheme", "word", "sentence"}, "grapheme")
	return &segmenter{locale: r.locale, granularity: g}
}

// dictionaryScript reports whether ICU breaks words in r's script with a
// dictionary rather than UAX #29's rules.
func dictionaryScript(r rune) bool {
	return unicode.In(r, unicode.Han, unicode.Hiragana, unicode.Katakana, unicode.Thai, unicode.Lao, unicode.Khmer, unicode.Myanmar)
}

// conjunct reports a virama that links consonants into one grapheme
// cluster under Unicode 15.1's GB9c (Indic_Conjunct_Break=Linker: those of
// Bengali, Devanagari, Gujarati, Malayalam, Oriya, Telugu) followed, past
// marks and joiners, by a letter.
func conjunct(s string) (rune, bool) {
	linker := rune(0)
	for _, r := range s {
		switch {
		case r == 0x094D || r == 0x09CD || r == 0x0ACD || r == 0x0B4D || r == 0x0C4D || r == 0x0D4D:
			linker = r
		case linker != 0 && (unicode.Is(unicode.Mn, r) || r == 0x200D):
		case linker != 0 && unicode.IsLetter(r):
			return linker, true
		default:
			linker = 0
		}
	}
	return 0, false
}

// split finds the segments of the input.
func (e *env) split(sg *segments) {
	if sg.ready {
		return
	}
	sg.ready = true
	s := sg.input.String() // a lone surrogate becomes U+FFFD: one code unit either way
	switch sg.s.granularity {
	case "word":
		for _, r := range s {
			if dictionaryScript(r) {
				e.rangeError("Intl.Segmenter: word segmentation of %q (Chinese, Japanese, Thai, Lao, Khmer or Myanmar text) uses ICU's dictionaries in Node, which the playground does not have (UAX #29's rules split it differently)", string(r))
			}
		}
	case "grapheme":
		if r, ok := conjunct(s); ok {
			e.rangeError("Intl.Segmenter: grapheme clusters across an Indic conjunct (the virama U+%04X before a consonant) follow Unicode 15.1's rule GB9c in Node, which the playground's UAX #29 (Unicode 15.0) does not have", r)
		}
	}
	pos := 0 // in UTF-16 code units
	state := -1
	for len(s) > 0 {
		var seg string
		switch sg.s.granularity {
		case "grapheme":
			seg, s, _, state = uniseg.FirstGraphemeClusterInString(s, state)
		case "word":
			seg, s, state = uniseg.FirstWordInString(s, state)
		default:
			seg, s, state = uniseg.FirstSentenceInString(s, state)
		}
		sg.bounds = append(sg.bounds, pos)
		word := false
		for _, r := range seg {
			if r >= 0x10000 {
				pos += 2
			} else {
				pos++
			}
			word = word || unicode.IsLetter(r) || unicode.IsNumber(r)
		}
		sg.words = append(sg.words, word)
	}
	sg.bounds = append(sg.bounds, pos)
}

// segmentData is CreateSegmentDataObject for segment i.
func (e *env) segmentData(sg *segments, i int) goja.Value {
	o := e.vm.NewObject()
	start, end := sg.bounds[i], sg.bounds[i+1]
	_ = o.Set("segment", sg.input.Substring(start, end))
	_ = o.Set("index", start)
	_ = o.Set("input", sg.input)
	if sg.s.granularity == "word" {
		_ = o.Set("isWordLike", sg.words[i])
	}
	return o
}

func (e *env) installSegmenter(ns *goja.Object) *goja.Object {
	const api = "Intl.Segmenter"
	vm := e.vm
	ctor, proto := e.class(ns, "Segmenter", 0, false, func(args []goja.Value) any {
		return e.newSegmenter(api, arg(args, 0), arg(args, 1))
	})
	e.method(ctor, "supportedLocalesOf", 1, e.supportedLocalesOf(api, func() map[string]string { return segmenterLocales }))
	e.method(proto, "resolvedOptions", 0, func(c goja.FunctionCall) goja.Value {
		s := stateOf[*segmenter](e, c.This, "Intl.Segmenter.prototype.resolvedOptions")
		return e.object([]kv{{"locale", s.locale}, {"granularity", s.granularity}})
	})
	// %SegmentsPrototype% and %SegmentIteratorPrototype%, made at the
	// first segment(): a run that never segments does not pay for them
	var segmentsProto *goja.Object
	protos := func() *goja.Object {
		if segmentsProto != nil {
			return segmentsProto
		}
		segmentsProto = vm.NewObject()
		iterProto := vm.NewObject()
		_ = iterProto.SetPrototype(iteratorPrototype(vm))
		tag(vm, iterProto, "Segmenter String Iterator")
		e.method(segmentsProto, "containing", 1, func(c goja.FunctionCall) goja.Value {
			sg := stateOf[*segments](e, c.This, "%Segments.prototype%.containing")
			n := c.Argument(0).ToFloat()
			if math.IsNaN(n) {
				n = 0
			}
			n = math.Trunc(n)
			if n < 0 || n >= float64(sg.input.Length()) {
				return goja.Undefined()
			}
			e.split(sg)
			i := 0
			for i+1 < len(sg.bounds)-1 && sg.bounds[i+1] <= int(n) {
				i++
			}
			return e.segmentData(sg, i)
		})
		iter := e.function("[Symbol.iterator]", 0, func(c goja.FunctionCall) goja.Value {
			sg := stateOf[*segments](e, c.This, "%Segments.prototype%[@@iterator]")
			it := &segmentIterator{sg: sg}
			o := vm.NewDynamicObject(&instance{state: it})
			_ = o.SetPrototype(iterProto)
			return o
		})
		_ = segmentsProto.DefineDataPropertySymbol(goja.SymIterator, iter, goja.FLAG_TRUE, goja.FLAG_TRUE, goja.FLAG_FALSE)
		e.method(iterProto, "next", 0, func(c goja.FunctionCall) goja.Value {
			it := stateOf[*segmentIterator](e, c.This, "%SegmentIterator.prototype%.next")
			e.split(it.sg)
			r := vm.NewObject()
			if it.i >= len(it.sg.bounds)-1 {
				_ = r.Set("value", goja.Undefined())
				_ = r.Set("done", true)
				return r
			}
			_ = r.Set("value", e.segmentData(it.sg, it.i))
			_ = r.Set("done", false)
			it.i++
			return r
		})
		return segmentsProto
	}
	e.method(proto, "segment", 1, func(c goja.FunctionCall) goja.Value {
		s := stateOf[*segmenter](e, c.This, "Intl.Segmenter.prototype.segment")
		v := c.Argument(0)
		if _, ok := v.(*goja.Symbol); ok {
			e.typeError("Cannot convert a Symbol value to a string")
		}
		str, ok := v.ToString().(goja.String)
		if !ok {
			str = vm.ToValue(v.String()).(goja.String)
		}
		sg := &segments{s: s, input: str}
		if s.granularity == "word" {
			e.split(sg) // the dictionary scripts' error at segment(), as Node would have split there
		}
		o := vm.NewDynamicObject(&instance{state: sg})
		_ = o.SetPrototype(protos())
		return o
	})
	return proto
}

// iteratorPrototype is %IteratorPrototype%: the prototype of an array
// iterator's prototype.
func iteratorPrototype(vm *goja.Runtime) *goja.Object {
	arr := vm.NewArray()
	if f, ok := goja.AssertFunction(arr.GetSymbol(goja.SymIterator)); ok {
		if it, err := f(arr); err == nil {
			if p := it.ToObject(vm).Prototype(); p != nil {
				return p.Prototype()
			}
		}
	}
	panic("intl: no %IteratorPrototype%")
}

type segmentIterator struct {
	sg *segments
	i  int
}
