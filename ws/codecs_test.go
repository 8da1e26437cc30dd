package ws

import (
	"bytes"
	"encoding/json"
	"reflect"
	"strings"
	"sync"
	"testing"

	segjson "github.com/segmentio/encoding/json"
)

// The messages of BenchmarkCodecs: what a hello-world run sends and
// receives most (docs/benchmarks.md, "Codecs: ours, segmentio,
// encoding/json").
var (
	benchRun = []byte(runSeeds[0])
	benchLog = Log{RunHeader: RunHeader{Type: TypeLog, ID: "r-123", Seq: 2, T: 0.123}, Level: "log", Text: "hello, world",
		Args: []json.RawMessage{json.RawMessage(`"hello, world"`)}}
	benchDone = Done{RunHeader: RunHeader{Type: TypeDone, ID: "r-123", Seq: 3, T: 4.517}, Outcome: "ok", DurationMs: 5.25,
		Facts:  map[string]json.RawMessage{"greeting": json.RawMessage(`"hello, world"`), "count": json.RawMessage(`3`)},
		Output: json.RawMessage(`{"ok":true}`),
		Stats:  Stats{QueueMs: 0.012, BundleMs: 0.75, RunMs: 3.5, Logs: 1, OutputBytes: 11}}
)

// TestBenchmarkMessagesAgree: on BenchmarkCodecs's messages our codecs
// give encoding/json's bytes and values, so the benchmark compares the
// same work; segmentio's agreement is logged (it is not ours to hold).
func TestBenchmarkMessagesAgree(t *testing.T) {
	fast, ok := parseRun(benchRun)
	var want runFields
	if err := strict(benchRun, &want); !ok || err != nil || !reflect.DeepEqual(fast, want) {
		t.Errorf("parseRun = %+v, %v; encoding/json %+v, %v", fast, ok, want, err)
	}
	var seg runFields
	if err := segjson.Unmarshal(benchRun, &seg); err != nil || !reflect.DeepEqual(seg, want) {
		t.Logf("segmentio decodes the run message as %+v, %v", seg, err)
	}
	for _, m := range []any{benchLog, benchDone} {
		got, gerr := Marshal(m)
		want, werr := json.Marshal(m)
		if gerr != nil || werr != nil || !bytes.Equal(got, want) {
			t.Errorf("%T: Marshal %s (%v); json.Marshal %s (%v)", m, got, gerr, want, werr)
		}
		if seg, err := segjson.Marshal(m); err != nil || !bytes.Equal(seg, want) {
			t.Logf("%T: segmentio writes %s (%v)", m, seg, err)
		}
	}
}

// BenchmarkCodecs compares our codecs with encoding/json and
// github.com/segmentio/encoding/json on the same messages:
//
//	go test -run '^$' -bench Codecs -benchmem -count 5 ./ws
func BenchmarkCodecs(b *testing.B) {
	b.Run("run-decode/ours", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, ok := parseRun(benchRun); !ok {
				b.Fatal("not taken")
			}
		}
	})
	b.Run("run-decode/encoding-json", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			var m runFields
			if err := json.Unmarshal(benchRun, &m); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("run-decode/segmentio", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			var m runFields
			if err := segjson.Unmarshal(benchRun, &m); err != nil {
				b.Fatal(err)
			}
		}
	})
	for _, c := range []struct {
		name string
		m    any
	}{{"log-encode", benchLog}, {"done-encode", benchDone}} {
		b.Run(c.name+"/ours", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := Marshal(c.m); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(c.name+"/encoding-json", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := json.Marshal(c.m); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(c.name+"/segmentio", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := segjson.Marshal(c.m); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// TestMarshalOwnsItsBytes: Marshal's result is the caller's (its scratch
// buffer is pooled): later and concurrent calls, a message larger than
// the pool keeps included, never change a result already returned.
func TestMarshalOwnsItsBytes(t *testing.T) {
	big := benchLog
	big.Text = strings.Repeat("x", maxScratch+1)
	msgs := []any{benchLog, benchDone, &big, Pong{Type: TypePong, T: json.RawMessage(`1`)}}
	want := make([][]byte, len(msgs))
	for i, m := range msgs {
		want[i], _ = json.Marshal(m)
	}
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Go(func() {
			var kept [][]byte
			for i := range 200 {
				b, err := Marshal(msgs[(g+i)%len(msgs)])
				if err != nil {
					t.Error(err)
					return
				}
				kept = append(kept, b)
			}
			for i, b := range kept {
				if w := want[(g+i)%len(msgs)]; !bytes.Equal(b, w) {
					t.Errorf("result %d changed after later calls: %.80s; want %.80s", i, b, w)
					return
				}
			}
		})
	}
	wg.Wait()
}
