package worker

import (
	"context"
	"strings"
	"sync/atomic"
	"time"

	"github.com/playground-dev/playground/sandbox/pipe"
	"github.com/playground-dev/playground/sandbox/worker/bundle"
	"github.com/playground-dev/playground/sandbox/worker/js"
)

// What a worker does between runs (preparing the next runtime) has a
// deadline and a budget of its own, and it is never counted as the next
// run's time or memory (issue 22):
//
//   - it is bounded in time by the run that asked for it: at most
//     maxPrepareTime, and never longer than that run's own timeout, so a
//     client cannot buy more CPU between runs than it spent in them;
//   - it is bounded in memory by prepareBudget of the run cap (heap growth
//     while it ran; over it the prepared runtime is dropped);
//   - a job of another client that arrives while it is still running
//     interrupts it and waits for it to stop before its own clock starts
//     (serve), so the preparation never runs beside another client's run;
//   - a job of the same client lets it go on while it bundles, then takes
//     it, waiting for the rest of it (within its own deadline), when it
//     matches, or stops it: the preparation is that client's own work,
//     already begun, and with runs kept on their client's worker
//     (sandbox.Pool.affine) the next run most often follows at once: a
//     mathjs runtime takes ≈ 240 ms to prepare, and a run that stopped it
//     made its own in as long again;
//   - only a run that ended ok or error prepares: a run that was stopped
//     (timeout, cancel, limits) buys nothing after it.
const (
	maxPrepareTime      = time.Second
	prepareBudgetShare  = 8 // a preparation may grow the heap by Run/prepareBudgetShare
	errPrepareAbandoned = prepareError("preparation abandoned")
)

type prepareError string

func (e prepareError) Error() string { return string(e) }

// prepareKey says what a prepared runtime was prepared for.
type prepareKey struct {
	deterministic bool
	limits        pipe.Limits
	host, libs    string
	client        string // pipe.Job.Client: a runtime prepared for one client serves only that client
}

func newPrepareKey(j js.Job, imports []bundle.LibraryUse, client string) prepareKey {
	libs := make([]string, len(imports))
	for i, u := range imports {
		libs[i] = u.String()
	}
	return prepareKey{deterministic: j.Deterministic, limits: j.Limits, host: strings.Join(j.Host, ","), libs: strings.Join(libs, ";"), client: client}
}

// prepared is a fresh runtime being set up in the background while the
// worker waits for its next job: global scope built and libraries
// evaluated, no snippet code run. A job whose key matches takes it; any
// other job discards it. A job that arrives before it is ready stops it
// (settle) and runs on a runtime of its own.
type prepared struct {
	key  prepareKey
	done chan struct{} // closed when the preparation ended
	rt   *js.Runtime   // set before done closes; nil when abandoned
	// abandoned is set when the preparation was stopped: by its deadline,
	// its budget, or a job that did not wait for it.
	abandoned atomic.Bool
	stop      func() // interrupts it; safe to call more than once
}

// prepare starts preparing the next runtime for key, for at most limit
// (and maxPrepareTime). Only the serving goroutine calls it.
func (wk *worker) prepare(key prepareKey, j js.Job, imports []bundle.LibraryUse, limit time.Duration, client string) {
	limit = min(limit, wk.prepareTime())
	if limit <= 0 {
		return
	}
	p := &prepared{key: key, done: make(chan struct{})}
	wk.next = p
	j.Program, j.Input, j.Call, j.Replies = nil, nil, nil, nil
	j.Client = client
	budget := wk.mem.Run / prepareBudgetShare
	var made atomic.Pointer[js.Runtime] // set once js.New returned
	var stopped atomic.Bool             // the preparation ended: stopped, or claimed done
	p.stop = func() {
		if stopped.CompareAndSwap(false, true) {
			p.abandoned.Store(true)
			if rt := made.Load(); rt != nil {
				rt.Interrupt(errPrepareAbandoned)
			} // else the preparing goroutine sees stopped after js.New
		}
	}
	start := time.Now()
	timer := time.AfterFunc(limit, p.stop)
	wk.prepared.Go(func() {
		defer close(p.done)
		defer timer.Stop()
		before := heapBytes()
		rt := js.New(j)
		made.Store(rt)
		if stopped.Load() {
			rt.Interrupt(errPrepareAbandoned)
		}
		if !preload(rt, imports) || p.abandoned.Load() {
			p.abandoned.Store(true)
			return
		}
		if heapBytes()-before > budget {
			p.abandoned.Store(true) // huge: not kept
			return
		}
		// Claim it: a stop from now on (its deadline's timer firing late)
		// finds the preparation ended and cannot interrupt the runtime
		// once a job runs on it. Past its deadline it is not kept, however
		// late the timer is on a busy machine.
		if time.Since(start) > limit || !stopped.CompareAndSwap(false, true) {
			p.abandoned.Store(true)
			return
		}
		p.rt = rt
	})
}

// preload evaluates imports in rt, reporting false when it was
// interrupted (or anything else made the engine panic): the runtime is
// then unusable and dropped.
func preload(rt *js.Runtime, imports []bundle.LibraryUse) (ok bool) {
	defer func() {
		if recover() != nil {
			ok = false
		}
	}()
	rt.Preload(imports)
	return true
}

// prepareTime is the longest a preparation may take.
func (wk *worker) prepareTime() time.Duration {
	if wk.maxPrepare > 0 {
		return wk.maxPrepare
	}
	return maxPrepareTime
}

// settlePrepared is called when a job of client arrives, before its
// clock starts: a preparation for another client still running is
// interrupted and awaited (it never runs beside another client's run, and
// its time is nobody's), and one that was abandoned is dropped. One for
// client itself goes on (takePrepared waits for it or stops it).
func (wk *worker) settlePrepared(client string) {
	p := wk.next
	if p == nil {
		return
	}
	select {
	case <-p.done:
	default:
		if p.key.client == client {
			return
		}
		p.stop()
		<-p.done
	}
	if p.abandoned.Load() || p.rt == nil {
		wk.next = nil
		wk.prepareAbandoned++
	}
}

// takePrepared returns the prepared runtime when it matches key. One still
// in flight (settlePrepared let it go on: it is for key's client) is
// waited for until it ends, deadline or ctx; one that does not match is
// stopped and awaited: no preparation runs beside a run.
func (wk *worker) takePrepared(ctx context.Context, key prepareKey, deadline time.Time) *js.Runtime {
	p := wk.next
	wk.next = nil
	if p == nil {
		return nil
	}
	if p.key != key {
		p.stop() // a no-op once it ended
	} else {
		t := time.NewTimer(time.Until(deadline))
		select {
		case <-p.done:
		case <-t.C:
			p.stop()
		case <-ctx.Done():
			p.stop()
		}
		t.Stop()
	}
	<-p.done
	if p.abandoned.Load() || p.rt == nil {
		wk.prepareAbandoned++
		return nil
	}
	if p.key != key {
		return nil
	}
	return p.rt
}

// dropPrepared stops p and waits for it if it is still the worker's next:
// its job ended before taking it (bundling failed or used the job's time).
func (wk *worker) dropPrepared(p *prepared) {
	if p == nil || wk.next != p {
		return
	}
	wk.next = nil
	p.stop()
	<-p.done
	if p.abandoned.Load() {
		wk.prepareAbandoned++
	}
}

// stopPreparing interrupts a preparation in flight (the worker is exiting).
func (wk *worker) stopPreparing() {
	if wk.next != nil {
		wk.next.stop()
	}
}
