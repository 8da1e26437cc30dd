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

// machineMemory returns the memory the server may use, in bytes: MemTotal
// from /proc/meminfo (proc(5)), or the cgroup v2 limit memory.max
// (Documentation/admin-guide/cgroup-v2.rst) when that is set and smaller;
// 0 when neither can be read.
func machineMemory() int64 {
	var total int64
	if b, err := os.ReadFile("/proc/meminfo"); err == nil {
		for _, line := range strings.Split(string(b), "\n") {
			if rest, ok := strings.CutPrefix(line, "MemTotal:"); ok {
				kb, err := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 10, 64)
				if err == nil {
					total = kb << 10
				}
				break
			}
		}
	}
	if b, err := os.ReadFile("/sys/fs/cgroup/memory.max"); err == nil {
		if n, err := strconv.ParseInt(strings.TrimSpace(string(b)), 10, 64); err == nil && n > 0 && (total == 0 || n < total) {
			total = n
		}
	}
	return total
}
