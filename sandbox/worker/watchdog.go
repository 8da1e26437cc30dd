package worker

import (
	"encoding/json"
	"os"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"time"

	"github.com/playground-dev/playground/sandbox/pipe"
	"github.com/playground-dev/playground/sandbox/worker/js"
)

// watchdogInterval is how often the watchdog checks the heap during a run.
const watchdogInterval = 2 * time.Millisecond

// idleCollect is how long a worker waits without a run before it collects
// its garbage and returns free memory to the OS, so that an idle pool is
// small even though gcPercent lets garbage pile up under load.
const idleCollect = 500 * time.Millisecond

// The worker's GOGC. A run allocates ~100–200 KiB of short-lived objects (a
// fresh goja runtime) over a live heap of a few MiB: at the default 100 the
// collector ran every few dozen runs and cost a sixth of a worker's CPU
// (issue 12). So a worker whose live heap is small lets gcSlack of garbage
// pile up (up to maxGCPercent), and one whose live heap is large, or whose
// run's heap passes a quarter of the run cap, collects at the default:
// near the cap, where the soft memory limit makes the collector work hard
// and the watchdog confirms a limit hit with a full collection, a run
// behaves as it did. idleCollect gives the garbage back between bursts.
const (
	gcSlack      = 24 << 20
	maxGCPercent = 400
)

// gcPercentFor is the GOGC for a live heap of live bytes.
func gcPercentFor(live int64) int {
	if live <= 0 {
		return maxGCPercent
	}
	return int(min(max(gcSlack*100/live, 100), maxGCPercent))
}

// sleepAfter is how many idle ticks the watchdog keeps ticking after a
// run before it sleeps until the next run starts. Under load the next run
// comes sooner: waking a sleeping watchdog for each run (a thread woken,
// a timer armed, which wakes the runtime's poller) cost more per run than
// ticking on (issue 12).
const sleepAfter = 25 // × watchdogInterval = 50 ms

// watchdog checks the heap every watchdogInterval while a run is in
// progress (pipe.MemoryLayout). Over Run it interrupts the run; if the run
// is stuck in a builtin and the live heap passes Exit, it reports the run
// itself and exits the process. Each tick also flushes what the run's
// WriteSoon left buffered (the started event). sleepAfter idle ticks after
// a run it sleeps, collecting garbage once after idleCollect, until a run
// starts.
func (wk *worker) watchdog() {
	gcPercent := gcPercentFor(liveHeapBytes())
	debug.SetGCPercent(gcPercent)
	setGCPercent := func(p int) {
		if p != gcPercent {
			gcPercent = p
			debug.SetGCPercent(p)
		}
	}
	t := time.NewTicker(watchdogInterval)
	defer t.Stop()
	idle := time.NewTimer(idleCollect)
	defer idle.Stop()
	idleTicks := 0
	for range t.C {
		_ = wk.out.FlushPending()
		if !wk.running() {
			if idleTicks == 0 { // the first tick after a run
				setGCPercent(gcPercentFor(liveHeapBytes()))
			}
			if idleTicks++; idleTicks < sleepAfter {
				continue
			}
			// Nothing allocates between runs: sleep until the next run
			// starts instead of waking every 2 ms. A token a run sent
			// while the watchdog ticked is stale: drop it, then look
			// again (a run that starts after this sends a new one).
			t.Stop()
			select {
			case <-wk.started:
			default:
			}
			if !wk.running() {
				idle.Reset(idleCollect)
				select {
				case <-wk.started:
				case <-idle.C:
					// Not on this goroutine: a collection may take a while,
					// and a run starting meanwhile needs its watchdog at once.
					go debug.FreeOSMemory()
					<-wk.started
				}
				idle.Stop()
			}
			idleTicks = 0
			t.Reset(watchdogInterval)
			continue
		}
		idleTicks = 0
		// The run is charged with the heap over what the worker retained
		// before it (measureBase): another client's caches, libraries or
		// prepared runtime are not this run's (issue 22).
		credit := wk.credit.Load()
		heap := heapBytes() - credit
		if heap > wk.mem.Run/4 {
			setGCPercent(100)
		}
		if heap <= wk.mem.Run {
			continue
		}
		runtime.GC()
		live := liveHeapBytes()
		if live-credit <= wk.mem.Run {
			continue // garbage, not a program holding memory
		}
		wk.mu.Lock()
		if wk.cancel != nil {
			wk.memoryHit = true
			wk.cancel(js.ErrMemoryLimit)
		}
		wk.mu.Unlock()
		if live > wk.mem.Exit {
			// Interrupt cannot stop a builtin that keeps allocating: end here.
			_ = wk.out.Write(pipe.Message{Event: &pipe.Event{Kind: pipe.EventError, Error: pipe.MemoryError(wk.mem.Run)}})
			res := pipe.Result{Outcome: pipe.OutcomeMemoryLimit, Facts: map[string]json.RawMessage{}}
			_ = wk.out.Write(pipe.Message{Result: &res})
			os.Exit(pipe.ExitMemoryLimit)
		}
	}
}

// The retained baseline (measureBase). A worker keeps memory between
// runs that is no run's: compiled libraries, the program and RegExp
// caches (each with a byte budget), a prepared runtime (prepareBudget).
// The watchdog charges a run only with the heap over it, so that what an
// earlier client left is not counted against the next (issue 22).
//
// baseSlack: the baseline is measured again (a full collection before
// the run's clock starts) when the heap has grown more than this over the
// last measurement, so a stale baseline overcharges a run by at most this
// much; it is above gcSlack so that garbage alone rarely forces one.
// maxCredit caps what is not charged, at Exit − Run: a run never holds
// more than Exit before the watchdog interrupts it, so RLIMIT_DATA (OS)
// stays the backstop for a builtin's single huge allocation.
const (
	baseSlack = gcSlack + 8<<20
	maxCredit = pipe.Baseline / 2
)

// measureBase sets the credit of the run about to start (serve calls it
// before the run's clock starts): the live heap the worker retains, as a
// full collection finds it when the heap grew by more than baseSlack since
// the last one (or passed half the run cap), else as last measured.
func (wk *worker) measureBase() {
	if heap := heapBytes(); heap > wk.base+baseSlack || heap > wk.mem.Run/2 {
		runtime.GC() // also starts the run from a clean heap: the last run's garbage is not this run's
		wk.base = liveHeapBytes()
	}
	wk.credit.Store(min(wk.base, maxCredit, wk.mem.Exit-wk.mem.Run))
}

// heapBytes is the memory held by heap objects, live or not yet swept: a
// cheap first check.
func heapBytes() int64 { return readMetric("/memory/classes/heap/objects:bytes") }

// liveHeapBytes is the heap the last garbage collection found live.
func liveHeapBytes() int64 { return readMetric("/gc/heap/live:bytes") }

func readMetric(name string) int64 {
	s := []metrics.Sample{{Name: name}}
	metrics.Read(s)
	return int64(s[0].Value.Uint64())
}
