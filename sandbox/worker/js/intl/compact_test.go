package intl

import (
	"encoding/json"
	"maps"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// TestCompactDatesMatchFiles: the compact date and range data give, for
// every key of every locale's file, the file's pattern and names, and no
// pattern for a key the file lacks.
func TestCompactDatesMatchFiles(t *testing.T) {
	for _, kind := range []string{"dates", "ranges"} {
		table := map[string][]*dateData{"dates": dateTable(), "ranges": rangeTable()}[kind]
		for i, l := range dateLocaleList {
			file := parseDates(string(read(t, "data/"+kind+"-"+l+".txt.gz")))
			d := table[i]
			for k := range file.keys {
				want, _ := file.pattern(k)
				if got, ok := d.pattern(k); !ok || got != want {
					t.Errorf("%s-%s %q: pattern %q, %v; want %q", kind, l, k, got, ok, want)
				}
			}
			missing := 0
			for j := range d.keys.len() {
				k := d.keys.at(j)
				if _, ok := file.keys[k]; !ok {
					missing++
					if p, ok := d.pattern(k); ok {
						t.Errorf("%s-%s %q: pattern %q; the file has none", kind, l, k, p)
					}
				}
			}
			if _, ok := d.pattern("no such key"); ok {
				t.Errorf("%s-%s: a pattern for an unknown key", kind, l)
			}
			if len(d.names) != len(file.names) {
				t.Errorf("%s-%s: %d names; want %d", kind, l, len(d.names), len(file.names))
			}
			for k, v := range file.names {
				if got := d.names[k]; !slices.Equal(got, v) {
					t.Errorf("%s-%s names %q = %q; want %q", kind, l, k, got, v)
				}
			}
			t.Logf("%s-%s: %d keys, %d not in this locale", kind, l, d.keys.len(), missing)
		}
	}
}

func TestStrMap(t *testing.T) {
	m := map[string]string{"b": "2", "a": "", "": "empty", "ab": "x"}
	sm := newStrMap(m)
	if sm.len() != len(m) {
		t.Fatalf("len = %d; want %d", sm.len(), len(m))
	}
	for k, v := range m {
		if got, ok := sm.get(k); !ok || got != v {
			t.Errorf("get(%q) = %q, %v; want %q", k, got, ok, v)
		}
	}
	for _, k := range []string{"c", "aa", "b0", " "} {
		if got, ok := sm.get(k); ok {
			t.Errorf("get(%q) = %q, true; want none", k, got)
		}
	}
	if got := sm.all(); len(got) != len(m) {
		t.Errorf("all() = %q; want %q", got, m)
	}
	var empty strMap
	if _, ok := empty.get("a"); ok {
		t.Error("empty get found a key")
	}
}

// TestCompactUnitsAndNamesMatchFiles: the compact units and names give
// every recorded template and name of every locale.
func TestCompactUnitsAndNamesMatchFiles(t *testing.T) {
	var units unitsJSON // tables_test.go's
	readJSON(t, "data/units.json.gz", &units)
	decode := func(tp template) [][]string {
		out := [][]string{}
		for tp != "" {
			var typ, value string
			typ, value, tp = tp.next()
			if typ == "s" || typ == "n" {
				out = append(out, []string{typ})
			} else {
				out = append(out, []string{typ, value})
			}
		}
		return out
	}
	ud := loadUnits()
	if !slices.Equal(ud.Units, units.Units) {
		t.Errorf("units %q; want %q", ud.Units, units.Units)
	}
	for _, loc := range sharedLocales(t, "units", units.Locales, ud.Locales) {
		jl, l := units.Locales[loc], ud.Locales[loc]
		if l.Exponent != jl.Exponent || l.Approx != jl.Approx || l.Range != jl.Range {
			t.Errorf("%s: exponent, approx, range %q, %q, %q; want %q, %q, %q", loc, l.Exponent, l.Approx, l.Range, jl.Exponent, jl.Approx, jl.Range)
		}
		if n := len(jl.Compact); len(l.Compact) != n {
			t.Errorf("%s: %d compact displays; want %d", loc, len(l.Compact), n)
		}
		n := 0
		for _, cats := range jl.Unit {
			n += len(cats)
		}
		if l.Unit.len() != n {
			t.Errorf("%s: %d unit templates; want %d", loc, l.Unit.len(), n)
		}
		for k, cats := range jl.Unit {
			unit, disp, _ := strings.Cut(k, "/")
			for cat, want := range cats {
				got := l.unit(unit, disp, cat)
				if !reflect.DeepEqual(decode(got.Neg), want.Neg) || !reflect.DeepEqual(decode(got.Pos), want.Pos) {
					t.Errorf("%s %s %s: %q, %q; want %q", loc, k, cat, decode(got.Neg), decode(got.Pos), want)
				}
			}
		}
		for disp, list := range jl.Compact {
			if len(l.Compact[disp]) != len(list) {
				t.Fatalf("%s compact %s: %d powers; want %d", loc, disp, len(l.Compact[disp]), len(list))
			}
			for i, c := range list {
				g := l.Compact[disp][i]
				if (c == nil) != (g == nil) {
					t.Fatalf("%s compact %s 1e%d: %v; want %v", loc, disp, i, g, c)
				}
				if c == nil {
					continue
				}
				if g.Div != c.Div || g.Cats.len() != len(c.Cats) {
					t.Errorf("%s compact %s 1e%d: div %d, %d cats; want %d, %d", loc, disp, i, g.Div, g.Cats.len(), c.Div, len(c.Cats))
				}
				for cat, want := range c.Cats {
					if got := decode(g.cat(cat)); !reflect.DeepEqual(got, want) {
						t.Errorf("%s compact %s 1e%d %s: %q; want %q", loc, disp, i, cat, got, want)
					}
				}
			}
		}
		if !maps.Equal(l.PluralRanges.all(), jl.PluralRanges) {
			t.Errorf("%s plural ranges %q; want %q", loc, l.PluralRanges.all(), jl.PluralRanges)
		}
	}

	var names struct {
		Locales map[string]map[string]json.RawMessage
	}
	readJSON(t, "data/names.json.gz", &names)
	nd := loadNames()
	for _, loc := range sharedLocales(t, "names", names.Locales, nd.Locales) {
		jl, n := names.Locales[loc], nd.Locales[loc]
		var pattern, separator string
		if err := json.Unmarshal(jl["pattern"], &pattern); err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(jl["separator"], &separator); err != nil {
			t.Fatal(err)
		}
		if n.Pattern != pattern || n.Separator != separator {
			t.Errorf("%s: pattern %q, separator %q; want %q, %q", loc, n.Pattern, n.Separator, pattern, separator)
		}
		for typ, sn := range map[string]*styledNames{"region": &n.Region, "script": &n.Script, "currency": &n.Currency, "language": &n.Language, "dialect": &n.Dialect} {
			var want struct{ Long, Short, Narrow map[string]string }
			if err := json.Unmarshal(jl[typ], &want); err != nil {
				t.Fatal(err)
			}
			for style, w := range map[string]map[string]string{"long": want.Long, "short": want.Short, "narrow": want.Narrow} {
				m := &sn.Long
				if s := sn.style(style); s != nil {
					m = s
				}
				if got := m.all(); len(got)+len(w) > 0 && !maps.Equal(got, w) {
					t.Errorf("%s %s %s: %d names differ from the file's %d", loc, typ, style, len(got), len(w))
				}
			}
		}
	}
}

// sharedLocales checks that got, a compact table's locales, holds exactly
// want's, the recorded file's (what names the table in messages: as many,
// and none missing), and returns the locales both hold, sorted.
func sharedLocales[W, G any](t *testing.T, what string, want map[string]W, got map[string]*G) []string {
	t.Helper()
	if len(got) != len(want) {
		t.Errorf("%s: %d locales; want %d", what, len(got), len(want))
	}
	var locs []string
	for _, loc := range slices.Sorted(maps.Keys(want)) {
		if got[loc] == nil {
			t.Errorf("%s: no locale %s", what, loc)
			continue
		}
		locs = append(locs, loc)
	}
	return locs
}

// all returns m as a map, to compare with a recorded file's.
func (m *strMap) all() map[string]string {
	out := make(map[string]string, m.len())
	for i := range m.len() {
		out[m.keys.at(i)] = m.vals.at(i)
	}
	return out
}
