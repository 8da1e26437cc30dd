package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"log"
	"maps"
	"net"
	"net/http"
	"slices"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/coder/websocket"
	"github.com/playground-dev/playground/ws"
)

// Scenarios (-scenario) play an attacker and a victim, two client IPs
// (distinct loopback source addresses: any 127/8 address reaches a server
// bound to 127.0.0.1), against a server with its default flags:
//
//   - flood-sleep: the attacker keeps runs that only wait on the host
//     (three host.sleep(10000), timeoutMs 30000) going from -attack-sockets
//     sockets, resending at once after each done and after each refusal's
//     retryAfterMs (so at the rate the server allows); the victim runs the
//     hello world every -victim-every. Goal (issue 8): the victim's p99 ≤
//     50 ms and never busy.
//   - flood-kv: attacker tabs fill host.kv (64,000-character values under
//     new keys until kv.set fails), then close, and new tabs follow; the
//     server's RSS is sampled. Goal: bounded.
//   - stalled-readers: attacker sockets send log-heavy runs and never read;
//     a socket that errors is replaced. Goal: RSS bounded.
//   - sockets: the attacker opens sockets as fast as it can and holds them;
//     the victim connects and runs every -victim-every. Goal: sockets per
//     IP and in all bounded, the victim always connects.
//   - connections: like sockets, but plain TCP connections that make one
//     HTTP request (GET /healthz, keep-alive) and then idle, which no
//     WebSocket cap counts. Goal: the server's open files bounded, the
//     victim always connects.
//
// Every scenario samples the server's RSS (VmRSS of -pid, or of the process
// listening on -addr's port, found through /proc) and /api/stats, and runs
// the victim, whose latencies and refusals it reports.
var scenarios = map[string]func(*scenario) attack{
	"flood-sleep":     floodSleep,
	"flood-kv":        floodKV,
	"stalled-readers": stalledReaders,
	"sockets":         socketFlood,
	"connections":     connectionFlood,
}

// attack is one attacker goroutine's body, run from each attacker address.
type attack func(ctx context.Context, src string)

// scenario is one scenario run: its options and its tallies.
type scenario struct {
	name        string
	addr        string
	attackers   []string // source addresses
	victim      string
	sockets     int // attacker sockets per address
	victimEvery time.Duration

	dialed, refused, dropped atomic.Int64 // attacker sockets
	open                     atomic.Int64 // attacker sockets open now
	maxOpen                  atomic.Int64
	refusals                 sync.Map // "429"/"503"/other → *atomic.Int64

	mu        sync.Mutex
	attackOut map[string]int    // attacker outcomes
	victimOut map[string]int    // victim outcomes (plus dial failures)
	examples  map[string]string // an attacker outcome → its first run's first error
	victimLat []time.Duration
	victimQ   []float64 // done.stats.queueMs of the victim's ok runs: time waiting for a slot and a worker
	victimDur []float64 // done.durationMs of them: the server's own view of the run
	queued    int       // victim runs that were queued
}

func runScenario(ctx context.Context, args []string, out io.Writer) error {
	fs := flag.NewFlagSet("loadgen -scenario", flag.ContinueOnError)
	name := fs.String("scenario", "", "flood-sleep, flood-kv, stalled-readers, sockets, connections or reattach")
	addr := fs.String("addr", "127.0.0.1:8080", "playground `address` (host:port)")
	duration := fs.Duration("duration", 30*time.Second, "how long the attack lasts")
	attackers := fs.String("attacker", "127.0.0.2", "comma-separated attacker source `addresses`, or N for N addresses from 127.0.1.1 up")
	victim := fs.String("victim", "127.0.0.3", "victim source `address`")
	sockets := fs.Int("attack-sockets", 0, "sockets per attacker address (0: 32 for flood-sleep and stalled-readers, 16 for flood-kv, 2000 for sockets, 19000 for connections)")
	every := fs.Duration("victim-every", 300*time.Millisecond, "pause between the victim's runs (its own rate limit is 4/s by default)")
	pid := fs.Int("pid", 0, "server `pid` for RSS samples (0: the process listening on -addr's port)")
	sample := fs.Duration("sample", time.Second, "RSS and stats sampling interval")
	noAttack := fs.Bool("no-attack", false, "run the victim alone: the baseline the attack is compared with")
	reattaches := fs.Int("reattaches", 1000, "reattach: forced disconnects and reattaches")
	reattachTo := fs.String("reattach-to", "", "reattach: comma-separated `addresses` of more instances (sharing one -redis) that reattaches go to in turn")
	lines := fs.Int("lines", 500, "reattach: lines each detached run logs, 1 ms apart (each a host call: at most -max-host-calls)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *name == "reattach" { // one client, no attacker (reattach.go)
		if net.ParseIP(*victim) == nil {
			return fmt.Errorf("-victim %q is not an IP address", *victim)
		}
		if *reattaches <= 0 || *lines <= 0 {
			return fmt.Errorf("-reattaches %d, -lines %d: both must be positive", *reattaches, *lines)
		}
		var others []string
		for _, a := range strings.Split(*reattachTo, ",") {
			if a = strings.TrimSpace(a); a != "" {
				others = append(others, a)
			}
		}
		return runReattach(ctx, *addr, others, *victim, *reattaches, *lines, out)
	}
	mk, ok := scenarios[*name]
	if !ok {
		return fmt.Errorf("unknown -scenario %q; want one of %s or reattach", *name, strings.Join(slices.Sorted(maps.Keys(scenarios)), ", "))
	}
	srcs, err := sources(*attackers)
	if err != nil {
		return err
	}
	if net.ParseIP(*victim) == nil {
		return fmt.Errorf("-victim %q is not an IP address", *victim)
	}
	if *sockets <= 0 {
		*sockets = map[string]int{"flood-kv": 16, "sockets": 2000, "connections": 19000}[*name]
		if *sockets == 0 {
			*sockets = 32
		}
	}
	base := "http://" + *addr
	if _, err := stats(ctx, base); err != nil {
		return fmt.Errorf("server not reachable: %w", err)
	}
	// net/http logs each connection the server refuses before the request
	// ("Unsolicited response received on idle HTTP channel"): counted, not
	// printed.
	log.SetOutput(io.Discard)
	if *pid == 0 {
		_, port, err := net.SplitHostPort(*addr)
		if err != nil {
			return err
		}
		if *pid, err = listenerPID(port); err != nil {
			return fmt.Errorf("finding the server's pid (give -pid): %w", err)
		}
	}
	s := &scenario{name: *name, addr: *addr, attackers: srcs, victim: *victim, sockets: *sockets, victimEvery: *every,
		attackOut: map[string]int{}, victimOut: map[string]int{}, examples: map[string]string{}}

	actx, cancel := context.WithTimeout(ctx, *duration)
	defer cancel()
	mon := monitor(actx, *pid, base, *sample)
	start := time.Now()
	var wg sync.WaitGroup
	body := mk(s)
	if *noAttack {
		s.attackers = []string{"none (-no-attack)"}
		srcs = nil
	}
	for _, src := range srcs {
		wg.Go(func() { body(actx, src) })
	}
	wg.Go(func() { s.victimLoop(actx) })
	wg.Wait()
	samples := <-mon
	s.print(out, time.Since(start), *pid, samples)
	return nil
}

// sources parses -attacker: addresses, or a count of addresses from
// 127.0.1.1 up (never the victim's 127.0.0.x).
func sources(s string) ([]string, error) {
	var n int
	if _, err := fmt.Sscanf(s, "%d", &n); err == nil && !strings.Contains(s, ".") {
		if n < 1 || n > 60000 {
			return nil, fmt.Errorf("-attacker %d: want 1 to 60000 addresses", n)
		}
		out := make([]string, n)
		for i := range out {
			out[i] = fmt.Sprintf("127.0.%d.%d", 1+i/250, 1+i%250)
		}
		return out, nil
	}
	var out []string
	for _, a := range strings.Split(s, ",") {
		if net.ParseIP(strings.TrimSpace(a)) == nil {
			return nil, fmt.Errorf("-attacker: %q is not an IP address", a)
		}
		out = append(out, strings.TrimSpace(a))
	}
	return out, nil
}

// dial opens a session from source address src and reads its hello. On a
// refused upgrade the error names the HTTP status.
func dial(ctx context.Context, addr, src string) (*websocket.Conn, error) {
	d := &net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(src)}, Timeout: 10 * time.Second}
	client := &http.Client{Transport: &http.Transport{DialContext: d.DialContext}}
	defer client.CloseIdleConnections() // a refused upgrade's connection is not kept alive
	dctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	c, resp, err := websocket.Dial(dctx, "ws://"+addr+"/ws", &websocket.DialOptions{
		Subprotocols: []string{ws.Subprotocol}, HTTPClient: client})
	if err != nil {
		if resp != nil {
			return nil, &refusedError{status: resp.StatusCode, err: err}
		}
		return nil, err
	}
	c.SetReadLimit(32 << 20)
	if _, _, err := c.Read(dctx); err != nil { // hello
		c.CloseNow()
		return nil, err
	}
	return c, nil
}

type refusedError struct {
	status int
	err    error
}

func (e *refusedError) Error() string { return fmt.Sprintf("upgrade refused: %d: %v", e.status, e.err) }

// attackerDial dials for the attacker and counts what happened.
func (s *scenario) attackerDial(ctx context.Context, src string) *websocket.Conn {
	c, err := dial(ctx, s.addr, src)
	if err != nil {
		if ctx.Err() == nil {
			s.refused.Add(1)
			reason := "error"
			var re *refusedError
			if errors.As(err, &re) {
				reason = fmt.Sprint(re.status)
			}
			n, _ := s.refusals.LoadOrStore(reason, new(atomic.Int64))
			n.(*atomic.Int64).Add(1)
		}
		return nil
	}
	s.dialed.Add(1)
	n := s.open.Add(1)
	for m := s.maxOpen.Load(); n > m && !s.maxOpen.CompareAndSwap(m, n); m = s.maxOpen.Load() {
	}
	return c
}

func (s *scenario) attackerClose(c *websocket.Conn) {
	c.CloseNow()
	s.open.Add(-1)
}

// runMessage encodes a run message.
func runMessage(id, source string, timeoutMs float64) []byte {
	r := ws.Run{ID: id, Files: []ws.File{{Path: "src/main.ts", Source: source}}}
	if timeoutMs > 0 {
		r.TimeoutMs = &timeoutMs
	}
	b, _ := json.Marshal(r)
	return append([]byte(`{"type":"run",`), b[1:]...)
}

type serverMsg struct {
	Type, ID, Outcome string
	RetryAfterMs      float64
	Kind, Message     string // of an error
	DurationMs        float64
	Stats             struct{ QueueMs float64 }
	err               string // the run's first error event, on its done
}

// await reads c until run id's done and returns it; queued says whether a
// queued message came first.
func await(ctx context.Context, c *websocket.Conn, id string) (done serverMsg, queued bool, err error) {
	first := ""
	for {
		_, b, err := c.Read(ctx)
		if err != nil {
			return done, queued, err
		}
		var m serverMsg
		if err := json.Unmarshal(b, &m); err != nil {
			return done, queued, err
		}
		if m.ID != id {
			continue
		}
		switch m.Type {
		case "queued":
			queued = true
		case "error":
			if first == "" {
				first = m.Kind + ": " + m.Message[:min(len(m.Message), 120)]
			}
		case "done":
			m.err = first
			return m, queued, nil
		}
	}
}

// pause sleeps d or until ctx ends; it reports whether ctx is still live.
func pause(ctx context.Context, d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-ctx.Done():
		return false
	}
}

// retry is how long to wait after a done: its retryAfterMs when refused.
func retry(m serverMsg) time.Duration {
	if m.Outcome == "busy" || m.Outcome == "rate_limited" {
		return max(time.Duration(m.RetryAfterMs)*time.Millisecond, 50*time.Millisecond)
	}
	return 0
}

const sleeper = "import { host } from 'playground';\nawait host.sleep(10000);\nawait host.sleep(10000);\nawait host.sleep(10000);\n"

// floodSleep: each attacker socket keeps a sleeping run going.
func floodSleep(s *scenario) attack {
	return s.perSocket(func(ctx context.Context, c *websocket.Conn, n int) bool {
		for i := 0; ; i++ {
			id := fmt.Sprintf("a%d-%d", n, i)
			if c.Write(ctx, websocket.MessageText, runMessage(id, sleeper, 30000)) != nil {
				return false
			}
			m, _, err := await(ctx, c, id)
			if err != nil {
				return false
			}
			s.count(s.attackOut, m.Outcome)
			if !pause(ctx, retry(m)) {
				return false
			}
		}
	})
}

// kvFiller writes 64,000-character values under new keys until kv.set
// fails (per-tab key limit, per-client or total budget) or the run's output
// budget ends it.
const kvFiller = `import { host } from 'playground';
const v = 'x'.repeat(64000);
const base = (await host.kv.list()).length;
for (let i = 0; i < 100; i++) {
  try { await host.kv.set('k' + (base + i), v); } catch (e) { console.log('kv.set failed: ' + e.message); break; }
}
`

// floodKV: each attacker tab fills host.kv over a few runs, then closes;
// a new tab takes its place.
func floodKV(s *scenario) attack {
	return s.perSocket(func(ctx context.Context, c *websocket.Conn, n int) bool {
		for i := range 8 {
			id := fmt.Sprintf("kv%d-%d", n, i)
			if c.Write(ctx, websocket.MessageText, runMessage(id, kvFiller, 10000)) != nil {
				return false
			}
			m, _, err := await(ctx, c, id)
			if err != nil {
				return false
			}
			s.outcome(m)
			if !pause(ctx, retry(m)) {
				return false
			}
		}
		return true // close the tab, open another
	})
}

// logFlood sends as much console output as a run may.
const logFlood = "const s = 'x'.repeat(8000);\nfor (let i = 0; i < 100000; i++) console.log(s, i);\n"

// stalledReaders: each attacker socket sends log-heavy runs, four a second,
// and never reads; when a write fails the socket is replaced.
func stalledReaders(s *scenario) attack {
	return s.perSocket(func(ctx context.Context, c *websocket.Conn, n int) bool {
		for i := 0; ; i++ {
			wctx, cancel := context.WithTimeout(ctx, 5*time.Second)
			err := c.Write(wctx, websocket.MessageText, runMessage(fmt.Sprintf("log%d-%d", n, i), logFlood, 10000))
			cancel()
			if err != nil {
				if ctx.Err() == nil {
					s.dropped.Add(1)
				}
				return true
			}
			s.count(s.attackOut, "sent")
			if !pause(ctx, 250*time.Millisecond) {
				return false
			}
		}
	})
}

// socketFlood: open sockets from each attacker address as fast as they are
// accepted, hold them, and keep trying for more until the end.
func socketFlood(s *scenario) attack {
	return func(ctx context.Context, src string) {
		var mu sync.Mutex
		var held []*websocket.Conn
		defer func() {
			for _, c := range held {
				s.attackerClose(c)
			}
		}()
		var wg sync.WaitGroup
		for range min(s.sockets, 64) { // 64 dialers per address
			wg.Go(func() {
				for ctx.Err() == nil {
					mu.Lock()
					full := len(held) >= s.sockets
					mu.Unlock()
					if full {
						pause(ctx, time.Second)
						continue
					}
					c := s.attackerDial(ctx, src)
					if c == nil {
						pause(ctx, 10*time.Millisecond)
						continue
					}
					mu.Lock()
					held = append(held, c)
					mu.Unlock()
				}
			})
		}
		wg.Wait()
	}
}

// connectionFlood: open TCP connections from each attacker address as
// fast as they are accepted, make one keep-alive request on each, and hold
// them until the server closes them or the scenario ends.
func connectionFlood(s *scenario) attack {
	return func(ctx context.Context, src string) {
		var wg sync.WaitGroup
		for range min(s.sockets, 64) { // 64 dialers per address
			wg.Go(func() {
				d := &net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(src)}, Timeout: 5 * time.Second}
				req := []byte("GET /healthz HTTP/1.1\r\nHost: " + s.addr + "\r\n\r\n")
				for ctx.Err() == nil {
					if s.open.Load() >= int64(s.sockets) {
						pause(ctx, 100*time.Millisecond)
						continue
					}
					c, err := d.DialContext(ctx, "tcp", s.addr)
					if err == nil {
						_ = c.SetDeadline(time.Now().Add(5 * time.Second))
						if _, err = c.Write(req); err == nil {
							buf := make([]byte, 512)
							var n int
							n, err = c.Read(buf)
							if err == nil && !strings.HasPrefix(string(buf[:n]), "HTTP/1.1 200") {
								err = &refusedError{err: fmt.Errorf("answer %q", buf[:min(n, 40)])}
								fmt.Sscanf(string(buf[:n]), "HTTP/1.1 %d", &err.(*refusedError).status)
							}
						}
						if err != nil {
							c.Close()
						}
					}
					if err != nil {
						if ctx.Err() == nil {
							s.refused.Add(1)
							reason := "error" // reset, refused, timeout
							var re *refusedError
							if errors.As(err, &re) {
								reason = fmt.Sprint(re.status)
							}
							n, _ := s.refusals.LoadOrStore(reason, new(atomic.Int64))
							n.(*atomic.Int64).Add(1)
							pause(ctx, 10*time.Millisecond)
						}
						continue
					}
					s.dialed.Add(1)
					n := s.open.Add(1)
					for m := s.maxOpen.Load(); n > m && !s.maxOpen.CompareAndSwap(m, n); m = s.maxOpen.Load() {
					}
					wg.Go(func() { // hold it until the server closes it or the end
						_ = c.SetDeadline(time.Time{})
						stop := context.AfterFunc(ctx, func() { c.Close() })
						defer stop()
						_, _ = c.Read(make([]byte, 1))
						c.Close()
						s.open.Add(-1)
						if ctx.Err() == nil {
							s.dropped.Add(1)
						}
					})
				}
			})
		}
		wg.Wait()
	}
}

// perSocket runs body on s.sockets sockets from the attacker address, each
// redialled when body returns true (and after a refused dial, with a short
// pause), until ctx ends.
func (s *scenario) perSocket(body func(ctx context.Context, c *websocket.Conn, n int) bool) attack {
	return func(ctx context.Context, src string) {
		var wg sync.WaitGroup
		for n := range s.sockets {
			wg.Go(func() {
				for ctx.Err() == nil {
					c := s.attackerDial(ctx, src)
					if c == nil {
						pause(ctx, 250*time.Millisecond)
						continue
					}
					again := body(ctx, c, n)
					s.attackerClose(c)
					if !again {
						if ctx.Err() == nil {
							s.dropped.Add(1)
							pause(ctx, 100*time.Millisecond)
							continue
						}
						return
					}
				}
			})
		}
		wg.Wait()
	}
}

// victimLoop runs the hello world from the victim address every
// s.victimEvery on one socket, redialling when it breaks; it records each
// run's latency (run sent → done), its outcome and whether it was queued.
func (s *scenario) victimLoop(ctx context.Context) {
	hello := `console.log("hello, world");`
	var c *websocket.Conn
	defer func() {
		if c != nil {
			c.CloseNow()
		}
	}()
	for i := 0; pause(ctx, s.victimEvery); i++ {
		if c == nil {
			var err error
			if c, err = dial(ctx, s.addr, s.victim); err != nil {
				if ctx.Err() == nil {
					s.count(s.victimOut, "dial failed")
				}
				c = nil
				continue
			}
		}
		id := fmt.Sprintf("v%d", i)
		t0 := time.Now()
		if err := c.Write(ctx, websocket.MessageText, runMessage(id, hello, 0)); err != nil {
			c.CloseNow()
			c = nil
			continue
		}
		m, queued, err := await(ctx, c, id)
		if err != nil {
			if ctx.Err() == nil {
				s.count(s.victimOut, "socket error")
			}
			c.CloseNow()
			c = nil
			continue
		}
		d := time.Since(t0)
		s.mu.Lock()
		s.victimOut[m.Outcome]++
		if m.Outcome == "ok" {
			s.victimLat = append(s.victimLat, d)
			s.victimQ = append(s.victimQ, m.Stats.QueueMs)
			s.victimDur = append(s.victimDur, m.DurationMs)
		}
		if queued {
			s.queued++
		}
		s.mu.Unlock()
		if s.name == "sockets" || s.name == "connections" { // a fresh socket for every run: the victim must still connect
			c.CloseNow()
			c = nil
		}
	}
}

// outcome counts an attacker run's outcome, and keeps the first error of
// each outcome that had one as its example.
func (s *scenario) outcome(m serverMsg) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.attackOut[m.Outcome]++
	if _, ok := s.examples[m.Outcome]; !ok && m.err != "" {
		s.examples[m.Outcome] = m.err
	}
}

func (s *scenario) count(m map[string]int, k string) {
	s.mu.Lock()
	m[k]++
	s.mu.Unlock()
}

// sample is one monitor reading.
type sample struct {
	at       time.Duration
	rss      int64         // bytes, -1 when unreadable
	fds      int           // -1 when unreadable
	cpu      time.Duration // user+sys, -1 when unreadable
	sessions float64
	goMem    float64
}

// monitor samples the server every interval until ctx ends, then sends
// the samples (one more taken at the end).
func monitor(ctx context.Context, pid int, base string, every time.Duration) <-chan []sample {
	out := make(chan []sample, 1)
	start := time.Now()
	take := func() sample {
		sm := sample{at: time.Since(start), rss: rss(pid), fds: fdCount(pid), cpu: cpuTime(pid)}
		sctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		if st, err := stats(sctx, base); err == nil {
			sm.sessions, _ = st["sessions"].(float64)
			sm.goMem, _ = memory(st)
		}
		return sm
	}
	go func() {
		samples := []sample{take()}
		t := time.NewTicker(every)
		defer t.Stop()
		for {
			select {
			case <-t.C:
				samples = append(samples, take())
			case <-ctx.Done():
				samples = append(samples, take())
				out <- samples
				return
			}
		}
	}()
	return out
}

func (s *scenario) print(out io.Writer, elapsed time.Duration, pid int, samples []sample) {
	s.mu.Lock()
	defer s.mu.Unlock()
	tally := func(m map[string]int) string {
		var parts []string
		for k, v := range m {
			parts = append(parts, fmt.Sprintf("%s=%d", k, v))
		}
		sort.Strings(parts)
		if len(parts) == 0 {
			return "none"
		}
		return strings.Join(parts, " ")
	}
	who := s.attackers[0]
	if len(s.attackers) > 1 {
		who = fmt.Sprintf("%d addresses (%s…%s)", len(s.attackers), s.attackers[0], s.attackers[len(s.attackers)-1])
	}
	fmt.Fprintf(out, "scenario      %s for %v: attacker %s, %d sockets each; victim %s\n", s.name, elapsed.Round(time.Millisecond), who, s.sockets, s.victim)
	var refusals []string
	s.refusals.Range(func(k, v any) bool {
		refusals = append(refusals, fmt.Sprintf("%s=%d", k, v.(*atomic.Int64).Load()))
		return true
	})
	sort.Strings(refusals)
	fmt.Fprintf(out, "attacker      sockets opened %d, refused %d (%s), dropped %d, most open at once %d\n",
		s.dialed.Load(), s.refused.Load(), strings.Join(refusals, " "), s.dropped.Load(), s.maxOpen.Load())
	fmt.Fprintf(out, "attacker runs %s\n", tally(s.attackOut))
	for _, k := range slices.Sorted(maps.Keys(s.examples)) {
		fmt.Fprintf(out, "  e.g. %s: %s\n", k, s.examples[k])
	}
	slices.Sort(s.victimLat)
	q := func(f float64) string {
		if len(s.victimLat) == 0 {
			return "-"
		}
		return fmt.Sprintf("%.1f ms", float64(s.victimLat[int(f*float64(len(s.victimLat)-1))].Microseconds())/1000)
	}
	fmt.Fprintf(out, "victim runs   %s; queued %d\n", tally(s.victimOut), s.queued)
	fmt.Fprintf(out, "victim ok     p50 %s  p90 %s  p99 %s  max %s (n=%d; run sent → done received)\n", q(0.5), q(0.9), q(0.99), q(1), len(s.victimLat))
	if len(s.victimQ) > 0 {
		slices.Sort(s.victimQ)
		slices.Sort(s.victimDur)
		at := func(xs []float64, f float64) float64 { return xs[int(f*float64(len(xs)-1))] }
		fmt.Fprintf(out, "victim server queueMs p50 %.2f p99 %.2f max %.2f; durationMs p50 %.1f p99 %.1f max %.1f\n",
			at(s.victimQ, 0.5), at(s.victimQ, 0.99), at(s.victimQ, 1), at(s.victimDur, 0.5), at(s.victimDur, 0.99), at(s.victimDur, 1))
	}
	var rs []int64
	var fds []int
	maxSess := 0.0
	for _, sm := range samples {
		if sm.rss >= 0 {
			rs = append(rs, sm.rss)
		}
		if sm.fds >= 0 {
			fds = append(fds, sm.fds)
		}
		maxSess = max(maxSess, sm.sessions)
	}
	mib := func(b int64) string { return fmt.Sprintf("%.1f", float64(b)/(1<<20)) }
	if len(rs) > 0 {
		fmt.Fprintf(out, "server RSS    start %s MiB, max %s MiB, end %s MiB (pid %d, %d samples)\n", mib(rs[0]), mib(slices.Max(rs)), mib(rs[len(rs)-1]), pid, len(samples))
		// The series, at most 12 points, to show whether it levels off.
		var pts []string
		step := max(1, len(samples)/12)
		for i := 0; i < len(samples); i += step {
			if samples[i].rss >= 0 {
				pts = append(pts, fmt.Sprintf("%ds:%s", int(samples[i].at.Seconds()), mib(samples[i].rss)))
			}
		}
		fmt.Fprintf(out, "RSS over time %s\n", strings.Join(pts, " "))
	}
	if len(fds) > 0 {
		fmt.Fprintf(out, "server        sessions max %.0f, open files max %d, Go memory at end %.1f MiB\n", maxSess, slices.Max(fds), samples[len(samples)-1].goMem/(1<<20))
	}
	if a, b := samples[0].cpu, samples[len(samples)-1].cpu; a >= 0 && b >= 0 {
		fmt.Fprintf(out, "server CPU    %.1f s user+sys over %v (%.0f%% of one core)\n", (b - a).Seconds(), elapsed.Round(time.Second), 100*(b-a).Seconds()/elapsed.Seconds())
	}
	if s.name == "flood-sleep" {
		p99 := time.Duration(0)
		if len(s.victimLat) > 0 {
			p99 = s.victimLat[int(0.99*float64(len(s.victimLat)-1))]
		}
		met := len(s.victimLat) > 0 && p99 <= 50*time.Millisecond && s.victimOut["busy"] == 0
		fmt.Fprintf(out, "goal          victim p99 ≤ 50 ms and never busy: %s\n", map[bool]string{true: "met", false: "MISSED"}[met])
	}
}
