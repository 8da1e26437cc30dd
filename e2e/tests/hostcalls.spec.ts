import { expect, test } from "@playwright/test";
import { fresh, setSource } from "./helpers";

// Host functions as the page names them (the server's default -host-globals
// exposes echo and sleep): the Calls panel shows a call while it is in
// flight and completes the same row when it settles; a function argument
// is refused at the call; the Examples menu offers the new examples.

test("calls panel: a host global's call is in flight, then completes in place", async ({ page }) => {
  await fresh(page);
  await setSource(page, `const ms = await sleep(1500);\nconsole.log("slept", ms);\nconsole.log(await echo({ a: [1, 2] }));`);
  await page.getByTestId("tab-calls").click();
  await page.getByTestId("run-button").click();
  const rows = page.getByTestId("call-row");
  // While the server sleeps, the call shows in flight with its arguments.
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toHaveAttribute("data-state", "pending");
  await expect(rows.first()).toContainText("host.sleep");
  await expect(rows.first()).toContainText("1500");
  await expect(rows.first()).toContainText("in flight");
  await expect(page.getByTestId("run-status")).toHaveAttribute("data-outcome", "ok");
  // Settled: the same row completed (no duplicate), then the second call.
  await expect(rows).toHaveCount(2);
  await expect(rows.nth(0)).toHaveAttribute("data-state", "ok");
  await expect(rows.nth(0)).toHaveAttribute("data-call-id", "1");
  await expect(rows.nth(0)).not.toContainText("in flight");
  await expect(rows.nth(0).locator("td").nth(3)).toHaveText("1500");
  await expect(rows.nth(1)).toHaveAttribute("data-call-id", "2");
  await expect(rows.nth(1)).toContainText('{"a":[1,2]}');
  await expect(page.getByTestId("call-line")).toHaveCount(2); // one console line per settled call
});

test("a function passed to a host function is a TypeError at the call", async ({ page }) => {
  await fresh(page);
  await setSource(page, `try {\n  await echo({ cb: () => 1 });\n} catch (e) {\n  console.log(String(e));\n}`);
  await page.getByTestId("run-button").click();
  await expect(page.getByTestId("run-status")).toHaveAttribute("data-outcome", "ok");
  await expect(page.getByTestId("console-line").filter({ hasText: "TypeError: host.echo: argument 1 is or holds a function (at .cb)" })).toHaveCount(1);
  await page.getByTestId("tab-calls").click();
  await expect(page.getByTestId("call-row")).toHaveCount(0);
  await expect(page.getByTestId("calls")).toContainText("no host calls");
});

test("examples menu: an agent script with its input, mathjs and host globals", async ({ page }) => {
  await fresh(page);
  const names = await page.getByTestId("examples").locator("option").allTextContents();
  expect(names).toContain("Agent script (input, require, output)");
  expect(names).toContain("Statistics with mathjs");
  expect(names).toContain("Host functions as globals (await sleep(…))");
  await page.getByTestId("examples").selectOption({ label: "Agent script (input, require, output)" });
  await expect(page.locator(".cm-content")).toContainText('const _ = require("lodash");');
  await expect(page.getByTestId("input")).toHaveValue(/"values": \[\s*10,/);
  await page.getByTestId("run-button").click();
  await expect(page.getByTestId("run-status")).toHaveAttribute("data-outcome", "ok");
  await expect(page.getByTestId("console-line").filter({ hasText: '"sum":150,"average":30' })).toHaveCount(1);
});
