package sandbox

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

func TestHostFunctions(t *testing.T) {
	var cancelled atomic.Bool
	var logged lockedBuffer
	p := newTestPool(t, Config{Workers: 1, Log: slog.New(slog.NewTextHandler(&logged, nil)), Limits: Limits{MaxHostCalls: 5}, HostCallTimeout: 300 * time.Millisecond, Host: map[string]HostFunc{
		"echo": func(_ context.Context, c HostCall) (json.RawMessage, error) {
			return json.Marshal(map[string]any{"args": c.Args, "session": c.Session})
		},
		"fail": func(context.Context, HostCall) (json.RawMessage, error) { return nil, errors.New("nope") },
		"boom": func(context.Context, HostCall) (json.RawMessage, error) { panic("handler bug") },
		"kv.get": func(context.Context, HostCall) (json.RawMessage, error) {
			return json.RawMessage(`"v"`), nil
		},
		"slow": func(ctx context.Context, _ HostCall) (json.RawMessage, error) {
			<-ctx.Done()
			cancelled.Store(true)
			return nil, ctx.Err()
		},
	}})
	res, rec := run(t, p, Request{ID: "run-42", Session: "tab1", Files: files("main.ts", `
import { host } from "playground";
const r = await host.echo("hi", 2, { a: [1] });
console.log(JSON.stringify(r));
console.log(await host.kv.get("k"));
for (const name of ["fail", "boom", "slow"]) {
  try { await (host as any)[name](); } catch (e) { console.log(name, String(e)); }
}
try { await host.echo(); } catch (e) { console.log(String(e)); }
`)})
	if res.Outcome != OutcomeOK {
		t.Fatalf("outcome %s: %+v", res.Outcome, rec.errors())
	}
	want := []string{
		`{"args":["hi",2,{"a":[1]}],"session":"tab1"}`,
		`v`,
		`fail Error: host.fail: nope`,
		`boom Error: host.boom: the host function failed`,
		`slow Error: host.slow: timed out after 300ms`,
		`RangeError: host.echo: this run made its 5 host calls, the limit`,
	}
	if got := rec.logs(); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("logs:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	var calls []string
	for _, e := range rec.events {
		if e.Kind == EventCall {
			s := e.Name
			if !e.OK {
				s += " error: " + e.CallError
			}
			calls = append(calls, s)
			if e.Name == "slow" && (e.Duration < 250*time.Millisecond || e.Duration > 5*time.Second) {
				t.Errorf("slow call took %v; want about 300ms", e.Duration)
			}
		}
	}
	if got := strings.Join(calls, "|"); got != "echo|kv.get|fail error: nope|boom error: the host function failed|slow error: timed out after 300ms" {
		t.Errorf("call events = %s", got)
	}
	if !cancelled.Load() {
		t.Error("the slow handler's context was not cancelled")
	}
	if l := logged.String(); !strings.Contains(l, "host function panicked") || !strings.Contains(l, "run=run-42") || !strings.Contains(l, "handler bug") {
		t.Errorf("server log = %q; want the panic logged with the run id", l)
	}
}

// lockedBuffer is a bytes.Buffer safe for the pool's concurrent logging.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

func TestHostCallCancelledWithRun(t *testing.T) {
	started := make(chan struct{})
	done := make(chan error, 1)
	p := newTestPool(t, Config{Workers: 1, Host: map[string]HostFunc{
		"wait": func(ctx context.Context, _ HostCall) (json.RawMessage, error) {
			close(started)
			<-ctx.Done()
			done <- ctx.Err()
			return nil, ctx.Err()
		},
	}})
	res, rec := run(t, p, Request{Timeout: 200 * time.Millisecond, Files: files("main.ts", `
import { host } from "playground";
await host.wait();
`)})
	<-started
	if res.Outcome != OutcomeTimeout {
		t.Fatalf("outcome %s: %+v; want timeout (a pending host call keeps the run alive)", res.Outcome, rec.errors())
	}
	select {
	case err := <-done:
		if err == nil {
			t.Error("handler context ended without error")
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the handler's context was not cancelled when the run ended")
	}
}

// TestLateHostReplyIsIgnored: a reply that arrives after its run ended must
// not settle a call of the next run on the same worker.
func TestLateHostReplyIsIgnored(t *testing.T) {
	release := make(chan struct{})
	p := newTestPool(t, Config{Workers: 1, Spares: 1, Host: map[string]HostFunc{
		"late": func(ctx context.Context, _ HostCall) (json.RawMessage, error) {
			<-release
			return json.RawMessage(`"late"`), nil
		},
		"now": func(context.Context, HostCall) (json.RawMessage, error) { return json.RawMessage(`"now"`), nil },
	}})
	// The first run leaves a call pending and ends (its worker is reused).
	res, _ := run(t, p, Request{Timeout: 100 * time.Millisecond, Files: files("main.ts", `import { host } from "playground";
host.late(); await new Promise((r) => setTimeout(r, 20));`)})
	if res.Outcome != OutcomeTimeout {
		t.Fatalf("first run: %s; want timeout (a pending call keeps it alive)", res.Outcome)
	}
	close(release)
	for i := range 4 {
		res, rec := run(t, p, Request{Files: files("main.ts", `import { host } from "playground";
console.log(await host.now());`)})
		if res.Outcome != OutcomeOK || len(rec.logs()) != 1 || rec.logs()[0] != "now" {
			t.Fatalf("run %d: %s %q; want the run's own reply", i, res.Outcome, rec.logs())
		}
	}
}
