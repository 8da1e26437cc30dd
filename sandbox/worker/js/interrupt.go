package js

// Interrupt stops what e is evaluating now (a Preload the worker runs in
// the background) at the next instruction, with v as the cause; what
// e.vm evaluates afterwards is interrupted at once. A runtime that was
// interrupted is discarded: it never serves a run.
func (e *Runtime) Interrupt(v any) { e.vm.Interrupt(v) }
