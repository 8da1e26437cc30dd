// The Console panel: log lines with their time, expandable value previews,
// errors linked to their source location, level and text filters. Program
// output is inserted as text, never as HTML.
import { $, el } from "./dom.js";
import { isExpandable, render, children, format } from "./preview.js";

const MAX_LINES = 2000; // console lines kept in the DOM; the timeline keeps all
const LEVELS = ["log", "info", "warn", "error", "debug"];

let hooks = { openAt: () => {}, markError: () => {} };

/**
 * configureConsole sets what error lines call: openAt(path, line, column)
 * when a location link is clicked, markError(path, line, message) for each
 * located error.
 */
export function configureConsole(h) {
  hooks = { ...hooks, ...h };
}

let shownLines = 0; // .line elements in the console pane

// Console lines are queued and attached once per animation frame, so a
// flood of output costs one layout per frame, not one per line.
let pendingLines = [];
let consoleFrame = 0;

export function clearConsole() {
  $("console").replaceChildren();
  shownLines = 0;
  pendingLines = [];
}

/** consoleLine queues a line of the given level (t in ms, optional) and returns it; fill its .text. */
export function consoleLine(level, t) {
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

/** appendLog shows a log message: its arguments as previews when they tell the whole line, else its text. */
export function appendLog(m) {
  const line = consoleLine(m.level, m.t);
  const text = line.querySelector(".text");
  line.dataset.search = m.text.toLowerCase();
  const args = m.args || [];
  const fmt = typeof args[0] === "string" && args[0].includes("%");
  if (args.some(isExpandable) && !fmt && format(args) === m.text) {
    // Each argument as a console shows it; objects expand on demand.
    args.forEach((a, i) => text.append(i > 0 ? " " : "", previewNode(a, true)));
  } else {
    text.textContent = m.text;
  }
}

/** systemLine shows a line of the page's own (not the program's). */
export function systemLine(text, level = "system") {
  const line = consoleLine(level);
  line.querySelector(".text").textContent = text;
  line.dataset.search = text.toLowerCase();
}

/** errorLine shows a run's error event, its location a link into the editor. */
export function errorLine(m) {
  const line = consoleLine("error", m.t);
  line.dataset.testid = "error-line";
  const textEl = line.querySelector(".text");
  textEl.append(`${m.kind}: ${m.message}`);
  if (m.file) {
    textEl.append(" at ", el("a", {
      class: "loc", "data-testid": "error-location", href: "#",
      onclick: (ev) => { ev.preventDefault(); hooks.openAt(m.file, m.line, m.column); },
    }, `${m.file}:${m.line}:${m.column}`));
    hooks.markError(m.file, m.line, m.message);
  }
  if (m.stack && m.stack.includes("\n")) textEl.append("\n" + m.stack.split("\n").slice(1).join("\n"));
  line.dataset.search = textEl.textContent.toLowerCase();
}

let filterText = "";
let filterLevels = new Set(LEVELS);

function applyFilter(line) {
  const level = line.dataset.level;
  const levelOK = !LEVELS.includes(level) || filterLevels.has(level);
  const textOK = filterText === "" || (line.dataset.search ?? line.textContent.toLowerCase()).includes(filterText);
  line.hidden = !(levelOK && textOK);
}

/** applyFilters reads the filter box and level boxes and applies them to every line. */
export function applyFilters() {
  filterText = $("console-filter").value.trim().toLowerCase();
  filterLevels = new Set([...$("level-filters").querySelectorAll("input:checked")].map((i) => i.value));
  for (const line of $("console").querySelectorAll(".line")) applyFilter(line);
}

// previewNode shows a preview; objects are a <details> whose children are
// built only when it is first opened, so large values cost nothing until then.
function previewNode(p, top = false) {
  if (!isExpandable(p)) return el("span", { class: `v ${typeof p === "string" && !top ? "s" : ""}`, text: render(p, top) });
  const details = el("details", { class: "v tree" }, el("summary", { text: render(p) }));
  details.addEventListener("toggle", () => {
    if (!details.open || details.dataset.filled) return;
    details.dataset.filled = "1";
    for (const [k, v] of children(p)) {
      details.append(el("div", { class: "kv" }, k ? el("span", { class: "k", text: `${k}: ` }) : "", previewNode(v)));
    }
  });
  return details;
}
