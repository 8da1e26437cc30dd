// Connects the official TypeScript MCP SDK client to a playground server's
// Streamable HTTP endpoint, lists the tools, runs a snippet, starts one
// without waiting and follows it with server-side waits, and lists the
// modules. Usage: node check.mjs http://127.0.0.1:PORT/mcp
// Exits non-zero (with the reason) when anything is not as documented.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import assert from "node:assert/strict";

const url = process.argv[2];
if (!url) {
  console.error("usage: node check.mjs http://127.0.0.1:PORT/mcp");
  process.exit(2);
}

const client = new Client({ name: "playground-check", version: "1.0.0" });
await client.connect(new StreamableHTTPClientTransport(new URL(url)));

const { tools } = await client.listTools();
const names = tools.map((t) => t.name).sort();
assert.deepEqual(names, ["list_modules", "run_in_sandbox", "start_run", "wait_run"], `tools: ${names}`);
const run = tools.find((t) => t.name === "run_in_sandbox");
assert.ok(run.outputSchema, "run_in_sandbox has an output schema");
assert.match(run.description, /Limits:/, "the description states the limits");

const res = await client.callTool({
  name: "run_in_sandbox",
  arguments: {
    files: [
      { path: "main.ts", source: 'import { input, facts } from "playground";\nimport { twice } from "./util";\nconsole.log("hello from", input.who);\nfacts.n = twice(21);\nexport default { n: facts.n };' },
      { path: "util.ts", source: "export const twice = (n: number) => n * 2;" },
    ],
    input: { who: "node" },
  },
});
assert.equal(res.isError ?? false, false, `run failed: ${JSON.stringify(res)}`);
const out = res.structuredContent;
assert.equal(out.success, true);
assert.equal(out.outcome, "ok");
assert.deepEqual(out.output, { n: 42 });
assert.equal(out.logs[0].text, "hello from node");
assert.equal(out.facts.n, 42);
assert.match(out.shareUrl, /#code=[A-Za-z0-9_-]+$/);
assert.match(res.content[0].text, /outcome: ok/);

const failed = await client.callTool({ name: "run_in_sandbox", arguments: { code: "null.x" } });
assert.equal(failed.isError, true, "a failing snippet is a tool error");
assert.match(failed.content[0].text, /RUNTIME_ERROR at main\.ts:1:/);

// start_run answers at once with the run's id and watch token; wait_run
// waits server-side and returns the messages after a cursor, until done.
const started = await client.callTool({
  name: "start_run",
  arguments: { code: 'for (let i = 0; i < 3; i++) { console.log("tick", i); await new Promise((r) => setTimeout(r, 100)); }' },
});
assert.equal(started.isError ?? false, false, `start_run failed: ${JSON.stringify(started)}`);
const { id, watch } = started.structuredContent;
assert.ok(id && watch, "start_run returns the id and the watch token");
let cursor = 0;
let done = false;
const texts = [];
for (let calls = 0; !done && calls < 20; calls++) {
  const w = await client.callTool({ name: "wait_run", arguments: { id, watch, after: cursor, waitSeconds: 10 } });
  assert.equal(w.isError ?? false, false, `wait_run failed: ${JSON.stringify(w)}`);
  for (const m of w.structuredContent.messages) {
    assert.ok(m.seq > cursor, "every message is after the cursor");
    if (m.type === "log") texts.push(m.text);
  }
  cursor = w.structuredContent.cursor;
  done = w.structuredContent.done;
  if (done) assert.equal(w.structuredContent.outcome, "ok");
}
assert.ok(done, "the started run reached its done through wait_run");
assert.deepEqual(texts, ["tick 0", "tick 1", "tick 2"]);
const wrong = await client.callTool({ name: "wait_run", arguments: { id, watch: "AAAAAAAAAAAAAAAAAAAAAA" } });
assert.equal(wrong.isError, true, "a wrong token is a tool error");

const mods = await client.callTool({ name: "list_modules", arguments: {} });
assert.ok(Array.isArray(mods.structuredContent.modules), "list_modules returns modules");
assert.ok(mods.structuredContent.host.includes("echo"), "list_modules returns the host functions");

await client.close();
console.log(`MCP TypeScript SDK client: ${names.length} tools, run ok (output ${JSON.stringify(out.output)}), failing run is a tool error, start_run followed to its done by wait_run`);
