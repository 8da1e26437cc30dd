//go:build !unix

package pipe

import (
	"io"
	"os"
)

// Stdio returns os.Stdin and os.Stdout: only Unix descriptors use raw
// system calls (poll_unix.go).
func Stdio() (io.Reader, io.Writer) { return os.Stdin, os.Stdout }

// RawFile returns f: only Unix descriptors use raw system calls (poll_unix.go).
func RawFile(f *os.File) io.ReadWriter { return f }
