/**
 * The sandbox's transaction ids (src/sandbox/counter.ts): reserved from the shared counter a block
 * at a time (1, 2, 4... up to 64 ids), so a busy sandbox takes the counter's lock once every 64 ids
 * instead of on every request; ids never repeat and keep increasing across runs and processes, and a
 * sandbox that stops gives its unused ids back.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import { MAX_ID_BLOCK, TransactionIds } from '../../src/sandbox/counter.js';

let dir = '';
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'paycli-counter-'));
  vi.stubEnv('PAYCLI_DATA_DIR', dir);
});
afterEach(() => {
  vi.unstubAllEnvs();
  rmSync(dir, { recursive: true, force: true });
});

const counterFile = () => Number(readFileSync(join(dir, 'sandbox-counter'), 'utf8'));

it('hands out 1, 2, 3... taking the shared counter a logarithmic number of times, then once per 64 ids', () => {
  const ids = new TransactionIds();
  const got = Array.from({ length: 1000 }, () => ids.take());
  expect(got).toEqual(Array.from({ length: 1000 }, (_, i) => i + 1));
  // blocks of 1, 2, 4, 8, 16, 32 (63 ids), then 64 at a time: 6 + ceil(937 / 64) = 21
  expect(MAX_ID_BLOCK).toBe(64);
  expect(ids.reservations).toBe(21);
  expect(counterFile()).toBe(63 + 15 * 64);
  ids.release();
  expect(counterFile()).toBe(1000);
  const next = new TransactionIds();
  expect(next.take()).toBe(1001); // a clean stop leaves no gap
  expect(next.reservations).toBe(1);
});

it('a one-shot run reserves the one id it uses', () => {
  expect(new TransactionIds().take()).toBe(1);
  expect(counterFile()).toBe(1);
  expect(new TransactionIds().take()).toBe(2);
});

it('two sandboxes at once never hand out the same id; a killed one leaves a gap, never a repeat; a later one starts above all', () => {
  const a = new TransactionIds();
  const b = new TransactionIds();
  const fromA: number[] = [];
  const fromB: number[] = [];
  for (let i = 0; i < 300; i++) {
    fromA.push(a.take());
    if (i % 3 === 0) fromB.push(b.take());
  }
  for (const list of [fromA, fromB]) expect(list).toEqual([...list].sort((x, y) => x - y));
  const all = [...fromA, ...fromB];
  expect(new Set(all).size).toBe(all.length);
  a.release(); // b reserved after a: a's unused ids stay reserved
  // b is "killed": no release
  const later = new TransactionIds().take();
  expect(later).toBeGreaterThan(Math.max(...all));
  expect(later).toBe(counterFile());
});
