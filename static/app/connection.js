// The connection: the WebSocket session (client.js), the server's hello,
// starting and stopping runs, and routing the shown run's events to the
// panels. Events of other (superseded) runs are dropped.
import { $, el } from "./dom.js";
import { PlaygroundClient } from "../client.js";
import { state, newRun } from "./state.js";
import { currentFiles, entryPath, clearErrorMarks } from "./files.js";
import { clearConsole, systemLine } from "./console.js";
import { renderFacts } from "./facts.js";
import { renderCalls, renderRunInfo } from "./calls.js";
import { renderTimeline } from "./timeline.js";
import { follow } from "./follow.js";

export const client = new PlaygroundClient();
let autoRunTimer = 0;
let countdown = 0;

client.addEventListener("state", (e) => {
  const { state: s, retryInMs } = e.detail;
  const conn = $("connection");
  conn.dataset.state = s;
  conn.textContent = s === "open" ? "connected" : s === "connecting" ? "connecting…" : retryInMs ? `disconnected, retrying in ${(retryInMs / 1000).toFixed(1)}s` : "disconnected";
  $("run-button").disabled = s !== "open";
  if (s !== "open" && state.current?.running) finish("connection lost: the run's result is unknown");
});

client.addEventListener("hello", (e) => {
  state.hello = e.detail;
  const l = state.hello.limits;
  $("limits").textContent = `limits: ${l.timeoutMs.default} ms · ${Math.round((l.memoryBytes ?? 0) / 1048576)} MiB · ${Math.round(l.maxOutputBytes / 1024)} KiB output · ${l.runsPerSecond}/s (burst ${l.runBurst})`;
  const sel = $("timeout");
  const keep = sel.value;
  sel.replaceChildren();
  const choices = [...new Set([l.timeoutMs.default, 1000, 2000, 5000, 10000, 30000, l.timeoutMs.max])]
    .filter((v) => v >= l.timeoutMs.min && v <= l.timeoutMs.max).sort((a, b) => a - b);
  for (const v of choices) sel.append(el("option", { value: String(v), text: v === l.timeoutMs.default ? `${v / 1000}s (default)` : `${v / 1000}s` }));
  sel.value = choices.includes(Number(keep)) ? keep : String(l.timeoutMs.default);
});

function readInput() {
  const text = $("input").value.trim();
  $("input-error").textContent = "";
  if (text === "") return { ok: true, value: undefined };
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch (err) {
    $("input-error").textContent = `Input is not valid JSON: ${err.message}`;
    $("input-pane").open = true;
    return { ok: false };
  }
}

/** run starts a run of the current files with the chosen options. */
export function run() {
  if (client.state !== "open") return;
  const input = readInput();
  if (!input.ok) return;
  clearTimeout(autoRunTimer);
  const id = client.run({
    files: currentFiles(), entry: entryPath(), input: input.value,
    timeoutMs: Number($("timeout").value) || undefined,
    deterministic: $("deterministic").checked || undefined,
    record: $("record").checked || undefined,
  });
  if (!id) return;
  state.current = newRun(id);
  if (!$("preserve-log").checked) clearConsole();
  else systemLine(`— run ${id} —`);
  clearErrorMarks();
  renderFacts();
  renderCalls();
  renderTimeline();
  renderRunInfo();
  stopCountdown();
  $("stop-button").disabled = false;
  $("watch-button").disabled = true;
  $("tape-button").hidden = true;
  setStatus("sending…");
}

/** scheduleAutoRun runs 600 ms after the last edit when Auto-run is on. */
export function scheduleAutoRun() {
  if (!$("auto-run").checked) return;
  clearTimeout(autoRunTimer);
  autoRunTimer = setTimeout(run, 600);
}

export function stop() {
  if (state.current?.running) client.cancel(state.current.id);
}

function finish(text, outcome) {
  if (state.current) state.current.running = false;
  $("stop-button").disabled = true;
  setStatus(text);
  if (outcome) $("run-status").dataset.outcome = outcome;
}

function setStatus(text) {
  $("run-status").textContent = text;
  delete $("run-status").dataset.outcome;
}

function stopCountdown() {
  clearInterval(countdown);
  countdown = 0;
}

function startCountdown(outcome, ms) {
  stopCountdown();
  const until = performance.now() + ms;
  const tick = () => {
    const left = until - performance.now();
    if (left <= 0) {
      stopCountdown();
      finish(`${outcome.replace("_", " ")}: you can run again`, outcome);
      return;
    }
    finish(`${outcome.replace("_", " ")}: retry in ${(left / 1000).toFixed(1)} s`, outcome);
  };
  tick();
  countdown = setInterval(tick, 100);
}

follow(client, {
  status: setStatus,
  started: (m) => {
    setStatus(`running${m.mode === "script" ? " as a script" : ""} (limit ${m.timeoutMs} ms)…`);
    $("watch-button").disabled = !m.watch;
    $("watch-button").dataset.url = watchURL(); // the address to share with another browser
  },
  done: (m) => {
    showTape(m);
    if (m.outcome === "rate_limited" || m.outcome === "busy") {
      startCountdown(m.outcome, m.retryAfterMs ?? 1000);
      return;
    }
    finish(`${m.outcome} in ${m.durationMs.toFixed(1)} ms (run ${m.stats.runMs.toFixed(1)} ms, bundle ${m.stats.bundleMs.toFixed(1)} ms)`, m.outcome);
  },
});

/** watchURL is the address of the watch window of the run shown, or "" (no token yet). */
export function watchURL() {
  const c = state.current;
  if (!c?.watch) return "";
  return `${location.origin}/watch#run=${encodeURIComponent(c.id)}&token=${encodeURIComponent(c.watch)}`;
}

/** watch opens the DevTools panels of the run shown in their own window, following it live. */
export function watch() {
  const url = watchURL();
  if (url) window.open(url, `watch-${state.current.id}`);
}

// The replay of a tape shows in the panels like a run: its messages go
// through a feed of their own (the socket's stay the socket's).
const replayFeed = new EventTarget();
let replayVerdict = "";
follow(replayFeed, {
  done: (m) => finish(`${replayVerdict} (replay ${m.outcome})`, m.outcome),
});

/**
 * replayTape re-runs the tape in file on the server (POST
 * /api/v1/replay?messages=true: host calls answered from the tape, no host
 * function runs) and shows the replay's messages in the panels, and whether
 * they were the tape's (identical) or where they first differed.
 * @param {File} file
 */
export async function replayTape(file) {
  const text = await file.text();
  setStatus("replaying…");
  let body;
  let res;
  try {
    res = await fetch("/api/v1/replay?messages=true", { method: "POST", headers: { "Content-Type": "application/json" }, body: text });
    body = await res.json();
  } catch (err) {
    finish(`replay failed: ${err.message}`, "error");
    return;
  }
  if (!res.ok) {
    finish(`replay refused: ${body.detail ?? body.title ?? res.status}`, "invalid");
    return;
  }
  const msgs = body.replayed ?? [];
  if (msgs.length === 0) {
    finish("replay: the server sent no messages", "error");
    return;
  }
  replayVerdict = body.identical ? `replay identical: ${body.messages} messages as recorded` : `replay diverged at seq ${body.seq}`;
  state.current = newRun(msgs[0].id);
  if (!$("preserve-log").checked) clearConsole();
  systemLine(`— replay of ${file.name} —`);
  renderFacts();
  renderCalls();
  renderTimeline();
  renderRunInfo();
  for (const m of msgs) {
    replayFeed.dispatchEvent(new CustomEvent(m.type, { detail: m }));
    replayFeed.dispatchEvent(new CustomEvent("message", { detail: m }));
  }
  if (!body.identical) systemLine(`the replay first differed at seq ${body.seq}: expected ${JSON.stringify(body.expected)}, received ${JSON.stringify(body.received)}`, "warn");
}

// showTape offers the run's tape (done.tape, when the run was recorded) as a download.
function showTape(m) {
  const button = $("tape-button");
  button.hidden = !m.tape;
  if (!m.tape) return;
  // The tape as the server wrote it (done.tape is the last member of done):
  // JSON.stringify would reorder integer-like keys, which a replay compares.
  const at = m.raw?.lastIndexOf(',"tape":') ?? -1;
  const text = at > 0 ? m.raw.slice(at + ',"tape":'.length, -1) : JSON.stringify(m.tape);
  const blob = new Blob([text], { type: "application/json" });
  button.href = URL.createObjectURL(blob);
  button.download = `tape-${m.id}.json`;
}

client.addEventListener("protocol_error", (e) => systemLine(`protocol error: ${e.detail.message}`, "error"));
