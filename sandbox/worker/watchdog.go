package worker

import (
	"encoding/json"
	"os"
	"runtime"
	"runtime/metrics"
	"time"

	"github.com/playground-dev/playground/sandbox/pipe"
	"github.com/playground-dev/playground/sandbox/worker/js"
)

// watchdogInterval is how often the watchdog checks the heap during a run.
const watchdogInterval = 2 * time.Millisecond

// watchdog checks the heap every watchdogInterval while a run is in
// progress (pipe.MemoryLayout). Over Run it interrupts the run; if the run
// is stuck in a builtin and the live heap passes Exit, it reports the run
// itself and exits the process.
func (wk *worker) watchdog() {
	t := time.NewTicker(watchdogInterval)
	defer t.Stop()
	for range t.C {
		if !wk.running() {
			// Between runs nothing allocates: sleep until the next run
			// starts instead of waking every 2 ms.
			t.Stop()
			<-wk.started
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
