import { expect, test, type Page } from "@playwright/test";
import { fresh, setSource, runOK } from "./helpers";

// The editor's type checker knows script mode (agent code: the globals
// input, output and require, a top-level return) only where the server
// runs the file as a script, the host functions the server exposes as
// globals (hello.hostGlobals), and mathjs's types; the Examples menu's
// script-mode, host-global and mathjs examples open with no problems.

/** typesOn waits for the type checker, then makes a known error so a later "no problems" is fresh. */
async function typesOn(page: Page) {
  await expect(page.locator("body")).toHaveAttribute("data-types-ready-ms", /\d+/, { timeout: 30_000 });
  await page.getByTestId("tab-problems").click();
  await setSource(page, `const wrong: number = "text";`);
  await expect(page.getByTestId("problem-count")).toHaveText("1");
}

/** noProblems waits for a clean check of every file. */
async function noProblems(page: Page) {
  await expect(page.getByTestId("types-status")).toHaveText("No problems: types check");
  await expect(page.getByTestId("problem")).toHaveCount(0);
  await expect(page.getByTestId("problem-count")).toHaveText("");
}

async function openExample(page: Page, name: string, firstLine: string) {
  await page.getByTestId("examples").selectOption({ label: name });
  await expect(page.locator(".cm-content")).toContainText(firstLine);
}

/** expectProblems waits until the Problems panel lists exactly these (one substring each). */
async function expectProblems(page: Page, texts: string[]) {
  for (const t of texts) await expect(page.getByTestId("problems")).toContainText(t);
  await expect(page.getByTestId("problem")).toHaveCount(texts.length);
}

test("the agent-script example has no problems and runs: output from input and lodash", async ({ page }) => {
  await fresh(page);
  await typesOn(page);
  await openExample(page, "Agent script (input, require, output)", "A script as agent code-execution services run it");
  await noProblems(page);
  await page.getByTestId("tab-console").click();
  await runOK(page);
  await expect(page.getByTestId("console-line").filter({ hasText: "scores: 5 values" })).toHaveCount(1);
  await expect(page.getByTestId("console")).toContainText('output: {"sum":150,"average":30,"spread":40,"buckets":{"low":2,"high":3}}');
  await page.getByTestId("tab-run").click();
  await expect(page.getByTestId("run-mode")).toHaveText("script (input, output, require globals)");
});

test("the host-globals example has no problems and runs: await sleep(…) and echo(…) as written", async ({ page }) => {
  await fresh(page);
  await typesOn(page);
  await openExample(page, "Host functions as globals (await sleep(…))", "This server also exposes some host functions as globals");
  await noProblems(page);
  await page.getByTestId("tab-console").click();
  await runOK(page);
  await expect(page.getByTestId("console-line").filter({ hasText: "slept 500 ms" })).toHaveCount(1);
  await expect(page.getByTestId("console-line").filter({ hasText: "hello: 'world'" })).toHaveCount(1);
  await expect(page.getByTestId("console-line").filter({ hasText: "TypeError: host.echo: argument 1 is or holds a function" })).toHaveCount(1);
  await expect(page.getByTestId("call-line")).toHaveCount(2); // two settled calls, one line each (not one per message)
  await page.getByTestId("tab-run").click();
  await expect(page.getByTestId("run-mode")).toHaveText("module");
});

test("the mathjs example has no problems, with mathjs's own types", async ({ page }) => {
  await fresh(page);
  await typesOn(page);
  await openExample(page, "Statistics with mathjs", 'import { mean, median, std, variance, min, max } from "mathjs";');
  await noProblems(page);
  // The types are mathjs's, not any: a name it does not export is an error.
  await setSource(page, `import { mean, nope } from "mathjs";\nconst m: number = mean(1, 2);\nnope();`);
  await expectProblems(page, [`main.ts:1:16 Module '"mathjs"' has no exported member 'nope'`]);
});

test("script-mode TypeScript: input, output, require and a top-level return check; a module keeps the module rules", async ({ page }) => {
  await fresh(page);
  await typesOn(page);
  await openExample(page, "Statistics with mathjs", 'import { mean, median, std, variance, min, max } from "mathjs";'); // one file: main.ts
  const script = [
    `const _ = require("lodash");`,
    `const { format } = require("date-fns");`,
    `const values: number[] = input.values;`,
    `const slept: number = await sleep(1);`,
    `const echoed: { a: number } = await echo({ a: 1 });`,
    `const chunks: number[][] = _.chunk(values, 2);`,
    `output = { sum: _.sum(values), chunks, year: format(new Date(0), "yyyy"), slept, echoed };`,
  ].join("\n");
  await setSource(page, script);
  await noProblems(page);
  await page.locator("[data-testid=input-pane] summary").click();
  await page.getByTestId("input").fill(`{"values": [1, 2, 3]}`);
  await page.getByTestId("tab-console").click();
  await runOK(page);
  await expect(page.getByTestId("console")).toContainText('output: {"sum":6,"chunks":[[1,2],[3]],"year":"1970","slept":1,"echoed":{"a":1}}');

  // A top-level return ends the script with its value as the output.
  await page.getByTestId("tab-problems").click();
  await setSource(page, `const _ = require("lodash");\nif (input.values.length > 2) return { early: _.sum(input.values) };\noutput = "late";`);
  await noProblems(page);
  await page.getByTestId("tab-console").click();
  await runOK(page);
  await expect(page.getByTestId("console")).toContainText('output: {"early":6}');

  // require is typed per allowed module: the library's own types, and no Node module.
  await page.getByTestId("tab-problems").click();
  await setSource(page, `const s: string = require("lodash").chunk([1], 1);\nrequire("fs");\noutput = s;`);
  await expectProblems(page, ["main.ts:1:7 Type 'number[][]' is not assignable to type 'string'", "main.ts:2:9 No overload matches this call"]);
  // The open file is underlined too.
  await expect(page.locator(".cm-lintRange-error").first()).toBeVisible();

  // With an import it is a module: input is the "playground" module's, and return is an error.
  await setSource(page, `import _ from "lodash";\nconsole.log(_.sum(input.values));\nreturn 1;`);
  await expectProblems(page, ["main.ts:2:19 Cannot find name 'input'", "main.ts:3:1 A 'return' statement can only be used within a function body"]);
  await setSource(page, `import _ from "lodash";\nimport { input } from "playground";\nconsole.log(_.sum(input.values));`);
  await noProblems(page);
});

test("a snippet of two files is never a script: no script globals", async ({ page }) => {
  await fresh(page); // the first example: src/main.ts and src/counter.ts
  await typesOn(page);
  await setSource(page, `output = 1;\nconsole.log(input);`);
  await expectProblems(page, ["main.ts:1:1 Cannot find name 'output'", "main.ts:2:13 Cannot find name 'input'"]);
});

test("client.js: hello announces the host globals; a script-mode run's host call is two call messages", async ({ page }) => {
  await page.goto("/healthz");
  const res = await page.evaluate(async () => {
    const { PlaygroundClient } = await import("/static/client.js");
    const pg = new PlaygroundClient();
    const hello = await pg.ready;
    const { messages, done } = await pg.result({
      mode: "script", input: { n: 2 },
      files: [{ path: "main.js", source: "const r = await echo(input.n);\nreturn r * 21;" }],
    });
    pg.close();
    return {
      hostGlobals: hello.hostGlobals, maxFactsBytes: typeof hello.limits.maxFactsBytes,
      started: messages.find((m: any) => m.type === "started")?.mode,
      calls: messages.filter((m: any) => m.type === "call").map((m: any) => ({ callId: m.callId, pending: m.pending ?? false, name: m.name, args: m.args, ok: m.ok, result: m.result })),
      outcome: done.outcome, output: done.output,
    };
  });
  expect(res).toEqual({
    hostGlobals: ["echo", "sleep"], maxFactsBytes: "number", started: "script",
    calls: [
      { callId: 1, pending: true, name: "echo", args: [2], ok: undefined, result: undefined },
      { callId: 1, pending: false, name: "echo", args: [2], ok: true, result: 2 },
    ],
    outcome: "ok", output: 42,
  });
});
