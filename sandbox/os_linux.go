// Linux specifics of worker processes, seen from the parent: their process
// attributes and the memory they use.
package sandbox

import (
	"bufio"
	"os"
	"strconv"
	"strings"
	"syscall"
)

// workerSysProcAttr makes a worker die with its parent and keeps it in its
// own process group.
func workerSysProcAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL, Setpgid: true}
}

// pssBytes returns the proportional set size of process pid, from
// /proc/<pid>/smaps_rollup (proc(5), Linux 4.14+): resident memory with
// pages shared between processes (the binary's text, which every worker
// maps) divided among them. It returns 0 when unknown.
func pssBytes(pid int) int64 {
	f, err := os.Open("/proc/" + strconv.Itoa(pid) + "/smaps_rollup")
	if err != nil {
		return 0
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		rest, ok := strings.CutPrefix(sc.Text(), "Pss:")
		if !ok {
			continue
		}
		kb, err := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 10, 64)
		if err != nil {
			return 0
		}
		return kb << 10
	}
	return 0
}

// outsideSignal reports whether ps is a process ended by a signal that
// only another process sends (proc.killedFromOutside).
func outsideSignal(ps *os.ProcessState) bool {
	ws, ok := ps.Sys().(syscall.WaitStatus)
	if !ok || !ws.Signaled() {
		return false
	}
	switch ws.Signal() {
	case syscall.SIGKILL, syscall.SIGTERM, syscall.SIGINT, syscall.SIGHUP:
		return true
	}
	return false
}
