package api

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"os"
	"strings"
	"time"

	"github.com/playground-dev/playground/engine"
	"github.com/playground-dev/playground/tape"
	"github.com/playground-dev/playground/ws"
)

// ReplayResult is the answer of POST /api/v1/replay (docs/api.md): whether
// the replay's messages were the tape's, after the normalization of
// docs/protocol.md ("Run tapes"), and if not, the first divergence: Seq
// (the message's number on the tape), Expected (the tape's message, null
// when the replay sent more) and Received (the replay's, null when it
// ended first).
type ReplayResult struct {
	Identical bool `json:"identical"`
	// Messages is how many of the replay's messages were compared (queued
	// messages are not).
	Messages int             `json:"messages"`
	Seq      uint64          `json:"seq,omitempty"`
	Expected json.RawMessage `json:"expected,omitempty"`
	Received json.RawMessage `json:"received,omitempty"`
	// Outcome is the replay's own done.outcome (cancelled when it was
	// stopped at its divergence).
	Outcome string `json:"outcome"`
	// Replayed are the replay's own messages in order (its done last),
	// with ?messages=true: what a page renders to show the replay.
	Replayed []json.RawMessage `json:"replayed,omitempty"`
}

// handleReplay is POST /api/v1/replay: the body is a tape (done.tape); the
// tape's run is re-run with its host calls answered from the tape, and the
// answer says whether its messages were the tape's.
func (h *Handler) handleReplay(w http.ResponseWriter, r *http.Request) {
	received := time.Now()
	lim := h.cfg.Engine.Limits
	limit := tape.MaxBytes(lim)
	if lim.MaxMessageBytes <= 0 {
		limit = 16 << 20
	}
	body, p := readJSONBody(w, r, limit, "the tape")
	if p != nil {
		writeProblem(w, *p)
		return
	}
	t, err := tape.Decode(body)
	if err != nil {
		var fe *tape.FieldError
		if errors.As(err, &fe) {
			writeProblem(w, invalid(fe.Field, fe.Reason))
		} else {
			writeProblem(w, invalid("tape", err.Error()))
		}
		return
	}
	key := r.Header.Get(clientKeyHeader)
	h.cfg.Engine.Metrics.Runs.Add(1)
	defer h.active()()
	ctx, cancel := h.runContext(r.Context())
	defer cancel()
	keep := r.URL.Query().Get("messages") == "true"
	rep, ref := h.cfg.Engine.Replay(ctx, t, engine.Job{Key: key, Session: engine.StatelessSession("replay"), Received: received, KeepReplayed: keep})
	if ref != nil {
		switch ref.Outcome {
		case ws.OutcomeRateLimited:
			writeProblem(w, retryProblem(http.StatusTooManyRequests, "rate-limited", ws.OutcomeRateLimited,
				fmt.Sprintf("too many runs: %g per second with bursts of %d per client", lim.RunsPerSecond, lim.RunBurst), ref.RetryAfter))
		case ws.OutcomeBusy:
			writeProblem(w, retryProblem(http.StatusServiceUnavailable, "busy", ws.OutcomeBusy, ref.Reason, ref.RetryAfter))
		default:
			field := ref.Field
			if field == "" {
				field = "tape"
			}
			writeProblem(w, invalid(field, ref.Reason))
		}
		return
	}
	if rep.Done.Outcome == ws.OutcomeBusy && rep.Divergence != nil && rep.Compared <= 1 {
		// The queue was full: the replay never ran, which says nothing about the tape.
		after := time.Second
		if rep.Done.RetryAfterMs != nil {
			after = time.Duration(*rep.Done.RetryAfterMs) * time.Millisecond
		}
		writeProblem(w, retryProblem(http.StatusServiceUnavailable, "busy", ws.OutcomeBusy, "the server's run queue is full", after))
		return
	}
	res := ReplayResult{Identical: rep.Divergence == nil, Messages: rep.Compared, Outcome: rep.Done.Outcome, Replayed: rep.Sent}
	if d := rep.Divergence; d != nil {
		res.Seq, res.Expected, res.Received = d.Seq, d.Expected, d.Received
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	b, _ := json.Marshal(res)
	w.Write(append(b, '\n'))
}

// readJSONBody reads a JSON object body of at most limit bytes: a wrong
// Content-Type is 415, a larger body 413, one that is not a JSON object 400.
// what names the body in the messages ("the tape").
func readJSONBody(w http.ResponseWriter, r *http.Request, limit int64, what string) ([]byte, *Problem) {
	ct := r.Header.Get("Content-Type")
	mt, _, err := mime.ParseMediaType(ct)
	if ct == "" || err != nil || (mt != "application/json" && !strings.HasSuffix(mt, "+json")) {
		return nil, &Problem{Type: "urn:playground:problem:unsupported-media-type", Status: http.StatusUnsupportedMediaType,
			Detail: fmt.Sprintf("Content-Type %q: send %s as application/json", ct, what)}
	}
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, limit))
	var tooBig *http.MaxBytesError
	switch {
	case errors.As(err, &tooBig):
		return nil, &Problem{Type: "urn:playground:problem:body-too-large", Status: http.StatusRequestEntityTooLarge,
			Detail: fmt.Sprintf("%s is over %d bytes (maxMessageBytes + maxInputBytes + 2 × maxOutputBytes + 64 KiB)", what, limit)}
	case errors.Is(err, os.ErrDeadlineExceeded):
		return nil, &Problem{Type: "urn:playground:problem:body-timeout", Status: http.StatusRequestTimeout, Detail: "the body did not arrive in time"}
	case err != nil:
		p := invalid("body", "could not read the body: "+err.Error())
		return nil, &p
	}
	return body, nil
}
