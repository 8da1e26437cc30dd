package sandbox

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
)

// testTape answers every call from answers (a replay) when replay is set,
// else records what the host functions answered.
type testTape struct {
	replay  bool
	answers map[int]string

	mu       sync.Mutex
	asked    []string // "n name args" of every Answer
	recorded []string // "n name args -> result|error" of every Record
}

func (tt *testTape) Answer(n int, name string, args []json.RawMessage) (json.RawMessage, string, bool) {
	tt.mu.Lock()
	defer tt.mu.Unlock()
	tt.asked = append(tt.asked, fmt.Sprintf("%d %s %s", n, name, args))
	if !tt.replay {
		return nil, "", false
	}
	a, ok := tt.answers[n]
	if !ok {
		return nil, "not on the tape", true
	}
	return json.RawMessage(a), "", true
}

func (tt *testTape) Record(n int, name string, args []json.RawMessage, result json.RawMessage, errText string) {
	tt.mu.Lock()
	defer tt.mu.Unlock()
	tt.recorded = append(tt.recorded, fmt.Sprintf("%d %s %s -> %s|%s", n, name, args, result, errText))
}

// TestHostTapeReplayRunsNoHostFunction: a run with a replaying HostTape
// gets every host call's answer from the tape, numbered in the order the
// run made them, and no host function runs.
func TestHostTapeReplayRunsNoHostFunction(t *testing.T) {
	p := newTestPool(t, Config{Workers: 1, Host: map[string]HostFunc{
		"echo": func(context.Context, HostCall) (json.RawMessage, error) {
			t.Error("host.echo ran during a replay")
			return nil, nil
		},
	}})
	tt := &testTape{replay: true, answers: map[int]string{1: `"from the tape"`, 2: `{"n":2}`}}
	res, rec := run(t, p, Request{Deterministic: true, HostTape: tt, Files: files("main.ts", `
import { host } from "playground";
const [a, b] = await Promise.all([host.echo("first"), host.echo("second", 2)]);
console.log(JSON.stringify([a, b]));
try { await host.echo("third"); } catch (e) { console.log(String(e)); }
`)})
	if res.Outcome != OutcomeOK {
		t.Fatalf("outcome %s: %+v", res.Outcome, rec.errors())
	}
	want := []string{`["from the tape",{"n":2}]`, `Error: host.echo: not on the tape`}
	if got := rec.logs(); !slices.Equal(got, want) {
		t.Errorf("logs %q; want %q", got, want)
	}
	tt.mu.Lock()
	defer tt.mu.Unlock()
	slices.Sort(tt.asked) // served concurrently; the numbers are the run's order
	if want := []string{`1 echo ["first"]`, `2 echo ["second" 2]`, `3 echo ["third"]`}; !slices.Equal(tt.asked, want) {
		t.Errorf("asked %q; want %q", tt.asked, want)
	}
	if len(tt.recorded) != 0 {
		t.Errorf("a replay recorded %q", tt.recorded)
	}
}

// TestHostTapeRecordsEveryAnswer: a recording HostTape lets the host
// functions answer and is told each answer with the call's number.
func TestHostTapeRecordsEveryAnswer(t *testing.T) {
	p := newTestPool(t, Config{Workers: 1, Host: map[string]HostFunc{
		"echo": func(_ context.Context, c HostCall) (json.RawMessage, error) {
			if !c.Recording {
				t.Error("HostCall.Recording is not set in a recorded run")
			}
			if string(c.Args[0]) == `"fail"` {
				return nil, fmt.Errorf("refused")
			}
			return c.Args[0], nil
		},
	}})
	tt := &testTape{}
	res, rec := run(t, p, Request{Deterministic: true, Record: true, HostTape: tt, Files: files("main.ts", `
import { host } from "playground";
console.log(await host.echo("a"));
try { await host.echo("fail"); } catch (e) { console.log(String(e)); }
`)})
	if res.Outcome != OutcomeOK {
		t.Fatalf("outcome %s: %+v", res.Outcome, rec.errors())
	}
	tt.mu.Lock()
	defer tt.mu.Unlock()
	want := []string{`1 echo ["a"] -> "a"|`, `2 echo ["fail"] -> |refused`}
	if !slices.Equal(tt.recorded, want) {
		t.Errorf("recorded %q; want %q", tt.recorded, want)
	}
	if got := strings.Join(rec.logs(), "\n"); got != "a\nError: host.echo: refused" {
		t.Errorf("logs %q", got)
	}
}
