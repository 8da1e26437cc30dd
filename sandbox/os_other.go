//go:build !linux

package sandbox

import (
	"os"
	"syscall"
)

func workerSysProcAttr() *syscall.SysProcAttr { return nil }

func pssBytes(int) int64 { return 0 }

// outsideSignal reports whether ps ended by a signal from another process;
// elsewhere than Linux any signalled end counts (ExitCode -1).
func outsideSignal(ps *os.ProcessState) bool { return ps.ExitCode() == -1 }

// machineMemory is unknown elsewhere than Linux (DefaultMemoryBudget).
func machineMemory() int64 { return 0 }
