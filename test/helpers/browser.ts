/**
 * Debian's headless `chromium` for page tests, driven through playwright-core (which downloads no
 * browser). The browser is spawned here, not by playwright, so that it is registered with
 * test/helpers/reaper.ts like every server a test starts: its own process group, killed with the test
 * process (or by the watchdog), its temporary user-data-dir removed after. Playwright attaches over the
 * DevTools protocol (`connectOverCDP`).
 *
 * Screenshots go to test-output/screenshots/ (git-ignored), at the two widths the layout must hold:
 * {@link WIDTHS} (a phone, 390 px; a desktop, 1440 px).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type Page } from 'playwright-core';
import { scaledMs } from './cli.js';
import { reap, track } from './reaper.js';

/** The browser the tests drive: Debian's `chromium` (scripts/test-deps.txt), or `CHROMIUM` when set. */
export const CHROMIUM = process.env.CHROMIUM ?? '/usr/bin/chromium';

/** Widths (CSS px) every page is checked and photographed at: a phone and a desktop. */
export const WIDTHS = [390, 1440] as const;

/** Where page screenshots are written (git-ignored; written by the run, never committed). */
export const SCREENSHOT_DIR = resolve(dirname(fileURLToPath(import.meta.url)), '../../test-output/screenshots');

/** A running headless chromium, attached. */
export interface BrowserHandle {
  browser: Browser;
  child: ChildProcess;
  /** Closes the connection and kills the browser (its group), removing its user-data-dir. */
  close(): Promise<void>;
}

/**
 * Starts headless chromium with a fresh user-data-dir (`--no-sandbox` when running as root, which
 * chromium's sandbox refuses) and a DevTools port chosen by the system; resolves once playwright is
 * attached. `lang`: the browser's language (`--lang`, the Accept-Language it sends).
 */
export async function launchBrowser(opts: { lang?: string } = {}): Promise<BrowserHandle> {
  const profile = mkdtempSync(join(tmpdir(), 'paycli-chromium-'));
  const args = [
    '--headless',
    '--remote-debugging-port=0',
    `--user-data-dir=${profile}`,
    '--no-first-run',
    '--no-default-browser-check',
    '--disable-gpu',
    '--disable-dev-shm-usage',
    '--disable-extensions',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    '--metrics-recording-only',
    '--password-store=basic',
    '--use-mock-keychain',
    '--hide-scrollbars',
    `--lang=${opts.lang ?? 'en-US'}`,
    ...(process.getuid?.() === 0 ? ['--no-sandbox'] : []),
    'about:blank',
  ];
  const child = spawn(CHROMIUM, args, { stdio: ['ignore', 'ignore', 'pipe'], detached: true, env: { ...process.env, LANG: opts.lang ?? 'en_US.UTF-8' } });
  track(child, { group: true, watch: true, dirs: [profile] });
  const ws = await new Promise<string>((ok, fail) => {
    let stderr = '';
    const timer = setTimeout(
      () => {
        reap(child.pid!);
        fail(new Error(`chromium did not start: ${stderr}`));
      },
      scaledMs(30_000, 0.5),
    );
    child.once('error', (e) => {
      clearTimeout(timer);
      fail(e);
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      fail(new Error(`chromium exited ${code}: ${stderr}`));
    });
    child.stderr!.setEncoding('utf8').on('data', (d: string) => {
      stderr += d;
      const m = /DevTools listening on (ws:\/\/\S+)/.exec(stderr);
      if (m) {
        clearTimeout(timer);
        ok(m[1]!);
      }
    });
  });
  const browser = await chromium.connectOverCDP(ws, { timeout: scaledMs(30_000, 0.5) });
  return {
    browser,
    child,
    close: async () => {
      await browser.close().catch(() => undefined);
      reap(child.pid!);
    },
  };
}

/** A new page (its own context: no shared cookies) `width` px wide, in `locale`. */
export async function newPage(handle: BrowserHandle, width: number, locale = 'en-US'): Promise<Page> {
  const context = await handle.browser.newContext({ viewport: { width, height: width < 600 ? 844 : 900 }, locale, timezoneId: 'America/Sao_Paulo' });
  const page = await context.newPage();
  page.setDefaultTimeout(scaledMs(15_000, 0.25));
  return page;
}

/** Writes a full-page screenshot of `page` as test-output/screenshots/<name>-<width>.png; returns its path. */
export async function screenshot(page: Page, name: string): Promise<string> {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  const width = page.viewportSize()?.width ?? 0;
  const path = join(SCREENSHOT_DIR, `${name}-${width}.png`);
  await page.screenshot({ path, fullPage: true });
  return path;
}

/** The page's layout at its width: whether it scrolls sideways (`scrollWidth` over `innerWidth`). */
export async function horizontalOverflow(page: Page): Promise<{ scrollWidth: number; innerWidth: number }> {
  // a string, evaluated in the page (the project's TypeScript has no DOM types)
  return page.evaluate<{ scrollWidth: number; innerWidth: number }>('({ scrollWidth: document.scrollingElement.scrollWidth, innerWidth: window.innerWidth })');
}
