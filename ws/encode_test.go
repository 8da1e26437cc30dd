package ws

import (
	"bytes"
	"encoding/json"
	"math"
	"math/rand/v2"
	"strings"
	"testing"
)

// hostile are strings and raw values that exercise every escaping rule of
// encoding/json: quotes, backslashes, every control character, HTML
// characters, U+2028/U+2029, invalid UTF-8, the replacement character,
// astral characters, and long strings.
var hostile = func() []string {
	s := []string{
		"", "hello, world", `"quoted" and \back\slashed`, "<script>alert(1)</script> & more",
		"line\u2028sep\u2029para", "bad \xff\xfe utf8 \xc3", "\xe2\x80", "\xe2\x80\xa8", "€ — … ™ \ufffd",
		"😀 astral 𝄞", "\x00\x01\x1f\x7f", "tab\tnl\ncr\rbs\bff\f", strings.Repeat("é<", 500),
	}
	var ctl strings.Builder
	for c := range 0x20 {
		ctl.WriteByte(byte(c))
	}
	return append(s, ctl.String())
}()

var hostileRaw = []json.RawMessage{
	nil, json.RawMessage(`null`), json.RawMessage(`"hello"`), json.RawMessage(`{"$t":"undefined"}`),
	json.RawMessage(`[1,2,{"a":"<b>"}]`), json.RawMessage(`{ "spaced" : [ 1 , 2 ] }`), json.RawMessage(`"a\u2028b"`),
	json.RawMessage("\"raw \xe2\x80\xa8 sep\""), json.RawMessage(`"€ ok"`), json.RawMessage(`1e400`), json.RawMessage(`12345678901234567890123`),
	json.RawMessage(`-0`), json.RawMessage(`{"$t":"bigint","v":"123456789012345678901234567890"}`), json.RawMessage(`not json`),
	json.RawMessage("\"bad \xff utf8\""), json.RawMessage("\n\"trailing\"\n"), json.RawMessage(`"a&b"`),
}

var hostileFloats = []float64{0, math.Copysign(0, -1), 1, 0.5, 1.25, 1e-6, 9.99e-7, 1e-7, 1e20, 1e21, 1.5e300, -2.5e-300, math.MaxFloat64,
	math.SmallestNonzeroFloat64, 123456.789, 0.001, math.Inf(1), math.NaN(), 1e9 + 0.125}

// TestAppendMatchesEncodingJSON: every run message Marshal encodes
// without reflection is byte for byte what json.Marshal gives (and fails
// when it fails), for hostile strings, raw values and numbers, and for
// randomly filled messages.
func TestAppendMatchesEncodingJSON(t *testing.T) {
	var msgs []any
	h := func(i int) RunHeader {
		return RunHeader{Type: TypeLog, ID: hostile[i%len(hostile)], Seq: uint64(i) * 0x9e3779b97f4a7c15, T: hostileFloats[i%len(hostileFloats)]}
	}
	for i, s := range hostile {
		f := hostileFloats[i%len(hostileFloats)]
		r := hostileRaw[i%len(hostileRaw)]
		msgs = append(msgs,
			Started{RunHeader: h(i), TimeoutMs: f, Mode: s, Watch: s},
			&Started{RunHeader: h(i + 1), TimeoutMs: 5000},
			Log{RunHeader: h(i), Level: "log", Text: s, Args: []json.RawMessage{json.RawMessage(`"x"`), r}},
			Log{RunHeader: h(i)},
			&Log{RunHeader: h(i), Args: []json.RawMessage{}},
			Fact{RunHeader: h(i), Key: s, Value: r, Deleted: i%2 == 0},
			Call{RunHeader: h(i), CallID: int64(i), Name: s, Ms: f, OK: i%3 == 0, Error: s, Args: []json.RawMessage{r}, Result: r},
			CallStart{RunHeader: h(i), CallID: -int64(i), Pending: true, Name: s, Args: nil},
			Queued{RunHeader: h(i), Position: i - 3},
			Error{RunHeader: h(i), Kind: KindRuntime, Message: s, Stack: s, File: s, Line: i, Column: -i},
			&Error{RunHeader: h(i), Kind: KindInternal},
			Done{RunHeader: h(i), Outcome: s, DurationMs: f, TimedOut: i%2 == 1, Facts: map[string]json.RawMessage{s: r, "z": json.RawMessage(`1`), "a<": json.RawMessage(`[]`)},
				Output: r, RetryAfterMs: &hostileFloats[(i+3)%len(hostileFloats)],
				Stats: Stats{QueueMs: f, BundleMs: 0.25, RunMs: f, Logs: i, OutputBytes: 1 << 40, Truncated: true}},
			Done{RunHeader: h(i), Facts: map[string]json.RawMessage{}, Tape: r},
			&Done{RunHeader: h(i)},
		)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	pick := func() string { return hostile[rng.IntN(len(hostile))] }
	raw := func() json.RawMessage { return hostileRaw[rng.IntN(len(hostileRaw))] }
	num := func() float64 {
		if rng.IntN(3) == 0 {
			return hostileFloats[rng.IntN(len(hostileFloats))]
		}
		return math.Float64frombits(rng.Uint64()) // any bit pattern, NaNs included
	}
	for range 300 {
		hd := RunHeader{Type: pick(), ID: pick(), Seq: rng.Uint64(), T: num()}
		args := make([]json.RawMessage, rng.IntN(4))
		for i := range args {
			args[i] = raw()
		}
		facts := map[string]json.RawMessage{}
		for range rng.IntN(4) {
			facts[pick()] = raw()
		}
		retry := num()
		msgs = append(msgs,
			Log{RunHeader: hd, Level: pick(), Text: pick(), Args: args},
			Call{RunHeader: hd, CallID: rng.Int64(), Name: pick(), Ms: num(), OK: rng.IntN(2) == 0, Error: pick(), Args: args, Result: raw()},
			Done{RunHeader: hd, Outcome: pick(), DurationMs: num(), Facts: facts, Output: raw(), RetryAfterMs: &retry,
				Stats: Stats{QueueMs: num(), RunMs: num(), Logs: rng.Int(), OutputBytes: -rng.Int()}},
			Fact{RunHeader: hd, Key: pick(), Value: raw(), Deleted: rng.IntN(2) == 0},
			Error{RunHeader: hd, Kind: pick(), Message: pick(), Line: rng.Int()},
		)
	}
	fast := 0
	for _, m := range msgs {
		got, gerr := Marshal(m)
		want, werr := json.Marshal(m)
		if (gerr == nil) != (werr == nil) || !bytes.Equal(got, want) {
			t.Fatalf("%T:\n Marshal      %q (%v)\n json.Marshal %q (%v)", m, got, gerr, want, werr)
		}
		var e enc
		switch m := m.(type) {
		case Log:
			e.log(&m)
		case Started:
			e.started(&m)
		}
		if e.b != nil && !e.slow {
			fast++
		}
	}
	if fast < 100 {
		t.Errorf("only %d messages took the fast path; the test does not test it", fast)
	}
	// Other values go through json.Marshal.
	if b, err := Marshal(Pong{Type: TypePong, T: json.RawMessage(`1`)}); err != nil || string(b) != `{"type":"pong","t":1}` {
		t.Errorf("pong: %s, %v", b, err)
	}
}

// BenchmarkMarshalLog compares a log message's encoding with json.Marshal.
func BenchmarkMarshalLog(b *testing.B) {
	m := Log{RunHeader: RunHeader{Type: TypeLog, ID: "r-123", Seq: 2, T: 0.123}, Level: "log", Text: "hello, world",
		Args: []json.RawMessage{json.RawMessage(`"hello, world"`)}}
	b.Run("fast", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			_, _ = Marshal(m)
		}
	})
	b.Run("encoding-json", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			_, _ = json.Marshal(m)
		}
	})
}
