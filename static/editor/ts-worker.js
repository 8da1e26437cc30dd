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

// Signatures of the host functions the shipped binary registers
// (cmd/playground/host.go); other names get a generic one.
const KNOWN_HOST = {
  echo: "<T>(value: T): Promise<T>",
  sleep: "(ms: number): Promise<number>",
  time: "(): Promise<string>",
  "kv.get": "(key: string): Promise<any>",
  "kv.set": "(key: string, value: unknown): Promise<null>",
  "kv.delete": "(key: string): Promise<null>",
  "kv.list": "(): Promise<string[]>",
};

/** hostDeclaration writes the PlaygroundHost interface for host function names ("kv.get" nests). */
export function hostDeclaration(names) {
  const tree = {};
  for (const name of names) {
    const parts = name.split(".");
    let node = tree;
    for (const p of parts.slice(0, -1)) node = node[p] ??= {};
    node[parts.at(-1)] = name;
  }
  const key = (k) => (/^[A-Za-z_$][\w$]*$/.test(k) ? k : JSON.stringify(k));
  const body = (node, pad) => Object.entries(node).map(([k, v]) => typeof v === "string"
    ? `${pad}/** host.${v}: a host function of this server. */\n${pad}${key(k)}${KNOWN_HOST[v] ?? "(...args: unknown[]): Promise<unknown>"};`
    : `${pad}${key(k)}: {\n${body(v, pad + "  ")}\n${pad}};`).join("\n");
  return `interface PlaygroundHost {\n${body(tree, "  ")}\n}\n`;
}

const identifier = /^[A-Za-z_$][\w$]*$/;

/**
 * hostGlobalsDeclaration declares the host functions the server exposes as
 * globals (hello.hostGlobals, -host-globals): a host function's name gives
 * a global function with its known signature (`declare function
 * sleep(ms: number): Promise<number>`), or `(...args: any[]) => Promise<any>`
 * when its signature is unknown; a namespace ("kv") gives a global object
 * typed as host.kv. Names that are neither, or not identifiers, are skipped.
 */
export function hostGlobalsDeclaration(globals, names) {
  const out = [];
  for (const g of globals) {
    if (!identifier.test(g)) continue;
    if (names.includes(g)) {
      out.push(`/** ${g}: a host function of this server, also global (host.${g}). */\ndeclare function ${g}${KNOWN_HOST[g] ?? "(...args: any[]): Promise<any>"};`);
    } else if (names.some((n) => n.startsWith(g + "."))) {
      out.push(`/** ${g}: host functions of this server, also global (host.${g}). */\ndeclare const ${g}: PlaygroundHost[${JSON.stringify(g)}];`);
    }
  }
  return out.join("\n") + "\n";
}

/**
 * scriptDeclaration declares script mode's globals (docs/protocol.md, mode
 * "script"): input, output, and require typed for each module the server
 * announces (hello.modules) — with the library's published types when
 * typed(name), else any. require of any other name is a type error, as it
 * is an error (or a SECURITY_ERROR for Node's modules) at run time.
 */
export function scriptDeclaration(modules, typed) {
  const req = modules.filter((m) => m !== "playground").map((m) => `declare function require(name: ${JSON.stringify(m)}): ${typed(m) ? `typeof import(${JSON.stringify(m)})` : "any"};`);
  return `// Script mode (a single file without import/export that uses require,
// output or a top-level return; sandbox/worker/bundle/detect.go).
/** The run's input JSON, a mutable copy (undefined when the run has none). */
declare var input: any;
/** The run's output: its final value is the run's output (a top-level return takes precedence). */
declare var output: any;
${req.length ? "/** Loads an allowed library: its CommonJS exports (lodash's callable _). */\n" + req.join("\n") : "declare function require(name: never): never;"}
`;
}

// Detection of script mode, the rule of sandbox/worker/bundle/detect.go
// on TypeScript's syntax tree: the same regular expressions for output.
const assignsOutput = /(^|[^.\w$])output\s*(=[^=]|\.[\w$]+\s*=[^=]|\[)/m;
const declaresOutput = /\b(let|const|var|function|class)\s+output\b/;

/**
 * isScript reports whether a snippet of these files ([{ path, code }]) runs
 * in script mode when its request names no mode: a single file without
 * import or export statements (or import()) that calls require with a
 * string, returns at top level, or assigns the output global.
 */
export function isScript(files) {
  if (files.length !== 1) return false;
  const { path, code } = files[0];
  if (/\.json$/.test(path)) return false;
  if (!code.includes("require") && !code.includes("output") && !code.includes("return")) return false;
  const kind = /\.tsx$/.test(path) ? ts.ScriptKind.TSX : /\.ts$|\.mts$|\.cts$/.test(path) ? ts.ScriptKind.TS : /\.jsx$/.test(path) ? ts.ScriptKind.JSX : ts.ScriptKind.JS;
  const sf = ts.createSourceFile(path, code, ts.ScriptTarget.Latest, true, kind);
  let moduleSyntax = false, returns = false, requires = false, awaits = false;
  const exported = (n) => ts.canHaveModifiers(n) && (ts.getModifiers(n) ?? []).some((m) => m.kind === ts.SyntaxKind.ExportKeyword);
  const visit = (n, top) => {
    if (ts.isImportDeclaration(n) || ts.isExportDeclaration(n) || ts.isExportAssignment(n) || ts.isImportEqualsDeclaration(n) || exported(n)) moduleSyntax = true;
    if (ts.isCallExpression(n) && n.expression.kind === ts.SyntaxKind.ImportKeyword) moduleSyntax = true;
    if (ts.isCallExpression(n) && ts.isIdentifier(n.expression) && n.expression.text === "require" && n.arguments.length > 0 && ts.isStringLiteralLike(n.arguments[0])) requires = true;
    if (top && ts.isReturnStatement(n)) returns = true;
    if (top && (ts.isAwaitExpression(n) || (ts.isForOfStatement(n) && n.awaitModifier))) awaits = true;
    const inner = top && !ts.isFunctionLike(n) && !ts.isClassLike(n);
    ts.forEachChild(n, (c) => visit(c, inner));
  };
  ts.forEachChild(sf, (c) => visit(c, true));
  if (moduleSyntax) return false;
  // detect.go parses the file with esbuild, which refuses a top-level
  // return next to a top-level await (an ES module): such a file runs as a
  // module, where its return is the error TS1108 reports here too.
  if (returns && awaits) return false;
  return returns || requires || (assignsOutput.test(code) && !declaresOutput.test(code));
}

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
// typed reports whether the worker holds a module's published types.
const typed = (m) => `/node_modules/${m}/package.json` in typeFiles || `/node_modules/@types/${m}/package.json` in typeFiles;

// What the server's hello announced, and the snippet's files (path → code)
// as the page last sent them: they decide script mode.
let hello = { host: [], hostGlobals: [], modules: [] };
const snippet = new Map();
let script = false;

const hostFile = () => hostDeclaration(hello.host) + hostGlobalsDeclaration(hello.hostGlobals, hello.host);
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
