import { test, expect, type Page, type APIRequestContext } from "@playwright/test";

async function openPlayground(page: Page) {
  await page.goto("/");
  await page.evaluate(() => localStorage.clear());
  await page.reload();
  await expect(page.getByTestId("connection")).toHaveText("connected");
}

async function activeRuns(request: APIRequestContext): Promise<number> {
  const res = await request.get("/api/stats");
  expect(res.ok()).toBeTruthy();
  return (await res.json()).activeRuns;
}

test("edit a file, run, and watch logs and facts stream in", async ({ page }) => {
  await openPlayground(page);
  const tabs = page.getByTestId("file-tab");
  await expect(tabs).toHaveCount(2);
  await expect(tabs.nth(0)).toContainText("src/main.ts");
  await expect(tabs.nth(1)).toContainText("src/counter.ts");

  // Edit the imported module: increment by 10 instead of 1.
  await tabs.nth(1).click();
  const editor = page.locator(".cm-content");
  await expect(editor).toContainText("increment(by = 1)");
  await page.getByText("increment(by = 1)").click();
  await page.keyboard.press("End");
  for (let i = 0; i < "): number {".length; i++) await page.keyboard.press("ArrowLeft");
  await page.keyboard.type("0");
  await expect(editor).toContainText("increment(by = 10): number {");

  await tabs.nth(0).click();
  await page.getByTestId("run-button").click();

  const lines = page.getByTestId("console-line");
  await expect(lines.filter({ hasText: "tick 1" })).toHaveCount(1);
  // The first tick arrives while the run is still going.
  await expect(page.getByTestId("run-status")).toContainText("running");
  await expect(lines.filter({ hasText: "tick 5" })).toHaveCount(1);
  await expect(lines.filter({ hasText: "tick 1 { value: 10 }" })).toHaveCount(1);
  await expect(page.locator('[data-testid="fact"][data-key="count"] [data-testid="fact-value"]')).toHaveText("50");
  await expect(page.locator('[data-testid="fact"][data-key="history"] [data-testid="fact-value"]')).toHaveText("[10,20,30,40,50]");
  await expect(page.getByTestId("run-status")).toHaveAttribute("data-outcome", "ok");
  await page.screenshot({ path: "screenshots/run-ok.png" });
});

test("an error in an imported file links to its line", async ({ page }) => {
  await openPlayground(page);
  await page.getByTestId("examples").selectOption({ label: "An error in another file" });
  await page.getByTestId("run-button").click();
  const loc = page.getByTestId("error-location");
  await expect(loc).toHaveText("src/parse.ts:4:11");
  await expect(page.getByTestId("error-line")).toContainText("RUNTIME_ERROR: RangeError: not a number: forty-two");
  await loc.click();
  await expect(page.locator('[data-testid="file-tab"][aria-current="true"]')).toContainText("src/parse.ts");
  await expect(page.locator(".cm-error-line")).toContainText("throw new RangeError");
  await page.screenshot({ path: "screenshots/error.png" });
});

test("Ctrl+Enter runs; Stop cancels", async ({ page }) => {
  await openPlayground(page);
  await page.getByTestId("examples").selectOption({ label: "A timeout (infinite loop)" });
  await page.locator(".cm-content").click();
  await page.keyboard.press("Control+Enter");
  await expect(page.getByTestId("run-status")).toContainText("running");
  await page.getByTestId("stop-button").click();
  await expect(page.getByTestId("run-status")).toHaveAttribute("data-outcome", "cancelled");
});

test("closing the page mid-run leaves zero active runs on the server", async ({ browser, request }) => {
  const page = await browser.newPage();
  await openPlayground(page);
  await page.getByTestId("examples").selectOption({ label: "A timeout (infinite loop)" });
  await page.getByTestId("run-button").click();
  await expect(page.getByTestId("run-status")).toContainText("running");
  await expect.poll(() => activeRuns(request)).toBe(1);
  await page.close();
  await expect.poll(() => activeRuns(request), { timeout: 3_000 }).toBe(0);
});

test("files can be added and removed", async ({ page }) => {
  await openPlayground(page);
  page.on("dialog", (d) => d.accept(d.type() === "prompt" ? "src/extra.ts" : undefined));
  await page.getByTestId("add-file").click();
  const tabs = page.getByTestId("file-tab");
  await expect(tabs).toHaveCount(3);
  await expect(tabs.nth(2)).toContainText("src/extra.ts");
  await expect(tabs.nth(2)).toHaveAttribute("aria-current", "true");
  await page.getByTestId("remove-file").nth(2).click();
  await expect(tabs).toHaveCount(2);
});

test("examples show timers, host calls and libraries", async ({ page }) => {
  await openPlayground(page);
  const lines = page.getByTestId("console-line");

  await page.getByTestId("examples").selectOption({ label: "Timers and live facts" });
  await page.getByTestId("run-button").click();
  await expect(page.locator('[data-testid="fact"][data-key="ticks"] [data-testid="fact-value"]')).toHaveText("5");
  await expect(lines.filter({ hasText: "a last timeout, after 5 ticks" })).toHaveCount(1);

  await page.getByTestId("examples").selectOption({ label: "Host calls (sleep, key/value store)" });
  await page.getByTestId("run-button").click();
  await expect(page.getByTestId("call-line").filter({ hasText: "host.sleep ok" })).toHaveCount(1);
  await expect(page.getByTestId("run-status")).toHaveAttribute("data-outcome", "ok");
  await page.getByTestId("run-button").click();
  await expect(page.locator('[data-testid="fact"][data-key="visits"] [data-testid="fact-value"]')).toHaveText("2");

  await page.getByTestId("examples").selectOption({ label: "Libraries (lodash, date-fns, zod)" });
  await page.getByTestId("run-button").click();
  await expect(lines.filter({ hasText: "Friday 1 March 2024" })).toHaveCount(1);
  await expect(lines.filter({ hasText: "[ [ 'a', 'b' ], [ 'c', 'd' ], [ 'e' ] ]" })).toHaveCount(1);
  await page.screenshot({ path: "screenshots/libraries.png" });
});

test("a share link asks before replacing the files saved in this browser", async ({ page }) => {
  await openPlayground(page);
  const link = async (source: string) =>
    "/#code=" + (await page.evaluate(async (src) => (await import("/static/app/share.js")).encodeFiles({ entry: "main.ts", files: [{ path: "main.ts", source: src }] }), source));
  const shared = await link("// shared");
  const mine = JSON.stringify({ entry: "main.ts", files: [{ path: "main.ts", source: "// mine" }] });
  const editor = page.locator(".cm-content");

  // Declined: the saved files stay, and the page says the link's were not opened.
  await page.evaluate((m) => localStorage.setItem("playground.files.v1", m), mine);
  await page.goto("about:blank");
  page.once("dialog", (d) => d.dismiss());
  await page.goto(shared);
  await expect(page.getByTestId("console")).toContainText("the share link's files were not opened");
  await expect(editor).toContainText("// mine");

  // Accepted: the link's files replace them.
  await page.goto("about:blank");
  page.once("dialog", (d) => d.accept());
  await page.goto(shared);
  await expect(editor).toContainText("// shared");

  // The same files saved: no question.
  let asked = false;
  page.on("dialog", (d) => { asked = true; d.dismiss(); });
  await page.goto("about:blank");
  await page.goto(shared);
  await expect(editor).toContainText("// shared");
  expect(asked).toBe(false);
});

test("a share link that inflates past the limit is refused with a message", async ({ page }) => {
  await openPlayground(page);
  // 100 MiB of one byte, deflated: a 133 KiB link.
  const code = await page.evaluate(async () => {
    const json = new Blob(['{"entry":"main.ts","files":[{"path":"main.ts","source":"', new Uint8Array(100 << 20).fill(97), '"}]}']);
    const bytes = new Uint8Array(await new Response(json.stream().pipeThrough(new CompressionStream("deflate-raw"))).arrayBuffer());
    let s = "";
    for (let i = 0; i < bytes.length; i += 0x8000) s += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
    return btoa(s).replaceAll("+", "-").replaceAll("/", "_").replace(/=+$/, "");
  });
  await page.goto("about:blank");
  await page.goto("/#code=" + code);
  await expect(page.getByTestId("console")).toContainText("inflate past 2048 KiB, the limit");
  await expect(page.getByTestId("connection")).toHaveText("connected");
});
