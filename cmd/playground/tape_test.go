package main

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/coder/websocket"
	"github.com/playground-dev/playground/tape"
	"github.com/playground-dev/playground/ws"
	"github.com/playground-dev/playground/ws/wstest"
)

// tapeCase is one snippet a test records and replays.
type tapeCase struct {
	Name  string            `json:"name"`
	Entry string            `json:"entry,omitempty"`
	Mode  string            `json:"mode,omitempty"`
	Input json.RawMessage   `json:"input,omitempty"`
	Files []json.RawMessage `json:"files"`
}

// postJSON posts body to url with the headers hdr (name, value, …) and
// returns the status and the answer.
func postJSON(t *testing.T, url string, body []byte, hdr ...string) (int, []byte) {
	t.Helper()
	req, err := http.NewRequestWithContext(t.Context(), http.MethodPost, url, bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	for i := 0; i+1 < len(hdr); i += 2 {
		req.Header.Set(hdr[i], hdr[i+1])
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("POST %s: %v", url, err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatalf("POST %s: %v", url, err)
	}
	return resp.StatusCode, b
}

// pageExamples returns the page's examples (static/examples.js), read by
// running the module itself in the sandbox: its default export is them.
func pageExamples(t *testing.T, base string) []tapeCase {
	t.Helper()
	src, err := os.ReadFile("../../static/examples.js")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := json.Marshal(map[string]any{"entry": "main.js", "files": []map[string]string{
		{"path": "examples.js", "source": string(src)},
		{"path": "main.js", "source": `import { examples } from "./examples.js"; export default examples;`},
	}})
	status, b := postJSON(t, base+"/api/v1/run", body)
	var res struct {
		Outcome string     `json:"outcome"`
		Output  []tapeCase `json:"output"`
	}
	if status != 200 || json.Unmarshal(b, &res) != nil || res.Outcome != "ok" || len(res.Output) < 5 {
		t.Fatalf("reading static/examples.js in the sandbox: %d %s", status, b)
	}
	return res.Output
}

// conformanceSnippets returns every conformance snippet of the runtime
// (sandbox/worker/js/testdata/conformance, modules, and its script/
// directory, scripts).
func conformanceSnippets(t *testing.T) []tapeCase {
	t.Helper()
	var cases []tapeCase
	for dir, mode := range map[string]string{"../../sandbox/worker/js/testdata/conformance": "module", "../../sandbox/worker/js/testdata/conformance/script": "script"} {
		paths, err := filepath.Glob(dir + "/*.js")
		if err != nil || len(paths) < 10 {
			t.Fatalf("%d conformance snippets in %s (%v)", len(paths), dir, err)
		}
		for _, p := range paths {
			src, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			name := filepath.Base(p)
			f, _ := json.Marshal(map[string]string{"path": name, "source": string(src)})
			cases = append(cases, tapeCase{Name: mode + "/" + name, Mode: mode, Files: []json.RawMessage{f}})
		}
	}
	return cases
}

// record runs c deterministic with "record": true through POST
// /api/v1/run and returns its tape.
func record(t *testing.T, base string, c tapeCase) json.RawMessage {
	t.Helper()
	// A generous limit: a run that reaches it under a loaded -race run
	// replays differently (the limit is real time). The page's infinite
	// loop always reaches its limit, so it gets a short one.
	timeout := 30000
	for _, f := range c.Files {
		if strings.Contains(string(f), `while (true)`) {
			timeout = 3000
		}
	}
	q := map[string]any{"files": c.Files, "deterministic": true, "record": true, "timeoutMs": timeout}
	if c.Entry != "" {
		q["entry"] = c.Entry
	}
	if c.Mode != "" {
		q["mode"] = c.Mode
	}
	if len(c.Input) > 0 {
		q["input"] = c.Input
	}
	body, _ := json.Marshal(q)
	status, b := postJSON(t, base+"/api/v1/run", body)
	var res struct {
		Tape json.RawMessage `json:"tape"`
	}
	if status != 200 || json.Unmarshal(b, &res) != nil || len(res.Tape) == 0 {
		t.Fatalf("record %s: %d %s; want 200 with a tape", c.Name, status, b)
	}
	return res.Tape
}

// replayResult is the answer of POST /api/v1/replay.
type replayResult struct {
	Identical bool            `json:"identical"`
	Messages  int             `json:"messages"`
	Seq       uint64          `json:"seq"`
	Expected  json.RawMessage `json:"expected"`
	Received  json.RawMessage `json:"received"`
	Outcome   string          `json:"outcome"`
}

func replay(t *testing.T, base string, tp []byte) replayResult {
	t.Helper()
	status, b := postJSON(t, base+"/api/v1/replay", tp)
	var r replayResult
	if status != 200 || json.Unmarshal(b, &r) != nil {
		t.Fatalf("replay: %d %s; want 200", status, b)
	}
	return r
}

// TestEveryDeterministicRunReplaysIdentical: every example of the page and
// every conformance snippet, run deterministic with "record": true through
// the real server and pool, replays identical from its tape (after the
// normalization of docs/protocol.md, "Run tapes"), its host calls answered
// from the tape.
func TestEveryDeterministicRunReplaysIdentical(t *testing.T) {
	base := "http://" + server(t, "-rate", "100000", "-burst", "100000", "-workers", "2")
	cases := append(pageExamples(t, base), conformanceSnippets(t)...)
	var wg sync.WaitGroup
	sem := make(chan struct{}, 4)
	var mu sync.Mutex
	calls := 0
	for _, c := range cases {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			tp := record(t, base, c)
			var parsed struct {
				Calls    []json.RawMessage `json:"calls"`
				Messages []json.RawMessage `json:"messages"`
			}
			if err := json.Unmarshal(tp, &parsed); err != nil || len(parsed.Messages) < 2 {
				t.Errorf("%s: tape %.300s: want messages", c.Name, tp)
				return
			}
			mu.Lock()
			calls += len(parsed.Calls)
			mu.Unlock()
			if r := replay(t, base, tp); !r.Identical || r.Messages != len(parsed.Messages) {
				t.Errorf("%s: replay diverged at seq %d (compared %d of %d):\nexpected %s\nreceived %s", c.Name, r.Seq, r.Messages, len(parsed.Messages), r.Expected, r.Received)
			}
		}()
	}
	wg.Wait()
	if len(cases) < 100 || calls == 0 {
		t.Errorf("replayed %d runs with %d host calls; want the examples and the conformance snippets, some with host calls", len(cases), calls)
	}
}

// TestReplayFindsTheFirstDivergence: a tape whose snippet, or whose host
// answer, was changed replays to the first message that differs.
func TestReplayFindsTheFirstDivergence(t *testing.T) {
	base := "http://" + server(t, "-rate", "1000", "-burst", "1000")
	src := `import { host, facts } from "playground";
console.log("one");
const r = await host.echo({ n: 1 });
facts.r = r;
console.log("two", Math.random());
export default r;
`
	f, _ := json.Marshal(map[string]string{"path": "main.ts", "source": src})
	tp := record(t, base, tapeCase{Name: "echo", Files: []json.RawMessage{f}})
	if r := replay(t, base, tp); !r.Identical {
		t.Fatalf("unchanged tape: %+v; want identical", r)
	}
	// Edits decode only the field they change: the messages stay as they
	// were recorded, byte for byte (a JSON object's key order is part of it).
	edit := func(change func(map[string]json.RawMessage)) []byte {
		var d map[string]json.RawMessage
		if err := json.Unmarshal(tp, &d); err != nil {
			t.Fatal(err)
		}
		change(d)
		b, _ := json.Marshal(d)
		return b
	}
	source := func(d map[string]json.RawMessage, change func(string) string) {
		var files []map[string]string
		_ = json.Unmarshal(d["files"], &files)
		files[0]["source"] = change(files[0]["source"])
		d["files"], _ = json.Marshal(files)
	}
	// messages: started 1, log 2, call pending 3, call settled 4, fact 5, log 6, done 7.
	cases := []struct {
		name   string
		change func(map[string]json.RawMessage)
		seq    uint64
		want   string // in the received message
	}{
		{"changed host answer", func(d map[string]json.RawMessage) {
			d["calls"] = json.RawMessage(`[{"name":"echo","args":[{"n":1}],"result":{"n":2}}]`)
		}, 4, `"result":{"n":2}`},
		{"changed snippet", func(d map[string]json.RawMessage) {
			source(d, func(s string) string { return strings.Replace(s, `"two"`, `"deux"`, 1) })
		}, 6, `"text":"deux`},
		{"changed host arguments", func(d map[string]json.RawMessage) {
			source(d, func(s string) string { return strings.Replace(s, `{ n: 1 }`, `{ n: 3 }`, 1) })
		}, 3, `"args":[{"n":3}]`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := replay(t, base, edit(c.change))
			if r.Identical || r.Seq != c.seq || !strings.Contains(string(r.Received), c.want) || string(r.Expected) == "null" {
				t.Errorf("replay = %+v\nexpected %s\nreceived %s\nwant the first divergence at seq %d, received holding %s", r, r.Expected, r.Received, c.seq, c.want)
			}
		})
	}
	// A replay that ends before its tape: the tape's next message is expected, null received.
	short := edit(func(d map[string]json.RawMessage) {
		source(d, func(string) string { return "console.log(\"one\");\n" })
	})
	if r := replay(t, base, short); r.Identical || r.Seq != 3 || !strings.Contains(string(r.Received), `"type":"done"`) {
		t.Errorf("shorter run: %+v\nexpected %s\nreceived %s\nwant a divergence at seq 3, where the replay sent done", r, r.Expected, r.Received)
	}
}

// cliReplay runs `playground replay args...` and returns its exit status
// and output.
func cliReplay(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	code := replayCLI(t.Context(), args, strings.NewReader(""), &out, &errb, func(string) string { return "" })
	return code, out.String(), errb.String()
}

// TestCLIRecordAndReplay: `playground run --deterministic --record` writes
// the run's tape, `playground replay` re-runs it locally and against a
// server and says identical, a changed tape's first divergence, and
// refuses a tape of a non-deterministic run with the reason.
func TestCLIRecordAndReplay(t *testing.T) {
	dir := writeFiles(t, "main.ts", cliMain, "counter.ts", counterTS, "in.json", `{"start": 41}`)
	tapePath := filepath.Join(dir, "tape.json")
	code, out, errOut := cliRun(t, dir, "main.ts", "counter.ts", "--input", "in.json", "--deterministic", "--record", tapePath)
	if code != exitOK {
		t.Fatalf("record: exit %d\n%s\n%s", code, out, errOut)
	}
	code, out, errOut = cliReplay(t, tapePath)
	if code != exitIdentical || !strings.HasPrefix(out, "identical: ") {
		t.Errorf("local replay: exit %d %q %q; want 0, identical", code, out, errOut)
	}
	base := "http://" + server(t)
	code, out, errOut = cliReplay(t, tapePath, "--server", base, "--json")
	if code != exitIdentical || !strings.Contains(out, `"identical":true`) {
		t.Errorf("remote replay: exit %d %q %q; want 0, identical", code, out, errOut)
	}

	b, err := os.ReadFile(tapePath)
	if err != nil {
		t.Fatal(err)
	}
	changed := filepath.Join(dir, "changed.json")
	os.WriteFile(changed, bytes.Replace(b, []byte(`"result":"ping"`), []byte(`"result":"pong"`), 1), 0o644)
	for _, extra := range [][]string{nil, {"--server", base}} {
		code, out, errOut = cliReplay(t, append([]string{changed}, extra...)...)
		if code != exitDiverged || !strings.Contains(out, "diverged at seq") || !strings.Contains(out, `"result":"pong"`) {
			t.Errorf("changed tape %v: exit %d %q %q; want 1 and the divergence", extra, code, out, errOut)
		}
	}

	nondet := filepath.Join(dir, "nondet.json")
	code, out, errOut = cliRun(t, dir, "main.ts", "counter.ts", "--input", "in.json", "--record", nondet)
	if code != exitOK {
		t.Fatalf("record without --deterministic: exit %d\n%s\n%s", code, out, errOut)
	}
	for _, extra := range [][]string{nil, {"--server", base}} {
		code, _, errOut = cliReplay(t, append([]string{nondet}, extra...)...)
		if code != exitUsage || !strings.Contains(errOut, "deterministic") || !strings.Contains(errOut, "not deterministic") {
			t.Errorf("non-deterministic tape %v: exit %d %q; want 2 with the reason", extra, code, errOut)
		}
	}
}

// TestTapeOverASocket: a run recorded over a WebSocket (a socket's own
// output cap, its hand-encoded done) carries its tape in done, which replays
// identical through POST /api/v1/replay.
func TestTapeOverASocket(t *testing.T) {
	base := server(t, "-rate", "1000", "-burst", "1000")
	c := dial(t, base)
	c.SendFrame(websocket.MessageText, []byte(`{"type":"run","id":"s1","deterministic":true,"record":true,"files":[{"path":"main.ts","source":"import { host } from \"playground\";\nconsole.log(await host.echo([1, 2]), await host.kv.set(\"k\", 1), await host.kv.get(\"k\"));"}]}`))
	ms := c.Until("s1", 0)
	// The tape as it was sent: a re-encoded map would reorder its keys.
	done := wstest.As[ws.Done](t, ms[len(ms)-1])
	if done.Outcome != "ok" || len(done.Tape) == 0 {
		t.Fatalf("run: %s; want ok with a tape", ms[len(ms)-1])
	}
	tp := done.Tape
	// The socket's run used host.kv (a tab's store); the replay, over HTTP,
	// where kv is refused, gets the tape's answers instead.
	if r := replay(t, "http://"+base, tp); !r.Identical || r.Messages != 9 {
		t.Errorf("the socket's tape replays %+v; want identical over 9 messages (started, three calls of two messages, log, done)", r)
	}
}

// TestTapeSeedAndClockAreTheRuntimes: the seed and clock start a tape
// records (tape.Seed, tape.ClockStart) are what a deterministic run sees:
// its first Math.random() is splitmix64's first output from tape.Seed, and
// Date at its start is tape.ClockStart.
func TestTapeSeedAndClockAreTheRuntimes(t *testing.T) {
	base := "http://" + server(t)
	status, b := postJSON(t, base+"/api/v1/run", []byte(`{"code":"export default [Math.random(), new Date().toISOString()]","deterministic":true}`))
	var res struct {
		Output []any `json:"output"`
	}
	if status != 200 || json.Unmarshal(b, &res) != nil || len(res.Output) != 2 {
		t.Fatalf("run: %d %s", status, b)
	}
	// splitmix64 (Steele, Lea and Flood, OOPSLA 2014), as sandbox/worker/js/rand.go.
	z := uint64(tape.Seed) + 0x9e3779b97f4a7c15
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	z ^= z >> 31
	want := float64(z>>11) / (1 << 53)
	if res.Output[0] != want || res.Output[1] != strings.Replace(tape.ClockStart, "Z", ".000Z", 1) {
		t.Errorf("a deterministic run saw %v; want Math.random() %v and Date %s", res.Output, want, tape.ClockStart)
	}
}
