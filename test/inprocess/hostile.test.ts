/**
 * The hostile-gateway matrix. Each case runs paycli in process (test/helpers/run.ts) against a test
 * gateway on 127.0.0.1 that answers outside the interface on purpose, and asserts the message
 * and the exit code (docs/output-for-scripts.md "Exit codes").
 */
import { mkdirSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CASHIN_ARGS, CASHOUT_ARGS } from '../helpers/cli.js';
import { runPaycliInProcess as runPaycli } from '../helpers/run.js';
import { CASHIN_OK, CASHOUT_OK, json, startGateway, useGatewayFixture } from '../helpers/gateway.js';

const KEY = 'sk_live_HOSTILE_0123456789abcdef';
const t = useGatewayFixture(KEY);
const cashout = (...extra: string[]) => [...extra, ...CASHOUT_ARGS, '--yes'];

/**
 * Raw terminal-control characters: C0 but tab/newline, DEL, C1 (incl. 8-bit CSI/OSC/ST), bidi overrides,
 * isolates and marks (ALM, LRM, RLM), line/paragraph separators and the other invisible format characters.
 */
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u180e\u200b\u200e\u200f\u2028\u2029\u202a-\u202e\u2060-\u2064\u2066-\u206f\ufeff\ufff9-\ufffb]/;
/** The same characters as JSON escapes (what JSON.stringify would write for C0). */
const ESCAPED_CONTROL = /\\u00(?:0[0-8bcef]|1[0-9a-f]|7f|[89][0-9a-f])/i;

/** A string carrying every kind of escape a hostile gateway could use on a terminal. */
const EVIL =
  'Bad\u001b[2J\u001b[31mred\u001b[0m ' + // clear screen, colour
  '\u001b]0;pwned title\u0007' + // OSC 0: window title, BEL-terminated
  '\u001b]8;;https://evil.example\u001b\\link\u001b]8;;\u001b\\ ' + // OSC 8 hyperlink, ST-terminated
  '\u009b31m\u009d52;c;aGk=\u009c' + // 8-bit CSI, 8-bit OSC 52 (clipboard) with C1 ST
  '\u001bP+q\u001b\\\u0008\u0008\r\u007f\u202eevil\u202c\u0000 end' +
  '\u200e\u200f\u061c\u2028\u2029\u200b\u2060\u2066x\u2069\u206a\u180e\ufeff\ufff9'; // marks, separators, invisible format characters

function expectClean(...texts: string[]): void {
  for (const t of texts) {
    expect(t).not.toMatch(CONTROL);
    expect(t).not.toMatch(ESCAPED_CONTROL);
    expect(t).not.toContain('pwned title');
    expect(t).not.toContain('aGk=');
  }
}

describe('hostile gateway: answers outside the interface', () => {
  it('HTML 502 page: exit 5, says it is an HTML page and that the outcome is unknown', async () => {
    t.gw.respond((_req, res) => {
      res.writeHead(502, { 'content-type': 'text/html' });
      res.end('<html><head><title>502 Bad Gateway</title></head><body><h1>502 Bad Gateway</h1><hr>nginx</body></html>');
    });
    const r = await runPaycli(cashout(), { env: t.env() });
    expect(r.code).toBe(5);
    expect(r.stderr).toMatch(/the gateway failed \(HTTP 502 with an HTML page\); the outcome is unknown/);
    expect(r.stderr).not.toContain('<html>');
    expect(r.stdout).toBe('');
  });

  it('200 with invalid JSON: exit 5, "not JSON", outcome unknown', async () => {
    t.gw.respond((_req, res) => json(res, 200, '{"transactionId": 77,, "gross": }'));
    const r = await runPaycli(cashout(), { env: t.env() });
    expect(r.code).toBe(5);
    expect(r.stderr).toMatch(/answered HTTP 200 with a body of type application\/json, not JSON; the outcome is unknown/);
    expect(r.stdout).toBe('');
  });

  it('200 with truncated JSON (complete HTTP message): exit 5, "not JSON"', async () => {
    const text = JSON.stringify(CASHOUT_OK).slice(0, 40);
    t.gw.respond((_req, res) => json(res, 200, text));
    const r = await runPaycli(['--json', ...cashout()], { env: t.env() });
    expect(r.code).toBe(5);
    // stderr: JSON Lines (the notice of the lookup by orderId that found nothing usable), the error last
    const doc = JSON.parse(r.stderr.trim().split('\n').pop()!) as { error: { code: string; message: string; status: number; maybeSent: boolean } };
    expect(doc.error).toMatchObject({ code: 'bad_response', status: 200, maybeSent: true });
    expect(doc.error.message).toMatch(/not JSON; the outcome is unknown/);
    expect(r.stdout).toBe('');
  });

  it('200 with the wrong shape: exit 5, the message names the field', async () => {
    t.gw.respond((_req, res) => json(res, 200, { ...CASHOUT_OK, transactionId: 'seventy-seven' }));
    const r = await runPaycli(cashout(), { env: t.env() });
    expect(r.code).toBe(5);
    expect(r.stderr).toMatch(/does not match the interface: transactionId /);
    const j = await runPaycli(['--json', ...cashout(), '--allow-duplicate'], { env: t.env() });
    expect(j.code).toBe(5);
    // --json: stderr is JSON Lines, warnings first, the error document last
    expect(j.stderr).toMatch(/^\{"warning":"--allow-duplicate: sending although an identical cash-out/); // the first one's outcome is unknown
    for (const l of j.stderr.trim().split('\n')) expect(() => JSON.parse(l)).not.toThrow();
    expect((JSON.parse(j.stderr.trim().split('\n').pop()!) as { error: { field: string } }).error.field).toBe('transactionId');
    t.gw.respond((_req, res) => json(res, 200, { ...CASHIN_OK, externalId: undefined }));
    const ci = await runPaycli(CASHIN_ARGS, { env: t.env() });
    expect(ci.code).toBe(5);
    expect(ci.stderr).toMatch(/does not match the interface: externalId /);
  });

  it('a body announced as 50 MB (Content-Length) is refused before it is read', async () => {
    t.gw.respond((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(50 * 1024 * 1024) });
      res.write('{"transactionId": 77');
    });
    const r = await runPaycli(cashout(), { env: t.env() });
    expect(r.code).toBe(5);
    expect(r.stderr).toMatch(/larger than 1048576 bytes; refused/);
  });

  it('no answer at all: timeout, exit 4, outcome unknown', async () => {
    t.gw.respond(() => undefined);
    const r = await runPaycli(cashout('--timeout', '400'), { env: t.env() });
    expect(r.code).toBe(4);
    expect(r.stderr).toMatch(/no answer within 400 ms after the request was sent: the outcome is unknown; check the cash-out at the gateway/);
    // the POST, then one lookup by its orderId (unanswered too: the outcome stays unknown)
    expect(t.gw.received.map((q) => q.method)).toEqual(['POST', 'GET']);
  });

  it('headers then silence in the body: timeout, exit 4, outcome unknown', async () => {
    t.gw.respond((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': '500' });
      res.write('{"transactionId": 77, ');
    });
    const r = await runPaycli(cashout('--timeout', '400'), { env: t.env() });
    expect(r.code).toBe(4);
    expect(r.stderr).toMatch(/no answer within 400 ms after the request was sent: the outcome is unknown/);
  });

  it('connection reset mid-response: exit 4, outcome unknown', async () => {
    t.gw.respond((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': '500' });
      res.write('{"transactionId": 77, "gross": 15', () => setTimeout(() => res.socket?.destroy(), 50));
    });
    const r = await runPaycli(cashout(), { env: t.env() });
    expect(r.code).toBe(4);
    expect(r.stderr).toMatch(/the connection failed \(.+\) after the request was sent: the outcome is unknown/);
    expect(r.stdout).toBe('');
  });

  it('connection reset before any answer: exit 4, outcome unknown', async () => {
    t.gw.respond((_req, res) => {
      res.socket?.destroy();
    });
    const r = await runPaycli(['--json', ...cashout()], { env: t.env() });
    expect(r.code).toBe(4);
    // the lookups by orderId are reset too (3 tries): the outcome stays unknown
    expect(JSON.parse(r.stderr.trim().split('\n').pop()!)).toMatchObject({ error: { code: 'network', maybeSent: true } });
    expect(t.gw.received.map((q) => q.method)).toEqual(['POST', 'GET', 'GET', 'GET']);
  });

  it('401 and 403: exit 3 with a hint on how to set the API key', async () => {
    for (const status of [401, 403]) {
      t.gw.respond((_req, res) => json(res, status, { message: 'Forbidden' }));
      const r = await runPaycli(cashout(), { env: t.env() });
      expect(r.code).toBe(3);
      expect(r.stderr).toContain(`the gateway refused the credential (HTTP ${status}: Forbidden)`);
      expect(r.stderr).toMatch(/hint: log in with `paycli auth login` \(or set PAYCLI_API_KEY\)/);
      mkdirSync(t.home.env.PAYCLI_CONFIG_DIR!, { recursive: true, mode: 0o700 });
      writeFileSync(join(t.home.env.PAYCLI_CONFIG_DIR!, 'config.json'), JSON.stringify({ profiles: { prod: { 'base-url': t.gw.url } } }), { mode: 0o600 });
      const p = await runPaycli(['--profile', 'prod', ...CASHIN_ARGS], { env: t.env() });
      expect(p.code).toBe(3);
      expect(p.stderr).toContain('paycli auth login --profile prod');
    }
  });

  it('500 with a message: exit 5, the message shown, outcome unknown', async () => {
    t.gw.respond((_req, res) => json(res, 500, { message: 'database unavailable' }));
    const r = await runPaycli(cashout(), { env: t.env() });
    expect(r.code).toBe(5);
    expect(r.stderr).toMatch(/the gateway failed \(HTTP 500: database unavailable\); the outcome is unknown/);
  });

  it('3xx redirects on a POST are not followed: exit 5, the other server receives nothing', async () => {
    const other = await startGateway();
    try {
      for (const status of [301, 302, 303, 307, 308]) {
        t.gw.respond((_req, res) => {
          res.writeHead(status, { location: `${other.url}/transaction/cashout`, 'content-length': '0' });
          res.end();
        });
        const r = await runPaycli(CASHIN_ARGS, { env: t.env() });
        expect(r.code).toBe(5);
        expect(r.stderr).toContain(`the gateway answered HTTP ${status}, a redirect to ${other.url}/transaction/cashout; paycli never follows a redirect`);
      }
      expect(other.received).toHaveLength(0);
      // each POST is followed by one lookup by its orderId (answered with a redirect too: not followed)
      expect(t.gw.received.filter((q) => q.method === 'POST')).toHaveLength(5);
    } finally {
      await other.close();
    }
  });

  it('a redirect Location carrying escape sequences is shown stripped', async () => {
    t.gw.respond((_req, res) => {
      res.writeHead(302, { location: 'https://evil.example/\u009b2J\u009d0;pwned title\u009cx', 'content-length': '0' });
      res.end();
    });
    const r = await runPaycli(['--verbose', ...CASHIN_ARGS], { env: t.env() });
    expect(r.code).toBe(5);
    expect(r.stderr).toContain('a redirect to https://evil.example/');
    expectClean(r.stderr, r.stdout);
  });
});

describe('hostile gateway: escape sequences and control characters never reach the terminal', () => {
  const modes: [string, string[]][] = [
    ['human', []],
    ['--json', ['--json']],
    ['--verbose', ['--verbose']],
    ['--json --verbose', ['--json', '--verbose']],
  ];

  for (const [name, flags] of modes) {
    it(`in an error message (4xx and 5xx), ${name}`, async () => {
      for (const status of [400, 500]) {
        t.gw.respond((_req, res) => json(res, status, { message: EVIL }, { 'x-evil': 'a\u009d0;pwned title\u009cb\u009b2J' })); // ESC/BEL are not legal in a header; 8-bit C1 are
        const r = await runPaycli([...flags, ...CASHIN_ARGS], { env: t.env() });
        expect(r.code).toBe(status === 400 ? 1 : 5);
        expect(r.stderr).toContain('Badred link');
        expect(r.stderr).toContain('end');
        expectClean(r.stdout, r.stderr);
      }
    });

    it(`in the qrCode and unknown fields of a 200, ${name}`, async () => {
      t.gw.respond((_req, res) => json(res, 200, { ...CASHIN_OK, qrCode: `${CASHIN_OK.qrCode}${EVIL}`, note: EVIL, [`k\u001b[31m${EVIL}`]: 1 }));
      const r = await runPaycli([...flags, ...CASHIN_ARGS], { env: t.env() });
      // Created, but its BR Code is not valid: the result is printed, and exit 6 says a person must look.
      expect(r.code).toBe(6);
      expect(r.stdout).toContain(CASHIN_OK.qrCode);
      expect(r.stderr).toMatch(
        flags.includes('--json')
          ? /\{"error":\{"code":"needs_attention".*"problems":\["the BR Code returned by the gateway is not valid/
          : /error: created, but needs attention:\n {2}- the BR Code returned by the gateway is not valid/,
      );
      if (flags.includes('--json')) {
        const doc = JSON.parse(r.stdout) as Record<string, string>;
        expect((doc.gateway as unknown as Record<string, string>).note).toContain('Badred link');
      }
      expectClean(r.stdout, r.stderr);
    });

    it(`in the fields of a cash-out answer that fails validation, ${name}`, async () => {
      t.gw.respond((_req, res) => json(res, 200, { ...CASHOUT_OK, status: EVIL, createdAt: EVIL }));
      const r = await runPaycli([...flags, ...cashout()], { env: t.env() });
      expect(r.code).toBe(5);
      expectClean(r.stdout, r.stderr);
    });
  }

  it('a BR Code whose amount object carries escapes: the warning is stripped too', async () => {
    // TLV-valid payload whose object 54 holds an escape sequence: the decoder quotes it in its problem.
    const amount = '1\u001b[2J0';
    const qr = `000201010212265800140014br.gov.bcb.pix0136123e4567-e12b-12d1-a456-42665544000052040000530398654${String(amount.length).padStart(2, '0')}${amount}5802BR6304ABCD`;
    t.gw.respond((_req, res) => json(res, 200, { ...CASHIN_OK, qrCode: qr }));
    const r = await runPaycli(CASHIN_ARGS, { env: t.env() });
    expect(r.code).toBe(6);
    expect(r.stderr).toMatch(/- the BR Code returned by the gateway is not valid: its amount \(54\) "10" is not/); // the escape is stripped from the quote
    expectClean(r.stdout, r.stderr);
  });
});

describe('hostile input files: refused with exit 2 naming the line and the limit, nothing sent', () => {
  const HEADER = 'value,pix-key-type,pix-key,person-name,person-email,person-phone';
  const ROW = '1000,email,a@example.com,Ana,a@example.com,11987654321';
  const write = (name: string, text: string) => {
    const file = join(t.home.dir, name);
    writeFileSync(file, text);
    return file;
  };
  const expectRefused = (r: { code: number | null; stdout: string; stderr: string }, ...says: (string | RegExp)[]) => {
    expect(r.code).toBe(2);
    for (const s of says) expect(r.stderr).toMatch(s);
    expect(r.stderr).toContain('nothing was sent');
    expect(r.stderr).not.toContain('internal error');
    expect(r.stdout).toBe('');
    expect(t.gw.received).toHaveLength(0);
  };

  it('a CSV header of 1,000,000 columns: the record-size limit, line 1', async () => {
    const file = write('wide.csv', `value${',c'.repeat(1_000_000)}\n1000\n`);
    const r = await runPaycli(['cashout', '--batch', file, '--yes'], { env: t.env() });
    expectRefused(r, 'wide.csv is not a valid CSV file (line 1): a record longer than 65536 bytes');
  });

  it('a CSV row of 300 short columns: the column limit, with its line', async () => {
    const file = write('cols.csv', `${HEADER}\n${ROW}\n${ROW}${',x'.repeat(294)}\n`);
    const r = await runPaycli(['cashout', '--batch', file, '--yes', '--allow-duplicate'], { env: t.env() });
    expectRefused(r, 'cols.csv line 3 has 300 columns, more than the limit of 256');
  });

  it('a quote inside an unquoted CSV cell (=HYPERLINK("...")): names the line and how to quote it', async () => {
    const file = write('formula.csv', `${HEADER}\n${ROW}\n1000,email,b@example.com,=HYPERLINK("https://evil.example"),b@example.com,11987654321\n`);
    const r = await runPaycli(['cashout', '--batch', file, '--yes'], { env: t.env() });
    expectRefused(r, 'formula.csv is not a valid CSV file (line 3): a quote inside a cell that does not start with one', 'double the quotes');
  });

  it('a JSON Lines line longer than the limit: names the line', async () => {
    const doc = (name: string) => JSON.stringify({ value: 1000, pixKeyType: 'email', pixKey: 'a@example.com', person: { name, email: 'a@example.com', phone: '11987654321' } });
    const file = write('long.jsonl', `${doc('Ana')}\n${doc('x'.repeat(70_000))}\n`);
    const r = await runPaycli(['cashout', '--batch', file, '--yes'], { env: t.env() });
    expectRefused(r, 'long.jsonl line 2: a line longer than 65536 bytes');
  });

  it('a 100 MB --input file: refused at the 1 MiB limit without reading it whole', async () => {
    const file = write('huge.json', '{"value": 1000, "person": {"name": "');
    truncateSync(file, 100 * 1024 * 1024); // sparse: the rest reads as zero bytes
    const r = await runPaycli([...CASHOUT_ARGS, '--input', file, '--yes', '--verbose'], { env: t.env() });
    expectRefused(r, 'huge.json is larger than 1048576 bytes (1 MiB), the limit of a request document');
  });

  it('a lone surrogate (half of a UTF-16 pair) in --input and in a JSON Lines row: refused with the field and line', async () => {
    const file = write('lone.json', '{\n  "person": {"name": "Fulano \\ud800 de Tal"}\n}\n');
    const r = await runPaycli(
      [
        'cashout',
        '--input',
        file,
        '--value',
        '1550',
        '--pix-key-type',
        'email',
        '--pix-key',
        'a@example.com',
        '--person-email',
        'a@example.com',
        '--person-phone',
        '11987654321',
        '--yes',
      ],
      { env: t.env() },
    );
    expectRefused(r, /a lone surrogate .* at line 2, column 22 \(in person\.name\)/);
    const rows = write(
      'lone.jsonl',
      `${JSON.stringify({ value: 1000, pixKeyType: 'email', pixKey: 'a@example.com', person: { name: 'Ana', email: 'a@example.com', phone: '11987654321' } })}\n{"value": 1000, "pixKeyType": "email", "pixKey": "b@example.com", "person": {"name": "B\\udc00", "email": "b@example.com", "phone": "11987654321"}}\n`,
    );
    const b = await runPaycli(['cashout', '--batch', rows, '--yes'], { env: t.env() });
    expectRefused(b, /line 2.*lone surrogate/);
  });
});
