import { expect, test } from "@playwright/test";
import { fresh, setSource } from "./helpers";

// A run followed from elsewhere (issue 25): the Watch button's window in the
// same browser, and the same address in a second browser context — a
// stranger with no cookies or storage of the first — both render the run's
// messages as the page that started it does, live and to its end.
const slow = `import { facts } from "playground";
for (let i = 1; i <= 6; i++) {
  await new Promise((r) => setTimeout(r, 200));
  console.log("tick", i);
  facts.ticks = i;
}
console.warn("done ticking");`;

test("Watch follows the run in its own window and in another browser", async ({ page, browser }) => {
  await fresh(page);
  await setSource(page, slow);
  await page.getByTestId("run-button").click();
  const watch = page.getByTestId("watch-button");
  await expect(watch).toBeEnabled();
  const url = await watch.getAttribute("data-url");
  expect(url).toMatch(/\/watch#run=.+&token=[A-Za-z0-9_-]{20,}$/);

  // The same browser: the button opens the window.
  const [popup] = await Promise.all([page.waitForEvent("popup"), watch.click()]);
  // A stranger: another context opens the address while the run is live.
  const other = await browser.newContext();
  const stranger = await other.newPage();
  await stranger.goto(url!);

  for (const p of [page, popup, stranger]) {
    // Console lines are attached once per animation frame, which a
    // window in the background does not get.
    await p.bringToFront();
    await expect(p.getByTestId("run-status")).toHaveAttribute("data-outcome", "ok");
    await expect(p.getByTestId("console")).toContainText("done ticking");
  }
  const lines = async (p: typeof page) =>
    (await p.getByTestId("console").locator(".line:not(.system)").allTextContents()).map((t) => t.trim());
  const want = await lines(page);
  expect(want.some((l) => l.includes("tick 6"))).toBe(true);
  expect(await lines(popup)).toEqual(want);
  expect(await lines(stranger)).toEqual(want);
  await expect(stranger.getByTestId("facts")).toContainText("6");

  // A wrong token shows nothing of the run, only that it cannot be watched.
  const wrong = await other.newPage();
  await wrong.goto(url!.replace(/token=.*/, "token=AAAAAAAAAAAAAAAAAAAAAA"));
  await expect(wrong.getByTestId("run-status")).toContainText("cannot watch");
  await expect(wrong.getByTestId("console")).not.toContainText("tick");
  await other.close();
});
