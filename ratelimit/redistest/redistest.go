// Package redistest starts a real redis-server (Debian's package, which
// scripts/test.sh installs) on a free loopback port for tests, without
// persistence, and stops it when the test ends. Tests of the shared limits
// (ratelimit) and of several server instances (cmd/playground) use it.
package redistest

import (
	"bytes"
	"fmt"
	"net"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"time"
)

// Server is a redis-server process started by a test.
type Server struct {
	t    testing.TB
	port int
	cmd  *exec.Cmd
}

// Start starts redis-server on a free loopback port and waits until it
// answers PING; it is killed when the test ends. A machine without
// redis-server fails the test, saying how to install it.
func Start(t testing.TB) *Server {
	t.Helper()
	if _, err := exec.LookPath("redis-server"); err != nil {
		t.Fatal("redis-server is not installed: run ./scripts/test.sh, which installs Debian's redis-server package")
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := l.Addr().(*net.TCPAddr).Port
	l.Close()
	r := &Server{t: t, port: port}
	r.Restart()
	t.Cleanup(r.Kill)
	return r
}

// URL is the server's redis:// URL.
func (r *Server) URL() string { return fmt.Sprintf("redis://127.0.0.1:%d/0", r.port) }

// Addr is the server's host:port.
func (r *Server) Addr() string { return fmt.Sprintf("127.0.0.1:%d", r.port) }

// Restart starts redis-server again on the same port (after Kill), empty.
func (r *Server) Restart() {
	r.t.Helper()
	var out bytes.Buffer
	r.cmd = exec.Command("redis-server", "--bind", "127.0.0.1", "--port", strconv.Itoa(r.port),
		"--save", "", "--appendonly", "no", "--protected-mode", "yes", "--dir", r.t.TempDir())
	r.cmd.Stdout, r.cmd.Stderr = &out, &out
	if err := r.cmd.Start(); err != nil {
		r.t.Fatalf("starting redis-server: %v", err)
	}
	for range 500 { // up to ~5s
		c, err := net.Dial("tcp", fmt.Sprintf("127.0.0.1:%d", r.port))
		if err == nil {
			c.Write([]byte("PING\r\n"))
			buf := make([]byte, 7)
			c.SetReadDeadline(time.Now().Add(time.Second))
			n, _ := c.Read(buf)
			c.Close()
			if strings.HasPrefix(string(buf[:n]), "+PONG") {
				return
			}
		}
		time.Sleep(10 * time.Millisecond)
	}
	r.t.Fatalf("redis-server did not answer on port %d:\n%s", r.port, out.String())
}

// Kill kills redis-server (SIGKILL: no goodbye to clients) and waits for it.
func (r *Server) Kill() {
	if r.cmd == nil {
		return
	}
	r.cmd.Process.Kill()
	r.cmd.Wait()
	r.cmd = nil
}
