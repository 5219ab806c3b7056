/**
 * Waiting for 1,000 charges at once (src/payment/watch.ts) against a gateway on 127.0.0.1 that allows
 * 40 requests a second and answers 429 `Retry-After: 1` beyond: every question is counted and timed
 * per transaction. In-process, real HTTP.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { json, startGateway, type TestGateway } from '../helpers/gateway.js';
import { settingsFor } from '../../src/config/settings.js';
import { watchByLookup, type Watched } from '../../src/payment/watch.js';

const N = 1000;
const LIMIT_PER_SECOND = 40;
let gw: TestGateway;
let dir: string;
const asked = new Map<string, number[]>();
const window: number[] = [];
let answered429 = 0;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'paycli-watch-load-'));
  Object.assign(process.env, { PAYCLI_CONFIG_DIR: join(dir, 'config'), PAYCLI_DATA_DIR: join(dir, 'data') });
  gw = await startGateway((req, res) => {
    const now = Date.now();
    while (window.length && window[0]! <= now - 1000) window.shift();
    if (window.length >= LIMIT_PER_SECOND) {
      answered429++;
      return json(res, 429, { message: 'Too many requests' }, { 'retry-after': '1' });
    }
    window.push(now);
    const ref = decodeURIComponent(req.path.split('/').pop()!);
    const times = asked.get(ref) ?? [];
    times.push(now);
    asked.set(ref, times);
    const n = Number(ref.slice('carga-'.length));
    // every tenth charge is paid on its third answer, the others on their first
    const status = n % 10 === 0 && times.length < 3 ? 'created' : 'paid';
    return json(res, 200, { transactionId: n + 1, orderId: ref, object: 'cashin', status, value: 1000, method: 'pix' });
  });
  gw.received.length = 0;
});
afterAll(async () => {
  await gw.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('watching 1,000 charges at once', () => {
  it('keeps to the gateway limit: at most one question a second per charge, a 429 pauses all of them, every charge ends paid', async () => {
    const settings = settingsFor({ baseUrl: gw.url }, 'lookup', 'cashin', { quiet: true });
    const list: Watched[] = Array.from({ length: N }, (_, i) => ({ key: { orderId: `carga-${i}` } }));
    const heapBefore = process.memoryUsage().heapUsed;
    await watchByLookup(settings, list, { until: 'paid', signal: AbortSignal.timeout(600_000) });
    const heapGrowth = process.memoryUsage().heapUsed - heapBefore;
    expect(list.every((w) => w.end === 'reached' && w.state === 'paid')).toBe(true);
    expect(asked.size).toBe(N);
    for (const [ref, times] of asked) {
      expect(times.length, ref).toBe(Number(ref.slice(6)) % 10 === 0 ? 3 : 1);
      for (let i = 1; i < times.length; i++) expect(times[i]! - times[i - 1]!, ref).toBeGreaterThanOrEqual(990);
    }
    // no 429 storm: the few 429s are those of requests already out when the first one came back
    expect(answered429).toBeLessThanOrEqual(N / 20);
    console.log(
      `watch-load: ${N} charges, ${[...asked.values()].reduce((a, b) => a + b.length, 0)} answered, ${answered429} answered 429, heap growth ${Math.round(heapGrowth / 1024)} KiB`,
    );
  }, 600_000);
});
