package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"net/http"
	"testing"

	"github.com/playground-dev/playground/ratelimit/redistest"
)

// slowLines logs n lines, 20 ms apart (sleep is a host global).
func slowLines(n int) string {
	return fmt.Sprintf("for (let i = 0; i < %d; i++) { console.log(\"line\", i); await sleep(20); }\nexport default %d;", n, n)
}

// TestWatchAcrossInstances: with -redis, a watcher on instance B follows a
// run on instance A to its done, exactly once, over a socket and over the
// HTTP events endpoint.
func TestWatchAcrossInstances(t *testing.T) {
	r := redistest.Start(t)
	flags := []string{"-redis", r.URL(), "-workers", "1"}
	a := server(t, flags...)
	b := server(t, flags...)
	owner := dial(t, a)
	owner.send(runMsg("x1", "main.ts", slowLines(30)))
	var started msg
	for started == nil {
		if m := owner.read(); m.str("type") == "started" {
			started = m
		}
	}
	token := started.str("watch")
	if len(token) != 22 {
		t.Fatalf("started %v; want a 22-character watch token", started)
	}
	after := started.num("seq")
	watcher := dial(t, b)
	watcher.send(map[string]any{"type": "watch", "id": "x1", "token": token, "after": after})

	// The HTTP events of the same run, on B, from the start.
	req, _ := http.NewRequestWithContext(t.Context(), http.MethodGet, "http://"+b+"/api/v1/runs/x1/events", nil)
	req.Header.Set("Authorization", "Bearer "+token)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != 200 {
		t.Fatalf("events on B: %d", resp.StatusCode)
	}

	ownerMsgs := owner.continueUntil("x1", make([]msg, int(after)))
	seq := after
	var lines int
	for {
		m := watcher.read()
		if m.str("id") != "x1" {
			t.Fatalf("watcher got %v", m)
		}
		if m.num("seq") != seq+1 {
			t.Fatalf("watcher got seq %v after %v; want every message once, in order", m.num("seq"), seq)
		}
		seq = m.num("seq")
		if m.str("type") == "log" {
			lines++
		}
		if m.str("type") == "done" {
			if m.str("outcome") != "ok" {
				t.Fatalf("done %v", m)
			}
			break
		}
	}
	if lines != 30 || seq != float64(len(ownerMsgs)) {
		t.Fatalf("watcher on B saw %d lines up to seq %v; the owner on A saw %d messages; want all 30 lines and the same last seq", lines, seq, len(ownerMsgs))
	}
	sc := bufio.NewScanner(resp.Body)
	n := 0
	for sc.Scan() {
		var m msg
		if err := json.Unmarshal(sc.Bytes(), &m); err != nil {
			t.Fatal(err)
		}
		n++
		if m.num("seq") != float64(n) {
			t.Fatalf("events line %d has seq %v", n, m.num("seq"))
		}
	}
	if n != len(ownerMsgs) {
		t.Fatalf("events on B gave %d messages; want %d", n, len(ownerMsgs))
	}
}

// TestReattachToDetachedRun: on a real server, a detached run survives its
// socket; new sockets reattach from their last seq and get every later
// message exactly once.
func TestReattachToDetachedRun(t *testing.T) {
	addr := server(t, "-workers", "1")
	c := dial(t, addr)
	m := runMsg("d1", "main.ts", slowLines(40))
	m["detach"] = map[string]any{"graceMs": 30_000}
	c.send(m)
	var token string
	last := 0.0
	drops := 0
	for {
		m := c.read()
		if m.str("id") != "d1" {
			continue
		}
		if m.num("seq") != last+1 {
			t.Fatalf("got seq %v after %v (drop %d); want every message once", m.num("seq"), last, drops)
		}
		last = m.num("seq")
		if m.str("type") == "started" {
			token = m.str("watch")
		}
		if m.str("type") == "done" {
			if m.str("outcome") != "ok" {
				t.Fatalf("done %v", m)
			}
			break
		}
		if m.str("type") == "log" && int(last)%7 == 0 {
			c.CloseNow()
			drops++
			c = dial(t, addr)
			c.send(map[string]any{"type": "watch", "id": "d1", "token": token, "after": last})
		}
	}
	if drops < 3 {
		t.Fatalf("only %d disconnects happened", drops)
	}
}
