package parity

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestV8JSONErrorAcceptsValidJSON: the scanner finds no error in what
// encoding/json accepts (so a goja failure on it is not reworded into a
// wrong position), also nested a million levels deep (its stack is its
// own), and names the position past a deep prefix.
func TestV8JSONErrorAcceptsValidJSON(t *testing.T) {
	valid := []string{`0`, `-0.5e+10`, `"a\"\\\/\b\f\n\r\t\u00e9"`, `[]`, `{}`, ` [1, [2, {"a": [true, false, null]}], {"": {}}] `,
		`{"__proto__": 1, "a": {"b": [1e400]}}`, "\t\n\r 1 \t\n\r", `"😀"`}
	for _, s := range valid {
		if msg, bad := V8JSONError(s); bad {
			t.Errorf("%q: %s; want valid", s, msg)
		}
		if s != `{"__proto__": 1, "a": {"b": [1e400]}}` && !json.Valid([]byte(s)) {
			t.Errorf("%q is not valid JSON to encoding/json either: a bad case", s)
		}
	}
	deep := strings.Repeat("[", 1_000_000) + strings.Repeat("]", 1_000_000)
	if msg, bad := V8JSONError(deep); bad {
		t.Errorf("a million nested arrays: %s; want valid", msg)
	}
	if msg, _ := V8JSONError(strings.Repeat("[", 1_000_000) + "x"); msg != `Unexpected token 'x', ..."[[[[[[[[[[x" is not valid JSON` {
		t.Errorf("a million nested arrays then x: %q", msg)
	}
}
