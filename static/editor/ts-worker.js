// The type checker for the page's editor, run in a web worker so typing
// never waits for it: TypeScript's language service over a virtual file
// system (@typescript/vfs) holding TypeScript's ES2023 library, the
// runtime's globals (types/globals.d.ts), the "playground" module
// (types/playground.d.ts plus host types built from hello), the host
// globals and script-mode globals written here, and the published types
// of the shipped libraries, all bundled into this file by build.go:
// nothing is fetched at run time. @valtown/codemirror-ts's
// createWorker gives the lint, completion and hover calls the editor makes
// through Comlink.
import * as Comlink from "comlink";
import ts from "typescript";
import { createSystem, createVirtualTypeScriptEnvironment } from "@typescript/vfs";
import { createWorker } from "@valtown/codemirror-ts/worker";
import typeFiles from "virtual:typefiles"; // { "/lib.es5.d.ts": text, "/types/globals.d.ts": text, "/node_modules/…": text }
import { hostDeclaration, hostGlobalsDeclaration, scriptDeclaration, untypedModulesDeclaration, isScript } from "./declarations.js";

export const compilerOptions = {
  target: ts.ScriptTarget.ES2022,
  module: ts.ModuleKind.ESNext,
  moduleResolution: ts.ModuleResolutionKind.Bundler,
  lib: ["lib.es2023.d.ts"],
  types: [],
  strict: true,
  noEmit: true,
  allowJs: true,
  checkJs: false,
  jsx: ts.JsxEmit.Preserve,
  resolveJsonModule: true,
  allowImportingTsExtensions: true,
  esModuleInterop: true,
  skipLibCheck: true,
  moduleDetection: ts.ModuleDetectionKind.Force,
};

// TS1108, "A 'return' statement can only be used within a function body":
// script mode allows a top-level return.
const TOP_LEVEL_RETURN = 1108;
const MODULE_MODE = "// module mode: no script globals (input is the \"playground\" module's export)\nexport {};\n";
// typed reports whether the worker holds a module's published types: a
// package's, or those of a subpath served as a library of its own
// (date-fns/locale: build.go's typeSubpaths), which TypeScript finds
// through its package's exports.
const typed = (m) => `/node_modules/${m}/package.json` in typeFiles || `/node_modules/@types/${m}/package.json` in typeFiles || `/node_modules/${m}.d.ts` in typeFiles;

// What the server's hello announced, and the snippet's files (path → code)
// as the page last sent them: they decide script mode.
let hello = { host: [], hostGlobals: [], modules: [] };
const snippet = new Map();
let script = false;

const hostFile = () => hostDeclaration(hello.host) + hostGlobalsDeclaration(hello.hostGlobals, hello.host) + untypedModulesDeclaration(hello.modules, typed);
const scriptFile = () => (script ? scriptDeclaration(hello.modules, typed) : MODULE_MODE);

// own reports whether a path is a snippet file (not one of the worker's).
const own = (path) => !path.startsWith("/types/") && !path.startsWith("/node_modules/") && !/^\/lib\.[^/]*\.d\.ts$/.test(path);

// remode re-detects script mode after the snippet changed and rewrites the
// script globals when it flips.
function remode() {
  const now = isScript([...snippet].map(([path, code]) => ({ path, code })));
  if (now === script) return;
  script = now;
  base.getEnv()?.updateFile("/types/script.d.ts", scriptFile());
}

const base = createWorker(async () => {
  const fsMap = new Map(Object.entries(typeFiles));
  fsMap.set("/types/host.d.ts", hostFile());
  fsMap.set("/types/script.d.ts", scriptFile());
  const system = createSystem(fsMap);
  return createVirtualTypeScriptEnvironment(system, ["/types/globals.d.ts", "/types/playground.d.ts", "/types/host.d.ts", "/types/script.d.ts"], ts, compilerOptions);
});

const announced = (host, extra = {}) => ({ host: host ?? [], hostGlobals: extra.hostGlobals ?? [], modules: extra.modules ?? [] });

// lints is getLints that accepts a top-level return in script mode.
const lints = (path, ignore = []) => base.getLints({ path, diagnosticCodesToIgnore: script && snippet.has(path) ? [...ignore, TOP_LEVEL_RETURN] : ignore });

Comlink.expose({
  ...base,
  /**
   * initialize builds the environment for a server whose hello lists host
   * (function names); extra holds hello's hostGlobals and modules.
   */
  async initialize(host = [], extra = {}) {
    hello = announced(host, extra);
    await base.initialize();
  },
  /** setHost rewrites the host and script declarations (after a reconnect to another server). */
  setHost(host, extra = {}) {
    hello = announced(host, extra);
    const env = base.getEnv();
    env?.updateFile("/types/host.d.ts", hostFile());
    env?.updateFile("/types/script.d.ts", scriptFile());
  },
  /** updateFile sets a snippet file's text ({ path, code }) and re-detects script mode. */
  updateFile({ path, code }) {
    base.updateFile({ path, code });
    if (!own(path)) return;
    snippet.set(path, code);
    remode();
  },
  /** deleteFile forgets a removed or renamed snippet file. */
  deleteFile(path) {
    const env = base.getEnv();
    if (env?.getSourceFile(path)) env.deleteFile(path);
    snippet.delete(path);
    remode();
  },
  /** getLints is the editor's lint call ({ path, diagnosticCodesToIgnore }). */
  getLints({ path, diagnosticCodesToIgnore }) {
    return lints(path, diagnosticCodesToIgnore);
  },
  /** isScript reports whether the snippet runs in script mode (the page's Run tab and tests read it). */
  isScript: () => script,
  /** problems returns every listed file's diagnostics: [{ path, from, to, severity, message }]. */
  problems(paths) {
    const env = base.getEnv();
    if (!env) return [];
    return paths.flatMap((path) => lints(path).map((d) => ({ path, from: d.from, to: d.to, severity: d.severity, message: d.message })));
  },
});
