package sandbox

import (
	"slices"
	"time"
)

// PoolStats is a point-in-time view of a pool.
type PoolStats struct {
	Workers int   `json:"workers"` // runs that may execute at once
	Live    int64 `json:"live"`    // worker processes started or starting (busy, parked and idle ones)
	// Started counts the worker processes that finished starting (their
	// handshake) and have not exited: 0 while no worker can start.
	Started int64 `json:"started"`
	Idle    int   `json:"idle"`   // started workers waiting for a run
	Busy    int64 `json:"busy"`   // runs holding a slot (executing; parked runs not counted)
	Parked  int64 `json:"parked"` // runs parked: waiting on host calls, their slot given back, their worker kept
	// MaxParked is Config.MaxParked (negative: parking is off).
	MaxParked int   `json:"maxParked"`
	Queued    int   `json:"queued"`   // runs waiting for a worker (parked runs waiting to resume not counted)
	Runs      int64 `json:"runs"`     // runs executed
	Kills     int64 `json:"kills"`    // workers killed (deadline, cancel, limit)
	Crashes   int64 `json:"crashes"`  // workers that died on their own, not by a run's memory or stack
	Restarts  int64 `json:"restarts"` // replacement workers started
	Failures  int64 `json:"failures"` // workers that failed to start
	// PSSBytes is the proportional resident memory of all worker processes
	// (shared pages split among them; Linux, 0 elsewhere).
	PSSBytes int64 `json:"pssBytes"`
	// BreakerOpen says repeated start failures opened the circuit breaker:
	// no worker is being started until its backoff ends.
	BreakerOpen bool `json:"breakerOpen"`
}

// Stats reports the pool's current load.
func (p *Pool) Stats() PoolStats {
	return PoolStats{
		Workers: p.cfg.Workers, Live: p.live.Load(), Started: p.startedCount(), Idle: p.idleCount(), Busy: p.running.Load(), Parked: p.parked.Load(), MaxParked: p.cfg.MaxParked,
		Queued: p.queue.len(), Runs: p.runs.Load(), Kills: p.kills.Load(), Crashes: p.crashes.Load(),
		Restarts: p.restarts.Load(), Failures: p.failures.Load(), PSSBytes: p.workersPSS(), BreakerOpen: p.breakerWait() > 0,
	}
}

func (p *Pool) startedCount() int64 {
	p.mu.Lock()
	defer p.mu.Unlock()
	return int64(len(p.procs))
}

func (p *Pool) workersPSS() int64 {
	p.mu.Lock()
	defer p.mu.Unlock()
	var n int64
	for w := range p.procs {
		n += pssBytes(w.cmd.Process.Pid)
	}
	return n
}

// Announced is what a client is told about the pool's effective limits.
// The session translates it into hello.limits (ms at the wire).
type Announced struct {
	DefaultTimeout, MinTimeout, MaxTimeout  time.Duration
	MemoryBytes                             int64
	MaxFiles, MaxSourceBytes, MaxInputBytes int
	Limits                                  Limits
	// Modules are the bare modules a snippet may import; Host the host
	// functions it may call (host.<name>), sorted.
	Modules, Host []string
}

// Announce returns the limits runs are held to and the importable modules.
func (p *Pool) Announce() Announced {
	c := p.cfg
	return Announced{
		DefaultTimeout: c.DefaultTimeout, MinTimeout: c.MinTimeout, MaxTimeout: c.MaxTimeout,
		MemoryBytes: c.MemoryBytes, MaxFiles: c.MaxFiles, MaxSourceBytes: c.MaxSourceBytes, MaxInputBytes: c.MaxInputBytes,
		Limits: c.Limits, Modules: p.libs.Modules(), Host: slices.Clone(p.hostNames),
	}
}

// idleCount counts the started workers that wait for a run (not the dead
// ones still in the idle set).
func (p *Pool) idleCount() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	n := 0
	for w := range p.procs {
		if w.idle.Load() {
			n++
		}
	}
	return n
}
