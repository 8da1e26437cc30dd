package engine_test

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/playground-dev/playground/engine"
	"github.com/playground-dev/playground/sandbox"
	"github.com/playground-dev/playground/ws"
)

// countingLimiter allows n runs, then refuses with a retry of 750ms.
type countingLimiter struct {
	n     int
	calls int
}

func (l *countingLimiter) Allow(string) (bool, time.Duration) {
	l.calls++
	return l.calls <= l.n, 750 * time.Millisecond
}

// scriptRunner emits a log and a fact, records its request, and fails with
// err when set.
type scriptRunner struct {
	req sandbox.Request
	err error
}

func (r *scriptRunner) Run(ctx context.Context, req sandbox.Request, emit func(sandbox.Event)) (sandbox.Result, error) {
	r.req = req
	emit(sandbox.Event{Kind: sandbox.EventStarted, Timeout: 100 * time.Millisecond})
	emit(sandbox.Event{Kind: sandbox.EventLog, T: 1500 * time.Microsecond, Level: "log", Text: "x"})
	if r.err != nil {
		return sandbox.Result{}, r.err
	}
	emit(sandbox.Event{Kind: sandbox.EventFact, T: 2000 * time.Microsecond, Key: "k", Value: json.RawMessage(`1`)})
	return sandbox.Result{Outcome: sandbox.OutcomeOK, Output: json.RawMessage(`7`), End: 3000 * time.Microsecond}, nil
}

func collect(e *engine.Engine, j engine.Job) ([]any, ws.Done) {
	var got []any
	d := e.Run(context.Background(), j, func(v any) { got = append(got, v) })
	return got, d
}

func run1(files ...string) *ws.Run {
	m := &ws.Run{ID: "r1", Mode: ws.ModeScript}
	for _, f := range files {
		m.Files = append(m.Files, ws.File{Path: f, Source: "1"})
	}
	return m
}

func TestEngineStampsAndPassesTheRequest(t *testing.T) {
	r := &scriptRunner{}
	e := &engine.Engine{Runner: r, Limiter: &countingLimiter{n: 1}, Limits: ws.Limits{MaxFiles: 2}}
	got, done := collect(e, engine.Job{Run: run1("main.js"), Key: "key:ci", Session: "s1"})
	if len(got) != 4 || done.Seq != 4 || done.Outcome != "ok" || string(done.Output) != "7" || done.T != 3 {
		t.Fatalf("messages %v, done %+v; want started log fact done(seq 4, ok, output 7, t 3)", got, done)
	}
	if l, ok := got[1].(ws.Log); !ok || l.Seq != 2 || l.ID != "r1" || l.T != 1.5 {
		t.Errorf("second message = %#v; want the log with id r1, seq 2, t 1.5", got[1])
	}
	if r.req.Key != "key:ci" || r.req.Session != "s1" || r.req.Mode != "script" {
		t.Errorf("request = %+v; want key key:ci, session s1, mode script", r.req)
	}
}

func TestEngineRefusals(t *testing.T) {
	lim := &countingLimiter{n: 0}
	e := &engine.Engine{Runner: &scriptRunner{}, Limiter: lim, Limits: ws.Limits{MaxFiles: 2, MaxSourceBytes: 10}}
	for _, tc := range []struct {
		run   *ws.Run
		field string
		text  string
	}{
		{run1("a.ts", "b.ts", "c.ts"), "files", "maxFiles=2"},
		{&ws.Run{ID: "r1", Files: []ws.File{{Path: "main.ts", Source: strings.Repeat("x", 11)}}}, "files", "maxSourceBytes=10"},
		{run1("a.ts", "b.ts"), "entry", "no entry file"},
	} {
		got, done := collect(e, engine.Job{Run: tc.run, Key: "ip"})
		if len(got) != 2 || done.Outcome != "invalid" || done.Seq != 2 {
			t.Errorf("%s: messages %v; want error then done invalid", tc.text, got)
			continue
		}
		if er := got[0].(ws.Error); er.Kind != ws.KindInvalidRequest || !strings.Contains(er.Message, tc.field+": ") || !strings.Contains(er.Message, tc.text) {
			t.Errorf("error = %q; want INVALID_REQUEST naming %s and %s", er.Message, tc.field, tc.text)
		}
	}
	if lim.calls != 0 {
		t.Errorf("invalid runs took %d rate-limit tokens; want 0", lim.calls)
	}
	got, done := collect(e, engine.Job{Run: run1("main.ts"), Key: "ip"})
	if len(got) != 1 || done.Outcome != "rate_limited" || done.RetryAfterMs == nil || *done.RetryAfterMs != 750 {
		t.Errorf("rate limited: %v; want only done rate_limited with retryAfterMs 750", got)
	}
}

func TestEngineRunnerFailureIsOpaqueInternalError(t *testing.T) {
	e := &engine.Engine{Runner: &scriptRunner{err: errors.New("pipe broke: secret detail")}, Limiter: &countingLimiter{n: 1}}
	got, done := collect(e, engine.Job{Run: run1("main.js")})
	if len(got) != 4 || done.Outcome != "error" || done.Seq != 4 {
		t.Fatalf("messages %v; want started log error done(error)", got)
	}
	er := got[2].(ws.Error)
	if er.Kind != "INTERNAL" || strings.Contains(er.Message, "secret") || !strings.Contains(er.Message, "internal error ") {
		t.Errorf("error = %+v; want INTERNAL with an opaque id only", er)
	}
}

func TestEntry(t *testing.T) {
	for _, tc := range []struct {
		run  *ws.Run
		want string
	}{
		{run1("a.ts", "main.ts"), "main.ts"},
		{run1("lib.js"), "lib.js"},
		{run1("a.ts", "b.ts"), ""},
		{&ws.Run{Entry: "b.ts", Files: []ws.File{{Path: "a.ts"}, {Path: "b.ts"}}}, "b.ts"},
	} {
		if got := engine.Entry(tc.run); got != tc.want {
			t.Errorf("Entry(%v) = %q; want %q", tc.run.Files, got, tc.want)
		}
	}
}
