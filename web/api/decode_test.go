package api

import (
	"bytes"
	"encoding/json"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"
)

// requestSeeds are run requests as clients send them, and near misses.
var requestSeeds = []string{
	`{"code":"output = input.length;","mode":"script","input":[1,2,3]}`,
	`{"id":"r1","files":[{"path":"main.ts","source":"console.log(1)"},{"path":"b.ts","source":"x"}],"entry":"main.ts","timeoutMs":1500,"deterministic":true,"wait":false,"record":true}`,
	`{"code":"x","inputData":{"rows":[{"id":1,"v":1.5}]},"timeoutMs":1e3}`,
	` { "code" : "x" , "input" : { "a" : [ 1 , "b" ] } } `,
	`{"code":"x","input":null}`,
	`{"code":null}`,
	`{"Code":"x"}`,
	`{"code":"x","code":"y"}`,
	`{"code":"x","extra":1}`,
	`{"code":"x"} {}`,
	`{"code":"x","input":"\u00e9\ud83d\ude00\\n"}`,
	`{"code":"x","timeoutMs":"1"}`,
	`{"files":[{"path":"a","source":"b","x":1}]}`,
	`{"files":[]}`,
	`[]`,
}

// TestParseRunRequestMatchesEncodingJSON: whatever parseRunRequest takes,
// encoding/json decodes (with DisallowUnknownFields, nothing after) to the
// same RunRequest, over the seeds, thousands of mutations of them and
// well-formed requests with hostile strings.
func TestParseRunRequestMatchesEncodingJSON(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	inputs := append([]string(nil), requestSeeds...)
	alphabet := []byte("{}[]\",:\\ \t\nu0123456789abcdefABCDEF.eE+-trunlsfxyz\xff\xe2\x80\xa8")
	for range 5000 {
		b := []byte(requestSeeds[rng.IntN(len(requestSeeds))])
		for range 1 + rng.IntN(3) {
			i := rng.IntN(len(b))
			switch rng.IntN(3) {
			case 0:
				b[i] = alphabet[rng.IntN(len(alphabet))]
			case 1:
				b = append(b[:i], b[i+1:]...)
			default:
				b = append(b[:i], append([]byte{alphabet[rng.IntN(len(alphabet))]}, b[i:]...)...)
			}
			if len(b) == 0 {
				break
			}
		}
		inputs = append(inputs, string(b))
	}
	hostile := []string{"", "\x00", "\u2028", "\xff", `"\`, "</script>", "é😀", strings.Repeat("a", 300)}
	for i := range 500 {
		m := map[string]any{"code": hostile[i%len(hostile)], "mode": hostile[(i+1)%len(hostile)],
			"input": map[string]any{"a": []any{hostile[(i+2)%len(hostile)], float64(i) / 3}}}
		if i%2 == 0 {
			m["id"], m["timeoutMs"], m["wait"] = hostile[i%len(hostile)], float64(i)*1.5, i%4 == 0
		}
		b, _ := json.Marshal(m)
		inputs = append(inputs, string(b))
	}
	took := 0
	for _, in := range inputs {
		fast, ok := parseRunRequest([]byte(in))
		if !ok {
			continue
		}
		took++
		var slow RunRequest
		d := json.NewDecoder(bytes.NewReader([]byte(in)))
		d.DisallowUnknownFields()
		if err := d.Decode(&slow); err != nil {
			t.Fatalf("parseRunRequest took %q, which encoding/json refuses: %v", in, err)
		}
		if d.More() {
			t.Fatalf("parseRunRequest took %q, which has data after the object", in)
		}
		if !reflect.DeepEqual(fast, slow) {
			t.Fatalf("%q:\nfast %+v\nslow %+v", in, fast, slow)
		}
	}
	if took < 500 {
		t.Errorf("parseRunRequest took %d of %d inputs; the test checks too little", took, len(inputs))
	}
}

// TestToRunInputAsMarshalWrote: a run's input is what json.Marshal wrote
// of it inside the run message (compact, HTML-safe), invalid UTF-8 in a
// string included (encoding/json copies it; jsonwire refuses it, and the
// input then goes the old way), and null stays null.
func TestToRunInputAsMarshalWrote(t *testing.T) {
	code := "output = input;"
	for _, in := range []string{` { "a" : [1, "<b>"] } `, "\"\xff\xfe\"", `null`, `[1e400, -0, "\u2028"]`} {
		q := RunRequest{Code: &code, Input: json.RawMessage(in)}
		run, p := q.toRun(true)
		if p != nil {
			t.Fatalf("%q: %+v", in, p)
		}
		want, err := json.Marshal(json.RawMessage(in))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(run.Input, want) {
			t.Errorf("input %q became %q; want %q", in, run.Input, want)
		}
	}
}
