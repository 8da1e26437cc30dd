// The DevTools panels' own controls, shared by the page and the watch
// window: the tabs, the console's filters and Clear, the timeline slider.
import { $ } from "./dom.js";
import { applyFilters, clearConsole } from "./console.js";
import { renderTimeline, showAt } from "./timeline.js";

/** showPanel shows the DevTools panel named name (console, problems, timeline, calls, run). */
export function showPanel(name) {
  for (const tab of document.querySelectorAll(".devtabs [role=tab]")) tab.setAttribute("aria-selected", String(tab.dataset.panel === name));
  for (const panel of document.querySelectorAll(".devtools .panel")) panel.hidden = panel.dataset.panel !== name;
  if (name === "timeline") renderTimeline();
}

/** wirePanels connects the panels' controls; call it once. */
export function wirePanels() {
  for (const tab of document.querySelectorAll(".devtabs [role=tab]")) tab.addEventListener("click", () => showPanel(tab.dataset.panel));
  $("clear-console").addEventListener("click", clearConsole);
  $("console-filter").addEventListener("input", applyFilters);
  $("level-filters").addEventListener("change", applyFilters);
  $("timeline-slider").addEventListener("input", showAt);
}
