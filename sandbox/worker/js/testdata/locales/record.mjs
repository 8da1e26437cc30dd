// Records Node's console output for every date-fns locale snippet into
// <name>.golden, which sandbox/worker/js/locales_test.go compares the
// playground's output with: the snippets of this directory as ES modules,
// those of script/ as CommonJS (script mode's require), each importing
// date-fns from sandbox/libs/node_modules (`npm ci` there: the versions
// the playground vendors). Run from this directory with Node 20:
//
//	node record.mjs            (node --version: v20.x; TZ=UTC is set here,
//	                            the playground's only time zone)
//
// With RECORD_INTO=dir it writes the goldens below dir instead (dir/ and
// dir/script/), for TestDateFnsLocalesGoldenIsFresh.
import { execFileSync } from "node:child_process";
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";

if (!process.version.startsWith("v20.")) {
  console.error(`record.mjs: want Node 20, have ${process.version}`);
  process.exit(1);
}
const modules = resolve("../../../../libs/node_modules");
const into = process.env.RECORD_INTO ?? ".";
const tmp = mkdtempSync(join(tmpdir(), "locales-"));
symlinkSync(modules, join(tmp, "node_modules"), "dir");
try {
  for (const [dir, ext] of [[".", ".mjs"], ["script", ".cjs"]]) {
    mkdirSync(join(into, dir), { recursive: true });
    for (const f of readdirSync(dir).filter((f) => f.endsWith(".js")).sort()) {
      const file = join(tmp, f.replace(/\.js$/, ext));
      copyFileSync(join(dir, f), file);
      let out;
      try {
        out = execFileSync(process.execPath, [file], { encoding: "utf8", env: { ...process.env, TZ: "UTC", LANG: "en_US.UTF-8" }, stdio: ["ignore", "pipe", "pipe"] });
      } catch (e) {
        out = e.stdout + "UNCAUGHT: " + String(e.stderr).split("\n").find((l) => /Error/.test(l)) + "\n";
      }
      writeFileSync(join(into, dir, f.replace(/\.js$/, ".golden")), out);
    }
  }
} finally {
  rmSync(tmp, { recursive: true });
}
