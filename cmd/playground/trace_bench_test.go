package main

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"runtime"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/coder/websocket"
	"github.com/playground-dev/playground/tracing/tracingtest"
	"github.com/playground-dev/playground/ws/wstest"
)

// BenchmarkTracing measures what tracing costs the hello world end to end:
// the real server (run) in-process, two WebSocket sessions each sending
// the two-file hello (with one host call) and reading to its done, as
// cmd/loadgen -conns 2 does. "off" has no -otlp-endpoint; "on" samples
// every span and exports them to an OTLP/HTTP receiver on loopback (in
// this process; it only counts the spans, walking the protobuf's wire
// format); "ratio10" samples one trace in ten. It reports runs/s, the CPU
// per run of the server process and of the workers, the server's bytes
// allocated and garbage collections per run, and the spans
// received per run ("on": 5, the run, its queue, bundle and execute and
// the host call; fewer means spans were dropped). The machine's load moves
// runs/s far more than tracing does: alternate the modes, one process
// each (docs/benchmarks.md, "Tracing"):
//
//	go test -c -o /tmp/pg.test ./cmd/playground && cd cmd/playground
//	for i in 1 2 3 4 5 6; do for m in off on ratio10; do
//	  /tmp/pg.test -test.run '^$' -test.bench "Tracing/$m\$" -test.benchtime 4000x | grep Benchmark
//	done; done
func BenchmarkTracing(b *testing.B) {
	for _, mode := range []string{"off", "on", "ratio10"} {
		b.Run(mode, func(b *testing.B) {
			var rcv *tracingtest.Receiver
			flags := []string{"-rate", "1e6", "-burst", "1000000", "-log-level", "error"}
			header := http.Header{}
			if mode != "off" {
				rcv = tracingtest.StartCounter(b)
				flags = append(flags, "-otlp-endpoint", rcv.URL())
			}
			switch mode {
			case "on": // every run sampled, each a child of its socket's caller
				header.Set("Traceparent", "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01")
			case "ratio10": // one run in ten sampled (the SDK reads the sampler from the environment)
				b.Setenv("OTEL_TRACES_SAMPLER", "parentbased_traceidratio")
				b.Setenv("OTEL_TRACES_SAMPLER_ARG", "0.1")
			}
			children0 := cpu(syscall.RUSAGE_CHILDREN)
			addr, stop := startServer(b, flags...)
			const sessions = 2
			conns := make([]*websocket.Conn, sessions)
			for i := range conns {
				// The runs below read the raw connection: the client's cost counts
				// as the server's (one process), so it decodes no more than it must.
				conns[i] = wstest.Dial(b, "ws://"+addr+"/ws", wstest.Options{Header: header, ReadLimit: 1 << 20}).Conn()
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
			if mode == "on" { // the warm-up's spans, out of the measurement (the exporter sends every 5 s)
				rcv.WaitCount(b, 30*time.Second, sessions*warm*spansPerRun)
				before = rcv.Count()
			}
			b.ResetTimer()
			self0 := cpu(syscall.RUSAGE_SELF)
			var ms0, ms1 runtime.MemStats
			runtime.ReadMemStats(&ms0)
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
			runtime.ReadMemStats(&ms1)
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
			b.ReportMetric(float64(ms1.TotalAlloc-ms0.TotalAlloc)/float64(b.N), "server-B/run")
			b.ReportMetric(float64(ms1.NumGC-ms0.NumGC)*1000/float64(b.N), "GCs/1000runs")
			b.ReportMetric(float64((cpu(syscall.RUSAGE_CHILDREN)-children0).Microseconds())/float64(b.N+sessions*warm), "workers-µs/run")
			if rcv != nil {
				b.ReportMetric(float64(rcv.Count()-before)/float64(b.N), "spans/run")
			}
		})
	}
}

// spansPerRun are a traced hello's spans: the run, its queue, bundle and
// execute stages, and its host call.
const spansPerRun = 5

// cpu is the user and system CPU time getrusage(2) reports for who.
func cpu(who int) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(who, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
