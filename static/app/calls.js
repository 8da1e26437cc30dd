// The Calls and Run panels: the run's host calls, and its outcome, timings
// and the server's limits.
import { $, el } from "./dom.js";
import { state } from "./state.js";

/**
 * recordCall keeps a `call` message in the current run's calls: a pending
 * one (the call started) adds an in-flight row; the settled one with the
 * same callId completes that row in place (a server without callId sends
 * only settled calls, each its own row). It returns true when m settled a
 * call.
 */
export function recordCall(m) {
  const calls = state.current.calls;
  if (m.pending) {
    calls.push(m);
    return false;
  }
  const i = m.callId === undefined ? -1 : calls.findIndex((c) => c.callId === m.callId);
  if (i >= 0) calls[i] = { ...m, args: calls[i].args }; // the pending message has them all (a settled one may cut them)
  else calls.push(m);
  return true;
}

function callRow(c) {
  const name = `host.${c.name}`;
  const args = (c.args ?? []).map((a) => JSON.stringify(a)).join(", ");
  if (c.pending) {
    return el("tr", { "data-testid": "call-row", "data-state": "pending", "data-call-id": String(c.callId), class: "pending" },
      el("td", { text: name }), el("td", { text: args }), el("td", { text: "…" }), el("td", { text: "in flight…" }));
  }
  return el("tr", { "data-testid": "call-row", "data-state": c.ok ? "ok" : "failed", "data-call-id": String(c.callId ?? ""), class: c.ok ? "" : "failed" },
    el("td", { text: name }),
    el("td", { text: args }),
    el("td", { text: c.ms.toFixed(1) }),
    el("td", { text: c.ok ? (c.result === undefined ? "undefined" : JSON.stringify(c.result)) : `error: ${c.error}` }));
}

export function renderCalls() {
  const calls = state.current?.calls ?? [];
  $("calls").replaceChildren(...(calls.length === 0 ? [el("tr", {}, el("td", { class: "empty", colspan: "4", text: "no host calls" }))] :
    calls.map(callRow)));
}

export function renderRunInfo() {
  const d = state.current?.done;
  const l = state.hello?.limits;
  const rows = [];
  const add = (k, v) => rows.push(el("dt", { text: k }), el("dd", { "data-testid": `run-${k.toLowerCase().replaceAll(" ", "-")}`, text: v }));
  if (!d) {
    add("Outcome", state.current ? "running…" : "no run yet");
  } else {
    add("Outcome", d.outcome + (d.timedOut ? " (timed out)" : ""));
    if (state.current.mode) add("Mode", state.current.mode === "script" ? "script (input, output, require globals)" : "module");
    add("Duration", `${d.durationMs.toFixed(1)} ms`);
    add("Queue", `${d.stats.queueMs.toFixed(1)} ms`);
    add("Bundle", `${d.stats.bundleMs.toFixed(1)} ms`);
    add("Run", `${d.stats.runMs.toFixed(1)} ms`);
    add("Logs", String(d.stats.logs));
    add("Output bytes", `${d.stats.outputBytes}${d.stats.truncated ? " (truncated)" : ""}`);
    if (d.retryAfterMs !== undefined) add("Retry after", `${d.retryAfterMs} ms`);
  }
  if (l) {
    add("Time limit", `${$("timeout")?.value || l.timeoutMs.default} ms (${l.timeoutMs.min}–${l.timeoutMs.max})`);
    add("Memory limit", `${Math.round((l.memoryBytes ?? 0) / 1048576)} MiB`);
    add("Output limit", `${l.maxOutputBytes} bytes, ${l.maxEvents} events`);
    if (l.maxFactsBytes !== undefined) add("Facts limit", `${l.maxFactsBytes} bytes`);
    add("Rate limit", `${l.runsPerSecond} runs/s, burst ${l.runBurst}`);
  }
  $("run-info").replaceChildren(...rows);
}
