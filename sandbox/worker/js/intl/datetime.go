package intl

import (
	"fmt"
	"math"
	"regexp"
	"strings"
	"time"
	_ "time/tzdata" // IANA zones even where the worker has no /usr/share/zoneinfo

	"github.com/dop251/goja"
)

var dateLocales = localeMap(dateLocaleList)

// defaultHourCycle is each date locale's hour cycle (Node 20).
var defaultHourCycle = map[string]string{"en-US": "h12", "en-GB": "h23", "de-DE": "h23"}

// dateTimeFormat is a resolved Intl.DateTimeFormat.
type dateTimeFormat struct {
	locale, data string
	zone         *time.Location
	zoneName     string // as resolvedOptions reports it
	utc          bool
	hourCycle    string // "" without an hour
	pattern      string
	key          string // the pattern's key in the recorded data (formatRange's too)
	// the component widths selected ("" absent), in resolvedOptions order
	fields               map[string]string
	dateStyle, timeStyle string
	boundFormat          *goja.Object
}

// components are the component options in the specification's order.
var components = []struct {
	name   string
	values []string
}{
	{"weekday", []string{"narrow", "short", "long"}},
	{"era", []string{"narrow", "short", "long"}},
	{"year", []string{"2-digit", "numeric"}},
	{"month", []string{"2-digit", "numeric", "narrow", "short", "long"}},
	{"day", []string{"2-digit", "numeric"}},
	{"dayPeriod", []string{"narrow", "short", "long"}},
	{"hour", []string{"2-digit", "numeric"}},
	{"minute", []string{"2-digit", "numeric"}},
	{"second", []string{"2-digit", "numeric"}},
	{"fractionalSecondDigits", nil},
	{"timeZoneName", []string{"short", "long", "shortOffset", "longOffset", "shortGeneric", "longGeneric"}},
}

// newDateTimeFormat is InitializeDateTimeFormat with ToDateTimeOptions
// (required "any"/"date"/"time", defaults "date"/"time"/"all"), reading
// the options in V8's order: the component options are read twice, once
// to decide on defaults and once for their values, as V8 does.
func (e *env) newDateTimeFormat(api string, locales, options goja.Value, required, defaults string) *dateTimeFormat {
	requested := e.canonicalLocaleList(locales)
	var base *goja.Object
	if options != nil && !goja.IsUndefined(options) {
		if goja.IsNull(options) {
			e.typeError("Cannot convert undefined or null to object")
		}
		base = options.ToObject(e.vm)
	}
	o := opts{e: e, o: base, api: api}
	// ToDateTimeOptions
	needDefaults := true
	if required != "time" {
		for _, f := range []string{"weekday", "year", "month", "day"} {
			if !goja.IsUndefined(o.get(f)) {
				needDefaults = false
			}
		}
	}
	if required != "date" {
		for _, f := range []string{"dayPeriod", "hour", "minute", "second", "fractionalSecondDigits"} {
			if !goja.IsUndefined(o.get(f)) {
				needDefaults = false
			}
		}
	}
	ds, ts := o.get("dateStyle"), o.get("timeStyle")
	if !goja.IsUndefined(ds) || !goja.IsUndefined(ts) {
		needDefaults = false
	}
	if required == "date" && !goja.IsUndefined(ts) {
		e.typeError("Invalid option : timeStyle")
	}
	if required == "time" && !goja.IsUndefined(ds) {
		e.typeError("Invalid option : dateStyle")
	}
	defaulted := map[string]string{}
	if needDefaults && (defaults == "date" || defaults == "all") {
		defaulted["year"], defaulted["month"], defaulted["day"] = "numeric", "numeric", "numeric"
	}
	if needDefaults && (defaults == "time" || defaults == "all") {
		defaulted["hour"], defaulted["minute"], defaulted["second"] = "numeric", "numeric", "numeric"
	}

	o.str("localeMatcher", []string{"lookup", "best fit"}, "best fit")
	if v := o.get("calendar"); !goja.IsUndefined(v) {
		if c := e.toString(v); c != "gregory" && c != "gregorian" {
			e.rangeError("%s: calendar %q is not supported in the playground (only \"gregory\")", api, c)
		}
	}
	if v := o.get("numberingSystem"); !goja.IsUndefined(v) {
		if s := e.toString(v); s != "latn" {
			e.rangeError("%s: numberingSystem %q is not supported in the playground (only \"latn\")", api, s)
		}
	}
	hour12Set, hour12 := o.boolean("hour12")
	hourCycle := o.str("hourCycle", []string{"h11", "h12", "h23", "h24"}, "")
	r := e.resolveLocale(api, requested, dateLocales)
	df := &dateTimeFormat{locale: r.locale, data: r.data, fields: map[string]string{}}

	tz := o.get("timeZone")
	if goja.IsUndefined(tz) {
		df.zone, df.zoneName, df.utc = time.UTC, "UTC", true
	} else {
		df.zoneName, df.zone, df.utc = e.timeZone(e.toString(tz))
	}

	explicit := ""
	for _, c := range components {
		if v, ok := defaulted[c.name]; ok {
			df.fields[c.name] = v
			continue
		}
		if c.name == "fractionalSecondDigits" {
			if n := o.number("fractionalSecondDigits", 1, 3, 0); n != 0 {
				e.rangeError("%s: fractionalSecondDigits is not supported in the playground", api)
			}
			continue
		}
		v := o.str(c.name, c.values, "")
		if v == "" {
			continue
		}
		explicit = c.name
		switch c.name {
		case "era", "dayPeriod":
			e.rangeError("%s: the option %s is not supported in the playground", api, c.name)
		case "timeZoneName":
			if v != "short" {
				e.rangeError("%s: timeZoneName %q is not supported in the playground (only \"short\")", api, v)
			}
		}
		df.fields[c.name] = v
	}
	o.str("formatMatcher", []string{"basic", "best fit"}, "best fit")
	df.dateStyle = o.str("dateStyle", []string{"full", "long", "medium", "short"}, "")
	df.timeStyle = o.str("timeStyle", []string{"full", "long", "medium", "short"}, "")
	styled := df.dateStyle != "" || df.timeStyle != ""
	if styled && explicit != "" {
		e.typeError("Can't set option %s when dateStyle or timeStyle is used", explicit)
	}

	// the hour cycle
	hasHour := df.fields["hour"] != "" || df.timeStyle != ""
	if hasHour {
		def := defaultHourCycle[df.data]
		switch {
		case hour12Set && hour12:
			df.hourCycle = map[bool]string{true: "h11", false: "h12"}[def == "h11" || def == "h23"]
		case hour12Set:
			df.hourCycle = map[bool]string{true: "h23", false: "h24"}[def == "h11" || def == "h23"]
		case hourCycle != "":
			df.hourCycle = hourCycle
		default:
			df.hourCycle = def
		}
	}
	hc := map[string]string{"": "-", "h12": "h", "h23": "H", "h11": "K", "h24": "k"}[df.hourCycle]
	fallback := map[string]string{"-": "-", "h": "h", "H": "H", "K": "h", "k": "H"}[hc]
	data := loadDates(df.data)
	var key string
	if styled {
		key = "style:" + or(df.dateStyle, "-") + ":" + or(df.timeStyle, "-") + ":"
	} else {
		code := map[string]string{"": "-", "numeric": "n", "2-digit": "2", "long": "l", "short": "s", "narrow": "N"}
		for _, f := range []string{"weekday", "year", "month", "day", "hour", "minute", "second", "timeZoneName"} {
			key += code[df.fields[f]]
		}
	}
	df.key = key + hc
	p, ok := data.pattern(df.key)
	if !ok {
		df.key = key + fallback
		p, ok = data.pattern(df.key)
	}
	if !ok {
		e.rangeError("%s: no recorded pattern for these options (%s) in the playground", api, key+hc)
	}
	df.pattern = p
	if !styled {
		// resolvedOptions reports the fields the pattern has, as ICU
		// chose their widths
		df.fields = map[string]string{}
		for _, tok := range tokens(p) {
			if tok.field != "" {
				name, width, _ := strings.Cut(tok.field, ".")
				width, _, _ = strings.Cut(width, ".")
				if name == "dayPeriod" {
					continue
				}
				df.fields[name] = width
			}
		}
		if df.fields["hour"] == "" {
			df.hourCycle = ""
		}
	}
	if strings.Contains(p, "{timeZoneName.") {
		// names the zone can be given in; anything else is an error
		// rather than a guess
		long := strings.Contains(p, "{timeZoneName.long}")
		if !df.utc && (long || (df.data != "en-US" && df.data != "en-GB")) {
			w := "short"
			if long {
				w = "long"
			}
			e.rangeError("%s: %s time zone names for %q in %q are not supported in the playground (only UTC's)", api, w, df.zoneName, df.locale)
		}
	}
	return df
}

func or(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

type token struct{ field, literal string }

// tokens splits a recorded pattern into fields ("month.short") and
// literals.
func tokens(p string) []token {
	var out []token
	var lit strings.Builder
	for p != "" {
		i := strings.IndexByte(p, '{')
		if i < 0 {
			lit.WriteString(p)
			break
		}
		lit.WriteString(p[:i])
		p = p[i:]
		if strings.HasPrefix(p, "{{") {
			lit.WriteByte('{')
			p = p[2:]
			continue
		}
		j := strings.IndexByte(p, '}')
		if lit.Len() > 0 {
			out = append(out, token{literal: lit.String()})
			lit.Reset()
		}
		out = append(out, token{field: p[1:j]})
		p = p[j+1:]
	}
	if lit.Len() > 0 {
		out = append(out, token{literal: lit.String()})
	}
	return out
}

var utcNames = map[string]bool{"utc": true, "etc/utc": true, "etc/gmt": true, "gmt": true, "etc/universal": true,
	"universal": true, "etc/zulu": true, "zulu": true, "uct": true, "etc/uct": true, "etc/gmt0": true, "gmt0": true,
	"etc/gmt+0": true, "etc/gmt-0": true, "gmt+0": true, "gmt-0": true, "greenwich": true, "etc/greenwich": true}

// icuCanonical are zones ICU 78 names by another (older) identifier in
// resolvedOptions, and zone aliases it resolves.
var icuCanonical = map[string]string{
	"Asia/Kolkata": "Asia/Calcutta", "Asia/Kathmandu": "Asia/Katmandu", "Asia/Ho_Chi_Minh": "Asia/Saigon",
	"Europe/Kyiv": "Europe/Kiev", "America/Nuuk": "America/Godthab", "Asia/Yangon": "Asia/Rangoon",
	"Atlantic/Faroe": "Atlantic/Faeroe", "Pacific/Chuuk": "Pacific/Truk", "Pacific/Pohnpei": "Pacific/Ponape",
	"US/Eastern": "America/New_York", "US/Central": "America/Chicago", "US/Mountain": "America/Denver",
	"US/Pacific": "America/Los_Angeles", "US/Alaska": "America/Anchorage", "US/Hawaii": "Pacific/Honolulu",
	"US/Arizona": "America/Phoenix",
}

var zoneName = regexp.MustCompile(`^[A-Za-z][A-Za-z0-9_+\-]*(/[A-Za-z0-9_+\-]+){0,2}$`)

// notZone reports whether s names a file of the zoneinfo directories that
// Go's time package loads and ICU does not know as a zone: the host's own
// zone (localtime: a snippet would read the server's time zone), the
// default rules (posixrules), Factory, and the posix/ and right/ trees
// (Node 20: "RangeError: Invalid time zone specified" for each).
func notZone(s string) bool {
	first, _, _ := strings.Cut(strings.ToLower(s), "/")
	switch first {
	case "local", "localtime", "posixrules", "factory", "posix", "right":
		return true
	}
	return false
}

// timeZone resolves a timeZone option: UTC's names, or an IANA name Go's
// time package loads (case-insensitively, as ICU). Anything else is the
// RangeError V8 throws.
//
// The zones loaded are cached in e, this runtime's, not in the process: a
// process-wide cache would tell a run which zones an earlier client used
// (a load takes microseconds, a hit nanoseconds; issue 22), and the zones
// cannot be preloaded (the time package does not list them). Only names
// that loaded are cached, so the cache holds at most the zone files
// there are, whatever names a snippet tries.
func (e *env) timeZone(s string) (string, *time.Location, bool) {
	if utcNames[strings.ToLower(s)] {
		return "UTC", time.UTC, true
	}
	if len(s) > 64 || !zoneName.MatchString(s) || notZone(s) {
		e.rangeError("Invalid time zone specified: %s", s)
	}
	for _, name := range []string{s, titleZone(s)} {
		if l, ok := e.zones[name]; ok {
			return canonicalZone(name), l, false
		}
		if l, err := time.LoadLocation(name); err == nil {
			if e.zones == nil {
				e.zones = map[string]*time.Location{}
			}
			e.zones[name] = l
			return canonicalZone(name), l, false
		}
	}
	e.rangeError("Invalid time zone specified: %s", s)
	panic("unreachable")
}

func canonicalZone(name string) string {
	if c, ok := icuCanonical[name]; ok {
		return c
	}
	return name
}

// titleZone guesses the IANA spelling of a name in the wrong case:
// "america/new_york" → "America/New_York".
func titleZone(s string) string {
	b := []byte(strings.ToLower(s))
	up := true
	for i, c := range b {
		if up && c >= 'a' && c <= 'z' {
			b[i] = c - 'a' + 'A'
		}
		up = c == '/' || c == '_' || c == '-'
	}
	r := string(b)
	for _, p := range []string{"Etc/Gmt", "Us/", "Utc"} {
		if strings.HasPrefix(r, p) {
			r = strings.ToUpper(p[:len(p)-1]) + r[len(p)-1:]
		}
	}
	return strings.Replace(r, "Etc/GMT", "Etc/GMT", 1)
}

// zoneShortName is ICU's short name of the zone at t (en-US and en-GB):
// the abbreviations ICU has for the zones of their region (EST, PDT; GMT,
// BST, CET), else "GMT+5:30".
func zoneShortName(locale, zone string, t time.Time) string {
	abbr, off := t.Zone()
	if t.Year() < 1970 {
		locale = "" // ICU's metazones (and so the abbreviations) start in 1970
	}
	switch locale {
	case "en-US":
		if (strings.HasPrefix(zone, "America/") && zone != "America/Havana") || zone == "Pacific/Honolulu" {
			switch abbr {
			case "EST", "EDT", "CST", "CDT", "MST", "MDT", "PST", "PDT", "AKST", "AKDT", "HST", "HDT", "AST", "ADT":
				return abbr
			}
		}
	case "en-GB":
		if strings.HasPrefix(zone, "Europe/") {
			switch abbr {
			case "GMT", "BST", "CET", "CEST", "EET", "EEST", "WET", "WEST":
				return abbr
			}
		}
	}
	if off == 0 {
		return "GMT"
	}
	sign := "+"
	if off < 0 {
		sign, off = "-", -off
	}
	h, m := off/3600, off%3600/60
	if m != 0 {
		return fmt.Sprintf("GMT%s%d:%02d", sign, h, m)
	}
	return fmt.Sprintf("GMT%s%d", sign, h)
}

// toDateValue is the date argument of format: undefined is now, anything
// else ToNumber and TimeClip (NaN is "Invalid time value").
func (e *env) toDateValue(v goja.Value) float64 {
	if v == nil || goja.IsUndefined(v) {
		return float64(time.Now().UnixMilli())
	}
	x := v.ToFloat()
	if math.IsNaN(x) || math.Abs(x) > 8.64e15 {
		e.rangeError("Invalid time value")
	}
	return math.Trunc(x) + 0 // -0 → +0
}

// formatParts formats the instant ms (milliseconds since the epoch).
func (df *dateTimeFormat) formatParts(e *env, ms float64) []part {
	t := time.UnixMilli(int64(ms)).In(df.zone)
	if t.Year() < 1 {
		e.rangeError("Intl.DateTimeFormat: dates before year 1 (%s) are not supported in the playground", t.Format("2006-01-02"))
	}
	data := loadDates(df.data)
	var out []part
	for _, tok := range tokens(df.pattern) {
		if tok.field == "" {
			out = append(out, part{"literal", tok.literal})
			continue
		}
		out = append(out, df.field(data, tok.field, t))
	}
	return out
}

// field is the part of t a pattern's field ("month.short") writes.
func (df *dateTimeFormat) field(data *dateData, field string, t time.Time) part {
	num := func(n int, width string) string {
		if width == "2-digit" {
			return fmt.Sprintf("%02d", n%100)
		}
		return fmt.Sprint(n)
	}
	{
		tok := token{field: field}
		name, width, _ := strings.Cut(tok.field, ".")
		var v string
		switch name {
		case "weekday":
			v = data.names[tok.field][int(t.Weekday())]
		case "month":
			if width == "numeric" || width == "2-digit" {
				v = num(int(t.Month()), width)
			} else {
				v = data.names[tok.field][int(t.Month())-1]
			}
		case "year":
			v = num(t.Year(), width)
		case "day":
			v = num(t.Day(), width)
		case "hour":
			h := t.Hour()
			switch df.hourCycle {
			case "h12":
				h %= 12
				if h == 0 {
					h = 12
				}
			case "h11":
				h %= 12
			case "h24":
				if h == 0 {
					h = 24
				}
			}
			v = num(h, width)
		case "minute":
			v = num(t.Minute(), width)
		case "second":
			v = num(t.Second(), width)
		case "dayPeriod":
			v = data.names["dayPeriod"][t.Hour()/12]
		case "timeZoneName":
			switch {
			case df.utc && width == "long":
				v = data.names["utc"][1]
			case df.utc:
				v = data.names["utc"][0]
			default:
				v = zoneShortName(df.data, df.zoneName, t)
			}
		}
		return part{name, v}
	}
}

func (df *dateTimeFormat) resolvedOptions() []kv {
	r := []kv{{"locale", df.locale}, {"calendar", "gregory"}, {"numberingSystem", "latn"}, {"timeZone", df.zoneName}}
	if df.hourCycle != "" {
		r = append(r, kv{"hourCycle", df.hourCycle}, kv{"hour12", df.hourCycle == "h11" || df.hourCycle == "h12"})
	}
	for _, c := range components {
		if v := df.fields[c.name]; v != "" {
			r = append(r, kv{c.name, v})
		}
	}
	if df.dateStyle != "" {
		r = append(r, kv{"dateStyle", df.dateStyle})
	}
	if df.timeStyle != "" {
		r = append(r, kv{"timeStyle", df.timeStyle})
	}
	return r
}

func (e *env) installDateTimeFormat(ns *goja.Object) *goja.Object {
	const api = "Intl.DateTimeFormat"
	vm := e.vm
	ctor, proto := e.class(ns, "DateTimeFormat", 0, true, func(args []goja.Value) any {
		return e.newDateTimeFormat(api, arg(args, 0), arg(args, 1), "any", "date")
	})
	e.method(ctor, "supportedLocalesOf", 1, e.supportedLocalesOf(api, func() map[string]string { return dateLocales }))
	e.getter(proto, "format", func(c goja.FunctionCall) goja.Value {
		df := stateOf[*dateTimeFormat](e, c.This, "get Intl.DateTimeFormat.prototype.format")
		if df.boundFormat == nil {
			df.boundFormat = e.function("", 1, func(c goja.FunctionCall) goja.Value {
				// V8 writes U+202F (before AM/PM in ICU 72+) as a space in
				// format's string, but not in formatToParts
				return vm.ToValue(strings.ReplaceAll(joinParts(df.formatParts(e, e.toDateValue(c.Argument(0)))), "\u202f", " "))
			})
		}
		return df.boundFormat
	})
	e.method(proto, "formatToParts", 1, func(c goja.FunctionCall) goja.Value {
		df := stateOf[*dateTimeFormat](e, c.This, "Intl.DateTimeFormat.prototype.formatToParts")
		return e.partsArray(df.formatParts(e, e.toDateValue(c.Argument(0))), nil)
	})
	e.installDateRange(proto)
	e.method(proto, "resolvedOptions", 0, func(c goja.FunctionCall) goja.Value {
		df := stateOf[*dateTimeFormat](e, c.This, "Intl.DateTimeFormat.prototype.resolvedOptions")
		return e.object(df.resolvedOptions())
	})
	return proto
}
