// Checks the type worker's declarations and script-mode rule
// (declarations.js) with TypeScript itself: run by `node --test static/`
// after `npm ci` in static/editor (scripts/test.sh).
import { test } from "node:test";
import assert from "node:assert/strict";
import ts from "typescript";
import { hostDeclaration, hostGlobalsDeclaration, scriptDeclaration, untypedModulesDeclaration, isScript } from "./declarations.js";

const one = (code, path = "main.ts") => isScript([{ path, code }]);

test("isScript follows sandbox/worker/bundle/detect.go", () => {
  const cases = [
    // [source, script?, why]
    [`const _ = require("lodash");\nconsole.log(_.sum(input.values));`, true, "require with a string"],
    [`output = { n: 1 };`, true, "assigns output"],
    [`output.n = 1;`, true, "assigns a property of output"],
    [`output["n"] = 1;`, true, "indexes output"],
    [`if (input.n > 1) return 2;\nconsole.log("small");`, true, "top-level return"],
    [`for (const x of [1]) { if (x) return x; }`, true, "return in a top-level block"],
    [`function f() { return 1; }\nconsole.log(f());`, false, "return inside a function"],
    [`const f = () => { return 1; };`, false, "return inside an arrow function"],
    [`class A { m() { return 1; } }`, false, "return inside a method"],
    [`let output = 1;\noutput = 2;`, false, "declares its own output"],
    [`const x = { output: 1 };\nconsole.log(x.output);`, false, "a property named output"],
    [`console.log(output === 1);`, false, "reads output only"],
    [`import _ from "lodash";\noutput = _.sum([1]);`, false, "an import"],
    [`output = 1;\nexport {};`, false, "an export"],
    [`export const output2 = 1;\nreturn 1;`, false, "an exported declaration"],
    [`const m = await import("lodash");\noutput = 1;`, false, "a dynamic import"],
    [`const name = "lodash";\nrequire(name);`, false, "require of a variable (esbuild sees no module)"],
    [`const ms = await sleep(10);\nconsole.log(ms);`, false, "top-level await alone"],
    [`const _ = require("lodash");\nawait sleep(1);\noutput = 1;`, true, "top-level await with require"],
    [`await sleep(1);\nreturn 1;`, true, "top-level await and return"],
    [`console.log("hello");`, false, "plain code"],
  ];
  for (const [code, want, why] of cases) assert.equal(one(code), want, `${why}: ${JSON.stringify(code)}`);
  assert.equal(one(`output = 1;`, "data.json"), false, "JSON is never a script");
  assert.equal(one(`const _ = require("lodash");\noutput = 1;`, "main.js"), true, "JavaScript too");
  assert.equal(isScript([{ path: "main.ts", code: "output = 1;" }, { path: "b.ts", code: "" }]), false, "two files");
  assert.equal(isScript([]), false, "no files");
});

test("scriptDeclaration types require per announced module, skipping playground", () => {
  const d = scriptDeclaration(["playground", "lodash", "jstat"], (m) => m === "lodash");
  assert.match(d, /declare var input: any;/);
  assert.match(d, /declare var output: any;/);
  assert.match(d, /declare function require\(name: "lodash"\): typeof import\("lodash"\);/);
  assert.match(d, /declare function require\(name: "jstat"\): any;/);
  assert.doesNotMatch(d, /"playground"/);
  assert.match(scriptDeclaration([], () => false), /declare function require\(name: never\): never;/);
});

test("hostGlobalsDeclaration: functions with known signatures, namespaces, unknown names skipped", () => {
  const names = ["echo", "sleep", "log", "kv.get", "kv.set"];
  const d = hostGlobalsDeclaration(["echo", "sleep", "log", "kv", "nothing", "not-an-id"], names);
  assert.match(d, /declare function echo<T>\(value: T\): Promise<T>;/);
  assert.match(d, /declare function sleep\(ms: number\): Promise<number>;/);
  assert.match(d, /declare function log\(\.\.\.args: any\[\]\): Promise<any>;/);
  assert.match(d, /declare const kv: PlaygroundHost\["kv"\];/);
  assert.doesNotMatch(d, /nothing|not-an-id/);
});

// The declarations compile with TypeScript: valid code checks clean, misuse is an error.
test("the declarations compile and type script-mode code", () => {
  const names = ["echo", "sleep", "kv.get"];
  const files = new Map([
    ["/host.d.ts", hostDeclaration(names) + hostGlobalsDeclaration(["echo", "sleep", "kv"], names) + untypedModulesDeclaration(["playground", "jstat"], () => false)],
    ["/script.d.ts", scriptDeclaration(["lodash"], () => false)],
    ["/mod.ts", `import jStat from "jstat";\nexport const m: number = jStat.mean([1, 2]);\n`],
    ["/main.ts", `const a: number = await sleep(1);\nconst b: string = await echo("x");\nconst c = await kv.get("k");\noutput = { a, b, c, n: input.n, l: require("lodash") };\n`],
    ["/bad.ts", `const a: string = await sleep(1);\nrequire("fs");\n`],
  ]);
  const options = { target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ESNext, strict: true, noEmit: true, noLib: true, moduleDetection: ts.ModuleDetectionKind.Force, types: [] };
  const host = ts.createCompilerHost(options);
  const lib = `interface Array<T> { length: number } interface Boolean {} interface Function {} interface IArguments {} interface Number {} interface Object {} interface RegExp {} interface String {} interface CallableFunction {} interface NewableFunction {} interface Promise<T> { then(f: (v: T) => void): void }`;
  files.set("/lib.d.ts", lib);
  host.getSourceFile = (name, version) => (files.has(name) ? ts.createSourceFile(name, files.get(name), version) : undefined);
  host.fileExists = (name) => files.has(name);
  host.readFile = (name) => files.get(name);
  const program = ts.createProgram([...files.keys()], options, host);
  const diags = (f) => ts.getPreEmitDiagnostics(program, program.getSourceFile(f)).filter((d) => d.file?.fileName === f).map((d) => `${d.code} ${ts.flattenDiagnosticMessageText(d.messageText, " ")}`);
  assert.deepEqual(diags("/main.ts"), []);
  assert.deepEqual(diags("/mod.ts"), [], "an announced module without types is any");
  assert.deepEqual(diags("/host.d.ts"), []);
  assert.deepEqual(diags("/script.d.ts"), []);
  const bad = diags("/bad.ts");
  assert.equal(bad.length, 2, bad.join("\n"));
  assert.match(bad[0], /^2322 Type 'number' is not assignable to type 'string'/);
  assert.match(bad[1], /^2345 Argument of type '"fs"' is not assignable to parameter of type '"lodash"'/);
});

test("untypedModulesDeclaration declares announced modules without types, not playground", () => {
  assert.equal(untypedModulesDeclaration(["playground", "lodash", "jstat"], (m) => m === "lodash"), `declare module "jstat";\n`);
});
