/**
 * A minimal forward proxy on 127.0.0.1 for the network tests: CONNECT tunnels (what undici's
 * EnvHttpProxyAgent uses, for http:// targets too) and absolute-form requests, to 127.0.0.0/8
 * only. Records what it was asked for; can be told to leave CONNECT requests unanswered.
 */
import { createServer, request as httpRequest } from 'node:http';
import { connect, type AddressInfo, type Socket } from 'node:net';

/** A running test proxy. */
export interface TestProxy {
  url: string;
  /** `host:port` of every CONNECT received. */
  connects: string[];
  /** Absolute URLs of every plain proxied request. */
  requests: string[];
  close(): Promise<void>;
}

const isLoopback = (host: string) => /^127\.\d+\.\d+\.\d+$/.test(host) || host === 'localhost';

/** Starts the proxy; with `answerConnect: false` it accepts CONNECTs and never answers them. */
export async function startProxy(opts: { answerConnect?: boolean } = {}): Promise<TestProxy> {
  const connects: string[] = [];
  const requests: string[] = [];
  const sockets = new Set<Socket>();
  const server = createServer((req, res) => {
    requests.push(req.url ?? '');
    const target = new URL(req.url ?? '');
    if (!isLoopback(target.hostname)) {
      res.writeHead(403).end();
      return;
    }
    const up = httpRequest({ host: target.hostname, port: target.port, path: target.pathname + target.search, method: req.method, headers: req.headers }, (upRes) => {
      res.writeHead(upRes.statusCode ?? 502, upRes.headers);
      upRes.pipe(res);
    });
    up.on('error', () => res.destroy());
    req.pipe(up);
  });
  server.on('connect', (req, client: Socket, head: Buffer) => {
    connects.push(req.url ?? '');
    sockets.add(client);
    client.on('close', () => sockets.delete(client));
    client.on('error', () => undefined);
    const [host, port] = (req.url ?? '').split(':');
    if (opts.answerConnect === false) return; // silence
    if (!host || !isLoopback(host)) {
      client.end('HTTP/1.1 403 Forbidden\r\n\r\n');
      return;
    }
    const up = connect(Number(port), host, () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      if (head.length) up.write(head);
      up.pipe(client);
      client.pipe(up);
    });
    sockets.add(up);
    up.on('close', () => sockets.delete(up));
    up.on('error', () => client.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    connects,
    requests,
    close: () =>
      new Promise((resolve) => {
        for (const s of sockets) s.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
