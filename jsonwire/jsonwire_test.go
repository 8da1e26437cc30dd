package jsonwire

import (
	"bytes"
	"encoding/json"
	"testing"
)

// TestAgainstEncodingJSON holds the package to encoding/json on hostile
// strings and raw values (the pipe's and ws's codec tests add random and
// mutated messages on top).
func TestAgainstEncodingJSON(t *testing.T) {
	strs := []string{"", "plain", `q"b\s`, "<a>&", "\u2028\u2029", "\x00\x1f\x7f", "é中😀", "bad\xffutf8\xc3", "\xed\xa0\x80"}
	for _, s := range strs {
		want, _ := json.Marshal(s)
		if got := AppendString(nil, s); !bytes.Equal(got, want) {
			t.Errorf("AppendString(%q) = %s; encoding/json %s", s, got, want)
		}
	}
	lines := []string{`"a\u00e9\n\"\\\/"`, `"\ud83d\ude00"`, `"\ud800x"`, `"\udc00\ud800"`, "\"raw\xff\xfe\"", `"\u12"`, `"tab	in"`, `"open`, `x"`}
	for _, l := range lines {
		var want string
		werr := json.Unmarshal([]byte(l), &want)
		got, next, ok := Unquote([]byte(l), 0)
		if ok != (werr == nil) || ok && (got != want || next != len(l)) {
			t.Errorf("Unquote(%q) = %q, %d, %v; encoding/json %q, %v", l, got, next, ok, want, werr)
		}
	}
	raws := []string{`{"a" : [1, 2.5e3, true, null, "<x>"] }`, "\"\u2028\"", ` [ ] `, `{"a":1,}`, `[1 2]`, `01`, `"\x01"`, `{}x`, `-`, `1e`}
	for _, r := range raws {
		want, werr := json.Marshal(json.RawMessage(r))
		got, ok := AppendCompact(nil, []byte(r))
		if ok != (werr == nil) || ok && !bytes.Equal(got, want) {
			t.Errorf("AppendCompact(%q) = %s, %v; encoding/json %s, %v", r, got, ok, want, werr)
		}
		s := Scanner{Src: []byte(r)}
		s.SkipSpace()
		valid := s.Skip()
		s.SkipSpace()
		if (valid && s.I == len(r)) != json.Valid([]byte(r)) {
			t.Errorf("Scanner.Skip(%q) = %v at %d; json.Valid %v", r, valid, s.I, json.Valid([]byte(r)))
		}
	}
}

func TestNestingLimit(t *testing.T) {
	deep := bytes.Repeat([]byte("["), maxDepth+1)
	deep = append(deep, bytes.Repeat([]byte("]"), maxDepth+1)...)
	if json.Valid(deep) || !json.Valid(deep[1:len(deep)-1]) {
		t.Fatalf("encoding/json's limit is not %d", maxDepth)
	}
	if _, ok := AppendCompact(nil, deep); ok {
		t.Errorf("a value nested %d deep was taken; encoding/json refuses past %d", maxDepth+1, maxDepth)
	}
	ok := deep[1 : len(deep)-1]
	if _, took := AppendCompact(nil, ok); !took {
		t.Errorf("a value nested %d deep was refused", maxDepth)
	}
}
