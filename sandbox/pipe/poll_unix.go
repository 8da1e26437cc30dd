//go:build unix

package pipe

import (
	"io"
	"os"
	"syscall"
	"unsafe"
)

// Why raw I/O (issue 12): the Go runtime's monitor thread (sysmon) sleeps
// while a process is idle, and every system call entered through the
// runtime's syscall path wakes it, after which it polls every 20 µs for a
// millisecond. A worker or a pool that handles a run every fraction of a
// millisecond kept it polling all the time: about a sixth of a worker's
// CPU. Reading and writing a pipe with raw system calls on a non-blocking
// descriptor, waiting in the runtime's poller when the pipe is empty or
// full, does not wake it.

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

func (r *rawFile) Read(b []byte) (int, error) {
	if len(b) == 0 {
		return 0, nil
	}
	var n int
	var rerr error
	err := r.rc.Read(func(fd uintptr) bool {
		for {
			m, _, e := syscall.RawSyscall(syscall.SYS_READ, fd, uintptr(unsafe.Pointer(&b[0])), uintptr(len(b)))
			switch e {
			case 0:
				n = int(m)
				if n == 0 {
					rerr = io.EOF
				}
				return true
			case syscall.EINTR:
				continue
			case syscall.EAGAIN:
				return false // wait in the poller
			default:
				rerr = e
				return true
			}
		}
	})
	if err != nil {
		return n, err
	}
	return n, rerr
}

func (r *rawFile) Write(b []byte) (int, error) {
	var n int
	var werr error
	err := r.rc.Write(func(fd uintptr) bool {
		for n < len(b) {
			m, _, e := syscall.RawSyscall(syscall.SYS_WRITE, fd, uintptr(unsafe.Pointer(&b[n])), uintptr(len(b)-n))
			switch e {
			case 0:
				n += int(m)
			case syscall.EINTR:
			case syscall.EAGAIN:
				return false // the pipe is full: wait in the poller
			default:
				werr = e
				return true
			}
		}
		return true
	})
	if err != nil {
		return n, err
	}
	if werr == nil && n < len(b) {
		werr = io.ErrShortWrite
	}
	return n, werr
}
