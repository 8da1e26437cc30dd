// Checks the page's preview renderer (preview.js) against the Go renderer's
// golden file, so the two cannot drift: every block's args, rendered as the
// page renders them, must give the block's console text. Run with
// `node --test static/` (scripts/test.sh does). The golden file is read
// where the Go test writes it (go test ./sandbox -run TestConsoleGolden -update).
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { format, groupDepth, unindent, parseTable, render, quote } from "./preview.js";

const golden = fileURLToPath(new URL("../../sandbox/worker/js/testdata/console.golden", import.meta.url));

// blocks parses "== level\n<text lines>\n-- args <JSON>\n" blocks.
function blocks(src) {
  const out = [];
  const re = /^== (\w+)\n([\s\S]*?)\n-- args (.*)$/gm;
  for (let m; (m = re.exec(src)); ) out.push({ level: m[1], text: m[2], args: JSON.parse(m[3]) });
  return out;
}

// Lines whose text carries something the args lack, so the page shows the
// text itself (console.js does so whenever format(args) differs from it):
// each entry says why.
const textOnly = [
  { why: "console.table: the page parses the box text into an HTML table", match: (b) => parseTable(b.text) !== null },
  { why: "console.trace: the runtime adds the 'Trace:' head and the stack", match: (b) => b.text.trimStart().startsWith("Trace:") },
];

const all = blocks(readFileSync(golden, "utf8"));

test("the golden file parses into blocks", () => {
  assert.ok(all.length >= 20, `only ${all.length} blocks in ${golden}`);
});

test("the page renders every golden line's args to the Go text", () => {
  let compared = 0;
  for (const b of all) {
    if (textOnly.some((x) => x.match(b))) continue;
    const rendered = format(b.args);
    // console.group indentation is in the text only; the page nests instead.
    const depth = groupDepth(b.text, rendered);
    assert.equal(rendered, unindent(b.text, depth), `level ${b.level}, args ${JSON.stringify(b.args)}`);
    compared++;
  }
  assert.ok(compared >= all.length - 6, `only ${compared} of ${all.length} lines compared`);
});

test("group nesting is read back from the indentation", () => {
  const depths = all.filter((b) => ["inside", "deeper\nsecond line", "outside", "group"].includes(b.args[0]))
    .map((b) => groupDepth(b.text, format(b.args)));
  assert.deepEqual(depths, [0, 1, 2, 0]);
});

test("every console.table text parses into a header and rows", () => {
  const tables = all.filter((b) => b.text.startsWith("┌"));
  assert.ok(tables.length >= 3);
  for (const b of tables) {
    const t = parseTable(b.text);
    assert.ok(["(index)", "(iteration index)"].includes(t.head[0]), t.head[0]);
    assert.ok(t.body.length >= 1);
    for (const row of t.body) assert.equal(row.length, t.head.length);
  }
});

test("quoting escapes as the Go renderer (and Node's strEscape) does", () => {
  assert.equal(quote("it's\n\t\\"), "\"it's\\n\\t\\\\\"");
  assert.equal(quote(`it's "x"`), "`it's \"x\"`");
  assert.equal(quote("a'b\"c`d"), "'a\\'b\"c`d'");
  assert.equal(quote("\x01"), "'\\x01'");
  assert.equal(render({ $t: "set", values: [1, { $t: "more", count: 3 }] }), "Set(4) { 1, ... 3 more items }");
});

test("%d %i %f print as Node's Number, parseInt and parseFloat, objects as NaN", () => {
  assert.equal(format(["%d|%i|%f", 1.5, 1.5, 1.5]), "1.5|1|1.5");
  assert.equal(format(["%d|%i|%f", "42.9abc", "42.9abc", "42.9abc"]), "NaN|42|42.9");
  assert.equal(format(["%d|%i|%f", true, null, { $t: "undefined" }]), "1|NaN|NaN");
  assert.equal(format(["%d|%i", -0.5, -0.5]), "-0.5|-0");
  assert.equal(format(["%d|%i|%f", { $t: "bigint", v: "5" }, { $t: "bigint", v: "5" }, { $t: "bigint", v: "5" }]), "5n|5n|5");
  assert.equal(format(["%d|%f", { $t: "object", class: "Object", props: {} }, { $t: "number", v: "Infinity" }]), "NaN|Infinity");
});

test("cycles, revoked proxies and accessors render as Node's", () => {
  assert.equal(render({ $t: "map", entries: [[{ $t: "circular", path: "$", ref: 1 }, { $t: "circular", path: "$", ref: 1 }]], ref: 1 }),
    "<ref *1> Map(1) { [Circular *1] => [Circular *1] }");
  assert.equal(render({ $t: "circular", path: "$.a" }), "[Circular $.a]");
  assert.equal(render({ $t: "array", items: [{ $t: "revoked" }] }), "[ <Revoked Proxy> ]");
  assert.equal(render({ $t: "object", class: "Object", props: { a: { $t: "getter" }, b: { $t: "getter", label: "Setter" }, c: { $t: "getter", label: "Getter/Setter" } } }),
    "{ a: [Getter], b: [Setter], c: [Getter/Setter] }");
});

test("typed arrays and primitive wrappers render as Node's", () => {
  assert.equal(render({ $t: "array", class: "Uint8Array", length: 300, items: [1, 2, { $t: "more", count: 298 }] }), "Uint8Array(300) [ 1, 2, ... 298 more items ]");
  assert.equal(render({ $t: "boxed", class: "String", v: "abc" }), "[String: 'abc']");
  assert.equal(render({ $t: "boxed", class: "Number", v: { $t: "number", v: "-0" } }), "[Number: -0]");
});
