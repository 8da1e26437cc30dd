package sandbox

import (
	"context"
	"time"

	"github.com/playground-dev/playground/sandbox/pipe"
)

// Parking: a run that only waits on the host or on timers gives its slot
// back.
//
// Slots (Config.Workers, plus the queue's reserve slot) bound CPU: how many
// runs execute JavaScript at once. A run whose host calls are in flight
// (the server executes them, serveHostCall) and whose worker uses no CPU
// meanwhile only waits, yet it would hold its slot for as long as the host
// takes (host.sleep: seconds), and a few clients could hold every slot
// that way. So such a run parks:
//
//   - When host calls have been in flight for Config.ParkAfter (2 ms: fast
//     calls such as host.echo never park), the worker used less than half
//     of the last window's CPU (procCPU: its process CPU-time clock), and
//     another run waits for a slot (queue.contended: parking when nobody
//     waits would only churn), the run gives its slot back (the queue hands
//     it to the next run, fairly) and keeps its worker process, which
//     waits. A run that could park watches the queue (its wake channel, and
//     every parkCheck) until it parks or its calls end. At most Config.MaxParked
//     runs are parked at once; past it a run keeps its slot (the behaviour
//     without parking). The per-IP run cap of the session layer bounds one
//     client's parked runs.
//   - A run that waits only on timers parks too (parked on an idle wait,
//     "held"). When its event loop has nothing to run and its next timer
//     is at least pipe.IdleMin (10 ms) away on the real clock, the worker
//     says so once per wait (pipe.Idle: the wait, and the host replies it
//     has received) and goes on waiting: it never waits for an answer, so
//     an uncontended run never waits on the server, and a short wait or a
//     deterministic run (its virtual clock jumps) sends nothing. The
//     parent parks such a run at once when another run waits for a slot
//     (no CPU test: the worker said it is idle; but host calls it also
//     waits on must have been in flight for ParkAfter, as above), or
//     as soon as one is queued (the wake channel) while more than idleLead
//     of the wait is left. A held worker is stopped (SIGSTOP) at once: the
//     kernel, not the worker, guarantees that no timer callback runs
//     without a slot, and no "parked"/"resume" commands are needed. Its
//     resume starts idleLead (5 ms) before the timer is due — or before
//     the run's deadline, so that the worker ends a timed-out run itself,
//     with its facts — or at once when a host reply is ready; once it holds
//     a slot the worker is continued (SIGCONT) and its timer fires on time
//     if a slot was free, late by the wait for one otherwise. The order of
//     timers is the worker's own and is untouched. An Idle that crossed a
//     reply the parent sent (Idle.Replies below the replies sent) is stale
//     and ignored: the worker is busy with that reply.
//   - A parked worker may still run JavaScript (a timer fires, a promise the
//     snippet did not await): the parent watches its CPU clock every
//     parkCheck, and once it used more than parkCPU plus 2% of the time
//     parked, the worker is stopped (SIGSTOP) and the run waits to resume.
//     CPU beyond the slots is thus bounded by MaxParked × (parkCPU + 2%),
//     plus at most parkCheck of CPU per parked worker before it is caught.
//   - When a host reply is ready (or the worker was stopped), the run takes
//     a slot again through queue.resume — never busy, no waiting place,
//     ahead of its key's new runs, round-robin with other keys — and only
//     then is the reply delivered (and the worker continued).
//   - The run's deadline and cancellation are untouched: the exec loop
//     keeps selecting on them while parked, so a parked run ends at its
//     timeout (its worker is killed, stopped or not) or at once on cancel.
//
// Processes: a parked run keeps its worker, so the pool needs more
// processes than slots: it starts one per parked run (Pool.wantProcs:
// Workers + Spares + parked, at most Workers + Spares + MaxParked
// processes). The run given the slot takes an idle spare at once and the
// new process becomes the spare, so nobody waits for a start (tens of ms).
// When runs end, idle workers beyond wantProcs + Workers are retired
// (Pool.surplus). Each parked worker holds its run's heap (up to
// Config.MemoryBytes, typically a few MB) besides the worker's own ~10 MB
// (PSS of an idle worker, /api/stats pssBytes ÷ live).
//
// Clients see none of this except timing: a resumed run may wait for a
// slot before its host call's promise settles or its timer fires, as a
// new run waits in the queue.

// parkCheck is how often a parked worker's CPU clock is read; parkCPU is
// the CPU a parked worker may use before it is stopped, plus 2% of the
// time parked: room for an idle worker's Go runtime and its memory
// watchdog (a wake-up every 2 ms), not for JavaScript.
const (
	parkCheck = 10 * time.Millisecond
	parkCPU   = 2 * time.Millisecond
)

// idleLead is how long before an idle run's timer is due (or its
// deadline) its resume starts: the time to take a slot back when one is
// free and to continue the process (well under 1 ms), with room for the
// skew of the Idle message's trip. With pipe.IdleMin (10 ms), a run
// whose timer is 10 ms away parks for about 5 ms: a run that sleeps in
// short steps (setInterval every 10 ms) must not pin a slot either.
const idleLead = 5 * time.Millisecond

// runSlot is the slot a run holds: release is nil while the run is parked.
// It is used from the run's goroutine only.
type runSlot struct {
	p       *Pool
	key     string
	release func()
}

// newRunSlot counts a run that was just granted a slot (release).
func (p *Pool) newRunSlot(key string, release func()) *runSlot {
	p.addRunning(1)
	return &runSlot{p: p, key: key, release: release}
}

// parkShare bounds what one key may hold of MaxParked: a 1/parkShare
// share (at least one run), so that one client alone (an API key with a
// high run cap) cannot take every parked place. A smaller share would
// not help against several clients: a client's runs past its share hold
// their slots while they sleep, and two such clients then fill the
// normal and reserve slots sooner than they filled the parked places.
const parkShare = 2

// tryPark gives the slot back when fewer than MaxParked runs are parked
// and fewer than its key's share (parkShare).
func (s *runSlot) tryPark() bool {
	p := s.p
	p.parkedMu.Lock()
	defer p.parkedMu.Unlock()
	// parked changes only under parkedMu (here and in unparked); it is
	// atomic for the readers that take no lock (Stats, wantProcs).
	if p.parked.Load() >= int64(p.cfg.MaxParked) || int64(p.parkedBy[s.key]) >= max(1, int64(p.cfg.MaxParked)/parkShare) {
		return false
	}
	p.parked.Add(1)
	p.parkedBy[s.key]++
	p.addRunning(-1) // before the slot is handed on, so the count never overstates
	s.release()
	s.release = nil
	p.spawn(false) // the run given the slot takes a spare: start another (wantProcs grew)
	return true
}

// unpark takes the slot a resume granted.
func (s *runSlot) unpark(release func()) {
	s.release = release
	s.p.unparked(s.key)
	s.p.addRunning(1)
}

// unparked counts a parked run of key that holds a slot again or ended.
func (p *Pool) unparked(key string) {
	p.parkedMu.Lock()
	if p.parkedBy[key]--; p.parkedBy[key] <= 0 {
		delete(p.parkedBy, key)
	}
	p.parkedMu.Unlock()
	p.parked.Add(-1)
}

// done ends the run's hold: its slot is given back, or its parked count.
func (s *runSlot) done() {
	if s.release != nil {
		s.p.addRunning(-1)
		s.release()
		s.release = nil
	} else {
		s.p.unparked(s.key)
	}
	s.p.trim()
}

// addRunning counts runs holding a slot, and their peak (for tests).
func (p *Pool) addRunning(d int64) {
	n := p.running.Add(d)
	for {
		m := p.peakRunning.Load()
		if n <= m || p.peakRunning.CompareAndSwap(m, n) {
			return
		}
	}
}

// wantProcs is how many worker processes the pool starts: Workers +
// Spares, and one per parked run (at most Workers + Spares + MaxParked).
func (p *Pool) wantProcs() int64 {
	return int64(p.cfg.Workers+p.cfg.Spares) + p.parked.Load()
}

// surplus reports whether the pool holds more workers than it wants by
// more than Workers: up to that many idle ones are kept, so that runs that
// park and resume over and over (host.sleep in a loop) do not make the
// pool start and retire a process each time (a start costs tens of ms of
// CPU).
func (p *Pool) surplus() bool {
	return p.live.Load() > p.wantProcs()+int64(p.cfg.Workers)
}

// trim retires one idle worker when the pool has a surplus.
func (p *Pool) trim() {
	if !p.surplus() {
		return
	}
	select {
	case w := <-p.idle:
		if w.idle.CompareAndSwap(true, false) {
			p.retire(w, false) // no replacement: live is then at most wantProcs
		}
	default:
	}
}

// parker is one exec's parking state, driven by its loop (one goroutine).
type parker struct {
	p    *Pool
	w    *proc
	rs   *runSlot
	ctx  context.Context
	send func(pipe.HostReply)

	inflight int       // host calls the server is executing
	sent     int       // host replies sent to the worker
	runEnd   time.Time // the run's deadline (pipe.Job.Deadline, from the job's hand-off); zero: none
	// idleUntil is when the worker's announced idle wait (pipe.Idle) ends:
	// its next timer; zero when it is not known to be idle.
	idleUntil time.Time
	held      bool             // parked on an idle wait: stopped until wakeAt
	wakeAt    time.Time        // when a held run starts its resume
	since     time.Time        // when inflight last went from 0 to 1
	pending   []pipe.HostReply // replies held while parked
	parked    bool
	stopped   bool // the worker is SIGSTOPped
	parkedAt  time.Time
	cpuPark   time.Duration // the worker's CPU clock when it parked
	cpu0      time.Duration // … when the park check was armed
	cpu0At    time.Time
	wake      <-chan struct{} // the queue's, while the run could park but nobody waits
	timer     *time.Timer

	resuming bool
	granted  chan func()   // the resume's slot, buffered 1
	resumed  chan struct{} // closed when the resume goroutine is done
	cancel   context.CancelFunc
}

func (p *Pool) newParker(ctx context.Context, w *proc, rs *runSlot, send func(pipe.HostReply)) *parker {
	t := time.NewTimer(time.Hour)
	t.Stop()
	return &parker{p: p, w: w, rs: rs, ctx: ctx, send: send, timer: t}
}

func (k *parker) enabled() bool {
	return parkingSupported && k.rs != nil && k.p.cfg.MaxParked > 0
}

// C fires when the parker wants tick called.
func (k *parker) C() <-chan time.Time { return k.timer.C }

func (k *parker) arm(d time.Duration) {
	k.timer.Reset(d)
}

// cpu reads the worker's CPU clock; not once it exited (its pid may be
// reused).
func (k *parker) cpu() (time.Duration, bool) {
	if k.w.dead() {
		return 0, false
	}
	return procCPU(k.w.cmd.Process.Pid)
}

// freeze stops (SIGSTOP) or continues (SIGCONT) the worker. os.Process
// signals through a pidfd, so a worker already waited for is never
// mistaken for a process that reused its pid (the error is then
// os.ErrProcessDone, and nothing is to be done).
func (k *parker) freeze(stop bool) {
	if parkingSupported {
		_ = k.w.cmd.Process.Signal(freezeSignal(stop))
	}
}

// call notes a host call sent to the server.
func (k *parker) call() {
	if k.inflight++; k.inflight > 1 || !k.enabled() || k.parked {
		return
	}
	if c, ok := k.cpu(); ok {
		k.since, k.cpu0, k.cpu0At = time.Now(), c, time.Now()
		k.arm(k.p.cfg.ParkAfter)
	}
}

// wakeC fires when a run is queued while this run could park.
func (k *parker) wakeC() <-chan struct{} { return k.wake }

// reply delivers a host reply, or holds it and asks to resume when parked.
func (k *parker) reply(r pipe.HostReply) {
	k.inflight--
	if !k.parked {
		k.deliver(r)
		return
	}
	k.pending = append(k.pending, r)
	k.startResume()
}

// idle notes that the worker waits only on timers (pipe.Idle): the run
// may park at once, its worker stopped until shortly before the timer.
// An Idle that crossed a reply the parent sent is stale and ignored.
func (k *parker) idle(m pipe.Idle) {
	if !k.enabled() || m.Replies < k.sent || m.Wait <= 0 {
		return
	}
	k.idleUntil = time.Now().Add(m.Wait)
	switch {
	case !k.parked:
		k.tick()
	case k.held:
		// it ran something between two Idles before it was stopped
		if w := k.idleEnd().Add(-idleLead); w.Before(k.wakeAt) {
			k.wakeAt = w
			if !k.resuming {
				k.arm(time.Until(w))
			}
		}
	case !k.stopped:
		k.hold() // parked on host calls, and now it waits for a timer too
	}
}

// idleEnd is when the worker's idle wait ends: its next timer, or the
// run's deadline if that comes first (the worker then ends the run
// itself, with its facts). Zero when the worker is not known to be idle.
func (k *parker) idleEnd() time.Time {
	if k.idleUntil.IsZero() || k.runEnd.IsZero() || k.idleUntil.Before(k.runEnd) {
		return k.idleUntil
	}
	return k.runEnd
}

// idleLeft is how long the run could stay parked on its idle wait: until
// idleLead before idleEnd.
func (k *parker) idleLeft() time.Duration {
	if k.idleUntil.IsZero() {
		return 0
	}
	return time.Until(k.idleEnd()) - idleLead
}

// hold stops a parked run's idle worker until idleLead before its idle
// wait ends (tick then starts the resume).
func (k *parker) hold() {
	k.wakeAt = k.idleEnd().Add(-idleLead)
	if !k.stopped {
		k.freeze(true)
		k.stopped = true
	}
	k.held = true
	k.arm(time.Until(k.wakeAt))
}

// deliver sends a host reply to the worker, which is then busy with it:
// an idle wait it announced before is over.
func (k *parker) deliver(r pipe.HostReply) {
	k.sent++
	k.idleUntil = time.Time{}
	k.send(r)
}

// tick parks the run, checks a parked worker's CPU, or starts a held
// run's resume.
func (k *parker) tick() {
	k.wake = nil
	now, ok := k.cpu()
	if !ok {
		return // the process is gone: the exec loop sees its end
	}
	if k.parked {
		switch {
		case k.held:
			if k.resuming {
				return
			}
			if d := time.Until(k.wakeAt); d > 0 {
				k.arm(d)
				return
			}
			k.startResume()
		case !k.stopped:
			if now-k.cpuPark > parkCPU+time.Since(k.parkedAt)/50 {
				k.freeze(true)
				k.stopped = true
				k.p.stops.Add(1)
				k.startResume()
				return
			}
			k.arm(parkCheck)
		}
		return
	}
	// A fast host call (in flight for less than ParkAfter) keeps an idle
	// run from parking as it keeps one waiting on calls: its reply is due
	// at once, and would then wait for a slot.
	idle := k.idleLeft() > 0 && (k.inflight == 0 || time.Since(k.since) >= k.p.cfg.ParkAfter)
	switch {
	case !idle && k.inflight == 0:
		return
	case !idle && time.Since(k.since) < k.p.cfg.ParkAfter:
		// calls ended and new ones began since the check was armed: a
		// burst of fast calls, not a wait
		k.arm(k.p.cfg.ParkAfter - time.Since(k.since))
		return
	}
	waits, wake := k.p.queue.contended()
	// An idle worker said so; one waiting on host calls must show it
	// with its CPU clock.
	quiet := idle || now-k.cpu0 < time.Since(k.cpu0At)/2
	if quiet && (waits || k.p.parkEager) && k.rs.tryPark() {
		k.parked, k.parkedAt, k.cpuPark = true, time.Now(), now
		k.p.parks.Add(1)
		if idle {
			k.hold()
		} else {
			k.arm(parkCheck)
		}
		return
	}
	k.cpu0, k.cpu0At = now, time.Now()
	switch {
	case !waits && idle && k.inflight == 0:
		// only the queue can change the answer until the idle wait
		// ends: no CPU checks meanwhile
		k.wake = wake
		k.arm(k.idleLeft())
	case !waits:
		k.wake = wake // check at once when a run is queued
		k.arm(parkCheck)
	default:
		k.arm(k.p.cfg.ParkAfter) // the worker was busy, or MaxParked runs are parked: look again soon
	}
}

// startResume waits for a slot in the background (granted).
func (k *parker) startResume() {
	if k.resuming {
		return
	}
	k.resuming = true
	ctx, cancel := context.WithCancel(k.ctx)
	k.cancel = cancel
	k.granted, k.resumed = make(chan func(), 1), make(chan struct{})
	go func() {
		defer close(k.resumed)
		if rel, err := k.p.queue.resume(ctx, k.rs.key); err == nil {
			k.granted <- rel
		}
	}()
}

// grantC is the channel a resume's slot arrives on (nil when none waits).
func (k *parker) grantC() <-chan func() {
	if !k.resuming {
		return nil
	}
	return k.granted
}

// resume takes the granted slot: the worker continues and gets the held
// replies.
func (k *parker) resume(release func()) {
	<-k.resumed
	k.cancel()
	k.resuming = false
	k.parked = false
	k.timer.Stop()
	k.wake = nil
	k.rs.unpark(release)
	if k.stopped {
		k.freeze(false)
		k.stopped = false
	}
	k.held = false
	k.idleUntil = time.Time{}
	for _, r := range k.pending {
		k.deliver(r)
	}
	k.pending = nil
	if k.inflight > 0 {
		if c, ok := k.cpu(); ok {
			k.since, k.cpu0, k.cpu0At = time.Now(), c, time.Now()
			k.arm(k.p.cfg.ParkAfter)
		}
	}
}

// end stops parking when the exec ends: a pending resume is withdrawn (a
// slot it got meanwhile is kept by the run, which gives it back at its end)
// and a stopped worker continues. It may be called more than once.
func (k *parker) end() {
	k.timer.Stop()
	k.wake = nil
	if k.resuming {
		k.cancel()
		<-k.resumed
		k.resuming = false
		select {
		case rel := <-k.granted:
			k.parked = false
			k.rs.unpark(rel)
		default:
		}
	}
	if k.stopped {
		k.freeze(false)
		k.stopped = false
	}
	k.held = false
}
