package engine

// This file is the engine's side of run tapes (docs/protocol.md, "Run
// tapes"): recording a run that asked for it (run.record) into done.tape,
// and replaying a tape with its host calls answered from it.

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/playground-dev/playground/sandbox"
	"github.com/playground-dev/playground/tape"
	"github.com/playground-dev/playground/ws"
)

// tapeRecorder records one run's tape: its messages (through wrap) and its
// host calls (as the run's sandbox.HostTape). A nil *tapeRecorder records
// nothing, so that Execute calls it without checking.
type tapeRecorder struct{ rec *tape.Recorder }

// recorder returns the recorder of j's run, or nil when the run records no
// tape. Its bound is tape.MaxRecordBytes of the run's output cap.
func (e *Engine) recorder(j Job) *tapeRecorder {
	if !j.Run.Record || j.Replay != nil {
		return nil
	}
	out := e.Limits.MaxOutputBytes
	if j.MaxOutputBytes > 0 && (out <= 0 || j.MaxOutputBytes < out) {
		out = j.MaxOutputBytes
	}
	return &tapeRecorder{rec: tape.NewRecorder(j.Run, tape.MaxRecordBytes(out))}
}

// wrap returns send, which also records each message but done (finish
// records done).
func (r *tapeRecorder) wrap(send func(any)) func(any) {
	if r == nil {
		return send
	}
	return func(v any) {
		if _, ok := v.(ws.Done); !ok {
			if b, err := ws.Marshal(v); err == nil {
				r.rec.Message(b)
			}
		}
		send(v)
	}
}

// hostTape sets req's host-call tape: the recorder's, or the replayed
// tape's answers for a replay (j.Replay).
func (r *tapeRecorder) hostTape(j Job, req *sandbox.Request) {
	switch {
	case j.Replay != nil:
		req.HostTape = replayCalls(j.Replay.Calls)
	case r != nil:
		req.HostTape = r
	}
}

// finish records done (without a tape) and returns the tape's JSON, or nil
// for a nil recorder.
func (r *tapeRecorder) finish(done ws.Done) json.RawMessage {
	if r == nil {
		return nil
	}
	done.Tape = nil
	if b, err := ws.Marshal(done); err == nil {
		r.rec.Message(b)
	}
	return r.rec.Finish()
}

// Answer implements sandbox.HostTape: a recording lets the host function
// answer.
func (r *tapeRecorder) Answer(int, string, []json.RawMessage) (json.RawMessage, string, bool) {
	return nil, "", false
}

// Record implements sandbox.HostTape.
func (r *tapeRecorder) Record(n int, name string, args []json.RawMessage, result json.RawMessage, errText string) {
	r.rec.Call(n, name, args, result, errText)
}

// replayCalls answers a replay's host calls from its tape, in order: the
// run's n-th call gets the tape's n-th answer when its name and arguments
// are the tape's; otherwise it is rejected with a text that says how it
// differs (the run's messages then differ from the tape's, which the
// replay reports as the divergence).
type replayCalls []tape.Call

// Answer implements sandbox.HostTape: every call is answered from the tape.
func (calls replayCalls) Answer(n int, name string, args []json.RawMessage) (json.RawMessage, string, bool) {
	if n < 1 || n > len(calls) {
		return nil, fmt.Sprintf("replay: the run made host call %d (host.%s), but the tape holds %d calls", n, name, len(calls)), true
	}
	c := calls[n-1]
	if c.Name != name || !sameArgs(c.Args, args) {
		return nil, fmt.Sprintf("replay: the run's host call %d is host.%s(%s), the tape's is host.%s(%s)", n, name, clipArgs(args), c.Name, clipArgs(c.Args)), true
	}
	return c.Result, c.Error, true
}

// Record implements sandbox.HostTape; a replay records nothing.
func (replayCalls) Record(int, string, []json.RawMessage, json.RawMessage, string) {}

func sameArgs(a, b []json.RawMessage) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if !bytes.Equal(a[i], b[i]) {
			return false
		}
	}
	return true
}

// clipArgs is args joined by commas, at most 100 bytes.
func clipArgs(args []json.RawMessage) string {
	parts := make([]string, len(args))
	for i, a := range args {
		parts[i] = string(a)
	}
	s := strings.Join(parts, ", ")
	if len(s) > 100 {
		s = s[:100] + "…"
	}
	return s
}

// Replayed is how a replay went: Divergence is nil when the replay's
// messages were the tape's (after tape.Normalize), else the first place
// they differ. Compared is how many messages were compared; Done is the
// replay's own done (outcome cancelled when it was stopped at a divergence).
type Replayed struct {
	Divergence *tape.Divergence
	Compared   int
	Done       ws.Done
	// Sent are the replay's own messages as they were sent (JSON, in seq
	// order, done last), when Job.KeepReplayed asked for them: what a page
	// renders to show the replay. Bounded by the tape's size, which the
	// replay stops past (its first divergence).
	Sent []json.RawMessage
}

// Replay re-runs a checked tape t (tape.Decode) as a run of j.Key and
// j.Session (j.Run is ignored: the run is the tape's, under a fresh id
// "replay-…"): admitted like any run (the rate limit, the client's run cap;
// a refusal is returned and nothing runs), its host calls answered from the
// tape in order, its messages compared with the tape's as they arrive. At
// the first divergence the run is cancelled. Safe for concurrent use.
func (e *Engine) Replay(ctx context.Context, t *tape.Tape, j Job) (Replayed, *Refusal) {
	var b [8]byte
	_, _ = rand.Read(b[:])
	m, err := t.Run("replay-" + hex.EncodeToString(b[:]))
	if err != nil {
		return Replayed{}, &Refusal{Outcome: ws.OutcomeInvalid, Field: "tape", Reason: err.Error()}
	}
	cmp, err := tape.NewComparer(t)
	if err != nil {
		return Replayed{}, &Refusal{Outcome: ws.OutcomeInvalid, Field: "tape", Reason: err.Error()}
	}
	j.Run, j.Replay = m, t
	if r := e.Admit(j); r != nil {
		return Replayed{}, r
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var sent []json.RawMessage
	done := e.Execute(ctx, j, func(v any) {
		b, err := ws.Marshal(v)
		if err != nil {
			return
		}
		if j.KeepReplayed {
			sent = append(sent, b)
		}
		if cmp.Add(b) {
			cancel()
		}
	})
	cmp.End()
	return Replayed{Divergence: cmp.Divergence(), Compared: cmp.Compared(), Done: done, Sent: sent}, nil
}
