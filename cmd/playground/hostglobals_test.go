package main

import (
	"encoding/json"
	"io"
	"strings"
	"testing"
)

// The host-call flags are checked at start: a host global that would
// shadow a JavaScript global, names no host function, or a facts cap that
// could not fit one message is refused with a clear error.
func TestHostFlagsRefusedAtStart(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"-host-globals", "echo,fetch"}, `host global "fetch": the name is a JavaScript global`},
		{[]string{"-host-globals", "nope"}, `host global "nope": no host function is named "nope"`},
		{[]string{"-max-facts-bytes", "99999999"}, "-max-facts-bytes 99999999: at most 4194304"},
	} {
		err := run(t.Context(), append([]string{"-addr", "127.0.0.1:0"}, tc.args...), func(string) string { return "" }, io.Discard, nil)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: error %v; want %q", tc.args, err, tc.want)
		}
	}
}

// Over a real socket with the default flags: a snippet written for a page
// that registers functions runs as written, each call is announced in
// flight before it settles, and a run whose facts grow past the announced
// cap ends output_limit with its done (the socket stays open and serves
// the next run).
func TestHostGlobalsAndFactsCapOverSocket(t *testing.T) {
	c := dial(t, server(t))
	hello := c.hello
	limits, _ := hello["limits"].(map[string]any)
	if limits["maxFactsBytes"] != float64(256<<10) {
		t.Fatalf("hello.limits.maxFactsBytes = %v; want %d", limits["maxFactsBytes"], 256<<10)
	}
	c.send(runMsg("g", "main.js", `console.log(await echo("hello"), await sleep(5));`))
	ms := c.until("g")
	if got := types(ms); got != "started call call call call log done" || ms[len(ms)-1].str("outcome") != "ok" {
		t.Fatalf("messages %s: %v", got, ms)
	}
	calls := only(ms, "call")
	if calls[0]["pending"] != true || calls[0].num("callId") != 1 || calls[0]["ms"] != nil ||
		calls[1]["pending"] != nil || calls[1].num("callId") != 1 || calls[1]["ok"] != true || calls[3].num("callId") != 2 {
		t.Errorf("call messages %v; want call 1 pending then settled, then call 2", calls)
	}
	c.send(runMsg("f", "main.js", `import { facts } from "playground";
for (let i = 0; i < 2000; i++) facts["k" + i] = "x".repeat(9000);`))
	ms = c.until("f")
	done := ms[len(ms)-1]
	facts, _ := done["facts"].(map[string]any)
	errs := only(ms, "error")
	if done.str("outcome") != "output_limit" || len(facts) == 0 || len(facts) > (256<<10)/9000 || len(errs) != 1 || !strings.Contains(errs[0].str("message"), "facts limit") {
		t.Fatalf("facts flood: outcome %s, %d facts, errors %v; want output_limit with the facts up to 256 KiB", done.str("outcome"), len(facts), errs)
	}
	// Deterministic runs stay byte-identical with host.time() in them: it
	// answers the virtual clock, and call times are on that clock.
	var streams [2]string
	for i := range streams {
		m := runMsg("d", "main.js", `import { host } from "playground";
await new Promise((r) => setTimeout(r, 250));
console.log(await host.time(), await sleep(3), Date.now());`)
		m["deterministic"] = true
		c.send(m)
		var parts []string
		for _, m := range c.until("d") {
			if m.str("type") == "done" {
				delete(m, "durationMs")
				delete(m, "stats")
			}
			delete(m, "watch") // started.watch: a fresh token per run, by design
			b, _ := json.Marshal(m)
			parts = append(parts, string(b))
		}
		streams[i] = strings.Join(parts, "\n")
	}
	if streams[0] != streams[1] || !strings.Contains(streams[0], `"text":"2024-01-01T00:00:00.25Z 3 1704067200250"`) {
		t.Errorf("deterministic runs with host.time():\n%s\n---\n%s", streams[0], streams[1])
	}
	c.send(runMsg("n", "main.js", `console.log("next")`))
	if ms := c.until("n"); ms[len(ms)-1].str("outcome") != "ok" {
		t.Errorf("next run: %v", ms)
	}
}
