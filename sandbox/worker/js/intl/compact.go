package intl

import (
	"fmt"
	"sort"
)

// The large tables (dates, ranges, units, names) are built when the data
// is generated, not when a process loads it: tables_test.go compacts the
// recorded files (data/*.gz) into data/*.bin, which are embedded as
// strings. A table is then read-only data of the binary, shared by every
// worker process and never on the heap: loading one only slices those
// strings into the few small structs that point into them, so Preload
// (which every worker runs before its first run, issue 22) costs
// microseconds and leaves nothing for the collector to scan.
//
// A table file is a sequence of items in an order its loader knows
// (tableReader): numbers (4 bytes, little-endian), strings (a number, the
// length, then the bytes) and lists (strList: a number n, n ends, then
// the concatenated strings). No recorded string holds a byte below
// U+0020, which the compact forms use as separators and codes
// (checkNoControl).

// strList is a list of strings stored as one: s is their concatenation,
// and ends holds the end of the i-th in s as 4 little-endian bytes at 4i.
// Both are slices of an embedded table.
type strList struct {
	s    string
	ends string
}

func (l *strList) len() int { return len(l.ends) / 4 }

// end returns the end of the i-th string in l.s.
func (l *strList) end(i int) int { return int(le32(l.ends[4*i:])) }

// at returns the i-th string, a slice of l.s.
func (l *strList) at(i int) string {
	start := 0
	if i > 0 {
		start = l.end(i - 1)
	}
	return l.s[start:l.end(i)]
}

// search returns the index of s in l, whose strings are in order.
func (l *strList) search(s string) (int, bool) {
	i := sort.Search(l.len(), func(i int) bool { return l.at(i) >= s })
	return i, i < l.len() && l.at(i) == s
}

// strings returns l's strings in a new slice (of slices of l.s).
func (l *strList) strings() []string {
	out := make([]string, l.len())
	for i := range out {
		out[i] = l.at(i)
	}
	return out
}

// le32 decodes the little-endian uint32 at the start of s.
func le32(s string) uint32 {
	_ = s[3]
	return uint32(s[0]) | uint32(s[1])<<8 | uint32(s[2])<<16 | uint32(s[3])<<24
}

// le16 decodes the little-endian uint16 at the start of s.
func le16(s string) uint16 {
	_ = s[1]
	return uint16(s[0]) | uint16(s[1])<<8
}

// strMap is a read-only map of strings to strings: its keys in order and
// their values.
type strMap struct{ keys, vals strList }

func (m *strMap) len() int { return m.keys.len() }

func (m *strMap) get(k string) (string, bool) {
	if i, ok := m.keys.search(k); ok {
		return m.vals.at(i), true
	}
	return "", false
}

// tableReader reads the items of an embedded table file in order. Its
// results are slices of the file. A file that ends early or has bytes
// left over is a build that is broken (data/*.bin not regenerated after
// its loader changed), not a run's error: the reader panics, naming it.
type tableReader struct {
	name string // "data/dates.bin"
	s    string // what is left to read
}

func (r *tableReader) fail(what string) {
	panic(fmt.Sprintf("intl: %s: %s (regenerate: go generate ./sandbox/worker/js/intl)", r.name, what))
}

// bytes returns the next n bytes.
func (r *tableReader) bytes(n int) string {
	if n < 0 || n > len(r.s) {
		r.fail("truncated")
	}
	b := r.s[:n]
	r.s = r.s[n:]
	return b
}

// num reads a number.
func (r *tableReader) num() int { return int(le32(r.bytes(4))) }

// str reads a string.
func (r *tableReader) str() string { return r.bytes(r.num()) }

// list reads a strList.
func (r *tableReader) list() strList {
	n := r.num()
	if n > len(r.s)/4 {
		r.fail("truncated")
	}
	l := strList{ends: r.bytes(4 * n)}
	size := 0
	if n > 0 {
		size = l.end(n - 1)
	}
	l.s = r.bytes(size)
	return l
}

// strMap reads a strMap: its keys, then its values.
func (r *tableReader) strMap() strMap {
	m := strMap{r.list(), r.list()}
	if m.keys.len() != m.vals.len() {
		r.fail("a map with more keys than values or fewer")
	}
	return m
}

// done checks that the whole file was read.
func (r *tableReader) done() {
	if r.s != "" {
		r.fail(fmt.Sprintf("%d bytes left after the last item", len(r.s)))
	}
}
