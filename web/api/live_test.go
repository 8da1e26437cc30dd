package api_test

import (
	"bufio"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/playground-dev/playground/runs"
	"github.com/playground-dev/playground/web/api"
	"github.com/playground-dev/playground/ws"
)

// liveServer is newServer with a hub, which it returns too.
func liveServer(t *testing.T, f *fakeRunner) (*httptest.Server, *runs.Hub) {
	t.Helper()
	hub := runs.New(runs.Config{})
	t.Cleanup(hub.Close)
	srv := newServer(t, f, &keyLimiter{}, func(c *api.Config) { c.Engine.Hub = hub })
	return srv, hub
}

type line struct {
	Type    string `json:"type"`
	ID      string `json:"id"`
	Seq     uint64 `json:"seq"`
	Watch   string `json:"watch"`
	Outcome string `json:"outcome"`
	Reason  string `json:"reason"`
}

func ndjson(t *testing.T, r io.Reader) []line {
	t.Helper()
	var out []line
	sc := bufio.NewScanner(r)
	for sc.Scan() {
		var l line
		if err := json.Unmarshal(sc.Bytes(), &l); err != nil {
			t.Fatalf("%q: %v", sc.Text(), err)
		}
		out = append(out, l)
	}
	return out
}

// TestWaitFalseThenEvents: wait false answers 202 with the id, token and
// events URL; the events stream the run from its start to its done.
func TestWaitFalseThenEvents(t *testing.T) {
	srv, _ := liveServer(t, newFake("ok"))
	resp := post(t, srv.URL+"/api/v1/run", `{"id":"a1","code":"1","wait":false}`)
	if resp.StatusCode != http.StatusAccepted {
		b, _ := io.ReadAll(resp.Body)
		t.Fatalf("status %d: %s; want 202", resp.StatusCode, b)
	}
	st := decode[api.Started](t, resp.Body)
	if st.ID != "a1" || len(st.Watch) != 22 || st.EventsURL != "/api/v1/runs/a1/events" || resp.Header.Get("Location") != st.EventsURL {
		t.Fatalf("202 body %+v, Location %q", st, resp.Header.Get("Location"))
	}
	ev := get(t, srv.URL+st.EventsURL, "Authorization", "Bearer "+st.Watch)
	if ev.StatusCode != 200 || ev.Header.Get("Content-Type") != "application/x-ndjson" {
		t.Fatalf("events: %d %s", ev.StatusCode, ev.Header.Get("Content-Type"))
	}
	lines := ndjson(t, ev.Body)
	for i, l := range lines {
		if l.Seq != uint64(i+1) || l.ID != "a1" {
			t.Fatalf("line %d: %+v; want seq %d of a1", i, l, i+1)
		}
	}
	if len(lines) < 3 || lines[1].Type != ws.TypeStarted || lines[1].Watch != st.Watch || lines[len(lines)-1].Type != ws.TypeDone || lines[len(lines)-1].Outcome != "ok" {
		t.Fatalf("lines %+v; want queued, started (with the token) … done ok", lines)
	}
	// From a cursor, as server-sent events, Last-Event-ID winning over after.
	ev = get(t, srv.URL+st.EventsURL+"?after=1", "Authorization", "Bearer "+st.Watch, "Accept", "text/event-stream", "Last-Event-ID", "3")
	b, _ := io.ReadAll(ev.Body)
	if ev.Header.Get("Content-Type") != "text/event-stream" || !strings.HasPrefix(string(b), "event: fact\nid: 4\ndata: {") || !strings.Contains(string(b), "event: done\nid: ") {
		t.Fatalf("SSE from 3: %q", b)
	}
}

// TestEventsNotFoundSaysNothing: a wrong token, a token of another run, no
// token and an unknown id get the same 404.
func TestEventsNotFoundSaysNothing(t *testing.T) {
	srv, _ := liveServer(t, newFake("ok"))
	st := decode[api.Started](t, post(t, srv.URL+"/api/v1/run", `{"id":"a1","code":"1","wait":false}`).Body)
	other := decode[api.Started](t, post(t, srv.URL+"/api/v1/run", `{"id":"a2","code":"1","wait":false}`).Body)
	var bodies []string
	for _, c := range []struct{ path, auth string }{
		{"/api/v1/runs/a1/events", "Bearer AAAAAAAAAAAAAAAAAAAAAA"},
		{"/api/v1/runs/a1/events", "Bearer " + other.Watch},
		{"/api/v1/runs/a1/events", ""},
		{"/api/v1/runs/zz/events", "Bearer " + st.Watch},
		{"/api/v1/runs/a1/tape", "Bearer AAAAAAAAAAAAAAAAAAAAAA"},
	} {
		resp := get(t, srv.URL+c.path, "Authorization", c.auth)
		b, _ := io.ReadAll(resp.Body)
		if resp.StatusCode != 404 {
			t.Fatalf("%s with %q: %d; want 404", c.path, c.auth, resp.StatusCode)
		}
		bodies = append(bodies, string(b))
	}
	for _, b := range bodies[1:] {
		if b != bodies[0] {
			t.Fatalf("404 bodies differ: %q and %q", bodies[0], b)
		}
	}
}

// TestEventsWaitEndsALongPoll: ?wait ends the answer while the run goes on;
// the next call from the cursor gets the rest.
func TestEventsWaitEndsALongPoll(t *testing.T) {
	f := newFake("block")
	srv, _ := liveServer(t, f)
	st := decode[api.Started](t, post(t, srv.URL+"/api/v1/run", `{"id":"b1","code":"1","wait":false}`).Body)
	lines := ndjson(t, get(t, srv.URL+st.EventsURL+"?wait=0.2", "Authorization", "Bearer "+st.Watch).Body)
	if len(lines) != 1 || lines[0].Type != ws.TypeStarted {
		t.Fatalf("long poll: %+v; want started alone (the run blocks)", lines)
	}
	resp := get(t, srv.URL+st.EventsURL+"?wait=abc", "Authorization", "Bearer "+st.Watch)
	if resp.StatusCode != 400 {
		t.Fatalf("wait=abc: %d; want 400", resp.StatusCode)
	}
	resp = get(t, srv.URL+st.EventsURL+"?after=-1", "Authorization", "Bearer "+st.Watch)
	if resp.StatusCode != 400 {
		t.Fatalf("after=-1: %d; want 400", resp.StatusCode)
	}
}

func TestTapeEndpoint(t *testing.T) {
	srv, hub := liveServer(t, newFake("ok"))
	st := decode[api.Started](t, post(t, srv.URL+"/api/v1/run", `{"id":"a1","code":"1","wait":false}`).Body)
	ndjson(t, get(t, srv.URL+st.EventsURL, "Authorization", "Bearer "+st.Watch).Body) // to its end
	resp := get(t, srv.URL+st.TapeURL, "Authorization", "Bearer "+st.Watch)
	b, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != 404 || !strings.Contains(string(b), "no-tape") {
		t.Fatalf("a run without record: %d %s; want 404 no-tape", resp.StatusCode, b)
	}
	// A run whose done carries a tape (the engine fills it for record).
	r := hub.Open("t1", "k")
	send := r.Tee(func(any) {})
	send(ws.Started{RunHeader: ws.RunHeader{Type: ws.TypeStarted, ID: "t1", Seq: 1}})
	resp = get(t, srv.URL+"/api/v1/runs/t1/tape", "Authorization", "Bearer "+r.Token())
	if resp.StatusCode != 409 {
		t.Fatalf("tape of a running run: %d; want 409", resp.StatusCode)
	}
	send(ws.Done{RunHeader: ws.RunHeader{Type: ws.TypeDone, ID: "t1", Seq: 2}, Outcome: "ok", Tape: json.RawMessage(`{"version":1}`)})
	resp = get(t, srv.URL+"/api/v1/runs/t1/tape", "Authorization", "Bearer "+r.Token())
	b, _ = io.ReadAll(resp.Body)
	if resp.StatusCode != 200 || strings.TrimSpace(string(b)) != `{"version":1}` {
		t.Fatalf("tape: %d %s", resp.StatusCode, b)
	}
}

func TestWaitFalseWithoutHubIs400(t *testing.T) {
	srv := newServer(t, newFake("ok"), &keyLimiter{}, nil)
	resp := post(t, srv.URL+"/api/v1/run", `{"code":"1","wait":false}`)
	if resp.StatusCode != 400 {
		t.Fatalf("status %d; want 400", resp.StatusCode)
	}
}

// TestMCPStartAndWait: start_run answers at once; wait_run returns the
// messages after a cursor, then the rest through done.
func TestMCPStartAndWait(t *testing.T) {
	f := newFake("ok")
	srv, _ := liveServer(t, f)
	cs := mcpSession(t, srv.URL, nil)
	res, err := cs.CallTool(t.Context(), &mcp.CallToolParams{Name: api.ToolStart, Arguments: map[string]any{"code": "1"}})
	if err != nil || res.IsError {
		t.Fatalf("start_run: %v %+v", err, res)
	}
	var st api.Started
	b, _ := json.Marshal(res.StructuredContent)
	json.Unmarshal(b, &st)
	if st.ID == "" || st.Watch == "" {
		t.Fatalf("start_run gave %s", b)
	}
	res, err = cs.CallTool(t.Context(), &mcp.CallToolParams{Name: api.ToolWait, Arguments: map[string]any{"id": st.ID, "watch": st.Watch, "after": 2, "waitSeconds": 30}})
	if err != nil || res.IsError {
		t.Fatalf("wait_run: %v %+v", err, res)
	}
	var out api.WaitToolOutput
	b, _ = json.Marshal(res.StructuredContent)
	json.Unmarshal(b, &out)
	if !out.Done || out.Outcome != "ok" || len(out.Messages) == 0 || out.Cursor != 2+uint64(len(out.Messages)) {
		t.Fatalf("wait_run gave %s; want the messages after seq 2 through done", b)
	}
	var first line
	json.Unmarshal(out.Messages[0], &first)
	if first.Seq != 3 {
		t.Fatalf("first message %+v; want seq 3", first)
	}
	res, _ = cs.CallTool(t.Context(), &mcp.CallToolParams{Name: api.ToolWait, Arguments: map[string]any{"id": st.ID, "watch": "wrong"}})
	if res == nil || !res.IsError {
		t.Fatalf("wait_run with a wrong token: %+v; want a tool error", res)
	}
}
