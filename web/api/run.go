package api

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"os"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/playground-dev/playground/engine"
	"github.com/playground-dev/playground/jsonwire"
	"github.com/playground-dev/playground/tape"
	"github.com/playground-dev/playground/ws"
)

// RunRequest is the body of POST /api/v1/run: the run message's fields
// (docs/protocol.md) without "type", with "id" optional, plus Code, a shorthand
// for one entry file (main.ts, or main.js in script mode), and InputData,
// another name for Input that agent frameworks send.
type RunRequest struct {
	ID            *string         `json:"id,omitempty"`
	Files         []ws.File       `json:"files,omitempty"`
	Code          *string         `json:"code,omitempty"`
	Entry         *string         `json:"entry,omitempty"`
	Input         json.RawMessage `json:"input,omitempty"`
	InputData     json.RawMessage `json:"inputData,omitempty"`
	TimeoutMs     *float64        `json:"timeoutMs,omitempty"`
	Deterministic *bool           `json:"deterministic,omitempty"`
	Mode          *string         `json:"mode,omitempty"`
	// Wait false answers 202 with the run's id and watch token at once
	// (Started) and runs it to its own time limit, followed through
	// GET /api/v1/runs/{id}/events; absent or true: the answer is the run.
	Wait *bool `json:"wait,omitempty"`
	// Record asks for the run's tape (done.tape; docs/protocol.md, "Run tapes").
	Record *bool `json:"record,omitempty"`
}

// CodePath returns the path the Code shorthand's file gets in mode.
func CodePath(mode string) string {
	if mode == ws.ModeScript {
		return "main.js"
	}
	return "main.ts"
}

// toRun turns the request into a checked run message, or a 400 problem
// naming the field at fault.
func (q *RunRequest) toRun(files bool) (*ws.Run, *Problem) {
	id := newID("http-")
	if q.ID != nil {
		id = *q.ID
	}
	msg := map[string]any{"type": ws.TypeRun, "id": id}
	switch {
	case q.Code != nil && q.Files != nil:
		p := invalid("code", `give either "code" (one source string) or "files", not both`)
		return nil, &p
	case q.Code != nil:
		mode := ""
		if q.Mode != nil {
			mode = *q.Mode
		}
		msg["files"] = []ws.File{{Path: CodePath(mode), Source: *q.Code}}
	case q.Files != nil:
		msg["files"] = q.Files
	default:
		field := "files"
		if !files {
			field = "code"
		}
		p := invalid(field, `a run needs "files" (an array of {path, source}) or "code" (one source string)`)
		return nil, &p
	}
	if len(q.Input) > 0 && len(q.InputData) > 0 {
		p := invalid("inputData", `"inputData" is another name for "input": give one of them`)
		return nil, &p
	}
	input := q.Input
	if len(input) == 0 {
		input = q.InputData
	}
	if q.Entry != nil {
		msg["entry"] = *q.Entry
	}
	if q.TimeoutMs != nil {
		msg["timeoutMs"] = *q.TimeoutMs
	}
	if q.Deterministic != nil {
		msg["deterministic"] = *q.Deterministic
	}
	if q.Mode != nil {
		msg["mode"] = *q.Mode
	}
	if q.Record != nil {
		msg["record"] = *q.Record
	}
	b, err := json.Marshal(msg)
	if err != nil {
		p := invalid("body", err.Error())
		return nil, &p
	}
	m, err := ws.Decode(b)
	var re *ws.RunError
	switch {
	case errors.As(err, &re):
		p := invalid(re.Field, re.Reason)
		return nil, &p
	case err != nil:
		p := invalid("id", "must be 1-64 characters of [A-Za-z0-9._:-]")
		return nil, &p
	}
	run := m.(*ws.Run)
	if len(input) > 0 {
		// Not through json.Marshal and ws.Decode with the rest: for an
		// input of rows they read it twice more (issue 21). It was valid
		// when decoded; it becomes what json.Marshal writes of it (compact,
		// HTML-safe), as the run message's input was.
		var ok bool
		if run.Input, ok = jsonwire.AppendRaw(nil, input); !ok {
			// What jsonwire does not take (invalid UTF-8 in a string,
			// which encoding/json copies) goes the way it went.
			b, err := json.Marshal(input)
			if err != nil {
				p := invalid("input", err.Error())
				return nil, &p
			}
			run.Input = b
		}
	}
	return run, nil
}

// decodeRunRequest reads the body strictly: unknown fields, wrong types
// and trailing data are 400s naming the field; a body over limit is 413.
func decodeRunRequest(w http.ResponseWriter, r *http.Request, limit int64) (*RunRequest, *Problem) {
	if ct := r.Header.Get("Content-Type"); ct != "" {
		mt, _, err := mime.ParseMediaType(ct)
		if err != nil || (mt != "application/json" && !strings.HasSuffix(mt, "+json")) {
			return nil, &Problem{Type: "urn:playground:problem:unsupported-media-type", Status: http.StatusUnsupportedMediaType,
				Detail: fmt.Sprintf("Content-Type %q: send the run as application/json", ct)}
		}
	} else {
		return nil, &Problem{Type: "urn:playground:problem:unsupported-media-type", Status: http.StatusUnsupportedMediaType,
			Detail: "no Content-Type: send the run as application/json"}
	}
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, limit))
	var tooBig *http.MaxBytesError
	if errors.As(err, &tooBig) {
		return nil, &Problem{Type: "urn:playground:problem:body-too-large", Status: http.StatusRequestEntityTooLarge,
			Detail: fmt.Sprintf("the body is over %d bytes (maxMessageBytes + maxInputBytes)", limit)}
	}
	if errors.Is(err, os.ErrDeadlineExceeded) {
		return nil, &Problem{Type: "urn:playground:problem:body-timeout", Status: http.StatusRequestTimeout,
			Detail: "the body did not arrive in time"}
	}
	if err != nil {
		p := invalid("body", "could not read the body: "+err.Error())
		return nil, &p
	}
	if !bytes.HasPrefix(bytes.TrimLeft(body, " \t\r\n"), []byte("{")) {
		p := invalid("body", "the body must be a JSON object")
		return nil, &p
	}
	if q, ok := parseRunRequest(body); ok {
		return &q, nil
	}
	var q RunRequest
	d := json.NewDecoder(bytes.NewReader(body))
	d.DisallowUnknownFields()
	if err := d.Decode(&q); err != nil {
		p := jsonProblem(err)
		return nil, &p
	}
	if _, err := d.Token(); err != io.EOF {
		p := invalid("body", "data after the JSON object")
		return nil, &p
	}
	return &q, nil
}

// jsonProblem names the field a decoding error is about.
func jsonProblem(err error) Problem {
	var te *json.UnmarshalTypeError
	var se *json.SyntaxError
	switch {
	case errors.As(err, &te):
		field := te.Field
		if field == "" {
			field = "body"
		}
		return invalid(field, fmt.Sprintf("must be %s, not a JSON %s", jsonKind(te.Type.String()), te.Value))
	case errors.As(err, &se):
		return invalid("body", fmt.Sprintf("malformed JSON at byte %d: %s", se.Offset, se.Error()))
	case strings.HasPrefix(err.Error(), "json: unknown field "):
		name, _ := strconv.Unquote(strings.TrimPrefix(err.Error(), "json: unknown field "))
		return invalid(name, fmt.Sprintf("unknown field %q (known: id, files, code, entry, input, inputData, timeoutMs, deterministic, mode, wait, record)", name))
	case errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF):
		return invalid("body", "the JSON body ends early")
	}
	return invalid("body", err.Error())
}

func jsonKind(goType string) string {
	switch {
	case strings.HasPrefix(goType, "[]"):
		return "an array"
	case goType == "string" || goType == "*string":
		return "a string"
	case goType == "float64" || goType == "*float64":
		return "a number"
	case goType == "bool" || goType == "*bool":
		return "a boolean"
	}
	return "an object"
}

// Response formats of POST /api/v1/run.
const (
	formatJSON   = "json"
	formatNDJSON = "ndjson"
	formatSSE    = "sse"
)

// negotiate picks the answer's format from Accept: NDJSON or SSE when the
// client lists it, else one JSON document.
func negotiate(r *http.Request) string {
	for _, part := range strings.Split(strings.Join(r.Header.Values("Accept"), ","), ",") {
		mt, params, err := mime.ParseMediaType(strings.TrimSpace(part))
		if err != nil || params["q"] == "0" {
			continue
		}
		switch mt {
		case "application/x-ndjson", "application/jsonl", "application/jsonlines":
			return formatNDJSON
		case "text/event-stream":
			return formatSSE
		}
	}
	return formatJSON
}

func (h *Handler) handleRun(w http.ResponseWriter, r *http.Request) {
	received := time.Now()
	lim := h.cfg.Engine.Limits
	limit := lim.MaxMessageBytes + lim.MaxInputBytes // the files as a socket's message holds them, and the input
	if limit <= 0 {
		limit = 4 << 20
	}
	q, p := decodeRunRequest(w, r, limit)
	if p != nil {
		writeProblem(w, *p)
		return
	}
	m, p := q.toRun(true)
	if p != nil {
		writeProblem(w, *p)
		return
	}
	if q.Wait != nil && !*q.Wait && h.cfg.Engine.Hub == nil {
		writeProblem(w, invalid("wait", "this server keeps no runs to follow: \"wait\": false is not offered"))
		return
	}
	key := r.Header.Get(clientKeyHeader)
	job := engine.Job{Run: m, Key: key, Session: engine.StatelessSession("http"), Received: received}
	h.cfg.Engine.Metrics.Runs.Add(1)
	if ref := h.cfg.Engine.Admit(job); ref != nil {
		switch ref.Outcome {
		case ws.OutcomeRateLimited:
			writeProblem(w, retryProblem(http.StatusTooManyRequests, "rate-limited", ws.OutcomeRateLimited,
				fmt.Sprintf("too many runs: %g per second with bursts of %d per client", lim.RunsPerSecond, lim.RunBurst), ref.RetryAfter))
			return
		case ws.OutcomeBusy:
			writeProblem(w, retryProblem(http.StatusServiceUnavailable, "busy", ws.OutcomeBusy, ref.Reason, ref.RetryAfter))
			return
		}
		writeProblem(w, invalid(ref.Field, ref.Reason))
		return
	}
	if q.Wait != nil && !*q.Wait {
		h.writeStarted(w, h.startDetached(job))
		return
	}
	defer h.active()()
	ctx, cancel := h.runContext(h.cfg.Engine.Trace.Extract(r.Context(), r.Header)) // traceparent parents the run's span
	defer cancel()
	format := negotiate(r)
	if format == formatJSON {
		c := newCollector(m.ID)
		h.cfg.Engine.Execute(ctx, job, c.add)
		res := c.r
		switch res.Outcome {
		case ws.OutcomeBusy:
			after := time.Second
			if res.RetryAfterMs != nil {
				after = time.Duration(*res.RetryAfterMs) * time.Millisecond
			}
			writeProblem(w, retryProblem(http.StatusServiceUnavailable, "busy", ws.OutcomeBusy, "the server's run queue is full", after))
			return
		case ws.OutcomeInvalid:
			detail := "invalid run"
			if res.Error != nil {
				detail = *res.Error
			}
			writeProblem(w, invalid("files", detail))
			return
		}
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Cache-Control", "no-store")
		b, _ := marshalResult(&res)
		w.Write(append(b, '\n'))
		return
	}
	h.stream(ctx, cancel, w, job, format)
}

// stream runs job and writes its messages as they happen. The Runner's
// emitting goroutine only queues (bounded); this goroutine writes. The
// first message decides the status: a lone done of outcome busy is a 503.
func (h *Handler) stream(ctx context.Context, cancel func(), w http.ResponseWriter, job engine.Job, format string) {
	q := &streamQueue{limit: h.cfg.StreamBufferBytes, wake: make(chan struct{}, 1), onOverflow: cancel}
	if job.Run.Record {
		q.limit += int(tape.MaxBytes(h.cfg.Engine.Limits)) // done also carries the tape
	}
	finished := make(chan struct{})
	go func() {
		defer close(finished)
		h.cfg.Engine.Execute(ctx, job, q.push)
		q.finish()
	}()
	rc := http.NewResponseController(w)
	started, broken := false, false
	for {
		<-q.wake
		items, last, overflowed := q.take()
		if overflowed && !broken {
			h.cfg.Log.Warn("HTTP client too slow; run cancelled", "run", job.Run.ID, "key", job.Key)
			broken = true
		}
		if !started && len(items) > 0 && !broken {
			if d, ok := items[0].v.(ws.Done); ok && d.Outcome == ws.OutcomeBusy {
				after := time.Second
				if d.RetryAfterMs != nil {
					after = time.Duration(*d.RetryAfterMs) * time.Millisecond
				}
				writeProblem(w, retryProblem(http.StatusServiceUnavailable, "busy", ws.OutcomeBusy, "the server's run queue is full", after))
				broken = true
			} else {
				started = true
				ct := "application/x-ndjson"
				if format == formatSSE {
					ct = "text/event-stream"
				}
				w.Header().Set("Content-Type", ct)
				w.Header().Set("Cache-Control", "no-store")
				w.Header().Set("X-Accel-Buffering", "no")
				w.WriteHeader(http.StatusOK)
			}
		}
		if !broken {
			var buf bytes.Buffer
			for _, it := range items {
				if format == formatSSE {
					fmt.Fprintf(&buf, "event: %s\nid: %d\ndata: %s\n\n", it.typ, it.seq, it.b)
				} else {
					buf.Write(it.b)
					buf.WriteByte('\n')
				}
			}
			if _, err := w.Write(buf.Bytes()); err != nil {
				broken = true
				cancel()
			} else if err := rc.Flush(); err != nil {
				broken = true
				cancel()
			}
		}
		if last {
			<-finished
			return
		}
	}
}

type streamItem struct {
	v   any
	b   []byte
	typ string
	seq uint64
}

// streamQueue is the bounded hand-off between a run's emitting goroutine
// and the response writer. push never blocks; past limit bytes it drops
// everything and calls onOverflow (which cancels the run).
type streamQueue struct {
	limit      int
	wake       chan struct{}
	onOverflow func()

	mu         sync.Mutex
	items      []streamItem
	bytes      int
	finished   bool
	overflowed bool
}

func (q *streamQueue) push(v any) {
	b, err := ws.Marshal(v) // json.Marshal's bytes, without reflection for run messages
	if err != nil {
		return
	}
	var head ws.RunHeader
	if m, ok := v.(interface{ Header() ws.RunHeader }); ok {
		head = m.Header()
	} else {
		_ = json.Unmarshal(b, &head)
	}
	q.mu.Lock()
	if q.overflowed {
		q.mu.Unlock()
		return
	}
	if q.bytes+len(b) > q.limit {
		q.overflowed, q.items, q.bytes = true, nil, 0
		q.mu.Unlock()
		q.onOverflow()
		q.signal()
		return
	}
	q.items = append(q.items, streamItem{v: v, b: b, typ: head.Type, seq: head.Seq})
	q.bytes += len(b)
	q.mu.Unlock()
	q.signal()
}

func (q *streamQueue) finish() {
	q.mu.Lock()
	q.finished = true
	q.mu.Unlock()
	q.signal()
}

func (q *streamQueue) signal() {
	select {
	case q.wake <- struct{}{}:
	default:
	}
}

// take returns what is queued, whether the run has finished (nothing more
// will come), and whether the queue overflowed.
func (q *streamQueue) take() (items []streamItem, last, overflowed bool) {
	q.mu.Lock()
	defer q.mu.Unlock()
	items, q.items, q.bytes = q.items, nil, 0
	return items, q.finished, q.overflowed
}

// ToRun checks q like POST /api/v1/run does and returns its run message,
// or the problem (status 400) naming the field at fault.
func ToRun(q *RunRequest) (*ws.Run, *Problem) { return q.toRun(true) }
