// The playground page: files in tabs, a CodeMirror editor, Run/Stop, and
// the console and facts panes fed by the WebSocket session. Program output
// is always inserted as text (textContent), never as HTML.
import { createEditor } from "./editor.bundle.js";
import { PlaygroundClient } from "./client.js";
import { examples } from "./examples.js";

const $ = (id) => document.querySelector(`[data-testid="${id}"]`);
const el = (tag, props = {}, ...children) => {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(props)) {
    if (k === "class") node.className = v;
    else if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
    else if (k === "text") node.textContent = v;
    else node.setAttribute(k, v);
  }
  node.append(...children);
  return node;
};

const STORAGE_KEY = "playground.files.v1";
const EXT = /\.(ts|tsx|js|jsx|mjs|json)$/;
const PATH = /^(?!\/)(?:[A-Za-z0-9._-]+\/)*[A-Za-z0-9._-]+$/;

// files: [{ path, state }] where state is the file's CodeMirror EditorState.
const files = [];
let active = 0;
let entry = "src/main.ts";
let currentRun = null; // id of the run whose events are shown
let running = false;
let facts = new Map();
let errorMarks = new Map(); // path -> [{ line, message }] of the shown run

const editor = createEditor(document.getElementById("editor"), {
  onChange: () => save(),
  onRun: () => run(),
});

function loadExample(ex) {
  files.length = 0;
  for (const f of ex.files) files.push({ path: f.path, state: editor.newState(f.source, f.path) });
  entry = ex.entry;
  active = Math.max(0, files.findIndex((f) => f.path === entry));
  editor.setState(files[active].state);
  renderTabs();
  save();
}

function restore() {
  try {
    const saved = JSON.parse(localStorage.getItem(STORAGE_KEY) || "null");
    if (saved && Array.isArray(saved.files) && saved.files.length > 0) {
      loadExample({ entry: saved.entry, files: saved.files });
      return;
    }
  } catch {
    /* fall back to the example */
  }
  loadExample(examples[0]);
}

function currentFiles() {
  files[active].state = editor.getState();
  return files.map((f) => ({ path: f.path, source: f.state.doc.toString() }));
}

function save() {
  if (files.length === 0) return;
  localStorage.setItem(STORAGE_KEY, JSON.stringify({ entry, files: currentFiles() }));
}

function select(i) {
  files[active].state = editor.getState();
  active = i;
  editor.setState(files[i].state);
  editor.markErrors(errorMarks.get(files[i].path) ?? []);
  renderTabs();
  editor.focus();
}

function renderTabs() {
  const tabs = $("file-tabs");
  tabs.replaceChildren();
  files.forEach((f, i) => {
    const tab = el("div", { class: "tab", role: "presentation", "aria-selected": String(i === active) },
      el("button", {
        role: "tab", "data-testid": "file-tab", "data-path": f.path, "aria-selected": String(i === active),
        title: f.path === entry ? "entry file" : "", onclick: () => select(i),
        ondblclick: () => { entry = f.path; renderTabs(); save(); },
      }, f.path, f.path === entry ? el("span", { class: "entry-mark", text: "entry" }) : ""),
      el("button", { class: "close", "data-testid": "remove-file", "aria-label": `Remove ${f.path}`, onclick: () => removeFile(i) }, "×"));
    tabs.append(tab);
  });
  tabs.append(el("button", { "data-testid": "add-file", "aria-label": "Add a file", onclick: addFile }, "+"));
}

function addFile() {
  const path = prompt("New file path (e.g. src/util.ts)", "src/util.ts");
  if (!path) return;
  if (!PATH.test(path) || !EXT.test(path) || path.split("/").some((s) => s === "." || s === "..")) {
    systemLine(`"${path}" is not a valid path: relative, segments of A-Z a-z 0-9 . _ -, ending in .ts .tsx .js .jsx .mjs or .json`, "error");
    return;
  }
  if (files.some((f) => f.path === path)) {
    select(files.findIndex((f) => f.path === path));
    return;
  }
  files[active].state = editor.getState();
  files.push({ path, state: editor.newState("", path) });
  select(files.length - 1);
  save();
}

function removeFile(i) {
  if (files.length === 1) return;
  if (!confirm(`Remove ${files[i].path}?`)) return;
  files[active].state = editor.getState();
  const [removed] = files.splice(i, 1);
  if (removed.path === entry) entry = files[0].path;
  active = Math.min(active >= i && active > 0 ? active - 1 : active, files.length - 1);
  editor.setState(files[active].state);
  renderTabs();
  save();
}

// ---- running ----

const client = new PlaygroundClient();

client.addEventListener("state", (e) => {
  const { state, retryInMs } = e.detail;
  const conn = $("connection");
  conn.dataset.state = state;
  conn.textContent = state === "open" ? "connected" : state === "connecting" ? "connecting…" : retryInMs ? `disconnected, retrying in ${Math.round(retryInMs / 100) / 10}s` : "disconnected";
  $("run-button").disabled = state !== "open";
  if (state !== "open" && running) finish("connection lost");
});

client.addEventListener("hello", (e) => {
  const l = e.detail.limits;
  $("limits").textContent = `timeout ${l.timeoutMs.default} ms · ${l.runsPerSecond}/s burst ${l.runBurst} · output ${Math.round(l.maxOutputBytes / 1024)} KiB`;
});

function run() {
  if (client.state !== "open") return;
  const id = client.run({ files: currentFiles(), entry });
  if (!id) return;
  currentRun = id;
  running = true;
  facts = new Map();
  renderFacts();
  clearConsole();
  errorMarks = new Map();
  editor.markErrors([]);
  $("stop-button").disabled = false;
  setStatus("sending…");
}

function stop() {
  if (currentRun && running) client.cancel(currentRun);
}

function finish(text) {
  running = false;
  $("stop-button").disabled = true;
  setStatus(text);
}

function setStatus(text) {
  $("run-status").textContent = text;
}

const mine = (msg) => msg.id === currentRun;

client.addEventListener("queued", (e) => mine(e.detail) && setStatus(`queued (position ${e.detail.position})`));
client.addEventListener("started", (e) => mine(e.detail) && setStatus(`running (limit ${e.detail.timeoutMs} ms)…`));
client.addEventListener("log", (e) => {
  if (!mine(e.detail)) return;
  consoleLine(e.detail.level, e.detail.text, e.detail.t);
});
client.addEventListener("fact", (e) => {
  const m = e.detail;
  if (!mine(m)) return;
  if (m.deleted) facts.delete(m.key);
  else facts.set(m.key, m.value);
  renderFacts(m.key);
});
client.addEventListener("call", (e) => {
  const m = e.detail;
  if (!mine(m)) return;
  const line = consoleLine(m.ok ? "call" : "error", `→ host.${m.name} ${m.ok ? "ok" : "failed: " + m.error} (${m.ms.toFixed(1)} ms)`, m.t);
  line.dataset.testid = "call-line";
});
client.addEventListener("error", (e) => {
  const m = e.detail;
  if (!mine(m)) return;
  errorLine(m);
});
client.addEventListener("done", (e) => {
  const m = e.detail;
  if (!mine(m)) return;
  facts = new Map(Object.entries(m.facts || {}));
  renderFacts();
  let text = `${m.outcome} in ${m.durationMs.toFixed(1)} ms (run ${m.stats.runMs.toFixed(1)} ms, bundle ${m.stats.bundleMs.toFixed(1)} ms)`;
  if (m.outcome === "rate_limited" || m.outcome === "busy") text = `${m.outcome}: retry in ${Math.ceil(m.retryAfterMs)} ms`;
  if (m.output !== undefined) systemLine(`default export: ${JSON.stringify(m.output)}`);
  if (m.stats.truncated) systemLine("output was truncated at the limit", "warn");
  finish(text);
  $("run-status").dataset.outcome = m.outcome;
});
client.addEventListener("protocol_error", (e) => systemLine(`protocol error: ${e.detail.message}`, "error"));

// ---- console and facts ----

function clearConsole() {
  $("console").replaceChildren();
}

function consoleLine(level, text, t) {
  const pane = $("console");
  const stick = pane.scrollTop + pane.clientHeight >= pane.scrollHeight - 4;
  const line = el("div", { class: `line ${level}`, "data-testid": "console-line", "data-level": level },
    el("span", { class: "t", text: t !== undefined ? `${t.toFixed(1)} ms` : "" }),
    el("span", { class: "text", text }));
  pane.append(line);
  while (pane.childElementCount > 5000) pane.firstElementChild.remove();
  if (stick) pane.scrollTop = pane.scrollHeight;
  return line;
}

function systemLine(text, level = "system") {
  consoleLine(level === "system" ? "system" : level, text);
}

function errorLine(m) {
  const line = consoleLine("error", "", m.t);
  line.dataset.testid = "error-line";
  const textEl = line.querySelector(".text");
  textEl.append(`${m.kind}: ${m.message}`);
  if (m.file) {
    textEl.append(" at ");
    textEl.append(el("a", {
      class: "loc", "data-testid": "error-location", href: "#",
      onclick: (ev) => { ev.preventDefault(); openAt(m.file, m.line, m.column); },
    }, `${m.file}:${m.line}:${m.column}`));
    markError(m);
  }
  if (m.stack && m.stack.includes("\n")) textEl.append("\n" + m.stack.split("\n").slice(1).join("\n"));
}

function markError(m) {
  const marks = errorMarks.get(m.file) ?? [];
  marks.push({ line: m.line, message: m.message });
  errorMarks.set(m.file, marks);
  if (files[active]?.path === m.file) editor.markErrors(marks);
}

function openAt(path, line, column) {
  const i = files.findIndex((f) => f.path === path);
  if (i < 0) return;
  if (i !== active) select(i);
  editor.goTo(line, column);
}

function renderFacts(changedKey) {
  const body = $("facts");
  if (facts.size === 0) {
    body.replaceChildren(el("tr", {}, el("td", { class: "empty", text: "no facts yet" })));
    return;
  }
  const rows = [];
  for (const [k, v] of facts) {
    const row = el("tr", { "data-testid": "fact", "data-key": k, class: k === changedKey ? "changed" : "" },
      el("td", { class: "key", text: k }),
      el("td", { class: "value", "data-testid": `fact-value`, text: JSON.stringify(v) }));
    rows.push(row);
  }
  body.replaceChildren(...rows);
}

// ---- wiring ----

$("run-button").addEventListener("click", run);
$("stop-button").addEventListener("click", stop);
$("clear-console").addEventListener("click", clearConsole);
const picker = $("examples");
examples.forEach((ex, i) => picker.append(el("option", { value: String(i), text: ex.name })));
picker.addEventListener("change", () => {
  if (picker.value === "") return;
  loadExample(examples[Number(picker.value)]);
  picker.value = "";
});
document.addEventListener("keydown", (e) => {
  if (e.key === "Enter" && (e.ctrlKey || e.metaKey) && !e.defaultPrevented) {
    e.preventDefault();
    run();
  }
});

restore();
renderFacts();
document.body.dataset.ready = "true";
