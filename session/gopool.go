package session

import (
	"sync"
	"time"
)

// goPool runs functions on goroutines that outlive them: a run then starts
// on a stack that earlier runs already grew, where a fresh goroutine (8
// KiB) grew it again on every run, copying it twice or three times (about
// 5% of the server's CPU per run, issue 12). A goroutine idle for idleFor
// ends, so an idle server keeps none; at most maxIdle wait at once. It is
// safe for concurrent use; its zero value is ready.
type goPool struct {
	mu    sync.Mutex
	idle  []*pooledG // the most recently idle last
	timer *time.Timer
	armed bool // timer will reap
}

type pooledG struct {
	work  chan func() // buffered 1; nil ends the goroutine
	since time.Time   // idle since
}

const (
	maxIdleGoroutines = 64
	idleFor           = 250 * time.Millisecond
)

// runGoroutines runs every session's runs.
var runGoroutines goPool

// Go runs f on an idle goroutine of the pool, or a new one.
func (p *goPool) Go(f func()) {
	p.mu.Lock()
	if n := len(p.idle); n > 0 {
		g := p.idle[n-1]
		p.idle[n-1] = nil
		p.idle = p.idle[:n-1]
		p.mu.Unlock()
		g.work <- f // buffered: never waits
		return
	}
	p.mu.Unlock()
	go p.loop(&pooledG{work: make(chan func(), 1)}, f)
}

func (p *goPool) loop(g *pooledG, f func()) {
	for f != nil {
		f()
		f = nil // not kept alive while idle
		g.since = time.Now()
		p.mu.Lock()
		if len(p.idle) >= maxIdleGoroutines {
			p.mu.Unlock()
			return
		}
		p.idle = append(p.idle, g)
		if !p.armed {
			p.armed = true
			if p.timer == nil {
				p.timer = time.AfterFunc(idleFor, p.reap)
			} else {
				p.timer.Reset(idleFor)
			}
		}
		p.mu.Unlock()
		f = <-g.work
	}
}

// reap ends the goroutines idle for idleFor or longer, and comes back for
// the others when they will be.
func (p *goPool) reap() {
	p.mu.Lock()
	defer p.mu.Unlock()
	now := time.Now()
	n := 0
	for n < len(p.idle) && now.Sub(p.idle[n].since) >= idleFor {
		p.idle[n].work <- nil
		n++
	}
	rest := copy(p.idle, p.idle[n:])
	clear(p.idle[rest:])
	p.idle = p.idle[:rest]
	if rest == 0 {
		p.armed = false
		return
	}
	p.timer.Reset(idleFor - now.Sub(p.idle[0].since))
}
