import { readFileSync } from "node:fs";
import { expect, test, type Page } from "@playwright/test";
import { fresh, runOK, setSource } from "./helpers";

// Record and replay from the page (issue 25): Record makes the run's done
// carry its tape, Tape downloads it exactly as the server wrote it, and
// Replay… in a second browser re-runs it on the server — host calls answered
// from the tape — and renders the replay's console as the recorded run's.
const snippet = `import { host, facts } from "playground";
console.log("random", Math.random());
const e = await host.echo({ n: 1, "2": "two", b: [1, 2] });
console.log("echo", JSON.stringify(e));
facts.n = e.n;
console.warn("at", new Date().toISOString());`;

const programLines = async (p: Page) =>
  (await p.getByTestId("console").locator(".line:not(.system)").allTextContents()).map((t) => t.trim());

test("Record downloads the tape, and Replay… renders the same console", async ({ page, browser }) => {
  await fresh(page);
  await setSource(page, snippet);
  await page.getByTestId("deterministic").check();
  await page.getByTestId("record").check();
  await runOK(page);
  await expect(page.getByTestId("console")).toContainText("at ");
  const want = await programLines(page);
  expect(want.some((l) => l.includes('echo {"2":"two","n":1,"b":[1,2]}'))).toBe(true);

  const tapeLink = page.getByTestId("tape-button");
  await expect(tapeLink).toBeVisible();
  const [download] = await Promise.all([page.waitForEvent("download"), tapeLink.click()]);
  const path = await download.path();
  const tape = JSON.parse(readFileSync(path, "utf8"));
  expect(tape.version).toBe(1);
  expect(tape.deterministic).toBe(true);
  expect(tape.calls.map((c: { name: string }) => c.name)).toEqual(["echo"]);

  // Another browser: no files, no storage; the tape alone.
  const other = await browser.newContext();
  const replayer = await other.newPage();
  await fresh(replayer);
  await replayer.getByTestId("replay-file").setInputFiles(path);
  await expect(replayer.getByTestId("run-status")).toContainText("replay identical");
  await expect(replayer.getByTestId("console")).toContainText("at ");
  expect(await programLines(replayer)).toEqual(want);
  await expect(replayer.getByTestId("facts")).toContainText("1");
  await other.close();
});
