package main

import (
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"
)

// Abuse tests: an attacker and a victim are two client IPs on loopback
// (127.0.0.2 and 127.0.0.3 reach a server bound to 127.0.0.1), so no
// X-Forwarded-For needs trusting.
const (
	attacker = "127.0.0.2"
	victim   = "127.0.0.3"
)

// refused dials from src and returns the status and text of the refused
// upgrade; an accepted socket fails the test.
func refused(t *testing.T, addr, src string) (int, string) {
	t.Helper()
	_, resp, err := dialFrom(t, addr, src)
	if err == nil || resp == nil {
		t.Fatalf("dial succeeded (err %v); want it refused", err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	return resp.StatusCode, string(b)
}

func TestSocketCapPerClient(t *testing.T) {
	addr := server(t, "-max-sockets-per-ip", "3")
	var held []*client
	for range 3 {
		c, _, err := dialFrom(t, addr, attacker)
		if err != nil {
			t.Fatalf("socket %d of 3: %v", len(held)+1, err)
		}
		held = append(held, c)
	}
	if got := held[0].hello["limits"].(map[string]any)["maxSocketsPerClient"]; got != 3.0 {
		t.Errorf("hello.limits.maxSocketsPerClient = %v; want 3", got)
	}
	status, body := refused(t, addr, attacker)
	if status != http.StatusTooManyRequests || !strings.Contains(body, "maxSocketsPerClient") {
		t.Errorf("a 4th socket: %d %q; want 429 naming the limit", status, body)
	}
	v, _, err := dialFrom(t, addr, victim)
	if err != nil {
		t.Fatalf("another client IP: %v; want its socket accepted", err)
	}
	v.send(runMsg("v", "main.ts", "console.log('victim')"))
	if ms := v.until("v"); ms[len(ms)-1].str("outcome") != "ok" {
		t.Errorf("victim's run: %v", ms)
	}
	held[0].c.CloseNow()
	waitFor(t, "the closed socket's slot to free", func() bool {
		c, _, err := dialFrom(t, addr, attacker)
		if err == nil {
			c.c.CloseNow()
		}
		return err == nil
	})
}

func TestTotalSocketCap(t *testing.T) {
	addr := server(t, "-max-sockets", "2")
	dial(t, addr)
	dial(t, addr)
	status, body := refused(t, addr, victim)
	if status != http.StatusServiceUnavailable || !strings.Contains(body, "server is full") {
		t.Errorf("a 3rd socket on a server of 2: %d %q; want 503", status, body)
	}
}

// TestRunCapPerClient: runs that only wait on the host hold a client's run
// slots, not every worker: past -max-runs-per-ip the attacker's next run
// ends busy at once, and another client's run still runs.
func TestRunCapPerClient(t *testing.T) {
	addr := server(t, "-max-runs-per-ip", "2", "-workers", "2", "-rate", "100", "-burst", "100")
	sleeper := runMsg("", "main.ts", "import { host } from 'playground';\nawait host.sleep(3000);")
	var socks []*client
	for i := range 2 {
		c, _, err := dialFrom(t, addr, attacker)
		if err != nil {
			t.Fatal(err)
		}
		sleeper["id"] = fmt.Sprintf("s%d", i)
		c.send(sleeper)
		if m := c.read(); m.str("type") != "started" && m.str("type") != "queued" {
			t.Fatalf("sleeper %d: %v", i, m)
		}
		socks = append(socks, c)
	}
	third, _, err := dialFrom(t, addr, attacker)
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	third.send(runMsg("third", "main.ts", "1"))
	ms := third.until("third")
	if done := ms[len(ms)-1]; done.str("outcome") != "busy" || done.num("retryAfterMs") <= 0 || time.Since(start) > 2*time.Second {
		t.Errorf("the attacker's 3rd concurrent run: %v after %v; want busy at once", done, time.Since(start))
	}
	if got := third.hello["limits"].(map[string]any)["maxRunsPerClient"]; got != 2.0 {
		t.Errorf("hello.limits.maxRunsPerClient = %v; want 2", got)
	}
	v, _, err := dialFrom(t, addr, victim)
	if err != nil {
		t.Fatal(err)
	}
	v.send(runMsg("v", "main.ts", "console.log('victim')"))
	if ms := v.until("v"); ms[len(ms)-1].str("outcome") != "ok" {
		t.Errorf("victim's run while the attacker holds its cap: %v", ms[len(ms)-1])
	}
}

// TestDNSRebindingRefused: a page on an attacker's name that resolves to a
// loopback server sends that name as Host and Origin; the server refuses it
// (the page and the socket), and still serves localhost.
func TestDNSRebindingRefused(t *testing.T) {
	addr := server(t)
	_, port, _ := strings.Cut(addr, ":")
	for _, path := range []string{"/", "/ws", "/api/v1/info"} {
		req, _ := http.NewRequest("GET", "http://"+addr+path, nil)
		req.Host = "rebind.attacker.example:" + port
		req.Header.Set("Origin", "http://rebind.attacker.example:"+port)
		if path == "/ws" {
			req.Header.Set("Connection", "Upgrade")
			req.Header.Set("Upgrade", "websocket")
			req.Header.Set("Sec-WebSocket-Version", "13")
			req.Header.Set("Sec-WebSocket-Key", "dGhlIHNhbXBsZSBub25jZQ==")
			req.Header.Set("Sec-WebSocket-Protocol", "playground.v1")
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != http.StatusForbidden || !strings.Contains(string(b), "-hosts") {
			t.Errorf("GET %s with Host rebind.attacker.example: %d %q; want 403 naming -hosts", path, resp.StatusCode, b)
		}
	}
	req, _ := http.NewRequest("GET", "http://"+addr+"/healthz", nil)
	req.Host = "localhost:" + port
	if resp, err := http.DefaultClient.Do(req); err != nil || resp.StatusCode != 200 {
		t.Errorf("Host localhost: %v %v; want 200", resp, err)
	} else {
		resp.Body.Close()
	}
}
