// The type checker for the page's editor, run in a web worker so typing
// never waits for it: TypeScript's language service over a virtual file
// system (@typescript/vfs) holding TypeScript's ES2023 library, the
// runtime's globals (types/globals.d.ts), the "playground" module
// (types/playground.d.ts plus host types built from hello) and the
// published types of the shipped libraries, all bundled into this file by
// build.go: nothing is fetched at run time. @valtown/codemirror-ts's
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

let hostNames = [];
const base = createWorker(async () => {
  const fsMap = new Map(Object.entries(typeFiles));
  fsMap.set("/types/host.d.ts", hostDeclaration(hostNames));
  const system = createSystem(fsMap);
  return createVirtualTypeScriptEnvironment(system, ["/types/globals.d.ts", "/types/playground.d.ts", "/types/host.d.ts"], ts, compilerOptions);
});

Comlink.expose({
  ...base,
  /** initialize builds the environment for a server whose hello lists host. */
  async initialize(host = []) {
    hostNames = host;
    await base.initialize();
  },
  /** setHost rewrites the host declaration (after a reconnect to another server). */
  setHost(host) {
    base.getEnv()?.updateFile("/types/host.d.ts", hostDeclaration(host));
  },
  /** deleteFile forgets a removed or renamed snippet file. */
  deleteFile(path) {
    const env = base.getEnv();
    if (env?.getSourceFile(path)) env.deleteFile(path);
  },
  /** problems returns every listed file's diagnostics: [{ path, from, to, severity, message }]. */
  problems(paths) {
    const env = base.getEnv();
    if (!env) return [];
    return paths.flatMap((path) => base.getLints({ path, diagnosticCodesToIgnore: [] }).map((d) => ({ path, from: d.from, to: d.to, severity: d.severity, message: d.message })));
  },
});
