package intl

import (
	"bytes"
	"compress/gzip"
	"embed"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"slices"
	"strconv"
	"strings"
)

//go:embed data/data.json data/dates-*.txt.gz data/units.json.gz data/ranges-*.txt.gz data/names.json.gz
var dataFS embed.FS

// numberData is how one locale writes numbers (data/data.json, recorded
// from Node 20's ICU by data/gen.mjs). Patterns: {s} the sign, {n} the
// digits, {c} the currency, {p} the percent sign; "{{" a literal "{".
type numberData struct {
	Decimal, Group  string
	MinGrouping     int  // the fewest integer digits grouped is 3+MinGrouping ("auto")
	Indian          bool // groups of 2 above the first 3 (12,34,567)
	Minus, Plus     string
	Infinity, NaN   string
	Percent         string // the pattern of a negative percentage
	PercentPositive string
	PercentSign     string
	Currency        map[string]currencyData // "EUR/symbol", "EUR/narrowSymbol", "EUR/code"
}

type currencyData struct {
	Pattern, Positive string // of a negative amount, of a positive one
	Symbol            string
	Group, Decimal    string // the monetary separators ("" for a currency without fraction digits)
}

type listData struct{ Pair, Start, Middle, End string }

type rtfData struct {
	PastOne, PastOther, FutureOne, FutureOther string // patterns, {n} the number
	Auto                                       map[string]string
}

type recorded struct {
	ICU            string
	Numbers        map[string]*numberData
	CurrencyDigits map[string]int
	Lists          map[string]map[string]listData // locale → "type/style"
	RTF            map[string]map[string]rtfData  // locale → "style/unit"
}

var loadData = lazy("data.json", func() *recorded {
	b, err := dataFS.ReadFile("data/data.json")
	if err != nil {
		panic(err)
	}
	var d recorded
	if err := json.Unmarshal(b, &d); err != nil {
		panic("intl: data/data.json: " + err.Error())
	}
	return &d
})

func currencyList() []string {
	d := loadData()
	out := make([]string, 0, len(d.CurrencyDigits))
	for c := range d.CurrencyDigits {
		out = append(out, c)
	}
	return out
}

// dateData is one locale's date-time patterns: by component key (see
// data/gen.mjs) or "style:DATE:TIME:HC", and its names
// ("month.short" → 12 names, "weekday.long" → 7 from Sunday,
// "dayPeriod" → AM, PM).
//
// It is held without pointers to scan (compact.go): the keys are one
// sorted strList shared by the locales of a kind of data (dates or
// ranges), index gives each key's pattern, and a pattern's fields are
// one byte each (1 + the field's number in fields), expanded when looked
// up. The names are a small map of their own copies.
type dateData struct {
	keys     *strList // the kind's keys, in order
	index    []uint16 // by key: 1 + the number of its pattern in patterns; 0 none
	patterns strList  // compacted
	fields   []string // the kind's field names ("month.short"), by code-1
	names    map[string][]string
}

// pattern returns the pattern of key.
func (d *dateData) pattern(key string) (string, bool) {
	i, ok := d.keys.search(key)
	if !ok || d.index[i] == 0 {
		return "", false
	}
	p := d.patterns.at(int(d.index[i]) - 1)
	n := len(p)
	for j := 0; j < len(p); j++ {
		if c := p[j]; c < 0x20 {
			n += len(d.fields[c-1]) + 1
		}
	}
	b := make([]byte, 0, n)
	for j := 0; j < len(p); j++ {
		if c := p[j]; c < 0x20 {
			b = append(b, '{')
			b = append(b, d.fields[c-1]...)
			b = append(b, '}')
		} else {
			b = append(b, c)
		}
	}
	return string(b), true
}

var dateLocaleList = []string{"en-US", "en-GB", "de-DE"}

// gunzipData returns the inflated bytes of an embedded data file (a
// generator's committed output, data/*.gz). A missing or corrupt one is a
// build that is broken, not a run's error: it panics, naming the file.
func gunzipData(name string) []byte {
	gz, err := dataFS.ReadFile(name)
	if err == nil {
		var r *gzip.Reader
		if r, err = gzip.NewReader(bytes.NewReader(gz)); err == nil {
			var b []byte
			if b, err = io.ReadAll(r); err == nil {
				return b
			}
		}
	}
	panic(fmt.Sprintf("intl: %s: %v", name, err))
}

var dateTable = lazy("dates", func() []*dateData { return loadDateKind("dates") })

// loadDates returns the date patterns of locale, one of dateLocaleList.
func loadDates(locale string) *dateData { return dateLocale(dateTable(), locale) }

// dateLocale returns locale's data of a kind. A locale outside
// dateLocaleList is a bug (the caller's locale comes from resolveLocale
// over the same list): it panics.
func dateLocale(kind []*dateData, locale string) *dateData {
	i := slices.Index(dateLocaleList, locale)
	if i < 0 {
		panic(fmt.Sprintf("intl: no date data for locale %q", locale))
	}
	return kind[i]
}

// loadDateKind reads data/KIND-LOCALE.txt.gz of every dateLocaleList
// locale into the compact form, the keys shared (the locales' key sets
// are nearly the same).
func loadDateKind(kind string) []*dateData {
	files := make([]*dateLines, len(dateLocaleList))
	all := map[string]bool{}
	for i, l := range dateLocaleList {
		files[i] = parseDates(string(gunzipData("data/" + kind + "-" + l + ".txt.gz")))
		for k := range files[i].keys {
			all[k] = true
		}
	}
	keys := newStrList(slices.Sorted(maps.Keys(all)))
	codes := map[string]byte{}
	var fields []string
	out := make([]*dateData, len(files))
	for i, f := range files {
		if len(f.patterns) >= 1<<16-1 {
			panic(fmt.Sprintf("intl: %s-%s: %d patterns, more than an index holds", kind, dateLocaleList[i], len(f.patterns)))
		}
		d := &dateData{keys: &keys, index: make([]uint16, keys.len()), names: map[string][]string{}}
		compacted := make([]string, len(f.patterns))
		for j, p := range f.patterns {
			var b []byte
			for _, tok := range tokens(p) {
				if tok.field == "" {
					checkNoControl(kind+" pattern", tok.literal)
					b = append(b, strings.ReplaceAll(tok.literal, "{", "{{")...)
					continue
				}
				c, ok := codes[tok.field]
				if !ok {
					if len(fields) == 0x1f {
						panic(fmt.Sprintf("intl: %s: more than %d fields", kind, len(fields)))
					}
					fields = append(fields, strings.Clone(tok.field)) // not a slice of the file
					c = byte(len(fields))
					codes[tok.field] = c
				}
				b = append(b, c)
			}
			compacted[j] = string(b)
		}
		d.patterns = newStrList(compacted)
		for j := range keys.len() {
			if n, ok := f.keys[keys.at(j)]; ok {
				d.index[j] = uint16(n) + 1
			}
		}
		for k, v := range f.names {
			d.names[strings.Clone(k)] = strings.Split(strings.Clone(strings.Join(v, "\t")), "\t")
		}
		out[i] = d
	}
	for _, d := range out {
		d.fields = fields // every locale's codes are in fields by now
	}
	return out
}

// dateLines is a date data file as gen.mjs writes it: its patterns by
// number, each key's pattern number, and the names. Its strings are
// slices of the file's text.
type dateLines struct {
	keys     map[string]int32
	patterns []string
	names    map[string][]string
}

// pattern returns the pattern of key.
func (d *dateLines) pattern(key string) (string, bool) {
	i, ok := d.keys[key]
	if !ok {
		return "", false
	}
	return d.patterns[i], true
}

// parseDates reads gen.mjs's indexed format: "=PATTERN" lines (numbered
// from 0), "KEY\tN" lines and "names:NAME\tNAME..." lines.
func parseDates(s string) *dateLines {
	d := &dateLines{keys: make(map[string]int32, 26000), patterns: make([]string, 0, 8000), names: map[string][]string{}}
	for len(s) > 0 {
		line, rest, _ := strings.Cut(s, "\n")
		s = rest
		switch {
		case strings.HasPrefix(line, "="):
			d.patterns = append(d.patterns, line[1:])
		case strings.HasPrefix(line, "names:"):
			k, v, _ := strings.Cut(line[len("names:"):], "\t")
			d.names[k] = strings.Split(v, "\t")
		case line != "":
			k, n, _ := strings.Cut(line, "\t")
			i, err := strconv.Atoi(n)
			if err != nil || i < 0 || i >= len(d.patterns) {
				panic(fmt.Sprintf("intl: bad date data line %q", line))
			}
			d.keys[k] = int32(i)
		}
	}
	return d
}
