package main

import (
	"os/exec"
	"slices"
	"strings"
	"testing"
)

const module = "github.com/playground-dev/playground"

// allowedImports is the package graph of docs/architecture.md: project package ->
// project packages it may import. cmd/playground may import everything.
//
// The process boundary is a package boundary: sandbox (the pool, in the
// server process) and sandbox/worker/... (the worker process) meet only in
// sandbox/pipe (the pipe contract) and sandbox/libs (the importable
// libraries), which both processes use.
var allowedImports = map[string][]string{
	"rawio":     {}, // raw pipe and socket I/O, used by both processes
	"jsonwire":  {}, // JSON bytes as encoding/json writes them, used by both processes
	"ws":        {"rawio", "jsonwire"},
	"ratelimit": {},
	// The real-work benchmark: a client of the HTTP API and the socket
	// (ws), which also runs the shipped libraries (libs) in a bare goja.
	"cmd/realwork": {"sandbox/libs", "ws"},
	"static":       {},

	"sandbox/pipe":          {"rawio", "jsonwire"},
	"sandbox/libs":          {},
	"sandbox":               {"sandbox/pipe", "sandbox/libs", "tracing"},
	"sandbox/worker/bundle": {"sandbox/pipe", "sandbox/libs"},
	"sandbox/worker/fair":   {}, // the eviction rule of the worker's caches
	"sandbox/worker/js":     {"sandbox/pipe", "sandbox/libs", "sandbox/worker/bundle", "sandbox/worker/fair", "sandbox/worker/js/intl", "sandbox/worker/js/intrinsic", "sandbox/worker/js/inspect", "sandbox/worker/js/parity", "sandbox/worker/js/webapi", "sandbox/worker/js/rewrite", "sandbox/worker/js/jsonvalue", "sandbox/worker/js/regexpidx"},
	"sandbox/worker":        {"sandbox/pipe", "sandbox/libs", "sandbox/worker/bundle", "sandbox/worker/fair", "sandbox/worker/js"},

	// The server's transports share one run engine, which alone sees the
	// sandbox (its types; the pool arrives as an engine.Runner).
	"engine": {"ws", "sandbox", "runs", "tape", "tracing"},
	// The registry of live runs: watchers, reattach, the Redis stream.
	"runs":    {"ws"},
	"session": {"ws", "engine", "runs"},
	"web":     {"ws", "engine", "session", "static"},
	"web/api": {"ws", "jsonwire", "engine", "runs", "tape"},
	// Run tapes: the format, its checks and the comparison; the engine
	// records and replays them.
	"tape":    {"ws", "jsonwire"},
	"metrics": {},
	// fetch for snippets, in the server (a host function: sandbox's types,
	// the pipe's name for it).
	"egress": {"sandbox", "sandbox/pipe"},
	// OpenTelemetry traces of runs and host calls (the SDK, OTLP/HTTP), a
	// leaf the engine and the pool call into; tracingtest is test support:
	// an in-process OTLP receiver.
	"tracing":             {},
	"tracing/tracingtest": {},

	"ratelimit/redistest": {},     // test support: a real redis-server for tests
	"ws/wstest":           {"ws"}, // test support: a client of the socket protocol

	// The runtime's modules: leaves under the core package js, which none
	// of them imports.
	"sandbox/worker/js/intl":      {},                                                                                                              // Intl (goja + golang.org/x/text)
	"sandbox/worker/js/intrinsic": {},                                                                                                              // the intrinsics the runtime calls, safe from a snippet's replacements
	"sandbox/worker/js/parity":    {"sandbox/worker/fair", "sandbox/worker/js/intl", "sandbox/worker/js/intrinsic", "sandbox/worker/js/jsonvalue"}, // goja-versus-V8 parity patches
	"sandbox/worker/js/webapi":    {"sandbox/worker/js/intrinsic", "sandbox/worker/js/parity"},                                                     // web APIs goja lacks: the polyfills, URL, Web Crypto
	"sandbox/worker/js/inspect":   {"sandbox/pipe", "sandbox/worker/js/intrinsic", "sandbox/worker/js/parity"},                                     // Node's util.inspect
	"sandbox/worker/js/rewrite":   {},                                                                                                              // semantics-preserving rewrites of a bundle before goja compiles it
	"sandbox/worker/js/jsonvalue": {"jsonwire"},                                                                                                    // JSON text to goja values and plain data back, past goja's codec
	"sandbox/worker/js/regexpidx": {},                                                                                                              // the RegExp d flag's match indices (regexp2)
	"sandbox/worker/js/jstest":    {"sandbox/pipe", "sandbox/libs", "sandbox/worker/bundle", "sandbox/worker/js"},                                  // test support: the in-process harness
}

func goList(t *testing.T, args ...string) string {
	t.Helper()
	out, err := exec.Command("go", append([]string{"list"}, args...)...).Output()
	if err != nil {
		t.Fatalf("go list %v: %v", args, err)
	}
	return string(out)
}

func TestPackageGraph(t *testing.T) {
	out := goList(t, "-f", `{{.ImportPath}} {{join .Imports " "}}`, module+"/...")
	seen := 0
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		f := strings.Fields(line)
		pkg := strings.TrimPrefix(strings.TrimPrefix(f[0], module), "/")
		if pkg == "cmd/playground" || pkg == "cmd/loadgen" {
			continue // commands wire packages together
		}
		allowed, known := allowedImports[pkg]
		if !known {
			t.Errorf("package %s is not in allowedImports; decide where it sits in the graph", pkg)
			continue
		}
		seen++
		for _, imp := range f[1:] {
			dep, ok := strings.CutPrefix(imp, module+"/")
			if ok && !slices.Contains(allowed, dep) {
				t.Errorf("%s imports %s; not allowed by allowedImports", pkg, dep)
			}
		}
	}
	if seen != len(allowedImports) {
		t.Errorf("checked %d packages; want %d", seen, len(allowedImports))
	}
}

// TestProcessBoundary bans, transitively, what each side of the worker
// boundary must not carry: the server-side pool never links goja (snippets
// run only in workers) nor worker code; the worker side never links the
// pool or the server's packages; neither links the WebSocket library,
// templ or testing.
func TestProcessBoundary(t *testing.T) {
	for pkg, banned := range map[string][]string{
		"sandbox": {"github.com/dop251/goja", module + "/sandbox/worker", module + "/sandbox/worker/js",
			module + "/sandbox/worker/bundle", "github.com/coder/websocket", "github.com/a-h/templ", "testing"},
		"sandbox/worker": {module + "/sandbox", module + "/engine", module + "/session", module + "/web", module + "/ws",
			"github.com/coder/websocket", "github.com/a-h/templ", "testing"},
		"sandbox/pipe": {"github.com/dop251/goja", "github.com/evanw/esbuild/pkg/api", "testing"},
		"sandbox/libs": {"github.com/dop251/goja", "testing"},
	} {
		deps := strings.Fields(goList(t, "-deps", module+"/"+pkg))
		for _, b := range banned {
			if slices.Contains(deps, b) {
				t.Errorf("%s depends on %s", pkg, b)
			}
		}
	}
}
