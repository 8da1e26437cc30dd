package jsonwire

import (
	"encoding/json"
	"fmt"
	"strconv"
	"testing"
)

// The raw values a worker sends the parent: an output or a fact of n rows
// shaped {"id":1,"name":"item-1","v":1.5}, compact, as the worker's
// JSON.stringify writes them (1e4 rows ≈ 377 KB). The benchmarks report
// MB/s of that value; the goal is ≥ 100 MB/s across the boundary,
// this package's ≥ 300 MB/s.

// rows is a JSON array of n rows, compact.
func rows(n int) []byte {
	b := []byte{'['}
	for i := 1; i <= n; i++ {
		if i > 1 {
			b = append(b, ',')
		}
		b = append(b, `{"id":`...)
		b = strconv.AppendInt(b, int64(i), 10)
		b = append(b, `,"name":"item-`...)
		b = strconv.AppendInt(b, int64(i), 10)
		b = append(b, `","v":`...)
		b = strconv.AppendFloat(b, float64(i)+0.5, 'f', -1, 64)
		b = append(b, '}')
	}
	return append(b, ']')
}

var rowCounts = []int{1e3, 1e4, 1e5}

// BenchmarkAppendRaw is ws's and the pipe encoder's check of one raw value
// (a fact event's value, a done's output).
func BenchmarkAppendRaw(b *testing.B) {
	for _, n := range rowCounts {
		r := json.RawMessage(rows(n))
		b.Run(fmt.Sprintf("rows=%d", n), func(b *testing.B) {
			b.SetBytes(int64(len(r)))
			dst := make([]byte, 0, len(r)+16)
			for b.Loop() {
				var ok bool
				if dst, ok = AppendRaw(dst[:0], r); !ok {
					b.Fatal("AppendRaw refused the rows")
				}
			}
		})
	}
}

// BenchmarkAppendRawMap is done's facts: one fact holding n rows.
func BenchmarkAppendRawMap(b *testing.B) {
	for _, n := range rowCounts {
		m := map[string]json.RawMessage{"rows": rows(n), "count": json.RawMessage(strconv.Itoa(n))}
		b.Run(fmt.Sprintf("rows=%d", n), func(b *testing.B) {
			b.SetBytes(int64(len(m["rows"])))
			var dst []byte
			for b.Loop() {
				var ok bool
				if dst, ok = AppendRawMap(dst[:0], m); !ok {
					b.Fatal("AppendRawMap refused the rows")
				}
			}
		})
	}
}

// BenchmarkSkip is the decoders' check of a raw value (the parent's
// pipe.DecodeMessage reads every raw value of a worker's line with it).
func BenchmarkSkip(b *testing.B) {
	for _, n := range rowCounts {
		r := rows(n)
		b.Run(fmt.Sprintf("rows=%d", n), func(b *testing.B) {
			b.SetBytes(int64(len(r)))
			for b.Loop() {
				s := Scanner{Src: r}
				if !s.Skip() || s.I != len(r) {
					b.Fatal("Skip refused the rows")
				}
			}
		})
	}
}

// BenchmarkAppendRawEncodingJSON is the same check by json.Marshal, for
// scale (the HTTP API's response goes through it).
func BenchmarkAppendRawEncodingJSON(b *testing.B) {
	for _, n := range rowCounts {
		r := json.RawMessage(rows(n))
		b.Run(fmt.Sprintf("rows=%d", n), func(b *testing.B) {
			b.SetBytes(int64(len(r)))
			for b.Loop() {
				if _, err := json.Marshal(r); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
