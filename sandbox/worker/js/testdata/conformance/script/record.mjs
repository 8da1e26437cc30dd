// Records Node's console output for every script-mode conformance snippet
// into <name>.golden, which sandbox/worker/js/conformance_script_test.go
// compares the playground's script mode with. Each snippet runs as a
// classic (sloppy) script in a new context, as vm.runInNewContext runs it.
// Run from this directory with Node 20:
//
//	node record.mjs            (node --version: v20.x)
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { format } from "node:util";
import vm from "node:vm";

if (!process.version.startsWith("v20.")) {
  console.error(`record.mjs: want Node 20, have ${process.version}`);
  process.exit(1);
}
for (const f of readdirSync(".").filter((f) => f.endsWith(".js")).sort()) {
  let out = "";
  const console = { log: (...args) => { out += format(...args) + "\n"; } };
  try {
    vm.runInNewContext(readFileSync(f, "utf8"), { console }, { filename: f });
  } catch (e) {
    out += "UNCAUGHT: " + e.name + ": " + e.message + "\n";
  }
  writeFileSync(f.replace(/\.js$/, ".golden"), out);
}
