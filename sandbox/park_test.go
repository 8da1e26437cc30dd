package sandbox

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"
)

// TestQueueResume: a parked run's resume waiter is never busy, takes no
// waiting place, goes ahead of its key's new runs and is served
// round-robin with the other keys.
func TestQueueResume(t *testing.T) {
	q := newQueue(1, 0, 2)
	release, err := q.acquire(t.Context(), "a", nil)
	if err != nil {
		t.Fatal(err)
	}
	waiters := func(key string, resume bool) int { // key's waiters of that kind
		q.mu.Lock()
		defer q.mu.Unlock()
		n := 0
		for _, w := range q.waiting[key] {
			if w.resume == resume {
				n++
			}
		}
		return n
	}
	var mu sync.Mutex
	var order []string
	var wg sync.WaitGroup
	errs := make(chan error, 10)
	enqueue := func(name, key string, resume bool) {
		n := waiters(key, resume)
		wg.Go(func() {
			var rel func()
			var err error
			if resume {
				rel, err = q.resume(t.Context(), key)
			} else {
				rel, err = q.acquire(t.Context(), key, func(int) {})
			}
			if err != nil {
				errs <- fmt.Errorf("%s: %w", name, err)
				return
			}
			mu.Lock()
			order = append(order, name)
			mu.Unlock()
			rel()
		})
		for waiters(key, resume) == n { // wait until it is queued, to fix the arrival order
			time.Sleep(time.Millisecond)
		}
	}
	enqueue("a1", "a", false)
	enqueue("a2", "a", false)
	enqueue("a-resume", "a", true) // the queue is full: a resume waits anyway
	if got := q.len(); got != 2 {
		t.Errorf("len = %d; want 2 (a resume waiter is not a queued run)", got)
	}
	// b takes a's newest place (a has the longest line of new runs), never
	// a's resume waiter.
	enqueue("b", "b", false)
	release()
	wg.Wait()
	close(errs)
	var got []string
	for err := range errs {
		got = append(got, err.Error())
	}
	if want := []string{"a2: " + ErrBusy.Error()}; !slices.Equal(got, want) {
		t.Errorf("errors = %q; want %q", got, want)
	}
	if want := []string{"a-resume", "b", "a1"}; !slices.Equal(order, want) {
		t.Errorf("service order = %v; want %v (a's resume ahead of a's new runs, then round-robin)", order, want)
	}
}

// sleepHost is a host.sleep(ms) that honours its context.
func sleepHost() map[string]HostFunc {
	return map[string]HostFunc{"sleep": func(ctx context.Context, c HostCall) (json.RawMessage, error) {
		var ms float64
		if len(c.Args) > 0 {
			if err := json.Unmarshal(c.Args[0], &ms); err != nil {
				return nil, errors.New("sleep(ms) takes a number")
			}
		}
		t := time.NewTimer(time.Duration(ms) * time.Millisecond)
		defer t.Stop()
		select {
		case <-t.C:
			return json.Marshal(ms)
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}}
}

// waitFor polls cond until it holds; the bound only keeps a broken pool
// from hanging the test.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for end := time.Now().Add(30 * time.Second); !cond(); time.Sleep(2 * time.Millisecond) {
		if time.Now().After(end) {
			t.Fatalf("timed out waiting for %s", what)
		}
	}
}

// TestParkedSleepersDoNotStarve: three keys with two runs each waiting on
// host.sleep park when others want their slots; a fourth key's run starts
// at once and ends before any sleeper, the slots (CPU) stay bounded, and
// every sleeper ends ok with its output.
func TestParkedSleepersDoNotStarve(t *testing.T) {
	const sleepMs = 1500
	p := newTestPool(t, Config{Workers: 2, Spares: 1, Host: sleepHost()})
	type out struct {
		name string
		res  Result
		logs []string
		errs []Error
		end  time.Time
	}
	outs := make(chan out, 6)
	var wg sync.WaitGroup
	for _, key := range []string{"a", "b", "c"} {
		for i := range 2 {
			name := fmt.Sprintf("%s%d", key, i)
			wg.Go(func() {
				rec := &recorder{}
				res, err := p.Run(t.Context(), Request{Key: key, Timeout: 20 * time.Second, Input: json.RawMessage(`"` + name + `"`),
					Files: files("main.ts", fmt.Sprintf(`import { host, input } from "playground"; await host.sleep(%d); await host.sleep(%d); console.log("woke", input);`, sleepMs, sleepMs))}, rec.emit)
				if err != nil {
					t.Error(err)
				}
				outs <- out{name, res, rec.logs(), rec.errors(), time.Now()}
			})
		}
	}
	// Three take the slots; the others wait until those park, and then
	// hold the slots until a run waits again.
	waitFor(t, "six runs started", func() bool { st := p.Stats(); return st.Parked+st.Busy == 6 && st.Queued == 0 })
	if st := p.Stats(); st.Parked < 3 || st.Live > int64(2+1+st.MaxParked) {
		t.Errorf("with six sleeping runs: %+v; want at least 3 parked and at most Workers+Spares+MaxParked processes", st)
	}
	res, rec := run(t, p, Request{Key: "d", Files: files("main.ts", `console.log("hello")`)})
	victimEnd := time.Now()
	if res.Outcome != OutcomeOK || !slices.Equal(rec.logs(), []string{"hello"}) {
		t.Errorf("victim: %s %q %+v", res.Outcome, rec.logs(), rec.errors())
	}
	if res.Stats.Queue > sleepMs*time.Millisecond/2 { // a failure guard: it must not wait for a sleeper
		t.Errorf("victim queued %v", res.Stats.Queue)
	}
	wg.Wait()
	close(outs)
	for o := range outs {
		if o.res.Outcome != OutcomeOK || !slices.Equal(o.logs, []string{"woke " + o.name}) {
			t.Errorf("%s: %s %q %+v", o.name, o.res.Outcome, o.logs, o.errs)
		}
		if !o.end.After(victimEnd) {
			t.Errorf("%s ended before the victim: the victim waited for a sleeper", o.name)
		}
	}
	if peak := p.peakRunning.Load(); peak > 2+1 {
		t.Errorf("%d runs held a slot at once; want at most Workers + the reserve slot = 3", peak)
	}
	if p.parks.Load() < 4 {
		t.Errorf("parks = %d; want at least 4 (three to let the others start, one for the victim)", p.parks.Load())
	}
	waitFor(t, "the pool back to at most Workers+Spares+Workers processes", func() bool {
		st := p.Stats()
		return st.Parked == 0 && st.Busy == 0 && st.Live <= 3+2 && st.Live >= 3 && int64(st.Idle) == st.Live
	})
}

// TestParkedWorkerThatSpinsIsStopped: a parked run whose worker runs
// JavaScript (a timer fires while it awaits the host) is stopped and takes
// a slot back; it still ends ok.
func TestParkedWorkerThatSpinsIsStopped(t *testing.T) {
	p := newTestPool(t, Config{Workers: 1, Spares: 1, Host: sleepHost()})
	p.parkEager = true // park with nobody waiting
	res, rec := run(t, p, Request{Timeout: 10 * time.Second, Files: files("main.ts", `import { host } from "playground";
let spun = 0;
setTimeout(() => { const t = Date.now(); while (Date.now() - t < 300) spun++; }, 100);
await host.sleep(1000);
console.log(spun > 0 ? "spun" : "idle");
`)})
	if res.Outcome != OutcomeOK || !slices.Equal(rec.logs(), []string{"spun"}) {
		t.Fatalf("%s %q %+v", res.Outcome, rec.logs(), rec.errors())
	}
	if p.parks.Load() == 0 || p.stops.Load() == 0 {
		t.Errorf("parks %d, stops %d; want the run parked and its spinning worker stopped", p.parks.Load(), p.stops.Load())
	}
	if peak := p.peakRunning.Load(); peak > 2 {
		t.Errorf("peak %d runs holding a slot; want ≤ 2", peak)
	}
}

// TestParkedRunCancelAndTimeout: a parked run ends at its deadline
// (timeout) and at once on cancel, and either frees everything.
func TestParkedRunCancelAndTimeout(t *testing.T) {
	p := newTestPool(t, Config{Workers: 1, Spares: 1, Host: sleepHost()})
	p.parkEager = true // park with nobody waiting
	sleeper := files("main.ts", `import { host } from "playground"; await host.sleep(20000); console.log("late")`)

	res, rec := run(t, p, Request{Key: "a", Timeout: 1500 * time.Millisecond, Files: sleeper})
	if res.Outcome != OutcomeTimeout || len(rec.logs()) != 0 {
		t.Errorf("timeout: %s %q", res.Outcome, rec.logs())
	}
	if p.parks.Load() == 0 {
		t.Errorf("the sleeping run never parked")
	}

	ctx, cancel := context.WithCancel(t.Context())
	done := make(chan Result, 1)
	go func() {
		res, _ := p.Run(ctx, Request{Key: "a", Timeout: 25 * time.Second, Files: sleeper}, func(Event) {})
		done <- res
	}()
	waitFor(t, "a parked run", func() bool { return p.Stats().Parked == 1 })
	cancel()
	if res := <-done; res.Outcome != OutcomeCancelled {
		t.Errorf("cancel: %s", res.Outcome)
	}
	waitFor(t, "everything free", func() bool {
		st := p.Stats()
		return st.Parked == 0 && st.Busy == 0 && st.Queued == 0 && st.Live >= 2 && st.Live <= 3 && int64(st.Idle) == st.Live
	})
	res, rec = run(t, p, Request{Key: "a", Files: files("main.ts", `console.log("next")`)})
	if res.Outcome != OutcomeOK || !slices.Equal(rec.logs(), []string{"next"}) {
		t.Errorf("next run: %s %q", res.Outcome, rec.logs())
	}
}

// TestCloseWithParkedRuns: Close ends parked runs (cancelled) and returns.
func TestCloseWithParkedRuns(t *testing.T) {
	p, err := NewPool(Config{Workers: 1, Spares: 1, Host: sleepHost(), Log: testLogger(t)})
	if err != nil {
		t.Fatal(err)
	}
	p.parkEager = true
	done := make(chan Result, 2)
	for range 2 {
		go func() {
			res, _ := p.Run(context.Background(), Request{Key: "a", Timeout: 25 * time.Second, Files: files("main.ts", `import { host } from "playground"; await host.sleep(20000)`)}, func(Event) {})
			done <- res
		}()
	}
	waitFor(t, "two parked runs", func() bool { return p.Stats().Parked == 2 })
	closed := make(chan struct{})
	go func() { p.Close(); close(closed) }()
	select {
	case <-closed:
	case <-time.After(20 * time.Second): // a failure guard, not a timing goal
		t.Fatal("Close hangs with parked runs")
	}
	for range 2 {
		if res := <-done; res.Outcome != OutcomeCancelled {
			t.Errorf("parked run at Close: %s", res.Outcome)
		}
	}
}

// BenchmarkHostCallParking measures what parking costs a run that calls
// the host many times: 200 host.echo calls (fast: they should never park)
// and 40 host.sleep(5) calls (each parks and resumes), with parking on and
// off (MaxParked -1). It reports the wall time per run (ms/run), the server
// process's CPU per run (server-cpu-ms/run, getrusage: the pool, the host
// calls, the parking checks; the workers' CPU is not in it) and the parks
// per run. Reproduce with (alternate the order with -count):
//
//	go test ./sandbox -run '^$' -bench BenchmarkHostCallParking -benchtime 20x -count 3
func BenchmarkHostCallParking(b *testing.B) {
	host := sleepHost()
	host["echo"] = func(_ context.Context, c HostCall) (json.RawMessage, error) { return c.Args[0], nil }
	for _, tc := range []struct{ name, src string }{
		{"echo200", `import { host } from "playground"; let s = 0; for (let i = 0; i < 200; i++) s += await host.echo(i); console.log(s);`},
		{"sleep5x40", `import { host } from "playground"; for (let i = 0; i < 40; i++) await host.sleep(5); console.log("ok");`},
	} {
		for _, park := range []int{0, -1} {
			name := tc.name + "/park=on"
			if park < 0 {
				name = tc.name + "/park=off"
			}
			b.Run(name, func(b *testing.B) {
				p := newTestPool(b, Config{Workers: 2, Spares: 1, MaxParked: park, Host: host})
				warm(b, p)
				parks0 := p.parks.Load()
				cpu0 := selfCPU()
				b.ResetTimer()
				start := time.Now()
				for range b.N {
					res, err := p.Run(context.Background(), Request{Key: "bench", Timeout: 10 * time.Second, Files: files("main.ts", tc.src)}, func(Event) {})
					if err != nil || res.Outcome != OutcomeOK {
						b.Fatalf("run: %v %s", err, res.Outcome)
					}
				}
				b.StopTimer()
				n := float64(b.N)
				b.ReportMetric(float64(time.Since(start).Milliseconds())/n, "ms/run")
				b.ReportMetric(float64((selfCPU()-cpu0).Microseconds())/1000/n, "server-cpu-ms/run")
				b.ReportMetric(float64(p.parks.Load()-parks0)/n, "parks/run")
			})
		}
	}
}

// selfCPU is this process's user+system CPU time (getrusage).
func selfCPU() time.Duration {
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// timerSleeper sleeps on timers only: two awaited 1500 ms timeouts, with
// a 1510 ms one set at the start, whose callback must fire between them
// (timer order holds across parking).
const timerSleeper = `import { input, facts } from "playground";
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
console.log("a", input);
facts.step = 1;
setTimeout(() => console.log("x", input), %[1]d + 10);
await sleep(%[1]d);
console.log("b", input);
facts.step = 2;
await sleep(%[1]d);
console.log("c", input);
`

// TestParkedTimerSleepersDoNotStarve: three keys with two runs each
// sleeping on timers (no host call) park when others want their slots; a
// fourth key's run ends before any sleeper, the slots stay bounded, the
// parked workers were held (stopped) rather than caught spinning, and
// every sleeper ends ok with its lines in timer order and its facts.
func TestParkedTimerSleepersDoNotStarve(t *testing.T) {
	const sleepMs = 1500
	p := newTestPool(t, Config{Workers: 2, Spares: 1})
	type out struct {
		name string
		res  Result
		logs []string
		errs []Error
		end  time.Time
	}
	outs := make(chan out, 6)
	var wg sync.WaitGroup
	for _, key := range []string{"a", "b", "c"} {
		for i := range 2 {
			name := fmt.Sprintf("%s%d", key, i)
			wg.Go(func() {
				rec := &recorder{}
				res, err := p.Run(t.Context(), Request{Key: key, Timeout: 20 * time.Second, Input: json.RawMessage(`"` + name + `"`),
					Files: files("main.ts", fmt.Sprintf(timerSleeper, sleepMs))}, rec.emit)
				if err != nil {
					t.Error(err)
				}
				outs <- out{name, res, rec.logs(), rec.errors(), time.Now()}
			})
		}
	}
	waitFor(t, "six runs started", func() bool { st := p.Stats(); return st.Parked+st.Busy == 6 && st.Queued == 0 })
	if st := p.Stats(); st.Parked < 3 || st.Live > int64(2+1+st.MaxParked) {
		t.Errorf("with six sleeping runs: %+v; want at least 3 parked and at most Workers+Spares+MaxParked processes", st)
	}
	res, rec := run(t, p, Request{Key: "d", Files: files("main.ts", `console.log("hello")`)})
	victimEnd := time.Now()
	if res.Outcome != OutcomeOK || !slices.Equal(rec.logs(), []string{"hello"}) {
		t.Errorf("victim: %s %q %+v", res.Outcome, rec.logs(), rec.errors())
	}
	if res.Stats.Queue > sleepMs*time.Millisecond/2 { // a failure guard: it must not wait for a sleeper
		t.Errorf("victim queued %v", res.Stats.Queue)
	}
	wg.Wait()
	close(outs)
	for o := range outs {
		want := []string{"a " + o.name, "b " + o.name, "x " + o.name, "c " + o.name}
		if o.res.Outcome != OutcomeOK || !slices.Equal(o.logs, want) || string(o.res.Facts["step"]) != "2" {
			t.Errorf("%s: %s %q facts %s %+v; want ok %q, step 2", o.name, o.res.Outcome, o.logs, o.res.Facts, o.errs, want)
		}
		if !o.end.After(victimEnd) {
			t.Errorf("%s ended before the victim: the victim waited for a sleeper", o.name)
		}
	}
	if peak := p.peakRunning.Load(); peak > 2+1 {
		t.Errorf("%d runs held a slot at once; want at most Workers + the reserve slot = 3", peak)
	}
	if p.parks.Load() < 4 {
		t.Errorf("parks = %d; want at least 4 (three to let the others start, one for the victim)", p.parks.Load())
	}
	if p.stops.Load() != 0 {
		t.Errorf("stops = %d; want 0: an idle worker is held, never caught running JavaScript", p.stops.Load())
	}
	waitFor(t, "the pool back to at most Workers+Spares+Workers processes", func() bool {
		st := p.Stats()
		return st.Parked == 0 && st.Busy == 0 && st.Live <= 3+2 && st.Live >= 3 && int64(st.Idle) == st.Live
	})
}

// TestParkedTimerRunTimeoutAndCancel: a run parked on a timer past its
// deadline ends at the deadline as a timeout, with its output and facts
// so far; one parked on a timer ends at once on cancel; then the pool
// serves the next run.
func TestParkedTimerRunTimeoutAndCancel(t *testing.T) {
	p := newTestPool(t, Config{Workers: 1, Spares: 1})
	p.parkEager = true // park with nobody waiting
	sleeper := files("main.ts", `import { facts } from "playground";
console.log("before"); facts.n = 1;
await new Promise((r) => setTimeout(r, 20000));
console.log("late")`)

	res, rec := run(t, p, Request{Key: "a", Timeout: 1500 * time.Millisecond, Files: sleeper})
	errs := rec.errors()
	if res.Outcome != OutcomeTimeout || !slices.Equal(rec.logs(), []string{"before"}) || string(res.Facts["n"]) != "1" ||
		len(errs) != 1 || errs[0].Kind != KindTimeout {
		t.Errorf("timeout: %s %q facts %s errors %+v", res.Outcome, rec.logs(), res.Facts, errs)
	}
	if p.parks.Load() == 0 {
		t.Errorf("the sleeping run never parked")
	}

	ctx, cancel := context.WithCancel(t.Context())
	done := make(chan Result, 1)
	go func() {
		res, _ := p.Run(ctx, Request{Key: "a", Timeout: 25 * time.Second, Files: sleeper}, func(Event) {})
		done <- res
	}()
	waitFor(t, "a parked run", func() bool { return p.Stats().Parked == 1 })
	cancel()
	if res := <-done; res.Outcome != OutcomeCancelled {
		t.Errorf("cancel: %s", res.Outcome)
	}
	waitFor(t, "everything free", func() bool {
		st := p.Stats()
		return st.Parked == 0 && st.Busy == 0 && st.Queued == 0 && st.Live >= 2 && st.Live <= 3 && int64(st.Idle) == st.Live
	})
	res, rec = run(t, p, Request{Key: "a", Files: files("main.ts", `console.log("next")`)})
	if res.Outcome != OutcomeOK || !slices.Equal(rec.logs(), []string{"next"}) {
		t.Errorf("next run: %s %q", res.Outcome, rec.logs())
	}
	if p.stops.Load() != 0 {
		t.Errorf("stops = %d; want 0", p.stops.Load())
	}
}

// BenchmarkTimerFloodVictim: two attacker keys each keep 8 runs going that
// sleep on timers only (three 10 s setTimeouts, timeout 30 s: the
// session layer's per-IP cap is 8 runs) on a pool of 2 workers and 1
// spare; a victim key runs hello world one run after another (pause
// 50 ms). It reports the victim's latency (Run call to result: queue,
// bundle and run; p50-ms, p99-ms), the parks per victim run, and the
// server process's CPU per victim run (server-cpu-ms/run, getrusage:
// pool, parking checks, the attackers' queueing). Without timer parking
// the victim waits for a sleeper to end (10 s or more). Reproduce with:
//
//	go test ./sandbox -run '^$' -bench BenchmarkTimerFloodVictim -benchtime 100x
func BenchmarkTimerFloodVictim(b *testing.B) {
	p := newTestPool(b, Config{Workers: 2, Spares: 1})
	warm(b, p)
	ctx, stop := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	sleeper := files("main.ts", "for (let i = 0; i < 3; i++) await new Promise((r) => setTimeout(r, 10000));")
	for _, key := range []string{"attacker1", "attacker2"} {
		for range 8 {
			wg.Go(func() {
				for ctx.Err() == nil {
					_, _ = p.Run(ctx, Request{Key: key, Timeout: 30 * time.Second, Files: sleeper}, func(Event) {})
				}
			})
		}
	}
	for st := p.Stats(); st.Parked+st.Busy < 16; st = p.Stats() { // every attacker run started
		time.Sleep(5 * time.Millisecond)
	}
	parks0, cpu0 := p.parks.Load(), selfCPU()
	lat := make([]time.Duration, 0, b.N)
	b.ResetTimer()
	for range b.N {
		t0 := time.Now()
		res, err := p.Run(context.Background(), Request{Key: "victim", Files: helloFiles}, func(Event) {})
		if err != nil || res.Outcome != OutcomeOK {
			b.Fatalf("victim: %v %s", err, res.Outcome)
		}
		lat = append(lat, time.Since(t0))
		time.Sleep(50 * time.Millisecond)
	}
	b.StopTimer()
	n := float64(b.N)
	b.ReportMetric(float64((selfCPU()-cpu0).Microseconds())/1000/n, "server-cpu-ms/run")
	b.ReportMetric(float64(p.parks.Load()-parks0)/n, "parks/run")
	report(b, lat)
	stop()
	wg.Wait()
}

// TestFastHostCallsWithATimerPendingDoNotPark: a run whose timer is far
// away but which awaits fast host calls announces an idle wait after each
// reply; it must not park while a call is in flight for less than
// ParkAfter (here far longer than any call), only once it waits on the
// timer alone.
func TestFastHostCallsWithATimerPendingDoNotPark(t *testing.T) {
	host := map[string]HostFunc{"echo": func(_ context.Context, c HostCall) (json.RawMessage, error) { return c.Args[0], nil }}
	p := newTestPool(t, Config{Workers: 1, Spares: 1, Host: host, ParkAfter: 10 * time.Second})
	p.parkEager = true // park with nobody waiting
	res, rec := run(t, p, Request{Timeout: 20 * time.Second, Files: files("main.ts", `import { host } from "playground";
setTimeout(() => console.log("timer"), 2000);
let s = 0;
for (let i = 0; i < 100; i++) s += await host.echo(i);
console.log(s);`)})
	if res.Outcome != OutcomeOK || !slices.Equal(rec.logs(), []string{"4950", "timer"}) {
		t.Fatalf("%s %q %+v", res.Outcome, rec.logs(), rec.errors())
	}
	if n := p.parks.Load(); n > 1 {
		t.Errorf("parks = %d; want at most 1 (the wait on the timer alone)", n)
	}
}

// TestMaxParkedIsABound: past MaxParked a run that only waits keeps its
// slot (today's behaviour before parking): with MaxParked 1, of three
// sleepers from three keys at most one is ever parked, at most Workers +
// the reserve slot hold a slot, and every sleeper still ends ok.
func TestMaxParkedIsABound(t *testing.T) {
	p := newTestPool(t, Config{Workers: 1, Spares: 1, MaxParked: 1, Host: sleepHost()})
	var wg sync.WaitGroup
	var maxParked atomic.Int64
	stop := make(chan struct{})
	go func() { // sample Stats while the runs are in flight
		for {
			select {
			case <-stop:
				return
			case <-time.After(time.Millisecond):
			}
			if n := p.Stats().Parked; n > maxParked.Load() {
				maxParked.Store(n)
			}
		}
	}()
	for _, key := range []string{"a", "b", "c"} {
		wg.Go(func() {
			res, rec := run(t, p, Request{Key: key, Timeout: 20 * time.Second,
				Files: files("main.ts", `import { host } from "playground"; await host.sleep(300); await host.sleep(300); console.log("woke")`)})
			if res.Outcome != OutcomeOK || !slices.Equal(rec.logs(), []string{"woke"}) {
				t.Errorf("%s: %s %q %+v", key, res.Outcome, rec.logs(), rec.errors())
			}
		})
	}
	wg.Wait()
	close(stop)
	if n := maxParked.Load(); n > 1 {
		t.Errorf("%d runs parked at once; want at most MaxParked = 1", n)
	}
	if peak := p.peakRunning.Load(); peak > 1+1 {
		t.Errorf("%d runs held a slot at once; want at most Workers + the reserve slot = 2", peak)
	}
	if p.parks.Load() == 0 {
		t.Error("no run parked: the bound was not reached")
	}
}

// TestParkedShareIsPerKey: one key may hold at most a 1/parkShare share of
// MaxParked parked runs (here 1 of 2); its other sleepers hold slots or
// wait, and every run still ends ok.
func TestParkedShareIsPerKey(t *testing.T) {
	p := newTestPool(t, Config{Workers: 1, Spares: 1, MaxParked: 2, Host: sleepHost()})
	var most atomic.Int64
	stop := make(chan struct{})
	go func() {
		for {
			select {
			case <-stop:
				return
			case <-time.After(time.Millisecond):
			}
			p.parkedMu.Lock()
			n := int64(p.parkedBy["a"])
			p.parkedMu.Unlock()
			if n > most.Load() {
				most.Store(n)
			}
		}
	}()
	var wg sync.WaitGroup
	for i := range 3 {
		wg.Go(func() {
			res, rec := run(t, p, Request{Key: "a", Timeout: 20 * time.Second,
				Files: files("main.ts", `import { host } from "playground"; await host.sleep(300); await host.sleep(300); console.log("woke")`)})
			if res.Outcome != OutcomeOK || !slices.Equal(rec.logs(), []string{"woke"}) {
				t.Errorf("a%d: %s %q %+v", i, res.Outcome, rec.logs(), rec.errors())
			}
		})
	}
	wg.Wait()
	close(stop)
	if n := most.Load(); n != 1 {
		t.Errorf("key a had at most %d runs parked; want exactly its share, 1", n)
	}
	p.parkedMu.Lock()
	left := len(p.parkedBy)
	p.parkedMu.Unlock()
	if left != 0 || p.Stats().Parked != 0 {
		t.Errorf("parked counts after the runs: %d keys, %d runs; want none", left, p.Stats().Parked)
	}
}
