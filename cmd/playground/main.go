// Command playground serves the JavaScript/TypeScript playground: the page,
// the WebSocket sessions that run snippets, and the stats endpoint.
//
// Every flag may also be given as an environment variable named
// PLAYGROUND_ plus the flag name in upper case with '-' as '_' (for example
// PLAYGROUND_RATE=10); a flag on the command line wins. $PORT, when set,
// replaces the port of -addr.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/netip"
	"os"
	"os/signal"
	"path/filepath"
	"runtime/debug"
	"slices"
	"strings"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/playground-dev/playground/egress"
	"github.com/playground-dev/playground/engine"
	"github.com/playground-dev/playground/metrics"
	"github.com/playground-dev/playground/ratelimit"
	"github.com/playground-dev/playground/runs"
	"github.com/playground-dev/playground/sandbox"
	"github.com/playground-dev/playground/sandbox/pipe"
	"github.com/playground-dev/playground/sandbox/worker"
	"github.com/playground-dev/playground/session"
	"github.com/playground-dev/playground/tracing"
	"github.com/playground-dev/playground/web"
	"github.com/playground-dev/playground/web/api"
)

func main() {
	worker.ServeIfWorker() // hidden worker mode: the pool starts this binary to run snippets
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if len(os.Args) > 1 && os.Args[1] == "run" {
		os.Exit(runCLI(ctx, os.Args[2:], os.Stdin, os.Stdout, os.Stderr, os.Getenv))
	}
	if len(os.Args) > 1 && os.Args[1] == "replay" {
		os.Exit(replayCLI(ctx, os.Args[2:], os.Stdin, os.Stdout, os.Stderr, os.Getenv))
	}
	if err := run(ctx, os.Args[1:], os.Getenv, os.Stderr, nil); err != nil {
		fmt.Fprintln(os.Stderr, "playground:", err)
		os.Exit(1)
	}
}

// config is everything the flags decide.
type config struct {
	addr           string
	origins        string
	embedOrigins   string
	trustedProxies string
	timeout        time.Duration
	minTimeout     time.Duration
	maxTimeout     time.Duration
	rate           float64
	burst          int
	workers        int
	queue          int
	maxFiles       int
	maxSourceBytes int
	maxOutputBytes int
	maxEvents      int
	memory         int64
	memoryBudget   int64
	maxHostCalls   int
	maxFactsBytes  int
	maxInputBytes  int

	socketMaxOutputBytes int
	hostGlobals          string
	libraryDir           string
	spares               int
	maxParked            int
	logLevel             string
	apiKeys              string
	apiOrigins           string
	redisURL             string
	redisTimeout         time.Duration
	redisOptional        bool
	drainTimeout         time.Duration
	drainDelay           time.Duration
	publicURL            string
	hosts                string
	kvBytes              int64
	kvClientBytes        int64
	kvTTL                time.Duration
	outboxBytes          int64
	outboxIPBytes        int64
	socketsPerIP         int
	maxSockets           int
	runsPerIP            int
	mcpRate              float64
	mcpBurst             int
	detachMax            time.Duration
	watchRetain          time.Duration
	watchBufferBytes     int
	watchClientBytes     int64
	watchBytes           int64
	maxWatchers          int
	fetchPolicy          string
	otlpEndpoint         string
}

func parseFlags(args []string, getenv func(string) string, stderr io.Writer) (*config, error) {
	c := &config{}
	// Every default is written once, as a named value: the pool's in
	// sandbox.DefaultConfig, the limiter's in ratelimit.DefaultConfig, the
	// server's own in serverDefaults below, and runs', egress's, tracing's
	// and the API's as Default constants in those packages.
	d := sandbox.DefaultConfig()
	rl := ratelimit.DefaultConfig()
	fs := flag.NewFlagSet("playground", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.StringVar(&c.addr, "addr", "127.0.0.1:8080", "listen `address`; $PORT, if set, replaces the port")
	fs.StringVar(&c.origins, "origins", "", "comma-separated browser origin `patterns` allowed besides the server's own host (e.g. \"*.example.com,docs.example.org\")")
	fs.StringVar(&c.embedOrigins, "embed-origins", "", "comma-separated `origins` whose pages may frame /embed (e.g. \"https://docs.example.org,https://*.example.com\"; \"*\" for any)")
	fs.StringVar(&c.hosts, "hosts", "", "comma-separated host `names` the server answers (\"*.example.com\" for subdomains; IP literals always pass), against DNS rebinding; default: localhost names when -addr is loopback, else any (set it for a public deployment)")
	fs.StringVar(&c.trustedProxies, "trusted-proxies", "", "comma-separated `CIDRs` of reverse proxies whose X-Forwarded-For is believed")
	fs.DurationVar(&c.timeout, "timeout", d.DefaultTimeout, "default run time limit when a run asks for none")
	fs.DurationVar(&c.minTimeout, "min-timeout", d.MinTimeout, "smallest time limit a run may ask for")
	fs.DurationVar(&c.maxTimeout, "max-timeout", d.MaxTimeout, "largest time limit a run may ask for")
	fs.Float64Var(&c.rate, "rate", rl.PerSecond, "runs per second each client IP may start (token bucket refill rate)")
	fs.IntVar(&c.burst, "burst", rl.Burst, "runs a client IP may start at once (token bucket size)")
	fs.IntVar(&c.workers, "workers", d.Workers, "runs executing at once (each in a pre-started worker process)")
	fs.IntVar(&c.spares, "spare-workers", d.Spares, "started worker processes kept beyond -workers (0: none), so a killed worker's slot is usable at once; each is also a reserve slot only a client holding no worker may take (making others wait then takes this many + 1 clients filling workers for their whole time limit)")
	fs.IntVar(&c.maxParked, "max-parked", 0, fmt.Sprintf("runs that may wait on host calls with their worker slot given back (parked), each keeping its worker process and heap (0: %d per worker; -1: off, such a run holds its slot)", sandbox.ParkPerWorker))
	fs.Int64Var(&c.memory, "memory-bytes", d.MemoryBytes, "heap one run may use; past it the run ends memory_limit (0: the run's share of -memory-budget)")
	fs.Int64Var(&c.memoryBudget, "memory-budget", d.MemoryBudget, "memory all worker processes may hold together, in bytes (0: three quarters of the machine's or its cgroup's memory)")
	fs.IntVar(&c.queue, "queue", 0, fmt.Sprintf("runs that may wait for a worker before the server answers busy (0: %d per worker)", sandbox.QueuePerWorker))
	fs.IntVar(&c.maxFiles, "max-files", d.MaxFiles, "files one run may have")
	fs.IntVar(&c.maxSourceBytes, "max-source-bytes", d.MaxSourceBytes, "bytes of source all files of one run may hold")
	fs.IntVar(&c.maxOutputBytes, "max-output-bytes", d.Limits.MaxOutputBytes, "bytes of output one run may send (console text, value previews, facts, host calls, errors, the output); past it the run ends output_limit")
	fs.IntVar(&c.socketMaxOutputBytes, "socket-max-output-bytes", serverDefaults.socketMaxOutputBytes, "a WebSocket run's output cap, below -max-output-bytes: the socket's outbox holds its whole done message")
	fs.IntVar(&c.maxInputBytes, "max-input-bytes", d.MaxInputBytes, "bytes of input JSON one run may have over the HTTP API, MCP and the CLI (a socket's input fits its message, maxMessageBytes)")
	fs.IntVar(&c.maxEvents, "max-events", d.Limits.MaxEvents, "events (logs, facts, errors) one run may send")
	fs.IntVar(&c.maxHostCalls, "max-host-calls", d.Limits.MaxHostCalls, "host function calls one run may make")
	fs.IntVar(&c.maxFactsBytes, "max-facts-bytes", d.Limits.MaxFactsBytes, "bytes one run's facts may hold (keys and JSON values, done.facts); past it the run ends output_limit with the facts as they were")
	fs.StringVar(&c.hostGlobals, "host-globals", defaultHostGlobals, "comma-separated host `functions` snippets may also call as globals (\"sleep\": await sleep(100)); a namespace such as \"kv\" exposes kv.get…; a JavaScript global's name is refused; \"\" for none")
	fs.StringVar(&c.libraryDir, "libraries", "", "`directory` of extra ESM bundles snippets may import, each by its file name (dir/name.js → \"name\")")
	fs.StringVar(&c.logLevel, "log-level", "info", "log `level`: debug, info, warn or error")
	fs.StringVar(&c.apiKeys, "api-keys", "", "`file` of API keys, one \"NAME KEY\" per line: a request with \"Authorization: Bearer KEY\" gets that name's own rate limit and queue share")
	sc := ratelimit.DefaultStoreConfig()
	fs.StringVar(&c.redisURL, "redis", "", "Redis `URL` (redis://[:password@]host:port/db, rediss:// for TLS) through which instances share per-client limits; empty: in-process limits")
	fs.DurationVar(&c.redisTimeout, "redis-timeout", sc.Timeout, "longest a limit decision waits for Redis before deciding in-process; past it decisions stay in-process until a probe (every second) finds Redis answering a script within it (a Redis that answers PING but not scripts is \"slow\": /readyz WARN, still ready)")
	fs.BoolVar(&c.redisOptional, "redis-optional", false, "keep /readyz at 200 (with a WARN redis line) while Redis is unreachable")
	fs.Int64Var(&c.kvBytes, "kv-bytes", defaultKVLimits.totalBytes, "bytes the host.kv store holds in all; past it the least recently used tabs' data is dropped")
	fs.Int64Var(&c.kvClientBytes, "kv-client-bytes", defaultKVLimits.clientBytes, "bytes one client's (IP's or API key's) tabs may hold in host.kv; past it kv.set fails")
	fs.DurationVar(&c.kvTTL, "kv-ttl", defaultKVLimits.ttl, "how long a tab's host.kv data outlives the tab's last use (a closed tab's data expires)")
	fs.Int64Var(&c.outboxBytes, "outbox-bytes", serverDefaults.outboxBytes, "bytes that may wait to be written to all sockets; a socket whose message would cross it is dropped as too slow")
	fs.Int64Var(&c.outboxIPBytes, "outbox-client-bytes", serverDefaults.outboxClientBytes, "bytes that may wait to be written to one client IP's sockets; past it the socket is dropped as too slow (each socket also has its own 8 MiB)")
	fs.IntVar(&c.socketsPerIP, "max-sockets-per-ip", serverDefaults.socketsPerIP, "WebSockets one client IP may hold open at once (with -redis, across all instances); past it an upgrade is 429")
	fs.IntVar(&c.maxSockets, "max-sockets", serverDefaults.sockets, "WebSockets this server holds open at once, lowered at start to fit the open-file limit; past it an upgrade is 503")
	fs.IntVar(&c.runsPerIP, "max-runs-per-ip", serverDefaults.runsPerClient, "runs one client (IP or API key) may have queued or running at once, sockets and HTTP together; past it a run ends busy")
	fs.DurationVar(&c.drainDelay, "drain-delay", 0, "on SIGTERM, how long /readyz fails while new sockets and runs are still accepted, before the drain refuses them: set it to the load balancer's health-check interval when the balancer does not retry a refused upgrade elsewhere (Caddy)")
	fs.DurationVar(&c.drainTimeout, "drain-timeout", serverDefaults.drainTimeout, "on SIGTERM, how long the whole drain takes: runs in flight may finish until its last quarter (at most 1 s), then are cancelled; each gets its done on every transport before it ends")
	fs.StringVar(&c.publicURL, "public-url", "", "the page's public `URL` (e.g. https://play.example.com/), for the share links the MCP tool returns; empty: from each request's Host")
	fs.Float64Var(&c.mcpRate, "mcp-rate", api.DefaultCallsPerSecond, "JSON-RPC calls per second each client (IP or API key) may make to /mcp, every method and each call of a batch counted (a batch holds at most "+fmt.Sprint(api.MaxBatchCalls)+" calls); past it a POST is 429")
	fs.IntVar(&c.mcpBurst, "mcp-burst", api.DefaultCallBurst, "JSON-RPC calls a client may make to /mcp at once (the -mcp-rate bucket's size)")
	fs.DurationVar(&c.detachMax, "detach-max", runs.DefaultDetachMax, "longest a run may go on with no connection and no watcher (its detach.graceMs is capped to it); 0 or negative: runs may not detach")
	fs.DurationVar(&c.watchRetain, "watch-retain", runs.DefaultRetain, "how long a finished run's messages stay for a late watcher or a reattaching client")
	fs.IntVar(&c.watchBufferBytes, "watch-buffer-bytes", runs.DefaultBufferBytes, "bytes of one run's latest messages kept for watchers and reattach (a watcher that falls further behind is dropped)")
	fs.Int64Var(&c.watchClientBytes, "watch-client-bytes", runs.DefaultClientBytes, "bytes the kept messages of one client's (IP's or API key's) runs may hold together; past it their oldest messages go")
	fs.Int64Var(&c.watchBytes, "watch-bytes", runs.DefaultTotalBytes, "bytes the kept messages of all runs may hold; past it the oldest finished runs go")
	fs.IntVar(&c.maxWatchers, "max-watchers", runs.DefaultMaxWatchers, "watchers one run may have at once")
	fs.StringVar(&c.fetchPolicy, "fetch-policy", "", "`file` of the fetch policy (JSON, docs/fetch.md): the origins snippets may fetch, the headers (secrets from the environment) the server attaches, the budgets; empty: fetch rejects")
	fs.StringVar(&c.apiOrigins, "api-origins", "", "comma-separated browser `origins` allowed to call /api/v1/ and /mcp cross-origin (\"*\" for any); none by default: no CORS headers")
	fs.StringVar(&c.otlpEndpoint, "otlp-endpoint", "", "OTLP/HTTP collector base `URL` (e.g. http://127.0.0.1:4318, Jaeger's or an OpenTelemetry Collector's) that receives a trace span of every run, its queue, bundle and execute stages and its host calls; empty: no tracing (OTEL_EXPORTER_OTLP_HEADERS, OTEL_TRACES_SAMPLER… tune it)")
	fs.VisitAll(func(f *flag.Flag) {
		f.Usage += " (env " + envName(f.Name) + ")"
	})
	if err := fs.Parse(args); err != nil {
		return nil, err
	}
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	var envErr error
	fs.VisitAll(func(f *flag.Flag) {
		if v := getenv(envName(f.Name)); v != "" && !set[f.Name] && envErr == nil {
			if err := fs.Set(f.Name, v); err != nil {
				envErr = fmt.Errorf("%s=%q: %v", envName(f.Name), v, err)
			}
		}
	})
	if envErr != nil {
		return nil, envErr
	}
	if fs.NArg() > 0 {
		return nil, fmt.Errorf("unexpected arguments: %q", fs.Args())
	}
	if err := resolvePaths(c); err != nil {
		return nil, err
	}
	if port := getenv("PORT"); port != "" {
		host, _, err := net.SplitHostPort(c.addr)
		if err != nil {
			return nil, fmt.Errorf("-addr %q: %v", c.addr, err)
		}
		c.addr = net.JoinHostPort(host, port)
	}
	return c, nil
}

// resolvePaths makes the flags that name files or directories absolute
// (worker processes run in another directory, where a relative path names
// nothing) and checks at start that each names what it must, so that a
// typo is an exit with a clear message, not a server whose every run waits
// for a worker that cannot start.
func resolvePaths(c *config) error {
	for _, f := range []struct {
		name string
		path *string
		dir  bool
	}{{"libraries", &c.libraryDir, true}, {"api-keys", &c.apiKeys, false}, {"fetch-policy", &c.fetchPolicy, false}} {
		if *f.path == "" {
			continue
		}
		abs, err := filepath.Abs(*f.path)
		if err != nil {
			return fmt.Errorf("-%s %q: %v", f.name, *f.path, err)
		}
		fi, err := os.Stat(abs)
		switch {
		case err != nil:
			return fmt.Errorf("-%s %q: %v", f.name, *f.path, err)
		case f.dir && !fi.IsDir():
			return fmt.Errorf("-%s %q: %s is not a directory", f.name, *f.path, abs)
		case !f.dir && !fi.Mode().IsRegular():
			return fmt.Errorf("-%s %q: %s is not a regular file", f.name, *f.path, abs)
		}
		*f.path = abs
	}
	return nil
}

func envName(flagName string) string {
	return "PLAYGROUND_" + strings.ToUpper(strings.ReplaceAll(flagName, "-", "_"))
}

// defaultHostGlobals are the shipped host functions snippets may call as
// globals by default (-host-globals): names no JavaScript runtime gives
// meaning to, so `await sleep(100)` and `await echo(x)` run as written.
const defaultHostGlobals = "echo,sleep"

// serverDefaults are the defaults of the server's own limits (the flags
// of the same names), in one block as the pool's are in
// sandbox.DefaultConfig.
var serverDefaults = struct {
	outboxBytes, outboxClientBytes int64 // -outbox-bytes, -outbox-client-bytes
	sockets, socketsPerIP          int   // -max-sockets, -max-sockets-per-ip
	runsPerClient                  int   // -max-runs-per-ip
	drainTimeout                   time.Duration
	// socketMaxOutputBytes is -socket-max-output-bytes: the output cap
	// every transport had before the HTTP API's grew for data (1 MiB),
	// which a socket's 8 MiB outbox holds beside the facts.
	socketMaxOutputBytes int
}{
	outboxBytes: 256 << 20, outboxClientBytes: 32 << 20,
	sockets: 10_000, socketsPerIP: 16,
	runsPerClient:        8,
	drainTimeout:         10 * time.Second,
	socketMaxOutputBytes: 1 << 20,
}

// maxFactsBytes bounds -max-facts-bytes: half a socket's outbox.
const maxFactsBytes = 4 << 20

func splitList(s string) []string {
	var out []string
	for _, p := range strings.Split(s, ",") {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	return out
}

func parsePrefixes(s string) ([]netip.Prefix, error) {
	var out []netip.Prefix
	for _, p := range splitList(s) {
		if !strings.Contains(p, "/") {
			a, err := netip.ParseAddr(p)
			if err != nil {
				return nil, fmt.Errorf("trusted proxy %q: %v", p, err)
			}
			out = append(out, netip.PrefixFrom(a, a.BitLen()))
			continue
		}
		pr, err := netip.ParsePrefix(p)
		if err != nil {
			return nil, fmt.Errorf("trusted proxy %q: %v", p, err)
		}
		out = append(out, pr.Masked())
	}
	return out, nil
}

// run serves until ctx ends. When ready is non-nil it receives the bound
// address once the server listens (tests use it).
func run(ctx context.Context, args []string, getenv func(string) string, stderr io.Writer, ready chan<- string) error {
	c, err := parseFlags(args, getenv, stderr)
	if errors.Is(err, flag.ErrHelp) {
		return nil
	}
	if err != nil {
		return err
	}
	var level slog.Level
	if err := level.UnmarshalText([]byte(c.logLevel)); err != nil {
		return fmt.Errorf("-log-level: %v", err)
	}
	log := slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: level}))
	proxies, err := parsePrefixes(c.trustedProxies)
	if err != nil {
		return err
	}

	tr, err := tracing.New(ctx, tracing.Config{Endpoint: c.otlpEndpoint, ServiceVersion: version(), Log: log})
	if err != nil {
		return fmt.Errorf("-otlp-endpoint: %v", err)
	}
	defer flushTraces(tr, log)

	var keys *api.Keys
	if c.apiKeys != "" {
		if keys, err = api.LoadKeys(c.apiKeys); err != nil {
			return fmt.Errorf("-api-keys: %v", err)
		}
	}

	kv := defaultKVLimits
	kv.totalBytes, kv.clientBytes, kv.ttl = c.kvBytes, c.kvClientBytes, c.kvTTL
	runLimits := sandbox.DefaultConfig().Limits
	runLimits.MaxOutputBytes, runLimits.MaxEvents, runLimits.MaxHostCalls = c.maxOutputBytes, c.maxEvents, c.maxHostCalls
	runLimits.MaxFactsBytes = c.maxFactsBytes
	if c.maxFactsBytes > maxFactsBytes {
		// done carries the facts in one message, which must fit a socket's
		// 8 MiB outbox (session.Config.OutboxBytes) beside the run's output.
		return fmt.Errorf("-max-facts-bytes %d: at most %d (done carries the facts in one message)", c.maxFactsBytes, maxFactsBytes)
	}
	host := hostFunctions(newKVStore(kv))
	if c.fetchPolicy != "" {
		pol, err := egress.LoadPolicy(c.fetchPolicy, getenv)
		if err != nil {
			return fmt.Errorf("-fetch-policy: %v", err)
		}
		// Each fetch is a client span under its host call's and carries
		// traceparent (tracing.Tracer.Transport; a nil Tracer adds nothing).
		fetch, err := egress.New(egress.Config{Policy: pol, Log: log, Wrap: tr.Transport})
		if err != nil {
			return fmt.Errorf("-fetch-policy: %v", err)
		}
		host[pipe.FetchHost] = fetch.HostFunc()
	}
	pool, err := sandbox.NewPool(sandbox.Config{
		Workers:        c.workers,
		Spares:         noneIfZero(c.spares), // -spare-workers 0 means none, where Config's zero is the default
		MaxParked:      c.maxParked,
		MemoryBytes:    c.memory,
		MemoryBudget:   c.memoryBudget,
		QueueSize:      c.queue,
		DefaultTimeout: c.timeout,
		MinTimeout:     c.minTimeout,
		MaxTimeout:     c.maxTimeout,
		MaxFiles:       c.maxFiles,
		MaxSourceBytes: c.maxSourceBytes,
		MaxInputBytes:  c.maxInputBytes,
		Limits:         runLimits,
		Host:           host,
		HostGlobals:    splitList(c.hostGlobals),
		LibraryDir:     c.libraryDir,
		Log:            log,
	})
	if err != nil {
		return err
	}
	rl := ratelimit.Config{PerSecond: c.rate, Burst: c.burst}
	var lim ratelimit.RateLimiter = ratelimit.New(rl)
	var sockets, active ratelimit.Counts = ratelimit.NewLocalCounts(c.socketsPerIP), ratelimit.NewLocalCounts(c.runsPerIP)
	var store *ratelimit.Store
	var stream runs.Stream
	if c.redisURL != "" {
		rs, err := runs.NewRedisStream(runs.RedisConfig{URL: c.redisURL, MaxLen: runs.DefaultBufferMessages,
			TTL: c.maxTimeout + c.watchRetain + time.Minute, Retain: c.watchRetain, Log: log})
		if err != nil {
			return fmt.Errorf("-redis: %v", err)
		}
		defer rs.Close()
		stream = rs
		store, err = ratelimit.NewStore(ratelimit.StoreConfig{URL: c.redisURL, Timeout: c.redisTimeout, Log: log})
		if err != nil {
			return fmt.Errorf("-redis: %v", err)
		}
		defer store.Close()
		lim = ratelimit.NewShared(store, "runs", rl)
		sockets = ratelimit.NewSharedCounts(store, "sockets", c.socketsPerIP)
		active = ratelimit.NewSharedCounts(store, "active", c.runsPerIP)
	}
	parked := c.maxParked // parked runs keep their worker processes: descriptors for them too
	if parked == 0 {
		parked = sandbox.ParkPerWorker * c.workers
	}
	maxSockets := fitSockets(c.maxSockets, c.workers+c.spares+max(parked, 0), log)

	poolStats := func() metrics.Pool {
		st := pool.Stats()
		return metrics.Pool{Workers: st.Workers, Live: st.Live, Started: st.Started, Idle: int64(st.Idle), Busy: st.Busy, Parked: st.Parked, Queued: int64(st.Queued),
			Runs: st.Runs, Kills: st.Kills, Crashes: st.Crashes, Restarts: st.Restarts, StartFailures: st.Failures,
			PSSBytes: st.PSSBytes, BreakerOpen: st.BreakerOpen}
	}
	var site *web.Server
	var stopping atomic.Bool // SIGTERM came: /readyz fails from then on
	mcfg := metrics.Config{
		Pool: poolStats,
		Sessions: func() metrics.Sessions {
			sm := site.Metrics()
			return metrics.Sessions{Open: sm.Sessions.Load(), ActiveRuns: sm.ActiveRuns.Load(), QueuedRuns: sm.QueuedRuns.Load()}
		},
		Version: version(),
	}
	checks := []metrics.Check{metrics.WorkersCheck(poolStats), metrics.BreakerCheck(poolStats),
		metrics.DrainCheck(stopping.Load)}
	if store != nil {
		mcfg.Store = func() metrics.Store { return metrics.Store{Up: store.Up(), Fallbacks: store.Fallbacks()} }
		checks = append(checks, metrics.StoreCheck(func() error {
			err := store.Status()
			if errors.Is(err, ratelimit.ErrStoreSlow) {
				return metrics.Degraded(err) // serving, limits in-process: no instance leaves the balancer for it
			}
			return err
		}, c.redisOptional))
	}
	m := metrics.New(mcfg)

	a := pool.Announce()
	a.Host = slices.DeleteFunc(a.Host, func(n string) bool { return n == pipe.FetchHost }) // fetch is a global, not host.fetch
	limits := engine.HelloLimits(a, engine.ClientLimits{PerSecond: lim.Config().PerSecond, Burst: lim.Config().Burst,
		Sockets: sockets.Max(), Runs: active.Max()})
	// One run engine for every transport: the sockets, the HTTP API and MCP.
	detachMax := c.detachMax
	if detachMax <= 0 {
		detachMax = -1 // runs.Config: no detach
	}
	hub := runs.New(runs.Config{BufferBytes: c.watchBufferBytes, ClientBytes: c.watchClientBytes, TotalBytes: c.watchBytes,
		Retain: c.watchRetain, MaxWatchers: c.maxWatchers, DetachMax: detachMax, Stream: stream, Log: log})
	defer hub.Close()
	eng := &engine.Engine{Runner: pool, Limiter: lim, Limits: limits, Observer: m, Runs: active, Hub: hub, Trace: tr, Log: log}
	programs := api.New(api.Config{
		Engine:      eng,
		Modules:     a.Modules,
		Host:        a.Host,
		ClientIP:    func(r *http.Request) string { return site.ClientIP(r) },
		Keys:        keys,
		Calls:       ratelimit.New(ratelimit.Config{PerSecond: c.mcpRate, Burst: c.mcpBurst}),
		CORSOrigins: splitList(c.apiOrigins),
		PageURL:     c.publicURL,
		Log:         log,
	})
	site = web.NewServer(web.Config{
		Engine:               eng,
		SocketMaxOutputBytes: c.socketMaxOutputBytes,
		Modules:              a.Modules,
		Host:                 a.Host,
		HostGlobals:          splitList(c.hostGlobals),
		OriginPatterns:       splitList(c.origins),
		EmbedOrigins:         splitList(c.embedOrigins),
		TrustedProxies:       proxies,
		AllowedHosts:         allowedHosts(c.hosts, c.addr),
		PoolStats:            func() any { return pool.Stats() },
		Sockets:              sockets,
		MaxSockets:           maxSockets,
		OutboxBudget:         session.NewBudget(c.outboxBytes, c.outboxIPBytes),
		Metrics:              m.Handler(),
		Ready:                metrics.NewReadiness(checks...),
		Instrument:           m.InstrumentHandler,
		Programs:             programs,
		Log:                  log,
	})

	ln, err := net.Listen("tcp", c.addr)
	if err != nil {
		return err
	}
	ln = web.LimitListener(ln, site.ConnLimits()) // plain connections count too, per IP and in all
	srv := &http.Server{
		Handler:           site,
		ReadHeaderTimeout: readHeaderTimeout,
		MaxHeaderBytes:    maxHeaderBytes,
		IdleTimeout:       time.Minute,
		ErrorLog:          slog.NewLogLogger(log.Handler(), slog.LevelWarn),
	}
	log.Info("playground listening", "addr", "http://"+ln.Addr().String())
	if ready != nil {
		ready <- ln.Addr().String()
	}
	serveErr := make(chan error, 1)
	go func() { serveErr <- srv.Serve(ln) }()

	select {
	case err := <-serveErr:
		return err
	case <-ctx.Done():
	}
	stopping.Store(true)
	if c.drainDelay > 0 {
		log.Info("not ready; still serving", "for", c.drainDelay)
		time.Sleep(c.drainDelay)
	}
	shutdown(srv, site, hub, c.drainTimeout, log)
	return pool.Close()
}

// Header limits of the HTTP server: a request's headers must arrive within
// readHeaderTimeout and hold at most maxHeaderBytes (net/http adds 4 KiB of
// slack), so a stalled header line holds a few KiB, not net/http's default
// 1 MiB, per connection. Browsers send 1-3 KiB of headers; 16 KiB leaves room
// for large cookies of a shared domain.
const (
	readHeaderTimeout = 5 * time.Second
	maxHeaderBytes    = 16 << 10
)

// noneIfZero maps a count flag whose 0 means none (-spare-workers) to
// sandbox.Config's form, where 0 is the default and a negative value none.
func noneIfZero(n int) int {
	if n <= 0 {
		return -1
	}
	return n
}

// cancelMargin is the part of -drain-timeout kept for cancelling what is
// still running: runs get their done and sockets their 1001 before the
// timeout ends (an orchestrator's grace period).
func cancelMargin(timeout time.Duration) time.Duration { return min(timeout/4, time.Second) }

// shutdown drains site within timeout, all transports together: new runs
// and sockets are refused at once; runs in flight get until timeout minus
// cancelMargin to finish; then what is left is cancelled (each run still
// sends its done, sockets close with 1001) and the HTTP server and the
// sessions get the rest of timeout to write it. Connections still open
// then are closed.
func shutdown(srv *http.Server, site *web.Server, hub *runs.Hub, timeout time.Duration, log *slog.Logger) {
	deadline := time.Now().Add(timeout)
	drain(site, deadline.Add(-cancelMargin(timeout)), log)
	site.Close() // what is left is cancelled (each run still gets its done); sockets close with 1001
	hub.Close()  // and the detached runs whose sockets are gone
	ctx, cancel := context.WithDeadline(context.Background(), deadline)
	defer cancel()
	if err := srv.Shutdown(ctx); err != nil { // stop accepting; finish plain HTTP (their runs were cancelled)
		log.Warn("HTTP requests still open at the drain timeout", "err", err)
		srv.Close()
	}
	if err := site.Wait(ctx); err != nil {
		log.Warn("sessions still open at the drain timeout", "err", err)
	}
}

// flushTraces exports the spans still waiting (the runs cancelled by the
// shutdown's) before the process exits, for at most traceFlushTimeout.
func flushTraces(tr *tracing.Tracer, log *slog.Logger) {
	ctx, cancel := context.WithTimeout(context.Background(), traceFlushTimeout)
	defer cancel()
	if err := tr.Shutdown(ctx); err != nil {
		log.Warn("tracing: spans not exported at exit", "err", err)
	}
}

// traceFlushTimeout bounds the last export of spans at exit, so that a
// collector that does not answer holds the exit up by at most this (the
// exporter's own timeout for one request is 10 s; an orchestrator's grace
// period is running).
const traceFlushTimeout = 5 * time.Second

// allowedHosts is -hosts, or by default the localhost names when addr is
// a loopback address (a developer's machine: DNS rebinding's target), else
// none (no check: a public deployment sets -hosts).
func allowedHosts(flag, addr string) []string {
	if hosts := splitList(flag); len(hosts) > 0 {
		return hosts
	}
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return nil
	}
	if ip, err := netip.ParseAddr(host); (err == nil && ip.IsLoopback()) || strings.EqualFold(host, "localhost") {
		return web.LoopbackHosts
	}
	return nil
}

// drain is the graceful part of a shutdown (after /readyz has failed for
// -drain-delay, so a load balancer stops sending clients): new sockets and
// runs are refused with a retryable status, and runs in flight get until
// deadline to finish.
func drain(site *web.Server, deadline time.Time, log *slog.Logger) {
	site.Drain()
	active := site.Metrics().ActiveRuns.Load()
	log.Info("draining", "activeRuns", active, "until", deadline)
	for active > 0 && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
		active = site.Metrics().ActiveRuns.Load()
	}
	log.Info("drained", "activeRuns", active)
}

// version is the module version the binary was built from ("(devel)" for
// a build from a work tree).
func version() string {
	if bi, ok := debug.ReadBuildInfo(); ok {
		return bi.Main.Version
	}
	return "unknown"
}
