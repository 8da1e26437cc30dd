package intl

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
)

//go:generate go test -run ^TestTablesAreFresh$ -update

//go:embed data/data.json
var dataJSON []byte

// The compact tables, generated from the recorded data/*.gz by
// tables_test.go (compact.go).
var (
	//go:embed data/dates.bin
	datesTable string
	//go:embed data/ranges.bin
	rangesTable string
	//go:embed data/units.bin
	unitsTable string
	//go:embed data/names.bin
	namesTable string
)

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
	var d recorded
	if err := json.Unmarshal(dataJSON, &d); err != nil {
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
// It is a view of an embedded table (compact.go): the keys are one sorted
// strList shared by the locales of a kind of data (dates or ranges),
// index gives each key's pattern, and a pattern's fields are one byte
// each (1 + the field's number in fields), expanded when looked up. The
// names are a small map.
type dateData struct {
	keys     *strList // the kind's keys, in order
	index    string   // by key, 2 little-endian bytes: 1 + the number of its pattern in patterns; 0 none
	patterns strList  // compacted
	fields   []string // the kind's field names ("month.short"), by code-1
	names    map[string][]string
}

// pattern returns the pattern of key.
func (d *dateData) pattern(key string) (string, bool) {
	i, ok := d.keys.search(key)
	if !ok {
		return "", false
	}
	n := le16(d.index[2*i:])
	if n == 0 {
		return "", false
	}
	p := d.patterns.at(int(n) - 1)
	size := len(p)
	for j := 0; j < len(p); j++ {
		if c := p[j]; c < 0x20 {
			size += len(d.fields[c-1]) + 1
		}
	}
	b := make([]byte, 0, size)
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

var dateTable = lazy("dates", func() []*dateData { return loadDateKind("data/dates.bin", datesTable) })

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

// loadDateKind reads a kind's table (tables_test.go's writeDateKind):
// its fields and keys, then for each dateLocaleList locale the index,
// patterns and names.
func loadDateKind(name, table string) []*dateData {
	r := &tableReader{name: name, s: table}
	fl := r.list()
	fields := fl.strings()
	keys := r.list()
	if n := r.num(); n != len(dateLocaleList) {
		r.fail(fmt.Sprintf("%d locales; want %d", n, len(dateLocaleList)))
	}
	out := make([]*dateData, len(dateLocaleList))
	for i, l := range dateLocaleList {
		if got := r.str(); got != l {
			r.fail(fmt.Sprintf("locale %q; want %q", got, l))
		}
		d := &dateData{keys: &keys, index: r.bytes(2 * keys.len()), patterns: r.list(), fields: fields}
		names := r.strMap()
		d.names = make(map[string][]string, names.len())
		for j := range names.len() {
			d.names[names.keys.at(j)] = strings.Split(names.vals.at(j), "\t")
		}
		out[i] = d
	}
	r.done()
	return out
}
