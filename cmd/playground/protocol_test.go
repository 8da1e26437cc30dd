package main

import (
	"fmt"
	"strings"
	"testing"

	"github.com/coder/websocket"
)

func TestBurstPastLimitIsRateLimited(t *testing.T) {
	c := dial(t, server(t, "-rate", "1", "-burst", "3"))
	for i := range 4 {
		c.send(runMsg(fmt.Sprintf("r%d", i), "main.js", "1"))
		ms := c.until(fmt.Sprintf("r%d", i))
		done := ms[len(ms)-1]
		if i < 3 && done.str("outcome") != "ok" {
			t.Fatalf("run %d outcome = %s; want ok within the burst", i, done.str("outcome"))
		}
		if i == 3 {
			if len(ms) != 1 || done.str("outcome") != "rate_limited" || done.num("retryAfterMs") <= 0 || done.num("retryAfterMs") > 1000 {
				t.Fatalf("run past the burst = %v; want only done rate_limited with retryAfterMs in (0, 1000]", ms)
			}
		}
	}
}

func TestProtocolErrorsKeepSocket(t *testing.T) {
	c := dial(t, server(t))
	for _, tc := range []struct {
		typ  websocket.MessageType
		body string
		want string
	}{
		{websocket.MessageText, `{"type":`, "not a JSON object"},
		{websocket.MessageText, `{"type":"launch"}`, "unknown message type"},
		{websocket.MessageBinary, `{"type":"ping"}`, "binary frames"},
		{websocket.MessageText, `{"type":"cancel"}`, "cancel needs"},
	} {
		c.SendFrame(tc.typ, []byte(tc.body))
		m := c.read()
		if m.str("type") != "protocol_error" || !strings.Contains(m.str("message"), tc.want) {
			t.Errorf("%q: got %v; want protocol_error mentioning %q", tc.body, m, tc.want)
		}
	}
	c.send(map[string]any{"type": "ping", "t": 42})
	if m := c.read(); m.str("type") != "pong" || m["t"] != 42.0 {
		t.Errorf("after protocol errors: got %v; want pong 42", m)
	}
	c.send(runMsg("ok", "main.js", "console.log(1)"))
	if ms := c.until("ok"); ms[len(ms)-1].str("outcome") != "ok" {
		t.Errorf("run after protocol errors = %v", ms)
	}
}

func TestInvalidRunEndsWithDone(t *testing.T) {
	c := dial(t, server(t, "-max-files", "2", "-max-source-bytes", "1000"))
	c.send(runMsg("big", "a.js", strings.Repeat("\n", 1500)))
	ms := c.until("big")
	if types(ms) != "error done" || !strings.Contains(ms[0].str("message"), "maxSourceBytes=1000") || ms[1].str("outcome") != "invalid" {
		t.Errorf("messages = %v; want INVALID_REQUEST naming maxSourceBytes, then done invalid", ms)
	}
	c.send(map[string]any{"type": "run", "id": "bad", "files": []map[string]string{{"path": "../x.ts", "source": ""}}})
	ms = c.until("bad")
	if types(ms) != "error done" || ms[0].str("kind") != "INVALID_REQUEST" || !strings.Contains(ms[0].str("message"), "files[0].path") || ms[1].str("outcome") != "invalid" {
		t.Errorf("messages = %v; want INVALID_REQUEST naming files[0].path, then done invalid", ms)
	}
	c.send(runMsg("many", "a.js", "", "b.js", "", "c.js", ""))
	ms = c.until("many")
	if ms[0].str("kind") != "INVALID_REQUEST" || !strings.Contains(ms[0].str("message"), "maxFiles=2") {
		t.Errorf("messages = %v; want INVALID_REQUEST naming maxFiles", ms)
	}
}

func TestRepeatedProtocolErrorsClose(t *testing.T) {
	c := dial(t, server(t))
	for range 20 {
		c.SendFrame(websocket.MessageText, []byte("nope"))
	}
	if err := c.UntilClosed(); websocket.CloseStatus(err) != websocket.StatusPolicyViolation {
		t.Errorf("close status = %v (%v); want 1008", websocket.CloseStatus(err), err)
	}
}
