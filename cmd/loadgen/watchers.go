package main

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/coder/websocket"
	"github.com/playground-dev/playground/ws"
)

// watchedSource logs a line every 20 ms (the host's sleep) for about d: a
// run for -watchers to follow while the load runs.
func watchedSource(d time.Duration) string {
	lines := min(900, int(d/(20*time.Millisecond))+1)
	return fmt.Sprintf("import { host } from \"playground\";\nfor (let i = 0; i < %d; i++) { console.log(\"line\", i); await host.sleep(20); }", lines)
}

// watchers starts one run that logs through the load and n sockets that
// watch it (issue 25: watching must cost the load nothing measurable). It
// returns a func that waits for the run's end on every watcher and reports
// how many messages each got.
func watchers(ctx context.Context, addr string, n int, d time.Duration) (wait func() string, err error) {
	owner, _, err := websocket.Dial(ctx, "ws://"+addr+"/ws", &websocket.DialOptions{Subprotocols: []string{ws.Subprotocol}})
	if err != nil {
		return nil, err
	}
	if _, _, err := owner.Read(ctx); err != nil { // hello
		return nil, err
	}
	timeout := float64((d + 20*time.Second).Milliseconds())
	b, _ := json.Marshal(ws.Run{ID: "watched", Files: []ws.File{{Path: "main.ts", Source: watchedSource(d)}}, TimeoutMs: &timeout})
	if err := owner.Write(ctx, websocket.MessageText, append([]byte(`{"type":"run",`), b[1:]...)); err != nil {
		return nil, err
	}
	token := ""
	for token == "" {
		_, b, err := owner.Read(ctx)
		if err != nil {
			return nil, err
		}
		var m struct{ Type, Watch string }
		json.Unmarshal(b, &m)
		if m.Type == ws.TypeStarted {
			token = m.Watch
		}
	}
	if token == "" {
		return nil, fmt.Errorf("the server sent no watch token")
	}
	var wg sync.WaitGroup
	var got, full atomic.Int64
	var firstErr atomic.Value
	drain := func(c *websocket.Conn) {
		defer c.CloseNow()
		for {
			_, b, err := c.Read(ctx)
			if err != nil {
				firstErr.CompareAndSwap(nil, err)
				return
			}
			got.Add(1)
			var m struct{ Type, ID, Message string }
			json.Unmarshal(b, &m)
			if m.Type == ws.TypeWatchError || m.Type == ws.TypeProtocolError {
				firstErr.CompareAndSwap(nil, fmt.Errorf("%s: %s", m.Type, m.Message))
				return
			}
			if m.Type == ws.TypeDone && m.ID == "watched" {
				full.Add(1)
				return
			}
		}
	}
	wg.Go(func() { drain(owner) })
	for range n {
		c, _, err := websocket.Dial(ctx, "ws://"+addr+"/ws", &websocket.DialOptions{Subprotocols: []string{ws.Subprotocol}})
		if err != nil {
			return nil, err
		}
		if _, _, err := c.Read(ctx); err != nil { // hello
			return nil, err
		}
		w, _ := json.Marshal(map[string]any{"type": ws.TypeWatch, "id": "watched", "token": token})
		if err := c.Write(ctx, websocket.MessageText, w); err != nil {
			return nil, err
		}
		wg.Go(func() { drain(c) })
	}
	return func() string {
		wg.Wait()
		s := fmt.Sprintf("watchers      %d sockets and the owner followed one run: %d of %d reached its done, %d messages in all", n, full.Load(), n+1, got.Load())
		if err, _ := firstErr.Load().(error); err != nil {
			s += fmt.Sprintf(" (first error: %v)", err)
		}
		return s
	}, nil
}
