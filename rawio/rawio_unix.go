//go:build unix

package rawio

import (
	"io"
	"os"
	"syscall"
	"unsafe"
)

// Read reads into b from the descriptor of rc, which must be non-blocking
// and registered with the poller. It returns io.EOF at the end of input, a
// poller error (a deadline, a closed descriptor) as rc.Read returns it,
// and a failed read as an *os.SyscallError. Use it from one reader at a time.
func Read(rc syscall.RawConn, b []byte) (int, error) {
	if len(b) == 0 {
		return 0, nil
	}
	var n int
	var errno syscall.Errno
	err := rc.Read(func(fd uintptr) bool {
		for {
			m, _, e := syscall.RawSyscall(syscall.SYS_READ, fd, uintptr(unsafe.Pointer(&b[0])), uintptr(len(b)))
			switch e {
			case syscall.EINTR:
				continue
			case syscall.EAGAIN:
				return false // nothing to read: wait in the poller
			}
			n, errno = int(m), e
			return true
		}
	})
	switch {
	case err != nil:
		return 0, err
	case errno != 0:
		return 0, os.NewSyscallError("read", errno)
	case n == 0:
		return 0, io.EOF
	}
	return n, nil
}

// Write writes all of b to the descriptor of rc (non-blocking, registered
// with the poller), waiting in the poller while it is full. It returns how
// many bytes were written and, when not all, the poller's error or an
// *os.SyscallError. Use it from one writer at a time.
func Write(rc syscall.RawConn, b []byte) (int, error) {
	var n int
	var errno syscall.Errno
	err := rc.Write(func(fd uintptr) bool {
		for n < len(b) {
			m, _, e := syscall.RawSyscall(syscall.SYS_WRITE, fd, uintptr(unsafe.Pointer(&b[n])), uintptr(len(b)-n))
			switch e {
			case 0:
				n += int(m)
			case syscall.EINTR:
			case syscall.EAGAIN:
				return false // full: wait in the poller
			default:
				errno = e
				return true
			}
		}
		return true
	})
	switch {
	case err != nil:
		return n, err
	case errno != 0:
		return n, os.NewSyscallError("write", errno)
	}
	return n, nil
}
