package sandbox

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/evanw/esbuild/pkg/api"
)

// statelibSnippet is written for statelib (testdata/statelib) as its users
// write it: nothing in it knows the playground.
const statelibSnippet = `
import { createSystem } from "statelib";

const sleep = (ms, signal) => new Promise((resolve, reject) => {
  const t = setTimeout(resolve, ms);
  signal.addEventListener("abort", () => { clearTimeout(t); reject(signal.reason); });
});

const seen = [];
const system = createSystem({
  module: {
    facts: { count: 0, userId: null, user: null, todos: [] },
    events: {
      increment: (facts) => { facts.count += 1; },
      selectUser: (facts, { id }) => { facts.userId = id; facts.user = null; },
      addTodo: (facts, { text }) => { facts.todos = [...facts.todos, text]; },
      clear: (facts) => { delete facts.todos; },
    },
    resolvers: {
      loadUser: {
        when: (facts) => facts.userId !== null && facts.user === null,
        resolve: async (facts, { signal }) => {
          await sleep(20, signal);
          facts.user = { id: facts.userId, name: "Ada" };
        },
      },
    },
  },
  plugins: [{ onFactSet: (key) => seen.push(key) }],
});

system.start();
system.dispatch({ type: "increment" });
system.dispatch({ type: "increment" });
system.dispatch({ type: "addTodo", text: "write the adapter" });
system.dispatch({ type: "selectUser", id: 7 });
await system.settle();
system.dispatch({ type: "clear" });
console.log(system.facts.count, system.facts.user.name, seen.join(","));

// A resolver in flight is aborted by stop(): its AbortSignal fires.
system.dispatch({ type: "selectUser", id: 8 });
await new Promise((r) => setTimeout(r, 1));
system.stop();
await system.settle();
console.log(system.facts.userId, system.facts.user, system.errors.length);
`

// buildLibraries bundles testdata/statelib's files into a -libraries
// directory: with the adapter (DIR/statelib.js built from
// statelib.playground.js, as the README tells an operator), or the bare
// library.
func buildLibraries(t *testing.T, adapter bool) string {
	t.Helper()
	entry := "testdata/statelib/statelib.js"
	if adapter {
		entry = "testdata/statelib/statelib.playground.js"
	}
	dir := t.TempDir()
	r := api.Build(api.BuildOptions{EntryPoints: []string{entry}, Bundle: true, Format: api.FormatESModule,
		Outfile: filepath.Join(dir, "statelib.js"), Write: true, LogLevel: api.LogLevelSilent})
	if len(r.Errors) > 0 {
		t.Fatalf("esbuild %s: %s", entry, r.Errors[0].Text)
	}
	if _, err := os.Stat(filepath.Join(dir, "statelib.js")); err != nil {
		t.Fatal(err)
	}
	return dir
}

// An operator serves a Proxy-backed state library with its adapter: a
// snippet written for the library, unchanged, streams the store's changes
// as fact events and ends with them in done.facts.
func TestStateLibraryAdapter(t *testing.T) {
	for _, adapter := range []bool{true, false} {
		p := newTestPool(t, Config{Workers: 1, LibraryDir: buildLibraries(t, adapter)})
		res, rec := run(t, p, Request{Files: files("main.js", statelibSnippet)})
		if res.Outcome != OutcomeOK {
			t.Fatalf("adapter %v: outcome %s: %+v", adapter, res.Outcome, rec.errors())
		}
		logs := rec.logs()
		if want := []string{"2 Ada user", "8 null 0"}; strings.Join(logs, "|") != strings.Join(want, "|") {
			t.Errorf("adapter %v: logs %q; want %q (the library works, its own plugin too, stop() aborts)", adapter, logs, want)
		}
		var events []string
		for _, e := range rec.events {
			if e.Kind == EventFact {
				s := e.Key + "=" + string(e.Value)
				if e.Deleted {
					s = e.Key + " deleted"
				}
				events = append(events, s)
			}
		}
		got, _ := json.Marshal(res.Facts)
		if !adapter {
			// The bare library: its state never reaches the facts.
			if len(events) != 0 || string(got) != "{}" {
				t.Errorf("without the adapter: fact events %q, facts %s; want none", events, got)
			}
			continue
		}
		if want := `{"count":2,"user":null,"userId":8}`; string(got) != want {
			t.Errorf("done.facts = %s; want %s", got, want)
		}
		for _, want := range []string{`count=0`, `todos=[]`, `todos=["write the adapter"]`, `userId=7`, `user={"id":7,"name":"Ada"}`, `todos deleted`, `userId=8`, `user=null`} {
			found := false
			for _, e := range events {
				found = found || e == want
			}
			if !found {
				t.Errorf("no fact event %s in %q", want, events)
			}
		}
	}
}
