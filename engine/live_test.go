package engine_test

import (
	"context"
	"errors"
	"io"
	"testing"

	"github.com/playground-dev/playground/engine"
	"github.com/playground-dev/playground/runs"
	"github.com/playground-dev/playground/ws"
)

// TestExecutePublishesToTheHub: with a Hub, started carries the run's watch
// token and a watcher of the run gets every message the transport got.
func TestExecutePublishesToTheHub(t *testing.T) {
	hub := runs.New(runs.Config{})
	defer hub.Close()
	e := &engine.Engine{Runner: &scriptRunner{}, Limiter: &countingLimiter{n: 10}, Hub: hub}
	got, done := collect(e, engine.Job{Run: run1("main.js"), Key: "ip"})
	st, ok := got[0].(ws.Started)
	if !ok || st.Watch == "" {
		t.Fatalf("first message %#v; want started with a watch token", got[0])
	}
	w, err := hub.Watch(context.Background(), "r1", st.Watch, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	var seen []uint64
	for {
		items, err := w.Next(context.Background())
		for _, it := range items {
			seen = append(seen, it.Seq)
		}
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	if len(seen) != len(got) || seen[len(seen)-1] != done.Seq {
		t.Fatalf("the watcher saw seqs %v; the transport got %d messages ending at %d", seen, len(got), done.Seq)
	}
}

// TestRefusedRunIsNotInTheHub: a run refused before it executes gets no
// entry (nobody could learn its token).
func TestRefusedRunIsNotInTheHub(t *testing.T) {
	hub := runs.New(runs.Config{})
	defer hub.Close()
	e := &engine.Engine{Runner: &scriptRunner{}, Limiter: &countingLimiter{n: 0}, Hub: hub}
	_, done := collect(e, engine.Job{Run: run1("main.js"), Key: "ip"})
	if done.Outcome != ws.OutcomeRateLimited || hub.Stats().Runs != 0 {
		t.Fatalf("outcome %s, hub %+v; want rate_limited and no run held", done.Outcome, hub.Stats())
	}
}
