package worker

import (
	"context"
	"strings"
	"time"

	"github.com/playground-dev/playground/sandbox/pipe"
	"github.com/playground-dev/playground/sandbox/worker/bundle"
	"github.com/playground-dev/playground/sandbox/worker/js"
)

// prepareKey says what a prepared runtime was prepared for.
type prepareKey struct {
	deterministic bool
	limits        pipe.Limits
	host, libs    string
}

func newPrepareKey(j js.Job, imports []bundle.LibraryUse) prepareKey {
	libs := make([]string, len(imports))
	for i, u := range imports {
		libs[i] = u.String()
	}
	return prepareKey{deterministic: j.Deterministic, limits: j.Limits, host: strings.Join(j.Host, ","), libs: strings.Join(libs, ";")}
}

// prepared is a fresh runtime being set up in the background while the
// worker waits for its next job: global scope built and libraries
// evaluated, no snippet code run. A job whose key matches takes it
// (waiting for it to finish, which costs no more than building one); any
// other job discards it.
type prepared struct {
	key   prepareKey
	ready chan *js.Runtime // buffered 1
}

// prepare starts preparing the next runtime for key. Only the serving
// goroutine calls it.
func (wk *worker) prepare(key prepareKey, j js.Job, imports []bundle.LibraryUse) {
	p := &prepared{key: key, ready: make(chan *js.Runtime, 1)}
	wk.next = p
	j.Program, j.Input, j.Call, j.Replies = nil, nil, nil, nil
	wk.prepared.Go(func() { // a discarded one finishes into its buffered channel
		rt := js.New(j)
		rt.Preload(imports)
		p.ready <- rt
	})
}

// takePrepared returns the prepared runtime when it matches key, waiting
// for it at most until deadline (errBundleDeadline) or ctx's end (its
// cause): the wait counts against the run's time.
func (wk *worker) takePrepared(ctx context.Context, key prepareKey, deadline time.Time) (*js.Runtime, error) {
	p := wk.next
	wk.next = nil
	if p == nil || p.key != key {
		return nil, nil
	}
	select {
	case rt := <-p.ready:
		return rt, nil
	default:
	}
	t := time.NewTimer(time.Until(deadline))
	defer t.Stop()
	select {
	case rt := <-p.ready:
		return rt, nil
	case <-t.C:
		return nil, errBundleDeadline
	case <-ctx.Done():
		return nil, context.Cause(ctx)
	}
}
