package main

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/coder/websocket"
	"github.com/playground-dev/playground/tracing"
	"github.com/playground-dev/playground/tracing/tracingtest"
)

// BenchmarkTracing measures what tracing costs the hello world's
// throughput end to end: the real server (run) in-process, two WebSocket
// sessions each sending the two-file hello and reading to its done, as
// cmd/loadgen -conns 2 does; "off" without -otlp-endpoint, "on" with every
// span sampled and exported to an OTLP/HTTP receiver on loopback (in this
// process: it decodes each batch, well under 1% of a core at these rates).
// It reports runs/s and, for "on", the spans received per run (5: run,
// queue, bundle, execute and the host call; fewer means spans were
// dropped). Reproduce with (docs/benchmarks.md, "Tracing"):
//
//	go test ./cmd/playground -run '^$' -bench Tracing -benchtime 4000x -count 6
func BenchmarkTracing(b *testing.B) {
	for _, mode := range []string{"off", "on"} {
		b.Run(mode, func(b *testing.B) {
			var rcv *tracingtest.Receiver
			flags := []string{"-rate", "1e6", "-burst", "1000000", "-log-level", "error"}
			if mode == "on" {
				rcv = tracingtest.Start(b)
				flags = append(flags, "-otlp-endpoint", rcv.URL())
			}
			children0 := cpu(syscall.RUSAGE_CHILDREN)
			addr, stop := startServerB(b, flags...)
			const sessions = 2
			conns := make([]*websocket.Conn, sessions)
			for i := range conns {
				c, _, err := websocket.Dial(context.Background(), "ws://"+addr+"/ws", &websocket.DialOptions{Subprotocols: []string{"playground.v1"},
					HTTPHeader: http.Header{"Traceparent": {"00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"}}})
				if err != nil {
					b.Fatal(err)
				}
				c.SetReadLimit(1 << 20)
				defer c.CloseNow()
				if _, _, err := c.Read(context.Background()); err != nil { // hello
					b.Fatal(err)
				}
				conns[i] = c
			}
			runs := func(c *websocket.Conn, n int, prefix string) error {
				for i := range n {
					id := fmt.Sprintf("%s-%d", prefix, i)
					msg := `{"type":"run","id":"` + id + `","files":[{"path":"src/main.ts","source":"import { greet } from './greet.js';\nimport { host } from 'playground';\nconsole.log(greet(await host.echo('world')));\n"},{"path":"src/greet.ts","source":"export function greet(name: string): string {\n  return ` + "`hello, ${name}`" + `;\n}\n"}]}`
					if err := c.Write(context.Background(), websocket.MessageText, []byte(msg)); err != nil {
						return err
					}
					for {
						_, m, err := c.Read(context.Background())
						if err != nil {
							return err
						}
						if len(m) > 16 && string(m[:16]) == `{"type":"done","` {
							if !bytes.Contains(m, []byte(`"outcome":"ok"`)) {
								return fmt.Errorf("run %s: %s", id, m)
							}
							break
						}
					}
				}
				return nil
			}
			const warm = 50
			for i, c := range conns { // warm the workers and their caches
				if err := runs(c, warm, fmt.Sprint("warm", i)); err != nil {
					b.Fatal(err)
				}
			}
			var before int
			if rcv != nil {
				flushed(b, rcv)
				before = len(rcv.Spans())
			}
			b.ResetTimer()
			self0 := cpu(syscall.RUSAGE_SELF)
			start := time.Now()
			var wg sync.WaitGroup
			errs := make(chan error, sessions)
			for i, c := range conns {
				n := b.N / sessions
				if i == 0 {
					n += b.N % sessions
				}
				wg.Go(func() { errs <- runs(c, n, fmt.Sprint("s", i)) })
			}
			wg.Wait()
			elapsed := time.Since(start)
			self := cpu(syscall.RUSAGE_SELF) - self0
			b.StopTimer()
			close(errs)
			for err := range errs {
				if err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.N)/elapsed.Seconds(), "runs/s")
			for _, c := range conns {
				c.Close(websocket.StatusNormalClosure, "")
			}
			if err := stop(); err != nil { // flushes the spans still batched
				b.Fatal(err)
			}
			// The server process (with this benchmark's client and the
			// receiver) while measuring; the workers over their lives,
			// which end with the pool's (their start is a few ms of CPU).
			b.ReportMetric(float64(self.Microseconds())/float64(b.N), "server-µs/run")
			b.ReportMetric(float64((cpu(syscall.RUSAGE_CHILDREN)-children0).Microseconds())/float64(b.N+sessions*warm), "workers-µs/run")
			if rcv != nil {
				b.ReportMetric(float64(len(rcv.Spans())-before)/float64(b.N), "spans/run")
			}
		})
	}
}

// flushed waits until the warm-up's spans have reached rcv (the batch
// exporter sends every 5 s), so that they are not counted as the
// measurement's.
func flushed(b *testing.B, rcv *tracingtest.Receiver) {
	b.Helper()
	rcv.Wait(b, 30*time.Second, func(s []tracingtest.Span) bool {
		n := 0
		for _, sp := range s {
			if sp.Name == tracing.SpanRun {
				n++
			}
		}
		return n >= 100
	})
}

// startServerB is startServer for a benchmark.
func startServerB(b *testing.B, flags ...string) (addr string, stop func() error) {
	b.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	ready := make(chan string, 1)
	errc := make(chan error, 1)
	args := append([]string{"-addr", "127.0.0.1:0"}, flags...)
	go func() { errc <- run(ctx, args, func(string) string { return "" }, b.Output(), ready) }()
	select {
	case addr := <-ready:
		var once sync.Once
		var err error
		stop := func() error { once.Do(func() { cancel(); err = <-errc }); return err }
		b.Cleanup(func() { _ = stop() })
		return addr, stop
	case err := <-errc:
		cancel()
		b.Fatalf("run: %v", err)
		return "", nil
	}
}

// cpu is the user and system CPU time getrusage(2) reports for who.
func cpu(who int) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(who, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
