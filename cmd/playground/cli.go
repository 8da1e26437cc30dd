// This file is the command-line client: `playground run FILE...`.

package main

import (
	"bufio"
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/playground-dev/playground/engine"
	"github.com/playground-dev/playground/web/api"
	"github.com/playground-dev/playground/ws"
)

// Exit codes of `playground run`. Only outcome ok exits 0.
const (
	exitOK          = 0 // outcome ok
	exitError       = 1 // outcome error: a bundle, syntax or runtime error
	exitUsage       = 2 // bad flags, unreadable files, outcome invalid or a 400/401/413 answer
	exitTimeout     = 3 // outcome timeout
	exitLimit       = 4 // outcome memory_limit or output_limit
	exitRefused     = 5 // outcome rate_limited or busy (a 429 or 503 answer)
	exitUnavailable = 6 // cancelled (Ctrl-C), or the server could not be reached or failed
)

func exitCode(outcome string) int {
	switch outcome {
	case ws.OutcomeOK:
		return exitOK
	case ws.OutcomeError:
		return exitError
	case ws.OutcomeInvalid:
		return exitUsage
	case ws.OutcomeTimeout:
		return exitTimeout
	case ws.OutcomeMemoryLimit, ws.OutcomeOutputLimit:
		return exitLimit
	case ws.OutcomeRateLimited, ws.OutcomeBusy:
		return exitRefused
	}
	return exitUnavailable
}

const cliUsage = `usage: playground run FILE... [--input input.json] [--server URL] [--json] [--record tape.json]

Runs the files (the first is the entry unless --entry says otherwise) and
prints logs, facts, host calls and errors as they happen. Without --server
the run happens in this process tree (no server needed).

Exit status: 0 outcome ok, 1 error, 2 usage or invalid run, 3 timeout,
4 memory or output limit, 5 rate limited or busy, 6 cancelled or server
unreachable.

`

// cliOptions are the flags of `playground run`.
type cliOptions struct {
	input, server, entry, mode, key string
	record                          string // --record: write the run's tape there
	timeout                         time.Duration
	json, deterministic, noColor    bool
	raw                             bool
	files                           []string
}

func parseCLI(args []string, stderr io.Writer, getenv func(string) string) (*cliOptions, error) {
	o := &cliOptions{}
	fs := flag.NewFlagSet("playground run", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() { fmt.Fprint(stderr, cliUsage); fs.PrintDefaults() }
	fs.StringVar(&o.input, "input", "", "JSON `file` given to the run as input (\"-\" reads stdin)")
	fs.StringVar(&o.server, "server", "", "run on the playground server at `URL` (e.g. http://127.0.0.1:8080) instead of in this process")
	fs.BoolVar(&o.json, "json", false, "print the protocol's messages as NDJSON instead of text")
	fs.StringVar(&o.entry, "entry", "", "entry file `path` (default: the first FILE)")
	fs.StringVar(&o.mode, "mode", "", "run `mode`: module (default) or script")
	fs.DurationVar(&o.timeout, "timeout", 0, "time limit of the run (default: the server's)")
	fs.BoolVar(&o.deterministic, "deterministic", false, "seed Math.random and give Date a virtual clock")
	fs.StringVar(&o.record, "record", "", "write the run's tape to `file` (docs/protocol.md, \"Run tapes\"; replay it with playground replay; with --deterministic)")
	fs.StringVar(&o.key, "key", getenv("PLAYGROUND_API_KEY"), "API `key` sent as a Bearer token with --server (default $PLAYGROUND_API_KEY)")
	fs.BoolVar(&o.raw, "raw", false, "print the snippet's output as it is, control characters and all (default: escaped as \\x1b, \\x0d, \\u202e…, so that output cannot drive the terminal: write its clipboard, clear the screen, overwrite or forge lines)")
	fs.BoolVar(&o.noColor, "no-color", getenv("NO_COLOR") != "", "never color the output (default: color on a terminal unless $NO_COLOR is set)")
	for {
		if err := fs.Parse(args); err != nil {
			return nil, err
		}
		if fs.NArg() == 0 {
			break
		}
		o.files = append(o.files, fs.Arg(0))
		args = fs.Args()[1:]
	}
	if len(o.files) == 0 {
		fs.Usage()
		return nil, errors.New("no files given")
	}
	return o, nil
}

// request reads the files and the input into the body of a run.
func (o *cliOptions) request(stdin io.Reader) (*api.RunRequest, error) {
	var b [6]byte
	_, _ = rand.Read(b[:])
	id := "cli-" + hex.EncodeToString(b[:])
	q := &api.RunRequest{ID: &id}
	for _, name := range o.files {
		b, err := os.ReadFile(name)
		if err != nil {
			return nil, err
		}
		p := filepath.ToSlash(filepath.Clean(name))
		if filepath.IsAbs(name) || p == ".." || strings.HasPrefix(p, "../") {
			p = filepath.Base(name)
		}
		if err := ws.CheckPath(p); err != nil {
			return nil, fmt.Errorf("%s: %v", name, err)
		}
		q.Files = append(q.Files, ws.File{Path: p, Source: string(b)})
	}
	entry := q.Files[0].Path
	if o.entry != "" {
		entry = filepath.ToSlash(filepath.Clean(o.entry))
	}
	q.Entry = &entry
	if o.input != "" {
		var b []byte
		var err error
		if o.input == "-" {
			b, err = io.ReadAll(stdin)
		} else {
			b, err = os.ReadFile(o.input)
		}
		if err != nil {
			return nil, fmt.Errorf("--input: %v", err)
		}
		if !json.Valid(b) {
			return nil, fmt.Errorf("--input %s: not valid JSON", o.input)
		}
		q.Input = bytes.TrimSpace(b)
	}
	if o.mode != "" {
		q.Mode = &o.mode
	}
	if o.timeout > 0 {
		ms := float64(o.timeout.Milliseconds())
		q.TimeoutMs = &ms
	}
	if o.deterministic {
		q.Deterministic = &o.deterministic
	}
	if o.record != "" {
		record := true
		q.Record = &record
	}
	return q, nil
}

// runCLI is `playground run`; it returns the exit status.
func runCLI(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer, getenv func(string) string) int {
	o, err := parseCLI(args, stderr, getenv)
	if errors.Is(err, flag.ErrHelp) {
		return exitOK
	}
	if err != nil {
		fmt.Fprintln(stderr, "playground run:", err)
		return exitUsage
	}
	q, err := o.request(stdin)
	if err != nil {
		fmt.Fprintln(stderr, "playground run:", err)
		return exitUsage
	}
	p := &printer{w: stdout, json: o.json, raw: o.raw, color: !o.noColor && isTerminal(stdout)}
	var done []byte // done's JSON, for --record
	p.onDone = func(b []byte) { done = append(done[:0], b...) }
	code := exitUnavailable
	if o.server != "" {
		code = runRemote(ctx, o, q, p, stderr)
	} else {
		code = runLocal(ctx, q, p, stderr)
	}
	if o.record != "" && done != nil {
		if err := saveTape(o.record, done); err != nil {
			fmt.Fprintln(stderr, "playground run:", err)
			if code == exitOK {
				code = exitUsage
			}
		}
	}
	return code
}

// runLocal runs q on a one-worker pool of this binary (the worker is this
// executable re-executed; worker.ServeIfWorker at the top of main serves it).
func runLocal(ctx context.Context, q *api.RunRequest, p *printer, stderr io.Writer) int {
	m, problem := api.ToRun(q)
	if problem != nil {
		fmt.Fprintf(stderr, "playground run: %s: %s\n", problem.Field, problem.Detail)
		return exitUsage
	}
	eng, pool, err := localEngine(stderr)
	if err != nil {
		fmt.Fprintln(stderr, "playground run:", err)
		return exitUnavailable
	}
	defer pool.Close()
	done := eng.Run(ctx, engine.Job{Run: m, Key: "cli", Session: "cli"}, func(v any) {
		b, _ := json.Marshal(v)
		p.print(b)
	})
	return exitCode(done.Outcome)
}

// runRemote posts q to the server and prints the NDJSON stream.
func runRemote(ctx context.Context, o *cliOptions, q *api.RunRequest, p *printer, stderr io.Writer) int {
	body, _ := json.Marshal(q)
	url := strings.TrimRight(o.server, "/") + "/api/v1/run"
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, bytes.NewReader(body))
	if err != nil {
		fmt.Fprintln(stderr, "playground run: --server:", err)
		return exitUsage
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/x-ndjson")
	if o.key != "" {
		req.Header.Set("Authorization", "Bearer "+o.key)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		if ctx.Err() != nil {
			return exitUnavailable
		}
		fmt.Fprintln(stderr, "playground run:", err)
		return exitUnavailable
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		var prob api.Problem
		b, _ := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
		if json.Unmarshal(b, &prob) != nil || prob.Detail == "" {
			prob.Detail = strings.TrimSpace(string(b))
		}
		where := ""
		if prob.Field != "" {
			where = prob.Field + ": "
		}
		fmt.Fprintf(stderr, "playground run: %s: %s%s\n", resp.Status, where, prob.Detail)
		switch resp.StatusCode {
		case http.StatusTooManyRequests, http.StatusServiceUnavailable:
			if ra := resp.Header.Get("Retry-After"); ra != "" {
				fmt.Fprintf(stderr, "playground run: retry after %s s\n", ra)
			}
			return exitRefused
		case http.StatusBadRequest, http.StatusUnauthorized, http.StatusRequestEntityTooLarge, http.StatusUnsupportedMediaType:
			return exitUsage
		}
		return exitUnavailable
	}
	sc := bufio.NewScanner(resp.Body)
	sc.Buffer(make([]byte, 64<<10), 64<<20)
	outcome := ""
	for sc.Scan() {
		line := sc.Bytes()
		if len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		if o := p.print(line); o != "" {
			outcome = o
		}
	}
	if outcome == "" {
		if ctx.Err() != nil {
			return exitUnavailable
		}
		fmt.Fprintln(stderr, "playground run: the stream ended before done:", sc.Err())
		return exitUnavailable
	}
	return exitCode(outcome)
}

func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

// printer shows a run's messages: as NDJSON with json, else one readable
// line each, colored when color is set.
type printer struct {
	w     io.Writer
	json  bool
	color bool
	raw   bool // print what the snippet wrote unescaped (--raw)
	// onDone, if set, is given done's JSON (for --record).
	onDone func([]byte)
}

// esc is s as printed: what a snippet controls (its logs, facts, calls,
// errors, output) has its control characters escaped unless --raw.
func (p *printer) esc(s string) string {
	if p.raw {
		return s
	}
	return escapeControls(s, false)
}

// escapeControls makes s safe to print on a terminal: every control
// character but newline and tab (C0 as \xHH, DEL, C1 such as the 8-bit
// CSI U+009B, and the bidirectional overrides that reorder what is shown
// as \uHHHH) is written as its escape, so that a snippet cannot send the
// terminal an escape sequence (OSC 52 writes the clipboard, CSI 2J clears
// the screen), move the cursor back over the lines printed for it (\r,
// CSI A) or make text read in another order. inJSON escapes only what
// JSON lets through raw (DEL, C1, the overrides; JSON already escapes
// C0), as \uHHHH, so that the NDJSON stays valid and means the same.
func escapeControls(s string, inJSON bool) string {
	i := strings.IndexFunc(s, func(r rune) bool { return needsEscape(r, inJSON) })
	if i < 0 {
		return s
	}
	var b strings.Builder
	b.WriteString(s[:i])
	for _, r := range s[i:] {
		switch {
		case !needsEscape(r, inJSON):
			b.WriteRune(r)
		case r < 0x80 && !inJSON:
			fmt.Fprintf(&b, "\\x%02x", r)
		default:
			fmt.Fprintf(&b, "\\u%04x", r)
		}
	}
	return b.String()
}

func needsEscape(r rune, inJSON bool) bool {
	switch {
	case r == '\n' || r == '\t':
		return false
	case r < 0x20:
		return !inJSON
	case r == 0x7f, r >= 0x80 && r <= 0x9f, r >= 0x202a && r <= 0x202e, r >= 0x2066 && r <= 0x2069, r == 0x200e, r == 0x200f, r == 0x061c:
		return true
	}
	return false
}

const (
	ansiReset  = "\x1b[0m"
	ansiDim    = "\x1b[2m"
	ansiRed    = "\x1b[31m"
	ansiYellow = "\x1b[33m"
	ansiGreen  = "\x1b[32m"
	ansiCyan   = "\x1b[36m"
	ansiBold   = "\x1b[1m"
)

func (p *printer) paint(code, s string) string {
	if !p.color {
		return s
	}
	return code + s + ansiReset
}

// print shows one message (its JSON) and returns done's outcome, or "".
func (p *printer) print(b []byte) string {
	var m struct {
		Type       string          `json:"type"`
		Position   int             `json:"position"`
		TimeoutMs  float64         `json:"timeoutMs"`
		Level      string          `json:"level"`
		Text       string          `json:"text"`
		Key        string          `json:"key"`
		Value      json.RawMessage `json:"value"`
		Deleted    bool            `json:"deleted"`
		Name       string          `json:"name"`
		Ms         float64         `json:"ms"`
		OK         *bool           `json:"ok"` // absent on the start event of an in-flight call
		Error      string          `json:"error"`
		Args       []json.RawMessage
		Result     json.RawMessage `json:"result"`
		Kind       string          `json:"kind"`
		Message    string          `json:"message"`
		Stack      string          `json:"stack"`
		File       string          `json:"file"`
		Line       int             `json:"line"`
		Column     int             `json:"column"`
		Outcome    string          `json:"outcome"`
		DurationMs float64         `json:"durationMs"`
		Output     json.RawMessage `json:"output"`
	}
	if err := json.Unmarshal(b, &m); err != nil {
		fmt.Fprintf(p.w, "? %s\n", p.esc(string(b)))
		return ""
	}
	if m.Type == ws.TypeDone && p.onDone != nil {
		p.onDone(b)
	}
	if p.json {
		if !p.raw {
			b = []byte(escapeControls(string(b), true))
		}
		fmt.Fprintf(p.w, "%s\n", b)
		if m.Type == ws.TypeDone {
			return m.Outcome
		}
		return ""
	}
	switch m.Type {
	case ws.TypeQueued:
		fmt.Fprintln(p.w, p.paint(ansiDim, fmt.Sprintf("queued: position %d", m.Position)))
	case ws.TypeStarted:
	case ws.TypeLog:
		text := p.esc(m.Text)
		switch m.Level {
		case "error":
			text = p.paint(ansiRed, text)
		case "warn":
			text = p.paint(ansiYellow, text)
		case "debug":
			text = p.paint(ansiDim, text)
		}
		fmt.Fprintln(p.w, text)
	case ws.TypeFact:
		if m.Deleted {
			fmt.Fprintln(p.w, p.paint(ansiCyan, fmt.Sprintf("fact %s deleted", p.esc(m.Key))))
		} else {
			fmt.Fprintln(p.w, p.paint(ansiCyan, fmt.Sprintf("fact %s = %s", p.esc(m.Key), p.esc(string(m.Value)))))
		}
	case ws.TypeCall:
		args := make([]string, len(m.Args))
		for i, a := range m.Args {
			args[i] = p.esc(string(a))
		}
		if m.OK == nil {
			fmt.Fprintln(p.w, p.paint(ansiDim, fmt.Sprintf("call host.%s(%s) …", p.esc(m.Name), strings.Join(args, ", "))))
			break
		}
		res := p.esc(string(m.Result))
		if !*m.OK {
			res = "error: " + p.esc(m.Error)
		}
		fmt.Fprintln(p.w, p.paint(ansiDim, fmt.Sprintf("call host.%s(%s) → %s (%.1f ms)", p.esc(m.Name), strings.Join(args, ", "), res, m.Ms)))
	case ws.TypeError:
		loc := ""
		if m.File != "" {
			loc = fmt.Sprintf(" %s:%d:%d", p.esc(m.File), m.Line, m.Column)
		}
		fmt.Fprintln(p.w, p.paint(ansiRed+ansiBold, p.esc(m.Kind)+loc+": ")+p.paint(ansiRed, p.esc(m.Message)))
		if m.Stack != "" {
			fmt.Fprintln(p.w, p.paint(ansiDim, p.esc(m.Stack)))
		}
	case ws.TypeDone:
		if len(m.Output) > 0 && string(m.Output) != "null" {
			fmt.Fprintf(p.w, "output: %s\n", p.esc(string(m.Output)))
		}
		color := ansiGreen
		if m.Outcome != ws.OutcomeOK {
			color = ansiRed
		}
		fmt.Fprintln(p.w, p.paint(color, fmt.Sprintf("%s in %.1f ms", m.Outcome, m.DurationMs)))
		return m.Outcome
	}
	return ""
}
