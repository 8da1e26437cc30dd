// PlaygroundClient: a small client for the playground's WebSocket protocol
// (playground.v1, see /docs/protocol.md in the repository). Any page can
// import it to open a session, start runs and subscribe to their events:
//
//   import { PlaygroundClient } from "/static/client.js";
//   const pg = new PlaygroundClient();            // same origin, /ws
//   pg.addEventListener("log", (e) => console.log(e.detail.text));
//   pg.addEventListener("done", (e) => console.log(e.detail.outcome));
//   await pg.ready;
//   const id = pg.run({ files: [{ path: "main.ts", source: "console.log(1)" }] });
//
// Every server message is dispatched as a CustomEvent named after its
// "type" (hello, queued, started, log, fact, call, error, done, pong,
// protocol_error) with the message as detail. "state" events carry
// { state: "connecting" | "open" | "closed", retryInMs? }.

export const SUBPROTOCOL = "playground.v1";

/**
 * Fields every message of a run carries.
 * @typedef {{ id: string, seq: number, t: number }} RunFields
 * @typedef {{ type: "hello", protocol: string, session: string, limits: Record<string, any>, modules: string[], host: string[] }} HelloMessage
 * @typedef {RunFields & { type: "queued", position: number }} QueuedMessage
 * @typedef {RunFields & { type: "started", timeoutMs: number }} StartedMessage
 * @typedef {RunFields & { type: "log", level: "log"|"info"|"warn"|"error"|"debug", text: string, args: any[] }} LogMessage
 * @typedef {RunFields & { type: "fact", key: string, value: any, deleted?: boolean }} FactMessage
 * @typedef {RunFields & { type: "call", name: string, ms: number, ok: boolean, error?: string, args: any[], result?: any }} CallMessage
 * @typedef {RunFields & { type: "error", kind: string, message: string, stack?: string, file?: string, line?: number, column?: number }} ErrorMessage
 * @typedef {RunFields & { type: "done", outcome: string, durationMs: number, timedOut: boolean, facts: Record<string, any>, output?: any, retryAfterMs?: number, stats: { queueMs: number, bundleMs: number, runMs: number, logs: number, outputBytes: number, truncated: boolean } }} DoneMessage
 * @typedef {{ path: string, source: string }} File
 * @typedef {{ files: File[], entry?: string, input?: any, timeoutMs?: number, deterministic?: boolean, id?: string }} RunOptions
 */

export class PlaygroundClient extends EventTarget {
  constructor({ url, reconnect = true, minBackoffMs = 250, maxBackoffMs = 8000 } = {}) {
    super();
    this.url = url ?? defaultURL();
    this.reconnect = reconnect;
    this.minBackoffMs = minBackoffMs;
    this.maxBackoffMs = maxBackoffMs;
    this.state = "closed";
    this.hello = null;
    this.socket = null;
    this.attempt = 0;
    this.closedByUser = false;
    this.counter = 0;
    this.ready = new Promise((resolve) => (this.resolveReady = resolve));
    this.connect();
  }

  connect() {
    this.setState("connecting");
    const socket = new WebSocket(this.url, SUBPROTOCOL);
    this.socket = socket;
    socket.addEventListener("message", (ev) => {
      let msg;
      try {
        msg = JSON.parse(ev.data);
      } catch {
        return;
      }
      if (msg.type === "hello") {
        this.hello = msg;
        this.attempt = 0;
        this.setState("open");
        this.resolveReady(msg);
      }
      this.dispatchEvent(new CustomEvent(msg.type, { detail: msg }));
      this.dispatchEvent(new CustomEvent("message", { detail: msg }));
    });
    socket.addEventListener("close", (ev) => {
      if (this.socket !== socket) return;
      this.socket = null;
      // 1001 going away (server restart) still reconnects; 1008 policy does not.
      const retry = this.reconnect && !this.closedByUser && ev.code !== 1008;
      if (!retry) {
        this.setState("closed", { code: ev.code, reason: ev.reason });
        return;
      }
      const delay = Math.min(this.maxBackoffMs, this.minBackoffMs * 2 ** this.attempt++);
      this.setState("closed", { code: ev.code, reason: ev.reason, retryInMs: delay });
      this.ready = new Promise((resolve) => (this.resolveReady = resolve));
      setTimeout(() => this.connect(), delay);
    });
  }

  setState(state, extra = {}) {
    this.state = state;
    this.dispatchEvent(new CustomEvent("state", { detail: { state, ...extra } }));
  }

  // send writes one message; it returns false when the socket is not open.
  send(msg) {
    if (!this.socket || this.socket.readyState !== WebSocket.OPEN) return false;
    this.socket.send(JSON.stringify(msg));
    return true;
  }

  /**
   * run starts a run and returns its id (null when not connected). Its
   * messages follow as events named after their type; "done" is the last.
   * @param {RunOptions} opts
   * @returns {string | null}
   */
  run(opts) {
    const id = opts.id ?? `r${Date.now().toString(36)}-${++this.counter}`;
    const msg = { type: "run", id, files: opts.files };
    for (const k of ["entry", "input", "timeoutMs", "deterministic"]) {
      if (opts[k] !== undefined) msg[k] = opts[k];
    }
    return this.send(msg) ? id : null;
  }

  cancel(id) {
    return this.send({ type: "cancel", id });
  }

  ping(t) {
    return this.send({ type: "ping", t });
  }

  /**
   * result runs opts and resolves with all its messages once "done" arrives.
   * @param {RunOptions} opts
   * @returns {Promise<{ messages: object[], done: DoneMessage }>}
   */
  result(opts) {
    return new Promise((resolve, reject) => {
      const messages = [];
      let id = null;
      const onMessage = (e) => {
        if (e.detail.id !== id) return;
        messages.push(e.detail);
        if (e.detail.type === "done") {
          this.removeEventListener("message", onMessage);
          resolve({ messages, done: e.detail });
        }
      };
      this.addEventListener("message", onMessage);
      id = this.run(opts);
      if (id === null) {
        this.removeEventListener("message", onMessage);
        reject(new Error("not connected"));
      }
    });
  }

  close() {
    this.closedByUser = true;
    this.socket?.close(1000, "client closed");
  }
}

function defaultURL() {
  const proto = location.protocol === "https:" ? "wss:" : "ws:";
  return `${proto}//${location.host}/ws`;
}
