// The snippet runtime's global scope, as the editor's type checker sees it:
// ONE file to extend when the runtime gains a global. (Intl comes with
// TypeScript's ES library, but the runtime has none: using it fails at run
// time with a clear error.) The ECMAScript
// built-ins come from TypeScript's own lib.es2023 (no DOM lib: the runtime
// has no window, document, fetch or other browser or Node API, so using
// one is a type error here as it is a SECURITY_ERROR at run time).
// Source of truth: sandbox's runtime setup (console, timers,
// queueMicrotask, performance, crypto) and README "The snippet runtime".

interface Console {
  log(...data: unknown[]): void;
  info(...data: unknown[]): void;
  warn(...data: unknown[]): void;
  error(...data: unknown[]): void;
  debug(...data: unknown[]): void;
  /** Prints "Trace:", the arguments and the current stack. */
  trace(...data: unknown[]): void;
  /** Prints the value's preview (one argument; the rest are ignored). */
  dir(item?: unknown, options?: unknown): void;
  /** Prints "Assertion failed" and the arguments when condition is falsy. */
  assert(condition?: boolean, ...data: unknown[]): void;
  count(label?: string): void;
  countReset(label?: string): void;
  time(label?: string): void;
  timeLog(label?: string, ...data: unknown[]): void;
  timeEnd(label?: string): void;
  /** Indents the following lines by a level until groupEnd. */
  group(...label: unknown[]): void;
  groupCollapsed(...label: unknown[]): void;
  groupEnd(): void;
  /** Prints an array or object as a table; columns picks the columns. */
  table(tabularData?: unknown, properties?: string[]): void;
}
declare var console: Console;

declare namespace NodeJS {
  /** Node's timer handle, as @types/node names it: +handle is the timer's id. */
  interface Timeout {
    /** Re-arms the timer its delay from now (a fired one runs again); not a cleared one. */
    refresh(): this;
    /** The run may end while this timer is pending, as Node's process exits. */
    unref(): this;
    ref(): this;
    hasRef(): boolean;
    /** clearTimeout(this). */
    close(): this;
    [Symbol.toPrimitive](): number;
  }
}
/** Timers return Node's Timeout handle. In deterministic runs timers advance a virtual clock at once. */
declare function setTimeout(handler: (...args: any[]) => void, timeout?: number, ...args: any[]): NodeJS.Timeout;
declare function setInterval(handler: (...args: any[]) => void, timeout?: number, ...args: any[]): NodeJS.Timeout;
declare function clearTimeout(id: NodeJS.Timeout | string | number | undefined): void;
declare function clearInterval(id: NodeJS.Timeout | string | number | undefined): void;
declare function queueMicrotask(callback: () => void): void;

interface Performance {
  /** Milliseconds since the run started (virtual in deterministic runs). */
  now(): number;
}
declare var performance: Performance;

interface Crypto {
  /** Fills an integer typed array with random values (seeded in deterministic runs). */
  getRandomValues<T extends Int8Array | Uint8Array | Uint8ClampedArray | Int16Array | Uint16Array | Int32Array | Uint32Array | BigInt64Array | BigUint64Array>(array: T): T;
  /** A random RFC 4122 version 4 UUID. */
  randomUUID(): `${string}-${string}-${string}-${string}-${string}`;
  /** Web Crypto's digests only; keys, signing and encryption are not provided. */
  readonly subtle: SubtleCrypto;
}
interface SubtleCrypto {
  /** The SHA digest of data, an ArrayBuffer. */
  digest(algorithm: "SHA-1" | "SHA-256" | "SHA-384" | "SHA-512" | { name: string } | string, data: ArrayBuffer | ArrayBufferView): Promise<ArrayBuffer>;
}
declare var crypto: Crypto;

// Web platform APIs the runtime provides (sandbox/worker/js/polyfill.go),
// declared as the WHATWG specs define them, trimmed to what runs.
declare function structuredClone<T>(value: T, options?: { transfer?: any[] }): T;
declare function atob(data: string): string;
declare function btoa(data: string): string;

declare class URLSearchParams implements Iterable<[string, string]> {
  constructor(init?: string[][] | Record<string, string> | string | URLSearchParams);
  readonly size: number;
  append(name: string, value: string): void;
  delete(name: string, value?: string): void;
  get(name: string): string | null;
  getAll(name: string): string[];
  has(name: string, value?: string): boolean;
  set(name: string, value: string): void;
  sort(): void;
  toString(): string;
  forEach(callbackfn: (value: string, key: string, parent: URLSearchParams) => void, thisArg?: any): void;
  entries(): IterableIterator<[string, string]>;
  keys(): IterableIterator<string>;
  values(): IterableIterator<string>;
  [Symbol.iterator](): IterableIterator<[string, string]>;
}

declare class URL {
  constructor(url: string | URL, base?: string | URL);
  static canParse(url: string | URL, base?: string | URL): boolean;
  hash: string;
  host: string;
  hostname: string;
  href: string;
  readonly origin: string;
  password: string;
  pathname: string;
  port: string;
  protocol: string;
  search: string;
  readonly searchParams: URLSearchParams;
  username: string;
  toString(): string;
  toJSON(): string;
}

declare class TextEncoder {
  readonly encoding: "utf-8";
  encode(input?: string): Uint8Array;
  encodeInto(source: string, destination: Uint8Array): { read: number; written: number };
}

declare class TextDecoder {
  constructor(label?: "utf-8" | "utf8", options?: { fatal?: boolean; ignoreBOM?: boolean });
  readonly encoding: string;
  readonly fatal: boolean;
  readonly ignoreBOM: boolean;
  decode(input?: ArrayBuffer | ArrayBufferView, options?: { stream?: boolean }): string;
}

declare class DOMException extends Error {
  constructor(message?: string, name?: string);
  readonly code: number;
}

declare class Event {
  constructor(type: string, eventInitDict?: { bubbles?: boolean; cancelable?: boolean; composed?: boolean });
  readonly type: string;
  readonly target: EventTarget | null;
  readonly currentTarget: EventTarget | null;
  readonly defaultPrevented: boolean;
  readonly cancelable: boolean;
  readonly timeStamp: number;
  preventDefault(): void;
  stopPropagation(): void;
  stopImmediatePropagation(): void;
}

type EventListenerOrEventListenerObject = ((event: Event) => void) | { handleEvent(event: Event): void };

declare class EventTarget {
  addEventListener(type: string, listener: EventListenerOrEventListenerObject | null, options?: boolean | { once?: boolean; signal?: AbortSignal }): void;
  removeEventListener(type: string, listener: EventListenerOrEventListenerObject | null, options?: boolean): void;
  dispatchEvent(event: Event): boolean;
}

declare class AbortSignal extends EventTarget {
  static abort(reason?: any): AbortSignal;
  static timeout(milliseconds: number): AbortSignal;
  static any(signals: AbortSignal[]): AbortSignal;
  readonly aborted: boolean;
  readonly reason: any;
  onabort: ((this: AbortSignal, ev: Event) => any) | null;
  throwIfAborted(): void;
}

declare class AbortController {
  readonly signal: AbortSignal;
  abort(reason?: any): void;
}

// fetch (WHATWG Fetch), performed by the server under the operator's policy
// (docs/fetch.md): without one it rejects with a TypeError. Bodies are
// whole: no streams (body is always null), no blob() or formData().
type HeadersInit = [string, string][] | Record<string, string> | Headers;
type BodyInit = string | ArrayBuffer | ArrayBufferView | URLSearchParams;
type RequestInfo = Request | string | URL;
type RequestRedirect = "follow" | "error" | "manual";

declare class Headers implements Iterable<[string, string]> {
  constructor(init?: HeadersInit);
  append(name: string, value: string): void;
  delete(name: string): void;
  get(name: string): string | null;
  getSetCookie(): string[];
  has(name: string): boolean;
  set(name: string, value: string): void;
  forEach(callbackfn: (value: string, key: string, parent: Headers) => void, thisArg?: any): void;
  entries(): IterableIterator<[string, string]>;
  keys(): IterableIterator<string>;
  values(): IterableIterator<string>;
  [Symbol.iterator](): IterableIterator<[string, string]>;
}

interface RequestInit {
  method?: string;
  headers?: HeadersInit;
  body?: BodyInit | null;
  redirect?: RequestRedirect;
  signal?: AbortSignal | null;
}

interface ResponseInit {
  status?: number;
  statusText?: string;
  headers?: HeadersInit;
}

interface Body {
  readonly body: null;
  readonly bodyUsed: boolean;
  arrayBuffer(): Promise<ArrayBuffer>;
  bytes(): Promise<Uint8Array>;
  json(): Promise<any>;
  text(): Promise<string>;
}

declare class Request implements Body {
  constructor(input: RequestInfo, init?: RequestInit);
  readonly url: string;
  readonly method: string;
  readonly headers: Headers;
  readonly redirect: RequestRedirect;
  readonly signal: AbortSignal;
  readonly body: null;
  readonly bodyUsed: boolean;
  clone(): Request;
  arrayBuffer(): Promise<ArrayBuffer>;
  bytes(): Promise<Uint8Array>;
  json(): Promise<any>;
  text(): Promise<string>;
}

declare class Response implements Body {
  constructor(body?: BodyInit | null, init?: ResponseInit);
  static error(): Response;
  static json(data: any, init?: ResponseInit): Response;
  static redirect(url: string | URL, status?: number): Response;
  readonly type: "basic" | "default" | "error";
  readonly url: string;
  readonly redirected: boolean;
  readonly status: number;
  readonly ok: boolean;
  readonly statusText: string;
  readonly headers: Headers;
  readonly body: null;
  readonly bodyUsed: boolean;
  clone(): Response;
  arrayBuffer(): Promise<ArrayBuffer>;
  bytes(): Promise<Uint8Array>;
  json(): Promise<any>;
  text(): Promise<string>;
}

declare function fetch(input: RequestInfo, init?: RequestInit): Promise<Response>;

// ES2024+ additions the runtime provides beyond TypeScript's ES2023 library.
interface ObjectConstructor {
  groupBy<K extends PropertyKey, T>(items: Iterable<T>, keySelector: (item: T, index: number) => K): Partial<Record<K, T[]>>;
}
interface MapConstructor {
  groupBy<K, T>(items: Iterable<T>, keySelector: (item: T, index: number) => K): Map<K, T[]>;
}
interface PromiseConstructor {
  withResolvers<T>(): { promise: Promise<T>; resolve: (value: T | PromiseLike<T>) => void; reject: (reason?: any) => void };
}
interface ArrayConstructor {
  fromAsync<T>(iterable: AsyncIterable<T> | Iterable<T | PromiseLike<T>>): Promise<T[]>;
}
