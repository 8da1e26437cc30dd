// Records Node's console output for every conformance snippet into
// <name>.golden, which sandbox/worker/js/conformance_test.go compares the
// playground's output with. Run from this directory with Node 20:
//
//	node record.mjs            (node --version: v20.x)
//
// A snippet whose first line is "// beyond Node 20: …" uses an API Node 20
// lacks: it is not recorded (its <name>.golden is written by hand from the
// specification and says so in its first line).
import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync, writeFileSync } from "node:fs";

if (!process.version.startsWith("v20.")) {
  console.error(`record.mjs: want Node 20, have ${process.version}`);
  process.exit(1);
}
for (const f of readdirSync(".").filter((f) => f.endsWith(".js")).sort()) {
  const src = readFileSync(f, "utf8");
  if (src.startsWith("// beyond Node 20")) continue;
  let out;
  try {
    out = execFileSync(process.execPath, [f], { encoding: "utf8", env: { ...process.env, TZ: "UTC", LANG: "en_US.UTF-8" }, stdio: ["ignore", "pipe", "pipe"] });
  } catch (e) {
    out = e.stdout + "UNCAUGHT: " + String(e.stderr).split("\n").find((l) => /Error/.test(l)) + "\n";
  }
  writeFileSync(f.replace(/\.js$/, ".golden"), out);
}
