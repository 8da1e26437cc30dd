//go:build unix

package ws

import (
	"io"
	"net"
	"os"
	"syscall"
	"unsafe"
)

// rawSocket reads and writes a TCP or Unix socket with raw system calls,
// waiting in the runtime's poller when the call would block. A system call
// entered through the runtime's syscall path wakes its monitor thread
// (sysmon) when the process was idle, which then polls every 20 µs for a
// millisecond: with a few frames per run that was about a sixth of the
// server's CPU (issue 12; the worker pipes do the same, sandbox/pipe).
type rawSocket struct {
	rc  syscall.RawConn
	net string
}

// newRawSocket returns nil when nc is not a plain TCP or Unix socket (TLS,
// a test's pipe): those are used as they are.
func newRawSocket(nc net.Conn) *rawSocket {
	var sc syscall.Conn
	switch c := nc.(type) {
	case *net.TCPConn:
		sc = c
	case *net.UnixConn:
		sc = c
	default:
		return nil
	}
	rc, err := sc.SyscallConn()
	if err != nil {
		return nil
	}
	return &rawSocket{rc: rc, net: nc.LocalAddr().Network()}
}

func (r *rawSocket) read(b []byte) (int, error) {
	if len(b) == 0 {
		return 0, nil
	}
	var n int
	var errno syscall.Errno
	err := r.rc.Read(func(fd uintptr) bool {
		for {
			m, _, e := syscall.RawSyscall(syscall.SYS_READ, fd, uintptr(unsafe.Pointer(&b[0])), uintptr(len(b)))
			switch e {
			case syscall.EINTR:
				continue
			case syscall.EAGAIN:
				return false // wait in the poller
			}
			n, errno = int(m), e
			return true
		}
	})
	switch {
	case err != nil:
		return 0, &net.OpError{Op: "read", Net: r.net, Err: err}
	case errno != 0:
		return 0, &net.OpError{Op: "read", Net: r.net, Err: os.NewSyscallError("read", errno)}
	case n == 0:
		return 0, io.EOF
	}
	return n, nil
}

func (r *rawSocket) write(b []byte) (int, error) {
	var n int
	var errno syscall.Errno
	err := r.rc.Write(func(fd uintptr) bool {
		for n < len(b) {
			m, _, e := syscall.RawSyscall(syscall.SYS_WRITE, fd, uintptr(unsafe.Pointer(&b[n])), uintptr(len(b)-n))
			switch e {
			case 0:
				n += int(m)
			case syscall.EINTR:
			case syscall.EAGAIN:
				return false // the socket buffer is full: wait in the poller
			default:
				errno = e
				return true
			}
		}
		return true
	})
	switch {
	case err != nil:
		return n, &net.OpError{Op: "write", Net: r.net, Err: err}
	case errno != 0:
		return n, &net.OpError{Op: "write", Net: r.net, Err: os.NewSyscallError("write", errno)}
	}
	return n, nil
}
