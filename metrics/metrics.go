// Package metrics exposes the server process to Prometheus: what the runs,
// sessions and the sandbox pool are doing, the shared-limits store, build
// info, and the Go and process collectors, on one registry served by
// Handler. It also holds the readiness check (Readiness) that /readyz serves.
//
// The rest of the server feeds it without importing Prometheus: per-run
// events through the methods of *Metrics (RunDone, Refused, BytesSent),
// and point-in-time figures through the funcs of Config, read once per
// scrape. Every label value is one of a fixed set named below; an unknown
// value is recorded as "other", so no client input (an IP, a key, a run id)
// ever becomes a label.
package metrics

import (
	"net/http"
	"runtime"
	"runtime/debug"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"
)

// Namespace starts every metric name of this package.
const Namespace = "playground"

// Pool is a point-in-time view of the sandbox pool in plain numbers (the
// fields of sandbox.PoolStats, plus the breaker state). Counters are totals
// since the pool started.
type Pool struct {
	Workers       int   // runs that may execute at once (configured)
	Live          int64 // worker processes started or starting
	Started       int64 // worker processes that finished starting and have not exited
	Idle          int64 // started workers waiting for a run
	Busy          int64 // runs executing
	Parked        int64 // runs waiting on host calls with their slot given back (their worker kept)
	Queued        int64 // runs waiting for a worker
	Runs          int64 // runs executed, in all
	Kills         int64 // workers killed (deadline, cancel, limit)
	Crashes       int64 // workers that died on their own
	Restarts      int64 // replacement workers started
	StartFailures int64 // workers that failed to start
	PSSBytes      int64 // proportional set size of all worker processes, bytes
	BreakerOpen   bool  // repeated start failures opened the circuit breaker
}

// Sessions is a point-in-time view of the WebSocket sessions (the fields of
// engine.Metrics).
type Sessions struct {
	Open       int64 // open sockets
	ActiveRuns int64 // runs between their run message and their done
	QueuedRuns int64 // active runs waiting for a sandbox slot
}

// Store is a point-in-time view of the Redis that limits are shared
// through (ratelimit.Store's Up and Fallbacks).
type Store struct {
	Up        bool   // Redis answered the last operation or probe
	Fallbacks uint64 // times Redis became unreachable and limits went in-process
}

// Config says where the point-in-time figures come from. Each func is
// called once per scrape, from the scraping goroutine, and must be safe
// for concurrent use; a nil func leaves its metrics out.
type Config struct {
	Pool     func() Pool
	Sessions func() Sessions
	// Store is set only when a shared store (-redis) is configured.
	Store func() Store
	// Version is the build_info "version" label. Defaults to the main
	// module's version from runtime/debug.ReadBuildInfo ("(devel)" for a
	// build from a work tree).
	Version string
}

// Label values. Outcomes and error kinds are the protocol's (docs/protocol.md:
// done.outcome, error.kind); anything else is recorded as "other".
var (
	outcomes = set("ok", "error", "timeout", "memory_limit", "output_limit", "cancelled", "rate_limited", "busy", "invalid")
	kinds    = set("BUNDLE_ERROR", "SYNTAX_ERROR", "RUNTIME_ERROR", "TIMEOUT", "MEMORY_LIMIT", "OUTPUT_LIMIT",
		"SECURITY_ERROR", "INVALID_REQUEST", "INTERNAL")
	// Refusal reasons: rate_limited and busy are counted by RunDone; the
	// others are for Refused.
	reasons = set(RefusedRateLimited, RefusedBusy, RefusedTooManySockets, RefusedTooManyRuns, RefusedDraining, RefusedOrigin)
	// notExecuted are outcomes of runs refused before a worker saw them: no
	// timing is observed for them.
	notExecuted = set("rate_limited", "busy", "invalid")
)

// Reasons for Refused.
const (
	RefusedRateLimited    = "rate_limited"     // the per-key run budget is spent (counted by RunDone)
	RefusedBusy           = "busy"             // the pool's queue is full (counted by RunDone)
	RefusedTooManySockets = "too_many_sockets" // a client key holds its maximum of open sockets
	RefusedTooManyRuns    = "too_many_runs"    // a client key holds its maximum of active runs
	RefusedDraining       = "draining"         // the server is shutting down
	RefusedOrigin         = "origin"           // a WebSocket from an origin not allowed
)

const other = "other"

func set(vs ...string) map[string]bool {
	m := make(map[string]bool, len(vs))
	for _, v := range vs {
		m[v] = true
	}
	return m
}

func bounded(v string, allowed map[string]bool) string {
	if allowed[v] {
		return v
	}
	return other
}

// Metrics is the server's Prometheus registry and the recorders the rest of
// the server calls. All methods are safe for concurrent use.
type Metrics struct {
	reg *prometheus.Registry

	runs        *prometheus.CounterVec
	queue       prometheus.Histogram
	bundle      prometheus.Histogram
	run         prometheus.Histogram
	outputBytes prometheus.Counter
	sentBytes   prometheus.Counter
	refusals    *prometheus.CounterVec
	httpReqs    *prometheus.CounterVec
	httpTime    *prometheus.HistogramVec
}

// Bucket bounds in seconds. Queueing and runs span 0.5 ms (a warm hello
// world, docs/benchmarks.md) to the 30 s maximum timeout; bundling is
// milliseconds unless a cold library is compiled.
var (
	queueBuckets  = []float64{.0005, .001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10, 30}
	bundleBuckets = []float64{.0005, .001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5}
	runBuckets    = []float64{.0005, .001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10, 30, 60}
)

// New returns Metrics with every collector registered: this package's,
// the Go runtime's (go_*), the process's (process_*) and
// playground_build_info.
func New(cfg Config) *Metrics {
	reg := prometheus.NewRegistry()
	m := &Metrics{
		reg: reg,
		runs: prometheus.NewCounterVec(prometheus.CounterOpts{Namespace: Namespace, Name: "runs_total",
			Help: "Runs that ended (one per done sent), by outcome and error kind (\"none\" when no error event ended the run)."},
			[]string{"outcome", "error_kind"}),
		queue: prometheus.NewHistogram(prometheus.HistogramOpts{Namespace: Namespace, Name: "run_queue_seconds",
			Help: "Time runs waited for a worker.", Buckets: queueBuckets}),
		bundle: prometheus.NewHistogram(prometheus.HistogramOpts{Namespace: Namespace, Name: "run_bundle_seconds",
			Help: "Time runs spent bundling (esbuild).", Buckets: bundleBuckets}),
		run: prometheus.NewHistogram(prometheus.HistogramOpts{Namespace: Namespace, Name: "run_duration_seconds",
			Help: "Time runs executed in a worker.", Buckets: runBuckets}),
		outputBytes: prometheus.NewCounter(prometheus.CounterOpts{Namespace: Namespace, Name: "run_output_bytes_total",
			Help: "Bytes of output (logs, facts, calls, errors) runs produced, as the parent counted them."}),
		sentBytes: prometheus.NewCounter(prometheus.CounterOpts{Namespace: Namespace, Name: "sent_bytes_total",
			Help: "Bytes of WebSocket messages sent to clients."}),
		refusals: prometheus.NewCounterVec(prometheus.CounterOpts{Namespace: Namespace, Name: "refusals_total",
			Help: "Runs and sockets refused, by reason (rate_limited, busy, too_many_sockets, too_many_runs, draining, origin, other)."},
			[]string{"reason"}),
	}
	m.httpReqs = prometheus.NewCounterVec(prometheus.CounterOpts{Namespace: Namespace, Name: "http_requests_total",
		Help: "HTTP requests answered, by route (as given to InstrumentHandler) and status code (101 for an accepted WebSocket)."},
		[]string{"route", "code"})
	m.httpTime = prometheus.NewHistogramVec(prometheus.HistogramOpts{Namespace: Namespace, Name: "http_request_duration_seconds",
		Help: "Time to answer HTTP requests, by route; WebSocket routes are not timed (a socket lives for minutes).", Buckets: prometheus.DefBuckets},
		[]string{"route"})
	for _, o := range []string{"ok", "error", "timeout", "cancelled"} {
		m.runs.WithLabelValues(o, "none") // present at 0 from the start, so rate() works at once
	}
	for r := range reasons {
		m.refusals.WithLabelValues(r)
	}
	reg.MustRegister(m.runs, m.queue, m.bundle, m.run, m.outputBytes, m.sentBytes, m.refusals, m.httpReqs, m.httpTime,
		collectors.NewGoCollector(),
		collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}),
		buildInfo(cfg.Version),
		&snapshots{cfg: cfg},
	)
	return m
}

// buildInfo is playground_build_info{version, revision, goversion} 1.
func buildInfo(version string) prometheus.Collector {
	revision := "unknown"
	if bi, ok := debug.ReadBuildInfo(); ok {
		if version == "" {
			version = bi.Main.Version
		}
		for _, s := range bi.Settings {
			if s.Key == "vcs.revision" {
				revision = s.Value
			}
		}
	}
	if version == "" {
		version = "unknown"
	}
	g := prometheus.NewGauge(prometheus.GaugeOpts{Namespace: Namespace, Name: "build_info",
		Help:        "Always 1; the labels say which build is running.",
		ConstLabels: prometheus.Labels{"version": version, "revision": revision, "goversion": runtime.Version()}})
	g.Set(1)
	return g
}

// Registry returns the registry, for a caller that registers more collectors.
func (m *Metrics) Registry() *prometheus.Registry { return m.reg }

// Handler serves the registry in the Prometheus text (or negotiated)
// exposition format: mount it at GET /metrics. Scrape errors are counted in
// promhttp_metric_handler_errors_total and answered with a 500.
func (m *Metrics) Handler() http.Handler {
	return promhttp.HandlerFor(m.reg, promhttp.HandlerOpts{Registry: m.reg, EnableOpenMetrics: true})
}

// RunDone records a run that ended: call it once per done sent, refused
// runs included. outcome is done.outcome; errorKind is the kind of the error
// event that ended the run, "" if none. queue, bundle and run are the
// run's done.stats (queueMs, bundleMs, runMs) as durations, observed in the
// histograms unless the run never reached a worker (outcome rate_limited,
// busy, invalid). outputBytes is done.stats.outputBytes. Outcomes
// rate_limited and busy also count as refusals with that reason.
func (m *Metrics) RunDone(outcome, errorKind string, queue, bundle, run time.Duration, outputBytes int) {
	outcome = bounded(outcome, outcomes)
	kind := "none"
	if errorKind != "" {
		kind = bounded(errorKind, kinds)
	}
	m.runs.WithLabelValues(outcome, kind).Inc()
	if outcome == RefusedRateLimited || outcome == RefusedBusy {
		m.refusals.WithLabelValues(outcome).Inc()
	}
	if notExecuted[outcome] {
		return
	}
	m.queue.Observe(queue.Seconds())
	m.bundle.Observe(bundle.Seconds())
	m.run.Observe(run.Seconds())
	if outputBytes > 0 {
		m.outputBytes.Add(float64(outputBytes))
	}
}

// Refused records a refusal that is not a run's done: reason is one of the
// Refused* constants (other values count as "other"). Do not call it for
// rate_limited or busy runs: RunDone counts those.
func (m *Metrics) Refused(reason string) {
	m.refusals.WithLabelValues(bounded(reason, reasons)).Inc()
}

// BytesSent records n bytes of WebSocket messages written to a client.
func (m *Metrics) BytesSent(n int) {
	if n > 0 {
		m.sentBytes.Add(float64(n))
	}
}

// InstrumentHandler counts h's requests in playground_http_requests_total
// {route, code} and, unless websocket is true, times them in
// playground_http_request_duration_seconds{route}. route must be a constant
// naming the mux pattern ("/", "/ws", "/api/run"), never the request path:
// a path is client input and would make the label unbounded. The wrapped
// ResponseWriter keeps http.Hijacker and http.Flusher, so WebSocket upgrades
// and streamed responses work through it.
func (m *Metrics) InstrumentHandler(route string, websocket bool, h http.Handler) http.Handler {
	h = promhttp.InstrumentHandlerCounter(m.httpReqs.MustCurryWith(prometheus.Labels{"route": route}), h)
	if websocket {
		return h
	}
	return promhttp.InstrumentHandlerDuration(m.httpTime.MustCurryWith(prometheus.Labels{"route": route}), h)
}

// snapshots collects the point-in-time figures of Config, calling each func
// once per scrape.
type snapshots struct{ cfg Config }

func desc(name, help string) *prometheus.Desc {
	return prometheus.NewDesc(prometheus.BuildFQName(Namespace, "", name), help, nil, nil)
}

var (
	dSessions   = desc("sessions_open", "Open WebSocket sessions.")
	dActive     = desc("runs_active", "Runs between their run message and their done.")
	dQueued     = desc("runs_queued", "Active runs waiting for a worker.")
	dWorkersMax = desc("workers_max", "Runs that may execute at once (-workers).")
	dLive       = desc("workers_live", "Worker processes started or starting.")
	dIdle       = desc("workers_idle", "Started workers waiting for a run.")
	dBusy       = desc("workers_busy", "Workers executing a run.")
	dParked     = desc("runs_parked", "Runs waiting on host calls with their slot given back (their worker process kept).")
	dPoolQueued = desc("pool_queued_runs", "Runs waiting in the pool's queue.")
	dPoolRuns   = desc("pool_runs_total", "Runs the pool executed.")
	dKills      = desc("worker_kills_total", "Workers killed (deadline, cancel, memory or output limit).")
	dCrashes    = desc("worker_crashes_total", "Workers that died on their own for a reason no run explains (a run over its memory or stack is its outcome, not a crash).")
	dRestarts   = desc("worker_restarts_total", "Replacement workers started.")
	dFailures   = desc("worker_start_failures_total", "Workers that failed to start.")
	dPSS        = desc("workers_pss_bytes", "Proportional set size of all worker processes (Linux; 0 elsewhere).")
	dBreaker    = desc("pool_breaker_open", "1 while repeated worker start failures hold the circuit breaker open, else 0.")
	dRedisUp    = desc("redis_up", "1 while the Redis that limits are shared through answers, else 0 (limits are in-process).")
	dFallbacks  = desc("redis_fallbacks_total", "Times Redis became unreachable and limits fell back to in-process.")
)

func (s *snapshots) Describe(ch chan<- *prometheus.Desc) {
	if s.cfg.Sessions != nil {
		ch <- dSessions
		ch <- dActive
		ch <- dQueued
	}
	if s.cfg.Pool != nil {
		for _, d := range []*prometheus.Desc{dWorkersMax, dLive, dIdle, dBusy, dParked, dPoolQueued, dPoolRuns, dKills, dCrashes, dRestarts, dFailures, dPSS, dBreaker} {
			ch <- d
		}
	}
	if s.cfg.Store != nil {
		ch <- dRedisUp
		ch <- dFallbacks
	}
}

func (s *snapshots) Collect(ch chan<- prometheus.Metric) {
	gauge := func(d *prometheus.Desc, v float64) { ch <- prometheus.MustNewConstMetric(d, prometheus.GaugeValue, v) }
	counter := func(d *prometheus.Desc, v float64) {
		ch <- prometheus.MustNewConstMetric(d, prometheus.CounterValue, v)
	}
	if s.cfg.Sessions != nil {
		st := s.cfg.Sessions()
		gauge(dSessions, float64(st.Open))
		gauge(dActive, float64(st.ActiveRuns))
		gauge(dQueued, float64(st.QueuedRuns))
	}
	if s.cfg.Pool != nil {
		p := s.cfg.Pool()
		gauge(dWorkersMax, float64(p.Workers))
		gauge(dLive, float64(p.Live))
		gauge(dIdle, float64(p.Idle))
		gauge(dBusy, float64(p.Busy))
		gauge(dParked, float64(p.Parked))
		gauge(dPoolQueued, float64(p.Queued))
		counter(dPoolRuns, float64(p.Runs))
		counter(dKills, float64(p.Kills))
		counter(dCrashes, float64(p.Crashes))
		counter(dRestarts, float64(p.Restarts))
		counter(dFailures, float64(p.StartFailures))
		gauge(dPSS, float64(p.PSSBytes))
		gauge(dBreaker, b2f(p.BreakerOpen))
	}
	if s.cfg.Store != nil {
		st := s.cfg.Store()
		gauge(dRedisUp, b2f(st.Up))
		counter(dFallbacks, float64(st.Fallbacks))
	}
}

func b2f(b bool) float64 {
	if b {
		return 1
	}
	return 0
}
