package worker

import "syscall"

// limitMemory caps the process's data segment (RLIMIT_DATA: since Linux
// 4.7 it counts private writable mappings, i.e. the Go heap and stacks, but
// not the address space Go reserves). An allocation past it makes the Go
// runtime die with "out of memory", which the parent reports as memory_limit.
func limitMemory(bytes int64) error {
	lim := &syscall.Rlimit{Cur: uint64(bytes), Max: uint64(bytes)}
	return syscall.Setrlimit(syscall.RLIMIT_DATA, lim)
}
