// This file is `playground replay TAPE` and `playground run --record`:
// run tapes on the command line (docs/protocol.md, "Run tapes").

package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"os"
	"strings"

	"github.com/playground-dev/playground/engine"
	"github.com/playground-dev/playground/ratelimit"
	"github.com/playground-dev/playground/sandbox"
	"github.com/playground-dev/playground/tape"
	"github.com/playground-dev/playground/web/api"
	"github.com/playground-dev/playground/ws"
)

// Exit codes of `playground replay`, beside those of `playground run`
// (exitUsage: bad flags, an unreadable tape or one the server refuses;
// exitRefused: rate limited or busy; exitUnavailable: the server could not
// be reached).
const (
	exitIdentical = 0 // the replay's messages were the tape's
	exitDiverged  = 1 // they were not: the first divergence is printed
)

const replayUsage = `usage: playground replay TAPE [--server URL] [--json]

Re-runs a run tape (done.tape of a run with "record": true and
"deterministic": true; "-" reads it from stdin) with its host calls answered
from the tape, and says whether the run's messages were the tape's or where
they first differ. Without --server the replay happens in this process tree.

Exit status: 0 identical, 1 diverged, 2 usage or a tape that cannot be
replayed (the reason is printed), 5 rate limited or busy, 6 server
unreachable.

`

// replayCLI is `playground replay`; it returns the exit status.
func replayCLI(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer, getenv func(string) string) int {
	fs := flag.NewFlagSet("playground replay", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() { fmt.Fprint(stderr, replayUsage); fs.PrintDefaults() }
	server := fs.String("server", "", "replay on the playground server at `URL` (POST /api/v1/replay) instead of in this process")
	key := fs.String("key", getenv("PLAYGROUND_API_KEY"), "API `key` sent as a Bearer token with --server (default $PLAYGROUND_API_KEY)")
	asJSON := fs.Bool("json", false, "print the answer as JSON (POST /api/v1/replay's) instead of text")
	var files []string
	for {
		if err := fs.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				return exitOK
			}
			return exitUsage
		}
		if fs.NArg() == 0 {
			break
		}
		files = append(files, fs.Arg(0))
		args = fs.Args()[1:]
	}
	if len(files) != 1 {
		fs.Usage()
		fmt.Fprintln(stderr, "playground replay: give one tape file")
		return exitUsage
	}
	var b []byte
	var err error
	if files[0] == "-" {
		b, err = io.ReadAll(stdin)
	} else {
		b, err = os.ReadFile(files[0])
	}
	if err != nil {
		fmt.Fprintln(stderr, "playground replay:", err)
		return exitUsage
	}
	var res api.ReplayResult
	code := exitOK
	if *server != "" {
		res, code = replayRemote(ctx, *server, *key, b, stderr)
	} else {
		res, code = replayLocal(ctx, files[0], b, stderr)
	}
	if code != exitOK {
		return code
	}
	if *asJSON {
		out, _ := json.Marshal(res)
		fmt.Fprintf(stdout, "%s\n", escapeControls(string(out), true))
	} else if res.Identical {
		fmt.Fprintf(stdout, "identical: %d messages\n", res.Messages)
	} else {
		fmt.Fprintf(stdout, "diverged at seq %d\n  expected: %s\n  received: %s\n", res.Seq,
			escapeControls(string(res.Expected), false), escapeControls(string(res.Received), false))
	}
	if !res.Identical {
		return exitDiverged
	}
	return exitIdentical
}

// localEngine is an engine on a one-worker pool of this binary, for one
// local user (no rate limit to speak of); close the pool when done.
func localEngine(stderr io.Writer) (*engine.Engine, *sandbox.Pool, error) {
	log := slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
	pool, err := sandbox.NewPool(sandbox.Config{Workers: 1, Host: hostFunctions(newKVStore(defaultKVLimits)), HostGlobals: splitList(defaultHostGlobals), Log: log})
	if err != nil {
		return nil, nil, err
	}
	unlimited := engine.ClientLimits{PerSecond: 1e6, Burst: 1 << 20}
	eng := &engine.Engine{Runner: pool, Limiter: ratelimit.New(ratelimit.Config{PerSecond: unlimited.PerSecond, Burst: unlimited.Burst}),
		Limits: engine.HelloLimits(pool.Announce(), unlimited), Log: log}
	return eng, pool, nil
}

// replayLocal replays the tape b (read from name) on a local engine.
func replayLocal(ctx context.Context, name string, b []byte, stderr io.Writer) (api.ReplayResult, int) {
	t, err := tape.Decode(b)
	if err != nil {
		fmt.Fprintf(stderr, "playground replay: %s: %v\n", name, err)
		return api.ReplayResult{}, exitUsage
	}
	eng, pool, err := localEngine(stderr)
	if err != nil {
		fmt.Fprintln(stderr, "playground replay:", err)
		return api.ReplayResult{}, exitUnavailable
	}
	defer pool.Close()
	rep, ref := eng.Replay(ctx, t, engine.Job{Key: "cli", Session: "cli"})
	if ref != nil {
		fmt.Fprintf(stderr, "playground replay: %s: %s: %s\n", name, ref.Field, ref.Reason)
		return api.ReplayResult{}, exitUsage
	}
	if ctx.Err() != nil {
		return api.ReplayResult{}, exitUnavailable
	}
	res := api.ReplayResult{Identical: rep.Divergence == nil, Messages: rep.Compared, Outcome: rep.Done.Outcome}
	if d := rep.Divergence; d != nil {
		res.Seq, res.Expected, res.Received = d.Seq, d.Expected, d.Received
	}
	return res, exitOK
}

// replayRemote posts the tape b to the server's POST /api/v1/replay.
func replayRemote(ctx context.Context, server, key string, b []byte, stderr io.Writer) (api.ReplayResult, int) {
	url := strings.TrimRight(server, "/") + "/api/v1/replay"
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, bytes.NewReader(b))
	if err != nil {
		fmt.Fprintln(stderr, "playground replay: --server:", err)
		return api.ReplayResult{}, exitUsage
	}
	req.Header.Set("Content-Type", "application/json")
	if key != "" {
		req.Header.Set("Authorization", "Bearer "+key)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		if ctx.Err() == nil {
			fmt.Fprintln(stderr, "playground replay:", err)
		}
		return api.ReplayResult{}, exitUnavailable
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, 64<<20))
	if err != nil {
		fmt.Fprintln(stderr, "playground replay:", err)
		return api.ReplayResult{}, exitUnavailable
	}
	if resp.StatusCode != http.StatusOK {
		var prob api.Problem
		if json.Unmarshal(body, &prob) != nil || prob.Detail == "" {
			prob.Detail = strings.TrimSpace(string(body))
		}
		where := ""
		if prob.Field != "" {
			where = prob.Field + ": "
		}
		fmt.Fprintf(stderr, "playground replay: %s: %s%s\n", resp.Status, where, escapeControls(prob.Detail, false))
		switch resp.StatusCode {
		case http.StatusTooManyRequests, http.StatusServiceUnavailable:
			return api.ReplayResult{}, exitRefused
		case http.StatusBadRequest, http.StatusUnauthorized, http.StatusRequestEntityTooLarge, http.StatusUnsupportedMediaType:
			return api.ReplayResult{}, exitUsage
		}
		return api.ReplayResult{}, exitUnavailable
	}
	var res api.ReplayResult
	if err := json.Unmarshal(body, &res); err != nil {
		fmt.Fprintln(stderr, "playground replay: the server's answer is not a replay result:", err)
		return api.ReplayResult{}, exitUnavailable
	}
	return res, exitOK
}

// saveTape writes the tape of done (one done message's JSON) to path, for
// `playground run --record`. A done without a tape, or with a tape that
// was not kept, is an error naming why.
func saveTape(path string, done []byte) error {
	var d struct {
		Type string          `json:"type"`
		Tape json.RawMessage `json:"tape"`
	}
	if err := json.Unmarshal(done, &d); err != nil || d.Type != ws.TypeDone {
		return errors.New("--record: no done message")
	}
	if len(d.Tape) == 0 {
		return errors.New("--record: the run's done carries no tape (the run was refused before it ran, or the server does not record)")
	}
	var kept struct {
		Error string `json:"error"`
	}
	if json.Unmarshal(d.Tape, &kept) == nil && kept.Error != "" {
		return fmt.Errorf("--record: the tape was not kept: %s", kept.Error)
	}
	return os.WriteFile(path, append(d.Tape, '\n'), 0o644)
}
