//go:build !linux

package sandbox

import "syscall"

func workerSysProcAttr() *syscall.SysProcAttr { return nil }

func pssBytes(int) int64 { return 0 }
