import { test, expect } from "@playwright/test";
import { fresh, setSource, runOK } from "./helpers";

// The console shows output as a browser's DevTools console does.

test("console: groups nest and collapse, tables, dir, repeats and large objects on demand", async ({ page }) => {
  await fresh(page);
  await setSource(page, [
    `console.group("outer");`,
    `console.log("in outer");`,
    `console.group("inner");`,
    `console.log("in inner");`,
    `console.groupEnd();`,
    `console.log("back in outer");`,
    `console.groupEnd();`,
    `console.log("top level");`,
    `console.table([{ a: 1, b: "x" }, { a: 2, c: true }]);`,
    `console.dir({ deep: { deeper: { deepest: 1 } } });`,
    `for (let i = 0; i < 5; i++) console.log("same again");`,
    `console.log("different");`,
    `const big: Record<string, number> = {};`,
    `for (let i = 0; i < 300; i++) big["key" + i] = i;`,
    `console.log(big);`,
  ].join("\n"));
  await runOK(page);
  const lines = page.getByTestId("console-line");
  // line finds the line whose text is exactly text.
  const line = (text: string) => lines.filter({ has: page.locator(".text", { hasText: new RegExp(`^${text}$`) }) });

  // Groups: indented by depth, headers collapse what they hold.
  await expect(line("in inner")).toHaveAttribute("data-depth", "2");
  await expect(line("back in outer")).toHaveAttribute("data-depth", "1");
  await expect(line("top level")).toHaveAttribute("data-depth", "0");
  const outer = line("outer");
  await expect(outer).toHaveAttribute("data-group", "open");
  const innerPad = await line("in inner").locator(".text").evaluate((e) => parseFloat(getComputedStyle(e).paddingLeft));
  const outerPad = await line("in outer").locator(".text").evaluate((e) => parseFloat(getComputedStyle(e).paddingLeft));
  expect(innerPad).toBeGreaterThan(outerPad);
  await outer.getByTestId("group-toggle").click();
  await expect(outer.getByTestId("group-toggle")).toHaveAttribute("aria-expanded", "false");
  for (const t of ["in outer", "in inner", "back in outer"]) await expect(line(t)).toBeHidden();
  await expect(line("top level")).toBeVisible();
  // Collapsing the inner group, then opening the outer, keeps the inner folded.
  await outer.getByTestId("group-toggle").click();
  await line("inner").getByTestId("group-toggle").click();
  await expect(line("in inner")).toBeHidden();
  await expect(line("back in outer")).toBeVisible();

  // console.table: a real table with a header row.
  const table = page.getByTestId("console-table");
  await expect(table.locator("thead th")).toHaveText(["(index)", "a", "b", "c"]);
  await expect(table.locator("tbody tr")).toHaveCount(2);
  await expect(table.locator("tbody tr").nth(1)).toContainText("true");

  // console.dir: an object tree that opens level by level.
  const dir = lines.filter({ hasText: "deepest" }).locator("details").first();
  await expect(dir.locator("> summary")).toHaveText("{ deep: { deeper: { deepest: 1 } } }");
  await dir.locator("> summary").click();
  await dir.locator("details > summary").first().click();
  await expect(dir).toContainText("deeper:");

  // Repeats: one line with a count.
  await expect(line("same again")).toHaveCount(1);
  await expect(line("same again").getByTestId("repeat-count")).toHaveText("5");
  await expect(line("different").getByTestId("repeat-count")).toHaveCount(0);

  // A large object: a cut summary; its properties are built when opened.
  const big = lines.filter({ hasText: "key0" }).locator("details").first();
  const summary = await big.locator("> summary").textContent();
  expect(summary!.length).toBeLessThanOrEqual(201);
  expect(summary!.endsWith("…")).toBe(true);
  expect(await big.locator(".kv").count()).toBe(0);
  await big.locator("> summary").click();
  await expect.poll(() => big.locator(".kv").count()).toBeGreaterThan(50); // built on the toggle event
  await page.screenshot({ path: "screenshots/console-devtools.png" });
});

test("the console and errors read as Node's: web objects, %s, Map tables, V8's words for a bad call", async ({ page }) => {
  await fresh(page);
  await setSource(page, [
    `const u = new URL("https://api.example.com/v1/items?limit=10");`,
    `console.log(u.searchParams);`,
    `console.log("%s!", { a: { b: 1 } });`,
    `console.table(new Map([["k1", 1], ["k2", 2]]));`,
    `const cfg: any = { name: "app" };`,
    `cfg.load();`,
  ].join("\n"));
  await page.getByTestId("run-button").click();
  await expect(page.getByTestId("run-status")).toHaveAttribute("data-outcome", "error");
  const lines = page.getByTestId("console-line");
  await expect(lines.filter({ hasText: "URLSearchParams { 'limit' => '10' }" })).toHaveCount(1);
  await expect(lines.filter({ hasText: "{ a: [Object] }!" })).toHaveCount(1);
  const table = page.getByTestId("console-table");
  await expect(table.locator("thead th")).toHaveText(["(iteration index)", "Key", "Values"]);
  await expect(table.locator("tbody tr")).toHaveCount(2);
  await expect(page.getByTestId("error-line")).toContainText("RUNTIME_ERROR: TypeError: cfg.load is not a function");
  await expect(page.getByTestId("error-location")).toHaveText(/^src\/main\.ts:6:\d+$/);
});
