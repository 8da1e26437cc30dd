package intl

import (
	"bytes"
	"compress/gzip"
	"embed"
	"encoding/json"
	"fmt"
	"io"
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
// "dayPeriod" → AM, PM). The strings are slices of the inflated file.
type dateData struct {
	keys     map[string]int32
	patterns []string
	names    map[string][]string
}

// pattern returns the pattern of key.
func (d *dateData) pattern(key string) (string, bool) {
	i, ok := d.keys[key]
	if !ok {
		return "", false
	}
	return d.patterns[i], true
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

var dateTable = newLocaleTable("dates", dateLocaleList, func(locale string) *dateData {
	return parseDates(string(gunzipData("data/dates-" + locale + ".txt.gz")))
})

// loadDates returns the date patterns of locale, one of dateLocaleList.
func loadDates(locale string) *dateData { return dateTable.get(locale) }

// parseDates reads gen.mjs's indexed format: "=PATTERN" lines (numbered
// from 0), "KEY\tN" lines and "names:NAME\tNAME..." lines.
func parseDates(s string) *dateData {
	d := &dateData{keys: make(map[string]int32, 26000), patterns: make([]string, 0, 8000), names: map[string][]string{}}
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
