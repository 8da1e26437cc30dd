import { expect, type Page } from "@playwright/test";

// Helpers shared by the newer specs (console, embed, types, polish).

/** fresh opens the page with no saved files and waits for the session. */
export async function fresh(page: Page) {
  await page.goto("/");
  await page.evaluate(() => localStorage.clear());
  await page.goto("/");
  await expect(page.getByTestId("connection")).toHaveText("connected");
  await expect(page.locator("body")).toHaveAttribute("data-ready", "true");
}

/** setSource replaces the active file's text through the editor, as one input. */
export async function setSource(page: Page, text: string) {
  await page.locator(".cm-content").click();
  await page.keyboard.press("ControlOrMeta+a");
  await page.keyboard.press("Delete");
  await page.locator(".cm-content").evaluate((el, t) => {
    document.execCommand("insertText", false, t);
  }, text);
  await expect(page.locator(".cm-content")).toContainText(text.split("\n")[0]);
}

/** runOK clicks Run and waits for an ok outcome. */
export async function runOK(page: Page) {
  await page.getByTestId("run-button").click();
  await expect(page.getByTestId("run-status")).toHaveAttribute("data-outcome", "ok");
}
