// The Web and ECMAScript APIs goja lacks, written to their specifications
// (WHATWG DOM, Encoding, HTML; ECMAScript 2024-2025). Compiled once per
// process (polyfill.go) and evaluated lazily in a run: the program returns
// one factory per group, called the first time a snippet touches one of the
// group's names. Factories receive the intrinsics captured before any
// the first group loaded (polyfill.go), so a snippet that replaces a
// built-in after that does not change them; g(name) returns another group.
(function (I) {
  "use strict";
  const { Object, Array, Map, Set, Promise, Error, Symbol, String, Number, Math, Reflect, Uint8Array, ArrayBuffer, setTimeout, performance } = I;
  // Errors the polyfills throw are built by the intrinsics and handed to
  // I.clean (polyfill.go), which drops this file's frames from their stack:
  // the snippet's frame is on top, as for a native built-in.
  const clean = I.clean;
  const TypeError = function TypeError(message) { return clean(new I.TypeError(message)); };
  const RangeError = function RangeError(message) { return clean(new I.RangeError(message)); };
  const hidden = (o, props) => {
    for (const k of Reflect.ownKeys(props)) {
      const d = Object.getOwnPropertyDescriptor(props, k);
      d.enumerable = false;
      Object.defineProperty(o, k, d);
    }
    return o;
  };
  const tag = (C, name) => Object.defineProperty(C.prototype, Symbol.toStringTag, { value: name, configurable: true });
  const isObject = (v) => (typeof v === "object" && v !== null) || typeof v === "function";
  const F = {};

  // --- DOMException (WebIDL) -------------------------------------------------
  F.DOMException = () => {
    const codes = {
      IndexSizeError: 1, HierarchyRequestError: 3, WrongDocumentError: 4, InvalidCharacterError: 5, NoModificationAllowedError: 7,
      NotFoundError: 8, NotSupportedError: 9, InvalidStateError: 11, SyntaxError: 12, InvalidModificationError: 13, NamespaceError: 14,
      InvalidAccessError: 15, TypeMismatchError: 17, SecurityError: 18, NetworkError: 19, AbortError: 20, URLMismatchError: 21,
      QuotaExceededError: 22, TimeoutError: 23, InvalidNodeTypeError: 24, DataCloneError: 25,
    };
    class DOMException extends Error {
      #name; #code;
      constructor(message = "", options = "Error") {
        super(String(message));
        this.#name = isObject(options) ? String(options.name ?? "Error") : String(options);
        if (isObject(options) && "cause" in options) Object.defineProperty(this, "cause", { value: options.cause, writable: true, configurable: true });
        this.#code = codes[this.#name] ?? 0;
        clean(this);
      }
      get name() { return this.#name; }
      get code() { return this.#code; }
    }
    tag(DOMException, "DOMException");
    return { DOMException };
  };

  // --- Events (WHATWG DOM: Event, EventTarget, AbortController, AbortSignal) --
  F.events = (g) => {
    const { DOMException } = g("DOMException");
    const report = (err) => setTimeout(() => { throw err; }, 0); // as Node: an uncaught exception
    class Event {
      #type; #bubbles; #cancelable; #composed; #canceled = false; #stop = false; #target = null; #current = null; #time; #phase = 0;
      constructor(type, init = undefined) {
        if (arguments.length === 0) throw new TypeError('The "type" argument must be specified');
        if (init != null && !isObject(init)) throw new TypeError('The "options" argument must be of type object.');
        this.#type = String(type);
        this.#bubbles = !!init?.bubbles;
        this.#cancelable = !!init?.cancelable;
        this.#composed = !!init?.composed;
        this.#time = performance.now();
      }
      get type() { return this.#type; }
      get bubbles() { return this.#bubbles; }
      get cancelable() { return this.#cancelable; }
      get composed() { return this.#composed; }
      get defaultPrevented() { return this.#canceled; }
      get returnValue() { return !this.#canceled; }
      get cancelBubble() { return this.#stop; }
      get target() { return this.#target; }
      get srcElement() { return this.#target; }
      get currentTarget() { return this.#current; }
      get eventPhase() { return this.#phase; }
      get timeStamp() { return this.#time; }
      get isTrusted() { return false; }
      composedPath() { return this.#current ? [this.#current] : []; }
      preventDefault() { if (this.#cancelable) this.#canceled = true; }
      stopPropagation() { this.#stop = true; }
      stopImmediatePropagation() { this.#stop = true; this.#stopNow = true; }
      #stopNow = false;
      static _dispatch(ev, target, run) {
        try { ev.#type; } catch { throw new TypeError('The "event" argument must be an instance of Event. Received ' + (ev === null ? "null" : typeof ev)); }
        if (ev.#phase !== 0) throw new DOMException("The event is already being dispatched.", "InvalidStateError");
        ev.#target = target; ev.#current = target; ev.#phase = 2;
        try { run(() => ev.#stopNow); } finally { ev.#current = null; ev.#phase = 0; ev.#stopNow = false; }
        return !ev.#canceled;
      }
    }
    for (const [k, v] of [["NONE", 0], ["CAPTURING_PHASE", 1], ["AT_TARGET", 2], ["BUBBLING_PHASE", 3]]) {
      Object.defineProperty(Event, k, { value: v, enumerable: true });
      Object.defineProperty(Event.prototype, k, { value: v, enumerable: true });
    }
    tag(Event, "Event");
    const dispatch = Event._dispatch;
    delete Event._dispatch;

    class EventTarget {
      #listeners = new Map();
      addEventListener(type, callback, options = undefined) {
        if (arguments.length < 2) throw new TypeError('The "type" and "listener" arguments must be specified');
        if (callback == null) return;
        if (typeof callback !== "function" && !isObject(callback)) throw new TypeError('The "listener" argument must be an instance of EventListener.');
        const opts = typeof options === "boolean" ? { capture: options } : (options ?? {});
        const capture = !!opts.capture, once = !!opts.once, signal = opts.signal;
        if (signal !== undefined && !(signal instanceof AbortSignal)) throw new TypeError('The "options.signal" property must be an instance of AbortSignal.');
        if (signal?.aborted) return;
        type = String(type);
        let list = this.#listeners.get(type);
        if (!list) this.#listeners.set(type, (list = []));
        if (list.some((l) => l.callback === callback && l.capture === capture)) return;
        const entry = { callback, capture, once, removed: false };
        list.push(entry);
        if (signal) signal.addEventListener("abort", () => this.removeEventListener(type, callback, { capture }), { once: true });
      }
      removeEventListener(type, callback, options = undefined) {
        const capture = typeof options === "boolean" ? options : !!options?.capture;
        const list = this.#listeners.get(String(type));
        if (!list) return;
        const i = list.findIndex((l) => l.callback === callback && l.capture === capture);
        if (i >= 0) { list[i].removed = true; list.splice(i, 1); }
      }
      dispatchEvent(event) {
        return dispatch(event, this, (stopped) => {
          const list = this.#listeners.get(event.type);
          if (!list) return;
          for (const l of [...list]) {
            if (l.removed) continue;
            if (l.once) this.removeEventListener(event.type, l.callback, { capture: l.capture });
            try {
              if (typeof l.callback === "function") l.callback.call(this, event);
              else if (typeof l.callback.handleEvent === "function") l.callback.handleEvent(event);
            } catch (err) {
              report(err);
            }
            if (stopped()) break;
          }
        });
      }
    }
    tag(EventTarget, "EventTarget");

    let constructing = false;
    class AbortSignal extends EventTarget {
      #aborted = false; #reason = undefined; #onabort = null;
      constructor() {
        if (!constructing) throw new TypeError("Illegal constructor");
        super();
        constructing = false;
      }
      get aborted() { return this.#aborted; }
      get reason() { return this.#reason; }
      get onabort() { return this.#onabort; }
      set onabort(fn) {
        if (this.#onabort) this.removeEventListener("abort", this.#onabort);
        this.#onabort = typeof fn === "function" ? fn : null;
        if (this.#onabort) this.addEventListener("abort", this.#onabort);
      }
      throwIfAborted() { if (this.#aborted) throw this.#reason; }
      static _abort(s, reason) {
        if (s.#aborted) return;
        s.#aborted = true;
        s.#reason = reason === undefined ? new DOMException("This operation was aborted", "AbortError") : reason;
        s.dispatchEvent(new Event("abort"));
      }
      static abort(reason = undefined) { const s = newSignal(); abort(s, reason); return s; }
      static timeout(ms) {
        ms = Number(ms);
        if (!(ms >= 0) || ms > Number.MAX_SAFE_INTEGER) throw new RangeError('The value of "delay" is out of range. It must be >= 0 && <= 9007199254740991. Received ' + ms);
        const s = newSignal();
        setTimeout(() => abort(s, new DOMException("The operation was aborted due to timeout", "TimeoutError")), ms);
        return s;
      }
      static any(signals) {
        const s = newSignal();
        for (const x of signals) {
          if (!(x instanceof AbortSignal)) throw new TypeError('The "signals" argument must be an instance of AbortSignal.');
        }
        for (const x of signals) {
          if (x.aborted) { abort(s, x.reason); return s; }
        }
        for (const x of signals) x.addEventListener("abort", () => abort(s, x.reason), { once: true });
        return s;
      }
    }
    tag(AbortSignal, "AbortSignal");
    const abort = AbortSignal._abort;
    delete AbortSignal._abort;
    const newSignal = () => { constructing = true; return new AbortSignal(); };

    class AbortController {
      #signal = newSignal();
      get signal() { return this.#signal; }
      abort(reason = undefined) { abort(this.#signal, reason); }
    }
    tag(AbortController, "AbortController");

    // CustomEvent (WHATWG DOM), a global since Node 19.
    class CustomEvent extends Event {
      #detail;
      constructor(type, init = undefined) {
        if (arguments.length === 0) throw new TypeError('The "type" argument must be specified');
        super(type, init);
        this.#detail = init?.detail ?? null;
      }
      get detail() { return this.#detail; }
    }
    tag(CustomEvent, "CustomEvent");
    return { Event, EventTarget, AbortSignal, AbortController, CustomEvent };
  };

  // --- structuredClone (HTML, StructuredSerialize) ---------------------------
  F.structuredClone = (g) => {
    const { DOMException } = g("DOMException");
    const { WeakRef } = g("weak");
    const { EventTarget } = g("events");
    const toStr = Object.prototype.toString;
    const errors = { Error, EvalError: I.EvalError, RangeError: I.RangeError, ReferenceError: I.ReferenceError, SyntaxError: I.SyntaxError, TypeError: I.TypeError, URIError: I.URIError };
    const fail = (v) => { throw new DOMException(`${typeof v === "object" ? toStr.call(v).replace(/^\[object (.*)\]$/, "#<$1>") : String(v)} could not be cloned.`, "DataCloneError"); };
    function structuredClone(value = undefined, options = undefined) {
      if (arguments.length === 0) throw new TypeError('The "value" argument must be specified');
      if (options != null && options.transfer != null && [...options.transfer].length > 0) {
        throw new TypeError("structuredClone: the transfer option is not supported in the playground");
      }
      const seen = new Map();
      const clone = (v) => {
        if (typeof v === "function" || typeof v === "symbol") fail(v);
        if (v === null || typeof v !== "object") return v;
        if (seen.has(v)) return seen.get(v);
        const t = toStr.call(v);
        let out;
        switch (t) {
          case "[object Boolean]": case "[object Number]": case "[object String]": case "[object BigInt]":
            out = Object(v.valueOf()); seen.set(v, out); return out;
          case "[object Date]": out = new I.Date(v.getTime()); seen.set(v, out); return out;
          case "[object RegExp]": out = new I.RegExp(v.source, v.flags); seen.set(v, out); return out;
          case "[object ArrayBuffer]": out = v.slice(0); seen.set(v, out); return out;
          case "[object Map]":
            out = new Map(); seen.set(v, out);
            for (const [k, x] of v) out.set(clone(k), clone(x));
            return out;
          case "[object Set]":
            out = new Set(); seen.set(v, out);
            for (const x of v) out.add(clone(x));
            return out;
          case "[object Error]": {
            const C = errors[v.name] ?? Error;
            out = new C(v.message); seen.set(v, out);
            if (typeof v.stack === "string") Object.defineProperty(out, "stack", { value: v.stack, writable: true, configurable: true });
            if ("cause" in v) Object.defineProperty(out, "cause", { value: clone(v.cause), writable: true, configurable: true });
            return out;
          }
          case "[object Array]":
            out = new Array(v.length); seen.set(v, out);
            for (const k of Object.keys(v)) out[k] = clone(v[k]);
            return out;
        }
        if (ArrayBuffer.isView(v)) {
          const buf = clone(v.buffer);
          out = t === "[object DataView]" ? new I.DataView(buf, v.byteOffset, v.byteLength) : new v.constructor(buf, v.byteOffset, v.length);
          seen.set(v, out);
          return out;
        }
        if (t !== "[object Object]" || v instanceof Promise || v instanceof I.WeakMap || v instanceof I.WeakSet || v instanceof WeakRef || v instanceof EventTarget) fail(v);
        out = {}; seen.set(v, out);
        for (const k of Object.keys(v)) out[k] = clone(v[k]);
        return out;
      };
      return clone(value);
    }
    return { structuredClone };
  };

  // --- atob / btoa (HTML, forgiving-base64) -----------------------------------
  F.base64 = (g) => {
    const { DOMException } = g("DOMException");
    const abc = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    function btoa(data) {
      if (arguments.length === 0) throw new TypeError('The "data" argument must be specified');
      const s = String(data);
      let out = "";
      for (let i = 0; i < s.length; i += 3) {
        const a = s.charCodeAt(i), b = s.charCodeAt(i + 1), c = s.charCodeAt(i + 2);
        if (a > 255 || b > 255 || c > 255) throw new DOMException("Invalid character", "InvalidCharacterError");
        const n = (a << 16) | ((b || 0) << 8) | (c || 0);
        out += abc[n >> 18] + abc[(n >> 12) & 63] + (i + 1 < s.length ? abc[(n >> 6) & 63] : "=") + (i + 2 < s.length ? abc[n & 63] : "=");
      }
      return out;
    }
    function atob(data) {
      if (arguments.length === 0) throw new TypeError('The "data" argument must be specified');
      let s = String(data).replace(/[\t\n\f\r ]/g, "");
      if (s.length % 4 === 0) s = s.replace(/==?$/, "");
      if (s.length % 4 === 1 || /[^A-Za-z0-9+/]/.test(s)) throw new DOMException("The string to be decoded is not correctly encoded.", "InvalidCharacterError");
      let out = "", buf = 0, bits = 0;
      for (let i = 0; i < s.length; i++) {
        buf = (buf << 6) | abc.indexOf(s[i]);
        bits += 6;
        if (bits >= 8) { bits -= 8; out += String.fromCharCode((buf >> bits) & 255); }
      }
      return out;
    }
    return { atob, btoa };
  };

  // --- TextEncoder / TextDecoder (WHATWG Encoding: UTF-8 only) ----------------
  F.encoding = () => {
    const utf8 = (s, push) => {
      for (let i = 0; i < s.length; i++) {
        let c = s.charCodeAt(i);
        if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
          const d = s.charCodeAt(i + 1);
          if (d >= 0xdc00 && d <= 0xdfff) { c = 0x10000 + ((c - 0xd800) << 10) + (d - 0xdc00); i++; }
        }
        if (c >= 0xd800 && c <= 0xdfff) c = 0xfffd;
        if (!push(c, c < 0x80 ? 1 : c < 0x800 ? 2 : c < 0x10000 ? 3 : 4, c > 0xffff ? 2 : 1)) return;
      }
    };
    const put = (out, n, c, len) => {
      if (len === 1) out[n] = c;
      else if (len === 2) { out[n] = 0xc0 | (c >> 6); out[n + 1] = 0x80 | (c & 63); }
      else if (len === 3) { out[n] = 0xe0 | (c >> 12); out[n + 1] = 0x80 | ((c >> 6) & 63); out[n + 2] = 0x80 | (c & 63); }
      else { out[n] = 0xf0 | (c >> 18); out[n + 1] = 0x80 | ((c >> 12) & 63); out[n + 2] = 0x80 | ((c >> 6) & 63); out[n + 3] = 0x80 | (c & 63); }
    };
    class TextEncoder {
      get encoding() { return "utf-8"; }
      encode(input = "") {
        const s = String(input);
        let size = 0;
        utf8(s, (c, len) => { size += len; return true; });
        const out = new Uint8Array(size);
        let n = 0;
        utf8(s, (c, len) => { put(out, n, c, len); n += len; return true; });
        return out;
      }
      encodeInto(src, dest) {
        if (!(dest instanceof Uint8Array)) throw new TypeError('The "dest" argument must be an instance of Uint8Array.');
        let read = 0, written = 0;
        utf8(String(src), (c, len, units) => {
          if (written + len > dest.length) return false;
          put(dest, written, c, len); written += len; read += units;
          return true;
        });
        return { read, written };
      }
    }
    tag(TextEncoder, "TextEncoder");
    const labels = ["utf-8", "utf8", "unicode-1-1-utf-8", "unicode11utf8", "unicode20utf8", "x-unicode20utf8"];
    class TextDecoder {
      #fatal; #ignoreBOM; #pending = [];
      constructor(label = "utf-8", options = {}) {
        const l = String(label).trim().toLowerCase();
        if (!labels.includes(l)) throw new RangeError(`The "${label}" encoding is not supported in the playground (TextDecoder decodes utf-8 only)`);
        this.#fatal = !!options?.fatal;
        this.#ignoreBOM = !!options?.ignoreBOM;
      }
      get encoding() { return "utf-8"; }
      get fatal() { return this.#fatal; }
      get ignoreBOM() { return this.#ignoreBOM; }
      decode(input = undefined, options = undefined) {
        let bytes;
        if (input === undefined) bytes = new Uint8Array(0);
        else if (input instanceof ArrayBuffer) bytes = new Uint8Array(input);
        else if (ArrayBuffer.isView(input)) bytes = new Uint8Array(input.buffer, input.byteOffset, input.byteLength);
        else throw new TypeError('The "input" argument must be an instance of ArrayBuffer or ArrayBufferView.');
        const stream = !!options?.stream;
        const all = this.#pending.length ? [...this.#pending, ...bytes] : bytes;
        this.#pending = [];
        let out = "", i = 0, cp = 0, need = 0, seen = 0, lower = 0x80, upper = 0xbf, start = 0;
        const bad = () => {
          if (this.#fatal) throw new TypeError("The encoded data was not valid for encoding utf-8");
          out += "\ufffd";
        };
        const emit = (c) => { out += c > 0xffff ? String.fromCharCode(0xd800 + ((c - 0x10000) >> 10), 0xdc00 + ((c - 0x10000) & 1023)) : String.fromCharCode(c); };
        for (i = 0; i < all.length; i++) {
          const b = all[i];
          if (need === 0) {
            start = i;
            if (b <= 0x7f) { emit(b); continue; }
            if (b >= 0xc2 && b <= 0xdf) { need = 1; cp = b & 0x1f; }
            else if (b >= 0xe0 && b <= 0xef) { if (b === 0xe0) lower = 0xa0; if (b === 0xed) upper = 0x9f; need = 2; cp = b & 0xf; }
            else if (b >= 0xf0 && b <= 0xf4) { if (b === 0xf0) lower = 0x90; if (b === 0xf4) upper = 0x8f; need = 3; cp = b & 0x7; }
            else bad();
            continue;
          }
          if (b < lower || b > upper) { cp = need = seen = 0; lower = 0x80; upper = 0xbf; bad(); i--; continue; }
          lower = 0x80; upper = 0xbf; cp = (cp << 6) | (b & 0x3f); seen++;
          if (seen === need) { emit(cp); cp = need = seen = 0; }
        }
        if (need !== 0) {
          if (stream) this.#pending = Array.prototype.slice.call(all, start);
          else bad();
        }
        if (!this.#ignoreBOM && out.charCodeAt(0) === 0xfeff) out = out.slice(1);
        return out;
      }
    }
    tag(TextDecoder, "TextDecoder");
    return { TextEncoder, TextDecoder };
  };

  // --- WeakRef / FinalizationRegistry -----------------------------------------
  // goja has no weak references. A WeakRef that never lets go of its target
  // and a registry whose callbacks never run are what the specification
  // allows (an engine need not collect anything): deref() returns the
  // target, cleanup callbacks are not called.
  F.weak = () => {
    const canBeHeldWeakly = (v) => isObject(v) || (typeof v === "symbol" && I.Symbol.keyFor(v) === undefined);
    class WeakRef {
      #target;
      constructor(target) {
        if (!canBeHeldWeakly(target)) throw new TypeError("WeakRef: invalid target");
        this.#target = target;
      }
      deref() { return this.#target; }
    }
    tag(WeakRef, "WeakRef");
    class FinalizationRegistry {
      #tokens = new Map();
      constructor(cleanup) {
        if (typeof cleanup !== "function") throw new TypeError("FinalizationRegistry: cleanup must be callable");
      }
      register(target, held, token = undefined) {
        if (!canBeHeldWeakly(target)) throw new TypeError("FinalizationRegistry.prototype.register: invalid target");
        if (Object.is(target, held)) throw new TypeError("FinalizationRegistry.prototype.register: target and holdings must not be same");
        if (token !== undefined) {
          if (!canBeHeldWeakly(token)) throw new TypeError("FinalizationRegistry.prototype.register: invalid unregister token");
          this.#tokens.set(token, (this.#tokens.get(token) ?? 0) + 1);
        }
      }
      unregister(token) {
        if (!canBeHeldWeakly(token)) throw new TypeError("Invalid unregisterToken ('" + String(token) + "')");
        return this.#tokens.delete(token);
      }
    }
    tag(FinalizationRegistry, "FinalizationRegistry");
    return { WeakRef, FinalizationRegistry };
  };

  // --- ECMAScript 2024-2025 additions ----------------------------------------
  F.asyncIterator = () => ({ asyncIterator: Symbol("Symbol.asyncIterator") });

  const toKey = (k) => (typeof k === "symbol" ? k : String(k));
  F.objectGroupBy = () => hidden({}, {
    groupBy(items, callback) {
      if (items == null) throw new TypeError("Object.groupBy called on null or undefined");
      if (typeof callback !== "function") throw new TypeError(String(callback) + " is not a function");
      const out = Object.create(null);
      let i = 0;
      for (const v of items) {
        const k = toKey(callback(v, i++));
        if (Object.prototype.hasOwnProperty.call(out, k)) out[k].push(v);
        else Object.defineProperty(out, k, { value: [v], writable: true, enumerable: true, configurable: true });
      }
      return out;
    },
  });
  F.mapGroupBy = () => hidden({}, {
    groupBy(items, callback) {
      if (items == null) throw new TypeError("Map.groupBy called on null or undefined");
      if (typeof callback !== "function") throw new TypeError(String(callback) + " is not a function");
      const out = new Map();
      let i = 0;
      for (const v of items) {
        let k = callback(v, i++);
        if (k === 0) k = 0; // -0 → +0
        const list = out.get(k);
        if (list) list.push(v);
        else out.set(k, [v]);
      }
      return out;
    },
  });
  F.withResolvers = () => hidden({}, {
    withResolvers() {
      let resolve, reject;
      const promise = new this((a, b) => { resolve = a; reject = b; });
      return { promise, resolve, reject };
    },
  });
  // Promise.any (ECMA-262 §27.2.4.3), for its AggregateError's message:
  // goja's has none where Node's is "All promises were rejected".
  F.promiseAny = () => hidden({}, {
    any(iterable) {
      const C = this;
      let resolve, reject;
      const promise = new C((a, b) => { resolve = a; reject = b; });
      const rejectAll = (errors) => {
        // V8 builds it in its own code: its stack has no frames.
        const err = new I.AggregateError(errors, "All promises were rejected");
        Object.defineProperty(err, "stack", { value: "AggregateError: All promises were rejected", writable: true, configurable: true });
        reject(err);
      };
      try {
        const promiseResolve = C.resolve;
        if (typeof promiseResolve !== "function") throw TypeError("Promise resolve or reject function is not callable");
        const errors = [];
        let remaining = 1;
        let index = 0;
        for (const next of iterable) {
          const i = index++;
          errors.push(undefined);
          remaining++;
          let called = false;
          promiseResolve.call(C, next).then(resolve, (reason) => {
            if (called) return;
            called = true;
            errors[i] = reason;
            if (--remaining === 0) rejectAll(errors);
          });
        }
        if (--remaining === 0) rejectAll(errors);
      } catch (err) {
        reject(err);
      }
      return promise;
    },
  });
  F.fromAsync = (g) => hidden({}, {
    async fromAsync(items, mapfn = undefined, thisArg = undefined) {
      if (items == null) throw new TypeError("Array.fromAsync: the items must be iterable or array-like");
      if (mapfn !== undefined && typeof mapfn !== "function") throw new TypeError(String(mapfn) + " is not a function");
      const ai = g("asyncIterator").asyncIterator;
      const out = [];
      const add = async (v) => { if (mapfn) v = await mapfn.call(thisArg, v, out.length); out.push(v); };
      const am = items[ai];
      if (am != null) {
        const it = am.call(items);
        for (;;) {
          const r = await it.next();
          if (r.done) return out;
          try { await add(r.value); } catch (err) { if (typeof it.return === "function") await it.return(); throw err; }
        }
      }
      if (items[Symbol.iterator] != null) {
        for (const v of items) await add(await v);
        return out;
      }
      const n = Math.min(Math.max(Math.trunc(Number(items.length)) || 0, 0), Number.MAX_SAFE_INTEGER);
      for (let k = 0; k < n; k++) await add(await items[k]);
      return out;
    },
  });
  F.wellFormed = () => hidden({}, {
    isWellFormed() {
      if (this == null) throw new TypeError("String.prototype.isWellFormed called on null or undefined");
      const s = String(this);
      for (let i = 0; i < s.length; i++) {
        const c = s.charCodeAt(i);
        if (c >= 0xd800 && c <= 0xdbff) { const d = s.charCodeAt(i + 1); if (d >= 0xdc00 && d <= 0xdfff) { i++; continue; } return false; }
        if (c >= 0xdc00 && c <= 0xdfff) return false;
      }
      return true;
    },
    toWellFormed() {
      if (this == null) throw new TypeError("String.prototype.toWellFormed called on null or undefined");
      const s = String(this);
      let out = "";
      for (let i = 0; i < s.length; i++) {
        const c = s.charCodeAt(i);
        if (c >= 0xd800 && c <= 0xdbff) { const d = s.charCodeAt(i + 1); if (d >= 0xdc00 && d <= 0xdfff) { out += s[i] + s[i + 1]; i++; continue; } out += "\ufffd"; continue; }
        out += c >= 0xdc00 && c <= 0xdfff ? "\ufffd" : s[i];
      }
      return out;
    },
  });

  // --- Iterator helpers (ECMAScript 2025) ------------------------------------
  F.Iterator = () => {
    const IteratorPrototype = Object.getPrototypeOf(Object.getPrototypeOf([][Symbol.iterator]()));
    function Iterator() {
      if (new.target === undefined || new.target === Iterator) throw new TypeError("Abstract class Iterator not directly constructable");
    }
    Iterator.prototype = IteratorPrototype;
    Object.defineProperty(IteratorPrototype, "constructor", { value: Iterator, writable: true, configurable: true });
    const direct = (it, name) => {
      if (!isObject(it)) throw new TypeError(`Iterator.prototype.${name} called on non-object`);
      return { it, next: it.next };
    };
    const fn = (f, name) => { if (typeof f !== "function") throw new TypeError(`Iterator.prototype.${name}: ${String(f)} is not a function`); };
    const close = (it) => { if (typeof it.return === "function") it.return(); };
    const count = (n, name) => {
      n = Number(n);
      if (Number.isNaN(n)) throw new RangeError(`Iterator.prototype.${name}: ${n} must be positive`);
      n = Math.trunc(n);
      if (n < 0) throw new RangeError(`Iterator.prototype.${name}: ${n} must be positive`);
      return n;
    };
    function* helper(d, body) {
      let done = false;
      try { yield* body(() => d.next.call(d.it)); done = true; } finally { if (!done) close(d.it); }
    }
    hidden(IteratorPrototype, {
      map(f) { const d = direct(this, "map"); fn(f, "map"); return helper(d, function* (step) { let i = 0; for (let r; !(r = step()).done;) yield f(r.value, i++); }); },
      filter(f) { const d = direct(this, "filter"); fn(f, "filter"); return helper(d, function* (step) { let i = 0; for (let r; !(r = step()).done;) if (f(r.value, i++)) yield r.value; }); },
      take(n) { const d = direct(this, "take"); n = count(n, "take"); return helper(d, function* (step) { for (let i = 0; i < n; i++) { const r = step(); if (r.done) return; yield r.value; } close(d.it); }); },
      drop(n) { const d = direct(this, "drop"); n = count(n, "drop"); return helper(d, function* (step) { for (let i = 0; i < n; i++) if (step().done) return; for (let r; !(r = step()).done;) yield r.value; }); },
      flatMap(f) { const d = direct(this, "flatMap"); fn(f, "flatMap"); return helper(d, function* (step) { let i = 0; for (let r; !(r = step()).done;) { const inner = f(r.value, i++); if (!isObject(inner) && typeof inner !== "string") throw new TypeError("Iterator.prototype.flatMap: the mapper must return an iterator or iterable"); yield* (inner[Symbol.iterator] ? inner : { [Symbol.iterator]: () => inner }); } }); },
      reduce(f, ...init) {
        const d = direct(this, "reduce"); fn(f, "reduce");
        let acc, i = 0, r;
        if (init.length) acc = init[0];
        else { r = d.next.call(d.it); if (r.done) throw new TypeError("Reduce of empty iterator with no initial value"); acc = r.value; i = 1; }
        while (!(r = d.next.call(d.it)).done) acc = f(acc, r.value, i++);
        return acc;
      },
      toArray() { const d = direct(this, "toArray"); const out = []; for (let r; !(r = d.next.call(d.it)).done;) out.push(r.value); return out; },
      forEach(f) { const d = direct(this, "forEach"); fn(f, "forEach"); let i = 0; for (let r; !(r = d.next.call(d.it)).done;) f(r.value, i++); },
      some(f) { const d = direct(this, "some"); fn(f, "some"); let i = 0; for (let r; !(r = d.next.call(d.it)).done;) if (f(r.value, i++)) { close(d.it); return true; } return false; },
      every(f) { const d = direct(this, "every"); fn(f, "every"); let i = 0; for (let r; !(r = d.next.call(d.it)).done;) if (!f(r.value, i++)) { close(d.it); return false; } return true; },
      find(f) { const d = direct(this, "find"); fn(f, "find"); let i = 0; for (let r; !(r = d.next.call(d.it)).done;) if (f(r.value, i++)) { close(d.it); return r.value; } return undefined; },
    });
    hidden(Iterator, {
      from(o) {
        const m = o?.[Symbol.iterator];
        const it = m != null ? m.call(o) : o;
        if (!isObject(it)) throw new TypeError("Iterator.from: the argument is not an iterator or iterable");
        if (it instanceof Iterator) return it;
        return helper({ it, next: it.next }, function* (step) { for (let r; !(r = step()).done;) yield r.value; });
      },
    });
    const out = { Iterator };
    for (const k of ["map", "filter", "take", "drop", "flatMap", "reduce", "toArray", "forEach", "some", "every", "find"]) out[k] = IteratorPrototype[k];
    return out;
  };

  // --- fetch, Headers, Request, Response (WHATWG Fetch) ----------------------
  // The request is performed by the server, never by this process: I.fetch
  // (sandbox/worker/js/fetch.go) makes it a host call (pipe.FetchHost) that
  // the server answers under the operator's policy (package egress). It
  // throws a TypeError when the server has no policy. Bodies are whole
  // strings or ArrayBuffers (no streams: body is null, blob() and
  // formData() are not offered). Error wordings follow Node's (undici).
  F.fetch = (g) => {
    const { AbortSignal, AbortController } = g("events");
    // JSON through Go (I.fetchJSON, I.fetchStringify) and a sort of our
    // own: a name this file spells counts as every program's that may load
    // a polyfill (usage.go, polyfillNeeds), and parse, stringify and sort
    // would install their parity patches in all of those runs.
    const ordered = (keys) => {
      for (let i = 1; i < keys.length; i++) {
        const k = keys[i];
        let j = i - 1;
        for (; j >= 0 && keys[j] > k; j--) keys[j + 1] = keys[j];
        keys[j + 1] = k;
      }
      return keys;
    };
    const token = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
    const trimWS = (v) => String(v).replace(/^[\t\n\r ]+|[\t\n\r ]+$/g, "");
    const checkName = (who, name) => {
      name = String(name);
      if (!token.test(name)) throw new TypeError(`Headers.${who}: "${name}" is an invalid header name.`);
      return name.toLowerCase();
    };
    const checkValue = (who, name, value) => {
      value = trimWS(value);
      if (/[\0\r\n]/.test(value)) throw new TypeError(`Headers.${who}: "${value}" is an invalid header value.`);
      return value;
    };
    const guards = new I.WeakMap(); // Headers → "immutable" for a fetched Response's

    class Headers {
      #map = new Map();
      constructor(init = undefined) {
        if (init === undefined || init === null) return;
        if (!isObject(init)) throw new TypeError("Headers constructor: expected an object, an iterable of pairs or a Headers");
        if (init instanceof Headers) { for (const [k, v] of init) this.append(k, v); return; }
        if (typeof init[Symbol.iterator] === "function") {
          for (const pair of init) {
            const p = [...pair];
            if (p.length !== 2) throw new TypeError("Headers constructor: expected name/value pair to be length 2, found " + p.length + ".");
            this.append(p[0], p[1]);
          }
          return;
        }
        for (const k of Reflect.ownKeys(init)) {
          if (typeof k === "symbol") continue;
          const d = Reflect.getOwnPropertyDescriptor(init, k);
          if (d && d.enumerable) this.append(k, init[k]);
        }
      }
      #write(who) { if (guards.get(this) === "immutable") throw new TypeError("immutable"); return who; }
      append(name, value) {
        if (arguments.length < 2) throw new TypeError("Headers.append: 2 arguments required");
        this.#write("append");
        const k = checkName("append", name), v = checkValue("append", name, value);
        const old = this.#map.get(k);
        this.#map.set(k, old === undefined ? v : old + ", " + v);
      }
      set(name, value) {
        if (arguments.length < 2) throw new TypeError("Headers.set: 2 arguments required");
        this.#write("set");
        this.#map.set(checkName("set", name), checkValue("set", name, value));
      }
      delete(name) { this.#write("delete"); this.#map.delete(checkName("delete", name)); }
      get(name) { const v = this.#map.get(checkName("get", name)); return v === undefined ? null : v; }
      has(name) { return this.#map.has(checkName("has", name)); }
      getSetCookie() { return []; } // a fetched response never carries Set-Cookie (forbidden response header)
      forEach(callback, thisArg = undefined) {
        if (typeof callback !== "function") throw new TypeError("Headers.forEach: the callback is not a function");
        for (const [k, v] of this) callback.call(thisArg, v, k, this);
      }
      *entries() { for (const k of ordered([...this.#map.keys()])) { if (this.#map.has(k)) yield [k, this.#map.get(k)]; } }
      *keys() { for (const [k] of this.entries()) yield k; }
      *values() { for (const [, v] of this.entries()) yield v; }
      [Symbol.iterator]() { return this.entries(); }
      static _set(h, k, v) { h.#map.set(k, v); }
    }
    tag(Headers, "Headers");
    const setHeader = Headers._set;
    delete Headers._set;

    // Body (https://fetch.spec.whatwg.org/#body-mixin): null, a string or an ArrayBuffer.
    const extract = (body) => {
      if (body === null || body === undefined) return { body: null, type: null };
      if (typeof body === "string") return { body, type: "text/plain;charset=UTF-8" };
      if (body instanceof ArrayBuffer) return { body: body.slice(0), type: null };
      if (ArrayBuffer.isView(body)) return { body: new Uint8Array(body.buffer, body.byteOffset, body.byteLength).slice().buffer, type: null };
      if (Object.prototype.toString.call(body) === "[object URLSearchParams]") return { body: String(body), type: "application/x-www-form-urlencoded;charset=UTF-8" };
      return { body: String(body), type: "text/plain;charset=UTF-8" };
    };
    const bodies = new I.WeakMap(); // Request/Response → { body, used }
    const consume = (o, who) => {
      const b = bodies.get(o);
      if (b === undefined) return Promise.reject(new TypeError(`${who} called on an object that is not a Request or Response`));
      if (b.used) return Promise.reject(new TypeError("Body is unusable: Body has already been read"));
      b.used = true;
      return Promise.resolve(b.body);
    };
    const asText = (body) => {
      if (body === null) return "";
      if (typeof body === "string") return body;
      return new (g("encoding").TextDecoder)().decode(new Uint8Array(body));
    };
    const asBuffer = (body) => {
      if (body === null) return new ArrayBuffer(0);
      if (typeof body === "string") return I.fetchBytes(body);
      return body.slice(0);
    };
    const bodyMethods = {
      get bodyUsed() { const b = bodies.get(this); return b !== undefined && b.used; },
      get body() { return null; },
      text() { return consume(this, "text").then(asText); },
      json() { return consume(this, "json").then((b) => I.fetchJSON(asText(b))); },
      arrayBuffer() { return consume(this, "arrayBuffer").then(asBuffer); },
      bytes() { return consume(this, "bytes").then((b) => new Uint8Array(asBuffer(b))); },
    };
    const mixBody = (C) => {
      for (const k of Reflect.ownKeys(bodyMethods)) {
        const d = Object.getOwnPropertyDescriptor(bodyMethods, k);
        d.enumerable = false;
        Object.defineProperty(C.prototype, k, d);
      }
    };

    const normalizeMethod = (m) => {
      m = String(m);
      if (!token.test(m)) throw new TypeError(`'${m}' is not a valid HTTP method.`);
      const up = m.toUpperCase();
      if (up === "CONNECT" || up === "TRACE" || up === "TRACK") throw new TypeError(`'${m}' HTTP method is unsupported.`);
      return ["DELETE", "GET", "HEAD", "OPTIONS", "POST", "PUT"].includes(up) ? up : m;
    };
    const parseURL = (input) => {
      const { URL } = g("nodeURL");
      let u;
      try { u = new URL(String(input)); } catch (e) {
        const err = new TypeError(`Failed to parse URL from ${String(input)}`);
        Object.defineProperty(err, "cause", { value: e, writable: true, configurable: true });
        throw err;
      }
      if (u.username !== "" || u.password !== "") throw new TypeError("Request cannot be constructed from a URL that includes credentials: " + String(input));
      return u.href;
    };

    class Request {
      #url; #method; #headers; #redirect; #signal;
      constructor(input, init = undefined) {
        if (arguments.length === 0) throw new TypeError("Request constructor: 1 argument required");
        if (init !== undefined && init !== null && !isObject(init)) throw new TypeError("Request constructor: init must be an object");
        init = init ?? {};
        let from = null;
        if (input instanceof Request) from = input;
        this.#url = from ? from.#url : parseURL(input);
        this.#method = init.method !== undefined ? normalizeMethod(init.method) : from ? from.#method : "GET";
        this.#redirect = init.redirect !== undefined ? String(init.redirect) : from ? from.#redirect : "follow";
        if (!["follow", "error", "manual"].includes(this.#redirect)) throw new TypeError(`Request constructor: '${this.#redirect}' is not a valid redirect mode (follow, error or manual)`);
        const signal = init.signal !== undefined ? init.signal : from ? from.#signal : null;
        if (signal !== null && !(signal instanceof AbortSignal)) throw new TypeError("Request constructor: signal must be an AbortSignal");
        this.#signal = signal ?? new AbortController().signal;
        this.#headers = new Headers(init.headers !== undefined ? init.headers : from ? from.#headers : undefined);
        let b = { body: null, type: null };
        if (init.body !== undefined) b = extract(init.body);
        else if (from) {
          const fb = bodies.get(from);
          if (fb.used) throw new TypeError("Request constructor: the input Request's body is unusable (already read)");
          if (fb.body !== null) { b = { body: fb.body, type: null }; fb.used = true; }
        }
        if (b.body !== null && (this.#method === "GET" || this.#method === "HEAD")) throw new TypeError("Request with GET/HEAD method cannot have body.");
        if (b.type !== null && !this.#headers.has("content-type")) this.#headers.set("content-type", b.type);
        bodies.set(this, { body: b.body, used: false });
      }
      get url() { return this.#url; }
      get method() { return this.#method; }
      get headers() { return this.#headers; }
      get redirect() { return this.#redirect; }
      get signal() { return this.#signal; }
      get mode() { return "cors"; }
      get credentials() { return "same-origin"; }
      get cache() { return "default"; }
      get destination() { return ""; }
      clone() {
        const b = bodies.get(this);
        if (b.used) throw new TypeError("Request.clone: Body has already been consumed.");
        const c = new Request(this, { body: null });
        bodies.set(c, { body: b.body, used: false });
        return c;
      }
    }
    mixBody(Request);
    tag(Request, "Request");

    const nullBodyStatus = (s) => s === 101 || s === 103 || s === 204 || s === 205 || s === 304;
    let fetched = null; // set while fetch builds a Response: { url, redirected }
    class Response {
      #status; #statusText; #headers; #url = ""; #redirected = false; #type = "default";
      constructor(body = null, init = undefined) {
        if (init !== undefined && init !== null && !isObject(init)) throw new TypeError("Response constructor: init must be an object");
        init = init ?? {};
        const status = init.status !== undefined ? Number(init.status) : 200;
        if (!Number.isInteger(status) || status < 200 || status > 599) {
          if (!(fetched && Number.isInteger(status) && status >= 100 && status <= 599)) throw new RangeError(`init["status"] must be in the range of 200 to 599, inclusive.`);
        }
        const statusText = init.statusText !== undefined ? String(init.statusText) : "";
        if (/[^\t\x20-\x7e\x80-\xff]/.test(statusText)) throw new TypeError("Response constructor: invalid statusText");
        this.#status = status;
        this.#statusText = statusText;
        this.#headers = new Headers(init.headers);
        const b = extract(body);
        if (b.body !== null && nullBodyStatus(status) && !fetched) throw new TypeError("Response constructor: Invalid response status code " + status);
        if (b.type !== null && !this.#headers.has("content-type")) this.#headers.set("content-type", b.type);
        bodies.set(this, { body: b.body, used: false });
        if (fetched) { this.#url = fetched.url; this.#redirected = fetched.redirected; this.#type = "basic"; }
      }
      get type() { return this.#type; }
      get url() { return this.#url; }
      get redirected() { return this.#redirected; }
      get status() { return this.#status; }
      get ok() { return this.#status >= 200 && this.#status <= 299; }
      get statusText() { return this.#statusText; }
      get headers() { return this.#headers; }
      clone() {
        const b = bodies.get(this);
        if (b.used) throw new TypeError("Response.clone: Body has already been consumed.");
        fetched = { url: this.#url, redirected: this.#redirected };
        let c;
        try { c = new Response(null, { status: this.#status, statusText: this.#statusText, headers: this.#headers }); } finally { fetched = null; }
        c.#type = this.#type;
        bodies.set(c, { body: b.body, used: false });
        return c;
      }
      static error() {
        fetched = { url: "", redirected: false };
        let r;
        try { r = new Response(null, { status: 200 }); } finally { fetched = null; }
        r.#status = 0; r.#type = "error";
        return r;
      }
      static json(data, init = undefined) {
        const text = I.fetchStringify(data);
        if (text === undefined) throw new TypeError("Response.json: the data is not JSON-serializable");
        const r = new Response(text, init);
        if (!(init && init.headers && new Headers(init.headers).has("content-type"))) r.#headers.set("content-type", "application/json");
        return r;
      }
      static redirect(url, status = 302) {
        status = Number(status);
        if (![301, 302, 303, 307, 308].includes(status)) throw new RangeError("Invalid status code " + status);
        const r = new Response(null, { status });
        r.#headers.set("location", parseURL(url));
        return r;
      }
    }
    mixBody(Response);
    tag(Response, "Response");

    const failed = (msg) => {
      const err = new TypeError("fetch failed: " + msg);
      Object.defineProperty(err, "cause", { value: clean(new Error(msg)), writable: true, configurable: true });
      return err;
    };
    function fetch(input, init = undefined) {
      const argc = arguments.length;
      return new Promise((resolve, reject) => {
        if (argc === 0) throw new TypeError("fetch: 1 argument required");
        const req = new Request(input, init);
        const signal = req.signal;
        if (signal.aborted) { reject(signal.reason); return; }
        const b = bodies.get(req);
        b.used = b.body !== null;
        const headers = [];
        for (const [k, v] of req.headers) headers.push([k, v]);
        const handle = I.fetch({ url: req.url, method: req.method, headers, body: b.body, redirect: req.redirect });
        let settled = false;
        const onAbort = () => {
          if (settled) return;
          settled = true;
          handle.abort();
          reject(signal.reason);
        };
        signal.addEventListener("abort", onAbort, { once: true });
        handle.promise.then((r) => {
          if (settled) return;
          settled = true;
          signal.removeEventListener("abort", onAbort);
          if (r.error !== undefined) { reject(failed(r.error)); return; }
          fetched = { url: r.url, redirected: r.redirected };
          let res;
          try { res = new Response(null, { status: r.status, statusText: r.statusText }); } finally { fetched = null; }
          const h = res.headers;
          for (const [k, v] of r.headers) setHeader(h, k, v);
          guards.set(h, "immutable");
          bodies.set(res, { body: req.method === "HEAD" || nullBodyStatus(r.status) ? null : r.body, used: false });
          resolve(res);
        });
      });
    }
    return { fetch, Headers, Request, Response };
  };

  // --- URL as Node's: core-js's WHATWG URL (group "url", polyfill.go) with
  // Node's error for an invalid URL (TypeError, code ERR_INVALID_URL, input
  // and base) and no core-js frame in its stack.
  F.nodeURL = (g) => {
    const { URL: CoreURL, URLSearchParams } = g("url");
    // A constructor function over core-js's, sharing its prototype (href and
    // the rest stay on URL.prototype, as in Node); subclasses work through
    // new.target.
    const URL = function URL(input, base = undefined) {
      if (new.target === undefined) throw new TypeError("Class constructor URL cannot be invoked without 'new'");
      if (arguments.length === 0) throw new TypeError('The "url" argument must be specified');
      const withBase = arguments.length > 1 && base !== undefined;
      try {
        return Reflect.construct(CoreURL, withBase ? [input, base] : [input], new.target);
      } catch (e) {
        if (!(e instanceof I.TypeError)) throw clean(e);
        const err = new TypeError("Invalid URL");
        Object.defineProperty(err, "code", { value: "ERR_INVALID_URL", writable: true, enumerable: true, configurable: true });
        Object.defineProperty(err, "input", { value: String(input), writable: true, enumerable: true, configurable: true });
        if (withBase) Object.defineProperty(err, "base", { value: String(base), writable: true, enumerable: true, configurable: true });
        throw err;
      }
    };
    Object.defineProperty(URL, "prototype", { value: CoreURL.prototype, writable: false, enumerable: false, configurable: false });
    Object.defineProperty(CoreURL.prototype, "constructor", { value: URL, writable: true, enumerable: false, configurable: true });
    for (const k of Reflect.ownKeys(CoreURL)) {
      if (k !== "prototype" && k !== "length" && k !== "name") Object.defineProperty(URL, k, Object.getOwnPropertyDescriptor(CoreURL, k));
    }
    return { URL, URLSearchParams };
  };

  return F;
})
