// The Node side of cmd/realwork: runs one workload as the server's script
// mode would (input, require, output, require('playground').facts) and
// times it the same way, p50 of the reps after a warm-up.
//
// usage: node [--jitless] harness.js JOB.json
// JOB: {"code": "...", "inputFile": "path of the input JSON", "reps": 3,
//       "libs": "dir holding node_modules", "lib": "name" (instead of code:
//       time the first require of lib and one call into it)}
// Prints one JSON line: {"ms": [...], "output": ..., "facts": ..., "logBytes": N}
'use strict';
const fs = require('fs');
const path = require('path');
const util = require('util');
const { createRequire } = require('module');
const { performance } = require('perf_hooks');

const job = JSON.parse(fs.readFileSync(process.argv[2], 'utf8'));
const req = createRequire(path.join(job.libs, 'package.json'));

if (job.lib) {
  // Cold load: a fresh process, the first require of the library and the
  // call the driver names (job.touch), timed together.
  const t0 = performance.now();
  const fn = new Function('require', job.touch);
  const out = fn(req);
  const ms = performance.now() - t0;
  process.stdout.write(JSON.stringify({ ms: [ms], output: out }) + '\n');
  process.exit(0);
}

const inputText = fs.readFileSync(job.inputFile, 'utf8');
let logBytes = 0;
// console.log formats as Node does (util.format, the work the server's
// console does to lay out text) and drops the text: no terminal timing.
const sinkConsole = {};
for (const level of ['log', 'info', 'warn', 'error', 'debug']) {
  sinkConsole[level] = (...args) => { logBytes += util.format(...args).length; };
}

function once() {
  const t0 = performance.now();
  const input = JSON.parse(inputText);
  const facts = {};
  const playground = { facts, input, host: {} };
  const requireFn = (name) => (name === 'playground' ? playground : req(name));
  // The script's top level is a function body: `output = …` assigns the
  // wrapper's own variable, as the server's script mode makes it a global.
  const fn = new Function('input', 'require', 'console',
    'let output;\n(function () {\n' + job.code + '\n})();\nreturn output;');
  const output = fn(input, requireFn, sinkConsole);
  const outText = JSON.stringify(output === undefined ? null : output);
  const factsText = JSON.stringify(facts);
  const ms = performance.now() - t0;
  return { ms, outText, factsText };
}

const ms = [];
let last;
for (let i = 0; i <= job.reps; i++) {
  last = once();
  if (i > 0) ms.push(last.ms); // the first is the warm-up
}
process.stdout.write('{"ms":' + JSON.stringify(ms) + ',"output":' + last.outText +
  ',"facts":' + last.factsText + ',"logBytes":' + logBytes + '}\n');
