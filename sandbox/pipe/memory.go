package pipe

// MemoryLayout is every memory threshold of a worker, derived from the one
// number an operator sets: the heap one run may use (Config.MemoryBytes,
// the -memory-bytes flag). All are in bytes, and Run < Exit < OS by design.
//
// Run: the heap watchdog (checked every 2 ms, confirmed by a GC) interrupts
// a run whose live heap passes it; the run ends memory_limit and the worker
// is replaced. It is also the Go soft limit (debug.SetMemoryLimit), so the
// GC works hard before it is reached.
//
// Exit: a builtin that keeps allocating cannot be interrupted (goja's
// Interrupt acts between instructions); when the live heap passes Exit the
// watchdog reports memory_limit itself and exits the process
// (ExitMemoryLimit). It sits below OS so that this orderly exit, with the
// run's output and result sent, comes before the OS refuses memory and the
// Go runtime dies with a crash the parent must guess at.
//
// OS: RLIMIT_DATA, the backstop for one huge allocation inside a builtin
// that jumps past Exit between two watchdog checks. It adds room for the Go
// runtime, esbuild and goja themselves (Baseline).
//
// At the default Run of 256 MiB: Exit 304 MiB, OS 352 MiB. (Before this
// layout was written down, Exit was Run×1.5 = 384 MiB, above OS: the
// orderly exit could never happen for a builtin growing the heap.)
type MemoryLayout struct {
	Run, Exit, OS int64
}

// Baseline is what a worker needs beside a run's heap: the Go runtime,
// esbuild, goja, compiled libraries, stacks (measured: an idle worker's
// heap is ~10 MiB, a worker that bundled and compiled lodash ~40 MiB).
const Baseline = 96 << 20

// MemoryLayoutFor derives the layout from the run cap.
func MemoryLayoutFor(run int64) MemoryLayout {
	return MemoryLayout{Run: run, Exit: run + Baseline/2, OS: run + Baseline}
}
