package jsonwire

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"
)

// TestCheck: check's verdicts on hand-made edges: what it refuses (bad
// grammar, invalid UTF-8, control characters, bad escapes) and which valid
// values it calls plain (json.Marshal copies them unchanged).
func TestCheck(t *testing.T) {
	tests := []struct {
		in        string
		ok, plain bool
	}{
		{`{"id":1,"name":"item-1","v":1.5}`, true, true},
		{`[{"a":[true,false,null,-0.5e+3,"\u00e9\n\"\\\/"]},{},[]]`, true, true},
		{"\"é中😀\ufffd\"", true, true},
		{`{"a": 1}`, true, false},
		{"[1,\n2]", true, false},
		{`"<"`, true, false},
		{`"a&b"`, true, false},
		{"\"\u2028\"", true, false},
		{"\"\u2029\"", true, false},
		{`[1,2] `, true, true}, // check stops at the value's end; trailing space is the caller's
		{"\"bad \xff\"", false, false},
		{"\"\xed\xa0\x80\"", false, false}, // a surrogate written in UTF-8
		{"\"\xc3\"", false, false},         // a truncated sequence
		{"\"\x1f\"", false, false},
		{`"\q"`, false, false},
		{`"\u12x4"`, false, false},
		{`"\u12`, false, false},
		{`"open`, false, false},
		{` 1`, false, false}, // no whitespace before the value
		{`{"a":1,}`, false, false},
		{`[1,]`, false, false},
		{`{"a" 1}`, false, false},
		{`{1:2}`, false, false},
		{`[1}`, false, false},
		{`{"a":1]`, false, false},
		{`01`, true, true}, // the value is 0; the 1 is after it (AppendCompact refuses the text)
		{`-`, false, false},
		{`1.`, false, false},
		{`1e`, false, false},
		{`tru`, false, false},
		{`nul`, false, false},
		{`x`, false, false},
		{``, false, false},
	}
	for _, tt := range tests {
		_, ok, plain := check([]byte(tt.in), 0)
		if ok != tt.ok || ok && plain != tt.plain {
			t.Errorf("check(%q) = ok %v, plain %v; want %v, %v", tt.in, ok, plain, tt.ok, tt.plain)
		}
	}
	deep := strings.Repeat("[", maxDepth) + strings.Repeat("]", maxDepth)
	if _, ok, _ := check([]byte(deep), 0); !ok {
		t.Errorf("check refused a value nested %d deep", maxDepth)
	}
	if _, ok, _ := check([]byte("["+deep+"]"), 0); ok {
		t.Errorf("check took a value nested %d deep", maxDepth+1)
	}
}

// FuzzAppendCompact holds the one check of a raw value (AppendCompact,
// Scanner.Skip) to encoding/json: AppendCompact takes exactly the texts
// json.Valid takes whose bytes are valid UTF-8, writes for them
// json.Marshal's bytes of the json.RawMessage (so a value it copies as it
// is must be what json.Marshal writes), and leaves dst as it was
// otherwise; Skip takes a value at the start of any text exactly when
// that value is valid, stops just past it, and moves nothing on false.
// CI runs the seeds; go test -fuzz FuzzAppendCompact ./jsonwire explores.
func FuzzAppendCompact(f *testing.F) {
	for _, s := range []string{
		`{"id":1,"name":"item-1","v":1.5}`, string(rows(3)), ` { "a" : [ 1 , "<&>" ] } `, "\"\u2028\u2029\"",
		`[1,2.5e3,true,false,null,"x",{},[]]`, `{"a":{"b":{"c":[-0,0.1,1E+2]}}}`, `"\ud83d\ude00\u00e9\n\"\\\/"`,
		"\"bad \xff\"", "\"\xed\xa0\x80\"", "\"é中😀\"", "\"\x01\"", `"\q"`, `{"a":1,}`, `[1 2]`, `01`, `{}x`, `-`, `1e`,
		`[`, `]`, `{"a"}`, "\t\r\n[ ]\n", strings.Repeat("[", 50) + strings.Repeat("]", 50), "",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		valid := json.Valid(in) && utf8.Valid(in)
		got, ok := AppendCompact([]byte("x"), in)
		if ok != valid {
			t.Fatalf("AppendCompact(%q) ok = %v; json.Valid and utf8.Valid say %v", in, ok, valid)
		}
		if !ok {
			if string(got) != "x" {
				t.Fatalf("AppendCompact(%q) refused it but appended %q", in, got[1:])
			}
		} else {
			want, err := json.Marshal(json.RawMessage(in))
			if err != nil || !bytes.Equal(got[1:], want) {
				t.Fatalf("AppendCompact(%q) = %q; json.Marshal %q, %v", in, got[1:], want, err)
			}
		}

		s := Scanner{Src: in}
		if !s.Skip() {
			if s.I != 0 {
				t.Fatalf("Skip(%q) refused it but moved to %d", in, s.I)
			}
			// A valid text that starts with its value would have been taken.
			if valid && len(in) > 0 && !isSpace(in[0]) {
				t.Fatalf("Skip(%q) refused a valid value", in)
			}
			return
		}
		v := in[:s.I]
		if !json.Valid(v) || !utf8.Valid(v) || len(v) == 0 || isSpace(v[len(v)-1]) {
			t.Fatalf("Skip(%q) took %q, which is not one valid value", in, v)
		}
		if valid && len(bytes.TrimRight(in, " \t\r\n")) != s.I {
			t.Fatalf("Skip(%q) stopped at %d, inside the valid value", in, s.I)
		}
	})
}
