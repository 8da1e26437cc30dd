package pipe

import (
	"bytes"
	"encoding/json"
	"math"
	"math/rand/v2"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"
	"github.com/playground-dev/playground/jsonwire"
)

// hostileStrings are strings an encoder or decoder gets wrong easily.
var hostileStrings = []string{
	"", "x", "hello, world", `"quoted"`, `back\slash`, "a/b", "</script><b>&amp;",
	"\x00\x01\x1f\x7f", "\b\f\n\r\t", "line\nbreak", "\u2028\u2029", "é ü 中文 😀",
	"\xff", "a\xffb", "\xc3", "\xed\xa0\x80", "\xf4\x90\x80\x80", "ok\xe2\x80", "\ufffd",
	strings.Repeat("long ", 1000), strings.Repeat("\"\\", 50),
}

// hostileRaws are raw JSON values, some not valid.
var hostileRaws = []json.RawMessage{
	nil, json.RawMessage(`1`), json.RawMessage(`-0.5e+10`), json.RawMessage(`"s"`), json.RawMessage(`"<&>"`),
	json.RawMessage(`"\u2028 \u00e9"`), json.RawMessage("\"\xe2\x80\xa8\""), json.RawMessage(` { "a" : [ 1 , true , null ] } `),
	json.RawMessage(`[]`), json.RawMessage(`{}`), json.RawMessage(`null`), json.RawMessage(`123456789012345678901234567890`),
	json.RawMessage("\"\xff\""), json.RawMessage(`"\ud800"`), json.RawMessage(`[[[[[[[[[[1]]]]]]]]]]`),
	// invalid: the encoders must fail as encoding/json does
	json.RawMessage(``), json.RawMessage(`{`), json.RawMessage(`01`), json.RawMessage(`1.`), json.RawMessage(`"\x01"`),
	json.RawMessage(`tru`), json.RawMessage(`1 2`), json.RawMessage(`{"a"}`), json.RawMessage(`"\q"`), json.RawMessage(`[1,]`),
	json.RawMessage(strings.Repeat("[", 10001) + strings.Repeat("]", 10001)),
}

var hostileInts = []int64{0, 1, -1, 42, math.MaxInt32, math.MinInt32, math.MaxInt64, math.MinInt64, 1 << 53, -(1 << 53) - 1}

// randomMessages are messages of every kind, filled from the hostile lists.
func randomMessages(r *rand.Rand, n int) []Message {
	str := func() string { return hostileStrings[r.IntN(len(hostileStrings))] }
	raw := func() json.RawMessage { return hostileRaws[r.IntN(len(hostileRaws))] }
	num := func() int64 { return hostileInts[r.IntN(len(hostileInts))] }
	raws := func() []json.RawMessage {
		switch r.IntN(4) {
		case 0:
			return nil
		case 1:
			return []json.RawMessage{}
		}
		out := make([]json.RawMessage, r.IntN(4))
		for i := range out {
			out[i] = raw()
		}
		return out
	}
	var out []Message
	for range n {
		var m Message
		switch r.IntN(7) {
		case 0:
			m.Ready = true
		case 1:
			m.Accepted = true
		case 2, 3:
			ev := &Event{Kind: EventKind(str()), T: time.Duration(num()), Position: int(num()), Timeout: time.Duration(num()),
				Mode: str(), Level: str(), Text: str(), Args: raws(), Key: str(), Value: raw(), Deleted: r.IntN(2) == 0,
				CallID: num(), Pending: r.IntN(2) == 0, Name: str(), Duration: time.Duration(num()), OK: r.IntN(2) == 0,
				CallError: str(), Result: raw()}
			if r.IntN(2) == 0 {
				ev.Error = &Error{Kind: ErrorKind(str()), Message: str(), Stack: str(), File: str(), Line: int(num()), Column: int(num())}
			}
			m.Event = ev
		case 4:
			c := &HostCall{ID: num(), Name: str(), Args: raws(), Cancel: r.IntN(2) == 0}
			if r.IntN(2) == 0 {
				c.Now = time.Unix(num()%(1<<40), num()%1e9).UTC()
			}
			m.Call = c
		case 5:
			res := &Result{Outcome: Outcome(str()), TimedOut: r.IntN(2) == 0, Output: raw(), RetryAfter: time.Duration(num()),
				End: time.Duration(num()), Retire: r.IntN(2) == 0,
				Stats: Stats{Queue: time.Duration(num()), Bundle: time.Duration(num()), Run: time.Duration(num()), Logs: int(num()),
					OutputBytes: int(num()), Truncated: r.IntN(2) == 0}}
			if r.IntN(4) > 0 {
				res.Facts = map[string]json.RawMessage{}
				for range r.IntN(4) {
					res.Facts[str()] = raw()
				}
			}
			m.Result = res
		default:
			m.Idle = &Idle{Wait: time.Duration(num()), Replies: int(num())}
		}
		out = append(out, m)
	}
	return out
}

func randomCommands(r *rand.Rand, n int) []Command {
	str := func() string { return hostileStrings[r.IntN(len(hostileStrings))] }
	raw := func() json.RawMessage { return hostileRaws[r.IntN(len(hostileRaws))] }
	num := func() int64 { return hostileInts[r.IntN(len(hostileInts))] }
	strs := func() []string {
		if r.IntN(3) == 0 {
			return nil
		}
		out := make([]string, r.IntN(3))
		for i := range out {
			out[i] = str()
		}
		return out
	}
	var out []Command
	for range n {
		var c Command
		switch r.IntN(3) {
		case 0:
			c.Op = OpRun
			j := &Job{Entry: str(), Input: raw(), Timeout: time.Duration(num()), Deadline: num(), Deterministic: r.IntN(2) == 0, Mode: str(),
				Limits: Limits{MaxOutputBytes: int(num()), MaxEvents: int(num()), MaxTimers: int(num()), MaxCallStack: int(num()),
					MaxHostCalls: int(num()), MaxFactsBytes: int(num()), PreviewLimits: PreviewLimits{Depth: int(num()), Keys: int(num()), String: int(num())}},
				Host: strs(), Globals: strs(), Client: str()}
			if r.IntN(4) > 0 {
				j.Files = []File{}
				for range r.IntN(3) {
					j.Files = append(j.Files, File{Path: str(), Source: str()})
				}
			}
			c.Job = j
		case 1:
			c.Op = OpCancel
		default:
			c.Op = str()
			c.Reply = &HostReply{ID: num(), Result: raw(), Error: str(), Duration: time.Duration(num())}
		}
		out = append(out, c)
	}
	return out
}

// TestEncodeMatchesEncodingJSON: the hand-written encoders write exactly
// encoding/json's bytes, and fail where it fails and where a raw value is
// not valid UTF-8 (jsonwire.AppendRaw refuses it; json.Marshal copies it):
// the Writer then writes json.Marshal's line.
func TestEncodeMatchesEncodingJSON(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	var vals []any
	for _, m := range randomMessages(r, 3000) {
		vals = append(vals, m)
	}
	for _, c := range randomCommands(r, 2000) {
		vals = append(vals, c)
	}
	fails, refused := 0, 0
	for _, v := range vals {
		want, werr := json.Marshal(v)
		got, ok := appendValue(nil, v)
		if werr != nil {
			fails++
			if ok {
				t.Errorf("encoded %s for %#v; encoding/json fails: %v", got, v, werr)
			}
			continue
		}
		if !ok && !utf8.Valid(want) {
			refused++
			var buf bytes.Buffer
			if err := NewWriter(&buf).Write(v); err != nil || buf.String() != string(want)+"\n" {
				t.Errorf("Writer wrote %q, %v; encoding/json %q", buf.Bytes(), err, want)
			}
			continue
		}
		if !ok || !bytes.Equal(got, want) {
			t.Errorf("encoded (ok %v)\n%s\nencoding/json\n%s", ok, got, want)
		}
	}
	if refused == 0 {
		t.Errorf("no value with a raw value of invalid UTF-8 was refused; hostileRaws holds some")
	}
	if fails == 0 || fails == len(vals) {
		t.Errorf("%d of %d values failed to encode; want some of each", fails, len(vals))
	}
}

// decodeBoth decodes line with the hand-written decoder and with
// encoding/json and reports a difference.
func decodeBoth(t *testing.T, line []byte) {
	t.Helper()
	var got, want Message
	gerr, werr := DecodeMessage(line, &got), json.Unmarshal(line, &want)
	if (gerr == nil) != (werr == nil) {
		t.Errorf("Message %q: error %v; encoding/json %v", line, gerr, werr)
	} else if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Message %q (-encoding/json +decoded):\n%s", line, diff)
	}
	var gc, wc Command
	gerr, werr = DecodeCommand(line, &gc), json.Unmarshal(line, &wc)
	if (gerr == nil) != (werr == nil) {
		t.Errorf("Command %q: error %v; encoding/json %v", line, gerr, werr)
	} else if diff := cmp.Diff(wc, gc); diff != "" {
		t.Errorf("Command %q (-encoding/json +decoded):\n%s", line, diff)
	}
}

// TestDecodeMatchesEncodingJSON: the hand-written decoders give
// json.Unmarshal's value and error for every line: what the encoders
// write, hand-made hostile lines, and random mutations of both.
func TestDecodeMatchesEncodingJSON(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	var lines [][]byte
	for _, m := range randomMessages(r, 2000) {
		if b, err := json.Marshal(m); err == nil {
			lines = append(lines, b)
		}
	}
	for _, c := range randomCommands(r, 1500) {
		if b, err := json.Marshal(c); err == nil {
			lines = append(lines, b)
		}
	}
	for _, s := range []string{
		`{"event":{"kind":"log","text":"\u0000\ud800\udc00\ud800x\udc00\ud83d\ude00\u00e9\/\"","args":[1,"\u2028"]}}`,
		"{\"event\":{\"kind\":\"log\",\"text\":\"raw \xff\xfe bytes \xed\xa0\x80\"}}",
		`{"event":{"kind":"log","t":1.5}}`, `{"event":{"t":1e3}}`, `{"event":{"t":9223372036854775807}}`,
		`{"event":{"t":9223372036854775808}}`, `{"event":{"t":-9223372036854775808}}`, `{"event":{"t":-9223372036854775809}}`,
		`{"event":{"t":-0}}`, `{"event":{"t":01}}`, `{"event":{"t":"1"}}`, `{"event":{"t":123456789012345678901234567890}}`,
		`{"event":{"kind":"log"},"event":{"t":1}}`, `{"event":{"kind":"log","kind":"fact"}}`, `{"Event":{"Kind":"log"}}`,
		`{"event":{"kind":"log","unknown":[1,{"a":2}]}}`, `{"event":null}`, `{"event":{"args":null}}`, `{"event":{"args":[null]}}`,
		`{"event":{"value":null}}`, `{"result":{"facts":null}}`, `{"result":{"facts":{"a":1,"a":2,"\u0062":[]}}}`,
		`{"result":{"facts":{}}}`, `{"event":{"args":[]}}`, ` {"ready" : true } `, `{"ready":true}x`, `{"ready":true`, ``, `[]`,
		`{"ready":1}`, `{"accepted":false}`, `{"call":{"id":1,"name":"n","args":[],"now":"2026-01-02T03:04:05.123456789Z"}}`,
		`{"call":{"now":"not a time"}}`, `{"call":{"now":null}}`, `{"idle":{"wait":5,"replies":-2}}`,
		`{"op":"run","job":{"files":[{"path":"a","source":"x\ny"}],"entry":"a","input":{"n":[1,2]},"limits":{"maxEvents":3}}}`,
		`{"op":"run","job":{"files":[],"host":[],"globals":["a"]}}`, `{"op":"run","job":{"files":[{"path":1}]}}`,
		`{"op":"reply","reply":{"id":7,"result":"v","error":"e","duration":1}}`, `{"op":"reply","reply":{"result":null}}`,
		`{"op":"cancel","job":null}`, `{"op":"\u0072un"}`, `{"\u006fp":"run"}`, "{\"op\":\"run\"}\n",
		`{"event":{"kind":"log","text":"a\tb"}}`, "{\"event\":{\"kind\":\"log\",\"text\":\"a\tb\"}}",
		`{"event":{"error":{"kind":"RUNTIME_ERROR","message":"m","line":2147483648}}}`,
		`{"result":{"stats":{"logs":1,"truncated":true},"end":5}}`,
		`{"event":{"args":[` + strings.Repeat("[", 10001) + strings.Repeat("]", 10001) + `]}}`,
	} {
		lines = append(lines, []byte(s))
	}
	fast := 0
	for _, line := range lines {
		decodeBoth(t, line)
		var m Message
		var c Command
		d, dc := decoder{jsonwire.Scanner{Src: line}}, decoder{jsonwire.Scanner{Src: line}}
		if d.top(func() bool { return d.message(&m) }) || dc.top(func() bool { return dc.command(&c) }) {
			fast++
		} else if !bytes.Contains(line, []byte("null")) && json.Valid(line) && !bytes.Contains(line, []byte(`"Event"`)) {
			t.Logf("slow path for %.200s", line)
		}
	}
	// What the encoders write (without nulls) takes the fast path.
	if fast < len(lines)/3 {
		t.Errorf("the fast path decoded %d of %d lines", fast, len(lines))
	}
	// Random mutations: a byte changed, a byte dropped, the line cut.
	for range 20000 {
		line := bytes.Clone(lines[r.IntN(len(lines))])
		if len(line) == 0 {
			continue
		}
		i := r.IntN(len(line))
		switch r.IntN(3) {
		case 0:
			const alphabet = `{}[]",:\ u0123456789aeflnrstx-.`
			line[i] = alphabet[r.IntN(len(alphabet))]
		case 1:
			line = append(line[:i], line[i+1:]...)
		default:
			line = line[:i]
		}
		decodeBoth(t, line)
	}
}

// TestDecodedValuesShareTheLine: raw values alias the line (no copy); the
// Reader hands out a fresh line each time, so that is safe.
func TestDecodedValuesShareTheLine(t *testing.T) {
	line := []byte(`{"event":{"kind":"log","args":[123]}}`)
	var m Message
	if err := DecodeMessage(line, &m); err != nil {
		t.Fatal(err)
	}
	if len(m.Event.Args) != 1 || &m.Event.Args[0][0] != &line[strings.Index(string(line), "123")] {
		t.Errorf("args %q do not share the line's memory", m.Event.Args)
	}
	if cap(m.Event.Args[0]) != 3 {
		t.Errorf("cap %d; want 3: an append to a raw value must not write into the line", cap(m.Event.Args[0]))
	}
}

func BenchmarkEncodeEvent(b *testing.B) {
	m := Message{Event: &Event{Kind: EventLog, T: 12345, Level: "info", Text: "hello world", Args: []json.RawMessage{json.RawMessage(`"hello world"`)}}}
	var buf bytes.Buffer
	w := NewWriter(&buf)
	b.ReportAllocs()
	for b.Loop() {
		buf.Reset()
		_ = w.Buffer(m)
	}
}

func BenchmarkDecodeJob(b *testing.B) {
	line, _ := json.Marshal(Command{Op: OpRun, Job: &Job{Files: []File{{Path: "src/main.ts", Source: "import { greet } from './greet';\nconsole.log(greet('world'));\n"},
		{Path: "src/greet.ts", Source: "export const greet = (n: string) => `hello ${n}`;\n"}}, Entry: "src/main.ts", Timeout: time.Second, Limits: DefaultLimits()}})
	b.ReportAllocs()
	for b.Loop() {
		var c Command
		if err := DecodeCommand(line, &c); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkDecodeJobEncodingJSON is BenchmarkDecodeJob with encoding/json,
// for comparison.
func BenchmarkDecodeJobEncodingJSON(b *testing.B) {
	line, _ := json.Marshal(Command{Op: OpRun, Job: &Job{Files: []File{{Path: "src/main.ts", Source: "import { greet } from './greet';\nconsole.log(greet('world'));\n"},
		{Path: "src/greet.ts", Source: "export const greet = (n: string) => `hello ${n}`;\n"}}, Entry: "src/main.ts", Timeout: time.Second, Limits: DefaultLimits()}})
	b.ReportAllocs()
	for b.Loop() {
		var c Command
		if err := json.Unmarshal(line, &c); err != nil {
			b.Fatal(err)
		}
	}
}
