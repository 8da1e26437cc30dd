package js

import (
	"container/heap"
	"context"
	"fmt"
	"github.com/playground-dev/playground/sandbox/worker/js/intrinsic"
	"math"
	"runtime"
	"runtime/debug"
	"strings"
	"time"

	"github.com/dop251/goja"

	"github.com/playground-dev/playground/sandbox/pipe"
)

// The event loop: timers (setTimeout, setInterval) on the run's clock and
// host-call replies, one task at a time, microtasks drained after each
// (afterTask).

// OnIdle sets f, which the event loop calls when the run has nothing to
// do but wait for its next timer, due in wait (at least pipe.IdleMin on
// the real clock; a deterministic run never waits), and possibly for host
// replies: replies is how many host replies the run has received so far.
// It is called once per such wait, on Execute's goroutine, and must not
// block for long. f nil removes the hook. Call it before Execute or after
// it returned, never during.
func (e *Runtime) OnIdle(f func(wait time.Duration, replies int)) { e.onIdle = f }

// loop fires timers in order until none is left, the context ends, or a
// limit stops the run.
func (e *Runtime) loop(ctx context.Context) error {
	var wait *time.Timer
	defer func() {
		if wait != nil {
			wait.Stop()
		}
	}()
	onIdle := e.onIdle
	replies := 0       // host replies received
	announced := false // onIdle was told of the current wait
	for e.refTimers > 0 || len(e.calls) > 0 {
		var timerC <-chan time.Time
		var next *timer
		if len(e.timers) > 0 {
			next = e.timers[0]
			d := next.when - e.clock.now()
			if next.early && !e.clock.virtual {
				// Early saves real waiting only: a virtual clock moves the
				// 1 ms, so a zero-delay polling loop sees time pass, as in Node.
				d -= time.Millisecond
			}
			switch {
			case d <= 0:
			case e.clock.virtual && len(e.calls) == 0:
				e.clock.elapsed = next.when // virtual time jumps to the next timer
			case e.clock.virtual:
				next = nil // a host call is pending: it comes first
			default:
				if onIdle != nil && !announced && d >= pipe.IdleMin {
					onIdle(d, replies)
					announced = true
				}
				if wait == nil {
					wait = time.NewTimer(d)
				} else {
					wait.Reset(d)
				}
				timerC, next = wait.C, nil
			}
		}
		if next == nil {
			select {
			case <-ctx.Done():
				return e.interruptCause(ctx)
			case <-timerC:
				continue // the timer is due now: fire it on the next pass
			case r := <-e.replies:
				replies++
				announced = false
				e.settleCall(r)
				if err := e.afterTask(); err != nil {
					return err
				}
				continue
			}
		}
		if ctx.Err() != nil {
			return e.interruptCause(ctx)
		}
		t := next
		announced = false
		heap.Pop(&e.timers)
		if t.interval {
			t.when = max(addClock(t.when, t.delay), e.clock.now())
			e.timerSeq++
			t.seq = e.timerSeq
			heap.Push(&e.timers, t)
		} else {
			e.forget(t)
		}
		if err := e.fire(t); err != nil {
			if err := e.uncaught(err); err != nil {
				return err
			}
		}
		if err := e.afterTask(); err != nil {
			return err
		}
	}
	if e.main != nil && e.main.State() == goja.PromiseStatePending {
		e.emitError(&pipe.Error{Kind: pipe.KindRuntime, Message: "top-level await never settled: the entry module was still waiting when nothing was left to run"})
		e.failed = true
	}
	return nil
}

// fire runs a timer's callback; a Go panic out of goja ends the run with a
// RUNTIME_ERROR (recoverEngineFault).
func (e *Runtime) fire(t *timer) (err error) {
	defer e.recoverEngineFault(&err)
	_, err = t.fn(goja.Undefined(), t.args...)
	return err
}

// maxTimerDelay is Node's TIMEOUT_MAX (2^31-1 ms): a longer delay is 1 ms.
const maxTimerDelay = 1<<31 - 1

// addClock is t+d on the run's clock, saturating instead of wrapping: in
// deterministic mode a long interval advances the virtual clock by up to
// 24.8 days a tick, and after 292 years of virtual time the clock stays at
// its maximum rather than going back.
func addClock(t, d time.Duration) time.Duration {
	if t > math.MaxInt64-d {
		return math.MaxInt64
	}
	return t + d
}

// timer is one setTimeout or setInterval, pending while index >= 0.
type timer struct {
	id       int64
	when     time.Duration // on the run's clock
	delay    time.Duration
	seq      int64 // FIFO among timers due at the same time
	interval bool
	unref    bool // unref(): the run may end while it is pending
	cleared  bool // clearTimeout: refresh leaves it be
	early    bool // asked for under 1 ms: may fire up to 1 ms before when (setTimer)
	fn       goja.Callable
	args     []goja.Value
	index    int // in the heap; -1 once fired (not an interval) or cleared
}

type timerHeap []*timer

func (h timerHeap) Len() int { return len(h) }
func (h timerHeap) Less(i, j int) bool {
	if h[i].when != h[j].when {
		return h[i].when < h[j].when
	}
	return h[i].seq < h[j].seq
}
func (h timerHeap) Swap(i, j int) {
	h[i], h[j] = h[j], h[i]
	h[i].index, h[j].index = i, j
}
func (h *timerHeap) Push(x any) {
	t := x.(*timer)
	t.index = len(*h)
	*h = append(*h, t)
}
func (h *timerHeap) Pop() any {
	old := *h
	t := old[len(old)-1]
	*h = old[:len(old)-1]
	t.index = -1
	return t
}

func (e *Runtime) setTimer(interval bool) func(goja.FunctionCall) goja.Value {
	return func(c goja.FunctionCall) goja.Value {
		fn, ok := goja.AssertFunction(c.Argument(0))
		if !ok {
			e.throw("TypeError", "the callback must be a function (the playground does not evaluate strings)")
		}
		e.checkTimers()
		d := c.Argument(1).ToFloat()
		// Node: a delay under 1 ms or past 2^31-1 ms (TimeoutOverflowWarning)
		// is 1 ms. One under 1 ms is due then, after the 1 ms timers set
		// before it, but may fire up to 1 ms early when it is the next due:
		// the order is Node's, and a chain of setTimeout(f, 0) does not wait.
		early := !interval && (math.IsNaN(d) || d < 1)
		if math.IsNaN(d) || d < 1 || d > maxTimerDelay {
			d = 1
		}
		delay := time.Duration(d * float64(time.Millisecond))
		e.nextTimer++
		t := &timer{id: e.nextTimer, delay: delay, interval: interval, early: early, fn: fn}
		if len(c.Arguments) > 2 {
			t.args = append([]goja.Value(nil), c.Arguments[2:]...)
		}
		h := e.timeoutHandle(t) // first: nothing is scheduled if making it throws
		e.schedule(t)
		return h
	}
}

// checkTimers throws the RangeError of lim.MaxTimers when that many are
// pending.
func (e *Runtime) checkTimers() {
	if len(e.timers) >= e.lim.MaxTimers {
		e.throw("RangeError", fmt.Sprintf("too many pending timers (limit %d)", e.lim.MaxTimers))
	}
}

// schedule makes t pending, due its delay from now.
func (e *Runtime) schedule(t *timer) {
	e.timerSeq++
	t.when, t.seq = addClock(e.clock.now(), t.delay), e.timerSeq
	heap.Push(&e.timers, t)
	e.timerByID[t.id] = t
	if !t.unref {
		e.refTimers++
	}
}

// forget drops t, popped or removed from the heap, from the pending ones.
func (e *Runtime) forget(t *timer) {
	delete(e.timerByID, t.id)
	if !t.unref {
		e.refTimers--
	}
}

// cancel removes t if it is pending; refresh leaves it be from now on.
func (e *Runtime) cancel(t *timer) {
	t.cleared = true
	if t.index >= 0 {
		heap.Remove(&e.timers, t.index)
		e.forget(t)
	}
}

// clearTimer is clearTimeout and clearInterval: its argument is a handle
// or a handle's id (what +handle gives, as Node's); anything else is
// ignored, as Node ignores it.
func (e *Runtime) clearTimer(c goja.FunctionCall) goja.Value {
	if t := e.timerOf(c.Argument(0)); t != nil {
		e.cancel(t)
		return goja.Undefined()
	}
	if intrinsic.IsNumber(c.Argument(0)) || goja.IsString(c.Argument(0)) {
		if t, ok := e.timerByID[c.Argument(0).ToInteger()]; ok {
			e.cancel(t)
		}
	}
	return goja.Undefined()
}

// recoverEngineFault turns a Go panic out of goja (one no guard above
// prevents: an operator, not a built-in, such as a BigInt shift by 2^62
// computed at run time, which makes goja's math/big allocate past any
// slice length) into the end of the run with a RUNTIME_ERROR, instead of
// a lost worker. It is deferred around a task with err its named result;
// a JS exception or an interrupt is not a panic here (goja returns them as
// errors), so only engine faults arrive.
//
// The snippet cannot catch the error: goja has unwound the whole task by
// the time Go sees the panic.
func (e *Runtime) recoverEngineFault(err *error) {
	x := recover()
	if x == nil {
		return
	}
	_, isRuntime := x.(runtime.Error)
	_, isString := x.(string)
	if !isRuntime && !isString {
		panic(x) // not an engine fault: a bug of ours, as before
	}
	what := "RangeError: the operation exceeds what the engine can represent"
	if strings.Contains(string(debug.Stack()), "math/big.") {
		what = "RangeError: Maximum BigInt size exceeded"
	}
	// The Go text of the panic stays out of the message: no Go internals
	// reach a snippet (issue 22).
	e.emitError(&pipe.Error{Kind: pipe.KindRuntime, Message: what + "; the run ended: the engine cannot continue after this error, so it cannot be caught"})
	e.fail()
	*err = e.stop
}
