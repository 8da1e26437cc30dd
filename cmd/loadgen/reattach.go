package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sort"
	"time"

	"github.com/coder/websocket"
	"github.com/playground-dev/playground/ws"
)

// reattachSource logs lines 1 ms apart (the host's sleep), so that a run's
// messages keep coming while its client is away.
const reattachSource = "import { host } from \"playground\";\nfor (let i = 0; i < %d; i++) { console.log(\"line\", i); await host.sleep(1); }\nexport default %d;"

// reattachResult is what the reattach scenario measured.
type reattachResult struct {
	Reattaches, Runs, Messages int
	Lost, Duplicated           int
	Latencies                  []time.Duration // new socket dialled → first message after the cursor
	Retries                    int             // dials refused (a closed socket not yet released) and retried
}

// runReattach is -scenario reattach (issue 25): detached runs whose
// socket is closed abruptly (no close frame) after a few messages, again
// and again, each time reattached from a new socket with the run's watch
// token and the last seq received. Every message after the cursor must
// arrive exactly once; a message with a seq at or below the last one is
// duplicated, one past it lost.
//
// others are more instances (behind one Redis, -redis): reattaches go to
// them in turn, as a load balancer might send a reconnecting client.
func runReattach(ctx context.Context, addr string, others []string, src string, n, lines int, out io.Writer) error {
	res, err := reattach(ctx, append([]string{addr}, others...), src, n, lines)
	if err != nil {
		return err
	}
	sort.Slice(res.Latencies, func(i, j int) bool { return res.Latencies[i] < res.Latencies[j] })
	q := func(p float64) time.Duration {
		if len(res.Latencies) == 0 {
			return 0
		}
		return res.Latencies[min(len(res.Latencies)-1, int(p*float64(len(res.Latencies))))]
	}
	fmt.Fprintf(out, "scenario reattach: %d forced disconnects and reattaches over %d detached runs, %d messages, %d instances\n", res.Reattaches, res.Runs, res.Messages, 1+len(others))
	fmt.Fprintf(out, "lost %d, duplicated %d; dials retried %d\n", res.Lost, res.Duplicated, res.Retries)
	fmt.Fprintf(out, "reattach (dial → first message after the cursor): p50 %.2f ms, p99 %.2f ms, max %.2f ms\n",
		ms(q(0.5)), ms(q(0.99)), ms(q(1)))
	if res.Lost > 0 || res.Duplicated > 0 {
		return fmt.Errorf("%d messages lost and %d duplicated across reattaches", res.Lost, res.Duplicated)
	}
	return nil
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

type reattachMsg struct {
	Type, ID, Watch, Outcome, Text, Reason, Message string
	Seq                                             uint64
}

func reattach(ctx context.Context, addrs []string, src string, n, lines int) (*reattachResult, error) {
	addr := addrs[0] // runs start here; reattaches go to each address in turn
	res := &reattachResult{}
	for run := 0; res.Reattaches < n; run++ {
		if err := ctx.Err(); err != nil {
			return res, err
		}
		res.Runs++
		id := fmt.Sprintf("reattach-%d", run)
		c, err := dial(ctx, addr, src)
		if err != nil {
			return res, err
		}
		r := ws.Run{ID: id, Files: []ws.File{{Path: "main.ts", Source: fmt.Sprintf(reattachSource, lines, lines)}}, Detach: &ws.Detach{GraceMs: 30_000}}
		b, _ := json.Marshal(r)
		if err := c.Write(ctx, websocket.MessageText, append([]byte(`{"type":"run",`), b[1:]...)); err != nil {
			return res, err
		}
		var token string
		var last uint64
		since := 0
		for done := false; !done; {
			rctx, cancel := context.WithTimeout(ctx, 30*time.Second)
			_, b, err := c.Read(rctx)
			cancel()
			if err != nil {
				c.CloseNow()
				return res, fmt.Errorf("run %s after seq %d: %w", id, last, err)
			}
			var m reattachMsg
			if err := json.Unmarshal(b, &m); err != nil {
				return res, err
			}
			switch {
			case m.Type == ws.TypeWatchError:
				c.CloseNow()
				return res, fmt.Errorf("run %s: watch_error %s: %s", id, m.Reason, m.Message)
			case m.ID != id:
				continue
			case m.Seq <= last:
				res.Duplicated++
				continue
			case m.Seq > last+1:
				res.Lost += int(m.Seq - last - 1)
			}
			last = m.Seq
			res.Messages++
			since++
			switch m.Type {
			case ws.TypeStarted:
				token = m.Watch
			case ws.TypeDone:
				if m.Outcome != ws.OutcomeOK {
					c.CloseNow()
					return res, fmt.Errorf("run %s ended %s", id, m.Outcome)
				}
				done = true
				continue
			}
			if token == "" || since < 1+res.Reattaches%4 || res.Reattaches >= n {
				continue
			}
			// A forced disconnect: no close frame, then a new socket that
			// reattaches from the last seq it got.
			c.CloseNow()
			res.Reattaches++
			since = 0
			t0 := time.Now()
			to := addrs[res.Reattaches%len(addrs)]
			for {
				c, err = dial(ctx, to, src)
				var re *refusedError
				if errors.As(err, &re) && re.status == 429 { // the closed socket is not released yet
					res.Retries++
					if !pause(ctx, time.Millisecond) {
						return res, ctx.Err()
					}
					continue
				}
				break
			}
			if err != nil {
				return res, err
			}
			w, _ := json.Marshal(map[string]any{"type": ws.TypeWatch, "id": id, "token": token, "after": last})
			if err := c.Write(ctx, websocket.MessageText, w); err != nil {
				return res, err
			}
			rctx, cancel = context.WithTimeout(ctx, 30*time.Second)
			_, b, err = c.Read(rctx)
			cancel()
			if err != nil {
				return res, fmt.Errorf("run %s, reattached after seq %d: %w", id, last, err)
			}
			res.Latencies = append(res.Latencies, time.Since(t0))
			var m2 reattachMsg
			if err := json.Unmarshal(b, &m2); err != nil {
				return res, err
			}
			if m2.Type == ws.TypeWatchError {
				return res, fmt.Errorf("run %s: reattach: watch_error %s: %s", id, m2.Reason, m2.Message)
			}
			switch {
			case m2.Seq <= last:
				res.Duplicated++
			case m2.Seq > last+1:
				res.Lost += int(m2.Seq - last - 1)
			}
			if m2.Seq > last {
				last = m2.Seq
				res.Messages++
				since++
				if m2.Type == ws.TypeDone {
					if m2.Outcome != ws.OutcomeOK {
						return res, fmt.Errorf("run %s ended %s", id, m2.Outcome)
					}
					done = true
				}
			}
		}
		c.CloseNow()
	}
	return res, nil
}
