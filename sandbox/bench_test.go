package sandbox

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"
)

// helloFiles is the benchmark snippet: a two-file TypeScript hello world.
var helloFiles = files(
	"src/main.ts", "import { greet } from './greet.js';\nconsole.log(greet('world'));\n",
	"src/greet.ts", "export function greet(name: string): string {\n  return `hello, ${name}`;\n}\n",
)

// BenchmarkRun measures request → result latency and throughput of a
// hello-world run at a given concurrency, for a worker serving many runs
// (reuse) and for one process per run. Reproduce with:
//
//	go test ./sandbox -run '^$' -bench BenchmarkRun -benchtime 3s
func BenchmarkRun(b *testing.B) {
	for _, mode := range []struct {
		name string
		runs int
	}{{"reuse", 0}, {"process-per-run", 1}} {
		for _, conc := range []int{2, 8} {
			b.Run(fmt.Sprintf("%s/conc=%d", mode.name, conc), func(b *testing.B) {
				p := newTestPool(b, Config{Workers: 2, Spares: 2, MaxRunsPerWorker: mode.runs, QueueSize: 1024})
				warm(b, p)
				var mu sync.Mutex
				lat := make([]time.Duration, 0, b.N)
				b.ResetTimer()
				start := time.Now()
				var wg sync.WaitGroup
				next := make(chan struct{}, b.N)
				for range b.N {
					next <- struct{}{}
				}
				close(next)
				for range conc {
					wg.Go(func() {
						for range next {
							t0 := time.Now()
							res, err := p.Run(context.Background(), Request{Files: helloFiles, Key: "bench"}, func(Event) {})
							d := time.Since(t0)
							if err != nil || res.Outcome != OutcomeOK {
								b.Errorf("run: %v %s", err, res.Outcome)
								return
							}
							mu.Lock()
							lat = append(lat, d)
							mu.Unlock()
						}
					})
				}
				wg.Wait()
				elapsed := time.Since(start)
				b.StopTimer()
				report(b, lat)
				b.ReportMetric(float64(len(lat))/elapsed.Seconds(), "runs/s")
			})
		}
	}
}

// BenchmarkCancel measures cancel → slot free for a snippet in a JS loop and
// one stuck in a native builtin: "free" is the cancelled Run returning (its
// queue slot released; p50/p99-ms) and, stricter, the next run starting on
// the freed slot (next-p50/next-p99-ms). Reproduce with:
//
//	go test ./sandbox -run '^$' -bench BenchmarkCancel -benchtime 200x
func BenchmarkCancel(b *testing.B) {
	for _, tc := range []struct{ name, src string }{
		{"js-loop", "console.log('go'); while (true) {}"},
		{"native-builtin", "console.log('go'); /^(?=.)(a+)+$/.test('a'.repeat(40) + '!');"},
	} {
		b.Run(tc.name, func(b *testing.B) {
			p := newTestPool(b, Config{Workers: 1, Spares: 2})
			warm(b, p)
			lat := make([]time.Duration, 0, b.N)
			nextLat := make([]time.Duration, 0, b.N)
			for range b.N {
				ctx, cancel := context.WithCancel(context.Background())
				started := make(chan struct{})
				var once sync.Once
				done := make(chan time.Time, 1)
				go func() {
					defer func() { done <- time.Now() }()
					p.Run(ctx, Request{Files: files("main.js", tc.src)}, func(ev Event) {
						if ev.Kind == EventLog {
							once.Do(func() { close(started) })
						}
					})
				}()
				<-started
				t0 := time.Now()
				cancel()
				// The slot is free when the next run gets a worker and starts.
				next := make(chan time.Duration, 1)
				var nextOnce sync.Once
				go p.Run(context.Background(), Request{Files: files("main.js", "1")}, func(ev Event) {
					if ev.Kind == EventStarted {
						nextOnce.Do(func() { next <- time.Since(t0) })
					}
				})
				nextLat = append(nextLat, <-next)
				lat = append(lat, (<-done).Sub(t0))
				waitIdle(b, p)
			}
			report(b, lat)
			slices.Sort(nextLat)
			b.ReportMetric(float64(nextLat[len(nextLat)/2].Microseconds())/1000, "next-p50-ms")
			b.ReportMetric(float64(nextLat[len(nextLat)*99/100].Microseconds())/1000, "next-p99-ms")
		})
	}
}

func warm(b *testing.B, p *Pool) {
	b.Helper()
	for range 20 {
		if res, err := p.Run(context.Background(), Request{Files: helloFiles}, func(Event) {}); err != nil || res.Outcome != OutcomeOK {
			b.Fatalf("warm-up run: %v %s", err, res.Outcome)
		}
	}
}

func waitIdle(b *testing.B, p *Pool) {
	for p.Stats().Busy != 0 {
		time.Sleep(50 * time.Microsecond)
	}
}

func report(b *testing.B, lat []time.Duration) {
	if len(lat) == 0 {
		return
	}
	slices.Sort(lat)
	q := func(f float64) float64 { return float64(lat[int(f*float64(len(lat)-1))].Microseconds()) / 1000 }
	b.ReportMetric(q(0.5), "p50-ms")
	b.ReportMetric(q(0.99), "p99-ms")
	b.ReportMetric(0, "ns/op")
}

// BenchmarkLibraryImport compares runs that import a library with one that
// does not. Each library is compiled once per worker; each run evaluates it
// in its fresh runtime, which the worker prepares while it waits. So two
// cases: back to back (a saturated worker, no wait) and a re-run after a
// pause (a user pressing Run again). Reproduce with:
//
//	go test ./sandbox -run '^$' -bench BenchmarkLibraryImport -benchtime 200x
func BenchmarkLibraryImport(b *testing.B) {
	snippets := []struct{ name, src string }{
		{"plain", "console.log([[1, 2], [3]].length);"},
		{"lodash", "import _ from 'lodash';\nconsole.log(_.chunk([1, 2, 3], 2).length);"},
		{"date-fns", "import { addDays } from 'date-fns';\nconsole.log(addDays(0, 1).getTime());"},
		{"zod", "import { z } from 'zod';\nconsole.log(z.string().parse('x'));"},
	}
	for _, mode := range []struct {
		name  string
		pause time.Duration
	}{{"back-to-back", 0}, {"rerun-after-pause", 30 * time.Millisecond}} {
		for _, tc := range snippets {
			b.Run(mode.name+"/"+tc.name, func(b *testing.B) {
				p := newTestPool(b, Config{Workers: 1, Spares: 1})
				req := Request{Files: files("main.ts", tc.src)}
				for range 10 {
					p.Run(context.Background(), req, func(Event) {})
					time.Sleep(mode.pause)
				}
				lat := make([]time.Duration, 0, b.N)
				b.ResetTimer()
				for range b.N {
					b.StopTimer()
					time.Sleep(mode.pause) // the user reads the output
					b.StartTimer()
					t0 := time.Now()
					res, err := p.Run(context.Background(), req, func(Event) {})
					if err != nil || res.Outcome != OutcomeOK {
						b.Fatalf("run: %v %s", err, res.Outcome)
					}
					lat = append(lat, time.Since(t0))
				}
				report(b, lat)
			})
		}
	}
}
