package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"

	"github.com/playground-dev/playground/session"
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

func TestAbuseSocketCapPerClient(t *testing.T) {
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
	held[0].CloseNow()
	waitFor(t, "the closed socket's slot to free", func() bool {
		c, _, err := dialFrom(t, addr, attacker)
		if err == nil {
			c.CloseNow()
		}
		return err == nil
	})
}

// TestAbuseTotalSocketCap: a server at -max-sockets refuses a newcomer
// with 503 only when no client holds two sockets more than it; otherwise
// the client holding the most gives up its newest socket (its run's done
// first, then 1001). A closed socket's place frees.
func TestAbuseTotalSocketCap(t *testing.T) {
	addr := server(t, "-max-sockets", "2")
	var hog []*client
	for range 2 { // the attacker holds the whole server
		c, _, err := dialFrom(t, addr, attacker)
		if err != nil {
			t.Fatal(err)
		}
		hog = append(hog, c)
	}
	newest := hog[1]
	newest.send(runMsg("r", "main.ts", "import { host } from 'playground';\nconsole.log('before');\nawait host.sleep(5000);\nconsole.log('after');"))
	first := append(newest.untilStarted(), newest.read())
	if first[len(first)-1].str("type") != "log" {
		t.Fatalf("the attacker's run: %s; want its log after started", types(first))
	}
	// A client holding none still gets in: the attacker's newest socket
	// ends to make room, its run's done first (nothing it logged is lost).
	v, _, err := dialFrom(t, addr, victim)
	if err != nil {
		t.Fatalf("the victim on a server full of the attacker's sockets: %v; want room made", err)
	}
	ms := newest.continueUntil("r", first)
	if done := ms[len(ms)-1]; done.str("outcome") != "cancelled" || strings.Join(logTexts(ms), ",") != "before" {
		t.Errorf("the evicted socket's run: %s %v; want its log, then done cancelled", types(ms), done)
	}
	if _, err := newest.Next(); websocket.CloseStatus(err) != websocket.StatusGoingAway {
		t.Errorf("the evicted socket: %v; want a close with 1001", err)
	}
	v.send(runMsg("v", "main.ts", "console.log('victim')"))
	if ms := v.until("v"); ms[len(ms)-1].str("outcome") != "ok" {
		t.Errorf("the victim's run: %v", ms[len(ms)-1])
	}
	// Attacker 1, victim 1: no one holds two more than a newcomer: 503.
	status, body := refused(t, addr, "127.0.0.4")
	if status != http.StatusServiceUnavailable || !strings.Contains(body, "server is full") {
		t.Errorf("a 3rd client on a full server shared fairly: %d %q; want 503", status, body)
	}
	hog[0].CloseNow()
	waitFor(t, "the closed socket's place to free", func() bool {
		c, _, err := dialFrom(t, addr, "127.0.0.4")
		if err == nil {
			c.CloseNow()
		}
		return err == nil
	})
}

// TestAbuseRunCapPerClient: runs that only wait on the host hold a client's run
// slots, not every worker: past -max-runs-per-ip the attacker's next run
// ends busy at once, and another client's run still runs.
func TestAbuseRunCapPerClient(t *testing.T) {
	addr := server(t, "-max-runs-per-ip", "2", "-workers", "2", "-rate", "100", "-burst", "100")
	sleeper := runMsg("", "main.ts", "import { host } from 'playground';\nconsole.log('before');\nawait host.sleep(3000);\nconsole.log('after');")
	var sleepers []*client
	var firsts [][]msg
	for i := range 2 { // each socket stays open until the test ends (dialFrom's cleanup)
		c, _, err := dialFrom(t, addr, attacker)
		if err != nil {
			t.Fatal(err)
		}
		sleeper["id"] = fmt.Sprintf("s%d", i)
		c.send(sleeper)
		firsts = append(firsts, c.untilStarted())
		sleepers = append(sleepers, c)
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
	for i, c := range sleepers { // the refusal cost the runs in flight nothing
		id := fmt.Sprintf("s%d", i)
		ms := c.continueUntil(id, firsts[i])
		if ms[len(ms)-1].str("outcome") != "ok" || strings.Join(logTexts(ms), ",") != "before,after" {
			t.Errorf("sleeper %d: %s %v; want ok with both logs", i, types(ms), logTexts(ms))
		}
	}
}

// TestAbuseDNSRebindingRefused: a page on an attacker's name that resolves to a
// loopback server sends that name as Host and Origin; the server refuses it
// (the page and the socket), and still serves localhost.
func TestAbuseDNSRebindingRefused(t *testing.T) {
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

// TestAbuseProtocolEdges: oversized messages are answered and keep the socket; a
// client's own text is not echoed back in full; invalid runs cost a token of
// the rate limit and count as protocol violations.
func TestAbuseProtocolEdges(t *testing.T) {
	addr := server(t, "-max-source-bytes", "1000", "-rate", "0.01", "-burst", "5")
	c := dial(t, addr)
	max := c.hello["limits"].(map[string]any)["maxMessageBytes"].(float64)

	big := runMsg("big", "main.ts", strings.Repeat("x", int(max)+10))
	c.send(big)
	ms := c.until("big")
	if len(ms) != 2 || ms[0].str("kind") != "INVALID_REQUEST" || !strings.Contains(ms[0].str("message"), "maxMessageBytes") || ms[1].str("outcome") != "invalid" {
		t.Errorf("an oversized run: %v; want INVALID_REQUEST naming maxMessageBytes, then done invalid", ms)
	}
	// Far over the limit (the 8.5 MB single file, at the default
	// limits): only its head is held, and the run is still answered by id.
	huge := runMsg("huge", "main.ts", strings.Repeat("y", 8*int(max)))
	c.send(huge)
	ms = c.until("huge")
	if len(ms) != 2 || ms[0].str("kind") != "INVALID_REQUEST" || !strings.Contains(ms[0].str("message"), "maxMessageBytes") || ms[1].str("outcome") != "invalid" {
		t.Errorf("a run 8 times maxMessageBytes: %v; want INVALID_REQUEST naming maxMessageBytes, then done invalid", ms)
	}
	c.SendFrame(websocket.MessageText, []byte(`{"type":"cancel","id":"x","`+strings.Repeat("f", 100_000)+`":1}`))
	if m := c.read(); m.str("type") != "protocol_error" || len(m.str("message")) > 300 {
		t.Errorf("a 100 kB unknown field: %.200v (%d bytes); want a short protocol_error", m, len(m.str("message")))
	}
	// The oversized runs took two tokens; three more invalid runs take the rest.
	for i := range 3 {
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
	victimServed(t, addr) // the rate limit is per client: another IP has its own tokens
	// Invalid runs count as violations: the 20th closes the socket with 1008.
	for i := range 14 {
		c.send(map[string]any{"type": "run", "id": fmt.Sprintf("bad%d", i), "files": []any{}})
	}
	if err := c.UntilClosed(); websocket.CloseStatus(err) != websocket.StatusPolicyViolation {
		t.Errorf("after 20 violations: %v; want a close with 1008", err)
	}
}

// TestAbuseSleepingRunsDoNotStarveOthers: one client's runs that sleep on
// the host fill every worker and the queue behind them; another client's
// hello run is served while all of them still sleep. Whether a sleeper
// starts at once or is queued first (its worker still starting, or a slot
// given back by a parked run) is not the property and is not asserted:
// on a busy machine parking let the third start (issue 22).
func TestAbuseSleepingRunsDoNotStarveOthers(t *testing.T) {
	addr := server(t, "-workers", "2", "-rate", "100", "-burst", "100", "-max-timeout", "120s", "-drain-timeout", "1s")
	const sleepers = 4
	for i := range sleepers {
		c, _, err := dialFrom(t, addr, attacker)
		if err != nil {
			t.Fatal(err)
		}
		// 60 s of sleep: far longer than any machine takes to serve the
		// victim, so a victim served only once a sleeper ended is seen.
		m := runMsg(fmt.Sprintf("sleep%d", i), "main.ts", "import { host } from 'playground';\nfor (let i = 0; i < 6; i++) await host.sleep(10000);")
		m["timeoutMs"] = 90000
		c.send(m)
		if m := c.read(); m.str("type") != "started" && m.str("type") != "queued" {
			t.Fatalf("sleeper %d: %v; want started or queued", i, m)
		}
	}
	v, _, err := dialFrom(t, addr, victim)
	if err != nil {
		t.Fatal(err)
	}
	v.send(runMsg("hello", "main.ts", "console.log('hello')"))
	ms := v.until("hello")
	if done := ms[len(ms)-1]; done.str("outcome") != "ok" {
		t.Errorf("the victim's run: %s %v; want ok", types(ms), done)
	}
	// Served while every sleeper is still in flight (activeRuns counts
	// queued runs too, and the victim's has ended).
	if n := stats(t, addr)["activeRuns"]; n < sleepers {
		t.Errorf("after the victim's run, %v runs in flight; want the %d sleepers still sleeping (the victim waited for one to end)", n, sleepers)
	}
}

// TestAbuseStalledReaderBudget: a client that stops reading while its run floods
// output is disconnected once its sockets' unsent bytes pass its budget;
// another client is served meanwhile.
func TestAbuseStalledReaderBudget(t *testing.T) {
	addr := server(t, stalledReaderFlags...)
	a, _, err := dialFrom(t, addr, attacker)
	if err != nil {
		t.Fatal(err)
	}
	a.send(runMsg("flood", "main.ts", flood))
	waitDropped(t, addr, 0) // the attacker reads nothing while its run floods
	v, _, err := dialFrom(t, addr, victim)
	if err != nil {
		t.Fatal(err)
	}
	v.send(runMsg("v", "main.ts", "console.log('victim')"))
	if ms := v.until("v"); ms[len(ms)-1].str("outcome") != "ok" {
		t.Errorf("victim: %v", ms[len(ms)-1])
	}
	readPrefix(t, a, "flood") // what the attacker's socket still holds, then its end
	victimServed(t, addr)
}

// flood is 30 MB of events: more than loopback's socket buffers can absorb
// (several MB each way), so the server's own accounting must drop it.
const flood = "for (let i = 0; i < 3000; i++) console.log('x'.repeat(10000));"

var stalledReaderFlags = []string{"-outbox-client-bytes", "200000", "-max-output-bytes", "100000000", "-socket-max-output-bytes", "100000000", "-max-events", "1000000"}

// TestAbuseHardFrameCap: a frame over the hard cap (session.FrameLimit) is never read whole:
// the socket closes with 1009 (message too big), and the server serves the
// next socket.
func TestAbuseHardFrameCap(t *testing.T) {
	addr := server(t, "-max-source-bytes", "1000")
	c := dial(t, addr)
	max := c.hello["limits"].(map[string]any)["maxMessageBytes"].(float64)
	ctx, cancel := context.WithTimeout(t.Context(), 10*time.Second)
	defer cancel()
	_ = c.Conn().Write(ctx, websocket.MessageText, []byte(`{"type":"ping","t":"`+strings.Repeat("x", int(session.FrameLimit(int64(max))))+`"}`))
	if err := c.UntilClosed(); websocket.CloseStatus(err) != websocket.StatusMessageTooBig {
		t.Errorf("after a frame over the hard cap: %v; want a close with 1009", err)
	}
	next := dial(t, addr)
	next.send(runMsg("after", "main.ts", "1"))
	if ms := next.until("after"); ms[len(ms)-1].str("outcome") != "ok" {
		t.Errorf("the next socket's run: %v", ms[len(ms)-1])
	}
}

// victimServed checks that another client IP can still connect and run.
func victimServed(t *testing.T, addr string) {
	t.Helper()
	v, _, err := dialFrom(t, addr, victim)
	if err != nil {
		t.Fatalf("the victim could not connect: %v", err)
	}
	v.send(runMsg("v", "main.ts", "console.log('victim')"))
	ms := v.until("v")
	if done := ms[len(ms)-1]; done.str("outcome") != "ok" || len(only(ms, "log")) != 1 {
		t.Errorf("the victim's run: %s %v; want ok with its log", types(ms), done)
	}
	v.CloseNow()
}

// logTexts returns the text of each log message in ms.
func logTexts(ms []msg) []string {
	var out []string
	for _, m := range only(ms, "log") {
		out = append(out, m.str("text"))
	}
	return out
}

// wireBytes is the size of ms as JSON, as the client received them.
func wireBytes(ms []msg) int {
	n := 0
	for _, m := range ms {
		b, _ := json.Marshal(m)
		n += len(b)
	}
	return n
}

// TestAbusePerRunLimits crosses each limit of one run from the attacker's
// address: the run ends as documented within its bound, what it emitted
// before the stop arrived (its first log, in seq order without gaps: until
// checks), and the victim is served afterwards.
func TestAbusePerRunLimits(t *testing.T) {
	const maxOut, maxEvents, maxCalls = 200_000, 300, 10
	addr := server(t, "-max-output-bytes", fmt.Sprint(maxOut), "-max-events", fmt.Sprint(maxEvents),
		"-max-host-calls", fmt.Sprint(maxCalls), "-rate", "100", "-burst", "100")
	const pre = "import { facts, host } from 'playground';\nconsole.log('before'); facts.before = 1;\n"
	for _, tc := range []struct {
		name, code string
		timeoutMs  float64
		outcome    string // "" for ok or output_limit
		check      func(t *testing.T, ms []msg, done msg)
	}{
		{name: "one line past the output cap", code: "console.log('x'.repeat(100 * 2 ** 20));\nconsole.log('after');",
			check: func(t *testing.T, ms []msg, done msg) {
				logs := logTexts(ms)
				if n := len(logs); n < 2 || logs[n-1] != "after" || len(logs[1]) >= 100<<20 {
					t.Errorf("logs %d; want a truncated line, then after", len(logs))
				}
			}},
		{name: "a log flood", code: "for (;;) console.log('y'.repeat(1000));", outcome: "output_limit"},
		{name: "%c arguments", code: "const big = 'z'.repeat(300000);\nfor (let i = 0; i < 100; i++) console.log('%c', big);"},
		{name: "an event flood", code: "for (let i = 0; ; i++) console.log(i);", outcome: "output_limit",
			check: func(t *testing.T, ms []msg, done msg) {
				if n := len(only(ms, "log")) + len(only(ms, "fact")); n > maxEvents {
					t.Errorf("%d events; want at most %d", n, maxEvents)
				}
			}},
		{name: "a facts flood", code: "for (let i = 0; ; i++) facts['k' + i] = 'v'.repeat(1000);", outcome: "output_limit"},
		{name: "host calls", code: "for (let i = 0; i < 100; i++) await host.sleep(0);", outcome: "error",
			check: func(t *testing.T, ms []msg, done msg) {
				settled := 0
				for _, c := range only(ms, "call") {
					if c["pending"] != true {
						settled++
					}
				}
				if settled > maxCalls {
					t.Errorf("%d host calls answered; want at most %d", settled, maxCalls)
				}
			}},
		{name: "the deadline", code: "while (true) {}", timeoutMs: 1000, outcome: "timeout"},
		{name: "compile-time BigInt", code: "const x = 1n << 400000000n;\nconsole.log(String(x).length);", timeoutMs: 1000, outcome: "timeout"},
		{name: "memory", code: "const a = [];\nfor (;;) a.push(new Uint8Array(2 ** 26));", outcome: "memory_limit"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a, _, err := dialFrom(t, addr, attacker)
			if err != nil {
				t.Fatal(err)
			}
			m := runMsg("r", "main.ts", pre+tc.code)
			m["timeoutMs"] = 30000.0 // a guard only: the worker runs under -race on a loaded machine
			if tc.timeoutMs > 0 {
				m["timeoutMs"] = tc.timeoutMs
			}
			a.send(m)
			ms := a.until("r")
			done := ms[len(ms)-1]
			switch got := done.str("outcome"); {
			case tc.outcome == "" && got != "ok" && got != "output_limit",
				tc.outcome == "error" && got != "error" && got != "output_limit",
				tc.outcome != "" && tc.outcome != "error" && got != tc.outcome:
				t.Errorf("outcome %q (%s); want %q", got, types(ms[max(0, len(ms)-5):]), tc.outcome)
			}
			if logs := logTexts(ms); len(logs) == 0 || logs[0] != "before" {
				t.Errorf("the run's first log was lost: %.100v", logs)
			}
			if f, _ := done["facts"].(map[string]any); f["before"] != 1.0 {
				t.Errorf("done.facts lost the fact set before the stop: %.200v", f)
			}
			stats, _ := done["stats"].(map[string]any)
			if ob, _ := stats["outputBytes"].(float64); ob > maxOut {
				t.Errorf("done.stats.outputBytes = %v; want at most %d", ob, maxOut)
			}
			// What was sent: the cap, plus each message's envelope and the done.
			if n, limit := wireBytes(ms), maxOut+200*len(ms)+wireBytes(ms[len(ms)-1:]); n > limit {
				t.Errorf("the client received %d bytes for the run; want at most %d (the cap and envelopes)", n, limit)
			}
			if tc.check != nil {
				tc.check(t, ms, done)
			}
			a.CloseNow()
			victimServed(t, addr)
		})
	}
}

// TestAbuseKVBudgets: a client's tabs cannot store more than its budget
// (kv.set fails, catchably), the store never more than its total across
// clients (the least recently used tabs are dropped), and the victim can
// store and read back afterwards.
func TestAbuseKVBudgets(t *testing.T) {
	// Values of 9,000 characters: a host call's arguments are cut at 10,000
	// characters on their way to the host today (a longer kv.set stores a
	// truncated value; reported, not this suite's to fix).
	const clientBytes, totalBytes, value = 100_000, 300_000, 9_000
	addr := server(t, "-kv-client-bytes", fmt.Sprint(clientBytes), "-kv-bytes", fmt.Sprint(totalBytes), "-rate", "100", "-burst", "100")
	fill := fmt.Sprintf(`import { facts, host } from 'playground';
console.log('before');
const v = 'x'.repeat(%d);
let n = 0;
try { for (let i = 0; i < 100; i++) { await host.kv.set('k' + i, v); facts.n = ++n; } } catch (e) { console.log('refused: ' + e.message); }
`, value)
	var tabs []*client
	for i, src := range []string{attacker, "127.0.0.4", "127.0.0.5", "127.0.0.6", "127.0.0.7"} {
		a, _, err := dialFrom(t, addr, src)
		if err != nil {
			t.Fatal(err)
		}
		tabs = append(tabs, a)
		a.send(runMsg("fill", "main.ts", fill))
		ms := a.until("fill")
		done := ms[len(ms)-1]
		logs := logTexts(ms)
		n, _ := done["facts"].(map[string]any)["n"].(float64)
		if done.str("outcome") != "ok" || len(logs) != 2 || logs[0] != "before" || !strings.HasPrefix(logs[1], "refused: ") {
			t.Fatalf("client %d filling kv: %s %v; want ok, before, then a refused kv.set", i, types(ms), logs)
		}
		if n < 1 || n*value > clientBytes {
			t.Errorf("client %d stored %v values of %d bytes; want at least one and at most %d bytes", i, n, value, clientBytes)
		}
	}
	// Five clients of 100 kB each against a total of 300 kB: the oldest
	// tabs were dropped.
	held := 0
	for i, a := range tabs {
		id := fmt.Sprint("list", i)
		a.send(runMsg(id, "main.ts", "import { host } from 'playground';\nconsole.log(String((await host.kv.list()).length));"))
		ms := a.until(id)
		var n int
		if logs := logTexts(ms); len(logs) == 1 {
			fmt.Sscan(logs[0], &n)
		} else {
			t.Fatalf("kv.list on tab %d: %s", i, types(ms))
		}
		held += n * value
	}
	if held > totalBytes {
		t.Errorf("the tabs still hold %d bytes of values; want at most the total, %d", held, totalBytes)
	}
	v, _, err := dialFrom(t, addr, victim)
	if err != nil {
		t.Fatal(err)
	}
	v.send(runMsg("v", "main.ts", "import { host } from 'playground';\nawait host.kv.set('mine', 'x'.repeat(9000));\nconsole.log(String((await host.kv.get('mine')).length));"))
	if ms := v.until("v"); ms[len(ms)-1].str("outcome") != "ok" || strings.Join(logTexts(ms), ",") != "9000" {
		t.Errorf("the victim's kv after the flood: %s %v", types(ms), logTexts(ms))
	}
}

// waitDropped waits, reading nothing, until the server holds n sessions
// (/api/stats): the stalled sockets were dropped. The deadline is a guard
// only (a flood from a worker under -race on a loaded machine is slow).
func waitDropped(t *testing.T, addr string, n float64) {
	t.Helper()
	deadline := time.Now().Add(90 * time.Second)
	for stats(t, addr)["sessions"] != n {
		if time.Now().After(deadline) {
			t.Fatalf("the server still holds %v sessions; want the stalled ones dropped, %v left", stats(t, addr)["sessions"], n)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// readPrefix reads the stalled socket a until it breaks and checks that
// what it did get of run id is the run's start, without a gap (nothing
// emitted before the drop was lost on the way) and without its done.
func readPrefix(t *testing.T, a *client, id string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), 30*time.Second)
	defer cancel()
	seq := 0.0
	for {
		_, b, err := a.Conn().Read(ctx)
		if err != nil {
			if ctx.Err() != nil {
				t.Fatal("the stalled socket was neither dropped nor done")
			}
			return
		}
		var m msg
		if err := json.Unmarshal(b, &m); err != nil {
			t.Fatal(err)
		}
		if m.str("id") != id {
			continue
		}
		if m.num("seq") != seq+1 {
			t.Fatalf("message seq %v after %v: a gap in what the dropped socket received", m.num("seq"), seq)
		}
		seq = m.num("seq")
		if m.str("type") == "done" {
			t.Fatal("the stalled socket got its whole flood; want it dropped past the budget")
		}
	}
}

// TestAbuseOutboxTotalBudget: stalled readers from several client IPs,
// each under its own client budget, are dropped once all sockets' unsent
// bytes pass the total; what each got is the start of its run, and the
// victim is served afterwards.
func TestAbuseOutboxTotalBudget(t *testing.T) {
	addr := server(t, "-outbox-bytes", "300000", "-outbox-client-bytes", "100000000", "-max-output-bytes", "100000000", "-socket-max-output-bytes", "100000000", "-max-events", "1000000", "-workers", "2")
	var socks []*client
	for _, src := range []string{attacker, "127.0.0.4"} {
		a, _, err := dialFrom(t, addr, src)
		if err != nil {
			t.Fatal(err)
		}
		a.send(runMsg("flood", "main.ts", flood))
		socks = append(socks, a)
	}
	waitDropped(t, addr, 0) // the attackers read nothing while their runs flood
	for _, a := range socks {
		readPrefix(t, a, "flood")
	}
	victimServed(t, addr)
}

// TestAbuseConnectionCap: plain TCP connections, which no WebSocket cap
// counts, are capped per client IP too (its sockets' cap plus 16): one IP
// holding idle keep-alive connections cannot exhaust the server's
// descriptors; past the cap a connection is answered 429 and closed; the
// victim still connects and runs; a closed connection's place frees.
func TestAbuseConnectionCap(t *testing.T) {
	addr := server(t, "-max-sockets-per-ip", "2")
	const perIP = 2 + 16
	held := func() (net.Conn, string) { // one keep-alive request, then idle
		t.Helper()
		d := net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(attacker)}}
		c, err := d.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { c.Close() })
		fmt.Fprintf(c, "GET /healthz HTTP/1.1\r\nHost: %s\r\n\r\n", addr)
		c.SetReadDeadline(time.Now().Add(30 * time.Second)) // a guard only
		resp, err := http.ReadResponse(bufio.NewReader(c), nil)
		if err != nil {
			return c, err.Error()
		}
		b, _ := io.ReadAll(io.LimitReader(resp.Body, 1000))
		return c, fmt.Sprintf("%d %s", resp.StatusCode, strings.TrimSpace(string(b)))
	}
	var conns []net.Conn
	for i := range perIP {
		c, got := held()
		if got != "200 ok" {
			t.Fatalf("connection %d of %d: %q; want 200 ok", i+1, perIP, got)
		}
		conns = append(conns, c)
	}
	if _, got := held(); !strings.HasPrefix(got, "429 too many connections") && !strings.Contains(got, "reset") {
		t.Errorf("connection %d: %q; want 429 naming the limit (or a reset)", perIP+1, got)
	}
	victimServed(t, addr)
	conns[0].Close()
	waitFor(t, "the closed connection's place to free", func() bool {
		c, got := held()
		c.Close()
		return got == "200 ok"
	})
}

// TestAbuseFullQueueSharedFairly: one client fills the whole queue with
// runs that wait on the host (and another holds the reserve worker);
// a third client's run still gets a place (the hog's newest waiter ends
// busy instead) and runs; the hog's other runs keep everything they log.
func TestAbuseFullQueueSharedFairly(t *testing.T) {
	addr := server(t, "-workers", "1", "-queue", "3", "-rate", "100", "-burst", "100",
		"-max-parked", "-1") // sleeping runs hold their slots, so the queue fills
	waitIdle(t, addr, 2) // the worker and the reserve: the first runs start at once, not queued behind a start
	sleeper := "import { host } from 'playground';\nconsole.log('before');\nawait host.sleep(1000);\nconsole.log('after');"
	// A second attacker address takes the reserve worker (the first will
	// hold the only other), so that the victim must queue.
	second, _, err := dialFrom(t, addr, "127.0.0.4")
	if err != nil {
		t.Fatal(err)
	}
	var hog []*client
	for i := range 4 { // one runs, three fill the queue
		c, _, err := dialFrom(t, addr, attacker)
		if err != nil {
			t.Fatal(err)
		}
		c.send(runMsg(fmt.Sprint("s", i), "main.ts", sleeper))
		want := map[bool]string{true: "started", false: "queued"}[i == 0]
		if m := c.read(); m.str("type") != want {
			t.Fatalf("sleeper %d: %v; want %s", i, m, want)
		}
		hog = append(hog, c)
		if i == 0 {
			second.send(runMsg("r", "main.ts", sleeper))
			if m := second.read(); m.str("type") != "started" {
				t.Fatalf("the second attacker's run: %v; want started on the reserve worker", m)
			}
		}
	}
	v, _, err := dialFrom(t, addr, victim)
	if err != nil {
		t.Fatal(err)
	}
	v.send(runMsg("v", "main.ts", "console.log('victim')"))
	dropped := hog[3].continueUntil("s3", []msg{{"type": "queued", "seq": 1.0}})
	if done := dropped[len(dropped)-1]; done.str("outcome") != "busy" || done.num("retryAfterMs") <= 0 {
		t.Errorf("the hog's newest waiter: %v; want busy with retryAfterMs (the victim took its place)", done)
	}
	ms := v.until("v")
	if done := ms[len(ms)-1]; done.str("outcome") != "ok" || strings.Join(logTexts(ms), ",") != "victim" {
		t.Errorf("the victim on a full queue: %s %v; want ok with its log", types(ms), done)
	}
	for i, c := range hog[:3] {
		id := fmt.Sprint("s", i)
		first := []msg{{"type": map[bool]string{true: "started", false: "queued"}[i == 0], "seq": 1.0}}
		ms := c.continueUntil(id, first)
		if done := ms[len(ms)-1]; done.str("outcome") != "ok" || strings.Join(logTexts(ms), ",") != "before,after" {
			t.Errorf("the hog's run %d: %s %v; want ok with both logs", i, types(ms), logTexts(ms))
		}
	}
}

// TestAbusePathLimits: a path deeper than 10 segments or longer than 200
// bytes is refused with INVALID_REQUEST naming the limit; the socket is
// kept and serves the next run.
func TestAbusePathLimits(t *testing.T) {
	addr := server(t)
	a, _, err := dialFrom(t, addr, attacker)
	if err != nil {
		t.Fatal(err)
	}
	for i, tc := range []struct{ path, want string }{
		{"a/b/c/d/e/f/g/h/i/j/k/main.ts", "the limit is 10"},
		{"src/" + strings.Repeat("x", 200) + ".ts", "the limit is 200"},
	} {
		id := fmt.Sprint("p", i)
		a.send(runMsg(id, tc.path, "console.log(1)"))
		ms := a.until(id)
		if len(ms) != 2 || ms[0].str("kind") != "INVALID_REQUEST" || !strings.Contains(ms[0].str("message"), tc.want) || ms[1].str("outcome") != "invalid" {
			t.Errorf("path %.40q: %v; want INVALID_REQUEST with %q, then done invalid", tc.path, ms, tc.want)
		}
	}
	a.send(runMsg("ok", "main.ts", "console.log('still here')"))
	if ms := a.until("ok"); ms[len(ms)-1].str("outcome") != "ok" {
		t.Errorf("the same socket's next run: %v", ms[len(ms)-1])
	}
	victimServed(t, addr)
}

// TestAbuseKVExpiryFreesBudget: a closed tab's data expires after -kv-ttl,
// and with it the client's budget: a client at its budget that closes its
// tab can store again once the data has expired.
func TestAbuseKVExpiryFreesBudget(t *testing.T) {
	addr := server(t, "-kv-client-bytes", "30000", "-kv-ttl", "1s", "-rate", "100", "-burst", "100")
	fill := `import { host } from 'playground';
let n = 0;
try { for (let i = 0; i < 10; i++) { await host.kv.set('k' + i, 'x'.repeat(9000)); n++; } } catch (e) { console.log('refused'); }
console.log(String(n));`
	tab, _, err := dialFrom(t, addr, attacker)
	if err != nil {
		t.Fatal(err)
	}
	tab.send(runMsg("fill", "main.ts", fill))
	if logs := logTexts(tab.until("fill")); strings.Join(logs, ",") != "refused,3" {
		t.Fatalf("filling a 30 kB budget with 9 kB values: %v; want 3 stored, then refused", logs)
	}
	tab.Close()
	waitFor(t, "the closed tab's data to expire and free the budget", func() bool {
		c, _, err := dialFrom(t, addr, attacker)
		if err != nil {
			return false
		}
		defer c.CloseNow()
		c.send(runMsg("again", "main.ts", "import { host } from 'playground';\ntry { await host.kv.set('k', 'x'.repeat(9000)); console.log('stored'); } catch (e) { console.log('refused'); }"))
		return strings.Join(logTexts(c.until("again")), ",") == "stored"
	})
	victimServed(t, addr)
}
