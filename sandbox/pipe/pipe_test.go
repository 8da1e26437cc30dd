package pipe

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// TestWireBytes pins the pipe's encoding byte by byte: both ends are built
// from the same binary today, but the contract is what would travel if
// workers moved to other hosts, so a change to it must be deliberate.
func TestWireBytes(t *testing.T) {
	tests := []struct {
		name string
		v    any
		want string
	}{
		{"ready", Message{Ready: true}, `{"ready":true}`},
		{"accepted", Message{Accepted: true}, `{"accepted":true}`},
		{"run", Command{Op: OpRun, Job: &Job{Files: []File{{Path: "main.ts", Source: "1"}}, Entry: "main.ts",
			Input: json.RawMessage(`{"n":1}`), Timeout: 1500 * time.Millisecond, Deadline: 1_795_000_000_123_456_789, Deterministic: true, Mode: "module",
			Limits: Limits{MaxOutputBytes: 1, MaxEvents: 2, MaxTimers: 3, MaxCallStack: 4, MaxHostCalls: 5,
				PreviewLimits: PreviewLimits{Depth: 6, Keys: 7, String: 8}}, Host: []string{"echo"}}},
			`{"op":"run","job":{"files":[{"path":"main.ts","source":"1"}],"entry":"main.ts","input":{"n":1},"timeout":1500000000,"deadline":1795000000123456789,"deterministic":true,"mode":"module",` +
				`"limits":{"maxOutputBytes":1,"maxEvents":2,"maxTimers":3,"maxCallStack":4,"maxHostCalls":5,"previewDepth":6,"previewKeys":7,"previewString":8},"host":["echo"]}}`},
		{"cancel", Command{Op: OpCancel}, `{"op":"cancel"}`},
		{"reply", Command{Op: OpReply, Reply: &HostReply{ID: 7, Result: json.RawMessage(`"v"`), Duration: time.Millisecond}},
			`{"op":"reply","reply":{"id":7,"result":"v","duration":1000000}}`},
		{"reply error", Command{Op: OpReply, Reply: &HostReply{ID: 8, Error: "nope"}}, `{"op":"reply","reply":{"id":8,"error":"nope","duration":0}}`},
		{"call", Message{Call: &HostCall{ID: 7, Name: "kv.get", Args: []json.RawMessage{json.RawMessage(`"k"`)}}},
			`{"call":{"id":7,"name":"kv.get","args":["k"]}}`},
		{"call cancel", Message{Call: &HostCall{ID: 7, Name: "fetch", Cancel: true}}, `{"call":{"id":7,"name":"fetch","args":null,"cancel":true}}`},
		{"log event", Message{Event: &Event{Kind: EventLog, T: 2500 * time.Microsecond, Level: "info", Text: "hi", Args: []json.RawMessage{json.RawMessage(`"hi"`)}}},
			`{"event":{"kind":"log","t":2500000,"level":"info","text":"hi","args":["hi"]}}`},
		{"error event", Message{Event: &Event{Kind: EventError, Error: &Error{Kind: KindRuntime, Message: "boom", File: "a.ts", Line: 1, Column: 2}}},
			`{"event":{"kind":"error","t":0,"error":{"kind":"RUNTIME_ERROR","message":"boom","file":"a.ts","line":1,"column":2}}}`},
		{"idle", Message{Idle: &Idle{Wait: 1500 * time.Millisecond, Replies: 2}}, `{"idle":{"wait":1500000000,"replies":2}}`},
		{"result", Message{Result: &Result{Outcome: OutcomeOK, Facts: map[string]json.RawMessage{"a": json.RawMessage(`1`)}, End: time.Second,
			Stats: Stats{Queue: 1, Bundle: 2, Run: 3, Logs: 4, OutputBytes: 5}}},
			`{"result":{"outcome":"ok","timedOut":false,"facts":{"a":1},"end":1000000000,"stats":{"queue":1,"bundle":2,"run":3,"logs":4,"outputBytes":5,"truncated":false}}}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var buf bytes.Buffer
			if err := NewWriter(&buf).Write(tt.v); err != nil {
				t.Fatal(err)
			}
			if got := buf.String(); got != tt.want+"\n" {
				t.Errorf("wrote\n%s\nwant\n%s", got, tt.want+"\n")
			}
			// What one end writes, the other reads back as the same value.
			line, err := NewReader(&buf, 1<<20).Next()
			if err != nil {
				t.Fatal(err)
			}
			back := newOf(tt.v)
			if err := json.Unmarshal(line, back); err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.v, deref(back)); diff != "" {
				t.Errorf("round trip (-wrote +read):\n%s", diff)
			}
		})
	}
}

func newOf(v any) any {
	switch v.(type) {
	case Message:
		return &Message{}
	case Command:
		return &Command{}
	}
	panic("unknown type")
}

func deref(v any) any {
	switch x := v.(type) {
	case *Message:
		return *x
	case *Command:
		return *x
	}
	panic("unknown type")
}

func TestMessageValid(t *testing.T) {
	for _, tt := range []struct {
		m    Message
		want bool
	}{
		{Message{}, false},
		{Message{Ready: true}, true},
		{Message{Accepted: true}, true},
		{Message{Accepted: true, Event: &Event{}}, false},
		{Message{Event: &Event{}}, true},
		{Message{Call: &HostCall{}}, true},
		{Message{Result: &Result{}}, true},
		{Message{Event: &Event{}, Result: &Result{}}, false},
		{Message{Ready: true, Call: &HostCall{}}, false},
		{Message{Idle: &Idle{}}, true},
		{Message{Idle: &Idle{}, Event: &Event{}}, false},
	} {
		if got := tt.m.Valid(); got != tt.want {
			t.Errorf("%+v.Valid() = %v; want %v", tt.m, got, tt.want)
		}
	}
}

func TestReaderFraming(t *testing.T) {
	r := NewReader(strings.NewReader("a\n\nbc\n"+strings.Repeat("x", 100)+"\nrest"), 64)
	for _, want := range []string{"a", "", "bc"} {
		got, err := r.Next()
		if err != nil || string(got) != want {
			t.Fatalf("Next() = %q, %v; want %q", got, err, want)
		}
	}
	if _, err := r.Next(); !errors.Is(err, ErrLineTooLong) {
		t.Errorf("a 101-byte line with a 64-byte cap: err = %v; want ErrLineTooLong", err)
	}
	// A last line without its newline is a writer that died mid-line: dropped.
	r = NewReader(strings.NewReader("whole\npartial"), 64)
	if got, err := r.Next(); err != nil || string(got) != "whole" {
		t.Fatalf("Next() = %q, %v", got, err)
	}
	if got, err := r.Next(); err != io.EOF {
		t.Errorf("Next() after a partial line = %q, %v; want io.EOF", got, err)
	}
	// Lines longer than the reader's internal buffer (64 KiB) are joined.
	long := strings.Repeat("y", 200<<10)
	r = NewReader(strings.NewReader(long+"\n"), 1<<20)
	if got, err := r.Next(); err != nil || string(got) != long {
		t.Errorf("long line: %d bytes, %v; want %d", len(got), err, len(long))
	}
	// The cap counts the newline: a line of exactly max-1 bytes fits.
	r = NewReader(strings.NewReader(strings.Repeat("z", 63)+"\n"+strings.Repeat("z", 64)+"\n"), 64)
	if _, err := r.Next(); err != nil {
		t.Errorf("63 bytes + newline under a 64-byte cap: %v", err)
	}
	if _, err := r.Next(); !errors.Is(err, ErrLineTooLong) {
		t.Errorf("64 bytes + newline under a 64-byte cap: %v; want ErrLineTooLong", err)
	}
}

func TestMemoryLayoutOrder(t *testing.T) {
	for _, run := range []int64{16 << 20, 128 << 20, 256 << 20, 1 << 30, 8 << 30} {
		m := MemoryLayoutFor(run)
		if !(m.Run < m.Exit && m.Exit < m.OS) || m.Run != run {
			t.Errorf("MemoryLayoutFor(%d MiB) = %+v; want Run < Exit < OS", run>>20, m)
		}
	}
	if m := MemoryLayoutFor(256 << 20); m.Exit != 304<<20 || m.OS != 352<<20 {
		t.Errorf("default layout = Exit %d MiB, OS %d MiB; the doc says 304 and 352", m.Exit>>20, m.OS>>20)
	}
}

func TestLimitsDefaults(t *testing.T) {
	if diff := cmp.Diff(DefaultLimits(), Limits{}.WithDefaults()); diff != "" {
		t.Errorf("zero Limits with defaults differ from DefaultLimits:\n%s", diff)
	}
	l := Limits{MaxEvents: 5, PreviewLimits: PreviewLimits{Keys: 2}}.WithDefaults()
	if l.MaxEvents != 5 || l.Keys != 2 || l.MaxOutputBytes != DefaultLimits().MaxOutputBytes {
		t.Errorf("WithDefaults overwrote a set field or left a zero one: %+v", l)
	}
}

func TestOutputBytes(t *testing.T) {
	raw := func(s string) json.RawMessage { return json.RawMessage(s) }
	for _, tt := range []struct {
		name string
		ev   Event
		want int
	}{
		{"started", Event{Kind: EventStarted, Timeout: time.Second, Mode: ModeModule}, 0},
		{"queued", Event{Kind: EventQueued, Position: 3}, 0},
		{"log", Event{Kind: EventLog, Level: "info", Text: "x 1", Args: []json.RawMessage{raw(`"x"`), raw(`1`)}}, 3 + 3 + 1},
		{"fact", Event{Kind: EventFact, Key: "k", Value: raw(`[1,2]`)}, 1 + 5},
		{"fact deleted", Event{Kind: EventFact, Key: "key", Deleted: true}, 3},
		{"call pending", Event{Kind: EventCall, CallID: 1, Pending: true, Name: "kv.get", Args: []json.RawMessage{raw(`"k"`)}}, 6 + 3},
		{"call settled", Event{Kind: EventCall, CallID: 1, Name: "kv.get", Args: []json.RawMessage{raw(`"k"`)}, OK: true, Result: raw(`"v"`)}, 6 + 3 + 3},
		{"call failed", Event{Kind: EventCall, CallID: 1, Name: "f", CallError: "nope"}, 1 + 4},
		{"runtime error", Event{Kind: EventError, Error: &Error{Kind: KindRuntime, Message: "boom", Stack: "at a", File: "a.ts", Line: 1}}, 4 + 4 + 4},
		{"limit errors", Event{Kind: EventError, Error: OutputLimitError(DefaultLimits())}, 0},
		{"timeout", Event{Kind: EventError, Error: TimeoutError(time.Second)}, 0},
		{"memory", Event{Kind: EventError, Error: MemoryError(1 << 20)}, 0},
	} {
		if got := OutputBytes(&tt.ev); got != tt.want {
			t.Errorf("%s: OutputBytes = %d; want %d", tt.name, got, tt.want)
		}
	}
}
