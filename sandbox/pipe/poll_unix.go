//go:build unix

package pipe

import (
	"io"
	"os"
	"syscall"

	"github.com/playground-dev/playground/rawio"
)

// Pipes are read and written with raw system calls (rawio says why).

// Stdio returns the process's standard input and output (a worker's pipes
// to its parent) as a raw, non-blocking reader and writer (RawFile). Each
// falls back to the plain *os.File when its descriptor cannot be switched.
// The returned values own the descriptors from then on: keep them for the
// life of the process and do not use os.Stdin or os.Stdout.
func Stdio() (io.Reader, io.Writer) {
	in, out := pollable(os.Stdin), pollable(os.Stdout)
	return RawFile(in), RawFile(out)
}

// pollable returns f switched to non-blocking mode and registered with the
// runtime's poller, or f when its descriptor cannot be switched.
func pollable(f *os.File) *os.File {
	rc, err := f.SyscallConn()
	if err != nil {
		return f
	}
	var fd uintptr
	var serr error
	if err := rc.Control(func(d uintptr) { fd, serr = d, syscall.SetNonblock(int(d), true) }); err != nil || serr != nil {
		return f
	}
	// os.NewFile sees a non-blocking descriptor and registers it with the poller.
	return os.NewFile(fd, f.Name())
}

// RawFile returns an io.ReadWriter on f that reads and writes with raw
// system calls when f is non-blocking and registered with the runtime's
// poller (a pipe from os.Pipe or exec.Cmd's StdinPipe and StdoutPipe, or a
// descriptor from Stdio), waiting in the poller when the call would block.
// Otherwise it returns f itself. Reads and writes follow io.Reader and
// io.Writer (a short write is an error); use it from one reader and one
// writer at a time, as an *os.File.
func RawFile(f *os.File) io.ReadWriter {
	if !nonblocking(f) {
		return f
	}
	rc, err := f.SyscallConn()
	if err != nil {
		return f
	}
	return &rawFile{f: f, rc: rc}
}

// nonblocking reports whether f's descriptor is in non-blocking mode (only
// then may it be used with raw system calls, which the runtime does not
// hand off when they block).
func nonblocking(f *os.File) bool {
	rc, err := f.SyscallConn()
	if err != nil {
		return false
	}
	nb := false
	_ = rc.Control(func(fd uintptr) {
		flags, _, e := syscall.RawSyscall(syscall.SYS_FCNTL, fd, syscall.F_GETFL, 0)
		nb = e == 0 && flags&syscall.O_NONBLOCK != 0
	})
	return nb
}

type rawFile struct {
	f  *os.File // kept: it owns the descriptor
	rc syscall.RawConn
}

func (r *rawFile) Read(b []byte) (int, error) { return rawio.Read(r.rc, b) }

func (r *rawFile) Write(b []byte) (int, error) { return rawio.Write(r.rc, b) }
