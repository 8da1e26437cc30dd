// The Timeline panel: every fact, log, call and error of the run on an
// axis, and a slider that shows the facts and log as they were at a point.
import { $, el } from "./dom.js";
import { state } from "./state.js";
import { factRows } from "./facts.js";

/** TIMELINE_KINDS are the message types the timeline records. */
export const TIMELINE_KINDS = new Set(["fact", "log", "call", "error"]);

const events = () => state.current?.timeline ?? [];

let frame = 0;

// renderTimeline redraws the timeline; while events stream in it does so
// at most once a frame, and not at all while the panel is hidden.
export function renderTimeline(live = false) {
  const evs = events();
  const slider = $("timeline-slider");
  const atEnd = Number(slider.value) >= Number(slider.max);
  slider.max = String(evs.length);
  if (!live || atEnd) slider.value = String(evs.length);
  if (live) {
    if ($("timeline-axis").closest(".panel").hidden || frame) return;
    frame = requestAnimationFrame(() => {
      frame = 0;
      renderTimeline();
    });
    return;
  }
  const maxT = Math.max(1, ...evs.map((m) => m.t), state.current?.done?.t ?? 0);
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
export function showAt() {
  const evs = events();
  const n = Number($("timeline-slider").value);
  const facts = new Map();
  const log = [];
  const line = (cls, m, text) => el("div", { class: `line ${cls}` }, el("span", { class: "t", text: `${m.t.toFixed(1)} ms` }), el("span", { class: "text", text }));
  for (const m of evs.slice(0, n)) {
    if (m.type === "fact") m.deleted ? facts.delete(m.key) : facts.set(m.key, m.value);
    if (m.type === "log") log.push(line(m.level, m, m.text));
    if (m.type === "error") log.push(line("error", m, `${m.kind}: ${m.message}`));
    if (m.type === "call") log.push(line("call", m, `→ host.${m.name} (${m.ms.toFixed(1)} ms)`));
  }
  const at = n === 0 ? "before the first event" : `after event ${n} of ${evs.length}, at ${evs[n - 1].t.toFixed(1)} ms`;
  $("timeline-at").textContent = evs.length === 0 ? "no events yet" : `Facts and log ${at}`;
  $("timeline-facts").replaceChildren(...factRows(facts, undefined, "timeline-fact"));
  $("timeline-log").replaceChildren(...log.slice(-500));
  for (const mark of $("timeline-axis").children) mark.classList.toggle("past", Number(mark.dataset.index) <= n);
}
