package api_test

import (
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/playground-dev/playground/web/api"
)

// countLimiter allows n calls in all, then refuses, counting what it saw.
type countLimiter struct {
	mu    sync.Mutex
	n     int
	calls int
}

func (l *countLimiter) Allow(string) (bool, time.Duration) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.calls++
	if l.calls > l.n {
		return false, 1500 * time.Millisecond
	}
	return true, 0
}

func toolsListBatch(n int) string {
	calls := make([]string, n)
	for i := range calls {
		calls[i] = fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/list"}`, i+1)
	}
	return "[" + strings.Join(calls, ",") + "]"
}

func mcpPost(t *testing.T, url, body string) *http.Response {
	t.Helper()
	return post(t, url+"/mcp", body, "Accept", "application/json, text/event-stream", "Mcp-Protocol-Version", "2025-03-26")
}

// TestMCPBatchCapped: a JSON-RPC batch of more than MaxBatchCalls calls is
// refused with 413 and a problem naming the cap, before any call is
// served; a batch at the cap is answered (one answer per call).
func TestMCPBatchCapped(t *testing.T) {
	srv := newServer(t, newFake("ok"), &keyLimiter{}, nil)
	resp := mcpPost(t, srv.URL, toolsListBatch(api.MaxBatchCalls+1))
	p := decode[api.Problem](t, resp.Body)
	if resp.StatusCode != http.StatusRequestEntityTooLarge || p.Type != "urn:playground:problem:batch-too-large" || !strings.Contains(p.Detail, fmt.Sprint(api.MaxBatchCalls)) {
		t.Errorf("a batch of %d: %d %+v; want 413 batch-too-large naming the cap", api.MaxBatchCalls+1, resp.StatusCode, p)
	}
	resp = mcpPost(t, srv.URL, toolsListBatch(api.MaxBatchCalls))
	body := readAll(t, resp)
	if resp.StatusCode != http.StatusOK || strings.Count(body, `"tools":[`) != api.MaxBatchCalls {
		t.Errorf("a batch of %d: %d, %d tool lists; want 200 with one per call", api.MaxBatchCalls, resp.StatusCode, strings.Count(body, `"tools":[`))
	}
}

// TestMCPEveryCallIsLimited: every call takes a token of the client's call
// limit, whatever its method, each call of a batch counted: a batch
// needing more tokens than are left is refused with 429 and Retry-After.
func TestMCPEveryCallIsLimited(t *testing.T) {
	lim := &countLimiter{n: 5}
	srv := newServer(t, newFake("ok"), &keyLimiter{}, func(c *api.Config) { c.Calls = lim })
	resp := mcpPost(t, srv.URL, toolsListBatch(4))
	readAll(t, resp)
	if resp.StatusCode != http.StatusOK || lim.calls != 4 {
		t.Fatalf("a batch of 4 with 5 tokens: %d after %d tokens; want 200 after 4", resp.StatusCode, lim.calls)
	}
	resp = mcpPost(t, srv.URL, toolsListBatch(2))
	p := decode[api.Problem](t, resp.Body)
	if resp.StatusCode != http.StatusTooManyRequests || resp.Header.Get("Retry-After") != "2" || p.Type != "urn:playground:problem:rate-limited" {
		t.Errorf("a batch of 2 with 1 token left: %d Retry-After %q %+v; want 429 rate-limited, Retry-After 2", resp.StatusCode, resp.Header.Get("Retry-After"), p)
	}
	resp = mcpPost(t, srv.URL, `{"jsonrpc":"2.0","id":1,"method":"ping"}`)
	readAll(t, resp)
	if resp.StatusCode != http.StatusTooManyRequests {
		t.Errorf("a ping with no token left: %d; want 429 (every method is limited)", resp.StatusCode)
	}
}

func readAll(t *testing.T, resp *http.Response) string {
	t.Helper()
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
