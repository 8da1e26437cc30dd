package sandbox

import (
	"errors"
	"fmt"
	"time"

	"github.com/playground-dev/playground/sandbox/pipe"
)

// Starting worker processes, and the circuit breaker that keeps a broken
// binary from burning the machine.

// spawn starts one worker in the background and adds it to the idle set,
// unless the pool has the processes it wants (wantProcs) or is closing.
// Repeated start failures open a circuit breaker: spawn waits, doubling the
// wait up to 10s, so that a broken binary does not burn the machine.
func (p *Pool) spawn(restart bool) {
	// A worker may die while the pool closes (its watcher retires it, from
	// outside wg): a spawner must not join wg once Close waits for it.
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.closing || p.live.Load() >= p.wantProcs() {
		return
	}
	p.live.Add(1)
	if restart {
		p.restarts.Add(1)
	}
	p.wg.Go(func() {
		for {
			if wait := p.breakerWait(); wait > 0 {
				select {
				case <-time.After(wait):
				case <-p.closed:
					p.live.Add(-1)
					return
				}
			}
			select {
			case <-p.closed:
				p.live.Add(-1)
				return
			default:
			}
			w, err := startProc(p.cfg.Command, p.workerEnv(), p.maxLine, 30*time.Second, p.closed)
			if errors.Is(err, ErrClosed) {
				p.live.Add(-1)
				return
			}
			if err != nil {
				p.failures.Add(1)
				p.cfg.Log.Error("sandbox worker failed to start", "err", err)
				p.breakerTrip()
				continue
			}
			p.breakerReset()
			p.track(w)
			select {
			case <-p.closed:
				w.retired.Store(true)
				w.close(time.Second)
				p.live.Add(-1)
			default:
				p.toIdle(w)
			}
			return
		}
	})
}

func (p *Pool) workerEnv() []string {
	env := []string{
		// Two Ps: the snippet's goroutine plus the watchdog, the pipe reader
		// and timers. One P saved ~13% of a hello run's CPU (no spinning
		// thread woken at each hand-off), but then a snippet's timeout
		// timer waits for the runtime to preempt a JS loop (up to ~20 ms):
		// past KillGrace, so the parent killed 4 of 20 looping workers
		// that stop themselves with two (issue 12).
		"GOMAXPROCS=2",
		"GOTRACEBACK=single",
		fmt.Sprintf("%s=%d", pipe.EnvMemoryBytes, p.cfg.MemoryBytes),
	}
	if pipe.RaceEnabled {
		env = append(env, "GORACE=atexit_sleep_ms=0") // a race-built worker would sleep 1s at exit
	}
	if p.cfg.LibraryDir != "" {
		env = append(env, pipe.EnvLibraryDir+"="+p.cfg.LibraryDir)
	}
	return append(env, p.cfg.Env...)
}

// track counts w in the memory stats until it exits, and watches it: a
// worker that dies while idle (the OOM killer, an operator) is retired at
// once, so that stats tell the truth and no job is handed to it.
func (p *Pool) track(w *proc) {
	p.mu.Lock()
	p.procs[w] = struct{}{}
	p.mu.Unlock()
	p.procWG.Go(func() {
		<-w.exited
		p.mu.Lock()
		delete(p.procs, w)
		p.mu.Unlock()
		if w.idle.CompareAndSwap(true, false) {
			p.cfg.Log.Warn("sandbox: an idle worker died", "exit", w.exitStatus())
			p.retire(w, true)
		}
	})
}

func (p *Pool) breakerWait() time.Duration {
	p.mu.Lock()
	defer p.mu.Unlock()
	return time.Until(p.breakerOpen)
}

func (p *Pool) breakerTrip() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.failStreak++
	if p.failStreak >= 3 {
		wait := min(100*time.Millisecond<<min(p.failStreak-3, 7), 10*time.Second)
		p.breakerOpen = time.Now().Add(wait)
	}
}

func (p *Pool) breakerReset() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.failStreak = 0
}
