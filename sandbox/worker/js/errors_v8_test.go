package js_test

import (
	"os"
	"strings"
	"testing"
	"time"
)

// TestErrorMessagesAsNode runs the error situations of
// testdata/errors/cases.js (a snippet that catches each and logs
// `name: message`) and compares every line with Node 20's
// (cases.golden, recorded by testdata/errors/record.mjs: node record.mjs),
// in module and in script mode. errorWordingDeviations lists the cases
// whose words stay goja's, each with why.
func TestErrorMessagesAsNode(t *testing.T) {
	src, err := os.ReadFile("testdata/errors/cases.js")
	if err != nil {
		t.Fatal(err)
	}
	golden, err := os.ReadFile("testdata/errors/cases.golden")
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{}
	var names []string
	for _, l := range strings.Split(strings.TrimSuffix(string(golden), "\n"), "\n") {
		name, msg, ok := strings.Cut(l, " | ")
		if !ok { // a message's second line (JSON's circle)
			want[names[len(names)-1]] += "\n" + l
			continue
		}
		names = append(names, name)
		want[name] = msg
	}
	if len(names) < 40 {
		t.Fatalf("%d error situations; want at least 40", len(names))
	}
	h := newHarness(t, Config{})
	for _, mode := range []string{"module", "script"} {
		_, rec := run(t, h, Request{Files: files("main.js", string(src)), Mode: mode, Timeout: 10 * time.Second})
		if errs := rec.Errors(); len(errs) > 0 {
			t.Fatalf("%s: %+v", mode, errs)
		}
		got := map[string]string{}
		last := ""
		for _, l := range strings.Split(strings.Join(rec.Logs(), "\n"), "\n") {
			name, msg, ok := strings.Cut(l, " | ")
			if !ok {
				got[last] += "\n" + l
				continue
			}
			got[name], last = msg, name
		}
		for _, name := range names {
			w := want[name]
			if d, ok := errorWordingDeviations[name]; ok {
				w = d.want
			}
			if got[name] != w {
				t.Errorf("%s %s:\n node:       %q\n playground: %q", mode, name, w, got[name])
			}
		}
	}
}

// errorWordingDeviations are the situations whose words are not Node's,
// with the playground's text and why: what V8 names is not in goja's
// message nor at the error's position in the source.
var errorWordingDeviations = map[string]struct{ reason, want string }{
	"nullRead":             {nullVsUndefined, "TypeError: Cannot read properties of undefined (reading 'x')"},
	"nullReadIndex":        {nullVsUndefined, "TypeError: Cannot read properties of undefined (reading '0')"},
	"nullWrite":            {nullVsUndefined + "; a write names no property", "TypeError: Cannot convert undefined or null to object"},
	"undefinedWrite":       {"goja's message for a write to undefined names no property", "TypeError: Cannot convert undefined or null to object"},
	"freezeWrite":          {"V8 names the object ('#<Object>', '[object Array]'); goja's message does not", "TypeError: Cannot assign to read only property 'a'"},
	"inOnPrimitive":        {"V8 names the key searched for, which goja's message lacks", "TypeError: Value is not an object: str"},
	"iterateNonIterable":   {"V8 prints the iterated expression; goja says object", "TypeError: object is not iterable"},
	"spreadNonIterable":    {"V8 prints the spread expression; goja says object", "TypeError: object is not iterable"},
	"destructureNull":      {"V8 names the destructured property and value; goja's message has neither", "TypeError: Value is not object coercible"},
	"destructureUndefined": {"goja throws its ToObject error where V8 tries the iterator", "TypeError: Cannot convert undefined or null to object"},
	"promiseResolver":      {"goja's message is shared by every built-in that wants an object", "TypeError: Value is not an object: 1"},
	"regExpInvalid":        {"V8 quotes the pattern, which goja's message lacks", "SyntaxError: Unterminated character class"},
	"weakMapKey":           {"goja's message is shared by every built-in that wants an object (Reflect.set's frame is named set too)", "TypeError: Value is not an object: 1"},
	"proxyRevoked":         {"V8 names the trap, which goja's message lacks", "TypeError: Proxy already revoked"},
}

// nullVsUndefined is why a read of null is worded as one of undefined.
const nullVsUndefined = "goja's message says undefined for null and undefined alike (vm.go: the value is not in the message), and which it was is not in the source either"
