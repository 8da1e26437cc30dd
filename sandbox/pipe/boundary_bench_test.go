package pipe

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"testing"
)

// The pipe's side of a large raw value crossing the boundary (issue: data
// across the boundary at ≥ 100 MB/s each way): a fact event and a result
// whose raw value is n rows {"id":1,"name":"item-1","v":1.5}. Encoding is
// the worker's end (it checks its own raw values, jsonwire.AppendRaw);
// decoding is the parent's (jsonwire's Scanner checks each raw value as it
// finds its end). MB/s are of the raw value.

// rows is a compact JSON array of n rows (jsonwire's raw_bench_test.go
// writes the same bytes).
func rows(n int) json.RawMessage {
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

// boundaryMessages are a fact event and a result carrying n rows.
func boundaryMessages(n int) map[string]Message {
	r := rows(n)
	return map[string]Message{
		"fact":   {Event: &Event{Kind: EventFact, T: 5, Key: "rows", Value: r}},
		"output": {Result: &Result{Outcome: OutcomeOK, Output: r, Facts: map[string]json.RawMessage{}}},
	}
}

func BenchmarkBoundaryEncode(b *testing.B) {
	for _, n := range []int{1e3, 1e4, 1e5} {
		for _, name := range []string{"fact", "output"} {
			m := boundaryMessages(n)[name]
			b.Run(fmt.Sprintf("%s/rows=%d", name, n), func(b *testing.B) {
				b.SetBytes(int64(len(rows(n))))
				var buf bytes.Buffer
				w := NewWriter(&buf)
				for b.Loop() {
					buf.Reset()
					if err := w.Buffer(m); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

func BenchmarkBoundaryDecode(b *testing.B) {
	for _, n := range []int{1e3, 1e4, 1e5} {
		for _, name := range []string{"fact", "output"} {
			line, ok := appendValue(nil, boundaryMessages(n)[name])
			if !ok {
				b.Fatal("appendValue refused the message")
			}
			b.Run(fmt.Sprintf("%s/rows=%d", name, n), func(b *testing.B) {
				b.SetBytes(int64(len(rows(n))))
				for b.Loop() {
					var m Message
					if err := DecodeMessage(line, &m); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}
