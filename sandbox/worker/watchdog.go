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

// gcPercent is the worker's GOGC. A run allocates ~100–200 KiB of
// short-lived objects (a fresh goja runtime) over a live heap of a few MiB:
// at the default 100 the collector ran every few dozen runs and cost a
// sixth of a worker's CPU (issue 12). The soft memory limit (the run cap,
// pipe.MemoryLayout) still makes the collector work hard before a run's
// heap reaches its limit, the watchdog still confirms a limit hit with a
// full collection, and idleCollect gives the garbage back between bursts.
const gcPercent = 400

// watchdog checks the heap every watchdogInterval while a run is in
// progress (pipe.MemoryLayout). Over Run it interrupts the run; if the run
// is stuck in a builtin and the live heap passes Exit, it reports the run
// itself and exits the process. Between runs it sleeps, collecting garbage
// once after idleCollect.
func (wk *worker) watchdog() {
	debug.SetGCPercent(gcPercent)
	t := time.NewTicker(watchdogInterval)
	defer t.Stop()
	idle := time.NewTimer(idleCollect)
	defer idle.Stop()
	for range t.C {
		if !wk.running() {
			// Between runs nothing allocates: sleep until the next run
			// starts instead of waking every 2 ms.
			t.Stop()
			idle.Reset(idleCollect)
			select {
			case <-wk.started:
			case <-idle.C:
				debug.FreeOSMemory()
				<-wk.started
			}
			t.Reset(watchdogInterval)
			continue
		}
		if heapBytes() <= wk.mem.Run {
			continue
		}
		runtime.GC()
		live := liveHeapBytes()
		if live <= wk.mem.Run {
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
