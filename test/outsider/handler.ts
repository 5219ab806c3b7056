/**
 * A small postback handler written the way public handlers of this gateway family are: it answers
 * the `{"test": true}` ping with 200, ignores (200 `{"ignored": true}`) any postback without an
 * `orderId`, and otherwise finds the order by `orderId` and records the event. It knows nothing
 * of paycli. Used by test/e2e/sandbox-outsider.test.ts.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One postback the handler accepted. */
export interface HandledEvent {
  orderId: string;
  object: string;
  status: string;
  body: Record<string, unknown>;
}

export interface OutsiderHandler {
  url: string;
  /** Accepted events, in arrival order. */
  events: HandledEvent[];
  /** Postbacks ignored for lack of an `orderId`. */
  ignored: number;
  /** Pings answered. */
  pings: number;
  /** Events of one order. */
  of(orderId: string): HandledEvent[];
  close(): Promise<void>;
}

/** Starts the handler on 127.0.0.1; `orders` are the references it knows. */
export async function startOutsiderHandler(orders: Set<string>): Promise<OutsiderHandler> {
  const state = { events: [] as HandledEvent[], ignored: 0, pings: 0 };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const send = (status: number, body: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(body));
      };
      let body: Record<string, unknown>;
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>;
      } catch {
        return send(400, { error: 'invalid json' });
      }
      if (body.test === true) {
        state.pings++;
        return send(200, { ok: true });
      }
      const orderId = body.orderId;
      if (typeof orderId !== 'string' || !orders.has(orderId)) {
        state.ignored++;
        return send(200, { ignored: true });
      }
      state.events.push({ orderId, object: String(body.object), status: String(body.status), body });
      return send(200, { received: true });
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/webhooks/pix`,
    get events() {
      return state.events;
    },
    get ignored() {
      return state.ignored;
    },
    get pings() {
      return state.pings;
    },
    of: (orderId) => state.events.filter((e) => e.orderId === orderId),
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}
