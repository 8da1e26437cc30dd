package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"strings"
	"time"

	"github.com/playground-dev/playground/sandbox/libs"
)

// touches use the whole of each shipped library the way a first snippet
// would: require it and make one call. A library not listed gets its
// export names counted.
var touches = map[string]string{
	"lodash":    "const _ = require('lodash');\noutput = _.chain([3, 1, 2]).map((x) => x * 2).sortBy().value();",
	"mathjs":    "const math = require('mathjs');\noutput = math.evaluate('sqrt(3^2 + 4^2) * 2');",
	"date-fns":  "const d = require('date-fns');\noutput = d.formatISO(d.addDays(new Date(Date.UTC(2024, 0, 1, 12)), 3), { representation: 'date' });",
	"zod":       "const { z } = require('zod');\noutput = z.object({ a: z.string(), n: z.number().int() }).parse({ a: 'x', n: 2 });",
	"papaparse": "const Papa = require('papaparse');\noutput = Papa.parse('a,b\\n1,2', { header: true }).data;",
	"uuid":      "const { v4, validate } = require('uuid');\noutput = validate(v4());",
	"validator": "const v = require('validator');\noutput = v.isEmail('a@example.org');",
	"jstat":     "const { jStat } = require('jstat');\noutput = jStat.mean([1, 2, 3, 4]);",
}

func touch(lib string) string {
	if t, ok := touches[lib]; ok {
		return t
	}
	return fmt.Sprintf("output = Object.keys(require(%q)).length;", lib)
}

// libRow is one line of the library table.
type libRow struct {
	Lib     string `json:"lib"`
	Cold    result `json:"cold"`    // the first run on a fresh one-worker server
	Warm    result `json:"warm"`    // the next runs (unique code), p50
	Node    result `json:"node"`    // fresh node process: require + the call
	Jitless result `json:"jitless"` // the same under --jitless
}

func coldLibraries(ctx context.Context, o options) ([]libRow, error) {
	if o.bin == "" {
		return nil, fmt.Errorf("-cold needs -bin (a server binary)")
	}
	set, err := libs.New("")
	if err != nil {
		return nil, err
	}
	var out []libRow
	for _, lib := range set.Modules()[1:] {
		if len(o.only) > 0 && !o.only[lib] && !o.only["libs"] {
			continue
		}
		w := workload{Name: lib, Kind: "data", Mode: "script", Input: "n", code: touch(lib)}
		lr := libRow{Lib: lib}
		if lr.Cold, lr.Warm, err = freshServer(ctx, o, w); err != nil {
			return nil, err
		}
		lr.Node = nodeLoad(ctx, o, nil, lib)
		lr.Jitless = nodeLoad(ctx, o, []string{"--jitless"}, lib)
		fmt.Fprintf(o.progress, "%-10s cold %s warm %s node %s jitless %s\n", lib, cell(lr.Cold), cell(lr.Warm), cell(lr.Node), cell(lr.Jitless))
		out = append(out, lr)
	}
	return out, nil
}

// nodeLoad is the p50 over o.reps fresh node processes of the first
// require of lib and the touch call.
func nodeLoad(ctx context.Context, o options, flags []string, lib string) result {
	var all result
	for range o.reps {
		r := nodeExec(ctx, o, flags, nodeJob{Lib: lib, Touch: "let output;\n" + touch(lib) + "\nreturn output;"}, 60*time.Second)
		if !r.ok() {
			return r
		}
		all.Outcome, all.Output = r.Outcome, r.Output
		all.Ms = append(all.Ms, r.Ms...)
	}
	return all
}

// freshServer starts o.bin with one worker, runs w once (cold), then
// o.reps more after one more (warm), each warmPause after the last, and
// stops it.
func freshServer(ctx context.Context, o options, w workload) (cold, warm result, err error) {
	addr, stop, err := startServer(ctx, o.bin, 2*time.Second, "-workers", "1", "-spare-workers", "0")
	if err != nil {
		return cold, warm, err
	}
	defer stop()
	s := &server{addr: addr, timeout: o.timeout}
	defer s.close()
	cold = s.http(ctx, w, []byte(`{"n":1}`))
	warm = repeat(o.reps, func() result {
		select {
		case <-ctx.Done():
		case <-time.After(warmPause):
		}
		return s.http(ctx, w, []byte(`{"n":1}`))
	})
	return cold, warm, nil
}

// warmPause is the wait before each warm run: a person's or an agent's
// pace, and the longest the worker spends preparing the next runtime
// (sandbox/worker's maxPrepareTime). Back to back, a warm run waits for
// that preparation instead (mathjs: ≈ 250 ms).
const warmPause = time.Second

// startServer starts bin on a free loopback port without rate limits and
// with -max-timeout 60s plus args, waits until it has an idle worker and
// then settle more (for what it prepares in the background), and returns
// its address and how to stop it.
func startServer(ctx context.Context, bin string, settle time.Duration, args ...string) (addr string, stop func(), err error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", nil, err
	}
	addr = l.Addr().String()
	l.Close()
	cmd := exec.CommandContext(ctx, bin, append([]string{"-addr", addr, "-rate", "1e6", "-burst", "1000000",
		"-max-timeout", "60s", "-log-level", "warn"}, args...)...)
	cmd.Stdout, cmd.Stderr = io.Discard, io.Discard
	// $PORT would replace -addr's port, and PLAYGROUND_* set flags.
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "PORT=") && !strings.HasPrefix(kv, "PLAYGROUND_") {
			cmd.Env = append(cmd.Env, kv)
		}
	}
	if err := cmd.Start(); err != nil {
		return "", nil, err
	}
	stop = func() {
		cmd.Process.Kill()
		cmd.Wait()
	}
	if err := waitIdle(ctx, addr); err != nil {
		stop()
		return "", nil, err
	}
	time.Sleep(settle)
	return addr, stop, nil
}

// waitIdle waits until the server answers /api/stats with an idle worker.
func waitIdle(ctx context.Context, addr string) error {
	deadline := time.Now().Add(30 * time.Second)
	for time.Now().Before(deadline) {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		resp, err := http.Get("http://" + addr + "/api/stats")
		if err == nil {
			var st struct {
				Pool struct{ Idle int } `json:"pool"`
			}
			json.NewDecoder(resp.Body).Decode(&st)
			resp.Body.Close()
			if st.Pool.Idle >= 1 {
				return nil
			}
		}
		time.Sleep(50 * time.Millisecond)
	}
	return fmt.Errorf("server on %s: no idle worker after 30 s", addr)
}

func writeLibTable(out io.Writer, rows []libRow) {
	fmt.Fprintln(out, "| library | cold: first run on a fresh worker (ms) | cold: queue / bundle / run / other | warm (ms) | warm: queue / bundle / run / other | node load (ms) | node --jitless load (ms) | goal: 3 × jitless + 5 | verdict |")
	fmt.Fprintln(out, "|---|---|---|---|---|---|---|---|---|")
	split := func(r result) string {
		if !r.ok() {
			return "–"
		}
		return ms(p50(r.QueueMs)) + " / " + ms(p50(r.BundleMs)) + " / " + ms(p50(r.RunMs)) + " / " + ms(p50(r.OtherMs))
	}
	for _, lr := range rows {
		g, v := "–", "?"
		if lr.Jitless.ok() {
			bound := 3*p50(lr.Jitless.Ms) + 5
			g = "≤ " + ms(bound)
			v = "FAIL"
			if lr.Cold.ok() && p50(lr.Cold.Ms) <= bound {
				v = "pass"
			}
		}
		fmt.Fprintf(out, "| %s | %s | %s | %s | %s | %s | %s | %s | %s |\n", lr.Lib, cell(lr.Cold), split(lr.Cold),
			cell(lr.Warm), split(lr.Warm), cell(lr.Node), cell(lr.Jitless), g, v)
	}
	fmt.Fprintln(out, "\nCold: request → answer of the first run on a fresh server with -workers 1 (unique code); warm: p50 of the next runs on it, each 1 s after the last (after one more). Each column is its own p50; other = request → answer − queueMs − bundleMs − runMs (transfer, and waits no stat counts). Node: a fresh process's first require of the library and the same call, p50 of the processes.")
}
