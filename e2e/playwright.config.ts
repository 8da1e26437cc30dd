import { defineConfig } from "@playwright/test";

// The suite drives the real binary (go run) in Debian's Chromium; no browser
// is downloaded. CHROMIUM_PATH overrides where Chromium lives.
const port = Number(process.env.E2E_PORT ?? 8931);
// The embed test serves a docs page from this second loopback origin, which
// the server is told may frame /embed.
export const embedHostOrigin = `http://127.0.0.2:${port + 10}`;

export default defineConfig({
  testDir: "./tests",
  timeout: 60_000,
  expect: { timeout: 15_000 },
  fullyParallel: false,
  workers: 1,
  retries: 0,
  reporter: [["list"]],
  outputDir: "test-results",
  webServer: {
    // Generous limits: every test shares this server and its one client IP;
    // the rate-limit test starts a server of its own.
    command: `go run ../cmd/playground -addr 127.0.0.1:${port} -log-level warn -rate 50 -burst 200 -embed-origins ${embedHostOrigin}`,
    url: `http://127.0.0.1:${port}/healthz`,
    reuseExistingServer: !process.env.CI,
    timeout: 180_000,
    stdout: "pipe",
    stderr: "pipe",
  },
  use: {
    baseURL: `http://127.0.0.1:${port}`,
    browserName: "chromium",
    headless: true,
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
      args: [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
      ],
    },
  },
});
