import { test as base, expect, type APIRequestContext, type Page } from "@playwright/test";

// Run tapes as a Playwright fixture (docs/protocol.md, "Run tapes"): record
// a run through the real server and replay it, so that a spec can pin what
// a snippet does, host calls and all, and learn where a run first differs.
//
//   import { test, expect } from "./tape";
//   test("…", async ({ tapes }) => {
//     const tape = await tapes.record({ files: [{ path: "main.ts", source }] });
//     expect(await tapes.replay(tape)).toEqual(expect.objectContaining({ identical: true }));
//   });

/** The run a tape is recorded from: the run message's fields (protocol.md). */
export type RunSpec = {
  files: { path: string; source: string }[];
  entry?: string;
  input?: unknown;
  mode?: "module" | "script";
  timeoutMs?: number;
};

/** A run tape, version 1: its request, host calls and messages. */
export type Tape = {
  version: 1;
  files: { path: string; source: string }[];
  deterministic: boolean;
  calls: { name: string; args: unknown[]; result?: unknown; error?: string }[];
  messages: { type: string; seq: number; [field: string]: unknown }[];
  [field: string]: unknown;
};

/** POST /api/v1/replay's answer. */
export type ReplayResult = {
  identical: boolean;
  messages: number;
  seq?: number;
  expected?: unknown;
  received?: unknown;
  outcome: string;
};

export type Tapes = {
  /**
   * record runs spec over a WebSocket of the page's origin, as the page
   * does, with "record": true and (unless told otherwise) "deterministic":
   * true, and returns its done.tape. It fails when the run has no tape.
   */
  record(spec: RunSpec, opts?: { deterministic?: boolean }): Promise<Tape>;
  /** replay posts tape to POST /api/v1/replay and returns the answer (a 200). */
  replay(tape: Tape): Promise<ReplayResult>;
  /** replayRaw posts any body to POST /api/v1/replay: for refusals. */
  replayRaw(body: unknown): Promise<{ status: number; body: any }>;
};

let runs = 0;

async function recordOverSocket(page: Page, spec: RunSpec, deterministic: boolean): Promise<Tape> {
  if (!page.url().startsWith("http")) {
    await page.goto("/healthz"); // the server's own origin, which its socket accepts
  }
  const id = `tape-${Date.now()}-${runs++}`;
  const done = await page.evaluate(
    ({ id, spec, deterministic }) =>
      new Promise<any>((resolve, reject) => {
        const ws = new WebSocket(`${location.origin.replace(/^http/, "ws")}/ws`, "playground.v1");
        const timer = setTimeout(() => reject(new Error("no done within 30 s")), 30_000);
        ws.onopen = () => ws.send(JSON.stringify({ type: "run", id, ...spec, deterministic, record: true }));
        ws.onerror = () => reject(new Error("the socket failed"));
        ws.onmessage = (e) => {
          const m = JSON.parse(e.data);
          if (m.type === "done" && m.id === id) {
            clearTimeout(timer);
            ws.close();
            resolve(m);
          }
        };
      }),
    { id, spec, deterministic },
  );
  expect(done.tape, `run ${id} (outcome ${done.outcome}) has a tape`).toBeTruthy();
  expect(done.tape.error, "the tape was kept whole").toBeUndefined();
  return done.tape as Tape;
}

async function post(request: APIRequestContext, body: unknown) {
  const resp = await request.post("/api/v1/replay", { data: body, headers: { "Content-Type": "application/json" } });
  return { status: resp.status(), body: await resp.json() };
}

export const test = base.extend<{ tapes: Tapes }>({
  tapes: async ({ page, request }, use) => {
    await use({
      record: (spec, opts) => recordOverSocket(page, spec, opts?.deterministic ?? true),
      replay: async (tape) => {
        const { status, body } = await post(request, tape);
        expect(status, `POST /api/v1/replay: ${JSON.stringify(body)}`).toBe(200);
        return body as ReplayResult;
      },
      replayRaw: (body) => post(request, body),
    });
  },
});

export { expect };
