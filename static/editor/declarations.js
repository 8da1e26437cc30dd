// The declarations the type worker writes from the server's hello (host
// functions, host globals, script-mode globals) and the script-mode rule,
// apart from the worker so `node --test static/` can check them
// (declarations.test.mjs). Imports only TypeScript.
import ts from "typescript";

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

/**
 * untypedModulesDeclaration declares each module the server announces
 * (hello.modules) whose types the worker does not hold as `any`
 * (`declare module "jstat";`), so importing it is not "Cannot find module".
 */
export function untypedModulesDeclaration(modules, typed) {
  return modules.filter((m) => m !== "playground" && !typed(m)).map((m) => `declare module ${JSON.stringify(m)};`).join("\n") + "\n";
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
  let moduleSyntax = false, returns = false, requires = false;
  const exported = (n) => ts.canHaveModifiers(n) && (ts.getModifiers(n) ?? []).some((m) => m.kind === ts.SyntaxKind.ExportKeyword);
  const visit = (n, top) => {
    if (ts.isImportDeclaration(n) || ts.isExportDeclaration(n) || ts.isExportAssignment(n) || ts.isImportEqualsDeclaration(n) || exported(n)) moduleSyntax = true;
    if (ts.isCallExpression(n) && n.expression.kind === ts.SyntaxKind.ImportKeyword) moduleSyntax = true;
    if (ts.isCallExpression(n) && ts.isIdentifier(n.expression) && n.expression.text === "require" && n.arguments.length > 0 && ts.isStringLiteralLike(n.arguments[0])) requires = true;
    if (top && ts.isReturnStatement(n)) returns = true;
    const inner = top && !ts.isFunctionLike(n) && !ts.isClassLike(n);
    ts.forEachChild(n, (c) => visit(c, inner));
  };
  ts.forEachChild(sf, (c) => visit(c, true));
  if (moduleSyntax) return false;
  return returns || requires || (assignsOutput.test(code) && !declaresOutput.test(code));
}

