/**
 * The team ledger's connection on the main thread (src/ledger/pg/connection.ts) against a server on
 * 127.0.0.1 that speaks just enough of PostgreSQL's protocol to let the driver connect, then never
 * answers a statement: a call past its limit fails with `NO_ANSWER` and the connection is let go
 * (its socket closed), and the event loop ran meanwhile (a timer fired while the call waited).
 */
import { createServer, type Server, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { PgCallError, PgConnection } from '../../src/ledger/pg/connection.js';
import { pgFailure } from '../../src/ledger/pg/failure.js';

/** One message of the server: its type byte, then its length (itself included) and body. */
function message(type: string, body: Buffer): Buffer {
  const head = Buffer.alloc(5);
  head.write(type, 0, 'latin1');
  head.writeInt32BE(body.length + 4, 1);
  return Buffer.concat([head, body]);
}
const AUTH_OK = message('R', Buffer.from([0, 0, 0, 0]));
const READY = message('Z', Buffer.from('I', 'latin1'));
/** An ErrorResponse with SQLSTATE 42P01 (no such table: the schema version reads as 0). */
const NO_TABLE = message('E', Buffer.from('SERROR\0C42P01\0Mno table\0\0', 'latin1'));

let server: Server | undefined;
afterEach(async () => {
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  server = undefined;
});

/** A server that lets a client in, answers its first statement (the schema version) and no other. */
async function silentServer(): Promise<{ port: number; closed: Promise<void> }> {
  let closedResolve!: () => void;
  const closed = new Promise<void>((resolve) => (closedResolve = resolve));
  server = createServer((socket: Socket) => {
    let state: 'startup' | 'first' | 'silent' = 'startup';
    socket.on('data', () => {
      if (state === 'startup') {
        socket.write(Buffer.concat([AUTH_OK, READY]));
        state = 'first';
      } else if (state === 'first') {
        socket.write(Buffer.concat([NO_TABLE, READY]));
        state = 'silent';
      }
    });
    socket.on('close', () => closedResolve());
    socket.on('error', () => undefined);
  });
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', () => resolve()));
  return { port: (server!.address() as { port: number }).port, closed };
}

describe('a team-ledger call past its limit', () => {
  it('fails with NO_ANSWER after the call limit, lets the connection go, and timers ran while it waited', async () => {
    const { port, closed } = await silentServer();
    const conn = PgConnection.start({
      url: `postgres://payroll@127.0.0.1:${port}/payments`,
      password: 'not-asked',
      connectTimeoutMs: 60_000,
      queryTimeoutMs: 300,
      applicationName: 'paycli test',
    });
    expect(await conn.ready).toBe(0);
    let ticks = 0;
    const timer = setInterval(() => ticks++, 20);
    try {
      const err = await conn.call('query', 'SELECT 1').then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(err).toBeInstanceOf(PgCallError);
      expect((err as PgCallError).code).toBe('NO_ANSWER');
      expect(ticks).toBeGreaterThan(0);
      // fails closed, naming the host, never waiting again
      expect(String((pgFailure(err, `127.0.0.1:${port}/payments`, '; nothing was sent') as Error).message)).toBe(
        `the team ledger at 127.0.0.1:${port}/payments did not answer (no answer within 1 s); nothing was sent`,
      );
      await closed; // the socket was destroyed
      expect(conn.lost).toBe(true);
      await expect(conn.call('query', 'SELECT 1')).rejects.toMatchObject({ code: 'CONNECTION_LOST' });
      await conn.close();
    } finally {
      clearInterval(timer);
    }
  });
});
