package main

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"
)

func TestTwoFileTypeScriptRunStreams(t *testing.T) {
	addr := server(t)
	c := dial(t, addr)
	lim, _ := c.hello["limits"].(map[string]any)
	if lim["runsPerSecond"] != 4.0 || lim["runBurst"] != 8.0 || lim["maxFiles"] == nil || lim["timeoutMs"] == nil {
		t.Errorf("hello.limits = %v; want the announced limits", lim)
	}
	c.send(runMsg("r1",
		"src/main.ts", `import { facts } from "playground";
import { Counter } from "./counter.js";
const c = new Counter();
facts.count = 0;
for (let i = 0; i < 3; i++) {
  await new Promise((r) => setTimeout(r, 10));
  facts.count = c.inc();
  console.log("tick", i);
}
console.warn("done");
export default { final: c.value, when: new Date(0) };
`,
		"src/counter.ts", counterTS))
	ms := c.until("r1")
	want := "started fact fact log fact log fact log log done"
	if got := types(ms); got != want {
		t.Fatalf("messages = %s; want %s", got, want)
	}
	var logs []string
	for _, m := range only(ms, "log") {
		logs = append(logs, m.str("level")+":"+m.str("text"))
	}
	if got := strings.Join(logs, "|"); got != "log:tick 0|log:tick 1|log:tick 2|warn:done" {
		t.Errorf("logs = %s", got)
	}
	var lastT float64
	for _, m := range ms[1:] {
		if m.num("t") < lastT {
			t.Errorf("t went backwards at %v", m)
		}
		lastT = m.num("t")
	}
	if lastT < 25 {
		t.Errorf("last t = %v ms; want ≥ 30ms of timers to show", lastT)
	}
	facts := only(ms, "fact")
	if facts[3]["key"] != "count" || facts[3]["value"] != 3.0 {
		t.Errorf("last fact = %v; want count=3", facts[3])
	}
	done := ms[len(ms)-1]
	if done.str("outcome") != "ok" || done["timedOut"] != false {
		t.Errorf("done = %v; want outcome ok", done)
	}
	if got, _ := json.Marshal(done["facts"]); string(got) != `{"count":3}` {
		t.Errorf("done.facts = %s; want {\"count\":3}", got)
	}
	if got, _ := json.Marshal(done["output"]); string(got) != `{"final":3,"when":{"$t":"date","v":"1970-01-01T00:00:00.000Z"}}` {
		t.Errorf("done.output = %s", got)
	}
	st, _ := done["stats"].(map[string]any)
	// outputBytes counts every byte of the run's events (text, previews, facts), not the text alone.
	if ob, _ := st["outputBytes"].(float64); st["logs"] != 4.0 || ob <= float64(len("tick 0tick 1tick 2done")) || ob > 4096 || st["truncated"] != false {
		t.Errorf("done.stats = %v", st)
	}
}

func TestUncaughtExceptionIsRuntimeError(t *testing.T) {
	c := dial(t, server(t))
	c.send(runMsg("r1", "src/main.ts", "import { Counter } from './counter';\nconsole.log('before');\nconst c: any = new Counter();\nc.missing();\n",
		"src/counter.ts", counterTS))
	ms := c.until("r1")
	if got := types(ms); got != "started log error done" {
		t.Fatalf("messages = %s", got)
	}
	e := ms[2]
	if e.str("kind") != "RUNTIME_ERROR" || !strings.Contains(e.str("message"), "TypeError") || e.str("file") != "src/main.ts" || e.num("line") != 4 {
		t.Errorf("error = %v; want RUNTIME_ERROR TypeError at src/main.ts:4", e)
	}
	if ms[3].str("outcome") != "error" {
		t.Errorf("done outcome = %s; want error", ms[3].str("outcome"))
	}
}

func TestInfiniteLoopTimesOut(t *testing.T) {
	c := dial(t, server(t))
	run := runMsg("r1", "main.js", "console.log('spinning'); while (true) {}")
	run["timeoutMs"] = 300
	start := time.Now()
	c.send(run)
	ms := c.until("r1")
	elapsed := time.Since(start)
	if got := types(ms); got != "started log error done" {
		t.Fatalf("messages = %s; want the log kept before the timeout", got)
	}
	if ms[0].num("timeoutMs") != 300 {
		t.Errorf("started.timeoutMs = %v; want 300", ms[0]["timeoutMs"])
	}
	done := ms[3]
	if done.str("outcome") != "timeout" || done["timedOut"] != true || ms[2].str("kind") != "TIMEOUT" {
		t.Errorf("done = %v, error = %v; want timeout", done, ms[2])
	}
	if elapsed < 300*time.Millisecond || elapsed > 3*time.Second {
		t.Errorf("timeout after %v; want near 300ms", elapsed)
	}
}

func TestTimeoutIsClamped(t *testing.T) {
	c := dial(t, server(t, "-min-timeout", "100ms", "-max-timeout", "2s"))
	run := runMsg("r1", "main.js", "1")
	run["timeoutMs"] = 1e9
	c.send(run)
	if ms := c.until("r1"); ms[0].num("timeoutMs") != 2000 {
		t.Errorf("started = %v; want timeoutMs clamped to 2000", ms[0])
	}
}

// TestHostileRunsLeaveServerUp sends snippets that kill their worker over
// the WebSocket and checks the server answers each precisely, counts the
// damage in /api/stats, and keeps serving.
func TestHostileRunsLeaveServerUp(t *testing.T) {
	addr := server(t, "-memory-bytes", "134217728", "-rate", "100", "-burst", "100")
	c := dial(t, addr)
	for i, tc := range []struct{ src, outcome, kind string }{
		{"console.log('a'); const a = []; for (;;) a.push(new Float64Array(2 ** 24));", "memory_limit", "MEMORY_LIMIT"},
		{"const x = " + strings.Repeat("[", 100_000) + strings.Repeat("]", 100_000) + ";", "error", "SYNTAX_ERROR"},
		{"console.log('b'); /^(?=.)(a+)+$/.test('a'.repeat(40) + '!'); // backtracking in goja's regexp2: no interrupt reaches it", "timeout", "TIMEOUT"},
	} {
		id := fmt.Sprintf("h%d", i)
		run := runMsg(id, "main.ts", tc.src)
		run["timeoutMs"] = 500
		if tc.outcome != "timeout" {
			run["timeoutMs"] = 20_000
		}
		c.send(run)
		ms := c.until(id)
		done := ms[len(ms)-1]
		errs := only(ms, "error")
		if done.str("outcome") != tc.outcome || len(errs) == 0 || errs[len(errs)-1].str("kind") != tc.kind {
			t.Errorf("%.40s…: messages %s, done %v; want %s with %s", tc.src, types(ms), done, tc.outcome, tc.kind)
		}
		for _, e := range errs {
			if strings.Contains(e.str("message"), "/") || strings.Contains(e.str("stack"), ".go") {
				t.Errorf("error leaks a path: %v", e)
			}
		}
		c.send(runMsg(id+"ok", "main.ts", "console.log('still here')"))
		if ms := c.until(id + "ok"); ms[len(ms)-1].str("outcome") != "ok" {
			t.Fatalf("run after %s: %v", tc.outcome, ms)
		}
	}
	resp, err := http.Get("http://" + addr + "/api/stats")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var st struct {
		Pool struct{ Workers, Kills, Crashes, Restarts, Live int }
	}
	if err := json.NewDecoder(resp.Body).Decode(&st); err != nil {
		t.Fatal(err)
	}
	if st.Pool.Workers == 0 || st.Pool.Kills < 1 || st.Pool.Restarts < 3 || st.Pool.Live == 0 {
		t.Errorf("pool stats = %+v; want the kill and the replacements counted", st.Pool)
	}
}

// TestRuntimeOverWebSocket covers what only the real WebSocket path shows
// of the runtime: hello.modules, input and output through the translation to
// the wire, and a deterministic stream byte-identical on the wire (times in
// ms included). The runtime's own behaviour is tested in-process in
// sandbox/worker/js.
func TestRuntimeOverWebSocket(t *testing.T) {
	c := dial(t, server(t, "-rate", "100", "-burst", "100"))
	mods, _ := c.hello["modules"].([]any)
	if fmt.Sprint(mods) != "[playground date-fns date-fns/locale jstat lodash mathjs papaparse uuid validator zod]" {
		t.Errorf("hello.modules = %v", mods)
	}
	t.Run("input and output", func(t *testing.T) {
		run := runMsg("io", "main.ts", "import { input } from 'playground';\nexport default Promise.resolve({ doubled: input.n * 2, at: new Map([[1, 2]]) });")
		run["input"] = map[string]any{"n": 21}
		c.send(run)
		ms := c.until("io")
		if got, _ := json.Marshal(ms[len(ms)-1]["output"]); string(got) != `{"at":{"$t":"map","entries":[[1,2]]},"doubled":42}` && string(got) != `{"doubled":42,"at":{"$t":"map","entries":[[1,2]]}}` {
			t.Errorf("output = %s", got)
		}
	})
	t.Run("deterministic", func(t *testing.T) {
		var streams []string
		for i := range 2 {
			id := fmt.Sprintf("det%d", i)
			run := runMsg(id, "main.ts", "import { facts } from 'playground';\nfacts.r = Math.random();\nawait new Promise((r) => setTimeout(r, 60000));\nconsole.log(Date.now(), performance.now(), crypto.randomUUID());")
			run["deterministic"] = true
			c.send(run)
			var b strings.Builder
			for _, m := range c.until(id) {
				delete(m, "id")
				delete(m, "durationMs")
				delete(m, "stats")
				delete(m, "watch") // started.watch: a fresh token per run, by design
				j, _ := json.Marshal(m)
				b.Write(j)
			}
			streams = append(streams, b.String())
		}
		if streams[0] != streams[1] || !strings.Contains(streams[0], "1704067260000 60000") {
			t.Errorf("deterministic streams differ or lack virtual time:\n%s\n%s", streams[0], streams[1])
		}
	})
}
