// record.mjs runs every snippet of cases.txt under Node and writes what
// each evaluates to into golden.json, which TestGolden compares the
// playground's Intl with. Record (Node 20, UTC):
//
//	cd sandbox/worker/js/intl && TZ=UTC node testdata/record.mjs > testdata/golden.json
//
// TestGoldenIsFresh re-runs it when node is on PATH and fails if the
// output differs from golden.json.
//
// cases.txt: one snippet a line; blank lines and lines starting with "#"
// are skipped. A snippet is an expression, or statements with a return.
// Its result is shown as show() below does: a string as itself, anything
// else as JSON; a throw as "throws NAME".
import { readFileSync } from "node:fs";

if (Intl.DateTimeFormat().resolvedOptions().timeZone !== "UTC") {
  console.error("record.mjs: run with TZ=UTC (the playground's time zone)");
  process.exit(1);
}
const src = readFileSync(new URL("cases.txt", import.meta.url), "utf8");
const out = [];
for (const line of src.split("\n")) {
  if (line.trim() === "" || line.startsWith("#")) continue;
  out.push({ src: line, want: run(line) });
}
console.log(JSON.stringify({ node: process.version, icu: process.versions.icu, cases: out }, null, 1));

// run is also the playground side's harness (the Go test evaluates the
// same function's source).
function run(line) {
  const show = (r) => (typeof r === "string" ? r : typeof r === "bigint" ? r + "n" : JSON.stringify(r) ?? String(r));
  try {
    const f = new Function(/\breturn\b/.test(line) ? line : "return (" + line + ")");
    return show(f());
  } catch (e) {
    return "throws " + (e && e.name);
  }
}
