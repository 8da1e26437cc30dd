import { expect, test } from "./tape";

// Run tapes through the real server: a run recorded over the page's socket
// replays identical with its host calls answered from the tape (the
// key/value store is not consulted: the tape's answers stand), a changed
// tape reports its first divergence, and a tape of a non-deterministic run
// is refused with the reason.

const snippet = `import { facts, host } from "playground";
await host.kv.set("visits", 3);
const visits = await host.kv.get("visits");
facts.visits = visits;
await new Promise((r) => setTimeout(r, 250));
console.log("visits", visits, Math.random().toFixed(6), new Date().toISOString());
const slept = await sleep(100);
export default { visits, slept, id: crypto.randomUUID() };
`;

test("a recorded run replays identical, its host calls answered from the tape", async ({ tapes }) => {
  const tape = await tapes.record({ files: [{ path: "main.ts", source: snippet }] });
  expect(tape.version).toBe(1);
  expect(tape.calls.map((c) => c.name)).toEqual(["kv.set", "kv.get", "sleep"]);
  expect(tape.calls[1].result).toBe(3);
  expect(tape.messages.at(-1)?.type).toBe("done");
  const result = await tapes.replay(tape);
  expect(result).toEqual({ identical: true, messages: tape.messages.length, outcome: "ok" });
});

test("a changed host answer is reported as the first divergence", async ({ tapes }) => {
  const tape = await tapes.record({ files: [{ path: "main.ts", source: snippet }] });
  tape.calls[1].result = 4; // kv.get now answers 4
  const result = await tapes.replay(tape);
  expect(result.identical).toBe(false);
  // The first message that differs is kv.get's settled call, carrying the tape's answer.
  const at = tape.messages.findIndex((m) => m.type === "call" && m.name === "kv.get" && m.pending === undefined);
  expect(result.seq).toBe(at + 1);
  expect(result.expected).toMatchObject({ type: "call", name: "kv.get", result: 3 });
  expect(result.received).toMatchObject({ type: "call", name: "kv.get", result: 4 });
});

test("a tape of a non-deterministic run is refused with the reason", async ({ tapes }) => {
  const tape = await tapes.record({ files: [{ path: "main.ts", source: `console.log(Math.random());` }] }, { deterministic: false });
  expect(tape.deterministic).toBe(false);
  const { status, body } = await tapes.replayRaw(tape);
  expect(status).toBe(400);
  expect(body.field).toBe("deterministic");
  expect(body.detail).toContain("not deterministic");
});
