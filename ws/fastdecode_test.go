package ws

import (
	"encoding/json"
	"math/rand/v2"
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

var runSeeds = []string{
	`{"type":"run","id":"r1","files":[{"path":"src/main.ts","source":"import { greet } from './greet.js';\nconsole.log(greet('world'));\n"},{"path":"src/greet.ts","source":"export function greet(name: string): string {\n  return ` + "`hello, ${name}`" + `;\n}\n"}]}`,
	` { "type" : "run" , "id" : "a.b:c-d_e" , "files" : [ { "path" : "a.js" , "source" : "" } ] , "entry" : "a.js" , "input" : { "x" : [1, 2.5e3, "y", true, null] } , "timeoutMs" : 1500.5 , "deterministic" : false , "mode" : "script" } `,
	`{"type":"run","id":"x","files":[],"input":null}`,
	`{"type":"run","id":"x","files":null}`,
	`{"type":"run","id":"x","files":[{}],"timeoutMs":-0}`,
	`{"type":"run","id":"x","files":[{"path":"a.js","source":"\u00e9\ud83d\ude00\"\\\/\b\f\n\r\t"}],"deterministic":true}`,
	`{"type":"run","id":"x","files":[{"path":"a.js","source":"\ud83d alone"}]}`,
	`{"type":"run","id":"x","files":[{"path":"a.js","source":"\udc00\ud83d"}]}`,
	"{\"type\":\"run\",\"id\":\"x\",\"files\":[{\"path\":\"a.js\",\"source\":\"bad \xff utf8\"}]}",
	"{\"type\":\"run\",\"id\":\"x\",\"files\":[{\"path\":\"a.js\",\"source\":\"raw\ttab\"}]}",
	`{"type":"run","id":"x","id":"y","files":[{"path":"a.js"}]}`,
	`{"Type":"run","id":"x","files":[{"path":"a.js"}]}`,
	`{"type":"run","id":"x","files":[{"path":"a.js","Source":"s"}]}`,
	`{"type":"run","id":"x","files":[{"path":"a.js"}],"extra":1}`,
	`{"type":"run","id":"x","files":[{"path":"a.js"}]} trailing`,
	`{"type":"run","id":"x","files":[{"path":"a.js"}]}{}`,
	`{"type":"run","id":"x","files":[{"path":"a.js"}],"timeoutMs":1e999}`,
	`{"type":"run","id":"x","files":[{"path":"a.js"}],"timeoutMs":"5"}`,
	`{"type":"run","id":"x","files":[{"path":"a.js"}],"timeoutMs":01}`,
	`{"type":"run","id":"x","files":[{"path":"a.js"}],"timeoutMs":1.}`,
	`{"type":"run","id":"x","files":[{"path":"a.js"}],"input":[1,2,}`,
	`{"type":"run","id":"x","files":[{"path":"a.js"}],"input":tru}`,
	`{"type":"run","id":"x","files":[{"path":"a.js"}],"input":"\u2028<&>"}`,
	`{"type":"run","id":"x","files":[{"path":"a.js"}],"deterministic":1}`,
	`{"type":"run","id":"x","files":[{"path":"a.js"}],"mode":null}`,
	`{"type":"cancel","id":"x"}`,
	`{"type":"ping","t":1}`,
	`{}`, `[]`, `null`, ``, `{"type":"run"`, `{"type":"run","id":"` + strings.Repeat("z", 65) + `","files":[{"path":"a.js"}]}`,
}

// TestParseRunMatchesEncodingJSON: what parseRun takes, it decodes as
// strict(b, &runFields{}) does; seeds and random mutations of them.
func TestParseRunMatchesEncodingJSON(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	inputs := append([]string(nil), runSeeds...)
	alphabet := []byte("{}[]\",:\\ \t\nu0123456789abcdefABCDEF.eE+-trunlsfxyz\xff\xe2\x80\xa8")
	for range 5000 {
		b := []byte(runSeeds[rng.IntN(len(runSeeds))])
		for range 1 + rng.IntN(3) {
			if len(b) == 0 {
				break
			}
			i := rng.IntN(len(b))
			switch rng.IntN(3) {
			case 0:
				b[i] = alphabet[rng.IntN(len(alphabet))]
			case 1:
				b = append(b[:i], b[i+1:]...)
			default:
				b = append(b[:i], append([]byte{alphabet[rng.IntN(len(alphabet))]}, b[i:]...)...)
			}
		}
		inputs = append(inputs, string(b))
	}
	// Well-formed messages with hostile strings, as json.Marshal writes them
	// (and with \u escapes for every non-ASCII character).
	for i := range 1000 {
		m := map[string]any{"type": "run", "id": "r" + strings.Repeat("1", i%70),
			"files": []map[string]string{{"path": hostile[i%len(hostile)], "source": hostile[(i+1)%len(hostile)]}}}
		if i%2 == 0 {
			m["input"] = map[string]any{"a": []any{hostile[i%len(hostile)], float64(i) / 3}}
			m["timeoutMs"] = float64(i) * 1.5
			m["mode"] = hostile[(i+2)%len(hostile)]
			m["entry"] = "x"
			m["deterministic"] = i%4 == 0
		}
		b, _ := json.Marshal(m)
		inputs = append(inputs, string(b))
		if i%3 == 0 {
			inputs = append(inputs, strconv.QuoteToASCII(string(b))[1:len(b)+1])
		}
	}
	took := 0
	for _, in := range inputs {
		fast, ok := parseRun([]byte(in))
		if !ok {
			continue
		}
		took++
		var slow runFields
		if err := strict([]byte(in), &slow); err != nil {
			t.Fatalf("parseRun took %q, which encoding/json refuses: %v", in, err)
		}
		if !reflect.DeepEqual(fast, slow) {
			t.Fatalf("%q:\n parseRun %+v\n strict   %+v", in, fast, slow)
		}
	}
	if took < 500 {
		t.Errorf("parseRun took only %d inputs; the comparison tests little", took)
	}
	// The benchmark's message takes the fast path.
	if _, ok := parseRun([]byte(runSeeds[0])); !ok {
		t.Error("the hello run does not take the fast path")
	}
}

// FuzzParseRun extends the comparison: go test -fuzz FuzzParseRun ./ws
func FuzzParseRun(f *testing.F) {
	for _, s := range runSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		fast, ok := parseRun(b)
		if !ok {
			return
		}
		var slow runFields
		if err := strict(b, &slow); err != nil {
			t.Fatalf("parseRun took %q, which encoding/json refuses: %v", b, err)
		}
		if !reflect.DeepEqual(fast, slow) {
			t.Fatalf("%q:\n parseRun %+v\n strict   %+v", b, fast, slow)
		}
	})
}

// TestChecksMatchTheirPatterns: validID and CheckPath's segment rule
// accept exactly what the protocol's patterns do.
func TestChecksMatchTheirPatterns(t *testing.T) {
	idPattern := regexp.MustCompile(`^[A-Za-z0-9._:-]{1,64}$`)
	segPattern := regexp.MustCompile(`^[A-Za-z0-9._-]+$`)
	rng := rand.New(rand.NewPCG(5, 6))
	chars := []byte("aZ09._:-/ \n\xffé")
	for range 20000 {
		b := make([]byte, rng.IntN(70))
		for i := range b {
			b[i] = chars[rng.IntN(len(chars))]
		}
		s := string(b)
		if validID(s) != idPattern.MatchString(s) {
			t.Fatalf("validID(%q) = %v", s, validID(s))
		}
		p := s + ".js"
		want := !strings.HasPrefix(p, "/") && len(p) <= MaxPathBytes && strings.Count(p, "/") < MaxPathSegments
		for _, seg := range strings.Split(p, "/") {
			want = want && seg != "." && seg != ".." && segPattern.MatchString(seg)
		}
		if got := CheckPath(p) == nil; got != want {
			t.Fatalf("CheckPath(%q) = %v; want ok %v", p, CheckPath(p), want)
		}
	}
}

func BenchmarkDecodeRun(b *testing.B) {
	msg := []byte(runSeeds[0])
	b.Run("Decode", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := Decode(msg); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("encoding-json", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			var m runFields
			if err := strict(msg, &m); err != nil {
				b.Fatal(err)
			}
		}
	})
}
