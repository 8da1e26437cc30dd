package sandbox

import (
	"os"
	"syscall"
	"time"
	"unsafe"
)

// procCPU returns the CPU time process pid has used, all its threads
// together, from its process CPU-time clock (clock_getcpuclockid(3):
// MAKE_PROCESS_CPUCLOCK(pid, CPUCLOCK_SCHED), nanosecond resolution; Linux
// lets any process read another's). ok is false when the clock cannot be
// read (the process is gone).
func procCPU(pid int) (cpu time.Duration, ok bool) {
	clk := (^int32(pid))<<3 | 2 // CPUCLOCK_SCHED of the whole thread group
	var ts syscall.Timespec
	// Raw: it never blocks, and the runtime's syscall path would wake
	// sysmon (rawio), every 10 ms per parked run.
	_, _, errno := syscall.RawSyscall(syscall.SYS_CLOCK_GETTIME, uintptr(clk), uintptr(unsafe.Pointer(&ts)), 0)
	if errno != 0 {
		return 0, false
	}
	return time.Duration(ts.Nano()), true
}

// parkingSupported says this OS gives procCPU and SIGSTOP/SIGCONT.
const parkingSupported = true

// freezeSignal is SIGSTOP to stop a process, SIGCONT to continue it.
func freezeSignal(stop bool) os.Signal {
	if stop {
		return syscall.SIGSTOP
	}
	return syscall.SIGCONT
}
