package metrics

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"
)

// Check is one condition of readiness.
type Check struct {
	// Name labels the check in the body ("workers", "breaker", "redis").
	Name string
	// Func returns nil when the condition holds, else why not (the error's
	// text is the reason shown). It should answer from memory; it is given
	// the request's context, cut to Readiness.Timeout.
	Func func(ctx context.Context) error
	// Warn makes a failure a warning: shown in the body, but the server
	// stays ready. For a degraded mode that still serves (limits fallen back
	// in-process) when taking every instance out of the load balancer would
	// be worse.
	Warn bool
}

// Readiness answers whether this instance should receive new traffic, from
// named checks. It is an http.Handler for GET/HEAD /readyz: 200 with "ready"
// when every non-Warn check passes, else 503 with "not ready"; the body then
// lists each check on its own line as "ok NAME", "FAIL NAME: reason" or
// "WARN NAME: reason", in the order given. Safe for concurrent use.
type Readiness struct {
	checks []Check
	// Timeout bounds all checks of one request together. Defaults to 2s.
	Timeout time.Duration
}

// NewReadiness returns a Readiness over checks.
func NewReadiness(checks ...Check) *Readiness {
	return &Readiness{checks: checks, Timeout: 2 * time.Second}
}

// Result is the outcome of one Check.
type Result struct {
	Name string
	Err  error // nil: the condition holds
	Warn bool
}

// Check runs every check in order and reports whether the server is ready
// and each check's result.
func (r *Readiness) Check(ctx context.Context) (ready bool, results []Result) {
	timeout := r.Timeout
	if timeout <= 0 {
		timeout = 2 * time.Second
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	ready = true
	for _, c := range r.checks {
		err := c.Func(ctx)
		warn := c.Warn || errors.As(err, new(degraded))
		if err != nil && !warn {
			ready = false
		}
		results = append(results, Result{Name: c.Name, Err: err, Warn: warn})
	}
	return ready, results
}

// ServeHTTP implements http.Handler.
func (r *Readiness) ServeHTTP(w http.ResponseWriter, req *http.Request) {
	ready, results := r.Check(req.Context())
	var b strings.Builder
	if ready {
		b.WriteString("ready\n")
	} else {
		b.WriteString("not ready\n")
	}
	for _, res := range results {
		switch {
		case res.Err == nil:
			fmt.Fprintf(&b, "ok %s\n", res.Name)
		case res.Warn:
			fmt.Fprintf(&b, "WARN %s: %v\n", res.Name, res.Err)
		default:
			fmt.Fprintf(&b, "FAIL %s: %v\n", res.Name, res.Err)
		}
	}
	h := w.Header()
	h.Set("Content-Type", "text/plain; charset=utf-8")
	h.Set("Cache-Control", "no-store")
	if ready {
		w.WriteHeader(http.StatusOK)
	} else {
		w.WriteHeader(http.StatusServiceUnavailable)
	}
	if req.Method != http.MethodHead {
		_, _ = w.Write([]byte(b.String()))
	}
}

// WorkersCheck fails while no worker process has finished starting: at
// start, and while every start fails (a missing library, a broken
// binary), when processes being started (Live) would not serve a run.
func WorkersCheck(pool func() Pool) Check {
	return Check{Name: "workers", Func: func(context.Context) error {
		p := pool()
		if p.Started <= 0 {
			if p.StartFailures > 0 {
				return fmt.Errorf("no worker process has started: %d failed to start (see the log)", p.StartFailures)
			}
			return errors.New("no worker process has started")
		}
		return nil
	}}
}

// BreakerCheck fails while the pool's circuit breaker is open (workers keep
// failing to start).
func BreakerCheck(pool func() Pool) Check {
	return Check{Name: "breaker", Func: func(context.Context) error {
		if pool().BreakerOpen {
			return errors.New("circuit breaker open: worker processes keep failing to start")
		}
		return nil
	}}
}

// DrainCheck fails once draining reports true (after SIGTERM): the load
// balancer stops sending new sockets before they are refused.
func DrainCheck(draining func() bool) Check {
	return Check{Name: "draining", Func: func(context.Context) error {
		if draining() {
			return errors.New("draining: shutting down, not taking new sessions")
		}
		return nil
	}}
}

// StoreCheck reports the shared store's status (ratelimit.Store.Status:
// "redis unreachable, using in-process limits: …"). warn makes it a
// warning rather than a failure (see Check.Warn); a status wrapped by
// Degraded is a warning either way.
func StoreCheck(status func() error, warn bool) Check {
	return Check{Name: "redis", Warn: warn, Func: func(context.Context) error { return status() }}
}

// Degraded marks a check's error as a degraded mode that still serves:
// shown as WARN, the server stays ready (as for Check.Warn, but decided
// per failure: a Redis whose scripts time out is degraded, limits are
// decided in-process, and failing /readyz would take every instance that
// shares it out of the balancer; a dead one may still fail it).
func Degraded(err error) error {
	if err == nil {
		return nil
	}
	return degraded{err}
}

type degraded struct{ error }

func (d degraded) Unwrap() error { return d.error }
