package intl

import (
	"bytes"
	"flag"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// This file generates the compact tables data/*.bin (compact.go) from the
// data recorded under Node (data/*.gz), and checks that the committed ones
// are what it generates:
//
//	go generate ./sandbox/worker/js/intl
//
// runs TestTablesAreFresh with -update, which rewrites them. The
// generator lives in a test so that none of it is in the binary.

var update = flag.Bool("update", false, "rewrite the generated tables data/*.bin")

// tables are the generated files and their generators.
var tables = map[string]func(t *testing.T) []byte{
	"data/dates.bin":  func(t *testing.T) []byte { return writeDateKind(t, "dates") },
	"data/ranges.bin": func(t *testing.T) []byte { return writeDateKind(t, "ranges") },
	"data/units.bin":  writeUnits,
	"data/names.bin":  writeNames,
}

// TestTablesAreFresh regenerates every table from the recorded data and
// compares it with the committed file (or, with -update, writes it).
func TestTablesAreFresh(t *testing.T) {
	for _, name := range slices.Sorted(maps.Keys(tables)) {
		got := tables[name](t)
		if *update {
			if err := os.WriteFile(name, got, 0o644); err != nil {
				t.Fatal(err)
			}
			t.Logf("wrote %s (%d bytes)", name, len(got))
			continue
		}
		want, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s is stale (%d bytes; generated %d): run `go generate ./sandbox/worker/js/intl` and commit", name, len(want), len(got))
		}
	}
	for _, f := range binFiles(t) {
		if tables[filepath.ToSlash(f)] == nil {
			t.Errorf("%s is not generated: remove it", f)
		}
	}
}

// binFiles are the generated tables committed, data/*.bin; none fails t.
func binFiles(t *testing.T) []string {
	t.Helper()
	files, err := filepath.Glob("data/*.bin")
	if err != nil {
		t.Fatal(err)
	}
	if len(files) == 0 {
		t.Fatal("no data/*.bin")
	}
	return files
}

// tableWriter writes the items tableReader reads.
type tableWriter struct{ b []byte }

func (w *tableWriter) num(n int) {
	if n < 0 || n > 1<<32-1 {
		panic(fmt.Sprintf("intl: %d does not fit a table's number", n))
	}
	w.b = append(w.b, byte(n), byte(n>>8), byte(n>>16), byte(n>>24))
}

func (w *tableWriter) str(s string) {
	w.num(len(s))
	w.b = append(w.b, s...)
}

func (w *tableWriter) list(list []string) {
	w.num(len(list))
	end := 0
	for _, s := range list {
		end += len(s)
		w.num(end)
	}
	for _, s := range list {
		w.b = append(w.b, s...)
	}
}

// strMap writes m's keys in order, then their values.
func (w *tableWriter) strMap(m map[string]string) {
	keys := slices.Sorted(maps.Keys(m))
	vals := make([]string, len(keys))
	for i, k := range keys {
		vals[i] = m[k]
	}
	w.list(keys)
	w.list(vals)
}

// newStrMap returns m as loaded from a table.
func newStrMap(m map[string]string) strMap {
	var w tableWriter
	w.strMap(m)
	r := &tableReader{name: "newStrMap", s: string(w.b)}
	sm := r.strMap()
	r.done()
	return sm
}

// checkNoControl panics if s, a recorded string, holds a byte that the
// compact forms use as a separator or code (below U+0020).
func checkNoControl(what, s string) {
	for i := 0; i < len(s); i++ {
		if s[i] < 0x20 {
			panic(fmt.Sprintf("intl: %s: control byte %#x in %q", what, s[i], s))
		}
	}
}

// writeDateKind compacts data/KIND-LOCALE.txt.gz of every dateLocaleList
// locale (loadDateKind reads it): the field names, the keys of all the
// locales in order, then for each locale its name, the index of each key's
// pattern (2 bytes, 1 + its number; 0 none), its patterns with each field
// one byte (1 + its number in the field names) and "{" written "{{", and
// its names (tab-separated).
func writeDateKind(t *testing.T, kind string) []byte {
	files := make([]*dateLines, len(dateLocaleList))
	all := map[string]bool{}
	for i, l := range dateLocaleList {
		files[i] = parseDates(string(read(t, "data/"+kind+"-"+l+".txt.gz")))
		for k := range files[i].keys {
			all[k] = true
		}
	}
	keys := slices.Sorted(maps.Keys(all))
	codes := map[string]byte{}
	var fields []string
	patterns := make([][]string, len(files))
	for i, f := range files {
		if len(f.patterns) >= 1<<16-1 {
			t.Fatalf("%s-%s: %d patterns, more than an index holds", kind, dateLocaleList[i], len(f.patterns))
		}
		patterns[i] = make([]string, len(f.patterns))
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
						t.Fatalf("%s: more than %d fields", kind, len(fields))
					}
					fields = append(fields, tok.field)
					c = byte(len(fields))
					codes[tok.field] = c
				}
				b = append(b, c)
			}
			patterns[i][j] = string(b)
		}
	}
	var w tableWriter
	w.list(fields)
	w.list(keys)
	w.num(len(files))
	for i, f := range files {
		w.str(dateLocaleList[i])
		for _, k := range keys {
			n := 0
			if p, ok := f.keys[k]; ok {
				n = int(p) + 1
			}
			w.b = append(w.b, byte(n), byte(n>>8))
		}
		w.list(patterns[i])
		names := map[string]string{}
		for k, v := range f.names {
			names[k] = strings.Join(v, "\t")
		}
		w.strMap(names)
	}
	return w.b
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

// unitsJSON is data/units.json.gz as recorded.
type unitsJSON struct {
	ICU     string
	Units   []string
	Locales map[string]*struct {
		Exponent, Approx, Range string
		Unit                    map[string]map[string]struct{ Neg, Pos [][]string }
		Compact                 map[string][]*struct {
			Div  int
			Cats map[string][][]string
		}
		PluralRanges map[string]string
	}
}

// writeUnits compacts data/units.json.gz (loadUnits reads it): the units,
// then for each locale its name, exponent, approximately sign, range
// separator, unit templates ("kilometer/long/one" → Neg '\x1d' Pos),
// plural ranges, and compact patterns: for each display, the powers of
// ten, each 1 + its divisor and its templates by category, or 0.
func writeUnits(t *testing.T) []byte {
	var j unitsJSON
	readJSON(t, "data/units.json.gz", &j)
	var w tableWriter
	w.list(j.Units)
	w.num(len(j.Locales))
	for _, loc := range slices.Sorted(maps.Keys(j.Locales)) {
		jl := j.Locales[loc]
		w.str(loc)
		w.str(jl.Exponent)
		w.str(jl.Approx)
		w.str(jl.Range)
		unit := map[string]string{}
		for k, cats := range jl.Unit {
			for cat, tp := range cats {
				unit[k+"/"+cat] = string(newTemplate(tp.Neg)) + "\x1d" + string(newTemplate(tp.Pos))
			}
		}
		w.strMap(unit)
		w.strMap(jl.PluralRanges)
		w.num(len(jl.Compact))
		for _, disp := range slices.Sorted(maps.Keys(jl.Compact)) {
			w.str(disp)
			w.num(len(jl.Compact[disp]))
			for _, c := range jl.Compact[disp] {
				if c == nil {
					w.num(0)
					continue
				}
				w.num(c.Div + 1)
				cats := map[string]string{}
				for cat, tp := range c.Cats {
					cats[cat] = string(newTemplate(tp))
				}
				w.strMap(cats)
			}
		}
	}
	return w.b
}

// newTemplate encodes a recorded formatToParts (["n"], ["s"], [type, value]).
func newTemplate(parts [][]string) template {
	var b strings.Builder
	for i, p := range parts {
		if i > 0 {
			b.WriteByte('\x1f')
		}
		for j, s := range p {
			checkNoControl("units template", s)
			if j > 0 {
				b.WriteByte('\x1e')
			}
			b.WriteString(s)
		}
	}
	return template(b.String())
}

// namesJSON is data/names.json.gz as recorded.
type namesJSON struct {
	ICU     string
	Locales map[string]*struct {
		Pattern, Separator                          string
		Region, Script, Currency, Language, Dialect styledNamesJSON
	}
}

type styledNamesJSON struct{ Long, Short, Narrow map[string]string }

// writeNames compacts data/names.json.gz (loadNames reads it): for each
// locale its name, pattern and separator, then the names of each type
// (localeNames.types) by style (long, short, narrow).
func writeNames(t *testing.T) []byte {
	var j namesJSON
	readJSON(t, "data/names.json.gz", &j)
	var w tableWriter
	w.num(len(j.Locales))
	for _, loc := range slices.Sorted(maps.Keys(j.Locales)) {
		jl := j.Locales[loc]
		w.str(loc)
		w.str(jl.Pattern)
		w.str(jl.Separator)
		for _, sn := range []styledNamesJSON{jl.Region, jl.Script, jl.Currency, jl.Language, jl.Dialect} {
			w.strMap(sn.Long)
			w.strMap(sn.Short)
			w.strMap(sn.Narrow)
		}
	}
	return w.b
}
