import { defineConfig } from '@playwright/test';

// End-to-end tests drive Debian's chromium (installed by scripts/setup.sh); Playwright never
// downloads a browser. The flags keep Chromium off the network this machine does not have.
const port = Number(process.env.PMDASH_E2E_PORT ?? 8145);
// A second `pmdash serve`, with --pmproxy to the local pmproxy and its series store, for the
// Fleet specs (e2e/fleet.spec.ts): the first server stays without a store, as most users run it.
const fleetPort = Number(process.env.PMDASH_E2E_FLEET_PORT ?? port + 1);
const pmproxy = `http://localhost:${process.env.PMPROXY_PORT ?? 44322}`;

export default defineConfig({
  testDir: 'e2e',
  outputDir: 'test-results',
  timeout: 60_000,
  // Screenshots: fixed viewport, no animations, DejaVu fonts (Debian), CSS pixels only.
  expect: { timeout: 15_000, toHaveScreenshot: { animations: 'disabled', caret: 'hide', scale: 'css', maxDiffPixelRatio: 0.01 } },
  snapshotPathTemplate: '{testDir}/screenshots/{testFilePath}/{arg}{ext}',
  fullyParallel: false,
  workers: 1,
  forbidOnly: true,
  retries: 0,
  reporter: process.env.CI ? [['list']] : [['list']],
  use: {
    baseURL: `http://localhost:${port}`,
    trace: 'retain-on-failure',
    viewport: { width: 1280, height: 860 },
    deviceScaleFactor: 1,
    timezoneId: 'UTC',
    locale: 'en-US',
    launchOptions: {
      executablePath: '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--font-render-hinting=none',
        '--disable-lcd-text',
      ],
    },
  },
  // Makes sure the series store holds the QA archives of the fleet specs' hosts (pmseries --load).
  globalSetup: './e2e/fleet-store.setup.ts',
  projects: [{ name: 'chromium', use: { browserName: 'chromium' } }],
  webServer: [{
    // Two names for the local pmcd, so live tests can watch two hosts at once.
    command: `node bin/pmdash.js serve --port ${port} --pmcd localhost:44321 --pmcd 127.0.0.1:44321`,
    url: `http://localhost:${port}/`,
    reuseExistingServer: false,
    timeout: 30_000,
    stdout: 'pipe',
    stderr: 'pipe',
  }, {
    command: `node bin/pmdash.js serve --port ${fleetPort} --pmproxy ${pmproxy}`,
    url: `http://localhost:${fleetPort}/`,
    reuseExistingServer: false,
    timeout: 30_000,
    stdout: 'pipe',
    stderr: 'pipe',
  }],
});
