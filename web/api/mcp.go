package api

import (
	"bytes"
	"compress/flate"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"reflect"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/playground-dev/playground/engine"
	"github.com/playground-dev/playground/ws"
)

// MCP tool names.
const (
	ToolRun     = "run_in_sandbox"
	ToolModules = "list_modules"
	ToolStart   = "start_run" // starts a run without waiting (live_tools.go)
	ToolWait    = "wait_run"  // waits server-side for a started run's messages
)

// pageURLHeader carries the page URL from the auth middleware to the MCP
// tool handlers, like clientKeyHeader; requestHeader carries the id under
// which the HTTP request's context is registered (the SDK runs handlers on
// a context detached from the request, so a client that hangs up would
// not cancel the run otherwise).
const (
	pageURLHeader = "Playground-Internal-Page-Url"
	requestHeader = "Playground-Internal-Request"
)

// RunToolInput is the run_in_sandbox tool's input: files (or one code
// string), the input JSON and the run options of POST /api/v1/run.
type RunToolInput struct {
	Files         []ws.File `json:"files,omitempty" jsonschema:"the run's files, each {path, source}; paths are relative with extension .ts .tsx .js .jsx .mjs or .json; give files or code"`
	Code          string    `json:"code,omitempty" jsonschema:"one source string, a shorthand for a single entry file (main.ts, or main.js in script mode)"`
	Entry         string    `json:"entry,omitempty" jsonschema:"the entry file's path; default src/main.ts, main.ts, index.ts, src/index.ts, main.js, index.js, else the only file"`
	Input         any       `json:"input,omitempty" jsonschema:"any JSON, readable in the snippet as input (import { input } from \"playground\")"`
	TimeoutMs     float64   `json:"timeoutMs,omitempty" jsonschema:"time limit in milliseconds, clamped into the server's range"`
	Deterministic bool      `json:"deterministic,omitempty" jsonschema:"seed Math.random and give Date a virtual clock"`
	Mode          string    `json:"mode,omitempty" jsonschema:"module (ES modules, the default) or script (globals input and output, require, top-level return)"`
	Record        bool      `json:"record,omitempty" jsonschema:"also return the run's tape (tape): its files, host calls and messages, which POST /api/v1/replay re-runs; replayable when deterministic"`
}

// RunToolOutput is run_in_sandbox's structured content: the run's Result
// and ShareURL, which opens the same files in the playground page.
type RunToolOutput struct {
	Result
	ShareURL string `json:"shareUrl,omitempty"`
}

// ModulesOutput is list_modules' structured content.
type ModulesOutput struct {
	Modules []string  `json:"modules"` // importable bare module names besides "playground"
	Host    []string  `json:"host"`    // host functions, called as host.<name>(…)
	Limits  ws.Limits `json:"limits"`
}

func schemaFor[T any]() *jsonschema.Schema {
	s, err := jsonschema.For[T](&jsonschema.ForOptions{TypeSchemas: map[reflect.Type]*jsonschema.Schema{
		reflect.TypeFor[json.RawMessage](): {Description: "any JSON value"}, // {} would marshal as true, which some clients reject
		reflect.TypeFor[any]():             {Description: "any JSON value"},
	}})
	if err != nil {
		panic(err) // the types above are fixed; a failure is a programming error
	}
	return s
}

// mcpServer builds the MCP server with its two tools.
func (h *Handler) mcpServer() *mcp.Server {
	s := mcp.NewServer(&mcp.Implementation{Name: "playground", Title: "JavaScript/TypeScript playground", Version: h.cfg.Version}, &mcp.ServerOptions{
		Instructions: "Runs JavaScript/TypeScript snippets in a sandbox and returns their console output, facts, output value and errors.",
		Logger:       slog.New(quiet{h.cfg.Log.Handler()}),
	})
	mcp.AddTool(s, &mcp.Tool{
		Name:         ToolRun,
		Title:        "Run JavaScript/TypeScript in the sandbox",
		Description:  h.runToolDescription(),
		InputSchema:  schemaFor[RunToolInput](),
		OutputSchema: schemaFor[RunToolOutput](),
		Annotations:  &mcp.ToolAnnotations{ReadOnlyHint: false, OpenWorldHint: ptr(false), IdempotentHint: false, DestructiveHint: ptr(false)},
	}, h.runTool)
	if h.cfg.Engine.Hub != nil {
		h.addLiveTools(s)
	}
	mcp.AddTool(s, &mcp.Tool{
		Name:         ToolModules,
		Title:        "List importable modules and host functions",
		Description:  "Lists the bare modules a snippet may import, the host functions it may call as host.<name>(), and every limit a run is held to.",
		InputSchema:  &jsonschema.Schema{Type: "object"},
		OutputSchema: schemaFor[ModulesOutput](),
		Annotations:  &mcp.ToolAnnotations{ReadOnlyHint: true, OpenWorldHint: ptr(false)},
	}, func(ctx context.Context, req *mcp.CallToolRequest, _ any) (*mcp.CallToolResult, ModulesOutput, error) {
		out := ModulesOutput{Modules: orEmpty(h.cfg.Modules), Host: orEmpty(h.cfg.Host), Limits: h.cfg.Engine.Limits}
		text := fmt.Sprintf("modules: %s\nhost functions: %s", list(out.Modules), list(out.Host))
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: text}}}, out, nil
	})
	return s
}

func ptr[T any](v T) *T { return &v }

func orEmpty(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

func list(s []string) string {
	if len(s) == 0 {
		return "(none)"
	}
	return strings.Join(s, ", ")
}

func (h *Handler) runToolDescription() string {
	l := h.cfg.Engine.Limits
	var b strings.Builder
	b.WriteString("Runs JavaScript or TypeScript in an isolated sandbox (goja, bundled by esbuild) and returns the transcript: console logs, facts, host calls, errors with file/line/column, the output value and the outcome (ok, error, timeout, memory_limit, output_limit, rate_limited, busy, invalid), plus a shareUrl that opens the same files in the playground page.\n\n")
	b.WriteString("Module mode (default): ES modules; `import { input, facts, host } from \"playground\"`; the entry module's default export (awaited) is the output. ")
	b.WriteString("Script mode (mode: \"script\"): globals `input` and `output`, `require()` of allowed modules, top-level `return`.\n\n")
	fmt.Fprintf(&b, "Limits: time %g ms by default (%g–%g ms), memory %d MiB, %d files, %d bytes of source, %d bytes of console output, %d events, %d host calls per run; %g runs per second per client (bursts of %d).\n",
		l.TimeoutMs.Default, l.TimeoutMs.Min, l.TimeoutMs.Max, l.MemoryBytes>>20, l.MaxFiles, l.MaxSourceBytes, l.MaxOutputBytes, l.MaxEvents, l.MaxHostCalls, l.RunsPerSecond, l.RunBurst)
	fmt.Fprintf(&b, "Importable modules: playground, %s. No network, no file system, no other imports.\n", list(h.cfg.Modules))
	fmt.Fprintf(&b, "Host functions (await host.<name>(...)): %s.", list(h.cfg.Host))
	return b.String()
}

func (h *Handler) runTool(ctx context.Context, req *mcp.CallToolRequest, in RunToolInput) (*mcp.CallToolResult, RunToolOutput, error) {
	var zero RunToolOutput
	m, job, page, err := h.toolJob(in, req)
	if err != nil {
		return nil, zero, err
	}
	if req.Extra != nil && req.Extra.Header != nil {
		if v, ok := h.requests.Load(req.Extra.Header.Get(requestHeader)); ok {
			var stop context.CancelFunc
			ctx, stop = context.WithCancel(ctx)
			defer stop()
			defer context.AfterFunc(v.(context.Context), stop)()
		}
	}
	if req.Extra != nil { // the run's span's parent: _meta.traceparent, else the HTTP request's
		ctx = h.cfg.Engine.Trace.Extract(ctx, req.Extra.Header)
	}
	if req.Params != nil {
		ctx = h.cfg.Engine.Trace.ExtractMeta(ctx, req.Params.Meta)
	}
	defer h.active()()
	rctx, cancel := h.runContext(ctx)
	defer cancel()
	c := newCollector(m.ID)
	h.cfg.Engine.Execute(rctx, job, c.add)
	out := RunToolOutput{Result: c.r, ShareURL: ShareURL(page, engine.Entry(m), m.Files)}
	res := &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: Summary(out.Result, out.ShareURL)}}}
	res.IsError = !out.Success
	return res, out, nil
}

// toolJob checks a run tool's input and admits it (limits, rate limit), like
// POST /api/v1/run; the error is the tool's answer.
func (h *Handler) toolJob(in RunToolInput, req *mcp.CallToolRequest) (m *ws.Run, job engine.Job, page string, err error) {
	q := RunRequest{Entry: nonEmpty(in.Entry), Mode: nonEmpty(in.Mode)}
	if in.Files != nil {
		q.Files = in.Files
	}
	if in.Code != "" {
		q.Code = &in.Code
	}
	if in.Input != nil {
		b, err := json.Marshal(in.Input)
		if err != nil {
			return nil, job, "", fmt.Errorf("input: %v", err)
		}
		q.Input = b
	}
	if in.TimeoutMs != 0 {
		q.TimeoutMs = &in.TimeoutMs
	}
	if in.Deterministic {
		q.Deterministic = &in.Deterministic
	}
	if in.Record {
		q.Record = &in.Record
	}
	m, p := q.toRun(false)
	if p != nil {
		return nil, job, "", fmt.Errorf("invalid run: %s: %s", p.Field, p.Detail)
	}
	key := ""
	if req.Extra != nil && req.Extra.Header != nil {
		key, page = req.Extra.Header.Get(clientKeyHeader), req.Extra.Header.Get(pageURLHeader)
	}
	if key == "" {
		return nil, job, "", errors.New("internal error: no client key")
	}
	job = engine.Job{Run: m, Key: key, Session: engine.StatelessSession("mcp")}
	h.cfg.Engine.Metrics.Runs.Add(1)
	if ref := h.cfg.Engine.Admit(job); ref != nil {
		switch ref.Outcome {
		case ws.OutcomeRateLimited:
			return nil, job, "", fmt.Errorf("rate limited: retry after %d ms", ref.RetryAfter.Milliseconds())
		case ws.OutcomeBusy:
			return nil, job, "", fmt.Errorf("busy: %s; retry after %d ms", ref.Reason, ref.RetryAfter.Milliseconds())
		}
		return nil, job, "", fmt.Errorf("invalid run: %s: %s", ref.Field, ref.Reason)
	}
	return m, job, page, nil
}

func nonEmpty(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

// maxShareURL is the longest share link produced; past it ShareURL returns "".
const maxShareURL = 256 << 10

// ShareURL returns the link that opens files in the playground page at
// page (absolute URL of "/"): page + "#code=" + base64url(deflate-raw(JSON
// {entry, files})), the format static/app.js reads. "" when page is empty
// or the link would exceed 256 KiB.
func ShareURL(page, entry string, files []ws.File) string {
	if page == "" {
		return ""
	}
	j, err := json.Marshal(struct {
		Entry string    `json:"entry"`
		Files []ws.File `json:"files"`
	}{entry, files})
	if err != nil {
		return ""
	}
	var buf bytes.Buffer
	fw, _ := flate.NewWriter(&buf, flate.BestCompression)
	fw.Write(j)
	fw.Close()
	u := page + "#code=" + base64.RawURLEncoding.EncodeToString(buf.Bytes())
	if len(u) > maxShareURL {
		return ""
	}
	return u
}

// Summary is the short text an AI client reads: the outcome, then the
// console lines, errors and output, each cut to a readable size.
func Summary(r Result, shareURL string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "outcome: %s (%.1f ms)\n", r.Outcome, r.DurationMs)
	const maxLines = 50
	if len(r.Logs) > 0 {
		b.WriteString("console:\n")
		for i, l := range r.Logs {
			if i == maxLines {
				fmt.Fprintf(&b, "  … %d more lines\n", len(r.Logs)-maxLines)
				break
			}
			fmt.Fprintf(&b, "  [%s] %s\n", l.Level, cut(l.Text, 500))
		}
	}
	for _, e := range r.Errors {
		loc := ""
		if e.File != "" {
			loc = fmt.Sprintf(" at %s:%d:%d", e.File, e.Line, e.Column)
		}
		fmt.Fprintf(&b, "%s%s: %s\n", e.Kind, loc, cut(e.Message, 1000))
	}
	if len(r.Output) > 0 && string(r.Output) != "null" {
		fmt.Fprintf(&b, "output: %s\n", cut(string(r.Output), 2000))
	}
	if len(r.Facts) > 0 {
		f, _ := json.Marshal(r.Facts)
		fmt.Fprintf(&b, "facts: %s\n", cut(string(f), 2000))
	}
	if shareURL != "" && len(shareURL) < 8<<10 {
		fmt.Fprintf(&b, "open in the playground: %s\n", shareURL)
	}
	return strings.TrimRight(b.String(), "\n")
}

func cut(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}

// mcpHandler is the Streamable HTTP transport. It is stateless: every
// request stands alone, so nothing is kept between calls.
func (h *Handler) mcpHandler() http.Handler {
	s := h.mcpServer()
	maxBody := max(h.cfg.Engine.Limits.MaxMessageBytes+h.cfg.Engine.Limits.MaxInputBytes, 1<<20)
	mh := h.mcpCalls(mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s }, &mcp.StreamableHTTPOptions{
		Stateless:           true,
		Logger:              slog.New(quiet{h.cfg.Log.Handler()}),
		MaxRequestBodyBytes: maxBody,
	}), maxBody)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		r.Header.Set(pageURLHeader, h.pageURL(r))
		id := newID("")
		h.requests.Store(id, r.Context())
		defer h.requests.Delete(id)
		r.Header.Set(requestHeader, id)
		mh.ServeHTTP(w, r)
	})
}

// pageURL is the playground page's URL as this request reached it.
func (h *Handler) pageURL(r *http.Request) string {
	if h.cfg.PageURL != "" {
		return h.cfg.PageURL
	}
	scheme := "http"
	if r.TLS != nil {
		scheme = "https"
	}
	if r.Host == "" {
		return ""
	}
	return scheme + "://" + r.Host + "/"
}

// quiet passes on only warnings and errors: the SDK logs every stateless
// request's session at info level.
type quiet struct{ slog.Handler }

func (q quiet) Enabled(ctx context.Context, l slog.Level) bool {
	return l >= slog.LevelWarn && q.Handler.Enabled(ctx, l)
}

func (q quiet) WithAttrs(a []slog.Attr) slog.Handler { return quiet{q.Handler.WithAttrs(a)} }
func (q quiet) WithGroup(n string) slog.Handler      { return quiet{q.Handler.WithGroup(n)} }
