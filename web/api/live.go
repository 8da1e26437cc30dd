package api

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/playground-dev/playground/engine"
	"github.com/playground-dev/playground/runs"
	"github.com/playground-dev/playground/ws"
)

// Started is the body of a 202 answer to POST /api/v1/run with "wait":
// false, and the structured content of the MCP start tool: the run's id,
// its watch token and where to follow it.
type Started struct {
	ID string `json:"id"`
	// Watch is the run's watch token: present it as "Authorization: Bearer
	// WATCH" to EventsURL and TapeURL, or in a socket's watch message.
	Watch string `json:"watch"`
	// EventsURL streams the run's messages (GET, NDJSON or SSE), relative
	// to the server.
	EventsURL string `json:"eventsUrl"`
	// TapeURL answers the run's tape once it has ended, when it asked for
	// one (record).
	TapeURL string `json:"tapeUrl"`
}

// maxWaitSeconds bounds ?wait= and the MCP wait tool's waitSeconds.
const maxWaitSeconds = 60

func eventsURL(id string) string { return "/api/v1/runs/" + url.PathEscape(id) + "/events" }
func tapeURL(id string) string   { return "/api/v1/runs/" + url.PathEscape(id) + "/tape" }

// startDetached executes an admitted job with no connection to wait for
// it: it runs to its own time limit (or until Close), its messages kept in
// the hub for GET /api/v1/runs/{id}/events and the MCP wait tool.
func (h *Handler) startDetached(job engine.Job) Started {
	hub := h.cfg.Engine.Hub
	job.Live = hub.Open(job.Run.ID, job.Key)
	done := h.active()
	go func() {
		defer done()
		h.cfg.Engine.Execute(h.ctx, job, func(any) {})
	}()
	return Started{ID: job.Run.ID, Watch: job.Live.Token(), EventsURL: eventsURL(job.Run.ID), TapeURL: tapeURL(job.Run.ID)}
}

func (h *Handler) writeStarted(w http.ResponseWriter, s Started) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	w.Header().Set("Location", s.EventsURL)
	w.WriteHeader(http.StatusAccepted)
	b, _ := json.Marshal(s)
	w.Write(append(b, '\n'))
}

// notFound is the one answer to an unknown run id and a wrong, missing or
// expired watch token alike: it says nothing of whether the run exists.
func notFound(w http.ResponseWriter) {
	writeProblem(w, Problem{Type: "urn:playground:problem:not-found", Status: http.StatusNotFound,
		Detail: "no such run, or the watch token is wrong or expired (send it as Authorization: Bearer WATCH)"})
}

// watchToken reads "Authorization: Bearer WATCH".
func watchToken(r *http.Request) string {
	scheme, token, _ := strings.Cut(r.Header.Get("Authorization"), " ")
	if !strings.EqualFold(scheme, "Bearer") {
		return ""
	}
	return strings.TrimSpace(token)
}

// watchProblem answers a hub error.
func watchProblem(w http.ResponseWriter, err error) {
	switch {
	case errors.Is(err, runs.ErrNotFound):
		notFound(w)
	case errors.Is(err, runs.ErrGone):
		writeProblem(w, Problem{Type: "urn:playground:problem:gone", Status: http.StatusGone, Detail: err.Error()})
	case errors.Is(err, runs.ErrTooManyWatchers):
		writeProblem(w, retryProblem(http.StatusTooManyRequests, "too-many-watchers", "", err.Error(), time.Second))
	default:
		writeProblem(w, Problem{Type: "urn:playground:problem:unavailable", Status: http.StatusServiceUnavailable, Detail: err.Error()})
	}
}

// parseCursor reads ?after= (or Last-Event-ID, which wins: an EventSource
// resuming) and ?wait= (seconds, at most maxWaitSeconds).
func parseCursor(r *http.Request) (after uint64, wait time.Duration, p *Problem) {
	q := r.URL.Query()
	if s := q.Get("after"); s != "" {
		n, err := strconv.ParseUint(s, 10, 64)
		if err != nil {
			pr := invalid("after", fmt.Sprintf("must be a seq, a whole number ≥ 0, not %q", clipQuery(s)))
			return 0, 0, &pr
		}
		after = n
	}
	if s := r.Header.Get("Last-Event-ID"); s != "" {
		n, err := strconv.ParseUint(strings.TrimSpace(s), 10, 64)
		if err != nil {
			pr := invalid("Last-Event-ID", fmt.Sprintf("must be a seq, a whole number ≥ 0, not %q", clipQuery(s)))
			return 0, 0, &pr
		}
		after = n
	}
	if s := q.Get("wait"); s != "" {
		f, err := strconv.ParseFloat(s, 64)
		if err != nil || math.IsNaN(f) || f <= 0 || f > maxWaitSeconds {
			pr := invalid("wait", fmt.Sprintf("must be a number of seconds in (0, %d], not %q", maxWaitSeconds, clipQuery(s)))
			return 0, 0, &pr
		}
		wait = time.Duration(f * float64(time.Second))
	}
	return after, wait, nil
}

func clipQuery(s string) string {
	if len(s) > 40 {
		return s[:40] + "…"
	}
	return s
}

// handleEvents serves GET /api/v1/runs/{id}/events: the run's messages
// with seq > after, from its buffer then live, ending with done, as NDJSON
// (default) or server-sent events (Accept: text/event-stream; each event's
// id is its seq, so Last-Event-ID resumes). With ?wait=S the answer also
// ends after S seconds, done or not: a long poll. A watch that ends without
// done (the watcher fell behind) ends with a watch_error message.
func (h *Handler) handleEvents(w http.ResponseWriter, r *http.Request) {
	hub := h.cfg.Engine.Hub
	token := watchToken(r)
	if hub == nil || token == "" {
		notFound(w)
		return
	}
	after, wait, p := parseCursor(r)
	if p != nil {
		writeProblem(w, *p)
		return
	}
	ctx := r.Context()
	if wait > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, wait)
		defer cancel()
	}
	id := r.PathValue("id")
	wt, err := hub.Watch(ctx, id, token, after)
	if err != nil {
		watchProblem(w, err)
		return
	}
	defer wt.Close()
	sse := negotiate(r) == formatSSE
	ct := "application/x-ndjson"
	if sse {
		ct = "text/event-stream"
	}
	w.Header().Set("Content-Type", ct)
	w.Header().Set("Cache-Control", "no-store")
	w.Header().Set("X-Accel-Buffering", "no")
	w.WriteHeader(http.StatusOK)
	rc := http.NewResponseController(w)
	_ = rc.Flush()
	var buf bytes.Buffer
	for {
		items, err := wt.Next(ctx)
		buf.Reset()
		for _, it := range items {
			b, merr := it.Bytes()
			if merr != nil {
				continue
			}
			writeEvent(&buf, sse, it.Type, it.Seq, b)
		}
		if err != nil && !errors.Is(err, io.EOF) && ctx.Err() == nil {
			b, _ := json.Marshal(ws.WatchError{Type: ws.TypeWatchError, ID: id, Reason: ws.WatchDropped, Message: err.Error()})
			writeEvent(&buf, sse, ws.TypeWatchError, 0, b)
		}
		if buf.Len() > 0 {
			if _, werr := w.Write(buf.Bytes()); werr != nil {
				return
			}
			if rc.Flush() != nil {
				return
			}
		}
		if err != nil {
			return
		}
	}
}

func writeEvent(buf *bytes.Buffer, sse bool, typ string, seq uint64, b []byte) {
	if !sse {
		buf.Write(b)
		buf.WriteByte('\n')
		return
	}
	if seq > 0 {
		fmt.Fprintf(buf, "event: %s\nid: %d\ndata: %s\n\n", typ, seq, b)
	} else {
		fmt.Fprintf(buf, "event: %s\ndata: %s\n\n", typ, b)
	}
}

// handleTape serves GET /api/v1/runs/{id}/tape: the finished run's tape
// (done.tape) as application/json, from this instance or, with -redis,
// from the run's stream. 404 for a wrong token (as for an unknown id) and
// for a run that has no tape; 409 while the run goes on.
func (h *Handler) handleTape(w http.ResponseWriter, r *http.Request) {
	hub := h.cfg.Engine.Hub
	token := watchToken(r)
	if hub == nil || token == "" {
		notFound(w)
		return
	}
	tape, ended, err := hub.Tape(r.Context(), r.PathValue("id"), token)
	switch {
	case err != nil:
		watchProblem(w, err)
		return
	case !ended:
		writeProblem(w, Problem{Type: "urn:playground:problem:not-finished", Status: http.StatusConflict,
			Detail: "the run has not ended; its tape is ready with its done"})
		return
	case len(tape) == 0:
		writeProblem(w, Problem{Type: "urn:playground:problem:no-tape", Status: http.StatusNotFound,
			Detail: "this run has no tape: ask for one with \"record\": true"})
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	w.Write(append(append([]byte(nil), tape...), '\n'))
}
