// The Console panel, shown like a browser's DevTools console: log lines
// with their time; console.group nesting (indented, collapsible);
// console.table as a table; objects as trees built when first opened;
// repeated identical lines collapsed into one with a count; errors linked
// to their source location; level and text filters. Program output is
// inserted as text, never as HTML.
//
// The wire's log message has no group depth or table flag (docs/protocol.md
// "log"): the runtime indents a group's lines by two spaces per level and
// draws tables with box characters, so both are read back from the text
// (preview.js groupDepth, parseTable; checked against the Go golden file).
import { $, el } from "./dom.js";
import { isExpandable, render, children, format, groupDepth, unindent, parseTable } from "./preview.js";

const MAX_LINES = 2000; // console lines kept in the DOM; the timeline keeps all
const LEVELS = ["log", "info", "warn", "error", "debug"];
const SUMMARY_CHARS = 200; // a tree's one-line summary is cut here; opening it shows all

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

// Group and repeat tracking of the lines shown since the last clear.
let last = null; // { key, line, depth } of the last program log line, for repeats and headers
let depth = 0; // group depth of the last program line
let groups = []; // open group headers, outermost first: [{ depth, line }]

export function clearConsole() {
  $("console").replaceChildren();
  shownLines = 0;
  pendingLines = [];
  resetGroups();
}

function resetGroups() {
  last = null;
  depth = 0;
  groups = [];
}

/** callLine shows a host call of the program, at its current group depth. */
export function callLine(m) {
  last = null;
  const line = programLine(m.ok ? "call" : "error", m.t, depth);
  line.dataset.testid = "call-line";
  line.querySelector(".text").textContent = `→ host.${m.name} ${m.ok ? "ok" : "failed: " + m.error} (${m.ms.toFixed(1)} ms)`;
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

/**
 * appendLog shows a log message: a table for console.table, its arguments
 * as previews when they tell the whole line, else its text; nested as its
 * group is, or counted on the previous line when it repeats that line.
 */
export function appendLog(m) {
  const args = m.args || [];
  const rendered = format(args);
  const d = groupDepth(m.text, rendered);
  const key = `${m.level}\u0000${m.text}`;
  if (last && last.key === key && last.depth === d) {
    countRepeat(last.line);
    return;
  }
  // A line deeper than the previous program line opens a group under it.
  if (last && d > last.depth) openGroup(last.line, last.depth);
  const line = programLine(m.level, m.t, d);
  last = { key, line, depth: d };
  const text = line.querySelector(".text");
  line.dataset.search = m.text.toLowerCase();
  const body = unindent(m.text, d);
  const table = parseTable(body);
  const fmt = typeof args[0] === "string" && args[0].includes("%");
  if (table) {
    text.append(tableNode(table));
  } else if (args.some(isExpandable) && !fmt && rendered === body) {
    // Each argument as a console shows it; objects expand on demand.
    args.forEach((a, i) => text.append(i > 0 ? " " : "", previewNode(a, true)));
  } else {
    text.textContent = body;
  }
}

// programLine queues a line of the program's output at group depth d,
// closing the groups it is not inside and folding it if one of the groups
// it is inside is collapsed.
function programLine(level, t, d) {
  while (groups.length > 0 && groups.at(-1).depth >= d) groups.pop();
  depth = d;
  const line = consoleLine(level, t);
  line.dataset.depth = String(d);
  if (d > 0) line.style.setProperty("--depth", String(d));
  if (groups.some((g) => g.line.dataset.collapsed === "true")) line.classList.add("folded");
  return line;
}

// openGroup turns line (at group depth d) into a group header with a toggle.
function openGroup(line, d) {
  groups.push({ depth: d, line });
  if (line.dataset.group) return;
  line.dataset.group = "open";
  line.dataset.collapsed = "false";
  const toggle = el("button", {
    class: "group-toggle", "data-testid": "group-toggle", "aria-expanded": "true", "aria-label": "Collapse group",
    onclick: () => {
      const collapsed = line.dataset.collapsed !== "true";
      line.dataset.collapsed = String(collapsed);
      toggle.setAttribute("aria-expanded", String(!collapsed));
      toggle.setAttribute("aria-label", collapsed ? "Expand group" : "Collapse group");
      refold(line);
    },
  });
  line.querySelector(".text").prepend(toggle);
}

// refold shows or hides the lines inside header's group (and its inner
// groups) after the header was toggled; queued lines are folded as they come.
function refold(header) {
  const hd = Number(header.dataset.depth || 0);
  const stack = [{ depth: hd, collapsed: header.dataset.collapsed === "true" }];
  const after = [];
  for (let n = header.nextElementSibling; n; n = n.nextElementSibling) after.push(n);
  for (const n of [...after, ...pendingLines]) {
    if (!n.classList.contains("line")) continue;
    const d = Number(n.dataset.depth || 0);
    if (d <= hd) break;
    while (stack.at(-1).depth >= d) stack.pop();
    n.classList.toggle("folded", stack.some((g) => g.collapsed));
    if (n.dataset.group) stack.push({ depth: d, collapsed: n.dataset.collapsed === "true" });
  }
}

// countRepeat adds one to a line's repeat badge (DevTools' collapsed repeats).
function countRepeat(line) {
  let badge = line.querySelector(".repeat");
  if (!badge) {
    badge = el("span", { class: "repeat", "data-testid": "repeat-count", "data-count": "1" });
    line.querySelector(".t").after(badge);
  }
  const n = Number(badge.dataset.count) + 1;
  badge.dataset.count = String(n);
  badge.textContent = String(n);
  badge.title = `logged ${n} times in a row`;
}

function tableNode({ head, body }) {
  return el("table", { class: "console-table", "data-testid": "console-table" },
    el("thead", {}, el("tr", {}, ...head.map((h) => el("th", { scope: "col", text: h })))),
    el("tbody", {}, ...body.map((row) => el("tr", {}, ...row.map((c, i) => el(i === 0 ? "th" : "td", i === 0 ? { scope: "row", text: c } : { text: c }))))));
}

/** systemLine shows a line of the page's own (not the program's). */
export function systemLine(text, level = "system") {
  resetGroups();
  const line = consoleLine(level);
  line.querySelector(".text").textContent = text;
  line.dataset.search = text.toLowerCase();
}

/** errorLine shows a run's error event, its location a link into the editor. */
export function errorLine(m) {
  last = null;
  const line = programLine("error", m.t, depth);
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
  const summary = render(p);
  const details = el("details", { class: "v tree" },
    el("summary", { text: summary.length > SUMMARY_CHARS ? summary.slice(0, SUMMARY_CHARS) + "…" : summary, title: summary.length > SUMMARY_CHARS ? "open to see every property" : undefined }));
  details.addEventListener("toggle", () => {
    if (!details.open || details.dataset.filled) return;
    details.dataset.filled = "1";
    for (const [k, v] of children(p)) {
      details.append(el("div", { class: "kv" }, k ? el("span", { class: "k", text: `${k}: ` }) : "", previewNode(v)));
    }
  });
  return details;
}
