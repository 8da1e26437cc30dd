import { test, expect, type Page } from "@playwright/test";
import { fresh, setSource, runOK } from "./helpers";

// Types while typing: a TypeScript language service in a web worker.

async function problems(page: Page) {
  await page.getByTestId("tab-problems").click();
  return page.getByTestId("problem");
}

test("type errors are listed and underlined, and never block a run; time to first diagnostic", async ({ page }) => {
  await fresh(page);
  await expect(page.locator("body")).toHaveAttribute("data-types-ready-ms", /\d+/, { timeout: 30_000 });
  const ready = await page.locator("body").getAttribute("data-types-ready-ms");
  const load = await page.locator("body").getAttribute("data-types-load-ms");
  const interactive = await page.locator("body").getAttribute("data-ready-ms");
  console.log(`types: page interactive ${interactive} ms, worker ready in ${load} ms, first diagnostic ${ready} ms after navigation`);
  expect(Number(interactive)).toBeLessThan(Number(ready)); // the page does not wait for the types
  await setSource(page, `const n: number = "text";\nconsole.log("ran", n);`);
  const list = await problems(page);
  await expect(list).toHaveCount(1);
  await expect(list.first()).toContainText("src/main.ts:1:7");
  await expect(list.first()).toContainText("Type 'string' is not assignable to type 'number'");
  await expect(page.locator(".cm-lintRange-error").first()).toBeVisible();
  await expect(page.getByTestId("problem-count")).toHaveText("1");
  await page.locator(".cm-lintRange-error").first().hover();
  await expect(page.locator(".cm-tooltip-lint")).toContainText("not assignable");
  await page.screenshot({ path: "screenshots/type-error.png" });
  await page.getByTestId("tab-console").click();
  await runOK(page);
  await expect(page.getByTestId("console-line").filter({ hasText: "ran text" })).toHaveCount(1);
});

test("types know the runtime's globals, the playground module with this server's host functions, and the libraries", async ({ page }) => {
  await fresh(page);
  await expect(page.locator("body")).toHaveAttribute("data-types-ready-ms", /\d+/, { timeout: 30_000 });
  await setSource(page, [
    `import { facts, input, host } from "playground";`,
    `import _ from "lodash";`,
    `import { format, addDays } from "date-fns";`,
    `import { z } from "zod";`,
    `import Papa from "papaparse";`,
    `import { v4 } from "uuid";`,
    `facts.count = 1;`,
    `const when: string = await host.time();`,
    `const echoed: { a: number } = await host.echo({ a: 1 });`,
    `await host.kv.set("k", 1);`,
    `const chunks: number[][] = _.chunk([1, 2, 3], 2);`,
    `const day: string = format(addDays(new Date(0), 1), "yyyy-MM-dd");`,
    `const User = z.object({ name: z.string() });`,
    `const user: { name: string } = User.parse(input);`,
    `const rows = Papa.parse<string[]>("a,b").data;`,
    `const id: string = v4();`,
    `setTimeout(() => {}, 1); queueMicrotask(() => {}); performance.now(); crypto.randomUUID();`,
    `const u = new URL("https://example.com/a?b=1"); const b: string | null = u.searchParams.get("b");`,
    `const bytes: Uint8Array = new TextEncoder().encode("é"); const back: string = new TextDecoder().decode(bytes);`,
    `const copy: { n: number } = structuredClone({ n: 1 }); const ac = new AbortController(); ac.abort(); btoa(atob("aGk="));`,
    `const groups = Object.groupBy([1, 2, 3], (n) => (n % 2 ? "odd" : "even"));`,
    `const fetched = async (): Promise<number> => (await fetch("https://api.example.org/", { headers: new Headers({ a: "1" }) })).status;`,
    `console.table([when, echoed, chunks, day, user, rows, id, b, back, copy, groups, fetched]);`,
  ].join("\n"));
  const list = await problems(page);
  await expect(page.getByTestId("types-status")).toContainText("No problems");
  await expect(list).toHaveCount(0);

  // What the runtime lacks is an error, as are wrong uses of typed APIs.
  await setSource(page, [
    `import { host } from "playground";`,
    `import _ from "lodash";`,
    `import { z } from "zod";`,
    `document.title = "x";`,
    `new XMLHttpRequest();`,
    `const n: number = await host.time();`,
    `host.nope();`,
    `const s: string = _.chunk([1], 1);`,
    `z.strin();`,
  ].join("\n"));
  await expect(list).toHaveCount(6);
  const text = (await list.allTextContents()).join("\n");
  expect(text).toContain("Cannot find name 'document'");
  expect(text).toContain("Cannot find name 'XMLHttpRequest'");
  expect(text).toContain("Type 'string' is not assignable to type 'number'");
  expect(text).toContain("Property 'nope' does not exist");
  expect(text).toMatch(/not assignable to type 'string'/);
  expect(text).toContain("Property 'strin' does not exist");
  // A problem's location opens the file there.
  await list.filter({ hasText: "nope" }).getByTestId("problem-location").click();
  await expect(page.locator(".cm-activeLine")).toContainText("host.nope()");
});

test("hover shows types and docs; completions carry real types", async ({ page }) => {
  await fresh(page);
  await expect(page.locator("body")).toHaveAttribute("data-types-ready-ms", /\d+/, { timeout: 30_000 });
  await setSource(page, `import { host } from "playground";\nimport _ from "lodash";\nconst groups = _.chunk([1, 2, 3], 2);\nconst now = await host.time();\n`);
  await page.locator(".cm-line").filter({ hasText: "const groups" }).getByText("groups").hover();
  const tip = page.locator(".cm-tooltip-hover");
  await expect(tip).toContainText("const groups: number[][]");
  await page.mouse.move(5, 5); // the tooltip covers the next line until it closes
  await expect(tip).toHaveCount(0);
  await page.locator(".cm-line").filter({ hasText: "const now" }).getByText("time").hover();
  await expect(tip).toContainText("PlaygroundHost.time(): Promise<string>");
  await expect(tip).toContainText("host.time: a host function of this server"); // its doc comment
  await page.screenshot({ path: "screenshots/hover.png" });

  await page.locator(".cm-content").click();
  await page.keyboard.press("ControlOrMeta+End");
  await page.keyboard.type("_.chu");
  const menu = page.locator(".cm-tooltip-autocomplete");
  await expect(menu).toContainText("chunk");
  await page.keyboard.press("Escape");
  await page.keyboard.type("\nhost.kv.");
  await expect(menu).toContainText("list");
  await expect(menu).toContainText("get");
  // With types on, names TypeScript cannot know before an import still complete.
  await page.keyboard.press("Escape");
  await page.keyboard.type('\nimport * as dates from "da');
  await expect(menu).toContainText("date-fns");
  await page.keyboard.press("Escape");
  await page.keyboard.press("End");
  await page.keyboard.type("\nfac");
  await expect(menu).toContainText("facts");
});

test("Format (button and Shift+Alt+F) and Vim keys, remembered per browser", async ({ page }) => {
  await fresh(page);
  await setSource(page, `const  x = {a:1,b:[1,2]}\nconsole.log( x )`);
  await page.getByTestId("format-button").click();
  await expect(page.locator(".cm-content")).toContainText("const x = { a: 1, b: [1, 2] };console.log(x);");
  await setSource(page, `let   y=2`);
  await page.keyboard.press("Shift+Alt+F");
  await expect(page.locator(".cm-content")).toHaveText("let y = 2;");
  await setSource(page, `let broken = (`);
  await page.getByTestId("format-button").click();
  await expect(page.getByTestId("console-line").filter({ hasText: "format:" })).toHaveCount(1);

  await setSource(page, `first line\nsecond line`);
  await page.getByTestId("vim-mode").check();
  await page.locator(".cm-content").click();
  await page.keyboard.press("Escape");
  await page.keyboard.type("ggdd");
  await expect(page.locator(".cm-content")).toHaveText("second line");
  await page.reload();
  await expect(page.getByTestId("vim-mode")).toBeChecked();
  await expect(page.locator(".cm-vim-panel, .cm-fat-cursor").first()).toBeAttached();
  await page.getByTestId("vim-mode").uncheck();
  await page.reload();
  await expect(page.getByTestId("vim-mode")).not.toBeChecked();
});

test("every shipped example type-checks cleanly, across its files", async ({ page }) => {
  await fresh(page);
  await expect(page.locator("body")).toHaveAttribute("data-types-ready-ms", /\d+/, { timeout: 30_000 });
  const names = await page.getByTestId("examples").locator("option").allTextContents();
  const list = await problems(page);
  for (const name of names.slice(1)) {
    await page.getByTestId("examples").selectOption({ label: name });
    await expect(page.getByTestId("types-status"), name).toContainText("No problems");
    expect(await list.allTextContents(), name).toEqual([]);
  }
  // A type error in an imported file is listed under that file's path.
  await page.getByTestId("examples").selectOption({ label: names[1] });
  await page.getByTestId("file-tab").nth(1).click();
  const path = await page.getByTestId("file-tab").nth(1).getAttribute("data-path");
  await setSource(page, `export const broken: number = "no";`);
  await expect(list.filter({ hasText: `${path}:1:14` })).toContainText("Type 'string' is not assignable to type 'number'");
  // …and the file importing it learns that Counter is gone.
  await expect(list.filter({ hasText: "src/main.ts:2:" })).toContainText("has no exported member 'Counter'");
});
