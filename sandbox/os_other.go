//go:build !linux

package sandbox

import "syscall"

// limitMemory is a no-op where RLIMIT_DATA does not bound the Go heap; the
// heap watchdog still applies.
func limitMemory(int64) error { return nil }

func workerSysProcAttr() *syscall.SysProcAttr { return nil }

func pssBytes(int) int64 { return 0 }
