package tape

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"sync"

	"github.com/playground-dev/playground/jsonwire"
	"github.com/playground-dev/playground/ws"
)

// Version is the tape format this server writes and reads. A tape of any
// other version is refused (Decode names the field).
const Version = 1

// Seed is Math.random's seed in a deterministic run, and ClockStart is the
// virtual clock's start (Date.now() when the run starts): the values the
// worker's runtime fixes (sandbox/worker/js/runtime.go). A tape records
// them so that a reader knows what the run saw; a tape with other values is
// refused, as this server cannot run with them.
const (
	Seed       = 0x5eed
	ClockStart = "2024-01-01T00:00:00Z"
)

// Tape is one recorded run (docs/protocol.md, "Run tapes", is the
// contract). Files, Entry, Input, Mode and TimeoutMs are the run's request
// (TimeoutMs as the run got it, clamped: started.timeoutMs); Calls are its
// host calls in the order the run made them (call n answers the run's n-th
// call, callId n); Messages are the messages it sent, in order, without
// queued messages and with seq renumbered 1, 2, 3 … over the rest, done
// last (without its tape).
//
// A tape that could not be kept whole (its messages and calls would pass
// the run's bound, MaxRecordBytes) has only Version and Error.
type Tape struct {
	Version       int               `json:"version"`
	Error         string            `json:"error,omitempty"`
	ID            string            `json:"id,omitempty"`
	Files         []ws.File         `json:"files,omitempty"`
	Entry         string            `json:"entry,omitempty"`
	Input         json.RawMessage   `json:"input,omitempty"`
	Mode          string            `json:"mode,omitempty"`
	Deterministic bool              `json:"deterministic"`
	Seed          *uint64           `json:"seed,omitempty"`
	ClockStart    string            `json:"clockStart,omitempty"`
	TimeoutMs     *float64          `json:"timeoutMs,omitempty"`
	Calls         []Call            `json:"calls"`
	Messages      []json.RawMessage `json:"messages"`
}

// Call is one host call on a tape: the function's name (hello.host), its
// arguments' JSON as the snippet passed them, and its answer: Result (the
// JSON the promise resolved to; absent when it resolved to undefined) or
// Error (the text it rejected with; non-empty for a failed call).
type Call struct {
	Name   string            `json:"name"`
	Args   []json.RawMessage `json:"args"`
	Result json.RawMessage   `json:"result,omitempty"`
	Error  string            `json:"error,omitempty"`
}

// FieldError is a tape that breaks a rule: Field names the field at fault
// as a JSON path ("version", "calls[2].name", "messages[0]", "files[1].path").
type FieldError struct {
	Field  string
	Reason string
}

func (e *FieldError) Error() string { return "tape: " + e.Field + ": " + e.Reason }

// Decode reads a tape strictly: unknown fields, wrong types, trailing data
// and a version other than Version are FieldErrors naming the field; then it
// checks the tape (Check). It does not bound b: the caller does (the replay
// endpoint reads at most MaxBytes).
func Decode(b []byte) (*Tape, error) {
	trimmed := bytes.TrimLeft(b, " \t\r\n")
	if !bytes.HasPrefix(trimmed, []byte("{")) {
		return nil, &FieldError{Field: "tape", Reason: "must be a JSON object"}
	}
	// The version first, so that a tape of another version is refused for
	// its version rather than for a field it may name differently.
	var head struct {
		Version json.RawMessage `json:"version"`
	}
	if err := json.NewDecoder(bytes.NewReader(b)).Decode(&head); err != nil {
		return nil, jsonError(err)
	}
	if len(head.Version) == 0 {
		return nil, &FieldError{Field: "version", Reason: fmt.Sprintf("missing; this server reads tapes of version %d", Version)}
	}
	if v := string(head.Version); v != strconv.Itoa(Version) {
		return nil, &FieldError{Field: "version", Reason: fmt.Sprintf("is %s; this server reads tapes of version %d", clip(v), Version)}
	}
	var t Tape
	d := json.NewDecoder(bytes.NewReader(b))
	d.DisallowUnknownFields()
	if err := d.Decode(&t); err != nil {
		return nil, jsonError(err)
	}
	if _, err := d.Token(); err != io.EOF {
		return nil, &FieldError{Field: "tape", Reason: "data after the JSON object"}
	}
	if err := t.Check(); err != nil {
		return nil, err
	}
	return &t, nil
}

// jsonError names the field a decoding error is about.
func jsonError(err error) error {
	var te *json.UnmarshalTypeError
	var se *json.SyntaxError
	switch {
	case errors.As(err, &te):
		field := te.Field
		if field == "" {
			field = "tape"
		}
		return &FieldError{Field: field, Reason: fmt.Sprintf("must be %s, not a JSON %s", kind(te.Type.String()), te.Value)}
	case errors.As(err, &se):
		return &FieldError{Field: "tape", Reason: fmt.Sprintf("malformed JSON at byte %d: %v", se.Offset, se)}
	case strings.HasPrefix(err.Error(), "json: unknown field "):
		name, _ := strconv.Unquote(strings.TrimPrefix(err.Error(), "json: unknown field "))
		if name == "" {
			name = `""`
		}
		return &FieldError{Field: clip(name), Reason: "unknown field (known: version, error, id, files, entry, input, mode, deterministic, seed, clockStart, timeoutMs, calls, messages; a call: name, args, result, error)"}
	case errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF):
		return &FieldError{Field: "tape", Reason: "the JSON ends early"}
	}
	return &FieldError{Field: "tape", Reason: err.Error()}
}

func kind(goType string) string {
	switch {
	case strings.HasPrefix(goType, "[]"):
		return "an array"
	case goType == "string":
		return "a string"
	case goType == "int", goType == "uint64", strings.HasSuffix(goType, "float64"):
		return "a number"
	case goType == "bool":
		return "a boolean"
	}
	return "an object"
}

// clip is at most 100 bytes of a client's text, for error messages.
func clip(s string) string {
	if len(s) <= 100 {
		return s
	}
	return s[:100] + "…"
}

// Check checks a tape's shape: a kept tape (no Error) of a deterministic
// run, with this server's Seed and ClockStart, a run request ws.Decode
// accepts, calls with names, and messages that are JSON objects with a
// type, seq 1, 2, 3 … and done last. A tape of a non-deterministic run is
// refused with the reason (its clock and random numbers cannot be
// reproduced).
func (t *Tape) Check() error {
	switch {
	case t.Version != Version:
		return &FieldError{Field: "version", Reason: fmt.Sprintf("is %d; this server reads tapes of version %d", t.Version, Version)}
	case t.Error != "":
		return &FieldError{Field: "error", Reason: "the tape was not kept whole, so it cannot be replayed: " + clip(t.Error)}
	case !t.Deterministic:
		return &FieldError{Field: "deterministic", Reason: "the tape is of a run that was not deterministic: its clock, timers and random numbers cannot be reproduced, so it cannot be replayed; record the run with \"deterministic\": true"}
	case t.Seed != nil && *t.Seed != Seed:
		return &FieldError{Field: "seed", Reason: fmt.Sprintf("is %d; this server's deterministic runs use seed %d", *t.Seed, uint64(Seed))}
	case t.ClockStart != "" && t.ClockStart != ClockStart:
		return &FieldError{Field: "clockStart", Reason: fmt.Sprintf("is %q; this server's virtual clock starts at %s", clip(t.ClockStart), ClockStart)}
	case len(t.Messages) == 0:
		return &FieldError{Field: "messages", Reason: "a tape holds the run's messages, done last; this one has none"}
	}
	if _, err := t.Run("tape"); err != nil {
		return err
	}
	for i, c := range t.Calls {
		if c.Name == "" {
			return &FieldError{Field: fmt.Sprintf("calls[%d].name", i), Reason: "a host call needs the function's name"}
		}
		if c.Args == nil {
			return &FieldError{Field: fmt.Sprintf("calls[%d].args", i), Reason: "a host call needs its arguments (an array, [] for none)"}
		}
	}
	for i, m := range t.Messages {
		typ, seq, err := header(m)
		if err != nil {
			return &FieldError{Field: fmt.Sprintf("messages[%d]", i), Reason: err.Error()}
		}
		if seq != uint64(i+1) {
			return &FieldError{Field: fmt.Sprintf("messages[%d].seq", i), Reason: fmt.Sprintf("is %d; a tape's messages are numbered 1, 2, 3 … (this one is %d)", seq, i+1)}
		}
		last := i == len(t.Messages)-1
		switch {
		case typ == ws.TypeQueued:
			return &FieldError{Field: fmt.Sprintf("messages[%d].type", i), Reason: "a tape holds no queued messages (they say how busy the server was, not what the run did)"}
		case typ == ws.TypeDone && !last:
			return &FieldError{Field: fmt.Sprintf("messages[%d].type", i), Reason: "done must be the last message"}
		case typ != ws.TypeDone && last:
			return &FieldError{Field: fmt.Sprintf("messages[%d].type", i), Reason: fmt.Sprintf("is %q; the last message must be done", clip(typ))}
		}
	}
	return nil
}

// Run returns the tape's run as a checked run message with the given id,
// or a FieldError naming the tape's field at fault.
func (t *Tape) Run(id string) (*ws.Run, error) {
	msg := map[string]any{"type": ws.TypeRun, "id": id, "files": t.Files, "deterministic": t.Deterministic}
	if t.Files == nil {
		msg["files"] = []ws.File{}
	}
	if t.Entry != "" {
		msg["entry"] = t.Entry
	}
	if len(t.Input) > 0 {
		msg["input"] = t.Input
	}
	if t.Mode != "" {
		msg["mode"] = t.Mode
	}
	if t.TimeoutMs != nil {
		msg["timeoutMs"] = *t.TimeoutMs
	}
	b, err := json.Marshal(msg)
	if err != nil {
		return nil, &FieldError{Field: "tape", Reason: err.Error()}
	}
	m, err := ws.Decode(b)
	var re *ws.RunError
	switch {
	case errors.As(err, &re):
		return nil, &FieldError{Field: re.Field, Reason: re.Reason}
	case err != nil:
		return nil, &FieldError{Field: "tape", Reason: err.Error()}
	}
	r := m.(*ws.Run)
	if len(r.Files) == 0 {
		return nil, &FieldError{Field: "files", Reason: "a tape needs the run's files"}
	}
	return r, nil
}

// header reads a message's type and seq.
func header(m json.RawMessage) (typ string, seq uint64, err error) {
	var h struct {
		Type *string `json:"type"`
		Seq  *uint64 `json:"seq"`
	}
	if !bytes.HasPrefix(bytes.TrimLeft(m, " \t\r\n"), []byte("{")) {
		return "", 0, errors.New("a message must be a JSON object")
	}
	if err := json.Unmarshal(m, &h); err != nil {
		return "", 0, fmt.Errorf("a message needs a string type and a whole-number seq: %v", err)
	}
	if h.Type == nil || h.Seq == nil {
		return "", 0, errors.New("a message needs a string type and a whole-number seq")
	}
	return *h.Type, *h.Seq, nil
}

// Normalized fields: what Normalize drops or zeroes before two messages are
// compared, because it says when or where the run happened rather than
// what it did. Everything else is compared byte for byte.
var (
	// Dropped are top-level fields left out: the run's id (a replay runs
	// under its own), started.watch (a token per run) and done.tape.
	Dropped = []string{"id", "watch", "tape"}
	// Zeroed are fields measured on the server's real clock, set to 0:
	// done.durationMs and done.stats.queueMs, bundleMs and runMs. (A
	// deterministic run's t and call ms are on its virtual clock and are
	// compared.)
	Zeroed = []string{"durationMs", "stats.queueMs", "stats.bundleMs", "stats.runMs"}
)

// Normalize returns m (one compact JSON object, as the server writes its
// messages) with seq replaced by seq, the Dropped fields left out and the
// Zeroed fields set to 0, every other byte as it was. Two messages are the
// same message when their normalized bytes are equal.
func Normalize(m json.RawMessage, seq uint64) ([]byte, error) {
	return normalize(m, seq, "")
}

func normalize(m []byte, seq uint64, prefix string) ([]byte, error) {
	d := json.NewDecoder(bytes.NewReader(m))
	d.UseNumber()
	tok, err := d.Token()
	if err != nil || tok != json.Delim('{') {
		return nil, errors.New("not a JSON object")
	}
	out := []byte{'{'}
	first := true
	for d.More() {
		k, err := d.Token()
		if err != nil {
			return nil, err
		}
		key, _ := k.(string)
		var v json.RawMessage
		if err := d.Decode(&v); err != nil {
			return nil, err
		}
		path := prefix + key
		switch {
		case prefix == "" && contains(Dropped, key):
			continue
		case prefix == "" && key == "seq":
			v = strconv.AppendUint(nil, seq, 10)
		case contains(Zeroed, path):
			v = json.RawMessage("0")
		case prefix == "" && key == "stats":
			if v, err = normalize(v, 0, "stats."); err != nil {
				return nil, err
			}
		}
		if !first {
			out = append(out, ',')
		}
		first = false
		out = jsonwire.AppendString(out, key)
		out = append(out, ':')
		if out, err = canonical(out, v); err != nil {
			return nil, err
		}
	}
	if _, err := d.Token(); err != nil {
		return nil, err
	}
	return append(out, '}'), nil
}

// canonical appends the JSON value v as the server writes JSON: no
// whitespace, strings escaped as encoding/json escapes them, numbers as
// their literal text, keys in their order. A tape that a tool reformatted
// (jq's indentation, its unescaped "<") compares as it was written.
func canonical(out []byte, v []byte) ([]byte, error) {
	d := json.NewDecoder(bytes.NewReader(v))
	d.UseNumber()
	type level struct {
		object bool
		n      int // members or elements written
	}
	var stack []level
	for {
		tok, err := d.Token()
		if err == io.EOF {
			return out, nil
		}
		if err != nil {
			return nil, err
		}
		if delim, ok := tok.(json.Delim); ok && (delim == '}' || delim == ']') {
			stack = stack[:len(stack)-1]
			out = append(out, byte(delim))
			continue
		}
		if len(stack) > 0 {
			top := &stack[len(stack)-1]
			switch {
			case top.object && top.n%2 == 1:
				out = append(out, ':')
			case top.n > 0:
				out = append(out, ',')
			}
			top.n++
		}
		switch t := tok.(type) {
		case json.Delim:
			out = append(out, byte(t))
			stack = append(stack, level{object: t == '{'})
		case string:
			out = jsonwire.AppendString(out, t)
		case json.Number:
			out = append(out, t...)
		case bool:
			out = strconv.AppendBool(out, t)
		case nil:
			out = append(out, "null"...)
		}
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// Divergence is where a replay first differed from its tape: Seq is the
// message's number on the tape (queued messages are not counted), Expected
// the tape's message there (null when the replay sent more messages than
// the tape holds) and Received the replay's (null when the replay ended
// first), each as it was sent.
type Divergence struct {
	Seq      uint64          `json:"seq"`
	Expected json.RawMessage `json:"expected"`
	Received json.RawMessage `json:"received"`
}

// Comparer compares a replay's messages with a tape's as they arrive.
// Add and End must not be called concurrently (the engine sends one
// message at a time); Divergence may be read after End.
type Comparer struct {
	want [][]byte // the tape's messages, normalized
	raw  []json.RawMessage
	n    uint64 // messages compared (queued ones skipped)
	div  *Divergence
}

// NewComparer returns a Comparer of t's messages (a checked tape).
func NewComparer(t *Tape) (*Comparer, error) {
	c := &Comparer{raw: t.Messages}
	for i, m := range t.Messages {
		b, err := Normalize(m, uint64(i+1))
		if err != nil {
			return nil, &FieldError{Field: fmt.Sprintf("messages[%d]", i), Reason: err.Error()}
		}
		c.want = append(c.want, b)
	}
	return c, nil
}

// Add compares the replay's next message (its JSON) and reports whether it
// is the first divergence. After a divergence further messages are ignored.
func (c *Comparer) Add(m []byte) bool {
	if c.div != nil {
		return false
	}
	typ, _, err := header(m)
	if err == nil && typ == ws.TypeQueued {
		return false
	}
	c.n++
	got := json.RawMessage(m)
	if int(c.n) > len(c.want) {
		c.div = &Divergence{Seq: c.n, Expected: json.RawMessage("null"), Received: got}
		return true
	}
	norm, err := Normalize(got, c.n)
	if err != nil || !bytes.Equal(norm, c.want[c.n-1]) {
		c.div = &Divergence{Seq: c.n, Expected: c.raw[c.n-1], Received: got}
		return true
	}
	return false
}

// End says the replay sent its last message: a tape with messages left is
// a divergence at the first of them.
func (c *Comparer) End() {
	if c.div == nil && int(c.n) < len(c.want) {
		c.div = &Divergence{Seq: c.n + 1, Expected: c.raw[c.n], Received: json.RawMessage("null")}
	}
}

// Divergence is the first divergence, or nil when every message matched.
func (c *Comparer) Divergence() *Divergence { return c.div }

// Compared is how many of the replay's messages were compared (queued
// messages are not).
func (c *Comparer) Compared() int { return int(c.n) }

// MaxRecordBytes bounds what a Recorder keeps of a run's messages and host
// calls: twice the run's output cap (its limits.maxOutputBytes), so that a
// tape is bounded by what the run may send. Zero means no bound.
func MaxRecordBytes(maxOutputBytes int) int { return 2 * maxOutputBytes }

// MaxBytes bounds a whole tape for a server with these limits: the run's
// request (at most maxMessageBytes of files and maxInputBytes of input),
// plus MaxRecordBytes, plus 64 KiB for the tape's own fields. The replay
// endpoint reads no more.
func MaxBytes(lim ws.Limits) int64 {
	return lim.MaxMessageBytes + lim.MaxInputBytes + int64(MaxRecordBytes(lim.MaxOutputBytes)) + 64<<10
}

// Recorder builds a run's tape from its messages and host calls. Message
// and Finish are called from the run's sending goroutine; Call may be
// called concurrently with them and with itself (host calls are served
// concurrently). A Recorder keeps at most limit bytes of messages and
// calls (0: no limit); past it it keeps nothing more and Finish returns a
// tape with only Version and Error.
type Recorder struct {
	t     Tape
	limit int

	mu    sync.Mutex
	calls map[int]Call
	bytes int
	over  string // why the tape was not kept
	seq   uint64
}

// NewRecorder starts the tape of run m; limit as in Recorder.
func NewRecorder(m *ws.Run, limit int) *Recorder {
	seed := uint64(Seed)
	t := Tape{Version: Version, ID: m.ID, Files: m.Files, Entry: m.Entry, Input: m.Input, Mode: m.Mode,
		Deterministic: m.Deterministic, TimeoutMs: m.TimeoutMs, Calls: []Call{}, Messages: []json.RawMessage{}}
	if m.Deterministic {
		t.Seed, t.ClockStart = &seed, ClockStart
	}
	return &Recorder{t: t, limit: limit, calls: map[int]Call{}}
}

// add counts n more bytes and reports whether they fit. r.mu is held.
func (r *Recorder) add(n int) bool {
	if r.over != "" {
		return false
	}
	r.bytes += n
	if r.limit > 0 && r.bytes > r.limit {
		r.over = fmt.Sprintf("the run's messages and host calls came to more than %d bytes, the bound of a tape (twice the run's maxOutputBytes); the run went on without its tape", r.limit)
		r.t.Messages, r.calls = nil, nil
		return false
	}
	return true
}

// Message records the run's next message (its JSON; queued messages are
// left out, and seq renumbered over the rest). started.timeoutMs becomes
// the tape's timeoutMs.
func (r *Recorder) Message(m []byte) {
	typ, _, err := header(m)
	if err != nil || typ == ws.TypeQueued {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if !r.add(len(m)) {
		return
	}
	r.seq++
	b, err := withSeq(m, r.seq)
	if err != nil {
		return
	}
	if typ == ws.TypeStarted {
		var s struct {
			TimeoutMs *float64 `json:"timeoutMs"`
		}
		if json.Unmarshal(b, &s) == nil && s.TimeoutMs != nil {
			r.t.TimeoutMs = s.TimeoutMs
		}
	}
	r.t.Messages = append(r.t.Messages, b)
}

// withSeq is m with its top-level seq set to seq, every other byte kept.
func withSeq(m []byte, seq uint64) (json.RawMessage, error) {
	d := json.NewDecoder(bytes.NewReader(m))
	if tok, err := d.Token(); err != nil || tok != json.Delim('{') {
		return nil, errors.New("not a JSON object")
	}
	for d.More() {
		start := d.InputOffset()
		k, err := d.Token()
		if err != nil {
			return nil, err
		}
		var v json.RawMessage
		if err := d.Decode(&v); err != nil {
			return nil, err
		}
		if k == "seq" {
			end := d.InputOffset()
			// start is at the key (after a comma, if any); the value
			// ends at end.
			rest := m[start:end]
			i := bytes.IndexByte(rest, ':')
			out := append([]byte{}, m[:int(start)+i+1]...)
			out = strconv.AppendUint(out, seq, 10)
			return append(out, m[end:]...), nil
		}
	}
	return append(json.RawMessage{}, m...), nil
}

// Call records the run's n-th host call (1-based, in the order the run
// made them) and its answer: result, or errText when it failed.
func (r *Recorder) Call(n int, name string, args []json.RawMessage, result json.RawMessage, errText string) {
	c := Call{Name: name, Args: args, Result: result, Error: errText}
	if c.Args == nil {
		c.Args = []json.RawMessage{}
	}
	size := len(name) + len(result) + len(errText) + 32
	for _, a := range args {
		size += len(a) + 1
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.add(size) {
		r.calls[n] = c
	}
}

// Finish returns the tape's JSON, the run's messages recorded so far (its
// done last). A tape that was not kept whole is {"version":1,"error":…}.
func (r *Recorder) Finish() json.RawMessage {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.over != "" {
		b, _ := json.Marshal(Tape{Version: Version, Error: r.over})
		return trimEmpty(b)
	}
	t := r.t
	t.Calls = make([]Call, 0, len(r.calls))
	for n := 1; n <= len(r.calls); n++ {
		c, ok := r.calls[n]
		if !ok {
			break // a call the run made but the host never answered (the run ended first)
		}
		t.Calls = append(t.Calls, c)
	}
	b, err := json.Marshal(t)
	if err != nil {
		b, _ = json.Marshal(Tape{Version: Version, Error: "the tape could not be written: " + err.Error()})
		return trimEmpty(b)
	}
	return b
}

// trimEmpty drops the empty calls and messages of an error tape.
func trimEmpty(b []byte) json.RawMessage {
	var m map[string]any
	_ = json.Unmarshal(b, &m)
	delete(m, "calls")
	delete(m, "messages")
	delete(m, "deterministic")
	out, _ := json.Marshal(m)
	return out
}
