// Command loadgen drives many concurrent WebSocket sessions against a
// running playground and reports runs per second, latency percentiles
// (run message sent → done received) and the server's memory.
//
// Start a server whose rate limit will not refuse the load, then run it:
//
//	go run ./cmd/playground -addr 127.0.0.1:8080 -rate 1e6 -burst 1000000 &
//	go run ./cmd/loadgen -addr 127.0.0.1:8080 -conns 64 -duration 10s
//
// -file runs one file of your own instead of the two-file hello, e.g. a
// snippet that imports a library, to compare its throughput with the
// hello's on the same server (docs/benchmarks.md, issue 12).
//
// It only talks to the address it is given (loopback in this project's
// tests and benchmarks), stops by itself after -duration, and exits non-zero
// when a run fails for a reason other than the load (rate_limited and busy
// are counted, not failures).
//
// With -scenario it plays an attacker and a victim from two loopback source
// addresses against a server with its default flags instead (scenario.go):
//
//	go build -o /tmp/pga ./cmd/playground && /tmp/pga -addr 127.0.0.1:8099 &
//	go run ./cmd/loadgen -scenario flood-sleep -addr 127.0.0.1:8099 -duration 60s
//
// Scenarios: flood-sleep (the victim's latency while one IP floods runs
// that wait on the host), flood-kv and stalled-readers (the server's RSS
// over time), sockets and connections (WebSockets, or idle keep-alive TCP
// connections, held per IP and in all, and whether the victim still
// connects), and reattach (issue 25: detached runs whose socket is cut
// again and again, each time reattached with a watch from the last seq;
// lost and duplicated messages and the reattach latency):
//
//	go run ./cmd/loadgen -scenario reattach -addr 127.0.0.1:8099 -reattaches 1000
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/signal"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/coder/websocket"
	"github.com/playground-dev/playground/ws"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	if err := run(ctx, os.Args[1:], os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "loadgen:", err)
		os.Exit(1)
	}
}

// snippet is the load: the two-file TypeScript hello world of the benchmarks.
var snippet = []ws.File{
	{Path: "src/main.ts", Source: "import { greet } from './greet.js';\nconsole.log(greet('world'));\n"},
	{Path: "src/greet.ts", Source: "export function greet(name: string): string {\n  return `hello, ${name}`;\n}\n"},
}

type report struct {
	mu       sync.Mutex
	lat      []time.Duration
	outcomes map[string]int
	errs     []error
}

func run(ctx context.Context, args []string, out io.Writer) error {
	for _, a := range args {
		if name, _, _ := strings.Cut(strings.TrimLeft(a, "-"), "="); name == "scenario" && strings.HasPrefix(a, "-") {
			return runScenario(ctx, args, out)
		}
	}
	fs := flag.NewFlagSet("loadgen", flag.ContinueOnError)
	fs.String("scenario", "", "an attack scenario instead of the load: flood-sleep, flood-kv, stalled-readers, sockets or connections (see -scenario x -h)")
	addr := fs.String("addr", "127.0.0.1:8080", "playground `address` (host:port)")
	conns := fs.Int("conns", 64, "concurrent WebSocket sessions, each running one snippet after another")
	duration := fs.Duration("duration", 10*time.Second, "how long to send runs")
	idle := fs.Int("idle", 0, "extra idle sessions held open, to measure memory per idle socket")
	nWatchers := fs.Int("watchers", 0, "sockets that watch one more run, which logs every 20 ms through the load (issue 25: watching costs the load nothing measurable; the server's per-IP socket cap must allow them)")
	watchedOnly := fs.Bool("watched", false, "start -watchers' watched run even with no watcher: the baseline of a -watchers measurement, which pays for that run too")
	file := fs.String("file", "", "run this `file` (.js or .ts; one file, its base name) instead of the two-file hello, e.g. a snippet that imports a library")
	if err := fs.Parse(args); err != nil {
		return err
	}
	files := snippet
	if *file != "" {
		src, err := os.ReadFile(*file)
		if err != nil {
			return err
		}
		files = []ws.File{{Path: filepath.Base(*file), Source: string(src)}}
	}
	base := "http://" + *addr
	before, err := stats(ctx, base)
	if err != nil {
		return fmt.Errorf("server not reachable: %w", err)
	}

	dctx, cancel := context.WithTimeout(ctx, *duration+30*time.Second)
	defer cancel()
	var idleConns []*websocket.Conn
	defer func() {
		for _, c := range idleConns {
			c.CloseNow()
		}
	}()
	for range *idle {
		c, _, err := websocket.Dial(dctx, "ws://"+*addr+"/ws", &websocket.DialOptions{Subprotocols: []string{ws.Subprotocol}})
		if err != nil {
			return fmt.Errorf("idle dial: %w", err)
		}
		idleConns = append(idleConns, c)
	}
	var withIdle map[string]any
	if *idle > 0 {
		time.Sleep(500 * time.Millisecond)
		if withIdle, err = stats(ctx, base); err != nil {
			return err
		}
	}

	var watched func() string
	if *nWatchers > 0 || *watchedOnly {
		if watched, err = watchers(dctx, *addr, *nWatchers, *duration); err != nil {
			return fmt.Errorf("watchers: %w", err)
		}
	}
	rep := &report{outcomes: map[string]int{}}
	deadline := time.Now().Add(*duration)
	start := time.Now()
	var wg sync.WaitGroup
	for i := range *conns {
		wg.Go(func() { session(dctx, *addr, i, files, deadline, rep) })
	}
	wg.Wait()
	elapsed := time.Since(start)
	after, err := stats(ctx, base)
	if err != nil {
		return err
	}
	print(out, rep, elapsed, *conns, before, after, withIdle, *idle)
	if watched != nil {
		fmt.Fprintln(out, watched())
	}
	if len(rep.errs) > 0 {
		return fmt.Errorf("%d sessions failed; first: %w", len(rep.errs), rep.errs[0])
	}
	return nil
}

// session runs files one after another on one socket until deadline.
func session(ctx context.Context, addr string, n int, files []ws.File, deadline time.Time, rep *report) {
	c, _, err := websocket.Dial(ctx, "ws://"+addr+"/ws", &websocket.DialOptions{Subprotocols: []string{ws.Subprotocol}})
	if err != nil {
		rep.fail(err)
		return
	}
	defer c.CloseNow()
	c.SetReadLimit(4 << 20)
	if _, _, err := c.Read(ctx); err != nil { // hello
		rep.fail(err)
		return
	}
	for i := 0; time.Now().Before(deadline); i++ {
		id := fmt.Sprintf("s%d-%d", n, i)
		b, _ := json.Marshal(ws.Run{ID: id, Files: files})
		b = append([]byte(`{"type":"run",`), b[1:]...)
		t0 := time.Now()
		if err := c.Write(ctx, websocket.MessageText, b); err != nil {
			rep.fail(err)
			return
		}
		for {
			_, msg, err := c.Read(ctx)
			if err != nil {
				rep.fail(err)
				return
			}
			var m struct {
				Type, ID, Outcome string
			}
			if err := json.Unmarshal(msg, &m); err != nil {
				rep.fail(err)
				return
			}
			if m.Type == "done" && m.ID == id {
				rep.add(time.Since(t0), m.Outcome)
				break
			}
		}
	}
	c.Close(websocket.StatusNormalClosure, "")
}

func (r *report) add(d time.Duration, outcome string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.outcomes[outcome]++
	if outcome == "ok" {
		r.lat = append(r.lat, d)
	}
}

func (r *report) fail(err error) {
	if errors.Is(err, context.Canceled) {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	r.errs = append(r.errs, err)
}

func stats(ctx context.Context, base string) (map[string]any, error) {
	req, err := http.NewRequestWithContext(ctx, "GET", base+"/api/stats", nil)
	if err != nil {
		return nil, err
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	var m map[string]any
	return m, json.NewDecoder(resp.Body).Decode(&m)
}

func memory(st map[string]any) (server, workers float64) {
	server, _ = st["goMemoryBytes"].(float64)
	if p, ok := st["pool"].(map[string]any); ok {
		workers, _ = p["pssBytes"].(float64)
	}
	return server, workers
}

func print(out io.Writer, rep *report, elapsed time.Duration, conns int, before, after, withIdle map[string]any, idle int) {
	rep.mu.Lock()
	defer rep.mu.Unlock()
	slices.Sort(rep.lat)
	q := func(f float64) string {
		if len(rep.lat) == 0 {
			return "-"
		}
		return fmt.Sprintf("%.2f ms", float64(rep.lat[int(f*float64(len(rep.lat)-1))].Microseconds())/1000)
	}
	total := 0
	var outs []string
	for k, v := range rep.outcomes {
		total += v
		outs = append(outs, fmt.Sprintf("%s=%d", k, v))
	}
	sort.Strings(outs)
	mib := func(b float64) string { return fmt.Sprintf("%.1f MiB", b/(1<<20)) }
	bs, bw := memory(before)
	as, aw := memory(after)
	fmt.Fprintf(out, "sessions      %d for %v\n", conns, elapsed.Round(time.Millisecond))
	fmt.Fprintf(out, "runs          %d (%.0f runs/s)  %s\n", total, float64(total)/elapsed.Seconds(), strings.Join(outs, " "))
	fmt.Fprintf(out, "latency ok    p50 %s  p90 %s  p99 %s  max %s\n", q(0.5), q(0.9), q(0.99), q(1))
	fmt.Fprintf(out, "memory idle   server (Go) %s + workers (PSS) %s\n", mib(bs), mib(bw))
	fmt.Fprintf(out, "memory after  server (Go) %s + workers (PSS) %s\n", mib(as), mib(aw))
	if withIdle != nil {
		is, _ := memory(withIdle)
		fmt.Fprintf(out, "idle sockets  %d: server grew %s, %.1f KiB per socket\n", idle, mib(is-bs), (is-bs)/float64(idle)/1024)
	}
}
