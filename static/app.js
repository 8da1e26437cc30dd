// The playground page: files in tabs, a CodeMirror editor, run options,
// and the DevTools panel (console, timeline with time travel, host calls,
// run details) fed by the WebSocket session through client.js. Program
// output is always inserted as text (textContent), never as HTML.
import { createEditor } from "./editor.bundle.js";
import { PlaygroundClient } from "./client.js";
import { examples } from "./examples.js";

const $ = (id) => document.querySelector(`[data-testid="${id}"]`);
const el = (tag, props = {}, ...children) => {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(props)) {
    if (v === undefined || v === null || v === false) continue;
    if (k === "class") node.className = v;
    else if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
    else if (k === "text") node.textContent = v;
    else node.setAttribute(k, v === true ? "" : v);
  }
  node.append(...children.filter((c) => c !== undefined && c !== null && c !== ""));
  return node;
};

const STORAGE_KEY = "playground.files.v1";
const EXT = /\.(ts|tsx|js|jsx|mjs|json)$/;
const PATH = /^(?!\/)(?:[A-Za-z0-9._-]+\/)*[A-Za-z0-9._-]+$/;
const MAX_LINES = 2000; // console lines kept in the DOM; the timeline keeps all
const LEVELS = ["log", "info", "warn", "error", "debug"];

// ---- files ----

// files: [{ path, state }] where state is the file's CodeMirror EditorState.
const files = [];
let active = 0;
let entry = "src/main.ts";
let errorMarks = new Map(); // path -> [{ line, message }] of the shown run

const editor = createEditor(document.getElementById("editor"), {
  onChange: () => {
    save();
    scheduleAutoRun();
  },
  onRun: () => run(),
  info: () => ({ modules: hello?.modules ?? ["playground"], host: hello?.host ?? [] }),
});

function validPath(path) {
  return PATH.test(path) && EXT.test(path) && !path.split("/").some((s) => s === "." || s === "..");
}

function loadFiles({ entry: e, files: fs }) {
  files.length = 0;
  for (const f of fs) files.push({ path: f.path, state: editor.newState(f.source, f.path) });
  entry = fs.some((f) => f.path === e) ? e : fs[0].path;
  active = Math.max(0, files.findIndex((f) => f.path === entry));
  editor.setState(files[active].state);
  renderTabs();
  save();
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
  if (i < 0 || i >= files.length) return;
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
    const selected = i === active;
    tabs.append(el("div", { class: "tab", role: "presentation", "aria-selected": String(selected) },
      el("button", {
        role: "tab", "data-testid": "file-tab", "data-path": f.path, "aria-selected": String(selected),
        tabindex: selected ? "0" : "-1", onclick: () => select(i),
      }, f.path, f.path === entry ? el("span", { class: "entry-mark", "data-testid": "entry-mark", text: "entry" }) : ""),
      selected && f.path !== entry ? el("button", { class: "icon", "data-testid": "set-entry", title: "Make this the entry file", "aria-label": `Make ${f.path} the entry file`, onclick: () => setEntry(f.path) }, "★") : "",
      selected ? el("button", { class: "icon", "data-testid": "rename-file", title: "Rename", "aria-label": `Rename ${f.path}`, onclick: () => renameFile(i) }, "✎") : "",
      el("button", { class: "icon close", "data-testid": "remove-file", "aria-label": `Remove ${f.path}`, onclick: () => removeFile(i) }, "×")));
  });
  tabs.append(el("button", { class: "icon", "data-testid": "add-file", "aria-label": "Add a file", title: "Add a file", onclick: addFile }, "+"));
}

function setEntry(path) {
  entry = path;
  renderTabs();
  save();
}

function askPath(message, initial) {
  const path = prompt(message, initial);
  if (!path) return null;
  if (!validPath(path)) {
    systemLine(`"${path}" is not a valid path: relative, segments of A-Z a-z 0-9 . _ -, ending in .ts .tsx .js .jsx .mjs or .json`, "error");
    return null;
  }
  return path;
}

function addFile() {
  const path = askPath("New file path (e.g. src/util.ts)", "src/util.ts");
  if (!path) return;
  if (files.some((f) => f.path === path)) return select(files.findIndex((f) => f.path === path));
  files[active].state = editor.getState();
  files.push({ path, state: editor.newState("", path) });
  select(files.length - 1);
  save();
}

function renameFile(i) {
  const old = files[i].path;
  const path = askPath(`Rename ${old} to`, old);
  if (!path || path === old) return;
  if (files.some((f) => f.path === path)) {
    systemLine(`${path} already exists`, "error");
    return;
  }
  files[active].state = editor.getState();
  files[i] = { path, state: editor.newState(files[i].state.doc.toString(), path) };
  if (entry === old) entry = path;
  if (i === active) editor.setState(files[i].state);
  renderTabs();
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

// ---- sharing ----

const b64url = {
  encode(bytes) {
    let s = "";
    for (let i = 0; i < bytes.length; i += 0x8000) s += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
    return btoa(s).replaceAll("+", "-").replaceAll("/", "_").replace(/=+$/, "");
  },
  decode: (s) => Uint8Array.from(atob(s.replaceAll("-", "+").replaceAll("_", "/")), (c) => c.charCodeAt(0)),
};

async function pipe(bytes, stream) {
  return new Uint8Array(await new Response(new Blob([bytes]).stream().pipeThrough(stream)).arrayBuffer());
}

async function shareURL() {
  const json = new TextEncoder().encode(JSON.stringify({ entry, files: currentFiles() }));
  const packed = await pipe(json, new CompressionStream("deflate-raw"));
  return `${location.origin}${location.pathname}#code=${b64url.encode(packed)}`;
}

async function fromHash() {
  const m = /^#code=([A-Za-z0-9_-]+)$/.exec(location.hash);
  if (!m) return null;
  try {
    const json = await pipe(b64url.decode(m[1]), new DecompressionStream("deflate-raw"));
    const data = JSON.parse(new TextDecoder().decode(json));
    if (Array.isArray(data.files) && data.files.length > 0 && data.files.every((f) => validPath(f.path) && typeof f.source === "string")) return data;
  } catch {
    /* a broken link: fall back */
  }
  systemLine("the share link could not be read; showing your saved files", "warn");
  return null;
}

$("share-button").addEventListener("click", async () => {
  const url = await shareURL();
  $("share-url").value = url;
  $("share-panel").hidden = false;
  $("share-url").select();
  navigator.clipboard?.writeText(url).catch(() => {});
});
$("share-close").addEventListener("click", () => ($("share-panel").hidden = true));

$("download-button").addEventListener("click", () => {
  const blob = new Blob([JSON.stringify({ entry, files: currentFiles() }, null, 2)], { type: "application/json" });
  const a = el("a", { href: URL.createObjectURL(blob), download: "playground-files.json" });
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(a.href), 1000);
});

// ---- running ----

const client = new PlaygroundClient();
let hello = null;
let current = null; // the run whose events are shown
let autoRunTimer = 0;
let countdown = 0;

function newRun(id) {
  return { id, timeline: [], facts: new Map(), calls: [], done: null, running: true };
}

client.addEventListener("state", (e) => {
  const { state, retryInMs } = e.detail;
  const conn = $("connection");
  conn.dataset.state = state;
  conn.textContent = state === "open" ? "connected" : state === "connecting" ? "connecting…" : retryInMs ? `disconnected, retrying in ${(retryInMs / 1000).toFixed(1)}s` : "disconnected";
  $("run-button").disabled = state !== "open";
  if (state !== "open" && current?.running) finish("connection lost: the run's result is unknown");
});

client.addEventListener("hello", (e) => {
  hello = e.detail;
  const l = hello.limits;
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

function run() {
  if (client.state !== "open") return;
  const input = readInput();
  if (!input.ok) return;
  clearTimeout(autoRunTimer);
  const id = client.run({
    files: currentFiles(), entry, input: input.value,
    timeoutMs: Number($("timeout").value) || undefined,
    deterministic: $("deterministic").checked || undefined,
  });
  if (!id) return;
  current = newRun(id);
  if (!$("preserve-log").checked) clearConsole();
  else systemLine(`— run ${id} —`);
  errorMarks = new Map();
  editor.markErrors([]);
  renderFacts();
  renderCalls();
  renderTimeline();
  renderRunInfo();
  stopCountdown();
  $("stop-button").disabled = false;
  setStatus("sending…");
}

function scheduleAutoRun() {
  if (!$("auto-run").checked) return;
  clearTimeout(autoRunTimer);
  autoRunTimer = setTimeout(run, 600);
}

function stop() {
  if (current?.running) client.cancel(current.id);
}

function finish(text, outcome) {
  if (current) current.running = false;
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

const mine = (msg) => current && msg.id === current.id;

client.addEventListener("message", (e) => {
  const m = e.detail;
  if (!mine(m) || m.type === "done") return;
  if (TIMELINE_KINDS.has(m.type)) current.timeline.push(m);
  if (m.type === "fact") {
    if (m.deleted) current.facts.delete(m.key);
    else current.facts.set(m.key, m.value);
    renderFacts(m.key);
  }
  renderTimeline(true);
});
client.addEventListener("queued", (e) => mine(e.detail) && setStatus(`queued: position ${e.detail.position}`));
client.addEventListener("started", (e) => mine(e.detail) && setStatus(`running (limit ${e.detail.timeoutMs} ms)…`));
client.addEventListener("log", (e) => {
  if (!mine(e.detail)) return;
  appendLog(e.detail);
});
client.addEventListener("call", (e) => {
  const m = e.detail;
  if (!mine(m)) return;
  current.calls.push(m);
  const line = consoleLine(m.ok ? "call" : "error", m.t);
  line.dataset.testid = "call-line";
  line.querySelector(".text").textContent = `→ host.${m.name} ${m.ok ? "ok" : "failed: " + m.error} (${m.ms.toFixed(1)} ms)`;
  renderCalls();
});
client.addEventListener("error", (e) => {
  const m = e.detail;
  if (!mine(m)) return;
  errorLine(m);
});
client.addEventListener("done", (e) => {
  const m = e.detail;
  if (!mine(m)) return;
  current.done = m;
  current.facts = new Map(Object.entries(m.facts || {}));
  renderFacts();
  renderRunInfo();
  renderTimeline();
  if (m.output !== undefined) systemLine(`default export: ${JSON.stringify(m.output)}`);
  if (m.stats.truncated) systemLine("output was truncated at the limit: later output was not kept", "warn");
  if (m.outcome === "rate_limited" || m.outcome === "busy") {
    startCountdown(m.outcome, m.retryAfterMs ?? 1000);
    return;
  }
  finish(`${m.outcome} in ${m.durationMs.toFixed(1)} ms (run ${m.stats.runMs.toFixed(1)} ms, bundle ${m.stats.bundleMs.toFixed(1)} ms)`, m.outcome);
});
client.addEventListener("protocol_error", (e) => systemLine(`protocol error: ${e.detail.message}`, "error"));

// ---- console ----

let shownLines = 0; // .line elements in the console pane

function clearConsole() {
  $("console").replaceChildren();
  shownLines = 0;
  pendingLines = [];
}

// Console lines are queued and attached once per animation frame, so a
// flood of output costs one layout per frame, not one per line.
let pendingLines = [];
let consoleFrame = 0;

function consoleLine(level, t) {
  const line = el("div", { class: `line ${level}`, "data-testid": "console-line", "data-level": level },
    el("span", { class: "t", text: t !== undefined ? `${t.toFixed(1)} ms` : "" }),
    el("span", { class: "text" }));
  pendingLines.push(line);
  if (!consoleFrame) consoleFrame = requestAnimationFrame(flushConsole);
  return line;
}

function flushConsole() {
  consoleFrame = 0;
  const pane = $("console");
  const stick = pane.scrollTop + pane.clientHeight >= pane.scrollHeight - 4;
  let lines = pendingLines;
  pendingLines = [];
  let over = shownLines + lines.length - MAX_LINES;
  if (over > 0) {
    let notice = pane.querySelector(".dropped");
    if (!notice) {
      notice = el("div", { class: "dropped", "data-testid": "console-dropped" });
      pane.prepend(notice);
    }
    notice.dataset.count = String(Number(notice.dataset.count || 0) + over);
    notice.textContent = `${notice.dataset.count} earlier lines are not shown (the timeline keeps them all)`;
    const skip = Math.min(over, lines.length - MAX_LINES > 0 ? lines.length - MAX_LINES : 0);
    lines = lines.slice(skip);
    over -= skip;
    while (over-- > 0) {
      pane.querySelector(".line")?.remove();
      shownLines--;
    }
  }
  for (const line of lines) applyFilter(line);
  pane.append(...lines);
  shownLines += lines.length;
  if (stick) pane.scrollTop = pane.scrollHeight;
}

function appendLog(m) {
  const line = consoleLine(m.level, m.t);
  const text = line.querySelector(".text");
  line.dataset.search = m.text.toLowerCase();
  if ((m.args || []).some(isExpandable)) {
    // Each argument as a console shows it; objects expand on demand.
    const fmt = typeof m.args[0] === "string" && m.args[0].includes("%");
    if (fmt) text.append(m.text);
    else m.args.forEach((a, i) => text.append(i > 0 ? " " : "", previewNode(a, true)));
  } else {
    text.textContent = m.text;
  }
}

function systemLine(text, level = "system") {
  const line = consoleLine(level);
  line.querySelector(".text").textContent = text;
  line.dataset.search = text.toLowerCase();
}

function errorLine(m) {
  const line = consoleLine("error", m.t);
  line.dataset.testid = "error-line";
  const textEl = line.querySelector(".text");
  textEl.append(`${m.kind}: ${m.message}`);
  if (m.file) {
    textEl.append(" at ", el("a", {
      class: "loc", "data-testid": "error-location", href: "#",
      onclick: (ev) => { ev.preventDefault(); openAt(m.file, m.line, m.column); },
    }, `${m.file}:${m.line}:${m.column}`));
    const marks = errorMarks.get(m.file) ?? [];
    marks.push({ line: m.line, message: m.message });
    errorMarks.set(m.file, marks);
    if (files[active]?.path === m.file) editor.markErrors(marks);
  }
  if (m.stack && m.stack.includes("\n")) textEl.append("\n" + m.stack.split("\n").slice(1).join("\n"));
  line.dataset.search = textEl.textContent.toLowerCase();
}

function openAt(path, line, column) {
  const i = files.findIndex((f) => f.path === path);
  if (i < 0) return;
  if (i !== active) select(i);
  editor.goTo(line, column);
}

let filterText = "";
let filterLevels = new Set(LEVELS);

function applyFilter(line) {
  const q = filterText;
  const levels = filterLevels;
  const level = line.dataset.level;
  const levelOK = !LEVELS.includes(level) || levels.has(level);
  const textOK = q === "" || (line.dataset.search ?? line.textContent.toLowerCase()).includes(q);
  line.hidden = !(levelOK && textOK);
}

function applyFilters() {
  filterText = $("console-filter").value.trim().toLowerCase();
  filterLevels = new Set([...$("level-filters").querySelectorAll("input:checked")].map((i) => i.value));
  for (const line of $("console").querySelectorAll(".line")) applyFilter(line);
}

// ---- value previews (PROTOCOL.md "Value previews") ----

function isExpandable(p) {
  return p !== null && typeof p === "object" && (Array.isArray(p) || ["object", "array", "map", "set", "error"].includes(p.$t) || !p.$t);
}

// render prints a preview as the server's text does (sandbox/format.go):
// strings bare at the top, quoted inside.
const IDENT = /^[A-Za-z_$][A-Za-z0-9_$]*$/;
const quote = (s) => "'" + s.replaceAll("\\", "\\\\").replaceAll("'", "\\'").replaceAll("\n", "\\n") + "'";
const list = (open, close, parts) => (parts.length === 0 ? open + close : `${open} ${parts.join(", ")} ${close}`);
function short(p, top = false) {
  if (p === null) return "null";
  if (typeof p === "string") return top ? p : quote(p);
  if (typeof p !== "object") return String(p);
  if (Array.isArray(p)) return list("[", "]", p.map((v) => short(v)));
  switch (p.$t) {
    case "undefined": return "undefined";
    case "bigint": return `${p.v}n`;
    case "symbol": case "number": case "regexp": case "date": return p.v;
    case "function": return p.name ? `[Function: ${p.name}]` : "[Function (anonymous)]";
    case "error": return p.stack || `${p.name}: ${p.message}`;
    case "circular": return `[Circular ${p.path}]`;
    case "more": return `... ${p.count} more`;
    case "empty": return `<${p.count} empty items>`;
    case "getter": return "[Getter]";
    case "array": return list("[", "]", p.items.map((v) => short(v)));
    case "set": return `Set(${p.values.length}) ` + list("{", "}", p.values.map((v) => short(v)));
    case "map": return `Map(${p.entries.length}) ` + list("{", "}", p.entries.map((e) => (Array.isArray(e) ? `${short(e[0])} => ${short(e[1])}` : short(e))));
    case "object": {
      const props = Object.entries(p.props || {}).map(([k, v]) => (k === "…" ? short(v) : `${IDENT.test(k) ? k : quote(k)}: ${short(v)}`));
      const head = p.class && p.class !== "Object" ? `${p.class} ` : "";
      return head + (props.length === 0 ? "{}" : list("{", "}", props));
    }
    default: return list("{", "}", Object.entries(p).map(([k, v]) => `${IDENT.test(k) ? k : quote(k)}: ${short(v)}`));
  }
}

function children(p) {
  if (Array.isArray(p)) return p.map((v, i) => [String(i), v]);
  switch (p.$t) {
    case "array": {
      let i = 0;
      return p.items.map((v) => (v && v.$t === "more") || (v && v.$t === "empty") ? ["", v] : [String(i++), v]);
    }
    case "object": return Object.entries(p.props || {});
    case "set": return p.values.map((v, i) => [String(i), v]);
    case "map": return p.entries.map((e) => Array.isArray(e) ? [`${short(e[0])} =>`, e[1]] : ["", e]);
    case "error": return [["stack", p.stack || ""]];
    case undefined: return Object.entries(p);
    default: return [];
  }
}

function previewNode(p, top = false) {
  if (!isExpandable(p)) return el("span", { class: `v ${typeof p === "string" && !top ? "s" : ""}`, text: short(p, top) });
  const details = el("details", { class: "v tree" }, el("summary", { text: short(p) }));
  details.addEventListener("toggle", () => {
    if (!details.open || details.dataset.filled) return;
    details.dataset.filled = "1";
    for (const [k, v] of children(p)) {
      details.append(el("div", { class: "kv" }, k ? el("span", { class: "k", text: `${k}: ` }) : "", previewNode(v)));
    }
  }, { once: false });
  return details;
}

// ---- facts, timeline, calls, run ----

function factRows(map, changedKey, testid) {
  if (map.size === 0) return [el("tr", {}, el("td", { class: "empty", text: "no facts yet" }))];
  return [...map].map(([k, v]) => el("tr", { "data-testid": testid, "data-key": k, class: k === changedKey ? "changed" : "" },
    el("td", { class: "key", text: k }),
    el("td", { class: "value", "data-testid": `${testid}-value`, text: JSON.stringify(v) })));
}

function renderFacts(changedKey) {
  $("facts").replaceChildren(...factRows(current?.facts ?? new Map(), changedKey, "fact"));
}

const TIMELINE_KINDS = new Set(["fact", "log", "call", "error"]);

function timelineEvents() {
  return current?.timeline ?? [];
}

let timelineFrame = 0;

// renderTimeline redraws the timeline; while events stream in it does so
// at most once a frame, and not at all while the panel is hidden.
function renderTimeline(live = false) {
  const evs = timelineEvents();
  const slider = $("timeline-slider");
  const atEnd = Number(slider.value) >= Number(slider.max);
  slider.max = String(evs.length);
  if (!live || atEnd) slider.value = String(evs.length);
  if (live) {
    if ($("timeline-axis").closest(".panel").hidden || timelineFrame) return;
    timelineFrame = requestAnimationFrame(() => {
      timelineFrame = 0;
      renderTimeline();
    });
    return;
  }
  const maxT = Math.max(1, ...evs.map((m) => m.t), current?.done?.t ?? 0);
  const step = Math.max(1, Math.ceil(evs.length / 2000)); // at most 2,000 marks on the axis
  const shown = [];
  for (let i = 0; i < evs.length; i += step) shown.push([evs[i], i]);
  $("timeline-axis").replaceChildren(...shown.map(([m, i]) => el("button", {
    class: `mark ${m.type} ${m.level ?? ""}`, "data-testid": "timeline-mark", "data-index": String(i + 1),
    style: `left: ${(m.t / maxT) * 100}%`, title: `${m.t.toFixed(1)} ms · ${m.type}${m.key ? " " + m.key : ""}${m.name ? " " + m.name : ""}`,
    "aria-label": `${m.type} at ${m.t.toFixed(1)} ms`, onclick: () => { slider.value = String(i + 1); showAt(); },
  })));
  showAt();
}

// showAt shows the facts as they were after the selected event, and the log up to it.
function showAt() {
  const evs = timelineEvents();
  const n = Number($("timeline-slider").value);
  const facts = new Map();
  const log = [];
  for (const m of evs.slice(0, n)) {
    if (m.type === "fact") m.deleted ? facts.delete(m.key) : facts.set(m.key, m.value);
    if (m.type === "log") log.push(el("div", { class: `line ${m.level}` }, el("span", { class: "t", text: `${m.t.toFixed(1)} ms` }), el("span", { class: "text", text: m.text })));
    if (m.type === "error") log.push(el("div", { class: "line error" }, el("span", { class: "t", text: `${m.t.toFixed(1)} ms` }), el("span", { class: "text", text: `${m.kind}: ${m.message}` })));
    if (m.type === "call") log.push(el("div", { class: "line call" }, el("span", { class: "t", text: `${m.t.toFixed(1)} ms` }), el("span", { class: "text", text: `→ host.${m.name} (${m.ms.toFixed(1)} ms)` })));
  }
  const at = n === 0 ? "before the first event" : `after event ${n} of ${evs.length}, at ${evs[n - 1].t.toFixed(1)} ms`;
  $("timeline-at").textContent = evs.length === 0 ? "no events yet" : `Facts and log ${at}`;
  $("timeline-facts").replaceChildren(...factRows(facts, undefined, "timeline-fact"));
  $("timeline-log").replaceChildren(...log.slice(-500));
  for (const mark of $("timeline-axis").children) mark.classList.toggle("past", Number(mark.dataset.index) <= n);
}

function renderCalls() {
  const calls = current?.calls ?? [];
  $("calls").replaceChildren(...(calls.length === 0 ? [el("tr", {}, el("td", { class: "empty", colspan: "4", text: "no host calls" }))] :
    calls.map((c) => el("tr", { "data-testid": "call-row", class: c.ok ? "" : "failed" },
      el("td", { text: `host.${c.name}` }),
      el("td", { text: (c.args ?? []).map((a) => JSON.stringify(a)).join(", ") }),
      el("td", { text: c.ms.toFixed(1) }),
      el("td", { text: c.ok ? (c.result === undefined ? "undefined" : JSON.stringify(c.result)) : `error: ${c.error}` })))));
}

function renderRunInfo() {
  const d = current?.done;
  const l = hello?.limits;
  const rows = [];
  const add = (k, v) => rows.push(el("dt", { text: k }), el("dd", { "data-testid": `run-${k.toLowerCase().replaceAll(" ", "-")}`, text: v }));
  if (!d) {
    add("Outcome", current ? "running…" : "no run yet");
  } else {
    add("Outcome", d.outcome + (d.timedOut ? " (timed out)" : ""));
    add("Duration", `${d.durationMs.toFixed(1)} ms`);
    add("Queue", `${d.stats.queueMs.toFixed(1)} ms`);
    add("Bundle", `${d.stats.bundleMs.toFixed(1)} ms`);
    add("Run", `${d.stats.runMs.toFixed(1)} ms`);
    add("Logs", String(d.stats.logs));
    add("Output bytes", `${d.stats.outputBytes}${d.stats.truncated ? " (truncated)" : ""}`);
    if (d.retryAfterMs !== undefined) add("Retry after", `${d.retryAfterMs} ms`);
  }
  if (l) {
    add("Time limit", `${$("timeout").value || l.timeoutMs.default} ms (${l.timeoutMs.min}–${l.timeoutMs.max})`);
    add("Memory limit", `${Math.round((l.memoryBytes ?? 0) / 1048576)} MiB`);
    add("Output limit", `${l.maxOutputBytes} bytes, ${l.maxEvents} events`);
    add("Rate limit", `${l.runsPerSecond} runs/s, burst ${l.runBurst}`);
  }
  $("run-info").replaceChildren(...rows);
}

// ---- layout ----

function showPanel(name) {
  for (const tab of document.querySelectorAll(".devtabs [role=tab]")) tab.setAttribute("aria-selected", String(tab.dataset.panel === name));
  for (const panel of document.querySelectorAll(".devtools .panel")) panel.hidden = panel.dataset.panel !== name;
  if (name === "timeline") renderTimeline();
}

for (const tab of document.querySelectorAll(".devtabs [role=tab]")) tab.addEventListener("click", () => showPanel(tab.dataset.panel));

function resizeTo(fraction) {
  const f = Math.min(0.8, Math.max(0.2, fraction));
  document.querySelector("main").style.gridTemplateColumns = `minmax(0, ${f}fr) 6px minmax(0, ${1 - f}fr)`;
  localStorage.setItem("playground.split", String(f));
}
$("splitter").addEventListener("pointerdown", (e) => {
  e.preventDefault();
  const move = (ev) => resizeTo(ev.clientX / window.innerWidth);
  const up = () => { window.removeEventListener("pointermove", move); window.removeEventListener("pointerup", up); };
  window.addEventListener("pointermove", move);
  window.addEventListener("pointerup", up);
});
$("splitter").addEventListener("keydown", (e) => {
  const f = Number(localStorage.getItem("playground.split") || 0.6);
  if (e.key === "ArrowLeft") resizeTo(f - 0.05);
  if (e.key === "ArrowRight") resizeTo(f + 0.05);
});

// ---- wiring ----

$("run-button").addEventListener("click", run);
$("stop-button").addEventListener("click", stop);
$("clear-console").addEventListener("click", clearConsole);
$("console-filter").addEventListener("input", applyFilters);
$("level-filters").addEventListener("change", applyFilters);
$("timeline-slider").addEventListener("input", showAt);
$("input").addEventListener("input", () => { $("input-error").textContent = ""; scheduleAutoRun(); });
const picker = $("examples");
examples.forEach((ex, i) => picker.append(el("option", { value: String(i), text: ex.name })));
picker.addEventListener("change", () => {
  if (picker.value === "") return;
  loadFiles(examples[Number(picker.value)]);
  picker.value = "";
});
document.addEventListener("keydown", (e) => {
  if (e.key === "Enter" && (e.ctrlKey || e.metaKey) && !e.defaultPrevented) {
    e.preventDefault();
    run();
  }
  if (e.altKey && (e.key === "ArrowRight" || e.key === "ArrowLeft")) {
    e.preventDefault();
    select((active + (e.key === "ArrowRight" ? 1 : files.length - 1)) % files.length);
  }
});

const split = Number(localStorage.getItem("playground.split"));
if (split) resizeTo(split);
const shared = await fromHash();
let saved = null;
try {
  saved = JSON.parse(localStorage.getItem(STORAGE_KEY) || "null");
} catch {
  /* ignore */
}
loadFiles(shared ?? (saved && Array.isArray(saved.files) && saved.files.length > 0 ? saved : examples[0]));
if (shared) history.replaceState(null, "", location.pathname);
renderFacts();
renderCalls();
renderRunInfo();
renderTimeline();
document.body.dataset.ready = "true";
