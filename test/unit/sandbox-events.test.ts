/**
 * The sandbox's postback events (src/sandbox/events.ts: the log, its reload after a crash, the cap,
 * the state folder's lock) and the delivery rules that are pure (src/sandbox/delivery.ts: the wait
 * between attempts, durations).
 */
import { appendFileSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { formatDuration, parseDuration, PostbackDeliverer, retryWait, RETRY_SCHEDULES } from '../../src/sandbox/delivery.js';
import { EVENTS_FILE, EventStore, lockStateDir, releaseStateDir, type SandboxEvent } from '../../src/sandbox/events.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'paycli-events-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const T0 = 1_800_000_000_000;
const fields = (transactionId: number, status: SandboxEvent['status'] = 'created') => ({
  transactionId,
  object: 'cashin' as const,
  status,
  url: 'http://127.0.0.1:9/hook?token=t',
  body: JSON.stringify({ transactionId, status }),
});
const attempt = (n: number, outcome = 'HTTP 500') => ({ n, at: new Date(T0).toISOString(), outcome, status: 500, ms: 3 });

describe('event log', () => {
  it('keeps events and their attempts across a reload; ids go on increasing', () => {
    const a = new EventStore({ dir });
    a.load();
    const e1 = a.add(fields(1), T0, 60_000);
    const e2 = a.add(fields(1, 'paid'), T0 + 1, 60_000);
    a.update(e1, { attempts: 1, streak: 1, nextAt: T0 + 500 }, attempt(1));
    a.update(e1, { state: 'delivered', attempts: 2, streak: 0, deliveredAt: new Date(T0 + 600).toISOString() }, attempt(2, 'HTTP 200'));
    a.close();
    expect(statSync(join(dir, EVENTS_FILE)).mode & 0o777).toBe(0o600);

    const b = new EventStore({ dir });
    expect(b.load()).toEqual({ events: 2, pending: 1, skipped: 0 });
    expect(b.get('evt_1')).toMatchObject({ state: 'delivered', attempts: 2, recent: [{ n: 1 }, { n: 2, outcome: 'HTTP 200' }] });
    expect(b.get('evt_2')).toMatchObject({ state: 'pending', status: 'paid', body: e2.body, url: e2.url, deadline: T0 + 1 + 60_000 });
    expect(b.add(fields(2), T0, 1).id).toBe('evt_3');
    b.close();
  });

  it('a line cut short by a crash is skipped; what came before is kept', () => {
    const a = new EventStore({ dir });
    a.load();
    a.add(fields(1), T0, 60_000);
    a.add(fields(2), T0, 60_000);
    a.close();
    appendFileSync(join(dir, EVENTS_FILE), '{"e":{"id":"evt_3","seq":3,"transactionId":3,"obj');
    const lines: string[] = [];
    const b = new EventStore({ dir, log: (l) => lines.push(l) });
    expect(b.load()).toEqual({ events: 2, pending: 2, skipped: 1 });
    expect(lines.join('\n')).toMatch(/1 damaged line .* skipped/);
    // The start compacts: the damaged line is gone from the file.
    expect(readFileSync(join(dir, EVENTS_FILE), 'utf8')).not.toContain('"obj\n');
    expect(readFileSync(join(dir, EVENTS_FILE), 'utf8').trim().split('\n')).toHaveLength(3);
    b.close();
  });

  it('past the cap the oldest delivered go first, then the given up, then the oldest pending (logged)', () => {
    const lines: string[] = [];
    const s = new EventStore({ dir, maxEvents: 3, log: (l) => lines.push(l) });
    s.load();
    const [a, b, c] = [s.add(fields(1), T0, 1), s.add(fields(2), T0, 1), s.add(fields(3), T0, 1)];
    s.update(c!, { state: 'delivered' });
    s.update(b!, { state: 'failed' });
    s.add(fields(4), T0, 1); // drops c (delivered), though a and b are older
    expect([...s.all()].map((e) => e.id)).toEqual(['evt_1', 'evt_2', 'evt_4']);
    s.add(fields(5), T0, 1); // drops b (given up)
    expect([...s.all()].map((e) => e.id)).toEqual(['evt_1', 'evt_4', 'evt_5']);
    expect(lines).toEqual([]);
    s.add(fields(6), T0, 1); // only pending left: the oldest, a, goes, and the log says so
    expect([...s.all()].map((e) => e.id)).toEqual(['evt_4', 'evt_5', 'evt_6']);
    expect(lines.join('\n')).toMatch(/event evt_1 .* dropped undelivered: more than 3 events kept/);
    expect(a!.id).toBe('evt_1');
    s.close();
    const again = new EventStore({ dir, maxEvents: 3 });
    again.load();
    expect([...again.all()].map((e) => e.id)).toEqual(['evt_4', 'evt_5', 'evt_6']);
    again.close();
  });

  it('the log is compacted: many attempts on few events keep the file small', () => {
    const s = new EventStore({ dir });
    s.load();
    const e = s.add(fields(1), T0, 60_000);
    for (let n = 1; n <= 5_000; n++) s.update(e, { attempts: n, streak: n, nextAt: T0 + n }, attempt(n));
    s.close();
    const text = readFileSync(join(dir, EVENTS_FILE), 'utf8');
    expect(text.trim().split('\n').length).toBeLessThanOrEqual(1_001);
    const b = new EventStore({ dir });
    b.load();
    expect(b.get('evt_1')).toMatchObject({ attempts: 5_000, recent: [{ n: 4_996 }, { n: 4_997 }, { n: 4_998 }, { n: 4_999 }, { n: 5_000 }] });
    b.close();
  });

  it('without a folder nothing is written', () => {
    const s = new EventStore();
    expect(s.load()).toEqual({ events: 0, pending: 0, skipped: 0 });
    s.add(fields(1), T0, 1);
    expect(s.size).toBe(1);
    s.close();
  });
});

describe('state folder lock', () => {
  it('one holder at a time; a lock left by a process that is gone is taken over', () => {
    const first = lockStateDir(dir);
    expect('dir' in first).toBe(true);
    // This process holds it: another taker sees a live holder only when the pid is another one.
    writeFileSync(join(dir, 'lock'), String(process.ppid));
    expect(lockStateDir(dir)).toEqual({ heldBy: process.ppid });
    writeFileSync(join(dir, 'lock'), '2147483646'); // no such process
    const again = lockStateDir(dir);
    expect('dir' in again).toBe(true);
    releaseStateDir(again as { dir: string; file: string });
    expect(() => statSync(join(dir, 'lock'))).toThrow();
  });
});

describe('retry waits and durations', () => {
  it('doubles from the first wait up to the largest, with jitter between half and all of it', () => {
    const s = RETRY_SCHEDULES.standard;
    expect(retryWait(s, 1, 0)).toBe(5_000);
    expect(retryWait(s, 1, 1 - 1e-12)).toBe(10_000);
    expect(retryWait(s, 2, 1 - 1e-12)).toBe(20_000);
    expect(retryWait(s, 9, 1 - 1e-12)).toBe(2_560_000);
    expect(retryWait(s, 10, 1 - 1e-12)).toBe(3_600_000);
    expect(retryWait(s, 1_000, 0)).toBe(1_800_000);
    expect(retryWait(RETRY_SCHEDULES.fast, 1, 0)).toBe(50);
    expect(retryWait(RETRY_SCHEDULES.fast, 6, 1 - 1e-12)).toBe(2_000);
  });
  it('reads and writes durations', () => {
    expect(parseDuration('24h')).toBe(86_400_000);
    expect(parseDuration('90s')).toBe(90_000);
    expect(parseDuration('1.5m')).toBe(90_000);
    expect(parseDuration('250ms')).toBe(250);
    expect(parseDuration('2d')).toBe(172_800_000);
    for (const bad of ['', '10', '31d', '0s', 'h', '-1s', '1 week']) expect(parseDuration(bad), bad).toBeUndefined();
    expect(formatDuration(86_400_000)).toBe('24 h');
    expect(formatDuration(2_000)).toBe('2 s');
    expect(formatDuration(85)).toBe('85 ms');
  });
});

describe('name resolution inside the attempt time limit', () => {
  it('a host whose name never resolves is a failed attempt on time, then retried', async () => {
    const store = new EventStore();
    store.load();
    const lookups: string[] = [];
    const lines: string[] = [];
    // A resolver that never answers, as one offline can behave (the system one answers at once here).
    const deliverer = new PostbackDeliverer({
      store,
      attemptTimeoutMs: 150,
      schedule: { firstWaitMs: 20, maxWaitMs: 40 },
      log: (l) => lines.push(l),
      lookup: (host) => void lookups.push(host),
    });
    deliverer.start();
    try {
      const e = deliverer.enqueue('https://your-postback-url.com/pix', {
        transactionId: 7,
        object: 'cashin',
        status: 'created',
        method: 'pix',
        value: 100,
        processedAt: new Date().toISOString(),
        orderId: null,
        observation: null,
      });
      const end = Date.now() + 30_000;
      while (e.attempts < 2 && Date.now() < end) await new Promise((r) => setTimeout(r, 20));
      expect(e.attempts).toBeGreaterThanOrEqual(2);
      expect(e.state).toBe('pending');
      expect(e.recent[0]!.outcome).toBe('connection failed (ETIMEOUT: name not resolved within 150 ms)');
      expect(lookups[0]).toBe('your-postback-url.com');
      expect(lines.join('\n')).toMatch(/attempt 1: connection failed \(ETIMEOUT/);
    } finally {
      await deliverer.close();
    }
  });
});
