// Compares a package's exports with the members of its Instance
// (libs.ESMSource.Instance), under Node.
// Usage: node instance.mjs PACKAGE INSTANCE.js NAMES.json EXPRS.json
// For every name: the same typeof, the same typed-function signatures, and
// for a value that is not a function the same JSON; for every expression,
// the same formatted result of evaluate (or the same error message).
// Prints one line per difference and then "checked N".
import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';
import vm from 'node:vm';

const [pkg, instancePath, namesPath, exprsPath] = process.argv.slice(2);
const require = createRequire(new URL('../../../libs/package.json', import.meta.url));
const whole = require(pkg);
const m = vm.runInThisContext(readFileSync(instancePath, 'utf8'));
const names = JSON.parse(readFileSync(namesPath, 'utf8'));
const exprs = JSON.parse(readFileSync(exprsPath, 'utf8'));

const show = (v) => {
  try {
    return JSON.stringify(v);
  } catch (e) {
    return 'unshowable: ' + e.message;
  }
};
const sigs = (f) => (f && f.signatures ? Object.keys(f.signatures).sort().join(' | ') : '');
let checked = 0;
for (const n of names) {
  const a = whole[n], b = m[n];
  checked++;
  if (typeof a !== typeof b) {
    console.log(`${n}: typeof ${typeof a} in the package, ${typeof b} in the instance`);
  } else if (typeof a === 'function') {
    if (sigs(a) !== sigs(b)) console.log(`${n}: signatures ${sigs(a)} / ${sigs(b)}`);
  } else if (show(a) !== show(b)) {
    console.log(`${n}: ${show(a)} / ${show(b)}`);
  }
}
const run = (lib, e) => {
  try {
    return lib.format(lib.evaluate(e), { precision: 14 });
  } catch (err) {
    return 'throws: ' + err.message;
  }
};
for (const e of exprs) {
  checked++;
  const a = run(whole, e), b = run(m, e);
  if (a !== b) console.log(`evaluate(${JSON.stringify(e)}): ${a} / ${b}`);
}
console.log('checked ' + checked);
