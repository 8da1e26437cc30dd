package api

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"time"
)

// Limits of the calls /mcp takes. One POST may hold a JSON-RPC batch; each
// call in it costs the server like a request of its own (one 1 MB POST of
// 20,000 tools/list calls was a 123 MB answer and 11 s of CPU), so a batch
// holds at most MaxBatchCalls calls, and every call (each call of a batch,
// whatever its method) takes a token of the client's call limit
// (Config.Calls), besides run_in_sandbox's token of the run limit.
const (
	MaxBatchCalls = 16
	// DefaultCallsPerSecond and DefaultCallBurst are the call limit's
	// defaults (-mcp-rate, -mcp-burst): far above what an agent needs (a
	// session's initialize, initialized, tools/list and a call or two per
	// turn), far below a flood.
	DefaultCallsPerSecond = 10
	DefaultCallBurst      = 40
)

// mcpCalls counts the JSON-RPC calls of an MCP POST before the SDK sees it,
// refusing a batch over MaxBatchCalls (413) and calls past the client's
// call limit (429 with Retry-After), each with a problem body. The body,
// read here within the SDK's size cap, is handed on as it came; one that
// is not JSON counts as one call (the SDK answers it).
func (h *Handler) mcpCalls(next http.Handler, maxBody int64) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost {
			next.ServeHTTP(w, r)
			return
		}
		body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, maxBody))
		var tooLarge *http.MaxBytesError
		switch {
		case errors.As(err, &tooLarge):
			writeProblem(w, Problem{Type: "urn:playground:problem:body-too-large", Status: http.StatusRequestEntityTooLarge,
				Detail: fmt.Sprintf("the body passes %d bytes, the limit", maxBody)})
			return
		case err != nil:
			writeProblem(w, invalid("body", "reading the body: "+err.Error()))
			return
		}
		n := countCalls(body)
		if n > MaxBatchCalls {
			writeProblem(w, Problem{Type: "urn:playground:problem:batch-too-large", Status: http.StatusRequestEntityTooLarge,
				Detail: fmt.Sprintf("a JSON-RPC batch may hold at most %d calls; this one holds %d (send them in several requests)", MaxBatchCalls, n)})
			return
		}
		if h.cfg.Calls != nil {
			key := r.Header.Get(clientKeyHeader)
			for range n {
				if ok, after := h.cfg.Calls.Allow(key); !ok {
					writeProblem(w, retryProblem(http.StatusTooManyRequests, "rate-limited", "",
						"too many MCP calls from this client (each call of a batch counts, whatever its method)", max(after, time.Millisecond)))
					return
				}
			}
		}
		r.Body = io.NopCloser(bytes.NewReader(body))
		r.ContentLength = int64(len(body))
		next.ServeHTTP(w, r)
	})
}

// countCalls is the number of JSON-RPC messages in body: a batch's
// length, or 1.
func countCalls(body []byte) int {
	body = bytes.TrimLeft(body, " \t\r\n")
	if len(body) == 0 || body[0] != '[' {
		return 1
	}
	var batch []json.RawMessage
	if err := json.Unmarshal(body, &batch); err != nil {
		return 1 // the SDK answers the parse error
	}
	return max(len(batch), 1)
}
