package sandbox

import (
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/playground-dev/playground/sandbox/pipe"
)

// proc is one worker process, seen from the parent. Its reader goroutine
// turns stdout lines into messages on lines, closed when the process's
// stdout ends; exited is closed once the process has been waited for.
type proc struct {
	cmd    *exec.Cmd
	stdin  io.WriteCloser
	in     *pipe.Writer // on stdin; shared by the run loop and host replies
	lines  chan []byte
	exited chan struct{}
	stderr *stderrBuffer
	runs   int
	// lastClient is the pipe.Job.Client of the last job sent to it; set
	// by the run that holds the worker, read by the take that finds it
	// idle (the idle set's channel orders the two).
	lastClient string

	retired atomic.Bool // the pool retired it (retire runs once per worker)
	idle    atomic.Bool // it sits in the pool's idle set

	mu       sync.Mutex // guards the fields below
	killed   bool       // the parent killed it
	tooLong  bool       // a line exceeded maxLine
	waitErr  error
	exitCode int
}

// startProc starts a worker and waits for its ready line, giving up when
// stop is closed.
func startProc(argv, env []string, maxLine int, readyTimeout time.Duration, stop <-chan struct{}) (_ *proc, err error) {
	defer wrapErr(&err, "start worker")
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Env = env
	cmd.Dir = "/"
	cmd.SysProcAttr = workerSysProcAttr()
	p := &proc{cmd: cmd, lines: make(chan []byte, 256), exited: make(chan struct{}), stderr: &stderrBuffer{max: 16 << 10}}
	cmd.Stderr = p.stderr
	// The pipes are os.Pipe's (non-blocking, polled), read and written with
	// raw system calls (pipe.RawFile) so that a run's messages do not wake
	// the runtime's monitor thread.
	stdinR, stdinW, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	stdoutR, stdoutW, err := os.Pipe()
	if err != nil {
		stdinR.Close()
		stdinW.Close()
		return nil, err
	}
	cmd.Stdin, cmd.Stdout = stdinR, stdoutW
	err = cmd.Start()
	stdinR.Close() // the child's ends: the child holds them now
	stdoutW.Close()
	if err != nil {
		stdinW.Close()
		stdoutR.Close()
		return nil, err
	}
	p.stdin = stdinW
	p.in = pipe.NewWriter(pipe.RawFile(stdinW))
	go p.read(stdoutR, maxLine)
	select {
	case line, ok := <-p.lines:
		var m pipe.Message
		if ok && pipe.DecodeMessage(line, &m) == nil && m.Ready {
			return p, nil
		}
		p.kill()
		<-p.exited
		return nil, fmt.Errorf("no ready line (exit %s): %s", p.exitStatus(), p.stderr.String())
	case <-time.After(readyTimeout):
		p.kill()
		<-p.exited
		return nil, fmt.Errorf("not ready after %v: %s", readyTimeout, p.stderr.String())
	case <-stop:
		p.kill()
		<-p.exited
		return nil, ErrClosed
	}
}

// read is the process's stdout reader and its waiter. A line over maxLine
// kills the process (lineTooLong then reports it).
func (p *proc) read(stdout *os.File, maxLine int) {
	defer stdout.Close()
	lr := pipe.NewReader(pipe.RawFile(stdout), maxLine)
	for {
		line, err := lr.Next()
		if errors.Is(err, pipe.ErrLineTooLong) {
			p.mu.Lock()
			p.tooLong = true
			p.mu.Unlock()
			p.kill()
			break
		}
		if err != nil {
			break
		}
		p.lines <- line
	}
	close(p.lines)
	_, _ = io.Copy(io.Discard, stdout)
	err := p.cmd.Wait()
	p.mu.Lock()
	p.waitErr = err
	p.exitCode = p.cmd.ProcessState.ExitCode()
	p.mu.Unlock()
	close(p.exited)
}

// send writes one command line.
func (p *proc) send(c pipe.Command) error { return p.in.Write(c) }

// kill ends the process at once. It is safe to call more than once.
func (p *proc) kill() {
	p.mu.Lock()
	p.killed = true
	p.mu.Unlock()
	if p.cmd.Process != nil {
		_ = p.cmd.Process.Kill()
	}
}

// dead reports whether the process has exited.
func (p *proc) dead() bool {
	select {
	case <-p.exited:
		return true
	default:
		return false
	}
}

func (p *proc) wasKilled() bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.killed
}

// killedFromOutside reports whether the exited process ended by a signal
// that only another process sends (SIGKILL, SIGTERM, SIGINT, SIGHUP): not
// by its own exit or crash (a Go fatal error exits 2; an abort or a fault
// is SIGABRT, SIGSEGV or SIGBUS). Call it after exited is closed.
func (p *proc) killedFromOutside() bool {
	return p.cmd.ProcessState != nil && outsideSignal(p.cmd.ProcessState)
}

func (p *proc) lineTooLong() bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.tooLong
}

func (p *proc) exitStatus() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.waitErr == nil {
		return "0"
	}
	return strconv.Itoa(p.exitCode) + " " + p.waitErr.Error()
}

// close stops the process: its stdin ends (a worker between runs exits), it
// is killed if it has not exited within grace, and close reads what it
// still writes until it is gone, so its reader never blocks.
func (p *proc) close(grace time.Duration) {
	_ = p.stdin.Close()
	t := time.AfterFunc(grace, p.kill)
	defer t.Stop()
	for range p.lines {
	}
	<-p.exited
}

// stderrBuffer keeps the first and the last max/2 bytes written to it: a
// Go runtime crash says what happened first ("fatal error: …") and where
// last. It is safe for concurrent use.
type stderrBuffer struct {
	max  int
	mu   sync.Mutex
	head []byte
	tail []byte
	cut  bool
}

func (t *stderrBuffer) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	n := len(p)
	if room := t.max/2 - len(t.head); room > 0 {
		k := min(room, len(p))
		t.head = append(t.head, p[:k]...)
		p = p[k:]
	}
	t.tail = append(t.tail, p...)
	if len(t.tail) > t.max/2 {
		t.tail = append(t.tail[:0], t.tail[len(t.tail)-t.max/2:]...)
		t.cut = true
	}
	return n, nil
}

func (t *stderrBuffer) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.cut {
		return string(t.head) + "\n…\n" + string(t.tail)
	}
	return string(t.head) + string(t.tail)
}

func wrapErr(err *error, msg string) {
	if *err != nil {
		*err = fmt.Errorf("%s: %w", msg, *err)
	}
}

var errWorkerUnavailable = errors.New("no sandbox worker is available")
