package tape

import (
	"bytes"
	"encoding/json"
	"errors"
	"strings"
	"sync"
	"testing"

	"github.com/playground-dev/playground/ws"
)

// good is a small valid tape.
const good = `{"version":1,"id":"r1","files":[{"path":"main.ts","source":"console.log(1)"}],"deterministic":true,"seed":24301,"clockStart":"2024-01-01T00:00:00Z","timeoutMs":2000,` +
	`"calls":[{"name":"echo","args":[1],"result":1}],` +
	`"messages":[{"type":"started","id":"r1","seq":1,"t":0,"timeoutMs":2000,"mode":"module"},` +
	`{"type":"log","id":"r1","seq":2,"t":0.5,"level":"log","text":"1","args":[1]},` +
	`{"type":"done","id":"r1","seq":3,"t":0.6,"outcome":"ok","durationMs":1.5,"timedOut":false,"facts":{},"stats":{"queueMs":0.1,"bundleMs":1.2,"runMs":0.3,"logs":1,"outputBytes":2,"truncated":false}}]}`

func TestDecodeAcceptsAGoodTape(t *testing.T) {
	tp, err := Decode([]byte(good))
	if err != nil {
		t.Fatal(err)
	}
	if len(tp.Messages) != 3 || len(tp.Calls) != 1 || tp.Files[0].Path != "main.ts" {
		t.Errorf("decoded %+v", tp)
	}
	m, err := tp.Run("replay-1")
	if err != nil || m.ID != "replay-1" || !m.Deterministic || *m.TimeoutMs != 2000 {
		t.Errorf("Run = %+v, %v", m, err)
	}
}

// TestDecodeNamesTheField: every broken tape is refused with the field at
// fault and a reason a person can act on.
func TestDecodeNamesTheField(t *testing.T) {
	for _, c := range []struct {
		name, tape, field, reason string
	}{
		{"not an object", `[1]`, "tape", "JSON object"},
		{"no version", `{"files":[]}`, "version", "missing"},
		{"other version", strings.Replace(good, `"version":1`, `"version":2`, 1), "version", "is 2; this server reads tapes of version 1"},
		{"version a string", strings.Replace(good, `"version":1`, `"version":"1"`, 1), "version", `is "1"`},
		{"unknown field", strings.Replace(good, `"id":"r1",`, `"id":"r1","extra":true,`, 1), "extra", "unknown field"},
		{"wrong type", strings.Replace(good, `"timeoutMs":2000,`, `"timeoutMs":"soon",`, 1), "timeoutMs", "must be a number"},
		{"trailing data", good + `{}`, "tape", "data after"},
		{"malformed", `{"version":1,`, "tape", ""},
		{"not deterministic", strings.Replace(good, `"deterministic":true`, `"deterministic":false`, 1), "deterministic", "not deterministic"},
		{"another seed", strings.Replace(good, `"seed":24301`, `"seed":7`, 1), "seed", "24301"},
		{"another clock", strings.Replace(good, `2024-01-01T00:00:00Z`, `2025-01-01T00:00:00Z`, 1), "clockStart", "2024-01-01"},
		{"not kept", `{"version":1,"error":"too big"}`, "error", "too big"},
		{"bad path", strings.Replace(good, `"path":"main.ts"`, `"path":"../x.ts"`, 1), "files[0].path", ""},
		{"no files", strings.Replace(good, `"files":[{"path":"main.ts","source":"console.log(1)"}],`, ``, 1), "files", ""},
		{"call without name", strings.Replace(good, `{"name":"echo",`, `{`, 1), "calls[0].name", "name"},
		{"call without args", strings.Replace(good, `"args":[1],"result":1`, `"result":1`, 1), "calls[0].args", "arguments"},
		{"no messages", strings.Replace(good, good[strings.Index(good, `"messages"`):], `"messages":[]}`, 1), "messages", "none"},
		{"message not an object", strings.Replace(good, `"messages":[`, `"messages":[3,`, 1), "messages[0]", "JSON object"},
		{"seq gap", strings.Replace(good, `"seq":2`, `"seq":5`, 1), "messages[1].seq", "1, 2, 3"},
		{"done not last", strings.Replace(good, `"type":"log"`, `"type":"done"`, 1), "messages[1].type", "last"},
		{"no done", strings.Replace(good, `"type":"done"`, `"type":"log"`, 1), "messages[2].type", "must be done"},
		{"queued", strings.Replace(good, `"type":"log"`, `"type":"queued"`, 1), "messages[1].type", "queued"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := Decode([]byte(c.tape))
			var fe *FieldError
			if !errors.As(err, &fe) || fe.Field != c.field || !strings.Contains(fe.Reason, c.reason) {
				t.Errorf("Decode = %v; want a FieldError for %s containing %q", err, c.field, c.reason)
			}
		})
	}
}

// TestNormalize zeroes exactly the documented fields and keeps every other
// byte, key order included.
func TestNormalize(t *testing.T) {
	in := `{"type":"done","id":"r1","seq":9,"t":0.6,"outcome":"ok","durationMs":1.5,"timedOut":false,"facts":{"b":1,"a":{"durationMs":3}},"stats":{"queueMs":0.1,"bundleMs":1.2,"runMs":0.3,"logs":1,"outputBytes":2,"truncated":false},"tape":{"version":1}}`
	got, err := Normalize(json.RawMessage(in), 3)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"type":"done","seq":3,"t":0.6,"outcome":"ok","durationMs":0,"timedOut":false,"facts":{"b":1,"a":{"durationMs":3}},"stats":{"queueMs":0,"bundleMs":0,"runMs":0,"logs":1,"outputBytes":2,"truncated":false}}`
	if string(got) != want {
		t.Errorf("Normalize =\n%s\nwant\n%s", got, want)
	}
	w, _ := Normalize(json.RawMessage(`{"type":"started","id":"x","seq":1,"t":0,"timeoutMs":5,"watch":"tok"}`), 1)
	if string(w) != `{"type":"started","seq":1,"t":0,"timeoutMs":5}` {
		t.Errorf("started normalized to %s", w)
	}
	a, _ := Normalize(json.RawMessage(`{"type":"fact","seq":1,"value":{"a":1,"b":2}}`), 1)
	b, _ := Normalize(json.RawMessage(`{"type":"fact","seq":1,"value":{"b":2,"a":1}}`), 1)
	if string(a) == string(b) {
		t.Errorf("values whose keys are in another order normalize alike: %s", a)
	}
	// A tape a tool reformatted (indented, "<" unescaped) compares as written.
	var indented bytes.Buffer
	json.Indent(&indented, []byte(in), "", "  ")
	pretty := strings.Replace(indented.String(), `"b": 1`, `"b": 1, "c": "\u003c<"`, 1)
	compact := strings.Replace(in, `"b":1`, `"b":1,"c":"<\u003c"`, 1)
	p1, err1 := Normalize(json.RawMessage(pretty), 3)
	p2, err2 := Normalize(json.RawMessage(compact), 3)
	if err1 != nil || err2 != nil || string(p1) != string(p2) {
		t.Errorf("an indented message normalizes to\n%s (%v)\nthe compact one to\n%s (%v)", p1, err1, p2, err2)
	}
	if _, err := Normalize(json.RawMessage(`[1]`), 1); err == nil {
		t.Error("Normalize of an array: no error")
	}
}

func mustDecode(t *testing.T, s string) *Tape {
	t.Helper()
	tp, err := Decode([]byte(s))
	if err != nil {
		t.Fatal(err)
	}
	return tp
}

func TestComparer(t *testing.T) {
	tp := mustDecode(t, good)
	msgs := []string{
		`{"type":"queued","id":"x","seq":1,"t":0,"position":1}`,
		`{"type":"started","id":"x","seq":2,"t":0,"timeoutMs":2000,"mode":"module"}`,
		`{"type":"log","id":"x","seq":3,"t":0.5,"level":"log","text":"1","args":[1]}`,
		`{"type":"done","id":"x","seq":4,"t":0.6,"outcome":"ok","durationMs":9,"timedOut":false,"facts":{},"stats":{"queueMs":5,"bundleMs":1,"runMs":2,"logs":1,"outputBytes":2,"truncated":false}}`,
	}
	c, _ := NewComparer(tp)
	for _, m := range msgs {
		if c.Add([]byte(m)) {
			t.Fatalf("diverged at %s: %+v", m, c.Divergence())
		}
	}
	c.End()
	if c.Divergence() != nil || c.Compared() != 3 {
		t.Errorf("a queued replay with other times: %+v, compared %d; want identical, 3", c.Divergence(), c.Compared())
	}

	c, _ = NewComparer(tp)
	c.Add([]byte(msgs[1]))
	if !c.Add([]byte(strings.Replace(msgs[2], `"text":"1"`, `"text":"2"`, 1))) {
		t.Fatal("a changed log is no divergence")
	}
	c.Add([]byte(msgs[3])) // ignored after the first
	c.End()
	d := c.Divergence()
	if d == nil || d.Seq != 2 || !strings.Contains(string(d.Expected), `"text":"1"`) || !strings.Contains(string(d.Received), `"text":"2"`) {
		t.Errorf("divergence %+v; want seq 2, expected text 1, received text 2", d)
	}

	c, _ = NewComparer(tp)
	c.Add([]byte(msgs[1]))
	c.End()
	if d := c.Divergence(); d == nil || d.Seq != 2 || string(d.Received) != "null" {
		t.Errorf("a replay that ended early: %+v; want seq 2, received null", d)
	}

	c, _ = NewComparer(tp)
	for _, m := range msgs[1:] {
		c.Add([]byte(m))
	}
	if !c.Add([]byte(msgs[2])) || c.Divergence().Seq != 4 || string(c.Divergence().Expected) != "null" {
		t.Errorf("a replay with one message more: %+v; want seq 4, expected null", c.Divergence())
	}
}

func TestRecorder(t *testing.T) {
	timeout := 100.0
	r := NewRecorder(&ws.Run{ID: "r1", Files: []ws.File{{Path: "main.ts", Source: "x"}}, Deterministic: true, TimeoutMs: &timeout}, 0)
	r.Message([]byte(`{"type":"queued","id":"r1","seq":1,"t":0,"position":2}`))
	r.Message([]byte(`{"type":"started","id":"r1","seq":2,"t":0,"timeoutMs":50,"mode":"module"}`))
	var wg sync.WaitGroup
	for n := 3; n >= 1; n-- { // answered out of order, as concurrent calls are
		wg.Go(func() { r.Call(n, "echo", []json.RawMessage{json.RawMessage(`1`)}, json.RawMessage(`"ok"`), "") })
		wg.Wait()
	}
	r.Message([]byte(`{"type":"done","id":"r1","seq":3,"t":0,"outcome":"ok","durationMs":1,"timedOut":false,"facts":{},"stats":{"queueMs":0,"bundleMs":0,"runMs":0,"logs":0,"outputBytes":0,"truncated":false}}`))
	b := r.Finish()
	tp, err := Decode(b)
	if err != nil {
		t.Fatalf("the recorded tape does not decode: %v\n%s", err, b)
	}
	if len(tp.Messages) != 2 || !strings.Contains(string(tp.Messages[0]), `"seq":1,`) || !strings.Contains(string(tp.Messages[1]), `"seq":2,`) {
		t.Errorf("messages %s; want started and done, seq 1 and 2 (queued left out)", tp.Messages)
	}
	if *tp.TimeoutMs != 50 || len(tp.Calls) != 3 || *tp.Seed != Seed || tp.ClockStart != ClockStart {
		t.Errorf("tape %s; want timeoutMs 50 (started's), 3 calls, the seed and clock", b)
	}

	// Past its bound a recorder keeps nothing, and says why.
	r = NewRecorder(&ws.Run{ID: "r2", Files: []ws.File{{Path: "main.ts", Source: "x"}}, Deterministic: true}, 100)
	r.Message([]byte(`{"type":"log","id":"r2","seq":1,"t":0,"level":"log","text":"` + strings.Repeat("x", 200) + `","args":[]}`))
	b = r.Finish()
	if !strings.Contains(string(b), `"error":"the run's messages and host calls came to more than 100 bytes`) || strings.Contains(string(b), "xxx") {
		t.Errorf("an over-long tape: %s; want only the version and the error", b)
	}
	if _, err := Decode(b); err == nil || !strings.Contains(err.Error(), "error") {
		t.Errorf("Decode of a tape that was not kept: %v; want refused for its error", err)
	}
}

// FuzzDecode: no tape crashes Decode, and every tape it accepts can be
// compared (its messages normalize) and yields a run.
func FuzzDecode(f *testing.F) {
	f.Add([]byte(good))
	f.Add([]byte(`{"version":1,"error":"x"}`))
	f.Add([]byte(`{"version":1,"files":[{"path":"a.ts","source":""}],"deterministic":true,"calls":[],"messages":[{"type":"done","seq":1,"x":[[[{"a":"\u003c"}]]]}]}`))
	f.Add([]byte(`{"version":1e400}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		tp, err := Decode(b)
		if err != nil {
			var fe *FieldError
			if !errors.As(err, &fe) || fe.Field == "" || fe.Reason == "" {
				t.Fatalf("Decode error %v is not a FieldError naming a field and a reason", err)
			}
			return
		}
		if _, err := NewComparer(tp); err != nil {
			t.Fatalf("an accepted tape cannot be compared: %v", err)
		}
		if _, err := tp.Run("x"); err != nil {
			t.Fatalf("an accepted tape has no run: %v", err)
		}
	})
}
