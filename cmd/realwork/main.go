// Command realwork is the real-work benchmark of issue 21: agent-style
// scripts (script mode: input, require, output) that grow with n, run end
// to end against a running server over the HTTP API and over the
// WebSocket, and in the same invocation under node, node --jitless and a
// bare goja runtime, one after another, p50 of -reps after a warm-up. It
// prints a Markdown table with the goals as pass/fail, and with
// -cold a second table: the cold and warm cost of each shipped library.
//
//	go run ./cmd/realwork -addr 127.0.0.1:18931 -libs sandbox/libs
//
// scripts/realwork.sh builds and starts a server with permissive flags and
// runs it. The workloads are workloads/*.js, listed in
// workloads/manifest.json.
package main

import (
	"context"
	"embed"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"
)

//go:embed workloads/*.js workloads/manifest.json harness.js
var files embed.FS

// workload is one entry of workloads/manifest.json.
type workload struct {
	Name  string `json:"name"`
	File  string `json:"file"`
	Kind  string `json:"kind"`  // "data" or "interpretation": which goal applies
	Mode  string `json:"mode"`  // the run's mode: "script"
	Input string `json:"input"` // "n": {"n": n}; "rows": {"n": n, "rows": [n rows]}
	What  string `json:"what"`
	code  string
}

func loadWorkloads() ([]workload, error) {
	b, err := files.ReadFile("workloads/manifest.json")
	if err != nil {
		return nil, err
	}
	var ws []workload
	if err := json.Unmarshal(b, &ws); err != nil {
		return nil, fmt.Errorf("manifest.json: %w", err)
	}
	for i := range ws {
		src, err := files.ReadFile("workloads/" + ws[i].File)
		if err != nil {
			return nil, err
		}
		ws[i].code = string(src)
		if ws[i].Kind != "data" && ws[i].Kind != "interpretation" {
			return nil, fmt.Errorf("%s: kind %q", ws[i].Name, ws[i].Kind)
		}
		if ws[i].Input != "n" && ws[i].Input != "rows" {
			return nil, fmt.Errorf("%s: input %q", ws[i].Name, ws[i].Input)
		}
	}
	return ws, nil
}

// inputJSON is the run's input for w at n: {"n": n}, plus for "rows" n
// rows {"id":i,"name":"name-i","v":…} (about 37–40 bytes each).
func inputJSON(w workload, n int) []byte {
	var b strings.Builder
	b.WriteString(`{"n":`)
	b.WriteString(strconv.Itoa(n))
	if w.Input == "rows" {
		b.WriteString(`,"rows":[`)
		for i := range n {
			if i > 0 {
				b.WriteByte(',')
			}
			fmt.Fprintf(&b, `{"id":%d,"name":"name-%d","v":%d}`, i, i, (i*31)%1000)
		}
		b.WriteByte(']')
	}
	b.WriteByte('}')
	return []byte(b.String())
}

// result is one way of running one workload at one n.
type result struct {
	Outcome  string          `json:"outcome"` // "ok", or what ended it: timeout, memory_limit, 413, error…
	Detail   string          `json:"detail,omitempty"`
	Ms       []float64       `json:"ms,omitempty"` // the timed reps (request → done)
	BundleMs []float64       `json:"bundleMs,omitempty"`
	RunMs    []float64       `json:"runMs,omitempty"`
	QueueMs  []float64       `json:"queueMs,omitempty"`
	OtherMs  []float64       `json:"otherMs,omitempty"` // ms − queueMs − bundleMs − runMs: transfer, encoding, waits no stat counts
	Output   json.RawMessage `json:"output,omitempty"`
	Facts    json.RawMessage `json:"facts,omitempty"`
}

func (r result) ok() bool { return r.Outcome == "ok" && len(r.Ms) > 0 }

func p50(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

// repeat runs one warm-up and reps timed runs of once; the first run that
// does not end ok ends the series with its outcome.
func repeat(reps int, once func() result) result {
	var all result
	for i := 0; i <= reps; i++ {
		r := once()
		if r.Outcome != "ok" {
			r.Ms, r.BundleMs, r.RunMs, r.QueueMs, r.OtherMs = nil, nil, nil, nil, nil
			return r
		}
		all.Outcome, all.Output, all.Facts = r.Outcome, r.Output, r.Facts
		if i == 0 {
			continue
		}
		all.Ms = append(all.Ms, r.Ms...)
		all.BundleMs = append(all.BundleMs, r.BundleMs...)
		all.RunMs = append(all.RunMs, r.RunMs...)
		all.QueueMs = append(all.QueueMs, r.QueueMs...)
		all.OtherMs = append(all.OtherMs, r.OtherMs...)
	}
	return all
}

// row is one line of the table.
type row struct {
	Workload string            `json:"workload"`
	Kind     string            `json:"kind"`
	N        int               `json:"n"`
	Results  map[string]result `json:"results"` // by way: node, jitless, http, ws, bare
	Agree    string            `json:"agree"`   // outputs of every ok way equal node's: "yes", or which differ
}

// The ways a workload is run, in table order.
var ways = []string{"node", "jitless", "http", "ws", "bare"}

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	if err := run(ctx, os.Args[1:], os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "realwork:", err)
		os.Exit(1)
	}
}

type options struct {
	addr     string
	ns       []int
	only     map[string]bool
	ways     map[string]bool
	reps     int
	timeout  time.Duration
	node     string
	libs     string // directory holding node_modules (sandbox/libs)
	bin      string // server binary for -cold
	cold     bool
	coldOnly bool
	check    bool
	jsonOut  string
	progress io.Writer
}

func run(ctx context.Context, args []string, out io.Writer) error {
	fs := flag.NewFlagSet("realwork", flag.ContinueOnError)
	var o options
	fs.StringVar(&o.addr, "addr", "127.0.0.1:8080", "server `address` (host:port); empty: no server columns")
	nsFlag := fs.String("n", "1e3,1e4,1e5", "comma-separated sizes")
	only := fs.String("workloads", "", "comma-separated workload names (default all); with -cold, library names too (\"libs\": every library)")
	waysFlag := fs.String("ways", strings.Join(ways, ","), "comma-separated ways to run: node, jitless, http, ws, bare")
	fs.IntVar(&o.reps, "reps", 3, "timed runs after the warm-up (the table shows their p50)")
	fs.DurationVar(&o.timeout, "timeout", 30*time.Second, "per-run time limit (the server's timeoutMs; clamped by its -max-timeout)")
	fs.StringVar(&o.node, "node", "node", "node binary")
	fs.StringVar(&o.libs, "libs", "sandbox/libs", "`directory` whose node_modules holds the shipped npm packages (npm ci there)")
	fs.StringVar(&o.bin, "bin", "", "server `binary` for -cold (each library on a fresh server)")
	fs.BoolVar(&o.cold, "cold", false, "also measure each shipped library cold (first run on a fresh one-worker server) and warm, and node's load time")
	fs.BoolVar(&o.coldOnly, "cold-only", false, "only the library table")
	fs.BoolVar(&o.check, "check", false, "fail when a way's output differs from node's")
	fs.StringVar(&o.jsonOut, "json", "", "also write the results as JSON to `file`")
	quiet := fs.Bool("q", false, "no progress on stderr")
	if err := fs.Parse(args); err != nil {
		return err
	}
	o.progress = os.Stderr
	if *quiet {
		o.progress = io.Discard
	}
	for f := range strings.SplitSeq(*nsFlag, ",") {
		v, err := strconv.ParseFloat(strings.TrimSpace(f), 64)
		if err != nil || v < 1 {
			return fmt.Errorf("-n: bad size %q", f)
		}
		o.ns = append(o.ns, int(v))
	}
	o.only = set(*only)
	o.ways = set(*waysFlag)
	if o.addr == "" {
		delete(o.ways, "http")
		delete(o.ways, "ws")
	}
	abs, err := filepath.Abs(o.libs)
	if err != nil {
		return err
	}
	o.libs = abs
	ws, err := loadWorkloads()
	if err != nil {
		return err
	}
	defer func() {
		if harnessPath != "" {
			os.RemoveAll(filepath.Dir(harnessPath))
		}
	}()
	var rows []row
	if !o.coldOnly {
		if rows, err = measure(ctx, o, ws); err != nil {
			return err
		}
		writeTable(out, rows, o)
	}
	var libs []libRow
	if o.cold || o.coldOnly {
		if libs, err = coldLibraries(ctx, o); err != nil {
			return err
		}
		fmt.Fprintln(out)
		writeLibTable(out, libs)
	}
	if o.jsonOut != "" {
		b, _ := json.MarshalIndent(map[string]any{"rows": rows, "libraries": libs}, "", " ")
		if err := os.WriteFile(o.jsonOut, b, 0o644); err != nil {
			return err
		}
	}
	if o.check {
		var bad []string
		for _, r := range rows {
			if r.Agree != "yes" && r.Agree != "" {
				bad = append(bad, fmt.Sprintf("%s n=%d: %s", r.Workload, r.N, r.Agree))
			}
		}
		if len(bad) > 0 {
			return errors.New("outputs differ from node's: " + strings.Join(bad, "; "))
		}
	}
	return nil
}

func set(list string) map[string]bool {
	m := map[string]bool{}
	for f := range strings.SplitSeq(list, ",") {
		if f = strings.TrimSpace(f); f != "" {
			m[f] = true
		}
	}
	return m
}

// measure runs every selected workload at every n, each way in turn.
func measure(ctx context.Context, o options, ws []workload) ([]row, error) {
	srv := &server{addr: o.addr, timeout: o.timeout}
	defer srv.close()
	var rows []row
	for _, w := range ws {
		if len(o.only) > 0 && !o.only[w.Name] {
			continue
		}
		for _, n := range o.ns {
			in := inputJSON(w, n)
			rw := row{Workload: w.Name, Kind: w.Kind, N: n, Results: map[string]result{}}
			for _, way := range ways {
				if !o.ways[way] {
					continue
				}
				if ctx.Err() != nil {
					return nil, ctx.Err()
				}
				var r result
				switch way {
				case "node":
					r = runNode(ctx, o, nil, w, in)
				case "jitless":
					r = runNode(ctx, o, []string{"--jitless"}, w, in)
				case "http":
					r = repeat(o.reps, func() result { return srv.http(ctx, w, in) })
				case "ws":
					r = repeat(o.reps, func() result { return srv.ws(ctx, w, in) })
				case "bare":
					r = repeat(o.reps, func() result { return runBare(w, in, o.timeout) })
				}
				rw.Results[way] = r
				fmt.Fprintf(o.progress, "%-12s n=%-7d %-8s %s\n", w.Name, n, way, cell(r))
			}
			rw.Agree = agree(rw.Results)
			rows = append(rows, rw)
		}
	}
	return rows, nil
}

// agree compares each ok way's output (and facts) with node's.
func agree(rs map[string]result) string {
	ref, ok := rs["node"]
	if !ok || !ref.ok() {
		return ""
	}
	var bad []string
	for _, way := range ways[1:] {
		r, ok := rs[way]
		if !ok || !r.ok() {
			continue
		}
		if !sameJSON(ref.Output, r.Output) || !sameJSON(orEmpty(ref.Facts), orEmpty(r.Facts)) {
			bad = append(bad, way)
		}
	}
	if len(bad) > 0 {
		return "differs: " + strings.Join(bad, ",")
	}
	return "yes"
}
