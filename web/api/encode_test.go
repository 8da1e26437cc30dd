package api

import (
	"bytes"
	"encoding/json"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/playground-dev/playground/ws"
)

// TestMarshalResultMatchesEncodingJSON: marshalResult writes what
// json.Marshal writes, byte for byte, for results with every field set or
// zero, nil and empty lists, omitted fields, hostile strings and raw
// values with whitespace and HTML characters; an invalid raw value falls
// back to json.Marshal's error.
func TestMarshalResultMatchesEncodingJSON(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	strs := []string{"", "ok", "a\"b\\c", "\x00\x1f\u2028\u2029", "<script>&</script>", "é😀", "\xff\xfe", strings.Repeat("x", 100)}
	raws := []json.RawMessage{nil, json.RawMessage(`null`), json.RawMessage(` { "a" : [1, 2.50, "<&>"] } `), json.RawMessage(`"\u00e9\ud83d\ude00"`),
		json.RawMessage(`[{"id":1,"name":"item-1","v":1.5}]`), json.RawMessage(`1e400`), json.RawMessage(`-0`)}
	floats := []float64{0, 1, -1.5, 1e-7, 1e21, 123456.789, 0.000001}
	str := func() string { return strs[rng.IntN(len(strs))] }
	raw := func() json.RawMessage { return raws[rng.IntN(len(raws))] }
	flt := func() float64 { return floats[rng.IntN(len(floats))] }
	opt := func() *string {
		if rng.IntN(2) == 0 {
			return nil
		}
		s := str()
		return &s
	}
	for i := range 3000 {
		r := Result{ID: str(), Outcome: str(), Output: raw(), DurationMs: flt(), TimedOut: i%2 == 0, TimeoutMs: flt(),
			Stats:   ws.Stats{QueueMs: flt(), BundleMs: flt(), RunMs: flt(), Logs: i, OutputBytes: i * 3, Truncated: i%3 == 0},
			Success: i%5 == 0, Error: opt(), ErrorType: opt(), ExecutionTimeMs: flt()}
		if i%4 != 0 {
			r.Facts = map[string]json.RawMessage{}
			for range rng.IntN(4) {
				if v := raw(); v != nil {
					r.Facts[str()] = v
				}
			}
		}
		if i%3 != 0 {
			r.Logs = []Log{}
			for range rng.IntN(3) {
				l := Log{Level: str(), Text: str(), T: flt()}
				if rng.IntN(3) > 0 {
					l.Args = []json.RawMessage{}
					for range rng.IntN(3) {
						if v := raw(); v != nil {
							l.Args = append(l.Args, v)
						}
					}
				}
				r.Logs = append(r.Logs, l)
			}
			r.Errors = []Error{{Kind: str(), Message: str(), Stack: str(), File: str(), Line: rng.IntN(3), Column: rng.IntN(3), T: flt()}}
			r.Calls = []Call{{Name: str(), Ms: flt(), OK: i%2 == 1, Error: str(), Args: []json.RawMessage{}, Result: raw(), T: flt()}}
		}
		if i%7 == 0 {
			f := flt()
			r.RetryAfterMs = &f
		}
		if i%6 == 0 {
			r.Tape = raw()
		}
		want, werr := json.Marshal(r)
		got, gerr := marshalResult(&r)
		if (werr != nil) != (gerr != nil) || !bytes.Equal(got, want) {
			t.Fatalf("result %d:\n got %s (%v)\nwant %s (%v)", i, got, gerr, want, werr)
		}
	}
	bad := Result{Output: json.RawMessage(`{"a":`)}
	if _, err := marshalResult(&bad); err == nil {
		t.Error("an invalid output was written")
	}
}

// BenchmarkMarshalResult: a result whose output is 10,000 rows (≈ 377 KB),
// through json.Marshal and through marshalResult.
// go test ./web/api -run '^$' -bench MarshalResult -benchmem
func BenchmarkMarshalResult(b *testing.B) {
	var out bytes.Buffer
	out.WriteByte('[')
	for i := range 10000 {
		if i > 0 {
			out.WriteByte(',')
		}
		out.WriteString(`{"id":` + strings.Repeat("7", 1+i%4) + `,"name":"item-` + strings.Repeat("3", 1+i%4) + `","v":1234.5}`)
	}
	out.WriteByte(']')
	r := Result{ID: "http-1", Outcome: "ok", Output: out.Bytes(), Facts: map[string]json.RawMessage{}, Logs: []Log{}, Errors: []Error{}, Calls: []Call{}}
	b.Run("encoding-json", func(b *testing.B) {
		b.SetBytes(int64(out.Len()))
		for b.Loop() {
			if _, err := json.Marshal(&r); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("jsonwire", func(b *testing.B) {
		b.SetBytes(int64(out.Len()))
		for b.Loop() {
			if _, err := marshalResult(&r); err != nil {
				b.Fatal(err)
			}
		}
	})
}
