package wstest_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/playground-dev/playground/ws"
	"github.com/playground-dev/playground/ws/wstest"
)

// echoServer accepts a socket, sends a hello, then answers each client
// message, decoded by ws.Decode, with a log whose text is the message's
// JSON as the decoder saw it, and finally a done: run "r"'s seq 1 and 2.
func echoServer(t *testing.T) *httptest.Server {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		conn, err := ws.Accept(w, r, ws.AcceptOptions{})
		if err != nil {
			return
		}
		defer conn.CloseNow()
		ctx := context.Background()
		if err := conn.Write(ctx, ws.Hello{Type: ws.TypeHello, Protocol: ws.Subprotocol}); err != nil {
			return
		}
		var seq uint64
		for {
			b, err := conn.Read(ctx)
			if err != nil {
				return
			}
			m, err := ws.Decode(b)
			if err != nil {
				_ = conn.Write(ctx, ws.ProtocolError{Type: ws.TypeProtocolError, Message: err.Error()})
				continue
			}
			text, _ := json.Marshal(m)
			seq++
			_ = conn.Write(ctx, ws.Log{RunHeader: ws.RunHeader{Type: ws.TypeLog, ID: "r", Seq: seq}, Level: "log", Text: string(text)})
			if _, ok := m.(*ws.Cancel); ok {
				seq++
				_ = conn.Write(ctx, ws.Done{RunHeader: ws.RunHeader{Type: ws.TypeDone, ID: "r", Seq: seq}, Outcome: ws.OutcomeCancelled})
			}
		}
	}))
	t.Cleanup(srv.Close)
	return srv
}

// TestSendSpeaksTheDecoder: every client message Send writes is one that
// ws.Decode takes back to the same value, and Until collects a run's
// messages, in seq order, up to its done.
func TestSendSpeaksTheDecoder(t *testing.T) {
	c := wstest.Dial(t, echoServer(t).URL, wstest.Options{})
	if h := wstest.As[ws.Hello](t, c.Hello()); h.Protocol != ws.Subprotocol {
		t.Fatalf("hello %+v", h)
	}
	timeout := 250.0
	sent := []ws.Message{
		&ws.Run{ID: "r", Files: []ws.File{{Path: "main.ts", Source: "1"}}, TimeoutMs: &timeout, Detach: &ws.Detach{GraceMs: 5}},
		&ws.Watch{ID: "r", Token: "t", After: 3},
		&ws.Ping{T: json.RawMessage(`7`)},
		&ws.Ping{},
		&ws.Cancel{ID: "r"},
	}
	for _, m := range sent {
		c.Send(m)
	}
	got := c.Until("r", 0)
	if len(got) != len(sent)+1 || got[len(got)-1].Type != ws.TypeDone {
		t.Fatalf("Until: %v; want a log per message sent, then done", got)
	}
	for i, m := range sent {
		log := wstest.As[ws.Log](t, got[i])
		want, _ := json.Marshal(m)
		if diff := cmp.Diff(string(want), log.Text); diff != "" {
			t.Errorf("message %d (%T) as the server decoded it (-sent +decoded):\n%s", i, m, diff)
		}
	}
	if d := wstest.As[ws.Done](t, got[len(got)-1]); d.Outcome != ws.OutcomeCancelled || d.Seq != 6 {
		t.Errorf("done %+v; want cancelled seq 6", d)
	}
	c.SendJSON(map[string]any{"type": "nope"})
	if m := c.Read(); m.Type != ws.TypeProtocolError {
		t.Errorf("after an unknown type: %s; want protocol_error", m)
	}
}
