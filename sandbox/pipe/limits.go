package pipe

// Limits bounds one run inside the runtime; a job carries them. The pool
// re-checks the byte and event caps on its side of the pipe. The zero
// value of a field means its default (DefaultLimits), so that a job from
// an older parent still runs bounded.
type Limits struct {
	// MaxOutputBytes caps the output of one run, in bytes, as OutputBytes
	// counts them (text, previews, facts, calls, errors; not the pipe's
	// framing). Both ends count with OutputBytes: the runtime ends a run
	// before an event would cross the cap; the pool, which trusts no count
	// it did not make, kills a worker whose events cross it.
	MaxOutputBytes int `json:"maxOutputBytes"`
	// MaxEvents caps the events of one run (logs, facts, calls, errors).
	MaxEvents int `json:"maxEvents"`
	// MaxTimers caps the timers pending at once.
	MaxTimers int `json:"maxTimers"`
	// MaxCallStack caps the JS call stack depth, in frames; deeper recursion
	// ends the task with a RangeError. The default, 12,000, is about the
	// depth Node 20 reaches with a small function (≈10,800 frames in V8's
	// default 984 KiB stack), so recursive code written for Node runs; goja
	// counts Go functions on the way as frames too, which keeps recursion
	// through conversions, getters and traps (Go stack at every level)
	// well inside the worker's Go stack (TestDeepNativeRecursion).
	MaxCallStack int `json:"maxCallStack"`
	// MaxHostCalls caps the host calls of one run.
	MaxHostCalls int `json:"maxHostCalls"`
	// MaxFactsBytes caps the facts snapshot of one run (done.facts): the
	// sum over its keys of the key's and the JSON value's lengths, in
	// bytes. A change past it ends the run with output_limit, the facts
	// kept as they were before it. Both ends count it.
	MaxFactsBytes int `json:"maxFactsBytes,omitempty"`
	PreviewLimits
}

// PreviewLimits caps what a value preview may hold (docs/protocol.md, "Value
// previews"). They are announced in hello.limits.
type PreviewLimits struct {
	// Depth is how many levels of nested objects are shown.
	Depth int `json:"previewDepth"`
	// Keys is how many properties, items or entries one object shows.
	Keys int `json:"previewKeys"`
	// String is how many characters of one string are shown.
	String int `json:"previewString"`
}

// DefaultLimits are the limits of a run that asks for no others. They are
// written here once; the pool's DefaultConfig and the flags read them.
func DefaultLimits() Limits {
	return Limits{
		MaxOutputBytes: 8 << 20, // a 5 MB output fits; a socket asks for less (sandbox.Request.MaxOutputBytes)
		MaxEvents:      10_000,
		MaxTimers:      10_000,
		MaxCallStack:   12_000,
		MaxHostCalls:   1_000,
		MaxFactsBytes:  256 << 10,
		PreviewLimits:  PreviewLimits{Depth: 5, Keys: 100, String: 10_000},
	}
}

// WithDefaults returns l with every zero field set from DefaultLimits.
func (l Limits) WithDefaults() Limits {
	d := DefaultLimits()
	def := func(v *int, dv int) {
		if *v <= 0 {
			*v = dv
		}
	}
	def(&l.MaxOutputBytes, d.MaxOutputBytes)
	def(&l.MaxEvents, d.MaxEvents)
	def(&l.MaxTimers, d.MaxTimers)
	def(&l.MaxCallStack, d.MaxCallStack)
	def(&l.MaxHostCalls, d.MaxHostCalls)
	def(&l.MaxFactsBytes, d.MaxFactsBytes)
	def(&l.Depth, d.Depth)
	def(&l.Keys, d.Keys)
	def(&l.String, d.String)
	return l
}

// OutputBytes is what ev counts against Limits.MaxOutputBytes, in bytes:
// the content the client is sent for it, without the pipe's or the
// protocol's framing. A log counts its text and argument previews; a fact
// its key and value; a host call its name, arguments, result and error; an
// error its message, stack and file. Started and queued events count 0, and
// so does the error that reports a limit the run hit (KindTimeout,
// KindMemoryLimit, KindOutputLimit): the runtime emits it after the cap, and
// its size is the sandbox's, not the snippet's.
func OutputBytes(ev *Event) int {
	n := len(ev.Text) + len(ev.Key) + len(ev.Value) + len(ev.Name) + len(ev.Result) + len(ev.CallError)
	for _, a := range ev.Args {
		n += len(a)
	}
	if e := ev.Error; e != nil {
		switch e.Kind {
		case KindTimeout, KindMemoryLimit, KindOutputLimit:
		default:
			n += len(e.Message) + len(e.Stack) + len(e.File)
		}
	}
	return n
}
