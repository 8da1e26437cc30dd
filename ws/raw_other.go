//go:build !unix

package ws

import "net"

// rawSocket is used only on Unix (raw_unix.go).
type rawSocket struct{}

func newRawSocket(net.Conn) *rawSocket { return nil }

func (*rawSocket) read([]byte) (int, error)  { panic("unreachable") }
func (*rawSocket) write([]byte) (int, error) { panic("unreachable") }

func (*rawSocket) tryWrite([]byte) (int, error) { panic("unreachable") }
