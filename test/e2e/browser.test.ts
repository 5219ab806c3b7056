/**
 * The page-test infrastructure (test/helpers/browser.ts): Debian's headless chromium starts through
 * playwright-core with no browser download, renders a page at the two widths, writes its screenshots to
 * the git-ignored test-output/screenshots/, and is gone (process and profile folder) once closed.
 */
import { existsSync, readFileSync } from 'node:fs';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { horizontalOverflow, launchBrowser, newPage, screenshot, WIDTHS, type BrowserHandle } from '../helpers/browser.js';

let handle: BrowserHandle;
beforeAll(async () => {
  handle = await launchBrowser();
});
afterAll(async () => {
  await handle?.close();
});

it('renders a page at 390 and 1440 px, measures its overflow and writes PNG screenshots', async () => {
  for (const width of WIDTHS) {
    const page = await newPage(handle, width);
    await page.setContent('<meta name="viewport" content="width=device-width"><main style="max-width:100%"><h1>Pix</h1><pre id="wide" style="width:1000px">x</pre></main>');
    await page.waitForSelector('h1');
    const { scrollWidth, innerWidth } = await horizontalOverflow(page);
    expect(innerWidth).toBe(width);
    // a 1000 px block scrolls sideways at 390 px and not at 1440 px: the measure the dashboard test relies on
    expect(scrollWidth > innerWidth).toBe(width < 1000);
    const path = await screenshot(page, 'browser-helper');
    expect(readFileSync(path).subarray(1, 4).toString()).toBe('PNG');
    await page.context().close();
  }
});

it('leaves no browser behind once closed', async () => {
  const pid = handle.child.pid!;
  const exited = new Promise((r) => handle.child.once('exit', r));
  await handle.close();
  await exited;
  expect(existsSync(`/proc/${pid}`) && !readFileSync(`/proc/${pid}/stat`, 'utf8').includes(') Z')).toBe(false);
});
