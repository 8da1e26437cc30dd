package engine

import (
	"encoding/json"
	"slices"
	"testing"
	"time"

	"github.com/playground-dev/playground/sandbox"
	"github.com/playground-dev/playground/ws"
)

// TestEveryEngineValueMaps: each engine outcome and error kind has its own
// wire value, named as docs/protocol.md names it, so a new engine value cannot
// slip onto the wire unmapped.
func TestEveryEngineValueMaps(t *testing.T) {
	wireOutcomes := []string{ws.OutcomeOK, ws.OutcomeError, ws.OutcomeTimeout, ws.OutcomeMemoryLimit, ws.OutcomeOutputLimit,
		ws.OutcomeCancelled, ws.OutcomeRateLimited, ws.OutcomeBusy, ws.OutcomeInvalid}
	seen := map[string]sandbox.Outcome{}
	for _, o := range sandbox.Outcomes {
		w := wireOutcome(o)
		if !slices.Contains(wireOutcomes, w) {
			t.Errorf("outcome %q maps to %q, not a protocol outcome", o, w)
		}
		if prev, dup := seen[w]; dup {
			t.Errorf("outcomes %q and %q both map to %q", prev, o, w)
		}
		seen[w] = o
		if w != string(o) {
			t.Errorf("outcome %q maps to %q; the protocol names it %q", o, w, o)
		}
	}
	wireKinds := []string{ws.KindBundle, ws.KindSyntax, ws.KindRuntime, ws.KindTimeout, ws.KindMemoryLimit,
		ws.KindOutputLimit, ws.KindSecurity, ws.KindInvalidRequest, ws.KindInternal}
	if len(sandbox.ErrorKinds) != len(wireKinds) {
		t.Errorf("engine has %d error kinds, the protocol %d", len(sandbox.ErrorKinds), len(wireKinds))
	}
	for _, k := range sandbox.ErrorKinds {
		if w := wireKind(k); !slices.Contains(wireKinds, w) || w != string(k) {
			t.Errorf("kind %q maps to %q", k, w)
		}
	}
	for _, k := range sandbox.EventKinds {
		if _, ok := toWire("r", 1, sandbox.Event{Kind: k, Error: &sandbox.Error{}}).(ws.Error); ok && k != sandbox.EventError {
			t.Errorf("event kind %q has no wire message of its own", k)
		}
	}
}

func TestHelloLimitsInWireUnits(t *testing.T) {
	a := sandbox.Announced{DefaultTimeout: 5 * time.Second, MinTimeout: 50 * time.Millisecond, MaxTimeout: 30 * time.Second,
		MemoryBytes: 1 << 28, MaxFiles: 3, MaxSourceBytes: 1000,
		Limits: sandbox.Limits{MaxOutputBytes: 10, MaxEvents: 11, MaxTimers: 12, MaxHostCalls: 13, MaxFactsBytes: 14,
			PreviewLimits: sandbox.PreviewLimits{Depth: 1, Keys: 2, String: 3}}}
	got := HelloLimits(a, ClientLimits{PerSecond: 4, Burst: 8})
	want := ws.Limits{TimeoutMs: ws.Range{Default: 5000, Min: 50, Max: 30000}, MemoryBytes: 1 << 28, MaxFiles: 3, MaxSourceBytes: 1000,
		MaxOutputBytes: 10, MaxEvents: 11, MaxTimers: 12, MaxHostCalls: 13, MaxMessageBytes: 4000 + 64<<10,
		RunsPerSecond: 4, RunBurst: 8, PreviewDepth: 1, PreviewKeys: 2, PreviewString: 3, MaxFactsBytes: 14}
	if got != want {
		t.Errorf("HelloLimits =\n%+v\nwant\n%+v", got, want)
	}
}

// A host call is two call messages with one callId: the first (pending)
// has its name and arguments and no ms or ok, the second settles it.
func TestCallMessagesOnTheWire(t *testing.T) {
	args := []json.RawMessage{json.RawMessage(`"hi"`)}
	start, _ := json.Marshal(toWire("r", 3, sandbox.Event{Kind: sandbox.EventCall, T: time.Millisecond, CallID: 1, Pending: true, Name: "log", Args: args}))
	end, _ := json.Marshal(toWire("r", 4, sandbox.Event{Kind: sandbox.EventCall, T: 3 * time.Millisecond, CallID: 1, Name: "log", Args: args,
		Duration: 2 * time.Millisecond, OK: true, Result: json.RawMessage(`{"a":1}`)}))
	if want := `{"type":"call","id":"r","seq":3,"t":1,"callId":1,"pending":true,"name":"log","args":["hi"]}`; string(start) != want {
		t.Errorf("start = %s\nwant    %s", start, want)
	}
	if want := `{"type":"call","id":"r","seq":4,"t":3,"callId":1,"name":"log","ms":2,"ok":true,"args":["hi"],"result":{"a":1}}`; string(end) != want {
		t.Errorf("end = %s\nwant  %s", end, want)
	}
}
