// Following one run: the routing of a run's messages (from the page's own
// run, or a run watched in another window) to the panels — Console, Facts,
// Timeline, Calls and Run. The page (app/connection.js) and the watch window
// (watch.js) both use it, so a watched run renders exactly as its owner's.
import { state } from "./state.js";
import { appendLog, callLine, errorLine, systemLine } from "./console.js";
import { renderFacts } from "./facts.js";
import { recordCall, renderCalls, renderRunInfo } from "./calls.js";
import { renderTimeline, TIMELINE_KINDS } from "./timeline.js";

/**
 * follow routes client's run messages whose id is state.current.id to the
 * panels. ui tells the caller what happened: started(m) when the run
 * starts, status(text) for queue positions, done(m) once its done arrived
 * and the panels show the end.
 * @param {EventTarget} client a PlaygroundClient (client.js)
 * @param {{ started?: (m: object) => void, status?: (text: string) => void, done?: (m: object) => void }} ui
 */
export function follow(client, ui) {
  const mine = (m) => state.current && m.id === state.current.id;
  client.addEventListener("message", (e) => {
    const m = e.detail;
    if (!mine(m) || m.type === "done") return;
    if (TIMELINE_KINDS.has(m.type) && !m.pending) state.current.timeline.push(m); // a call enters when it settles
    if (m.type === "fact") {
      if (m.deleted) state.current.facts.delete(m.key);
      else state.current.facts.set(m.key, m.value);
      renderFacts(m.key);
    }
    renderTimeline(true);
  });
  client.addEventListener("queued", (e) => mine(e.detail) && ui.status?.(`queued: position ${e.detail.position}`));
  client.addEventListener("started", (e) => {
    if (!mine(e.detail)) return;
    state.current.mode = e.detail.mode; // "script" or "module" (absent from older servers)
    state.current.watch = e.detail.watch; // the run's watch token (absent when the server offers no watching)
    ui.started?.(e.detail);
  });
  client.addEventListener("log", (e) => mine(e.detail) && appendLog(e.detail));
  client.addEventListener("call", (e) => {
    const m = e.detail;
    if (!mine(m)) return;
    if (recordCall(m)) callLine(m); // the in-flight row shows in the Calls panel only
    renderCalls();
  });
  client.addEventListener("error", (e) => mine(e.detail) && errorLine(e.detail));
  client.addEventListener("done", (e) => {
    const m = e.detail;
    if (!mine(m)) return;
    state.current.done = m;
    state.current.running = false;
    state.current.facts = new Map(Object.entries(m.facts || {}));
    renderFacts();
    renderRunInfo();
    renderTimeline();
    // A script's output is its output global or top-level return; a module's, its default export.
    if (m.output !== undefined) systemLine(`${state.current.mode === "script" ? "output" : "default export"}: ${JSON.stringify(m.output)}`);
    if (m.stats?.truncated) systemLine("output was truncated at the limit: later output was not kept", "warn");
    ui.done?.(m);
  });
}
