//go:build unix

package main

import (
	"log/slog"
	"syscall"
)

// fitSockets raises this process's open-file limit (RLIMIT_NOFILE) to its
// hard limit and returns how many sockets the server may hold: want, less
// when the limit cannot hold them and the descriptors kept in reserve for
// worker pipes (3 per worker process, spares included), listeners,
// outgoing connections (Redis) and files, and the plain connections the
// listener admits beyond the socket cap (web.ConnLimits: 64 spare places):
// 128 plus 8 per worker. A server
// at its socket cap then still starts workers and accepts no more sockets
// (503), instead of failing with EMFILE.
func fitSockets(want, workers int, log *slog.Logger) int {
	var lim syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_NOFILE, &lim); err != nil {
		log.Warn("cannot read the open-file limit", "err", err)
		return want
	}
	if lim.Cur < lim.Max {
		raised := lim
		raised.Cur = lim.Max
		if err := syscall.Setrlimit(syscall.RLIMIT_NOFILE, &raised); err == nil {
			lim = raised
		} else {
			log.Warn("cannot raise the open-file limit", "from", lim.Cur, "to", lim.Max, "err", err)
		}
	}
	reserve := 128 + 8*max(workers, 1)
	room := int(min(lim.Cur, 1<<30)) - reserve
	if room < want {
		log.Warn("-max-sockets lowered to fit the open-file limit", "want", want, "max", max(room, 1), "nofile", lim.Cur)
		return max(room, 1)
	}
	return want
}
