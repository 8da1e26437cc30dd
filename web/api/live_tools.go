package api

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/playground-dev/playground/runs"
	"github.com/playground-dev/playground/ws"
)

// WaitToolInput is wait_run's input: the run, its token, the cursor and how
// long to wait.
type WaitToolInput struct {
	ID          string  `json:"id" jsonschema:"the run's id, as start_run returned it"`
	Watch       string  `json:"watch" jsonschema:"the run's watch token, as start_run returned it"`
	After       uint64  `json:"after,omitempty" jsonschema:"the cursor: the seq of the last message already read (0 for the start)"`
	WaitSeconds float64 `json:"waitSeconds,omitempty" jsonschema:"how long to wait server-side for the run to end, in seconds (default 30, at most 60); the answer comes earlier when the run ends"`
}

// WaitToolOutput is wait_run's structured content.
type WaitToolOutput struct {
	// Messages are the run's protocol messages with seq > after, in order
	// (docs/protocol.md): started, log, fact, call, error, done.
	Messages []json.RawMessage `json:"messages"`
	// Cursor is the seq of the last message returned (after, when none
	// came): the next call's after.
	Cursor uint64 `json:"cursor"`
	// Done says the run has ended: the last message is its done.
	Done bool `json:"done"`
	// Outcome is done.outcome once Done.
	Outcome string `json:"outcome,omitempty"`
}

// Bounds of one wait_run answer: it returns early past these.
const (
	waitMaxMessages = 2000
	waitMaxBytes    = 2 << 20
	waitDefault     = 30 * time.Second
)

func (h *Handler) addLiveTools(s *mcp.Server) {
	mcp.AddTool(s, &mcp.Tool{
		Name:  ToolStart,
		Title: "Start a JavaScript/TypeScript run without waiting for it",
		Description: "Starts the same run as " + ToolRun + " (same input) and answers at once with its id and watch token. " +
			"Then call " + ToolWait + " with them: it waits server-side (up to 60 s per call) and returns the run's messages after a cursor, " +
			"so a long run takes one call per wait, never a polling loop. The run goes on to its own time limit.",
		InputSchema:  schemaFor[RunToolInput](),
		OutputSchema: schemaFor[Started](),
		Annotations:  &mcp.ToolAnnotations{ReadOnlyHint: false, OpenWorldHint: ptr(false), IdempotentHint: false, DestructiveHint: ptr(false)},
	}, h.startTool)
	mcp.AddTool(s, &mcp.Tool{
		Name:  ToolWait,
		Title: "Wait for a started run's messages",
		Description: "Waits server-side until the run started by " + ToolStart + " ends or waitSeconds pass (default 30, at most 60), " +
			"then returns its protocol messages with seq greater than after (the cursor), the new cursor, and whether it is done (the last message is then its done, with the outcome and output). " +
			"Call again with after = cursor until done.",
		InputSchema:  schemaFor[WaitToolInput](),
		OutputSchema: schemaFor[WaitToolOutput](),
		Annotations:  &mcp.ToolAnnotations{ReadOnlyHint: true, OpenWorldHint: ptr(false)},
	}, h.waitTool)
}

func (h *Handler) startTool(ctx context.Context, req *mcp.CallToolRequest, in RunToolInput) (*mcp.CallToolResult, Started, error) {
	_, job, _, err := h.toolJob(in, req)
	if err != nil {
		return nil, Started{}, err
	}
	st := h.startDetached(job)
	text := fmt.Sprintf("started run %s; call %s with id %q, watch %q and after 0 to wait for its messages", st.ID, ToolWait, st.ID, st.Watch)
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: text}}}, st, nil
}

func (h *Handler) waitTool(ctx context.Context, req *mcp.CallToolRequest, in WaitToolInput) (*mcp.CallToolResult, WaitToolOutput, error) {
	var zero WaitToolOutput
	wait := waitDefault
	if in.WaitSeconds < 0 || in.WaitSeconds > maxWaitSeconds {
		return nil, zero, fmt.Errorf("waitSeconds: must be between 0 and %d, not %g", maxWaitSeconds, in.WaitSeconds)
	} else if in.WaitSeconds > 0 {
		wait = time.Duration(in.WaitSeconds * float64(time.Second))
	}
	if req.Extra != nil && req.Extra.Header != nil {
		if v, ok := h.requests.Load(req.Extra.Header.Get(requestHeader)); ok {
			var stop context.CancelFunc
			ctx, stop = context.WithCancel(ctx)
			defer stop()
			defer context.AfterFunc(v.(context.Context), stop)()
		}
	}
	ctx, cancel := context.WithTimeout(ctx, wait)
	defer cancel()
	w, err := h.cfg.Engine.Hub.Watch(ctx, in.ID, in.Watch, in.After)
	if err != nil {
		if errors.Is(err, runs.ErrNotFound) {
			return nil, zero, errors.New("no such run, or the watch token is wrong or expired")
		}
		return nil, zero, err
	}
	defer w.Close()
	out := WaitToolOutput{Messages: []json.RawMessage{}, Cursor: in.After}
	size := 0
	var texts []string
	for len(out.Messages) < waitMaxMessages && size < waitMaxBytes {
		items, err := w.Next(ctx)
		for _, it := range items {
			b, merr := it.Bytes()
			if merr != nil {
				continue
			}
			out.Messages = append(out.Messages, b)
			out.Cursor = it.Seq
			size += len(b)
			switch it.Type {
			case ws.TypeLog, ws.TypeError:
				var m struct {
					Text, Message, Kind string
				}
				_ = json.Unmarshal(b, &m)
				if it.Type == ws.TypeLog {
					texts = append(texts, cut(m.Text, 500))
				} else {
					texts = append(texts, m.Kind+": "+cut(m.Message, 1000))
				}
			case ws.TypeDone:
				var d struct {
					Outcome string          `json:"outcome"`
					Output  json.RawMessage `json:"output"`
				}
				_ = json.Unmarshal(b, &d)
				out.Done, out.Outcome = true, d.Outcome
				if len(d.Output) > 0 {
					texts = append(texts, "output: "+cut(string(d.Output), 2000))
				}
			}
		}
		if err != nil {
			if !errors.Is(err, io.EOF) && ctx.Err() == nil {
				return nil, zero, err // dropped
			}
			break
		}
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%d messages after seq %d; cursor %d; ", len(out.Messages), in.After, out.Cursor)
	if out.Done {
		fmt.Fprintf(&b, "done, outcome %s\n", out.Outcome)
	} else {
		fmt.Fprintf(&b, "still running: call %s again with after %d\n", ToolWait, out.Cursor)
	}
	for i, t := range texts {
		if i == 50 {
			fmt.Fprintf(&b, "… %d more lines\n", len(texts)-50)
			break
		}
		b.WriteString(t + "\n")
	}
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: strings.TrimRight(b.String(), "\n")}}}, out, nil
}
