/**
 * The postback fast path of `--watch` (src/payment/watch-postbacks.ts): which postback URLs paycli listens on
 * itself, and which postbacks hurry which watched transaction. Real HTTP on 127.0.0.1.
 */
import { createServer, type AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { listenForPostbacks, localReceiverAddress } from '../../src/payment/watch-postbacks.js';
import type { Watched } from '../../src/payment/watch.js';

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((r) => server.close(() => r()));
  return port;
}

async function post(url: string, body: unknown): Promise<number> {
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  await res.arrayBuffer();
  return res.status;
}

describe('localReceiverAddress', () => {
  it('listens on http:// loopback URLs only (localhost on both 127.0.0.1 and ::1)', () => {
    expect(localReceiverAddress('http://127.0.0.1:4011/pix/postback')).toEqual({ hosts: ['127.0.0.1'], port: 4011 });
    expect(localReceiverAddress('http://127.0.0.2:4011/')).toEqual({ hosts: ['127.0.0.2'], port: 4011 });
    expect(localReceiverAddress('http://LOCALHOST:8080/x')).toEqual({ hosts: ['127.0.0.1', '::1'], port: 8080 });
    expect(localReceiverAddress('http://[::1]:9000/x')).toEqual({ hosts: ['::1'], port: 9000 });
    expect(localReceiverAddress('http://127.0.0.1/x')).toEqual({ hosts: ['127.0.0.1'], port: 80 });
    expect(localReceiverAddress('https://127.0.0.1:4011/x')).toBeUndefined();
    expect(localReceiverAddress('http://example.com:4011/x')).toBeUndefined();
    expect(localReceiverAddress('http://10.0.0.1:4011/x')).toBeUndefined();
    expect(localReceiverAddress('not a url')).toBeUndefined();
  });
});

describe('listenForPostbacks', () => {
  it('a postback for a watched transaction with a new state nudges it; another transaction, another object, the same state or one received before the wait started are told apart', async () => {
    const port = await freePort();
    const url = `http://127.0.0.1:${port}/pix`;
    const hints = await listenForPostbacks([url, 'https://example.com/pix']);
    expect(hints?.urls).toEqual([`http://127.0.0.1:${port}`]);
    try {
      // received before the wait: remembered
      expect(await post(url, { transactionId: 7, object: 'cashin', status: 'paid', orderId: 'b' })).toBe(200);
      const a: Watched = { key: { orderId: 'a' }, transactionId: 5, state: 'created' };
      const b: Watched = { key: { orderId: 'b' }, transactionId: 7, state: 'created' };
      const c: Watched = { key: { orderId: 'c' }, state: 'created' };
      hints!.watch([a, b, c]);
      expect(b.nudged).toBe(true);
      expect(a.nudged).toBeUndefined();
      expect(await post(url, { transactionId: 6, object: 'cashin', status: 'paid', orderId: 'a' })).toBe(200); // another transaction, a's reference
      expect(await post(url, { transactionId: 5, object: 'transfer', status: 'paid' })).toBe(200); // a cash-out
      expect(await post(url, { transactionId: 5, object: 'cashin', status: 'created' })).toBe(200); // the state already seen
      expect(a.nudged).toBeUndefined();
      expect(await post(url, { transactionId: 5, object: 'cashin', status: 'paid', orderId: 'a' })).toBe(200);
      expect(a.nudged).toBe(true);
      expect(await post(url, { transactionId: 9, status: 'failed', orderId: 'c' })).toBe(200); // id not known yet: by reference
      expect(c.nudged).toBe(true);
      expect(await post(url, [1, 2])).toBe(400);
    } finally {
      await hints?.close();
    }
  });

  it('no local URL: no receiver', async () => {
    expect(await listenForPostbacks(['https://example.com/pix'])).toBeUndefined();
  });
});
