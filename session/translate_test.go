package session

import (
	"slices"
	"testing"
	"time"

	"github.com/playground-dev/playground/sandbox"
	"github.com/playground-dev/playground/ws"
)

// TestEveryEngineValueMaps: each engine outcome and error kind has its own
// wire value, named as PROTOCOL.md names it, so a new engine value cannot
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
		Limits: sandbox.Limits{MaxOutputBytes: 10, MaxEvents: 11, MaxTimers: 12, MaxHostCalls: 13,
			PreviewLimits: sandbox.PreviewLimits{Depth: 1, Keys: 2, String: 3}}}
	got := HelloLimits(a, ClientLimits{PerSecond: 4, Burst: 8})
	want := ws.Limits{TimeoutMs: ws.Range{Default: 5000, Min: 50, Max: 30000}, MemoryBytes: 1 << 28, MaxFiles: 3, MaxSourceBytes: 1000,
		MaxOutputBytes: 10, MaxEvents: 11, MaxTimers: 12, MaxHostCalls: 13, MaxMessageBytes: 4000 + 64<<10,
		RunsPerSecond: 4, RunBurst: 8, PreviewDepth: 1, PreviewKeys: 2, PreviewString: 3}
	if got != want {
		t.Errorf("HelloLimits =\n%+v\nwant\n%+v", got, want)
	}
}
