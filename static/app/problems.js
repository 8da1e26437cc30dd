// The Problems panel: type errors of every file from the TypeScript
// language service in a web worker (../ts.worker.js, started lazily once
// the page is interactive). Type errors are shown, never enforced: a run
// does not wait for them. The editor underlines the open file's errors and
// shows hover types and completions through the same worker.
import { $, el } from "./dom.js";

const DEBOUNCE_MS = 300;

let worker = null;
let timer = 0;
let known = new Set(); // paths the worker holds
let first = true;
let hooks = { files: () => [], openAt: () => {} };

/**
 * startProblems starts the type worker through start(host, extra) (the
 * editor's startTypeWorker; extra is { hostGlobals, modules } from hello) and hands it to the editor; files() returns the
 * snippet's [{ path, source }], openAt(path, line, column) shows a problem.
 * It resolves once the worker is ready; a worker that fails to start is
 * reported in the panel, and the editor goes on without types.
 */
export async function startProblems({ start, host, extra = {}, files, openAt, useTypes }) {
  hooks = { files, openAt };
  const t0 = performance.now();
  $("types-status").textContent = "loading the type checker…";
  try {
    worker = await start(host, extra);
  } catch (err) {
    $("types-status").textContent = `the type checker could not start: ${err.message ?? err}`;
    return;
  }
  document.body.dataset.typesLoadMs = String(Math.round(performance.now() - t0));
  useTypes(worker);
  await refresh();
}

/** scheduleProblems rechecks every file shortly after the last change. */
export function scheduleProblems() {
  if (!worker) return;
  clearTimeout(timer);
  timer = setTimeout(refresh, DEBOUNCE_MS);
}

/** setHost tells the worker the server's host functions, host globals and modules (after a reconnect). */
export function setHost(host, extra = {}) {
  worker?.setHost(host, extra);
  scheduleProblems();
}

// refresh rechecks the files, one check at a time: a check sends the files
// as they are when it starts, so one that overlapped a newer one could
// leave the worker (and the panel) with older text. A change during a
// check runs one more after it.
let running = null;
let again = false;
function refresh() {
  if (running) {
    again = true;
    return running;
  }
  running = (async () => {
    try {
      do {
        again = false;
        await check();
      } while (again);
    } finally {
      running = null;
    }
  })();
  return running;
}

async function check() {
  const files = hooks.files();
  const paths = new Set(files.map((f) => "/" + f.path));
  for (const p of known) if (!paths.has(p)) await worker.deleteFile(p);
  for (const f of files) await worker.updateFile({ path: "/" + f.path, code: f.source });
  known = paths;
  const problems = await worker.problems([...paths]);
  if (first) {
    first = false;
    // Time to first diagnostic, from navigation start (docs/editor.md).
    document.body.dataset.typesReadyMs = String(Math.round(performance.now()));
  }
  render(problems, files);
}

function position(source, offset) {
  const before = source.slice(0, offset);
  const line = before.split("\n").length;
  return { line, column: offset - before.lastIndexOf("\n") };
}

function render(problems, files) {
  const sources = new Map(files.map((f) => ["/" + f.path, f.source]));
  const errors = problems.filter((p) => p.severity === "error").length;
  $("problem-count").textContent = problems.length ? String(problems.length) : "";
  $("problem-count").dataset.errors = String(errors);
  const count = (n, word) => `${n} ${word}${n === 1 ? "" : "s"}`;
  $("types-status").textContent = problems.length === 0 ? "No problems: types check"
    : `${count(errors, "error")}, ${count(problems.length - errors, "warning")} (runs are never blocked by them)`;
  $("problems").replaceChildren(...problems.map((p) => {
    const path = p.path.slice(1);
    const { line, column } = position(sources.get(p.path) ?? "", p.from);
    return el("li", { class: `problem ${p.severity}`, "data-testid": "problem", "data-severity": p.severity },
      el("a", { href: "#", "data-testid": "problem-location", onclick: (ev) => { ev.preventDefault(); hooks.openAt(path, line, column); } }, `${path}:${line}:${column}`),
      " ", el("span", { class: "message", text: p.message }));
  }));
}
