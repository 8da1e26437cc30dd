package js

// SetClient says which client (pipe.Job.Client, an opaque token) this
// runtime serves: the caches it fills for later runs — the RegExp
// programs (parity) — are keyed by it, so that no client hits, or times,
// another's entries (issue 22). The worker calls it right after New.
func (e *Runtime) SetClient(client string) { e.parity.SetClient(client) }
