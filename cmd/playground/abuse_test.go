package main

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"
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
	for i := range 2 { // each socket stays open until the test ends (dialFrom's cleanup)
		c, _, err := dialFrom(t, addr, attacker)
		if err != nil {
			t.Fatal(err)
		}
		sleeper["id"] = fmt.Sprintf("s%d", i)
		c.send(sleeper)
		if m := c.read(); m.str("type") != "started" && m.str("type") != "queued" {
			t.Fatalf("sleeper %d: %v", i, m)
		}
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

// TestProtocolEdges: oversized messages are answered and keep the socket; a
// client's own text is not echoed back in full; invalid runs cost a token of
// the rate limit and count as protocol violations.
func TestProtocolEdges(t *testing.T) {
	addr := server(t, "-max-source-bytes", "1000", "-rate", "0.01", "-burst", "5")
	c := dial(t, addr)
	max := c.hello["limits"].(map[string]any)["maxMessageBytes"].(float64)

	big := runMsg("big", "main.ts", strings.Repeat("x", int(max)+10))
	c.send(big)
	ms := c.until("big")
	if len(ms) != 2 || ms[0].str("kind") != "INVALID_REQUEST" || !strings.Contains(ms[0].str("message"), "maxMessageBytes") || ms[1].str("outcome") != "invalid" {
		t.Errorf("an oversized run: %v; want INVALID_REQUEST naming maxMessageBytes, then done invalid", ms)
	}
	c.sendRaw(websocket.MessageText, []byte(`{"type":"cancel","id":"x","`+strings.Repeat("f", 100_000)+`":1}`))
	if m := c.read(); m.str("type") != "protocol_error" || len(m.str("message")) > 300 {
		t.Errorf("a 100 kB unknown field: %.200v (%d bytes); want a short protocol_error", m, len(m.str("message")))
	}
	// The oversized run took one token; four more invalid runs take the rest.
	for i := range 4 {
		id := fmt.Sprintf("dup%d", i)
		c.send(map[string]any{"type": "run", "id": id, "files": []map[string]string{{"path": "a.ts", "source": ""}, {"path": "a.ts", "source": ""}}})
		if ms := c.until(id); ms[len(ms)-1].str("outcome") != "invalid" {
			t.Fatalf("a run with a duplicate path: %v", ms)
		}
	}
	c.send(runMsg("valid", "main.ts", "1"))
	if ms := c.until("valid"); ms[len(ms)-1].str("outcome") != "rate_limited" {
		t.Errorf("a valid run after 5 invalid ones on a burst of 5: %v; want rate_limited (invalid runs cost tokens)", ms[len(ms)-1])
	}
	// Invalid runs count as violations: the 20th closes the socket with 1008.
	for i := range 14 {
		c.send(map[string]any{"type": "run", "id": fmt.Sprintf("bad%d", i), "files": []any{}})
	}
	ctx, cancel := context.WithTimeout(t.Context(), 10*time.Second)
	defer cancel()
	for {
		_, _, err := c.c.Read(ctx)
		if err != nil {
			if websocket.CloseStatus(err) != websocket.StatusPolicyViolation {
				t.Errorf("after 20 violations: %v; want a close with 1008", err)
			}
			break
		}
	}
}

// TestSleepingRunsDoNotStarveOthers: one client fills every worker with runs
// that only wait on the host (and queues more behind them); another client's
// run takes the reserve worker and finishes while they still sleep, and is
// never busy.
func TestSleepingRunsDoNotStarveOthers(t *testing.T) {
	addr := server(t, "-workers", "2", "-rate", "100", "-burst", "100")
	var socks []*client
	for i := range 4 {
		c, _, err := dialFrom(t, addr, attacker)
		if err != nil {
			t.Fatal(err)
		}
		c.send(runMsg(fmt.Sprintf("sleep%d", i), "main.ts", "import { host } from 'playground';\nawait host.sleep(5000);"))
		socks = append(socks, c)
	}
	for _, c := range socks[:2] { // both workers are taken
		if m := c.read(); m.str("type") != "started" {
			t.Fatalf("a sleeper: %v; want started", m)
		}
	}
	for _, c := range socks[2:] { // the rest wait for them
		if m := c.read(); m.str("type") != "queued" {
			t.Fatalf("a third sleeper: %v; want queued", m)
		}
	}
	start := time.Now()
	v, _, err := dialFrom(t, addr, victim)
	if err != nil {
		t.Fatal(err)
	}
	v.send(runMsg("hello", "main.ts", "console.log('hello')"))
	ms := v.until("hello")
	if done := ms[len(ms)-1]; done.str("outcome") != "ok" || only(ms, "queued") != nil {
		t.Errorf("the victim's run: %s; want ok without waiting in the queue", types(ms))
	}
	if time.Since(start) > 4*time.Second {
		t.Errorf("the victim's run ended after %v; want it long before the 5s sleeps end", time.Since(start))
	}
}

// TestStalledReaderBudget: a client that stops reading while its run floods
// output is disconnected once its sockets' unsent bytes pass its budget;
// another client is served meanwhile.
func TestStalledReaderBudget(t *testing.T) {
	addr := server(t, stalledReaderFlags...)
	a, _, err := dialFrom(t, addr, attacker)
	if err != nil {
		t.Fatal(err)
	}
	// About 6 MB of events: under a socket's own 8 MiB outbox, over the client budget.
	a.send(runMsg("flood", "main.ts", "for (let i = 0; i < 300; i++) console.log('x'.repeat(10000));"))
	time.Sleep(2 * time.Second) // the attacker reads nothing while its run floods
	v, _, err := dialFrom(t, addr, victim)
	if err != nil {
		t.Fatal(err)
	}
	v.send(runMsg("v", "main.ts", "console.log('victim')"))
	if ms := v.until("v"); ms[len(ms)-1].str("outcome") != "ok" {
		t.Errorf("victim: %v", ms[len(ms)-1])
	}
	ctx, cancel := context.WithTimeout(t.Context(), 30*time.Second)
	defer cancel()
	for { // what the attacker's socket still holds, then its end
		_, b, err := a.c.Read(ctx)
		if err != nil {
			if ctx.Err() != nil {
				t.Fatal("the stalled socket was neither dropped nor done")
			}
			break
		}
		if strings.Contains(string(b), `"type":"done"`) {
			t.Fatal("the stalled socket got its whole flood; want it dropped past its client's budget")
		}
	}
}

var stalledReaderFlags = []string{"-outbox-client-bytes", "200000", "-max-output-bytes", "100000000", "-max-events", "1000000"}

// TestHardFrameCap: a frame over twice maxMessageBytes is never read whole:
// the socket closes with 1009 (message too big), and the server serves the
// next socket.
func TestHardFrameCap(t *testing.T) {
	addr := server(t, "-max-source-bytes", "1000")
	c := dial(t, addr)
	max := c.hello["limits"].(map[string]any)["maxMessageBytes"].(float64)
	ctx, cancel := context.WithTimeout(t.Context(), 10*time.Second)
	defer cancel()
	_ = c.c.Write(ctx, websocket.MessageText, []byte(`{"type":"ping","t":"`+strings.Repeat("x", int(2*max)+10)+`"}`))
	for {
		_, _, err := c.c.Read(ctx)
		if err != nil {
			if websocket.CloseStatus(err) != websocket.StatusMessageTooBig {
				t.Errorf("after a frame over the hard cap: %v; want a close with 1009", err)
			}
			break
		}
	}
	next := dial(t, addr)
	next.send(runMsg("after", "main.ts", "1"))
	if ms := next.until("after"); ms[len(ms)-1].str("outcome") != "ok" {
		t.Errorf("the next socket's run: %v", ms[len(ms)-1])
	}
}
