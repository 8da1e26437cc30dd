package jsonwire

import (
	"bytes"
	"encoding/json"
	"math"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"
)

var testFloats = []float64{0, math.Copysign(0, -1), 1, -1, 0.5, 1.25, 1e-6, 9.99e-7, 1e-7, 1e20, 1e21, 1.5e300, -2.5e-300,
	math.MaxFloat64, math.SmallestNonzeroFloat64, 123456.789, 0.001, 1e9 + 0.125, 5e-324, 1 << 53, 1<<53 + 1}

// TestAppendFloatMatchesEncodingJSON: AppendFloat writes json.Marshal's
// bytes for chosen and random float64 bit patterns, and refuses (leaving
// dst as it was) exactly the values json.Marshal refuses.
func TestAppendFloatMatchesEncodingJSON(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	fs := append([]float64{math.Inf(1), math.Inf(-1), math.NaN()}, testFloats...)
	for range 20000 {
		fs = append(fs, math.Float64frombits(rng.Uint64()))
	}
	refused := 0
	for _, f := range fs {
		want, werr := json.Marshal(f)
		got, ok := AppendFloat([]byte("x"), f)
		if werr != nil {
			refused++
			if ok || string(got) != "x" {
				t.Fatalf("AppendFloat(%v) = %q, %v; json.Marshal refuses it: %v", f, got, ok, werr)
			}
			continue
		}
		if !ok || string(got) != "x"+string(want) {
			t.Fatalf("AppendFloat(%v) = %q, %v; json.Marshal %s", f, got, ok, want)
		}
	}
	if refused < 3 {
		t.Errorf("%d values refused; Inf, -Inf and NaN at least must be", refused)
	}
}

// TestAppendRawMatchesEncodingJSON: AppendRaw, AppendRaws, AppendStrings
// and AppendRawMap write json.Marshal's bytes for the same Go values (nil,
// empty, hostile raw values and strings, unsorted keys), and fail, leaving
// dst as it was, exactly where json.Marshal fails and where a raw value
// holds invalid UTF-8 (which json.Marshal copies; the callers' fallback to
// it then writes the same bytes).
func TestAppendRawMatchesEncodingJSON(t *testing.T) {
	raws := []json.RawMessage{nil, {}, json.RawMessage(`null`), json.RawMessage(` { "a" : [ 1 , "<&>" ] } `),
		json.RawMessage("\"\xe2\x80\xa8\""), json.RawMessage(`1e400`), json.RawMessage(`-0`), json.RawMessage(`[1,]`),
		json.RawMessage(`"\q"`), json.RawMessage(`01`), json.RawMessage(`{"a":1}x`), json.RawMessage("\"bad \xff\"")}
	strs := []string{"", "plain", `q"b\s`, "<a>&", "\u2028\u2029", "\x00\x1f\x7f", "é中😀", "bad\xffutf8\xc3"}
	check := func(what string, v any, got []byte, ok bool) {
		t.Helper()
		want, werr := json.Marshal(v)
		if werr != nil || badUTF8Raw(v) {
			if ok || string(got) != "x" {
				t.Errorf("%s(%q) = %q, %v; want it refused (json.Marshal: %v; a raw value of invalid UTF-8: %v)", what, v, got, ok, werr, badUTF8Raw(v))
			}
			return
		}
		if !ok || string(got) != "x"+string(want) {
			t.Errorf("%s(%q) = %q, %v; json.Marshal %s", what, v, got, ok, want)
		}
	}
	for _, r := range raws {
		got, ok := AppendRaw([]byte("x"), r)
		check("AppendRaw", r, got, ok)
	}
	rawLists := [][]json.RawMessage{nil, {}, raws[2:5], raws, {raws[3], raws[0]}}
	for _, rs := range rawLists {
		got, ok := AppendRaws([]byte("x"), rs)
		check("AppendRaws", rs, got, ok)
	}
	for _, ss := range [][]string{nil, {}, strs, strs[:1]} {
		check("AppendStrings", ss, AppendStrings([]byte("x"), ss), true)
	}
	maps := []map[string]json.RawMessage{nil, {}}
	for i := range strs {
		m := map[string]json.RawMessage{}
		for j, s := range strs[i:] {
			m[s] = raws[(i+j)%4+2]
		}
		maps = append(maps, m, map[string]json.RawMessage{strs[i]: raws[(i+7)%len(raws)], "z": json.RawMessage(`1`)})
	}
	for _, m := range maps {
		got, ok := AppendRawMap([]byte("x"), m)
		check("AppendRawMap", m, got, ok)
	}
}

// badUTF8Raw reports whether v is, or holds, a raw value that is not
// valid UTF-8.
func badUTF8Raw(v any) bool {
	switch x := v.(type) {
	case json.RawMessage:
		return !utf8.Valid(x)
	case []json.RawMessage:
		return slices.ContainsFunc(x, func(r json.RawMessage) bool { return !utf8.Valid(r) })
	case map[string]json.RawMessage:
		for _, r := range x {
			if badUTF8Raw(r) {
				return true
			}
		}
	}
	return false
}

// TestAppendKeyWritesObjects: a run of AppendKey and values after '{'
// writes the object json.Marshal writes for the struct of those fields,
// nested objects included.
func TestAppendKeyWritesObjects(t *testing.T) {
	type inner struct {
		X int  `json:"x"`
		Y bool `json:"y"`
	}
	type outer struct {
		A     string `json:"a"`
		In    inner  `json:"in"`
		Empty struct{}
		B     []string `json:"b"`
	}
	b := AppendKey([]byte("{"), "a")
	b = AppendString(b, "<v>")
	b = append(AppendKey(b, "in"), '{')
	b = append(AppendKey(b, "x"), '7')
	b = append(AppendKey(b, "y"), "true}"...)
	b = append(AppendKey(b, "Empty"), "{}"...)
	b = AppendStrings(AppendKey(b, "b"), []string{"p", "q"})
	b = append(b, '}')
	want, _ := json.Marshal(outer{A: "<v>", In: inner{X: 7, Y: true}, B: []string{"p", "q"}})
	if !bytes.Equal(b, want) {
		t.Errorf("AppendKey built %s; json.Marshal %s", b, want)
	}
}

// fields is a message with one field of each kind the Scanner decodes.
type fields struct {
	S   string                     `json:"s"`
	B   bool                       `json:"b"`
	I64 int64                      `json:"i64"`
	I   int                        `json:"i"`
	F   float64                    `json:"f"`
	R   json.RawMessage            `json:"r"`
	Rs  []json.RawMessage          `json:"rs"`
	Ss  []string                   `json:"ss"`
	M   map[string]json.RawMessage `json:"m"`
	In  *fields                    `json:"in"`
}

var fieldKeys = []string{"s", "b", "i64", "i", "f", "r", "rs", "ss", "m", "in"}

func (s *Scanner) fields(v *fields) bool {
	return s.Object(fieldKeys, func(k int) bool {
		switch k {
		case 0:
			return s.Str(&v.S)
		case 1:
			return s.Bool(&v.B)
		case 2:
			return s.Int64(&v.I64)
		case 3:
			return s.Int(&v.I)
		case 4:
			return s.Float64(&v.F)
		case 5:
			return s.Raw(&v.R)
		case 6:
			return s.Raws(&v.Rs)
		case 7:
			return s.Strs(&v.Ss)
		case 8:
			return s.RawMap(&v.M)
		default:
			v.In = new(fields)
			return s.fields(v.In)
		}
	})
}

// TestScannerMatchesEncodingJSON: what the Scanner's primitives take, they
// decode as json.Unmarshal does, for hand-made lines (each primitive's
// edge: ranges, fractions, exponents, escapes, nulls, repeated and unknown
// keys) and random mutations of them; and they take the plain form.
func TestScannerMatchesEncodingJSON(t *testing.T) {
	seeds := []string{
		`{"s":"a\u00e9\n\"\\\/","b":true,"i64":-9223372036854775808,"i":42,"f":1.5e3,"r":{"x":[1,"<"]},"rs":[1,"2",[3]],"ss":["a","\ud83d\ude00"],"m":{"k":1,"k":2,"\u006b2":[]},"in":{"s":"x"}}`,
		` { "s" : "" , "b" : false , "i64" : 0 , "f" : -0 , "rs" : [ ] , "ss" : [ ] , "m" : { } } `,
		`{"i64":9223372036854775807,"f":123456789012345678901234567890,"r":"\ud800x"}`,
		`{"i64":9223372036854775808}`, `{"i64":-9223372036854775809}`, `{"i64":1.0}`, `{"i64":1e3}`, `{"i64":01}`, `{"i64":-}`,
		`{"i":123456789012345678901234567890}`, `{"f":1e999}`, `{"f":-1e-400}`, `{"f":1.}`, `{"f":.5}`, `{"f":1E+2}`, `{"f":"1"}`,
		`{"s":null}`, `{"b":null}`, `{"r":null}`, `{"rs":null}`, `{"rs":[null]}`, `{"m":null}`, `{"m":{"a":null}}`, `{"in":null}`,
		`{"s":1}`, `{"b":1}`, `{"b":tru}`, `{"ss":[1]}`, `{"rs":[1,]}`, `{"m":{"a":1,}}`, `{"m":{"a"}}`,
		`{"s":"x","s":"y"}`, `{"S":"x"}`, `{"\u0073":"x"}`, `{"unknown":1}`, `{"s":"x",}`, `{"s" "x"}`, `{"s":"x"} trailing`,
		"{\"s\":\"raw\ttab\"}", "{\"s\":\"bad \xff utf8\"}", `{}`, `[]`, `null`, ``, `{`,
		`{"r":` + strings.Repeat("[", 10001) + strings.Repeat("]", 10001) + `}`,
		`{"r":` + strings.Repeat("[", 9999) + strings.Repeat("]", 9999) + `}`,
	}
	mustTake := map[string]bool{seeds[0]: true, seeds[1]: true, seeds[2]: true}
	rng := rand.New(rand.NewPCG(9, 10))
	inputs := append([]string(nil), seeds...)
	const alphabet = "{}[]\",:\\ \tu0123456789abe.E+-trunlsfx\xff"
	for range 20000 {
		b := []byte(seeds[rng.IntN(3)])
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
	took := 0
	for _, in := range inputs {
		var got fields
		s := Scanner{Src: []byte(in)}
		ok := s.Top(func() bool { return s.fields(&got) })
		if mustTake[in] && !ok {
			t.Errorf("the plain form %q was not taken", in)
		}
		if !ok {
			continue
		}
		took++
		var want fields
		if err := json.Unmarshal([]byte(in), &want); err != nil {
			t.Fatalf("took %q, which encoding/json refuses: %v", in, err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("%q:\n Scanner      %+v\n json.Unmarshal %+v", in, got, want)
		}
	}
	if took < 1000 {
		t.Errorf("took only %d inputs; the comparison tests little", took)
	}
	// Each refusal the docstrings name.
	for _, in := range []string{`{"i64":9223372036854775808}`, `{"i64":1.0}`, `{"i64":1e3}`, `{"f":1e999}`, `{"s":null}`,
		`{"r":null}`, `{"s":"x","s":"y"}`, `{"S":"x"}`, `{"\u0073":"x"}`, `{"unknown":1}`} {
		s := Scanner{Src: []byte(in)}
		if s.Top(func() bool { return s.fields(new(fields)) }) {
			t.Errorf("took %q; its docstring says it refuses it", in)
		}
	}
}

// TestRawSharesTheText: Raw's value aliases Src and ends its capacity, so
// an append to it never writes into Src.
func TestRawSharesTheText(t *testing.T) {
	src := []byte(`[123,4]`)
	s := Scanner{Src: src, I: 1}
	var r json.RawMessage
	if !s.Raw(&r) || string(r) != "123" || s.I != 4 {
		t.Fatalf("Raw = %q, I %d", r, s.I)
	}
	if &r[0] != &src[1] || cap(r) != 3 {
		t.Errorf("Raw's value does not share the text with its capacity cut (cap %d)", cap(r))
	}
}

// TestObjectKeyLimit: a key list longer than the seen mask's 64 bits is
// refused past its 64th key, never misread.
func TestObjectKeyLimit(t *testing.T) {
	keys := make([]string, 70)
	for i := range keys {
		keys[i] = string(rune('A'+i/26)) + string(rune('a'+i%26))
	}
	for _, tc := range []struct {
		key  int
		want bool
	}{{0, true}, {63, true}, {64, false}, {69, false}} {
		s := Scanner{Src: []byte(`{"` + keys[tc.key] + `":1}`)}
		if got := s.Top(func() bool { return s.Object(keys, func(int) bool { return s.Skip() }) }); got != tc.want {
			t.Errorf("key %d: Object = %v; want %v", tc.key, got, tc.want)
		}
	}
}

// BenchmarkAppendString appends a job's source text, the longest string
// the pipe writes per run.
func BenchmarkAppendString(b *testing.B) {
	src := strings.Repeat("import { greet } from './greet';\nconsole.log(greet('world') + `<b>${n}</b>`);\n", 20)
	b.SetBytes(int64(len(src)))
	buf := make([]byte, 0, 2*len(src))
	for b.Loop() {
		buf = AppendString(buf[:0], src)
	}
}

func BenchmarkAppendStringEncodingJSON(b *testing.B) {
	src := strings.Repeat("import { greet } from './greet';\nconsole.log(greet('world') + `<b>${n}</b>`);\n", 20)
	b.SetBytes(int64(len(src)))
	for b.Loop() {
		_, _ = json.Marshal(src)
	}
}

// FuzzAppendFloat: any finite float64 is written byte for byte as
// encoding/json writes it.
func FuzzAppendFloat(f *testing.F) {
	f.Add(uint64(0x3ff0000000000000))
	f.Fuzz(func(t *testing.T, bits uint64) {
		x := math.Float64frombits(bits)
		got, ok := AppendFloat(nil, x)
		if math.IsNaN(x) || math.IsInf(x, 0) {
			if ok {
				t.Errorf("%v: taken; want refused", x)
			}
			return
		}
		want, _ := json.Marshal(x)
		if !ok || string(got) != string(want) {
			t.Errorf("%v: got %s (%v), want %s", x, got, ok, want)
		}
	})
}
