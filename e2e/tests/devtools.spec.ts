import { test, expect, type Page } from "@playwright/test";
import { spawn, type ChildProcess } from "node:child_process";
import { setSource } from "./helpers";

// Helpers shared by the page tests.

async function open(page: Page, url = "/") {
  await page.goto(url);
  await expect(page.getByTestId("connection")).toHaveText("connected");
}

async function fresh(page: Page) {
  await page.goto("/");
  await page.evaluate(() => localStorage.clear());
  await open(page);
}

const lines = (page: Page) => page.getByTestId("console-line");

test("run options: timeout, input JSON and deterministic mode", async ({ page }) => {
  await fresh(page);
  await setSource(page, `import { input } from "playground";\nconsole.log("n is", input.n, Math.random(), Date.now());\nwhile (input.spin) {}`);
  await page.getByText("Input (JSON)").click();
  await page.getByTestId("input").fill("{ not json");
  await page.getByTestId("run-button").click();
  await expect(page.getByTestId("input-error")).toContainText("Input is not valid JSON");

  await page.getByTestId("input").fill('{"n": 7}');
  await page.getByTestId("deterministic").check();
  await page.getByTestId("run-button").click();
  await expect(page.getByTestId("run-status")).toHaveAttribute("data-outcome", "ok");
  const first = await lines(page).first().textContent();
  expect(first).toContain("n is 7");
  expect(first).toContain("1704067200000"); // the virtual clock starts at 2024-01-01
  await page.getByTestId("run-button").click();
  await expect(page.getByTestId("run-status")).toHaveAttribute("data-outcome", "ok");
  expect(await lines(page).first().textContent()).toBe(first); // same stream again

  await page.getByTestId("timeout").selectOption("1000");
  await page.getByTestId("input").fill('{"n": 1, "spin": true}');
  await page.getByTestId("run-button").click();
  await expect(page.getByTestId("run-status")).toHaveAttribute("data-outcome", "timeout", { timeout: 10_000 });
  await page.getByTestId("tab-run").click();
  await expect(page.getByTestId("run-outcome")).toHaveText("timeout (timed out)");
  await expect(page.getByTestId("run-time-limit")).toContainText("1000 ms");
  await page.screenshot({ path: "screenshots/run-tab.png" });
});

test("auto-run supersedes the previous run; stale output never shows", async ({ page }) => {
  await fresh(page);
  await page.getByTestId("auto-run").check();
  await setSource(page, `await new Promise((r) => setTimeout(r, 1500));\nconsole.log("stale");`);
  await expect(page.getByTestId("run-status")).toContainText("running");
  await setSource(page, `console.log("fresh");`);
  await expect(lines(page).filter({ hasText: "fresh" })).toHaveCount(1);
  await page.waitForTimeout(2000);
  await expect(lines(page).filter({ hasText: "stale" })).toHaveCount(0);
  await expect(page.getByTestId("run-status")).toHaveAttribute("data-outcome", "ok");
});

test("timeline scrubbing shows earlier fact values and the log up to them", async ({ page }) => {
  await fresh(page);
  await page.getByTestId("examples").selectOption({ label: "Timers and live facts" });
  await page.getByTestId("run-button").click();
  await expect(page.getByTestId("run-status")).toHaveAttribute("data-outcome", "ok");
  await page.getByTestId("tab-timeline").click();
  const marks = page.getByTestId("timeline-mark");
  expect(await marks.count()).toBeGreaterThan(8);
  // The end shows the final facts.
  await expect(page.locator('[data-testid="timeline-fact"][data-key="ticks"] [data-testid="timeline-fact-value"]')).toHaveText("5");
  // Scrub back to the first facts: ticks was 0 then.
  await page.getByTestId("timeline-slider").fill("2");
  await expect(page.locator('[data-testid="timeline-fact"][data-key="ticks"] [data-testid="timeline-fact-value"]')).toHaveText("0");
  await expect(page.getByTestId("timeline-log")).not.toContainText("a last timeout");
  // Clicking a mark selects that point (marks of events a moment apart overlap).
  await marks.nth(4).dispatchEvent("click");
  await expect(page.getByTestId("timeline-at")).toContainText("after event 5");
  await page.screenshot({ path: "screenshots/timeline.png" });
});

test("calls tab lists host calls with arguments, duration and result", async ({ page }) => {
  await fresh(page);
  await setSource(page, `import { host } from "playground";\nawait host.echo({ a: 1 });\ntry { await host.kv.get(""); } catch {}`);
  await page.getByTestId("run-button").click();
  await expect(page.getByTestId("run-status")).toHaveAttribute("data-outcome", "ok");
  await page.getByTestId("tab-calls").click();
  const rows = page.getByTestId("call-row");
  await expect(rows).toHaveCount(2);
  await expect(rows.nth(0)).toContainText('host.echo{"a":1}');
  await expect(rows.nth(1)).toContainText("error: kv.get: the key must be a string");
});

test("console: filter by level and text, preserve log, expandable previews", async ({ page }) => {
  await fresh(page);
  await setSource(page, `console.log("plain one");\nconsole.warn("careful");\nconsole.error("broken");\nconsole.log("obj", { nested: { deep: [1, 2] }, s: "x" });`);
  await page.getByTestId("run-button").click();
  await expect(page.getByTestId("run-status")).toHaveAttribute("data-outcome", "ok");
  await expect(lines(page)).toHaveCount(4);
  await page.getByTestId("level-filters").getByLabel("warn").uncheck();
  await expect(lines(page).filter({ hasText: "careful" })).toBeHidden();
  await page.getByTestId("console-filter").fill("broken");
  await expect(lines(page).filter({ visible: true })).toHaveCount(1);
  await page.getByTestId("console-filter").fill("");
  await page.getByTestId("level-filters").getByLabel("warn").check();

  const tree = lines(page).filter({ hasText: "obj" }).locator("details").first();
  await expect(tree.locator("summary")).toHaveText("{ nested: { deep: [ 1, 2 ] }, s: 'x' }");
  await tree.locator("summary").click();
  await expect(tree).toContainText("nested:");

  await page.getByTestId("preserve-log").check();
  await page.getByTestId("run-button").click();
  await expect(lines(page).filter({ hasText: "plain one" })).toHaveCount(2);
  await page.screenshot({ path: "screenshots/console.png" });
});

test("files: rename, entry, keyboard switching, reload keeps them, download", async ({ page }) => {
  await fresh(page);
  const tabs = page.getByTestId("file-tab");
  await tabs.nth(1).click();
  page.once("dialog", (d) => d.accept("src/tally.ts"));
  await page.getByTestId("rename-file").click();
  await expect(tabs.nth(1)).toHaveText("src/tally.ts");
  await tabs.nth(0).click();
  await setSource(page, `import { Counter } from "./tally";\nconsole.log(new Counter("x").increment());`);
  await page.getByTestId("run-button").click();
  await expect(lines(page).filter({ hasText: /^\s*[\d.]+ ms1$/ })).toHaveCount(1);

  await page.locator(".cm-content").click();
  await page.keyboard.press("Alt+ArrowRight");
  await expect(page.locator('[data-testid="file-tab"][aria-current="true"]')).toHaveText("src/tally.ts");
  await page.getByTestId("set-entry").click();
  await expect(tabs.nth(1)).toContainText("entry");

  await page.reload();
  await expect(page.getByTestId("connection")).toHaveText("connected");
  await expect(tabs.nth(1)).toContainText("src/tally.tsentry");
  await tabs.nth(0).click();
  await expect(page.locator(".cm-content")).toContainText('import { Counter } from "./tally";');

  const download = page.waitForEvent("download");
  await page.getByTestId("download-button").click();
  const file = await download;
  expect(file.suggestedFilename()).toBe("playground-files.json");
  const body = JSON.parse(await (await file.createReadStream()).toArray().then((c) => Buffer.concat(c).toString()));
  expect(body.entry).toBe("src/tally.ts");
  expect(body.files.map((f: { path: string }) => f.path)).toEqual(["src/main.ts", "src/tally.ts"]);
});

test("a share link carries the files", async ({ page, browser }) => {
  await fresh(page);
  await setSource(page, `console.log("shared snippet ✓");`);
  await page.getByTestId("share-button").click();
  await expect(page.getByTestId("share-url")).toHaveValue(/#code=[A-Za-z0-9_-]+$/);
  const url = await page.getByTestId("share-url").inputValue();
  const other = await browser.newContext();
  const p2 = await other.newPage();
  await open(p2, url);
  await expect(p2.locator(".cm-content")).toContainText('console.log("shared snippet ✓");');
  await expect(p2.getByTestId("file-tab")).toHaveCount(2);
  await p2.getByTestId("run-button").click();
  await expect(p2.getByTestId("console-line").filter({ hasText: "shared snippet ✓" })).toHaveCount(1);
  await other.close();
});

test("two tabs run independently", async ({ browser }) => {
  const ctx = await browser.newContext();
  const [a, b] = [await ctx.newPage(), await ctx.newPage()];
  await open(a);
  await open(b);
  await setSource(a, `for (let i = 0; i < 3; i++) { await new Promise((r) => setTimeout(r, 200)); console.log("from A", i); }`);
  await setSource(b, `for (let i = 0; i < 3; i++) { await new Promise((r) => setTimeout(r, 200)); console.log("from B", i); }`);
  await a.getByTestId("run-button").click();
  await b.getByTestId("run-button").click();
  await expect(a.getByTestId("console-line").filter({ hasText: "from A 2" })).toHaveCount(1);
  await expect(b.getByTestId("console-line").filter({ hasText: "from B 2" })).toHaveCount(1);
  await expect(a.getByTestId("console-line").filter({ hasText: "from B" })).toHaveCount(0);
  await expect(b.getByTestId("console-line").filter({ hasText: "from A" })).toHaveCount(0);
  await ctx.close();
});

// A server of its own, to restart it and to exhaust its rate limit.
function startServer(port: number, extra: string[] = []): Promise<ChildProcess> {
  const proc = spawn("go", ["run", "../cmd/playground", "-addr", `127.0.0.1:${port}`, "-log-level", "warn", ...extra], { stdio: "ignore", detached: true });
  return new Promise((resolve, reject) => {
    const deadline = Date.now() + 120_000;
    const poll = async () => {
      try {
        const res = await fetch(`http://127.0.0.1:${port}/healthz`);
        if (res.ok) return resolve(proc);
      } catch {}
      if (Date.now() > deadline) return reject(new Error("server did not start"));
      setTimeout(poll, 200);
    };
    poll();
  });
}

function stopServer(proc: ChildProcess) {
  try {
    process.kill(-proc.pid!, "SIGTERM");
  } catch {}
}

test("the page reconnects after a server restart, and counts down when rate limited", async ({ page }) => {
  test.setTimeout(180_000);
  const port = 8951;
  let server = await startServer(port, ["-rate", "0.5", "-burst", "2"]);
  try {
    await open(page, `http://127.0.0.1:${port}/`);
    for (let i = 0; i < 3; i++) {
      await page.getByTestId("run-button").click();
      await page.waitForTimeout(50);
    }
    await expect(page.getByTestId("run-status")).toContainText("rate limited: retry in");
    await page.screenshot({ path: "screenshots/rate-limited.png" });
    await expect(page.getByTestId("run-status")).toContainText("you can run again", { timeout: 10_000 });

    stopServer(server);
    await expect(page.getByTestId("connection")).toContainText("disconnected", { timeout: 15_000 });
    await page.screenshot({ path: "screenshots/disconnected.png" });
    server = await startServer(port, ["-rate", "0.5", "-burst", "2"]);
    await expect(page.getByTestId("connection")).toHaveText("connected", { timeout: 30_000 });
    await page.getByTestId("run-button").click();
    await expect(page.getByTestId("run-status")).toHaveAttribute("data-outcome", "ok");
  } finally {
    stopServer(server);
  }
});

test("the editor completes the playground API, host functions and modules", async ({ page }) => {
  await fresh(page);
  await setSource(page, "");
  await page.locator(".cm-content").click();
  await page.keyboard.type('import _ from "lo');
  await expect(page.locator(".cm-tooltip-autocomplete")).toContainText("lodash");
  await page.keyboard.press("Escape");
  await page.keyboard.press("End");
  await page.keyboard.press("Enter");
  await page.keyboard.type("host.kv");
  await expect(page.locator(".cm-tooltip-autocomplete")).toContainText("kv.get");
  await page.keyboard.press("Escape");
  await page.keyboard.press("Enter");
  await page.keyboard.type("fac");
  await expect(page.locator(".cm-tooltip-autocomplete")).toContainText("facts");
});

test("10,000 log lines stay smooth; dark theme follows the system", async ({ browser }) => {
  const ctx = await browser.newContext({ colorScheme: "dark" });
  const page = await ctx.newPage();
  await fresh(page);
  await setSource(page, `for (let i = 0; i < 10000; i++) console.log("line", i);`);
  const t0 = Date.now();
  await page.getByTestId("run-button").click();
  await expect(page.getByTestId("run-status")).toHaveAttribute("data-outcome", "ok", { timeout: 30_000 });
  await expect(page.getByTestId("console-line").last()).toContainText("line 9999");
  await expect(page.getByTestId("console-dropped")).toContainText("earlier lines are not shown");
  expect(await page.getByTestId("console-line").count()).toBeLessThanOrEqual(2000);
  expect(Date.now() - t0).toBeLessThan(20_000); // generous: the page must keep up, not hang
  const bg = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
  expect(bg).toBe("rgb(13, 17, 23)");
  await page.screenshot({ path: "screenshots/dark-10k-lines.png" });
  await ctx.close();
});

test("the embeddable client runs snippets from any page's script", async ({ page }) => {
  await page.goto("/healthz"); // a page of the origin with no app on it
  const res = await page.evaluate(async () => {
    const { PlaygroundClient } = await import("/static/client.js");
    const pg = new PlaygroundClient();
    const hello = await pg.ready;
    const { messages, done } = await pg.result({ files: [{ path: "main.ts", source: "import { facts } from 'playground';\nfacts.x = 1;\nconsole.log('from the client');" }] });
    pg.close();
    return { protocol: hello.protocol, types: messages.map((m: any) => m.type), outcome: done.outcome, facts: done.facts };
  });
  expect(res).toEqual({ protocol: "playground.v1", types: ["started", "fact", "log", "done"], outcome: "ok", facts: { x: 1 } });
});
