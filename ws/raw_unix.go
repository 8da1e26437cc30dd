//go:build unix

package ws

import (
	"io"
	"net"
	"os"
	"syscall"
	"unsafe"

	"github.com/playground-dev/playground/rawio"
)

// rawSocket reads and writes a TCP or Unix socket with raw system calls
// (rawio says why), errors wrapped as net.Conn's are.
type rawSocket struct {
	rc  syscall.RawConn
	net string
}

// newRawSocket returns nil when nc does not expose its descriptor
// (syscall.Conn: a TCP or Unix socket, or a wrapper such as web's
// LimitListener connections that forwards it) or is not a TCP or Unix
// socket (TLS, a test's pipe): those are used as they are.
func newRawSocket(nc net.Conn) *rawSocket {
	sc, ok := nc.(syscall.Conn)
	if !ok {
		return nil
	}
	switch nc.LocalAddr().Network() {
	case "tcp", "tcp4", "tcp6", "unix":
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
	n, err := rawio.Read(r.rc, b)
	if err != nil && err != io.EOF {
		err = &net.OpError{Op: "read", Net: r.net, Err: err}
	}
	return n, err
}

// tryWrite writes what of b the socket takes now, without waiting: n <
// len(b) with a nil error when it is full.
func (r *rawSocket) tryWrite(b []byte) (int, error) {
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
				return true // full: do not wait
			default:
				errno = e
				return true
			}
		}
		return true
	})
	if err == nil && errno != 0 {
		err = os.NewSyscallError("write", errno)
	}
	if err != nil {
		err = &net.OpError{Op: "write", Net: r.net, Err: err}
	}
	return n, err
}

func (r *rawSocket) write(b []byte) (int, error) {
	n, err := rawio.Write(r.rc, b)
	if err != nil {
		err = &net.OpError{Op: "write", Net: r.net, Err: err}
	}
	return n, err
}
