// The /embed page: a compact editor and console for one example, framed by
// a docs page (static/embed.js writes the iframe). It reads:
//
//   fragment  #code=<files>    the files, packed as the playground's share
//                              links pack them (app/files.js encodeFiles)
//   query     readonly=1       the files cannot be edited
//             autorun=1        run once as soon as the session is open, when framed
//                              (top-level it does not: Run is pressed)
//             hidden=a.ts,b.ts files sent with every run but not shown
//                              (a preamble the example imports)
//             theme=light|dark colours (default: the system's)
//             id=<string>      echoed in every message to the host page
//
// postMessage API (see docs/editor.md): the host page sends
// { type: "playground:run" } to run; the embed sends
// { type: "playground:ready", id } once connected and
// { type: "playground:result", id, outcome, durationMs, logs, errors, facts, output }
// after each run. Messages are only taken from the framing window.
import { createEditor } from "./editor.bundle.js";
import { PlaygroundClient } from "./client.js";
import { $, el } from "./app/dom.js";
import { readShared, validPath } from "./app/share.js";
import { appendLog, callLine, clearConsole, configureConsole, errorLine, systemLine } from "./app/console.js";

const q = new URLSearchParams(location.search);
const readOnly = q.get("readonly") === "1" || q.get("readonly") === "true";
// Autorun only when framed (by an origin -embed-origins allows: the CSP's
// frame-ancestors keeps others from framing at all): opened top-level, a
// link would run a stranger's code at once from the visitor's IP.
const autorunAsked = q.get("autorun") === "1" || q.get("autorun") === "true";
const autorun = autorunAsked && window.parent !== window;
const hidden = new Set((q.get("hidden") ?? "").split(",").map((s) => s.trim()).filter(Boolean));
const embedId = (q.get("id") ?? "").slice(0, 100);

const host = window.parent !== window ? window.parent : null;
const post = (msg) => host?.postMessage({ ...msg, id: embedId }, "*");

let files = []; // [{ path, source, hidden, state }]
let entry = "";
let active = -1;
let current = null; // { id, logs, errors } of the shown run

const editor = createEditor($("editor"), {
  readOnly,
  onChange: () => {},
  onRun: () => run(),
  info: () => ({ modules: hello?.modules ?? ["playground"], host: hello?.host ?? [] }),
});
configureConsole({
  openAt: (path, line, column) => {
    const i = files.findIndex((f) => f.path === path && !f.hidden);
    if (i < 0) return;
    show(i);
    editor.goTo(line, column);
  },
  markError: (path, line, message) => {
    const f = files.find((x) => x.path === path);
    if (!f) return;
    f.marks.push({ line, message });
    if (files[active] === f) editor.markErrors(f.marks);
  },
});

const visible = () => files.filter((f) => !f.hidden);

function show(i) {
  if (active >= 0) files[active].state = editor.getState();
  active = i;
  editor.setState(files[i].state);
  editor.markErrors(files[i].marks);
  renderTabs();
}

function renderTabs() {
  const shown = visible();
  $("file-tabs").replaceChildren(...(shown.length < 2 ? [] : shown.map((f) => {
    const i = files.indexOf(f);
    return el("button", { class: i === active ? "embed-tab selected" : "embed-tab", "data-testid": "file-tab", "aria-current": i === active ? "true" : undefined, onclick: () => show(i) }, f.path);
  })));
}

function currentFiles() {
  if (active >= 0) files[active].state = editor.getState();
  return files.map((f) => ({ path: f.path, source: f.state.doc.toString() }));
}

async function load() {
  const m = /^#code=([A-Za-z0-9_-]+)$/.exec(location.hash);
  const { data, error } = m ? await readShared(m[1]) : { error: "no example: the link has no #code= fragment" };
  if (!data) {
    systemLine(m && error === "the share link could not be read" ? "the example's files could not be read from the link" : error, "error");
    return false;
  }
  if (autorunAsked && !autorun) systemLine("autorun is off: this page is not framed by a docs page; press Run to run the example", "warn");
  for (const p of hidden) if (!validPath(p) || !data.files.some((f) => f.path === p)) systemLine(`hidden file ${p} is not one of the example's files`, "warn");
  files = data.files.map((f) => ({ path: f.path, hidden: hidden.has(f.path), state: editor.newState(f.source, f.path), marks: [] }));
  entry = data.files.some((f) => f.path === data.entry) ? data.entry : data.files[0].path;
  const first = files.findIndex((f) => f.path === entry && !f.hidden);
  show(first >= 0 ? first : Math.max(0, files.findIndex((f) => !f.hidden)));
  $("open-in-playground").href = `/#code=${m[1]}`;
  return true;
}

const client = new PlaygroundClient();
let hello = null;
let loaded = false;
let ranOnce = false;

function run() {
  if (!loaded || client.state !== "open") return;
  for (const f of files) f.marks = [];
  editor.markErrors([]);
  const id = client.run({ files: currentFiles(), entry });
  if (!id) return;
  current = { id, logs: [], errors: [] };
  clearConsole();
  $("run-status").textContent = "running…";
  delete $("run-status").dataset.outcome;
}

const mine = (m) => current && m.id === current.id;
client.addEventListener("state", (e) => {
  $("run-button").disabled = e.detail.state !== "open" || !loaded;
  if (e.detail.state !== "open" && current) {
    $("run-status").textContent = "connection lost";
    current = null;
  }
});
client.addEventListener("hello", (e) => {
  hello = e.detail;
  post({ type: "playground:ready" });
  if (autorun && loaded && !ranOnce) {
    ranOnce = true;
    run();
  }
});
client.addEventListener("log", (e) => {
  if (!mine(e.detail)) return;
  current.logs.push({ level: e.detail.level, text: e.detail.text });
  appendLog(e.detail);
});
// A host call is two messages: the line is written when it settles.
client.addEventListener("call", (e) => mine(e.detail) && !e.detail.pending && callLine(e.detail));
client.addEventListener("started", (e) => { if (mine(e.detail) && current) current.mode = e.detail.mode; });
client.addEventListener("error", (e) => {
  if (!mine(e.detail)) return;
  const { kind, message, file, line, column } = e.detail;
  current.errors.push({ kind, message, file, line, column });
  errorLine(e.detail);
});
client.addEventListener("done", (e) => {
  const m = e.detail;
  if (!mine(m)) return;
  if (m.output !== undefined) systemLine(`${current?.mode === "script" ? "output" : "default export"}: ${JSON.stringify(m.output)}`);
  $("run-status").textContent = `${m.outcome} in ${m.durationMs.toFixed(1)} ms`;
  $("run-status").dataset.outcome = m.outcome;
  post({ type: "playground:result", outcome: m.outcome, durationMs: m.durationMs, logs: current.logs, errors: current.errors, facts: m.facts ?? {}, output: m.output });
  current = null;
});

window.addEventListener("message", (e) => {
  if (!host || e.source !== host || typeof e.data !== "object" || e.data === null) return;
  if (e.data.type === "playground:run") run();
});
$("run-button").addEventListener("click", run);
document.addEventListener("keydown", (e) => {
  if (e.key === "Enter" && (e.ctrlKey || e.metaKey) && !e.defaultPrevented) {
    e.preventDefault();
    run();
  }
});

loaded = await load();
$("run-button").disabled = client.state !== "open" || !loaded;
if (autorun && loaded && hello && !ranOnce) {
  ranOnce = true;
  run();
}
document.body.dataset.ready = "true";
