package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"reflect"
	"strconv"
	"sync/atomic"
	"time"

	"github.com/coder/websocket"
	"github.com/playground-dev/playground/ws"
)

// server runs workloads on a playground server, over POST /api/v1/run and
// over one WebSocket (redialled when the server closes it).
type server struct {
	addr    string
	timeout time.Duration
	conn    *websocket.Conn
	used    time.Time // the socket's last run ended
	client  http.Client
}

// seq makes every run's source unique, as agents send it: no run reuses
// another's bundle.
var seq atomic.Int64

func (s *server) source(w workload) string {
	return w.code + "\n// realwork run " + strconv.FormatInt(seq.Add(1), 10) + "\n"
}

// done is the part of a run's result (the HTTP answer, or the socket's
// done message) the table uses.
type done struct {
	Type    string          `json:"type"`
	ID      string          `json:"id"`
	Outcome string          `json:"outcome"`
	Output  json.RawMessage `json:"output"`
	Facts   json.RawMessage `json:"facts"`
	Stats   struct {
		BundleMs float64 `json:"bundleMs"`
		RunMs    float64 `json:"runMs"`
		QueueMs  float64 `json:"queueMs"`
	} `json:"stats"`
	Errors []struct {
		Kind    string `json:"kind"`
		Message string `json:"message"`
	} `json:"errors"`
	// On the socket: an error message's fields.
	Kind    string `json:"kind"`
	Message string `json:"message"`
}

func (d done) result(ms float64) result {
	r := result{Outcome: d.Outcome, Output: d.Output, Facts: d.Facts}
	if d.Outcome == "ok" {
		r.Ms, r.BundleMs, r.RunMs, r.QueueMs = []float64{ms}, []float64{d.Stats.BundleMs}, []float64{d.Stats.RunMs}, []float64{d.Stats.QueueMs}
		r.OtherMs = []float64{ms - d.Stats.QueueMs - d.Stats.BundleMs - d.Stats.RunMs}
	} else if len(d.Errors) > 0 {
		r.Detail = d.Errors[0].Kind + ": " + d.Errors[0].Message
	}
	return r
}

func since(t time.Time) float64 { return float64(time.Since(t).Microseconds()) / 1000 }

// http runs w once over the HTTP API: request sent → whole answer read.
func (s *server) http(ctx context.Context, w workload, input []byte) result {
	body, _ := json.Marshal(map[string]any{"mode": w.Mode, "code": s.source(w),
		"input": json.RawMessage(input), "timeoutMs": s.timeout.Milliseconds()})
	ctx, cancel := context.WithTimeout(ctx, s.timeout+15*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, "POST", "http://"+s.addr+"/api/v1/run", bytes.NewReader(body))
	if err != nil {
		return result{Outcome: "error", Detail: err.Error()}
	}
	req.Header.Set("Content-Type", "application/json")
	t0 := time.Now()
	resp, err := s.client.Do(req)
	if err != nil {
		return result{Outcome: "error", Detail: err.Error()}
	}
	b, err := io.ReadAll(resp.Body)
	ms := since(t0)
	resp.Body.Close()
	if err != nil {
		return result{Outcome: "error", Detail: err.Error()}
	}
	if resp.StatusCode != http.StatusOK {
		return result{Outcome: strconv.Itoa(resp.StatusCode), Detail: trim(string(b))}
	}
	var d done
	if err := json.Unmarshal(b, &d); err != nil {
		return result{Outcome: "error", Detail: err.Error()}
	}
	return d.result(ms)
}

// ws runs w once over the socket: run sent → its done received.
func (s *server) ws(ctx context.Context, w workload, input []byte) result {
	// This client reads only during a run, so it answers no ping between
	// runs: the server drops a socket idle past its ping timeout (30 s),
	// and a run after a long bare-goja or node series starts afresh.
	if s.conn != nil && time.Since(s.used) > 20*time.Second {
		s.conn.CloseNow()
		s.conn = nil
	}
	if s.conn == nil {
		dctx, cancel := context.WithTimeout(ctx, 10*time.Second)
		c, _, err := websocket.Dial(dctx, "ws://"+s.addr+"/ws", &websocket.DialOptions{Subprotocols: []string{ws.Subprotocol}})
		cancel()
		if err != nil {
			return result{Outcome: "error", Detail: "dial: " + err.Error()}
		}
		c.SetReadLimit(256 << 20)
		if _, _, err := c.Read(ctx); err != nil { // hello
			c.CloseNow()
			return result{Outcome: "error", Detail: "hello: " + err.Error()}
		}
		s.conn = c
	}
	id := "rw-" + strconv.FormatInt(seq.Add(1), 10)
	msg, _ := json.Marshal(map[string]any{"type": "run", "id": id, "mode": w.Mode,
		"files": []map[string]string{{"path": "main.js", "source": s.source(w)}},
		"input": json.RawMessage(input), "timeoutMs": s.timeout.Milliseconds()})
	ctx, cancel := context.WithTimeout(ctx, s.timeout+15*time.Second)
	defer cancel()
	t0 := time.Now()
	if err := s.conn.Write(ctx, websocket.MessageText, msg); err != nil {
		return s.broken(err)
	}
	var firstErr string
	for {
		_, b, err := s.conn.Read(ctx)
		if err != nil {
			return s.broken(err)
		}
		var d done
		if json.Unmarshal(b, &d) != nil || d.ID != id {
			continue
		}
		if d.Type == "error" && firstErr == "" {
			firstErr = d.Kind + ": " + d.Message
		}
		if d.Type != "done" {
			continue
		}
		r := d.result(since(t0))
		s.used = time.Now()
		if r.Outcome != "ok" && r.Detail == "" {
			r.Detail = firstErr
		}
		return r
	}
}

// broken records a socket failure (a frame over the server's read limit
// closes it: 1009) and drops the socket; the next run redials.
func (s *server) broken(err error) result {
	s.conn.CloseNow()
	s.conn = nil
	if st := websocket.CloseStatus(err); st != -1 {
		return result{Outcome: "closed " + strconv.Itoa(int(st)), Detail: trim(err.Error())}
	}
	return result{Outcome: "error", Detail: trim(err.Error())}
}

func (s *server) close() {
	if s.conn != nil {
		s.conn.Close(websocket.StatusNormalClosure, "")
	}
}

func trim(s string) string {
	if len(s) > 200 {
		return s[:200] + "…"
	}
	return s
}

// sameJSON reports whether a and b decode to equal values.
func sameJSON(a, b json.RawMessage) bool {
	var x, y any
	if json.Unmarshal(a, &x) != nil || json.Unmarshal(b, &y) != nil {
		return false
	}
	return reflect.DeepEqual(x, y)
}

func orEmpty(m json.RawMessage) json.RawMessage {
	if len(m) == 0 || string(m) == "null" {
		return json.RawMessage("{}")
	}
	return m
}
