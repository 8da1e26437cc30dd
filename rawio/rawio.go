// Package rawio reads and writes non-blocking descriptors registered with
// the Go runtime's poller (pipes from os.Pipe, TCP sockets) with raw system
// calls, waiting in the poller when a call would block. Both processes use
// it: the worker and the pool on their pipes (sandbox/pipe), the server on
// its WebSockets (ws).
//
// Why (issue 12): the runtime's monitor thread (sysmon) sleeps while a
// process is idle, and every system call entered through the runtime's
// syscall path wakes it, after which it polls every 20 µs for a
// millisecond. A process that handles a run every fraction of a
// millisecond kept it polling all the time: about a sixth of its CPU. A raw
// call on a non-blocking descriptor does not enter that path.
package rawio
