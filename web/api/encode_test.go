package api

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"strconv"
	"testing"
	"unicode/utf8"

	"github.com/playground-dev/playground/ws"
)

var (
	hostileStrings = []string{"", "x", `"quoted"`, `back\slash`, "</script>&amp;", "\x00\x1f\x7f", "\u2028\u2029", "é中😀", "a\xffb", "\xed\xa0\x80"}
	hostileRaws    = []json.RawMessage{nil, json.RawMessage(`null`), json.RawMessage(`1`), json.RawMessage(`"<&>"`), json.RawMessage(" { \"a\" : [ 1 , true ] } "),
		json.RawMessage("\"\xe2\x80\xa8\""), json.RawMessage(`[{"id":1,"name":"item-1","v":1.5}]`), json.RawMessage("\"\xff\"")}
	// invalidRaws are refused by json.Marshal, and so must be by marshalResult.
	invalidRaws   = []json.RawMessage{json.RawMessage(``), json.RawMessage(`{`), json.RawMessage(`01`), json.RawMessage(`[1,]`)}
	hostileFloats = []float64{0, -1.5, 1e21, 1e-7, 123.456, math.MaxFloat64, math.Inf(1), math.NaN()}
)

// randomResult is a Result with each field drawn from the hostile values
// (nil and empty lists and maps included).
func randomResult(r *rand.Rand) Result {
	str := func() string { return hostileStrings[r.IntN(len(hostileStrings))] }
	// Invalid raws and numbers are rare, so that about half the results encode.
	raw := func() json.RawMessage {
		if r.IntN(40) == 0 {
			return invalidRaws[r.IntN(len(invalidRaws))]
		}
		return hostileRaws[r.IntN(len(hostileRaws))]
	}
	f := func() float64 {
		if r.IntN(40) > 0 {
			return hostileFloats[r.IntN(len(hostileFloats)-2)]
		}
		return hostileFloats[r.IntN(len(hostileFloats))]
	}
	n := func() int { return []int{0, 1, -1, 1 << 40}[r.IntN(4)] }
	raws := func() []json.RawMessage {
		if r.IntN(4) == 0 {
			return nil
		}
		out := []json.RawMessage{}
		for range r.IntN(3) {
			out = append(out, raw())
		}
		return out
	}
	strPtr := func() *string {
		if r.IntN(2) == 0 {
			return nil
		}
		s := str()
		return &s
	}
	res := Result{ID: str(), Outcome: str(), Output: raw(), DurationMs: f(), TimedOut: r.IntN(2) == 0, TimeoutMs: f(),
		Stats:   ws.Stats{QueueMs: f(), BundleMs: f(), RunMs: f(), Logs: n(), OutputBytes: n(), Truncated: r.IntN(2) == 0},
		Success: r.IntN(2) == 0, Error: strPtr(), ErrorType: strPtr(), ExecutionTimeMs: f()}
	if r.IntN(3) == 0 {
		ra := f()
		res.RetryAfterMs = &ra
	}
	if r.IntN(3) == 0 {
		res.Tape = raw()
	}
	if r.IntN(4) > 0 {
		res.Facts = map[string]json.RawMessage{}
		for range r.IntN(3) {
			res.Facts[str()] = raw()
		}
	}
	if r.IntN(4) > 0 {
		res.Logs = []Log{}
		for range r.IntN(3) {
			res.Logs = append(res.Logs, Log{Level: str(), Text: str(), Args: raws(), T: f()})
		}
	}
	if r.IntN(4) > 0 {
		res.Errors = []Error{}
		for range r.IntN(3) {
			res.Errors = append(res.Errors, Error{Kind: str(), Message: str(), Stack: str(), File: str(), Line: n(), Column: n(), T: f()})
		}
	}
	if r.IntN(4) > 0 {
		res.Calls = []Call{}
		for range r.IntN(3) {
			res.Calls = append(res.Calls, Call{Name: str(), Ms: f(), OK: r.IntN(2) == 0, Error: str(), Args: raws(), Result: raw(), T: f()})
		}
	}
	return res
}

// TestMarshalResultMatchesEncodingJSON: marshalResult returns json.Marshal's
// bytes and errors for 5,000 random hostile results, and its fast path
// (appendResult) takes every one json.Marshal encodes but those with a raw
// value of invalid UTF-8 (jsonwire refuses it; json.Marshal copies it).
func TestMarshalResultMatchesEncodingJSON(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	fast, failed := 0, 0
	for range 5000 {
		res := randomResult(r)
		want, werr := json.Marshal(&res)
		got, err := marshalResult(&res)
		if (err != nil) != (werr != nil) || !bytes.Equal(got, want) {
			t.Fatalf("marshalResult(%#v) = %s, %v; json.Marshal %s, %v", res, got, err, want, werr)
		}
		_, ok := appendResult(nil, &res)
		switch {
		case werr != nil:
			failed++
			if ok {
				t.Fatalf("appendResult took %#v; json.Marshal refuses it: %v", res, werr)
			}
		case ok:
			fast++
		case utf8.Valid(want):
			t.Fatalf("appendResult refused %#v; json.Marshal writes %s", res, want)
		}
	}
	t.Logf("%d fast, %d refused by json.Marshal", fast, failed)
	if fast < 500 || failed < 500 {
		t.Errorf("%d results took the fast path and %d failed; want some of each", fast, failed)
	}
}

// BenchmarkMarshalResult is the HTTP answer of a run whose output, or one
// fact, is n rows {"id":1,"name":"item-1","v":1.5}; MB/s are of the rows.
func BenchmarkMarshalResult(b *testing.B) {
	for _, n := range []int{1e3, 1e4, 1e5} {
		rows := []byte{'['}
		for i := 1; i <= n; i++ {
			if i > 1 {
				rows = append(rows, ',')
			}
			rows = fmt.Appendf(rows, `{"id":%d,"name":"item-%d","v":%s}`, i, i, strconv.FormatFloat(float64(i)+0.5, 'f', -1, 64))
		}
		rows = append(rows, ']')
		for _, kind := range []string{"output", "fact"} {
			res := newCollector("r1").r
			res.Outcome, res.Success = ws.OutcomeOK, true
			if kind == "output" {
				res.Output = rows
			} else {
				res.Facts["rows"] = rows
			}
			for _, enc := range []struct {
				name    string
				marshal func(*Result) ([]byte, error)
			}{{"jsonwire", marshalResult}, {"encoding-json", func(r *Result) ([]byte, error) { return json.Marshal(r) }}} {
				b.Run(fmt.Sprintf("%s/%s/rows=%d", kind, enc.name, n), func(b *testing.B) {
					b.SetBytes(int64(len(rows)))
					for b.Loop() {
						if _, err := enc.marshal(&res); err != nil {
							b.Fatal(err)
						}
					}
				})
			}
		}
	}
}
