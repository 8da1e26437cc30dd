package worker

import (
	"encoding/json"
	"slices"
	"syscall"
	"testing"
	"time"

	"github.com/playground-dev/playground/sandbox/pipe"
)

// librarySnippets are the cases of BenchmarkLibraries: a plain run and one
// importing each shipped library the way its users write it.
var librarySnippets = []struct{ name, src string }{
	{"plain", "console.log([[1, 2], [3]].length);"},
	{"mathjs", "import { mean, median, std } from 'mathjs';\nconst v = [10, 20, 30, 40, 50];\nconsole.log(mean(v), median(v), std(v));"},
	{"mathjs-require", "const math = require('mathjs');\noutput = [math.mean(input.values), math.median(input.values), math.std(input.values)];"},
	{"jstat", "import { jStat } from 'jstat';\nconsole.log(jStat.mean([1, 2, 3]));"},
	{"validator", "import { isEmail } from 'validator';\nconsole.log(isEmail('a@b.co'));"},
	{"validator-default", "import validator from 'validator';\nconsole.log(validator.isEmail('a@b.co'));"},
	{"lodash", "import _ from 'lodash';\nconsole.log(_.chunk([1, 2, 3], 2).length);"},
	{"lodash-chain", "const _ = require('lodash');\noutput = _.chain([1, 2, 3]).map((x) => x * 2).sum().value();"},
	{"date-fns", "import { addDays } from 'date-fns';\nconsole.log(addDays(0, 1).getTime());"},
	{"date-fns-locale", "import { format } from 'date-fns';\nimport { de } from 'date-fns/locale';\nconsole.log(format(0, 'PPPP', { locale: de }));"},
	{"uuid", "import { v4 } from 'uuid';\nconsole.log(v4().length);"},
	{"papaparse", "import Papa from 'papaparse';\nconsole.log(Papa.parse('a,b').data.length);"},
	{"zod", "import { z } from 'zod';\nconsole.log(z.string().parse('x'));"},
}

// BenchmarkLibraries runs each snippet on one in-process worker (the
// serving loop on pipes, as the pool drives it, without the process):
// back to back (a saturated worker: the next job is waiting) and after a
// 30 ms pause (a user pressing Run again: the worker prepared a runtime).
// It reports p50 and p99 of the job's round trip and, back to back, runs/s
// and the process's CPU time (user+sys, getrusage) per run: on a shared
// machine the CPU time is the steadier figure.
// Reproduce with:
//
//	go test ./sandbox/worker -run '^$' -bench BenchmarkLibraries -benchtime 100x
func BenchmarkLibraries(b *testing.B) {
	for _, mode := range []struct {
		name  string
		pause time.Duration
	}{{"back-to-back", 0}, {"rerun-after-pause", 30 * time.Millisecond}} {
		for _, tc := range librarySnippets {
			b.Run(mode.name+"/"+tc.name, func(b *testing.B) {
				c := startWorker(&testing.T{})
				defer c.stop()
				j := job(tc.src)
				j.Timeout = time.Minute
				j.Input = json.RawMessage(`{"values":[10,20,30,40,50]}`)
				once := func() time.Duration {
					t0 := time.Now()
					c.send(pipe.Command{Op: pipe.OpRun, Job: j})
					_, res := c.result(nil)
					if res.Outcome != pipe.OutcomeOK {
						b.Fatalf("outcome %s", res.Outcome)
					}
					return time.Since(t0)
				}
				for range 5 { // compile, cache, warm up
					once()
				}
				lat := make([]time.Duration, 0, b.N)
				var busy time.Duration
				cpu0 := cpuTime()
				b.ResetTimer()
				for range b.N {
					if mode.pause > 0 {
						b.StopTimer()
						time.Sleep(mode.pause)
						b.StartTimer()
					}
					d := once()
					busy += d
					lat = append(lat, d)
				}
				cpu := cpuTime() - cpu0
				slices.Sort(lat)
				q := func(f float64) float64 { return float64(lat[int(f*float64(len(lat)-1))].Microseconds()) / 1000 }
				b.ReportMetric(q(0.5), "p50-ms")
				b.ReportMetric(q(0.99), "p99-ms")
				if mode.pause == 0 {
					b.ReportMetric(float64(len(lat))/busy.Seconds(), "runs/s")
					b.ReportMetric(float64(cpu.Microseconds())/1000/float64(len(lat)), "cpu-ms/run")
				}
				b.ReportMetric(0, "ns/op")
			})
		}
	}
}

// cpuTime is this process's user+sys CPU time.
func cpuTime() time.Duration {
	var r syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &r); err != nil {
		return 0
	}
	return time.Duration(r.Utime.Nano() + r.Stime.Nano())
}
