// The playground page: files in tabs, a CodeMirror editor, run options,
// and the DevTools panel (console, timeline with time travel, host calls,
// run details) fed by the WebSocket session through client.js. This file
// wires the modules in app/ together:
//
//   app/files.js       files, tabs, entry, saving, share links, download
//   app/connection.js  the session (a PlaygroundClient from client.js), runs,
//                      Watch and the recorded run's tape
//   app/follow.js      the routing of a run's events to the panels (also the
//                      watch window's, watch.js)
//   app/panels.js      the DevTools tabs, console filters, timeline slider
//   app/console.js     the Console panel (app/preview.js renders values)
//   app/facts.js       the Facts pane
//   app/timeline.js    the Timeline panel
//   app/calls.js       the Calls and Run panels
//   app/problems.js    the Problems panel (types from a web worker)
//
// Program output is always inserted as text (textContent), never as HTML.
import { createEditor, startTypeWorker, formatSource } from "./editor.bundle.js";
import { examples } from "./examples.js";
import { $, el } from "./app/dom.js";
import { state } from "./app/state.js";
import * as files from "./app/files.js";
import { sameFiles } from "./app/share.js";
import { run, stop, scheduleAutoRun, watch, replayTape } from "./app/connection.js";
import { configureConsole, systemLine } from "./app/console.js";
import { wirePanels } from "./app/panels.js";
import { renderFacts } from "./app/facts.js";
import { renderCalls, renderRunInfo } from "./app/calls.js";
import { renderTimeline } from "./app/timeline.js";
import { startProblems, scheduleProblems, setHost } from "./app/problems.js";
import { client } from "./app/connection.js";

const editor = createEditor(document.getElementById("editor"), {
  onChange: () => {
    files.save();
    scheduleAutoRun();
  },
  onRun: () => run(),
  onFormat: () => format(),
  info: () => ({ modules: state.hello?.modules ?? ["playground"], host: state.hello?.host ?? [] }),
});
files.useEditor(editor);
configureConsole({ openAt: files.openAt, markError: files.markError });
files.wireSharing();
files.setOnSave(scheduleProblems);

// ---- format, Vim, types ----

const VIM_KEY = "playground.vim";

async function format() {
  const [path] = [files.activePath()];
  try {
    const formatted = await formatSource(editor.getText(), path);
    if (formatted !== editor.getText()) editor.replaceText(formatted);
  } catch (err) {
    systemLine(`format: ${String(err.message ?? err).split("\n")[0]}`, "error");
  }
}
$("format-button").addEventListener("click", format);

$("vim-mode").checked = localStorage.getItem(VIM_KEY) === "on";
editor.setVim($("vim-mode").checked);
$("vim-mode").addEventListener("change", () => {
  localStorage.setItem(VIM_KEY, $("vim-mode").checked ? "on" : "off");
  editor.setVim($("vim-mode").checked);
});

// The type checker starts after the first hello (it needs the server's
// host functions) once the page is idle, so it never delays the page.
let typesStarted = false;
client.addEventListener("hello", (e) => {
  const extra = { hostGlobals: e.detail.hostGlobals ?? [], modules: e.detail.modules ?? [] };
  if (typesStarted) return setHost(e.detail.host ?? [], extra);
  typesStarted = true;
  const start = () => startProblems({
    start: startTypeWorker, host: e.detail.host ?? [], extra, files: files.currentFiles, openAt: files.openAt,
    useTypes: (w) => editor.useTypes(w),
  });
  (window.requestIdleCallback ?? setTimeout)(start, { timeout: 500 });
});

// ---- layout ----

function resizeTo(fraction) {
  const f = Math.min(0.8, Math.max(0.2, fraction));
  document.querySelector("main").style.gridTemplateColumns = `minmax(0, ${f}fr) 6px minmax(0, ${1 - f}fr)`;
  localStorage.setItem("playground.split", String(f));
  $("splitter").setAttribute("aria-valuenow", String(Math.round(f * 100)));
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
$("watch-button").addEventListener("click", watch);
$("replay-file").addEventListener("change", (e) => {
  const file = e.target.files?.[0];
  e.target.value = ""; // the same file again replays again
  if (file) replayTape(file);
});
wirePanels();
$("input").addEventListener("input", () => { $("input-error").textContent = ""; scheduleAutoRun(); });
const picker = $("examples");
examples.forEach((ex, i) => picker.append(el("option", { value: String(i), text: ex.name })));
picker.addEventListener("change", () => {
  if (picker.value === "") return;
  const ex = examples[Number(picker.value)];
  files.loadFiles(ex);
  if (ex.input !== undefined) $("input").value = JSON.stringify(ex.input, null, 2); // the example reads it as input
  picker.value = "";
});
document.addEventListener("keydown", (e) => {
  if (e.key === "Enter" && (e.ctrlKey || e.metaKey) && !e.defaultPrevented) {
    e.preventDefault();
    run();
  }
  if (e.altKey && (e.key === "ArrowRight" || e.key === "ArrowLeft")) {
    e.preventDefault();
    files.selectNext(e.key === "ArrowRight" ? 1 : -1);
  }
});

const split = Number(localStorage.getItem("playground.split"));
if (split) resizeTo(split);
let shared = await files.fromHash();
const saved = files.savedFiles();
// Opening a link must not silently replace the files this browser kept:
// ask first when they differ (declined: the saved files stay, the link's
// are not opened).
if (shared && saved && !sameFiles(shared, saved) &&
  !confirm(`Open the shared files (${shared.files.length})? They replace the ${saved.files.length} file(s) saved in this browser (download them first to keep a copy).`)) {
  shared = null;
  systemLine("kept the files saved in this browser; the share link's files were not opened", "warn");
}
files.loadFiles(shared ?? saved ?? examples[0]);
if (location.hash.startsWith("#code=")) history.replaceState(null, "", location.pathname);
renderFacts();
renderCalls();
renderRunInfo();
renderTimeline();
document.body.dataset.ready = "true";
document.body.dataset.readyMs = String(Math.round(performance.now())); // interactive, from navigation start
