package sandbox

import (
	"log/slog"
	"os"
	"runtime"
	"time"

	"github.com/playground-dev/playground/sandbox/pipe"
)

// Config configures a Pool. Every default is written once, in
// DefaultConfig; a zero field means its default, so the zero Config works
// when the running binary calls worker.ServeIfWorker first thing.
type Config struct {
	// Workers is how many runs execute at once.
	Workers int
	// Spares is how many started workers wait beyond Workers, so that a
	// killed worker's slot is usable at once; each is also a reserve slot
	// that only a key holding no slot may take (see queue). Zero is the
	// default (DefaultConfig); a negative value is none.
	Spares int
	// MaxParked is how many runs may be parked at once: runs that gave their
	// slot back while they wait on host calls, each keeping its worker
	// process (and the run's heap in it: up to MemoryBytes, beside the
	// worker's own ~10–20 MB). The pool then runs up to Workers + Spares +
	// MaxParked processes. Zero means ParkPerWorker × Workers; negative
	// disables parking (a run waiting on the host holds its slot). See
	// park.go.
	MaxParked int
	// ParkAfter is how long a host call must be in flight, the worker idle,
	// before its run parks: fast calls (host.echo) never park.
	ParkAfter time.Duration
	// QueueSize is how many runs may wait for a worker; past it Run answers
	// OutcomeBusy. Zero means QueuePerWorker × Workers.
	QueueSize int
	// DefaultTimeout is a run's time limit when the request gives none.
	DefaultTimeout time.Duration
	// MinTimeout and MaxTimeout bound a requested time limit.
	MinTimeout, MaxTimeout time.Duration
	// MemoryBytes caps the heap of one run; the worker's other thresholds
	// derive from it (pipe.MemoryLayout). Zero means the run's share of
	// MemoryBudget (RunMemoryFor).
	MemoryBytes int64
	// MemoryBudget is the memory, in bytes, that all worker processes may
	// hold together: every process the pool may run (Workers + Spares +
	// MaxParked) with a run at MemoryBytes and its own Baseline. Zero means
	// DefaultMemoryBudget(). NewPool logs a warning when MemoryBytes set
	// by hand does not fit it.
	MemoryBudget int64
	// MaxFiles and MaxSourceBytes bound one request: its files and the bytes
	// of source they hold together.
	MaxFiles, MaxSourceBytes int
	// MaxInputBytes bounds one request's input JSON, in bytes.
	MaxInputBytes int
	// Limits caps output, events, timers, host calls and previews of each run.
	Limits Limits
	// Host are the host functions snippets may call as host.<name>(…).
	Host map[string]HostFunc
	// HostGlobals names host functions that snippets may also call as
	// globals, as written for systems where the page registers them
	// (`await log("hi")`): a name in Host, or the first segment of dotted
	// names ("kv" makes kv.get(…) a global call). NewPool refuses a name
	// that is not a JavaScript identifier, names no host function, or is a
	// global of the runtime or of Node and browsers (pipe.ReservedGlobals):
	// a host function never shadows a built-in.
	HostGlobals []string
	// HostCallTimeout bounds one host call.
	HostCallTimeout time.Duration
	// LibraryDir, if set, holds operator ESM bundles importable by file
	// name (sandbox/libs); they join the vendored libraries.
	LibraryDir string
	// Command is the argv that starts a worker process. Defaults to this
	// executable with pipe.WorkerArg.
	Command []string
	// Env is added to a worker's environment, which inherits nothing from
	// the server's.
	Env []string
	// KillGrace is how long past its deadline a run may take to stop by
	// itself before its worker is killed.
	KillGrace time.Duration
	// CancelGrace is how long a cancelled run's worker may take to stop
	// before it is killed. The run itself ends at once.
	CancelGrace time.Duration
	// AcceptTimeout bounds how long a worker may take to say it took a job;
	// one that does not (stopped, stuck) is killed and the job retried once
	// on another worker.
	AcceptTimeout time.Duration
	// MaxRunsPerWorker recycles a worker after this many runs; 1 is one
	// process per run.
	MaxRunsPerWorker int
	// Log receives what clients never see: crashes and their stderr.
	// Defaults to slog.Default().
	Log *slog.Logger
}

// QueuePerWorker is how many runs may wait per worker when
// Config.QueueSize is zero.
const QueuePerWorker = 64

// ParkPerWorker is how many runs may be parked per worker when
// Config.MaxParked is zero: with the session's cap of 8 runs per IP, two
// clients' runs all sleeping on the host fit in 16 parked places with 2
// workers, and a third client still gets a slot at once.
const ParkPerWorker = 8

// DefaultConfig returns the defaults of every field: the one place they are
// written. The flags of cmd/playground read theirs from it.
func DefaultConfig() Config {
	return Config{
		Workers:          runtime.NumCPU(),
		Spares:           1,
		ParkAfter:        2 * time.Millisecond,
		DefaultTimeout:   5 * time.Second,
		MinTimeout:       50 * time.Millisecond,
		MaxTimeout:       30 * time.Second,
		MemoryBytes:      0, // RunMemoryFor(MemoryBudget, processes)
		MemoryBudget:     0, // DefaultMemoryBudget()
		MaxFiles:         32,
		MaxSourceBytes:   256 << 10,
		MaxInputBytes:    8 << 20, // what agents hand the isolated-vm pool: a 5 MB input fits
		Limits:           pipe.DefaultLimits(),
		HostCallTimeout:  10 * time.Second,
		KillGrace:        10 * time.Millisecond, // docs/architecture.md#goals: a loop stops at budget + ≤ 20 ms
		CancelGrace:      2 * time.Millisecond,  // docs/architecture.md#goals: cancel → slot free ≤ 2 ms p99
		AcceptTimeout:    2 * time.Second,       // well past a loaded machine's scheduling delay
		MaxRunsPerWorker: 10_000,
	}
}

// withDefaults fills every zero field from DefaultConfig and puts the
// timeouts in order (Min ≤ Default ≤ Max).
func (c Config) withDefaults() Config {
	d := DefaultConfig()
	set := func(v *int, dv int) {
		if *v <= 0 {
			*v = dv
		}
	}
	setD := func(v *time.Duration, dv time.Duration) {
		if *v <= 0 {
			*v = dv
		}
	}
	set(&c.Workers, d.Workers)
	switch {
	case c.Spares == 0:
		c.Spares = d.Spares
	case c.Spares < 0:
		c.Spares = 0
	}
	if c.MaxParked == 0 {
		c.MaxParked = ParkPerWorker * c.Workers
	}
	setD(&c.ParkAfter, d.ParkAfter)
	if c.QueueSize <= 0 {
		c.QueueSize = QueuePerWorker * c.Workers
	}
	setD(&c.DefaultTimeout, d.DefaultTimeout)
	setD(&c.MinTimeout, d.MinTimeout)
	setD(&c.MaxTimeout, d.MaxTimeout)
	c.MaxTimeout = max(c.MaxTimeout, c.MinTimeout)
	c.DefaultTimeout = min(max(c.DefaultTimeout, c.MinTimeout), c.MaxTimeout)
	if c.MemoryBudget <= 0 {
		c.MemoryBudget = DefaultMemoryBudget()
	}
	if c.MemoryBytes <= 0 {
		c.MemoryBytes = RunMemoryFor(c.MemoryBudget, c.Processes())
	}
	set(&c.MaxFiles, d.MaxFiles)
	set(&c.MaxSourceBytes, d.MaxSourceBytes)
	set(&c.MaxInputBytes, d.MaxInputBytes)
	c.Limits = c.Limits.WithDefaults()
	setD(&c.HostCallTimeout, d.HostCallTimeout)
	if len(c.Command) == 0 {
		exe, err := os.Executable()
		if err != nil {
			exe = os.Args[0]
		}
		c.Command = []string{exe, pipe.WorkerArg}
	}
	setD(&c.KillGrace, d.KillGrace)
	setD(&c.CancelGrace, d.CancelGrace)
	setD(&c.AcceptTimeout, d.AcceptTimeout)
	set(&c.MaxRunsPerWorker, d.MaxRunsPerWorker)
	if c.Log == nil {
		c.Log = slog.Default()
	}
	return c
}

// Processes is how many worker processes the pool may run at once: a
// process per slot, per spare and per parked run.
func (c Config) Processes() int { return c.Workers + c.Spares + max(c.MaxParked, 0) }

// The bounds of a run's derived heap cap (RunMemoryFor): never less than
// a page of data needs (the cap before it was derived), never so much that
// one run's collection pauses its worker for long.
const (
	MinRunMemory = 256 << 20
	MaxRunMemory = 4 << 30
)

// RunMemoryFor is the heap cap of one run when processes worker processes
// share budget bytes: each process's share less what the worker itself
// needs (pipe.Baseline), within [MinRunMemory, MaxRunMemory].
func RunMemoryFor(budget int64, processes int) int64 {
	share := budget/int64(max(processes, 1)) - pipe.Baseline
	return min(max(share, MinRunMemory), MaxRunMemory)
}

// DefaultMemoryBudget is three quarters of the memory this machine (or
// its cgroup, when that is smaller) has: the rest is the server's, the
// operating system's and the page cache's. 4 GiB where neither can be read.
func DefaultMemoryBudget() int64 {
	total := machineMemory()
	if total <= 0 {
		return 4 << 30
	}
	return total / 4 * 3
}

// WorkerArg is the argument that makes the playground binary a worker
// (pipe.WorkerArg).
const WorkerArg = pipe.WorkerArg
