import { test, expect, type Page } from "@playwright/test";
import AxeBuilder from "@axe-core/playwright";

// Polish a new user notices: an icon, a console free of errors on load,
// and no serious or critical accessibility violation.

async function seriousViolations(page: Page) {
  const results = await new AxeBuilder({ page }).analyze();
  return results.violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => `${v.impact} ${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(" ")).join(", ")})`);
}

test("the page has a favicon and loads without console errors or failed requests", async ({ page, request }) => {
  const problems: string[] = [];
  page.on("console", (m) => m.type() === "error" && problems.push(`console: ${m.text()}`));
  page.on("pageerror", (e) => problems.push(`page error: ${e.message}`));
  page.on("response", (r) => r.status() >= 400 && problems.push(`${r.status()} ${r.url()}`));
  await page.goto("/");
  await expect(page.getByTestId("connection")).toHaveText("connected");
  await expect(page.locator("body")).toHaveAttribute("data-ready", "true");

  const ico = await request.get("/favicon.ico");
  expect(ico.status()).toBe(200);
  expect(ico.headers()["content-type"]).toBe("image/x-icon");
  expect([...(await ico.body()).subarray(0, 4)]).toEqual([0, 0, 1, 0]); // ICO header
  const svg = await request.get("/favicon.svg");
  expect(svg.status()).toBe(200);
  expect(await svg.text()).toContain("<svg");
  expect(await page.locator('link[rel="icon"]').count()).toBeGreaterThan(0);
  expect(problems).toEqual([]);
});

test("accessibility: no serious or critical axe violations on the page, before and after a run", async ({ page }) => {
  await page.goto("/");
  await page.evaluate(() => localStorage.clear());
  await page.goto("/");
  await expect(page.getByTestId("connection")).toHaveText("connected");
  expect(await seriousViolations(page)).toEqual([]);

  await page.getByTestId("run-button").click();
  await expect(page.getByTestId("run-status")).toHaveAttribute("data-outcome", "ok");
  expect(await seriousViolations(page)).toEqual([]);
  for (const tab of ["timeline", "calls", "run"]) {
    await page.getByTestId(`tab-${tab}`).click();
    expect(await seriousViolations(page), `${tab} panel`).toEqual([]);
  }
  await page.getByTestId("tab-console").click();
  await page.emulateMedia({ colorScheme: "dark" });
  expect(await seriousViolations(page), "dark theme").toEqual([]);
});
