package engine_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/playground-dev/playground/engine"
	"github.com/playground-dev/playground/tape"
	"github.com/playground-dev/playground/ws"
)

// TestEngineRecordsATape: a run with record passes Record and a HostTape to
// the runner, and its done carries a tape whose messages are the ones sent
// (done without its tape), which replays identical against the same runner.
func TestEngineRecordsATape(t *testing.T) {
	r := &scriptRunner{}
	e := &engine.Engine{Runner: r, Limiter: &countingLimiter{n: 10}, Limits: ws.Limits{MaxOutputBytes: 1 << 20}}
	m := run1("main.js")
	m.Record, m.Deterministic = true, true
	got, done := collect(e, engine.Job{Run: m, Key: "k"})
	if !r.req.Record || r.req.HostTape == nil {
		t.Errorf("request = %+v; want Record and a HostTape", r.req)
	}
	if _, _, ok := r.req.HostTape.Answer(1, "echo", nil); ok {
		t.Error("a recording's HostTape answers a call; the host function must")
	}
	tp, err := tape.Decode(done.Tape)
	if err != nil {
		t.Fatalf("done.tape %s: %v", done.Tape, err)
	}
	if len(tp.Messages) != len(got) {
		t.Fatalf("tape holds %d messages; %d were sent", len(tp.Messages), len(got))
	}
	for i, v := range got {
		if d, ok := v.(ws.Done); ok {
			d.Tape = nil
			v = d
		}
		b, _ := ws.Marshal(v)
		if string(b) != string(tp.Messages[i]) {
			t.Errorf("tape message %d = %s; sent %s", i, tp.Messages[i], b)
		}
	}
	rep, ref := e.Replay(context.Background(), tp, engine.Job{Key: "k"})
	if ref != nil || rep.Divergence != nil || rep.Compared != 4 || !strings.HasPrefix(r.req.ID, "replay-") {
		t.Errorf("replay = %+v, %v (run id %s); want identical over 4 messages under a replay id", rep, ref, r.req.ID)
	}
	if res, errText, ok := r.req.HostTape.Answer(1, "echo", []json.RawMessage{json.RawMessage(`1`)}); !ok || !strings.Contains(errText, "holds 0 calls") || res != nil {
		t.Errorf("the replay's HostTape answered %s %q %v; want a rejection: the tape holds no calls", res, errText, ok)
	}
}

// TestEngineRecordsNoTapeForARefusedRun: a run refused before it executes
// (here the client's run cap) has no tape.
func TestEngineRecordsNoTapeForARefusedRun(t *testing.T) {
	e := &engine.Engine{Runner: &scriptRunner{}, Limiter: &countingLimiter{n: 10}, Runs: full{}}
	m := run1("main.js")
	m.Record = true
	_, done := collect(e, engine.Job{Run: m, Key: "k"})
	if done.Outcome != ws.OutcomeBusy || done.Tape != nil {
		t.Errorf("done = %+v; want busy without a tape", done)
	}
}

// full is a Counter whose every key holds all its slots.
type full struct{}

func (full) Acquire(string) (func(), bool) { return func() {}, false }
func (full) Max() int                      { return 1 }
