package main

import "testing"

func TestClosingSocketCancelsRun(t *testing.T) {
	addr := server(t)
	c := dial(t, addr)
	c.send(runMsg("r1", "main.js", "while (true) {}"))
	c.untilStarted()
	if n := stats(t, addr)["activeRuns"]; n != 1 {
		t.Fatalf("activeRuns = %v while running; want 1", n)
	}
	c.CloseNow()
	waitFor(t, "activeRuns to reach 0", func() bool { return stats(t, addr)["activeRuns"] == 0 })
	waitFor(t, "sessions to reach 0", func() bool { return stats(t, addr)["sessions"] == 0 })
}

func TestNewRunCancelsActiveRun(t *testing.T) {
	c := dial(t, server(t))
	c.send(runMsg("r1", "main.js", "while (true) {}"))
	c.untilStarted()
	c.send(runMsg("r2", "main.js", "console.log('second')"))
	var r1Done, r2Done msg
	var order []string
	for r2Done == nil {
		m := c.read()
		order = append(order, m.str("id")+":"+m.str("type"))
		if m.str("type") == "done" {
			if m.str("id") == "r1" {
				r1Done = m
			} else {
				r2Done = m
			}
		}
	}
	if r1Done == nil || r1Done.str("outcome") != "cancelled" {
		t.Fatalf("r1 done = %v; want cancelled before r2 finished (order %v)", r1Done, order)
	}
	if order[0] != "r1:done" {
		t.Errorf("order = %v; want r1's done first", order)
	}
	if r2Done.str("outcome") != "ok" {
		t.Errorf("r2 done = %v; want ok", r2Done)
	}
}

func TestCancelMessage(t *testing.T) {
	c := dial(t, server(t))
	c.send(runMsg("r1", "main.js", "console.log('x'); while (true) {}"))
	first := append(c.untilStarted(), c.read())
	if first[len(first)-1].str("type") != "log" {
		t.Fatalf("messages = %s; want its log after started", types(first))
	}
	c.send(map[string]any{"type": "cancel", "id": "nope"})
	c.send(map[string]any{"type": "cancel", "id": "r1"})
	ms := c.continueUntil("r1", first)
	if done := ms[len(ms)-1]; done.str("outcome") != "cancelled" {
		t.Errorf("done = %v; want cancelled", done)
	}
}

func TestClosingSocketFreesStuckWorker(t *testing.T) {
	addr := server(t)
	c := dial(t, addr)
	c.send(runMsg("r1", "main.js", "console.log('x'); /^(?=.)(a+)+$/.test('a'.repeat(40) + '!');"))
	c.read() // started
	c.read() // log: the worker is inside the builtin now
	c.CloseNow()
	waitFor(t, "activeRuns to reach 0", func() bool { return stats(t, addr)["activeRuns"] == 0 })
	c2 := dial(t, addr)
	c2.send(runMsg("r2", "main.js", "console.log(1)"))
	if ms := c2.until("r2"); ms[len(ms)-1].str("outcome") != "ok" {
		t.Errorf("next run = %v", ms)
	}
}
