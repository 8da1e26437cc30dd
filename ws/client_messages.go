// This file holds the messages a client sends to the server (client → server),
// their strict decoding and validation, and the message type names of both
// directions.

package ws

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"path"
	"strings"
	"unicode/utf8"
)

// Subprotocol is the WebSocket subprotocol the server offers.
const Subprotocol = "playground.v1"

// Message types, as they appear in the "type" field.
const (
	TypeRun    = "run"
	TypeCancel = "cancel"
	TypePing   = "ping"
	TypeWatch  = "watch"

	TypeHello         = "hello"
	TypeQueued        = "queued"
	TypeStarted       = "started"
	TypeLog           = "log"
	TypeFact          = "fact"
	TypeCall          = "call"
	TypeError         = "error"
	TypeDone          = "done"
	TypePong          = "pong"
	TypeProtocolError = "protocol_error"
	TypeWatchError    = "watch_error"
)

// Message is a decoded client message: *Run, *Cancel, *Ping or *Watch.
type Message interface{ clientMessage() }

// File is one source file of a run.
type File struct {
	Path   string `json:"path"`
	Source string `json:"source"`
}

// Run asks the server to bundle and run Files.
type Run struct {
	ID    string `json:"id"`
	Files []File `json:"files"`
	// Entry is the entry path, "" for the protocol's default.
	Entry string `json:"entry,omitempty"`
	// Input is any JSON, or empty when absent.
	Input json.RawMessage `json:"input,omitempty"`
	// TimeoutMs is the requested timeout, nil when absent; the server clamps it.
	TimeoutMs     *float64 `json:"timeoutMs,omitempty"`
	Deterministic bool     `json:"deterministic,omitempty"`
	// Mode is "module" (ES modules, the default) or "script" (agent code:
	// input and output globals, require, top-level return); "" when absent.
	Mode string `json:"mode,omitempty"`
	// Record asks for the run's tape (done.tape; docs/protocol.md, "Run
	// tapes").
	Record bool `json:"record,omitempty"`
	// Detach, when set, lets the run outlive the connection that started
	// it (docs/protocol.md, "Watchers and reattach"); nil keeps the rule that
	// closing that connection cancels the run at once.
	Detach *Detach `json:"detach,omitempty"`
}

// Detach is a run's request to outlive its connection: for up to GraceMs
// milliseconds with no owner and no watcher (capped by the server).
type Detach struct {
	GraceMs float64 `json:"graceMs"`
}

// Run modes (docs/protocol.md, run.mode).
const (
	ModeModule = "module"
	ModeScript = "script"
)

// Cancel asks the server to cancel run ID.
type Cancel struct {
	ID string `json:"id"`
}

// Ping asks for a Pong carrying T back.
type Ping struct {
	T json.RawMessage `json:"t,omitempty"`
}

// Watch asks for run ID's messages with seq > After, first those the
// server still holds, then as they come, ending with its done
// (docs/protocol.md, "Watchers and reattach"). Token is the run's watch
// token (started.watch). A reattaching client sends the same, with the
// last seq it received.
type Watch struct {
	ID    string `json:"id"`
	Token string `json:"token"`
	After uint64 `json:"after"`
}

func (*Run) clientMessage()    {}
func (*Cancel) clientMessage() {}
func (*Ping) clientMessage()   {}
func (*Watch) clientMessage()  {}

// Errors returned by Decode, to be tested with errors.Is.
var (
	ErrBadJSON     = errors.New("message is not a JSON object")
	ErrUnknownType = errors.New("unknown message type")
	ErrBadField    = errors.New("bad field")
)

// RunError is returned by Decode for a run that has a valid id but breaks a
// rule of the protocol: the server answers it with an INVALID_REQUEST error
// and a done of outcome "invalid" for ID.
type RunError struct {
	ID     string
	Field  string // the JSON field at fault, e.g. "files[1].path"
	Reason string
}

func (e *RunError) Error() string { return fmt.Sprintf("run %s: %s: %s", e.ID, e.Field, e.Reason) }

// validID reports whether id is a run id: 1-64 characters of [A-Za-z0-9._:-].
func validID(id string) bool {
	if len(id) == 0 || len(id) > 64 {
		return false
	}
	for i := 0; i < len(id); i++ {
		if c := id[i]; !segmentByte(c) && c != ':' {
			return false
		}
	}
	return true
}

// segmentByte reports whether c may appear in a path segment: [A-Za-z0-9._-].
func segmentByte(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '.' || c == '_' || c == '-'
}

// Bounds of a file path: bytes, and '/'-separated segments.
const (
	MaxPathBytes    = 200
	MaxPathSegments = 10
)

// maxToken bounds a watch token's length (the server's are 22 characters).
const maxToken = 128

// maxEcho is how much of a client's own text (an unknown field's or
// type's name) an error message repeats.
const maxEcho = 100

// clip shortens s to maxEcho bytes (on a UTF-8 boundary), marking the cut.
func clip(s string) string {
	if len(s) <= maxEcho {
		return s
	}
	cut := maxEcho
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + fmt.Sprintf("… (%d bytes)", len(s))
}

// Extensions lists the file extensions a run's files may have.
var Extensions = []string{".ts", ".tsx", ".js", ".jsx", ".mjs", ".json"}

// Decode parses one client message strictly: unknown fields, trailing data,
// wrong types and missing required fields are errors. It never panics.
func Decode(b []byte) (Message, error) {
	// The common case first, in one pass: a well-formed run (issue 12).
	// Anything else is decoded again below, for its precise error.
	if fast, ok := parseRun(b); ok && fast.Type == TypeRun && validID(fast.ID) {
		return checkRun(fast.ID, &fast)
	}
	var head struct {
		Type *string         `json:"type"`
		ID   json.RawMessage `json:"id"` // read in the same pass for decodeRun
	}
	if err := json.Unmarshal(b, &head); err != nil || !bytes.HasPrefix(bytes.TrimLeft(b, " \t\r\n"), []byte("{")) {
		return nil, ErrBadJSON
	}
	if head.Type == nil {
		return nil, fmt.Errorf("%w: missing \"type\"", ErrBadField)
	}
	switch *head.Type {
	case TypeRun:
		return decodeRun(b, head.ID)
	case TypeCancel:
		var m struct {
			Type string  `json:"type"`
			ID   *string `json:"id"`
		}
		if err := strict(b, &m); err != nil {
			return nil, err
		}
		if m.ID == nil {
			return nil, fmt.Errorf("%w: cancel needs \"id\"", ErrBadField)
		}
		return &Cancel{ID: *m.ID}, nil
	case TypePing:
		var m struct {
			Type string          `json:"type"`
			T    json.RawMessage `json:"t"`
		}
		if err := strict(b, &m); err != nil {
			return nil, err
		}
		return &Ping{T: m.T}, nil
	case TypeWatch:
		var m struct {
			Type  string  `json:"type"`
			ID    *string `json:"id"`
			Token *string `json:"token"`
			After *uint64 `json:"after"`
		}
		if err := strict(b, &m); err != nil {
			return nil, err
		}
		switch {
		case m.ID == nil || !validID(*m.ID):
			return nil, fmt.Errorf("%w: watch needs \"id\", 1-64 characters of [A-Za-z0-9._:-]", ErrBadField)
		case m.Token == nil || *m.Token == "" || len(*m.Token) > maxToken:
			return nil, fmt.Errorf("%w: watch needs \"token\", the run's started.watch", ErrBadField)
		}
		w := &Watch{ID: *m.ID, Token: *m.Token}
		if m.After != nil {
			w.After = *m.After
		}
		return w, nil
	default:
		return nil, fmt.Errorf("%w %q (want run, cancel, ping or watch)", ErrUnknownType, clip(*head.Type))
	}
}

// PeekRunID returns the id of b when b is a run message with a valid id,
// without decoding the rest: for a message refused whole (too large), so
// that its run can still be answered with its own done.
func PeekRunID(b []byte) (string, bool) {
	var m struct {
		Type string          `json:"type"`
		ID   json.RawMessage `json:"id"`
	}
	if json.Unmarshal(b, &m) != nil || m.Type != TypeRun {
		return "", false
	}
	var id string
	if json.Unmarshal(m.ID, &id) != nil || !validID(id) {
		return "", false
	}
	return id, true
}

func decodeRun(b []byte, rawID json.RawMessage) (Message, error) {
	// The id first (rawID, read loosely with the type), so that a run
	// broken elsewhere can still be answered with its own done.
	var id string
	if err := json.Unmarshal(rawID, &id); err != nil || !validID(id) {
		return nil, fmt.Errorf("%w: run \"id\" must be 1-64 characters of [A-Za-z0-9._:-]", ErrBadField)
	}
	var m runFields
	if err := strict(b, &m); err != nil {
		return nil, &RunError{ID: id, Field: "message", Reason: strings.TrimPrefix(err.Error(), ErrBadField.Error()+": ")}
	}
	return checkRun(id, &m)
}

// runFields is a run message as it is decoded.
type runFields struct {
	Type          string          `json:"type"`
	ID            string          `json:"id"`
	Files         *[]File         `json:"files"`
	Entry         *string         `json:"entry"`
	Input         json.RawMessage `json:"input"`
	TimeoutMs     *float64        `json:"timeoutMs"`
	Deterministic *bool           `json:"deterministic"`
	Mode          *string         `json:"mode"`
	Record        *bool           `json:"record"`
	Detach        *Detach         `json:"detach"`
}

// checkRun checks a decoded run message whose id is id.
func checkRun(id string, m *runFields) (Message, error) {
	r := &Run{ID: id, Input: m.Input, TimeoutMs: m.TimeoutMs}
	if m.Deterministic != nil {
		r.Deterministic = *m.Deterministic
	}
	if m.Record != nil {
		r.Record = *m.Record
	}
	if m.Detach != nil {
		if math.IsNaN(m.Detach.GraceMs) || m.Detach.GraceMs <= 0 {
			return nil, &RunError{ID: id, Field: "detach.graceMs", Reason: "must be a positive number of milliseconds"}
		}
		r.Detach = m.Detach
	}
	if m.Mode != nil {
		if *m.Mode != ModeModule && *m.Mode != ModeScript {
			return nil, &RunError{ID: id, Field: "mode", Reason: `must be "module" or "script"`}
		}
		r.Mode = *m.Mode
	}
	if m.Files == nil || len(*m.Files) == 0 {
		return nil, &RunError{ID: id, Field: "files", Reason: "at least one file is required"}
	}
	r.Files = *m.Files
	field := func(i int) string { return fmt.Sprintf("files[%d].path", i) }
	var seen map[string]bool // for many files; a few are compared pairwise
	if len(r.Files) > 16 {
		seen = make(map[string]bool, len(r.Files))
	}
	has := func(path string, n int) bool { // among the first n files
		if seen != nil {
			return seen[path]
		}
		for _, g := range r.Files[:n] {
			if g.Path == path {
				return true
			}
		}
		return false
	}
	for i, f := range r.Files {
		if err := CheckPath(f.Path); err != nil {
			return nil, &RunError{ID: id, Field: field(i), Reason: err.Error()}
		}
		if has(f.Path, i) {
			return nil, &RunError{ID: id, Field: field(i), Reason: fmt.Sprintf("duplicate path %q", f.Path)}
		}
		if seen != nil {
			seen[f.Path] = true
		}
	}
	if m.Entry != nil {
		if !has(*m.Entry, len(r.Files)) {
			return nil, &RunError{ID: id, Field: "entry", Reason: fmt.Sprintf("%q is not one of the files", *m.Entry)}
		}
		r.Entry = *m.Entry
	}
	if len(r.Input) > 0 && bytes.Equal(bytes.TrimSpace(r.Input), []byte("null")) {
		r.Input = json.RawMessage("null")
	}
	if r.TimeoutMs != nil && (math.IsNaN(*r.TimeoutMs) || *r.TimeoutMs <= 0) {
		return nil, &RunError{ID: id, Field: "timeoutMs", Reason: "must be a positive number of milliseconds"}
	}
	return r, nil
}

// CheckPath reports whether p is a valid file path of the protocol: relative,
// '/'-separated segments of [A-Za-z0-9._-], no "." or ".." segment, no
// leading '/', and one of Extensions.
func CheckPath(p string) error {
	switch {
	case p == "":
		return errors.New("path is empty")
	case len(p) > MaxPathBytes:
		return fmt.Errorf("path is %d bytes; the limit is %d", len(p), MaxPathBytes)
	case strings.HasPrefix(p, "/"):
		return fmt.Errorf("path %q must be relative (no leading /)", p)
	}
	if n := strings.Count(p, "/") + 1; n > MaxPathSegments {
		return fmt.Errorf("path %q has %d segments; the limit is %d", p, n, MaxPathSegments)
	}
	for rest := p; ; {
		seg, more, found := strings.Cut(rest, "/")
		if seg == "." || seg == ".." {
			return fmt.Errorf("path %q must not contain %q segments", p, seg)
		}
		if seg == "" {
			return fmt.Errorf("path %q: segments are made of A-Z a-z 0-9 . _ -", p)
		}
		for i := 0; i < len(seg); i++ {
			if !segmentByte(seg[i]) {
				return fmt.Errorf("path %q: segments are made of A-Z a-z 0-9 . _ -", p)
			}
		}
		if !found {
			break
		}
		rest = more
	}
	ext := path.Ext(p)
	for _, e := range Extensions {
		if ext == e {
			return nil
		}
	}
	return fmt.Errorf("path %q: extension must be one of %s", p, strings.Join(Extensions, " "))
}

// strict decodes b into v, refusing unknown fields and trailing data.
func strict(b []byte, v any) error {
	d := json.NewDecoder(bytes.NewReader(b))
	d.DisallowUnknownFields()
	if err := d.Decode(v); err != nil {
		return fmt.Errorf("%w: %s", ErrBadField, clip(strings.TrimPrefix(err.Error(), "json: ")))
	}
	if _, err := d.Token(); err != io.EOF {
		return fmt.Errorf("%w: data after the JSON object", ErrBadField)
	}
	return nil
}
