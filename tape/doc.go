// Package tape is the run tape (docs/protocol.md, "Run tapes"): a run's
// request, every host call's arguments and answer in order, and the
// messages the run sent, as one versioned JSON document, so that a
// deterministic run can be re-run with its host calls answered from the tape
// (no host function runs) and its messages compared with the recorded ones.
//
// The package holds the format (Tape, strictly decoded by Decode and
// checked by Check), the recording (Recorder, which the engine feeds) and
// the comparison (Comparer, which finds the first divergence after the
// documented normalization, Normalize). It runs nothing itself: the engine
// records and replays (engine/tape.go), the sandbox answers host calls
// from a tape (sandbox.HostTape).
package tape
