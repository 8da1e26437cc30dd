// The watch window: one run's DevTools panels (Console, Facts, Timeline,
// Calls, Run), followed live over this window's own socket. The page's
// Watch button opens it at /watch#run=ID&token=T (started.watch); anyone
// with the address sees the run, no one through it can cancel it.
//
// The server sends the run's messages with seq > after, then live ones,
// ending with done (docs/protocol.md, "Watchers and reattach"). After a
// dropped socket the window asks again from the last seq it showed, so
// every message is shown exactly once.
import { $ } from "./app/dom.js";
import { state, newRun } from "./app/state.js";
import { PlaygroundClient } from "./client.js";
import { follow } from "./app/follow.js";
import { wirePanels } from "./app/panels.js";
import { systemLine } from "./app/console.js";
import { renderFacts } from "./app/facts.js";
import { renderCalls, renderRunInfo } from "./app/calls.js";
import { renderTimeline } from "./app/timeline.js";

const params = new URLSearchParams(location.hash.slice(1));
const id = params.get("run") ?? "";
const token = params.get("token") ?? "";
document.title = `watching ${id}`;
$("tab-problems").hidden = true; // types belong to the editor's window

const status = (text, outcome) => {
  $("run-status").textContent = text;
  if (outcome) $("run-status").dataset.outcome = outcome;
  else delete $("run-status").dataset.outcome;
};

// feed carries this run's messages to the panels, each once, in seq order.
const feed = new EventTarget();
let lastSeq = 0;
const client = new PlaygroundClient();

client.addEventListener("state", (e) => {
  const conn = $("connection");
  conn.dataset.state = e.detail.state;
  conn.textContent = e.detail.state === "open" ? "connected" : e.detail.state === "connecting" ? "connecting…" : "disconnected";
});
client.addEventListener("hello", (e) => {
  state.hello = e.detail;
  renderRunInfo();
  if (!state.current.done) client.watch(id, token, lastSeq);
});
// A watch that could not start or ended early (docs/protocol.md,
// "watch_error"): a watcher dropped for falling behind asks again from the
// last seq it showed; the rest end the watch with the server's words.
let retries = 0;
client.addEventListener("watch_error", (e) => {
  const m = e.detail;
  if (m.id !== id) return;
  if (m.reason === "dropped" && retries++ < 5) {
    client.watch(id, token, lastSeq);
    return;
  }
  const why = m.reason === "not_found" ? "no such run, or its watch token is wrong or expired" : m.message;
  status(`cannot watch: ${why}`, "error");
  client.close();
});
client.addEventListener("message", (e) => {
  const m = e.detail;
  if (m.type === "protocol_error") {
    status(`cannot watch: ${m.message}`, "error");
    return;
  }
  if (m.id !== id || typeof m.seq !== "number" || m.seq <= lastSeq) return;
  lastSeq = m.seq;
  feed.dispatchEvent(new CustomEvent(m.type, { detail: m }));
  feed.dispatchEvent(new CustomEvent("message", { detail: m }));
});

follow(feed, {
  status: (text) => status(text),
  started: (m) => status(`running (limit ${m.timeoutMs} ms)…`),
  done: (m) => {
    status(`${m.outcome} in ${m.durationMs.toFixed(1)} ms`, m.outcome);
    client.close();
  },
});

wirePanels();
state.current = newRun(id);
if (!id || !token) {
  status("no run to watch: the address needs #run=ID&token=T (the page's Watch button opens it)", "error");
  client.close();
} else {
  status("waiting for the run…");
  systemLine(`watching run ${id}`);
}
renderFacts();
renderCalls();
renderRunInfo();
renderTimeline();
document.body.dataset.ready = "true";
