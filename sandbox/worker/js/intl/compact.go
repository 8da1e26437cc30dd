package intl

import (
	"fmt"
	"maps"
	"slices"
	"sort"
)

// The preloaded data is held in forms the garbage collector need not
// look into: each table is a few long strings (which hold no pointers)
// and integer slices, searched by binary search, rather than maps and
// slices of strings. Every collection a worker makes marks the live heap,
// and Preload makes this data live in every worker (issue 22); as maps
// of strings it was ~23 MB of pointers to follow on each collection.

// strList is a list of strings stored as one: s is their concatenation
// and ends[i] the end of the i-th in s.
type strList struct {
	s    string
	ends []uint32
}

// newStrList concatenates list.
func newStrList(list []string) strList {
	n := 0
	for _, v := range list {
		n += len(v)
	}
	if n > 1<<32-1 {
		panic("intl: strList of more than 4 GiB")
	}
	b := make([]byte, 0, n)
	ends := make([]uint32, len(list))
	for i, v := range list {
		b = append(b, v...)
		ends[i] = uint32(len(b))
	}
	return strList{s: string(b), ends: ends}
}

func (l *strList) len() int { return len(l.ends) }

// at returns the i-th string, a slice of l.s.
func (l *strList) at(i int) string {
	start := uint32(0)
	if i > 0 {
		start = l.ends[i-1]
	}
	return l.s[start:l.ends[i]]
}

// search returns the index of s in l, whose strings are in order.
func (l *strList) search(s string) (int, bool) {
	i := sort.Search(l.len(), func(i int) bool { return l.at(i) >= s })
	return i, i < l.len() && l.at(i) == s
}

// strMap is a read-only map of strings to strings: its keys in order and
// their values.
type strMap struct{ keys, vals strList }

func newStrMap(m map[string]string) strMap {
	keys := slices.Sorted(maps.Keys(m))
	vals := make([]string, len(keys))
	for i, k := range keys {
		vals[i] = m[k]
	}
	return strMap{newStrList(keys), newStrList(vals)}
}

func (m *strMap) len() int { return m.keys.len() }

func (m *strMap) get(k string) (string, bool) {
	if i, ok := m.keys.search(k); ok {
		return m.vals.at(i), true
	}
	return "", false
}

// all returns m as a map (for tests and JSON).
func (m *strMap) all() map[string]string {
	out := make(map[string]string, m.len())
	for i := range m.len() {
		out[m.keys.at(i)] = m.vals.at(i)
	}
	return out
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
