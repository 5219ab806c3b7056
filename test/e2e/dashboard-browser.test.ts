/**
 * The sandbox's dashboard in a real browser (Debian's headless chromium, test/helpers/browser.ts),
 * against a running `paycli sandbox` with a state folder and a `paycli listen` receiver: a cash-in
 * created from the CLI appears live (Server-Sent Events, no reload), is paid with its button, its
 * postback reaches the receiver and the attempt is listed, a resend reaches it again, and after a
 * restart of the sandbox on the same folder the transaction is found again. Each page is photographed
 * at 390 and 1440 px (test-output/screenshots/, not committed) and must not scroll sideways.
 * Every wait is for an element or an event, never a fixed sleep.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { horizontalOverflow, launchBrowser, newPage, screenshot, WIDTHS, type BrowserHandle } from '../helpers/browser.js';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { makeHome, runPaycli, scaledMs, type Home } from '../helpers/cli.js';
import { SCREENSHOT_DIR } from '../helpers/browser.js';
import { startListenProcess, waitFor, type ListenProcess } from '../helpers/listen.js';
import { startSandboxProcess, type SandboxProcess } from '../helpers/sandbox.js';

const ORDER = resolve(__dirname, '../../examples/order.json');
let home: Home;
let state: string;
let browser: BrowserHandle;
let listen: ListenProcess;
const sandboxes: SandboxProcess[] = [];

beforeAll(async () => {
  home = makeHome();
  state = mkdtempSync(join(tmpdir(), 'paycli-dash-state-'));
  [browser, listen] = await Promise.all([launchBrowser(), startListenProcess([], home.env)]);
});
afterAll(async () => {
  await Promise.all(sandboxes.map((s) => s.stop()));
  await listen?.stop();
  await browser?.close();
  rmSync(state, { recursive: true, force: true });
  home?.cleanup();
});

/** A sandbox on the shared state folder, and its dashboard's address (the line after "listening on"). */
async function sandbox(): Promise<{ sb: SandboxProcess; dashboard: string }> {
  const sb = await startSandboxProcess(['--data-dir', state], { ...home.env, PAYCLI_SANDBOX_RETRY_SCHEDULE: 'fast' });
  sandboxes.push(sb);
  await waitFor(() => /dashboard on (http:\/\/\S+)/.test(sb.log()), scaledMs(10_000, 0.25), 'the dashboard line');
  return { sb, dashboard: /dashboard on (http:\/\/\S+)/.exec(sb.log())![1]! };
}

/** Photographs `page` at every width and checks that nothing scrolls sideways. */
async function photograph(page: Page, name: string): Promise<void> {
  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: width < 600 ? 844 : 900 });
    await screenshot(page, `dashboard-${name}`);
    const { scrollWidth, innerWidth } = await horizontalOverflow(page);
    // on failure, name the elements that reach past the right edge
    const wide =
      scrollWidth > innerWidth
        ? await page.evaluate<string[]>(
            "[...document.querySelectorAll('body *')].filter((e) => e.getBoundingClientRect().right > innerWidth + 1).slice(0, 6).map((e) => e.tagName + '#' + e.id + '.' + e.className + '[' + (e.dataset.testid ?? '') + ']')",
          )
        : [];
    expect(scrollWidth, `${name} at ${width} px scrolls sideways: ${wide.join(' ')}`).toBeLessThanOrEqual(innerWidth);
  }
}

const row = (id: number) => `tr[data-testid=transaction-row][data-id="${id}"]`;
const seenByReceiver = (id: number) =>
  listen
    .stdout()
    .split('\n')
    .filter((l) => l.includes(String(id))).length;

it('shows a cash-in created from the CLI live, pays it, lists and resends its postback, and finds it after a restart', async () => {
  const first = await sandbox();
  const page = await newPage(browser, WIDTHS[1]);
  await page.goto(first.dashboard);
  await page.waitForSelector('[data-testid=transactions]');
  await page.waitForFunction(() => (globalThis as any).document.getElementById('live')?.textContent?.trim() !== '');

  const created = await runPaycli(['--base-url', first.sb.url, '--json', 'cashin', '--input', ORDER, '--postback-url', listen.url], { env: home.env });
  expect(created.code, created.stderr).toBe(0);
  const id = Number(JSON.parse(created.stdout).transactionId);
  expect(id).toBeGreaterThan(0);

  // live: the row arrives through the stream, the page is never reloaded
  let reloaded = false;
  page.on('load', () => (reloaded = true));
  await page.waitForSelector(`${row(id)}[data-state=created]`);
  await photograph(page, 'list');

  await page.click(`${row(id)} [data-testid=open-transaction]`);
  await page.waitForSelector('[data-testid=detail] [data-testid=qr-image]');
  expect(await page.inputValue('[data-testid=brcode]')).toMatch(/^000201/);
  await photograph(page, 'cashin');

  await page.click('[data-testid=action-pay]');
  await page.waitForSelector('[data-testid=detail-facts][data-state=paid]');
  await page.waitForSelector(`${row(id)}[data-state=paid]`);
  // the postbacks reach the receiver, and the attempts are listed with their answer
  await waitFor(() => seenByReceiver(id) >= 2, scaledMs(15_000, 0.25), 'the created and paid postbacks at the receiver');
  await page.waitForSelector('[data-testid=postback][data-state=delivered] [data-testid=attempt]');
  await photograph(page, 'postbacks');

  const before = seenByReceiver(id);
  const attempts = await page.locator('[data-testid=attempt]').count();
  await page.locator('[data-testid=postback][data-state=delivered] [data-testid=resend]').first().click();
  await waitFor(() => seenByReceiver(id) > before, scaledMs(15_000, 0.25), 'the resent postback at the receiver');
  await page.waitForFunction((n) => (globalThis as any).document.querySelectorAll('[data-testid=attempt]').length > n, attempts);
  expect(reloaded).toBe(false);
  await page.context().close();

  // a restart on the same folder: the transaction, paid, and its postbacks are there again
  await first.sb.stop();
  sandboxes.splice(sandboxes.indexOf(first.sb), 1);
  const second = await sandbox();
  const again = await newPage(browser, WIDTHS[0]);
  await again.goto(`${second.dashboard}#tx=${id}`);
  await again.waitForSelector(`${row(id)}[data-state=paid]`);
  await again.waitForSelector('[data-testid=detail-facts][data-state=paid]');
  await photograph(again, 'after-restart');
  await again.context().close();
});

it("scripts/dashboard-screenshot.mjs makes the README's picture of the dashboard (here into test-output/, the committed one is docs/dashboard.png)", async () => {
  const out = join(SCREENSHOT_DIR, 'readme-dashboard.png');
  const run = await promisify(execFile)(process.execPath, [resolve(__dirname, '../../scripts/dashboard-screenshot.mjs'), out], {
    encoding: 'utf8',
    timeout: scaledMs(60_000, 0.75),
  });
  expect(run.stdout.trim()).toBe(out);
  const png = readFileSync(out);
  expect(png.subarray(1, 4).toString()).toBe('PNG');
  expect([png.readUInt32BE(16), png.readUInt32BE(20)]).toEqual([1440, 900]);
  expect(readFileSync(resolve(__dirname, '../../README.md'), 'utf8')).toContain('](docs/dashboard.png)');
});
