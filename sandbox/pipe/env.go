package pipe

// How the pool starts a worker: the binary it runs (the playground binary,
// or a test binary) must call worker.ServeIfWorker first thing, which
// serves on stdin and stdout when the only argument is WorkerArg. The
// worker's environment inherits nothing from the server's; it holds these.
const (
	// WorkerArg is the argument that makes the playground binary a worker.
	WorkerArg = "-mode=worker"

	// EnvMemoryBytes is the heap cap of one run, in bytes (decimal); the
	// worker derives its memory layout from it (MemoryLayoutFor).
	EnvMemoryBytes = "PLAYGROUND_WORKER_MEMORY_BYTES"
	// EnvLibraryDir names the operator's library directory (sandbox/libs), if any.
	EnvLibraryDir = "PLAYGROUND_WORKER_LIBRARY_DIR"
)

// ExitMemoryLimit is the exit code of a worker that stopped itself because
// a run exceeded its memory limit (after reporting the result).
const ExitMemoryLimit = 3

// ExitAbandoned is the exit code of a worker after a run whose bundling or
// compiling overran its deadline or memory, or was cancelled: esbuild and
// goja's compiler take no context, so the process ends after the result
// (which says Retire) instead of finishing that work in the background.
const ExitAbandoned = 4

// MaxCommandBytes caps one line parent → worker (a job holds at most the
// request limits' source plus its input).
const MaxCommandBytes = 16 << 20
