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
// protocol_error, watch_error) with the message as detail. A host call sends two
// "call" messages (pending, then settled): see CallMessage. "state" events carry
// { state: "connecting" | "open" | "closed", retryInMs? }.

export const SUBPROTOCOL = "playground.v1";

/**
 * Fields every message of a run carries.
 * @typedef {{ id: string, seq: number, t: number }} RunFields
 * @typedef {{ min: number, max: number, default: number }} Range
 * Every limit the server enforces (times in ms, sizes in bytes); the server may add fields.
 * @typedef {{ timeoutMs: Range, memoryBytes: number, maxFiles: number, maxSourceBytes: number,
 *   maxOutputBytes: number, maxEvents: number, maxTimers: number, maxHostCalls: number,
 *   maxMessageBytes: number, runsPerSecond: number, runBurst: number, previewDepth: number,
 *   previewKeys: number, previewString: number, maxFactsBytes?: number,
 *   maxSocketsPerClient?: number, maxRunsPerClient?: number, [more: string]: any }} Limits
 * hostGlobals: the host functions (or namespaces, "kv") snippets may also call as globals.
 * @typedef {{ type: "hello", protocol: string, session: string, limits: Limits, modules: string[], host: string[], hostGlobals?: string[] }} HelloMessage
 * @typedef {RunFields & { type: "queued", position: number }} QueuedMessage
 * @typedef {RunFields & { type: "started", timeoutMs: number, mode?: "module"|"script", watch?: string }} StartedMessage
 * @typedef {RunFields & { type: "log", level: "log"|"info"|"warn"|"error"|"debug", text: string, args: any[] }} LogMessage
 * @typedef {RunFields & { type: "fact", key: string, value: any, deleted?: boolean }} FactMessage
 * A host call is two call messages with the same callId (1, 2, 3 … per run): the start, with
 * pending: true and the arguments, then the settled one, with ms, ok and the result or error (its
 * args are [{ $t: "more", count: bytes }] when the arguments were over 16 KiB: the start has them).
 * @typedef {RunFields & { type: "call", callId: number, pending: true, name: string, args: any[] }} CallStartMessage
 * @typedef {RunFields & { type: "call", callId: number, pending?: undefined, name: string, ms: number, ok: boolean, error?: string, args: any[], result?: any }} CallSettledMessage
 * @typedef {CallStartMessage | CallSettledMessage} CallMessage
 * @typedef {RunFields & { type: "error", kind: string, message: string, stack?: string, file?: string, line?: number, column?: number }} ErrorMessage
 * @typedef {RunFields & { type: "done", outcome: string, durationMs: number, timedOut: boolean, facts: Record<string, any>, output?: any, retryAfterMs?: number, stats: { queueMs: number, bundleMs: number, runMs: number, logs: number, outputBytes: number, truncated: boolean }, tape?: object }} DoneMessage
 * @typedef {{ path: string, source: string }} File
 * mode: "script" runs one file as agent code (globals input, output, require; top-level return);
 * absent, the server detects it (see started.mode).
 * record: the run's done carries its tape (done.tape), which POST /api/v1/replay re-runs.
 * detach: the run outlives this socket for up to graceMs (reattach with watch and started.watch).
 * @typedef {{ files: File[], entry?: string, input?: any, timeoutMs?: number, deterministic?: boolean, mode?: "module"|"script", record?: boolean, detach?: { graceMs: number }, id?: string }} RunOptions
 */

export class PlaygroundClient extends EventTarget {
  /**
   * Connects at once (url defaults to this origin's /ws) and reconnects with
   * exponential backoff (ms) unless reconnect is false or the server refused
   * the socket by policy (1008).
   * @param {{ url?: string, reconnect?: boolean, minBackoffMs?: number, maxBackoffMs?: number }} [opts]
   */
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
      if (msg.type === "done" && msg.tape !== undefined) {
        // A tape is compared byte for byte, its key order included, which
        // JSON.parse does not keep for integer-like keys: the text as sent.
        Object.defineProperty(msg, "raw", { value: ev.data });
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
    for (const k of ["entry", "input", "timeoutMs", "deterministic", "mode", "record", "detach"]) {
      if (opts[k] !== undefined) msg[k] = opts[k];
    }
    return this.send(msg) ? id : null;
  }

  /**
   * watch follows another run (or one this client started before its
   * socket dropped): the server sends that run's messages with seq > after,
   * then live ones, ending with its done, as events like a run's own.
   * token is the run's started.watch. Returns false when not connected.
   * @param {string} id @param {string} token @param {number} [after]
   */
  watch(id, token, after = 0) {
    return this.send({ type: "watch", id, token, after });
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
