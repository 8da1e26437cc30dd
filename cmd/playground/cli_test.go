package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// cliRun runs `playground run args...` in dir and returns its exit status
// and output.
func cliRun(t *testing.T, dir string, args ...string) (int, string, string) {
	t.Helper()
	wd, _ := os.Getwd()
	if err := os.Chdir(dir); err != nil {
		t.Fatal(err)
	}
	defer os.Chdir(wd)
	var out, errb bytes.Buffer
	code := runCLI(t.Context(), args, strings.NewReader(""), &out, &errb, func(string) string { return "" })
	return code, out.String(), errb.String()
}

func writeFiles(t *testing.T, files ...string) string {
	t.Helper()
	dir := t.TempDir()
	for i := 0; i+1 < len(files); i += 2 {
		p := filepath.Join(dir, files[i])
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(files[i+1]), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

const cliMain = `import { facts, input, host } from "playground";
import { Counter } from "./counter";
const c = new Counter();
console.log("start", input.start);
facts.count = c.inc(input.start);
console.warn("careful");
await host.echo("ping");
export default { count: facts.count };
`

func TestCLIEmbeddedRun(t *testing.T) {
	dir := writeFiles(t, "main.ts", cliMain, "counter.ts", counterTS, "in.json", `{"start": 41}`)
	code, out, errOut := cliRun(t, dir, "main.ts", "counter.ts", "--input", "in.json")
	if code != exitOK {
		t.Fatalf("exit %d; want 0\nstdout:\n%s\nstderr:\n%s", code, out, errOut)
	}
	for _, want := range []string{"start 41\n", "fact count = 41\n", "careful\n", `call host.echo("ping") → "ping"`, `output: {"count":41}`, "ok in "} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "\x1b[") {
		t.Errorf("output to a non-terminal is colored:\n%q", out)
	}
	// Lines appear in the order of the events.
	if strings.Index(out, "start 41") > strings.Index(out, "fact count") || strings.Index(out, "fact count") > strings.Index(out, "careful") {
		t.Errorf("output out of order:\n%s", out)
	}
}

func TestCLIJSONIsNDJSON(t *testing.T) {
	dir := writeFiles(t, "a.ts", `console.log("x"); export default 1`)
	code, out, _ := cliRun(t, dir, "--json", "a.ts")
	if code != exitOK {
		t.Fatalf("exit %d; want 0\n%s", code, out)
	}
	var types []string
	sc := bufio.NewScanner(strings.NewReader(out))
	for seq := 1; sc.Scan(); seq++ {
		var m struct {
			Type string
			Seq  int
		}
		if err := json.Unmarshal(sc.Bytes(), &m); err != nil {
			t.Fatalf("line %q is not JSON: %v", sc.Text(), err)
		}
		if m.Seq != seq {
			t.Errorf("seq %d; want %d", m.Seq, seq)
		}
		types = append(types, m.Type)
	}
	if got := strings.Join(types, " "); got != "started log done" && got != "queued started log done" {
		t.Errorf("types = %q; want started log done", got)
	}
}

func TestCLIExitCodes(t *testing.T) {
	dir := writeFiles(t,
		"err.ts", "const o: any = null;\no.x;",
		"loop.js", "while (true) {}",
		"flood.js", `for (;;) console.log("x".repeat(4096))`,
		"ok.js", "export default 1",
		"bad name.js", "1",
	)
	tests := []struct {
		args []string
		want int
		text string
	}{
		{[]string{"err.ts"}, exitError, "RUNTIME_ERROR err.ts:2:"},
		{[]string{"loop.js", "--timeout", "100ms"}, exitTimeout, "timeout in"},
		{[]string{"flood.js"}, exitLimit, "output_limit in"},
		{[]string{"ok.js", "--mode", "turbo"}, exitUsage, "mode"},
		{[]string{"missing.js"}, exitUsage, "missing.js"},
		{[]string{"bad name.js"}, exitUsage, "segments"},
		{[]string{"ok.js", "--input", "nope.json"}, exitUsage, "--input"},
		{[]string{}, exitUsage, "no files"},
	}
	for _, tc := range tests {
		code, out, errOut := cliRun(t, dir, tc.args...)
		if code != tc.want || !strings.Contains(out+errOut, tc.text) {
			t.Errorf("run %v: exit %d; want %d with %q\nstdout:\n%s\nstderr:\n%s", tc.args, code, tc.want, tc.text, out, errOut)
		}
	}
}

func TestCLIColorsOnlyWhenAsked(t *testing.T) {
	var b bytes.Buffer
	p := &printer{w: &b, color: true}
	p.print([]byte(`{"type":"log","id":"a","seq":1,"t":0,"level":"error","text":"bad","args":[]}`))
	p.print([]byte(`{"type":"done","id":"a","seq":2,"t":0,"outcome":"ok","durationMs":1,"timedOut":false,"facts":{},"stats":{}}`))
	p.color = false
	p.print([]byte(`{"type":"call","id":"a","seq":3,"t":0,"callId":1,"name":"sleep","args":[5]}`))
	p.print([]byte(`{"type":"call","id":"a","seq":4,"t":5,"callId":1,"name":"sleep","args":[5],"ms":5,"ok":false,"error":"nope"}`))
	if !strings.Contains(b.String(), "call host.sleep(5) …\n") || !strings.Contains(b.String(), "call host.sleep(5) → error: nope (5.0 ms)\n") {
		t.Errorf("calls = %q; want the in-flight call, then its failure", b.String())
	}
	if !strings.Contains(b.String(), ansiRed+"bad"+ansiReset) || !strings.Contains(b.String(), ansiGreen+"ok in 1.0 ms"+ansiReset) {
		t.Errorf("colored output = %q; want red error text and a green outcome", b.String())
	}
}

func TestCLIAgainstServer(t *testing.T) {
	addr := server(t, "-burst", "2", "-rate", "0.001")
	dir := writeFiles(t, "main.ts", cliMain, "counter.ts", counterTS, "in.json", `{"start": 1}`)
	code, out, errOut := cliRun(t, dir, "main.ts", "counter.ts", "--input", "in.json", "--server", "http://"+addr)
	if code != exitOK || !strings.Contains(out, "fact count = 1") || !strings.Contains(out, `output: {"count":1}`) {
		t.Fatalf("remote run: exit %d\nstdout:\n%s\nstderr:\n%s", code, out, errOut)
	}
	cliRun(t, dir, "main.ts", "counter.ts", "--input", "in.json", "--server", "http://"+addr)
	code, _, errOut = cliRun(t, dir, "main.ts", "counter.ts", "--server", "http://"+addr)
	if code != exitRefused || !strings.Contains(errOut, "429") || !strings.Contains(errOut, "retry after") {
		t.Errorf("third run past a burst of 2: exit %d, stderr %q; want %d naming 429 and when to retry", code, errOut, exitRefused)
	}
	code, _, errOut = cliRun(t, dir, "main.ts", "--server", "http://127.0.0.1:1")
	if code != exitUnavailable {
		t.Errorf("unreachable server: exit %d (%s); want %d", code, errOut, exitUnavailable)
	}
}

func TestServerMountsAPIAndMCP(t *testing.T) {
	dir := writeFiles(t, "keys", "ci sk-ci-0123456789abcdef\n")
	addr := server(t, "-api-keys", filepath.Join(dir, "keys"), "-api-origins", "https://docs.example.org")
	req, _ := http.NewRequest(http.MethodPost, "http://"+addr+"/api/v1/run", strings.NewReader(`{"code":"export default 6*7"}`))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer sk-ci-0123456789abcdef")
	req.Header.Set("Origin", "https://docs.example.org")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || !strings.Contains(string(b), `"output":42`) || resp.Header.Get("Access-Control-Allow-Origin") != "https://docs.example.org" {
		t.Errorf("POST /api/v1/run = %d %s (CORS %q); want 200 with output 42 and the allowed origin", resp.StatusCode, b, resp.Header.Get("Access-Control-Allow-Origin"))
	}
	// The run counts in /api/stats like a socket's.
	if st := stats(t, addr); st["runs"] < 1 {
		t.Errorf("stats runs = %v after an HTTP run; want >= 1", st["runs"])
	}
	// The page is still served.
	if resp, err := http.Get("http://" + addr + "/"); err != nil || resp.StatusCode != 200 {
		t.Errorf("GET / = %v, %v", resp, err)
	} else {
		resp.Body.Close()
	}
	c := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil)
	cs, err := c.Connect(t.Context(), &mcp.StreamableClientTransport{Endpoint: "http://" + addr + "/mcp", DisableStandaloneSSE: true}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	res, err := cs.CallTool(t.Context(), &mcp.CallToolParams{Name: "run_in_sandbox", Arguments: map[string]any{"code": "import { host } from 'playground'; console.log(await host.echo('via mcp'))"}})
	if err != nil || res.IsError || !strings.Contains(res.Content[0].(*mcp.TextContent).Text, "via mcp") {
		t.Errorf("MCP run = %+v, %v; want the echoed log line", res, err)
	}
}

func TestBadAPIKeysFileStopsStartup(t *testing.T) {
	dir := writeFiles(t, "keys", "ci short\n")
	err := run(t.Context(), []string{"-addr", "127.0.0.1:0", "-api-keys", filepath.Join(dir, "keys")}, func(string) string { return "" }, io.Discard, nil)
	if err == nil || !strings.Contains(err.Error(), "line 1") {
		t.Errorf("run with a bad key file = %v; want an error naming line 1", err)
	}
}

// TestDocExamplesRun posts the body of every curl example in README.md and
// docs/api.md to a real server: each runs ok, except the documented 400.
func TestDocExamplesRun(t *testing.T) {
	addr := server(t)
	bodyRE := regexp.MustCompile(`(?s)curl -sN? (http://127\.0\.0\.1:8080/api/v1/run)(.*?)-d '([^']*)'`)
	n := 0
	for _, doc := range []string{"../../README.md", "../../docs/api.md"} {
		b, err := os.ReadFile(doc)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range bodyRE.FindAllStringSubmatch(string(b), -1) {
			n++
			req, _ := http.NewRequest(http.MethodPost, "http://"+addr+"/api/v1/run", strings.NewReader(m[3]))
			req.Header.Set("Content-Type", "application/json")
			if strings.Contains(m[2], "application/x-ndjson") {
				req.Header.Set("Accept", "application/x-ndjson")
			}
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			out, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			want := 200
			if m[3] == `{"code": 1}` {
				want = 400
			}
			if strings.Contains(m[3], `"wait": false`) && resp.StatusCode == 202 {
				// Started at once: follow its events to the done.
				var st struct{ Watch, EventsURL string }
				json.Unmarshal(out, &st)
				ev, _ := http.NewRequest(http.MethodGet, "http://"+addr+st.EventsURL, nil)
				ev.Header.Set("Authorization", "Bearer "+st.Watch)
				eresp, err := http.DefaultClient.Do(ev)
				if err != nil {
					t.Fatal(err)
				}
				out, _ = io.ReadAll(eresp.Body)
				eresp.Body.Close()
				resp.StatusCode = eresp.StatusCode
			}
			if resp.StatusCode != want || (want == 200 && !strings.Contains(string(out), `"outcome":"ok"`)) {
				t.Errorf("%s example %s: %d %s; want %d (outcome ok)", doc, m[3], resp.StatusCode, out, want)
			}
		}
	}
	if n < 5 {
		t.Errorf("found %d curl examples; want at least 5 (README and docs/api.md)", n)
	}
}

// hostileOutput writes the terminal's clipboard (OSC 52), clears the
// screen, moves back over the line printed before and forges an outcome,
// and reverses the text after it (a bidi override, and the C1 CSI).
const hostileOutput = `console.log("\x1b]52;c;aGk=\x07\x1b[2J\r\x1b[1Aok in 1.0 ms\u202e\u009b31m");
throw new Error("bad\x1b[8m");
`

// TestCLIEscapesControlCharacters: a snippet's output cannot drive the
// terminal: control characters (but newline and tab) arrive escaped,
// in the text and in the NDJSON (which stays valid JSON meaning the same),
// unless --raw asks for them as they are.
func TestCLIEscapesControlCharacters(t *testing.T) {
	dir := writeFiles(t, "main.js", hostileOutput)
	code, out, _ := cliRun(t, dir, "main.js")
	if code != exitError {
		t.Fatalf("exit %d; want %d\n%q", code, exitError, out)
	}
	if strings.ContainsAny(out, "\x1b\x07\r\u202e\u009b") {
		t.Errorf("text output holds control characters:\n%q", out)
	}
	for _, want := range []string{`\x1b]52;c;aGk=\x07\x1b[2J\x0d\x1b[1Aok in 1.0 ms\u202e\u009b31m` + "\n", `bad\x1b[8m`} {
		if !strings.Contains(out, want) {
			t.Errorf("text output lacks the escaped %q:\n%s", want, out)
		}
	}

	_, out, _ = cliRun(t, dir, "main.js", "--json")
	if strings.ContainsAny(out, "\x1b\x07\r\u202e\u009b") {
		t.Errorf("NDJSON holds control characters:\n%q", out)
	}
	first := strings.SplitN(out, "\n", 3)[1] // started, then the log
	var m struct{ Text string }
	if err := json.Unmarshal([]byte(first), &m); err != nil || !strings.HasPrefix(m.Text, "\x1b]52;c;aGk=\x07") || !strings.HasSuffix(m.Text, "\u202e\u009b31m") {
		t.Errorf("NDJSON log line %q: %q, %v; want valid JSON holding the text as logged", first, m.Text, err)
	}

	_, out, _ = cliRun(t, dir, "main.js", "--raw")
	if !strings.Contains(out, "\x1b]52;c;aGk=\x07\x1b[2J\r\x1b[1Aok in 1.0 ms\u202e\u009b31m\n") {
		t.Errorf("--raw output = %q; want the text as logged", out)
	}
}
