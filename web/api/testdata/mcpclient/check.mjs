// Connects the official TypeScript MCP SDK client to a playground server's
// Streamable HTTP endpoint, lists the tools, runs a snippet and lists the
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
assert.deepEqual(names, ["list_modules", "run_in_sandbox"], `tools: ${names}`);
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

const mods = await client.callTool({ name: "list_modules", arguments: {} });
assert.ok(Array.isArray(mods.structuredContent.modules), "list_modules returns modules");
assert.ok(mods.structuredContent.host.includes("echo"), "list_modules returns the host functions");

await client.close();
console.log(`MCP TypeScript SDK client: ${names.length} tools, run ok (output ${JSON.stringify(out.output)}), failing run is a tool error`);
