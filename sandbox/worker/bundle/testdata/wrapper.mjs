// Runs snippets against a whole package (the CommonJS package, as
// sandbox/libs/dist/<package>.js bundles it) and against its chunks
// (bundle.LibraryChunk in wrapper mode), under Node.
// Usage: node wrapper.mjs PACKAGE PARAM CASES.json, where CASES.json is
// [{"name": …, "code": …, "chunk": path of the chunk's script}]; code is
// a function body of PARAM (the package's export: jStat for
// jstat) and `log` (an array callbacks may push to).
// Prints one JSON line per case: {name, whole, chunk}, each the JSON of
// [returned value, log] or "throws: <message>".
import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';
import vm from 'node:vm';

const require = createRequire(new URL('../../../libs/package.json', import.meta.url));
const [pkg, param, file] = process.argv.slice(2);
const whole = require(pkg);
const cases = JSON.parse(readFileSync(file, 'utf8'));

function run(lib, code) {
  const log = [];
  try {
    const v = new Function(param, 'log', code)(lib, log);
    return JSON.stringify([v === undefined ? null : v, log]);
  } catch (e) {
    return 'throws: ' + e.message;
  }
}

for (const c of cases) {
  const chunk = vm.runInThisContext(readFileSync(c.chunk, 'utf8'));
  console.log(JSON.stringify({ name: c.name, whole: run(whole, c.code), chunk: run(chunk, c.code) }));
}
