// The snippet runtime's global scope, as the editor's type checker sees it:
// ONE file to extend when the runtime gains a global (URL, TextEncoder,
// structuredClone, AbortController, Intl… are planned). The ECMAScript
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

/** Timer ids are numbers. In deterministic runs timers advance a virtual clock at once. */
declare function setTimeout(handler: (...args: any[]) => void, timeout?: number, ...args: any[]): number;
declare function setInterval(handler: (...args: any[]) => void, timeout?: number, ...args: any[]): number;
declare function clearTimeout(id: number | undefined): void;
declare function clearInterval(id: number | undefined): void;
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
}
declare var crypto: Crypto;
