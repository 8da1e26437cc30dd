//go:build !linux

package worker

// limitMemory is a no-op where RLIMIT_DATA does not bound the Go heap; the
// heap watchdog still applies.
func limitMemory(int64) error { return nil }
