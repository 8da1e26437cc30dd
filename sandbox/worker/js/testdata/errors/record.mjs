// Records Node's words for every error situation of cases.js into
// cases.golden, which sandbox/worker/js/errors_v8_test.go compares the
// playground's with. Run from this directory with Node 20:
//
//	node record.mjs            (node --version: v20.x)
import { execFileSync } from "node:child_process";
import { writeFileSync } from "node:fs";

if (!process.version.startsWith("v20.")) {
  console.error(`record.mjs: want Node 20, have ${process.version}`);
  process.exit(1);
}
writeFileSync("cases.golden", execFileSync(process.execPath, ["cases.js"], { encoding: "utf8" }));
