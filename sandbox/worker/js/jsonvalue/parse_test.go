package jsonvalue

import (
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/dop251/goja"
)

// canon describes a value in full: types, -0, own keys in order with their
// descriptors' flags, prototypes and array-ness, so that two values with
// the same description are the same JSON.parse result.
const canon = `(function canon(v) {
	if (v === null || typeof v !== "object") {
		return typeof v + ":" + (Object.is(v, -0) ? "-0" : typeof v === "string" ? JSON.stringify(v) + v.length : String(v));
	}
	const proto = Object.getPrototypeOf(v) === Object.prototype ? "O" : Object.getPrototypeOf(v) === Array.prototype ? "A" : "?";
	const parts = Reflect.ownKeys(v).map(k => {
		const d = Object.getOwnPropertyDescriptor(v, k);
		return String(k) + (d.writable ? "w" : "") + (d.enumerable ? "e" : "") + (d.configurable ? "c" : "") + "=" + ("value" in d ? canon(d.value) : "accessor");
	});
	return proto + (Array.isArray(v) ? "[" : "{") + parts.join(",") + (Object.isExtensible(v) ? "" : "!") + "}";
})`

type harness struct {
	vm    *goja.Runtime
	parse goja.Callable
	canon goja.Callable
	p     *Parser
}

func newHarness(t testing.TB) *harness {
	vm := goja.New()
	parse, _ := goja.AssertFunction(vm.Get("JSON").ToObject(vm).Get("parse"))
	c, err := vm.RunString(canon)
	if err != nil {
		t.Fatal(err)
	}
	cf, _ := goja.AssertFunction(c)
	return &harness{vm: vm, parse: parse, canon: cf, p: NewParser(vm)}
}

func (h *harness) describe(v goja.Value) string {
	d, err := h.canon(goja.Undefined(), v)
	if err != nil {
		return "canon threw " + err.Error()
	}
	return d.String()
}

// check parses text with Parse and with goja's JSON.parse: where Parse
// takes a text, the values must be the same; where JSON.parse refuses
// one, Parse must not take it.
func (h *harness) check(t *testing.T, text string) (taken bool) {
	t.Helper()
	want, werr := h.parse(goja.Undefined(), h.vm.ToValue(text))
	got, ok := h.p.Parse([]byte(text), false)
	if !ok {
		return false
	}
	if werr != nil {
		t.Errorf("%q: Parse took it, JSON.parse threw %v", text, werr)
		return true
	}
	if loneSurrogateEscape.MatchString(text) {
		// goja's JSON.parse turns an escaped lone surrogate into U+FFFD;
		// ECMA-262 and V8 keep it (TestParseKeepsLoneSurrogates).
		return true
	}
	if g, w := h.describe(got), h.describe(want); g != w {
		t.Errorf("%q:\n got  %s\n want %s", text, g, w)
	}
	return true
}

var loneSurrogateEscape = regexp.MustCompile(`(?i)\\ud[89a-f]`)

// TestParseKeepsLoneSurrogates: JSON.parse('"\\ud800"') is the one code
// unit 0xD800 in Node (ECMA-262 §25.5.1 reads \u escapes as code units).
func TestParseKeepsLoneSurrogates(t *testing.T) {
	h := newHarness(t)
	v, ok := h.p.Parse([]byte(`["\ud800","x\udc00y","\ud83d\ude00"]`), false)
	if !ok {
		t.Fatal("not taken")
	}
	h.vm.Set("v", v)
	got, err := h.vm.RunString(`v.map(s => Array.from(s, c => c.codePointAt(0).toString(16)).join(" ")).join("|")`)
	if err != nil {
		t.Fatal(err)
	}
	if want := "d800|78 dc00 79|1f600"; got.String() != want {
		t.Errorf("got %s, want %s", got, want)
	}
}

func TestParseMatchesJSONParse(t *testing.T) {
	h := newHarness(t)
	taken := []string{
		`0`, `-0`, `1`, `-1`, `123456789012345`, `1234567890123456789`, `9007199254740993`, `1.5`, `-1.5e-7`, `1e300`, `0.1`, `2e0`, `-0.0`,
		`""`, `"a"`, `"abcdefghijklmnopqrstuvwxyz"`, `"\u00e9\ud83d\ude00\u0000\n\t\"\\\/"`, `"é😀"`, `"\ud800"`, `"x\udc00y"`,
		`true`, `false`, `null`, ` [ 1 , 2 ] `, "\t{\r\n}\n",
		`[]`, `{}`, `[[],[[]],{}]`, `{"a":1,"b":[true,false,null],"c":{"d":"e"}}`,
		`{"a":1,"a":2,"b":3}`, `{"__proto__":{"x":1},"y":2}`, `{"constructor":1,"toString":"s","hasOwnProperty":null}`,
		`{"2":"b","1":"a","x":0,"0":"z"}`, `{"\u00e9":1,"k\"ey":2,"":3}`,
		`[{"id":1,"name":"item-1","v":1.5},{"id":2,"name":"item-2","v":3}]`,
		strings.Repeat("[", 100) + strings.Repeat("]", 100),
	}
	for _, text := range taken {
		if !h.check(t, text) {
			t.Errorf("%q: not taken", text)
		}
	}
	refused := []string{
		``, ` `, `[1,]`, `{"a":1,}`, `01`, `-`, `1.`, `.5`, `1e`, `+1`, `"\x"`, "\"a\x01\"", `"\u12"`, `[1 2]`, `{"a" 1}`, `{a:1}`,
		`tru`, `nul`, `[`, `{"a":`, `1 2`, `"abc`, `NaN`, `Infinity`, `1e400`, `-1e400`, `'a'`, `{"a":1}}`,
		strings.Repeat("[", MaxDepth+1) + strings.Repeat("]", MaxDepth+1),
		`{"\ud800":1}`,
	}
	for _, text := range refused {
		if h.check(t, text) {
			t.Errorf("%q: taken, want left to JSON.parse", text)
		}
	}
}

// TestParseUnderAModifiedPrototype: a snippet's setter or read-only
// property on Object.prototype never changes what JSON.parse makes.
func TestParseUnderAModifiedPrototype(t *testing.T) {
	h := newHarness(t)
	if _, err := h.vm.RunString(`
		Object.defineProperty(Object.prototype, "id", { set(v) { throw new Error("setter ran"); }, configurable: true });
		Object.defineProperty(Object.prototype, "ro", { value: 1, writable: false });
		Object.freeze(Object.prototype);
	`); err != nil {
		t.Fatal(err)
	}
	if !h.check(t, `{"id":1,"ro":2,"toString":3,"__proto__":null}`) {
		t.Fatal("not taken")
	}
}

// TestStandardObjectPrototype: standardProtoNames are a new runtime's, so
// that Parse takes its fast path there.
func TestStandardObjectPrototype(t *testing.T) {
	h := newHarness(t)
	if !h.p.standardObjectPrototype() {
		t.Errorf("Object.prototype's names in a new runtime: %v", h.vm.NewObject().Prototype().GetOwnPropertyNames())
	}
	if _, err := h.vm.RunString(`Object.defineProperty(Object.prototype, "x", { set() {} })`); err != nil {
		t.Fatal(err)
	}
	if h.p.standardObjectPrototype() {
		t.Error("an added accessor was not noticed")
	}
}

func TestParseStringOfJSString(t *testing.T) {
	h := newHarness(t)
	for _, src := range []string{`'{"a":"é"}'`, `'["\\ud83d\\ude00", "x"]'`, `'"' + "\ud800" + '"'`, `'"\ufffd"'`} {
		s, err := h.vm.RunString(src)
		if err != nil {
			t.Fatal(err)
		}
		want, _ := h.parse(goja.Undefined(), s)
		got, ok := h.p.ParseString(s.(goja.String))
		if !ok {
			continue // left to JSON.parse: allowed
		}
		if g, w := h.describe(got), h.describe(want); g != w {
			t.Errorf("%s: got %s want %s", src, g, w)
		}
	}
	// A lone surrogate in the text itself cannot be read back from UTF-8.
	s, _ := h.vm.RunString(`'"' + "\ud800" + '"'`)
	if _, ok := h.p.ParseString(s.(goja.String)); ok {
		t.Error("a lone surrogate in the text was taken")
	}
}

// TestParseCollects: with collect set, Built returns every object and
// array, which the caller freezes (the run's input in module mode).
func TestParseCollects(t *testing.T) {
	h := newHarness(t)
	_, ok := h.p.Parse([]byte(`{"a":[{"b":1},[2]],"c":{}}`), true)
	if !ok {
		t.Fatal("not taken")
	}
	if n := len(h.p.Built()); n != 5 {
		t.Errorf("built %d objects and arrays, want 5", n)
	}
}

func FuzzParse(f *testing.F) {
	for _, s := range []string{`{"a":[1,2.5,"x\u0041",true,null,{}]}`, `[-0,1e5,"\ud83d"]`, `"\\"`, `{"__proto__":1}`} {
		f.Add(s)
	}
	h := newHarness(f)
	f.Fuzz(func(t *testing.T, text string) {
		h.check(t, text)
	})
}

func BenchmarkParseRows(b *testing.B) {
	for _, n := range []int{1e3, 1e4} {
		var sb strings.Builder
		sb.WriteString(`{"rows":[`)
		for i := range n {
			if i > 0 {
				sb.WriteByte(',')
			}
			fmt.Fprintf(&sb, `{"id":%d,"name":"item-%d","v":%g}`, i, i, float64(i)*1.5)
		}
		sb.WriteString(`]}`)
		data := []byte(sb.String())
		b.Run(fmt.Sprintf("jsonvalue/%d", n), func(b *testing.B) {
			h := newHarness(b)
			b.SetBytes(int64(len(data)))
			for b.Loop() {
				if _, ok := h.p.Parse(data, false); !ok {
					b.Fatal("not taken")
				}
			}
		})
		b.Run(fmt.Sprintf("goja/%d", n), func(b *testing.B) {
			h := newHarness(b)
			s := h.vm.ToValue(string(data))
			b.SetBytes(int64(len(data)))
			for b.Loop() {
				if _, err := h.parse(goja.Undefined(), s); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
