// The Facts pane: the current run's facts, the last changed one marked.
import { $, el } from "./dom.js";
import { state } from "./state.js";

/** factRows renders a facts map as table rows (testid names the row hook). */
export function factRows(map, changedKey, testid) {
  if (map.size === 0) return [el("tr", {}, el("td", { class: "empty", text: "no facts yet" }))];
  return [...map].map(([k, v]) => el("tr", { "data-testid": testid, "data-key": k, class: k === changedKey ? "changed" : "" },
    el("td", { class: "key", text: k }),
    el("td", { class: "value", "data-testid": `${testid}-value`, text: JSON.stringify(v) })));
}

export function renderFacts(changedKey) {
  $("facts").replaceChildren(...factRows(state.current?.facts ?? new Map(), changedKey, "fact"));
}
