package ws

import (
	"encoding/json"
	"fmt"
	"strconv"
	"testing"
)

// The server's side of a large raw value from the worker: the fact message
// that carries it and the done message that carries it again (facts, or
// output), n rows {"id":1,"name":"item-1","v":1.5}. Marshal checks each
// raw value (jsonwire.AppendRaw). MB/s are of the raw value.

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

func BenchmarkMarshalBoundary(b *testing.B) {
	for _, n := range []int{1e3, 1e4, 1e5} {
		r := rows(n)
		h := RunHeader{Type: TypeDone, ID: "r1", Seq: 3, T: 12.5}
		msgs := []struct {
			name string
			v    any
		}{
			{"fact", &Fact{RunHeader: h, Key: "rows", Value: r}},
			{"done-facts", &Done{RunHeader: h, Outcome: OutcomeOK, Facts: map[string]json.RawMessage{"rows": r}}},
			{"done-output", &Done{RunHeader: h, Outcome: OutcomeOK, Facts: map[string]json.RawMessage{}, Output: r}},
		}
		for _, m := range msgs {
			b.Run(fmt.Sprintf("%s/rows=%d", m.name, n), func(b *testing.B) {
				b.SetBytes(int64(len(r)))
				for b.Loop() {
					if _, err := Marshal(m.v); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}
