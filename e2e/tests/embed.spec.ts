import { test, expect } from "@playwright/test";
import AxeBuilder from "@axe-core/playwright";
import { createServer, type Server } from "node:http";
import { embedHostOrigin } from "../playwright.config";

// A docs page on another origin (a second loopback address, allowed by
// -embed-origins in playwright.config.ts) embeds two examples with the
// one-line script and drives them through the postMessage API.

let docs: Server;
let docsHTML = "";
const refusedOrigin = embedHostOrigin.replace("127.0.0.2", "127.0.0.3");
let refused: Server;

test.beforeAll(async () => {
  const serve = (host: string, port: number) => new Promise<Server>((resolve, reject) => {
    const srv = createServer((req, res) => {
      res.writeHead(200, { "Content-Type": "text/html; charset=utf-8" });
      res.end(docsHTML);
    });
    srv.once("error", reject);
    srv.listen(port, host, () => resolve(srv));
  });
  const port = Number(new URL(embedHostOrigin).port);
  docs = await serve("127.0.0.2", port);
  refused = await serve("127.0.0.3", port);
});
test.afterAll(async () => {
  await new Promise((r) => docs.close(r));
  await new Promise((r) => refused.close(r));
});

test("two examples embedded in a page of another origin run, report results and pass axe", async ({ page, baseURL }) => {
  docsHTML = `<!DOCTYPE html><html lang="en"><head><title>Docs</title></head><body><main>
<h1>Docs page</h1>
<p>First example: autorun, read-only, dark, with a hidden preamble.</p>
<script src="${baseURL}/static/embed.js" data-id="first" data-autorun data-readonly data-theme="dark" data-height="260"
  data-preamble="export const greeting = 'hello from the preamble';">
  import { greeting } from "./preamble";
  import { facts } from "playground";
  facts.answer = 42;
  console.log(greeting);
</script>
<p>Second example: editable, run by the page.</p>
<script src="${baseURL}/static/embed.js" data-id="second" data-height="200" data-title="Second example">
  const xs = [3, 1, 2].sort();
  console.log("sorted", xs.join(","));
</script>
<script type="module">
  window.results = {};
  for (const f of document.querySelectorAll("iframe")) {
    f.addEventListener("playground:result", (e) => { window.results[f.id] = e.detail; });
    f.addEventListener("playground:ready", () => { window.ready = (window.ready ?? 0) + 1; });
  }
</script>
</main></body></html>`;
  await page.goto(`${embedHostOrigin}/`);
  const frames = page.locator("iframe");
  await expect(frames).toHaveCount(2);
  await expect(frames.nth(0)).toHaveCSS("height", "260px");

  // The first example ran by itself, with the hidden preamble and its theme.
  await expect.poll(() => page.evaluate(() => (window as any).results.first?.outcome)).toBe("ok");
  const first = await page.evaluate(() => (window as any).results.first);
  expect(first.logs).toEqual([{ level: "log", text: "hello from the preamble" }]);
  expect(first.facts).toEqual({ answer: 42 });
  const one = page.frameLocator("#first");
  await expect(one.getByTestId("console")).toContainText("hello from the preamble");
  await expect(one.getByTestId("file-tab")).toHaveCount(0); // the preamble is not shown
  await expect(one.locator(".cm-content")).not.toContainText("greeting = ");
  await expect(one.locator("html")).toHaveAttribute("data-theme", "dark");
  // Read-only: typing changes nothing.
  await one.locator(".cm-content").click();
  await page.keyboard.type("XYZ");
  await expect(one.locator(".cm-content")).not.toContainText("XYZ");

  // The second waits for the host page's run message.
  expect(await page.evaluate(() => (window as any).results.second)).toBeUndefined();
  await page.evaluate(() => (document.getElementById("second") as any).run());
  await expect.poll(() => page.evaluate(() => (window as any).results.second?.outcome)).toBe("ok");
  expect((await page.evaluate(() => (window as any).results.second)).logs).toEqual([{ level: "log", text: "sorted 1,2,3" }]);
  // It is editable; its Run button runs the edited code.
  const two = page.frameLocator("#second");
  await two.locator(".cm-content").click();
  await page.keyboard.press("ControlOrMeta+End");
  await page.keyboard.type('\nthrow new Error("edited");');
  await two.getByTestId("run-button").click();
  await expect.poll(() => page.evaluate(() => (window as any).results.second?.outcome)).toBe("error");
  expect((await page.evaluate(() => (window as any).results.second)).errors[0].message).toContain("edited");
  await expect(two.getByTestId("error-line")).toContainText("edited");
  await page.screenshot({ path: "screenshots/embed.png", fullPage: true });

  // Accessibility of the embed page itself.
  const embedPage = page.frames().find((f) => f.url().includes("/embed?id=first"))!;
  const direct = await page.context().newPage();
  await direct.goto(embedPage.url());
  // Opened top-level, autorun=1 does not run (a link must not run a
  // stranger's code at once from the visitor's IP): it says so, Run runs.
  await expect(direct.getByTestId("console")).toContainText("autorun is off");
  await expect(direct.getByTestId("run-status")).not.toHaveAttribute("data-outcome");
  await direct.getByTestId("run-button").click();
  await expect(direct.getByTestId("run-status")).toHaveAttribute("data-outcome", "ok");
  const results = await new AxeBuilder({ page: direct }).analyze();
  const serious = results.violations.filter((v) => v.impact === "serious" || v.impact === "critical").map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`);
  expect(serious).toEqual([]);
  await direct.close();
});

test("an origin not allowed by -embed-origins cannot frame the embed", async ({ page, request, baseURL }) => {
  const res = await request.get("/embed");
  const csp = res.headers()["content-security-policy"];
  expect(csp).toContain(`frame-ancestors 'self' ${embedHostOrigin}`);
  expect(csp).not.toContain(refusedOrigin);
  expect((await request.get("/")).headers()["content-security-policy"]).toContain("frame-ancestors 'none'");

  docsHTML = `<!DOCTYPE html><html lang="en"><head><title>Other</title></head><body>
<script src="${baseURL}/static/embed.js" data-id="x" data-autorun>console.log(1)</script>
<script>window.addEventListener("message", (e) => { window.got = e.data; });</script></body></html>`;
  const blocked: string[] = [];
  page.on("console", (m) => m.text().includes("frame-ancestors") && blocked.push(m.text()));
  await page.goto(`${refusedOrigin}/`);
  await expect.poll(() => blocked.length).toBeGreaterThan(0);
  expect(await page.evaluate(() => (window as any).got)).toBeUndefined();
});

test("a broken or missing #code= shows a clear message", async ({ page }) => {
  await page.goto("/embed?autorun=1#code=not_valid");
  await expect(page.getByTestId("console")).toContainText("could not be read");
  await page.goto("/embed");
  await page.reload();
  await expect(page.getByTestId("console")).toContainText("no example");
  await expect(page.getByTestId("run-button")).toBeDisabled();
});

test("the Share panel's embed snippet, pasted into a docs page, embeds the files", async ({ page, browser }) => {
  await page.goto("/");
  await page.evaluate(() => localStorage.clear());
  await page.goto("/");
  await expect(page.getByTestId("connection")).toHaveText("connected");
  await page.getByTestId("share-button").click();
  // The snippet is filled once the files are compressed (asynchronously): wait for it.
  await expect(page.getByTestId("embed-snippet")).toHaveValue(/^<script src="http:\/\/127\.0\.0\.1:\d+\/static\/embed\.js" data-code="[A-Za-z0-9_-]+" data-height="320"><\/script>$/);
  const snippet = await page.getByTestId("embed-snippet").inputValue();

  docsHTML = `<!DOCTYPE html><html lang="en"><head><title>Pasted</title></head><body>${snippet.replace("<script ", '<script data-id="pasted" ')}
<script>window.addEventListener("message", (e) => { if (e.data?.type === "playground:result") window.result = e.data; });</script></body></html>`;
  const docsPage = await (await browser.newContext()).newPage();
  await docsPage.goto(`${embedHostOrigin}/`);
  const frame = docsPage.frameLocator("#pasted");
  await expect(frame.getByTestId("file-tab")).toHaveCount(2); // the example's two files
  await expect(frame.getByTestId("run-button")).toBeEnabled();
  await docsPage.evaluate(() => (document.getElementById("pasted") as any).run());
  await expect.poll(() => docsPage.evaluate(() => (window as any).result?.outcome)).toBe("ok");
  expect((await docsPage.evaluate(() => (window as any).result)).logs.length).toBeGreaterThan(0);
  await docsPage.context().close();
});
