package main

import (
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/coder/websocket"
	"github.com/playground-dev/playground/sandbox/worker"
	"go.uber.org/goleak"
)

func TestMain(m *testing.M) {
	worker.ServeIfWorker() // the pool re-executes this test binary as its worker
	goleak.VerifyTestMain(m)
}

// server starts the real playground (run) on a loopback port with extra
// flags and returns its address; it stops when the test ends.
func server(t *testing.T, flags ...string) string {
	t.Helper()
	addr, _ := startServer(t, flags...)
	return addr
}

// startServer starts the real playground like server and also returns stop,
// which shuts it down as SIGTERM does (drain, then close) and returns run's
// error once it has returned. Cleanup calls stop too; later calls return
// the first call's result.
func startServer(t *testing.T, flags ...string) (addr string, stop func() error) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	ready := make(chan string, 1)
	errc := make(chan error, 1)
	args := append([]string{"-addr", "127.0.0.1:0", "-log-level", "warn"}, flags...)
	go func() { errc <- run(ctx, args, func(string) string { return "" }, t.Output(), ready) }()
	select {
	case addr := <-ready:
		stop := sync.OnceValue(func() error { cancel(); return <-errc })
		t.Cleanup(func() {
			if err := stop(); err != nil {
				t.Errorf("run: %v", err)
			}
		})
		return addr, stop
	case err := <-errc:
		cancel()
		t.Fatalf("run: %v", err)
		return "", nil
	}
}

// msg is any server message, decoded loosely for assertions.
type msg map[string]any

func (m msg) str(k string) string { s, _ := m[k].(string); return s }
func (m msg) num(k string) float64 {
	f, _ := m[k].(float64)
	return f
}

type client struct {
	t     *testing.T
	c     *websocket.Conn
	hello msg
}

func dial(t *testing.T, addr string) *client {
	t.Helper()
	c, resp, err := dialFrom(t, addr, "")
	if err != nil {
		t.Fatalf("dial: %v", err)
	}
	if got := resp.Header.Get("Sec-WebSocket-Protocol"); got != "playground.v1" {
		t.Errorf("subprotocol = %q; want playground.v1", got)
	}
	return c
}

// dialFrom opens a session from source address src (a loopback address
// such as 127.0.0.2, so that one test has several client IPs; "" for the
// default) and reads its hello. On a refused upgrade it returns the
// response, whose body is still readable.
func dialFrom(t *testing.T, addr, src string) (*client, *http.Response, error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), 10*time.Second)
	defer cancel()
	opts := &websocket.DialOptions{Subprotocols: []string{"playground.v1"}}
	if src != "" {
		d := &net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(src)}}
		opts.HTTPClient = &http.Client{Transport: &http.Transport{DialContext: d.DialContext}}
	}
	c, resp, err := websocket.Dial(ctx, "ws://"+addr+"/ws", opts)
	if err != nil {
		return nil, resp, err
	}
	c.SetReadLimit(16 << 20)
	t.Cleanup(func() { c.CloseNow() })
	cl := &client{t: t, c: c}
	cl.hello = cl.read()
	if cl.hello.str("type") != "hello" || cl.hello.str("protocol") != "playground.v1" {
		t.Fatalf("first message = %v; want hello", cl.hello)
	}
	return cl, resp, nil
}

func (c *client) send(v any) {
	c.t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		c.t.Fatal(err)
	}
	c.sendRaw(websocket.MessageText, b)
}

func (c *client) sendRaw(typ websocket.MessageType, b []byte) {
	c.t.Helper()
	ctx, cancel := context.WithTimeout(c.t.Context(), 5*time.Second)
	defer cancel()
	if err := c.c.Write(ctx, typ, b); err != nil {
		c.t.Fatalf("write: %v", err)
	}
}

func (c *client) read() msg {
	c.t.Helper()
	ctx, cancel := context.WithTimeout(c.t.Context(), 60*time.Second) // a guard only: runs under -race on a loaded machine are slow
	defer cancel()
	_, b, err := c.c.Read(ctx)
	if err != nil {
		c.t.Fatalf("read: %v", err)
	}
	var m msg
	if err := json.Unmarshal(b, &m); err != nil {
		c.t.Fatalf("server sent non-JSON %q: %v", b, err)
	}
	return m
}

// until reads messages of run id until its done, checking seq has no gaps.
func (c *client) until(id string) []msg {
	c.t.Helper()
	return c.continueUntil(id, nil)
}

// continueUntil is until for a run whose first messages were already read.
func (c *client) continueUntil(id string, out []msg) []msg {
	c.t.Helper()
	for {
		m := c.read()
		if m.str("id") != id {
			continue
		}
		if got, want := m.num("seq"), float64(len(out)+1); got != want {
			c.t.Fatalf("message %v has seq %v; want %v", m, got, want)
		}
		out = append(out, m)
		if m.str("type") == "done" {
			return out
		}
	}
}

func runMsg(id string, files ...string) map[string]any {
	var fs []map[string]string
	for i := 0; i+1 < len(files); i += 2 {
		fs = append(fs, map[string]string{"path": files[i], "source": files[i+1]})
	}
	return map[string]any{"type": "run", "id": id, "files": fs}
}

func types(ms []msg) string {
	var s []string
	for _, m := range ms {
		s = append(s, m.str("type"))
	}
	return strings.Join(s, " ")
}

func only(ms []msg, typ string) []msg {
	var out []msg
	for _, m := range ms {
		if m.str("type") == typ {
			out = append(out, m)
		}
	}
	return out
}

func stats(t *testing.T, addr string) map[string]float64 {
	t.Helper()
	resp, err := http.Get("http://" + addr + "/api/stats")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var st map[string]any
	if err := json.NewDecoder(resp.Body).Decode(&st); err != nil {
		t.Fatal(err)
	}
	out := map[string]float64{}
	for k, v := range st {
		if f, ok := v.(float64); ok {
			out[k] = f
		}
	}
	return out
}

func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

const counterTS = `export class Counter {
  value: number = 0;
  inc(by: number = 1): number { this.value += by; return this.value; }
}
`

// untilStarted reads a run's messages up to its started and returns them:
// a queued before it is allowed (a worker still starting, a slot not yet
// given back on a busy machine), as the protocol allows; tests that need
// "running now" read this rather than assert that started came first.
func (c *client) untilStarted() []msg {
	c.t.Helper()
	var out []msg
	for {
		m := c.read()
		out = append(out, m)
		switch m.str("type") {
		case "started":
			return out
		case "queued":
			if len(out) == 1 {
				continue
			}
		}
		c.t.Fatalf("messages %s; want started (after at most one queued)", types(out))
	}
}

// waitIdle waits until the pool holds n started, idle workers: a test whose
// property needs runs to start at once (not queued behind a worker still
// starting) waits for this first.
func waitIdle(t *testing.T, addr string, n int) {
	t.Helper()
	waitFor(t, fmt.Sprintf("%d idle workers", n), func() bool {
		resp, err := http.Get("http://" + addr + "/api/stats")
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		var st struct{ Pool struct{ Idle int } }
		if err := json.NewDecoder(resp.Body).Decode(&st); err != nil {
			t.Fatal(err)
		}
		return st.Pool.Idle >= n
	})
}
