/**
 * The payment pipeline (src/payment/pipeline.ts) driven in-process: a fake clock, a fake gateway
 * function, a fake lookup and a ledger in memory. Checks that a run resolves its settings once,
 * that cash-in, cash-out and a batch row go through the same steps (the `steps` object, watched),
 * and the in-flight rule at each place a payment is settled: its own failed send, and an
 * identical payment sent again.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { settingsFrom } from '../../src/config/settings.js';
import { GatewayRefusedError, NetworkError, UsageError, type PaycliError } from '../../src/core/errors.js';
import type { BeginInfo, EndDetails, LedgerEntry } from '../../src/ledger/ledger.js';
import { blocks, cashInFingerprint, cashOutFingerprint, type Outcome } from '../../src/ledger/rules.js';
import type { OwnerState } from '../../src/ledger/settle-rule.js';
import { runPayment, steps, type PaymentLedger, type PaymentSpec, type PipelineDeps, type RunSettings } from '../../src/payment/pipeline.js';
import { recordRows, sendBatchRow, type RowRun } from '../../src/batch/row.js';
import { SCHEMAS, type ValidRow } from '../../src/batch/check.js';
import { BATCH_OPERATIONS } from '../../src/cli/batch/run.js';
import type { BatchLedger } from '../../src/batch/ledger.js';
import type { RowResult } from '../../src/cli/batch/results.js';
import { CASHOUT } from '../../src/cli/run/cashout.js';
import { narrowPayment, pay } from '../../src/cli/run/payment.js';
import { CASHIN } from '../../src/cli/run/cashin.js';
import type { Resolution } from '../../src/gateway/lookup.js';
import { whenText } from '../../src/ledger/settle-rule.js';

const T0 = Date.UTC(2026, 10, 25, 15, 0, 0);
const GATEWAY = 'http://127.0.0.1:9';

/** A ledger in memory with the rules of the real one that the pipeline relies on (synchronous, as a batch's store; {@link contractOf} for the pipeline). */
class MemoryLedger {
  entries: LedgerEntry[] = [];
  owners = new Map<number, OwnerState>();
  constructor(private readonly clock: () => number) {}
  blockingCashOut(fingerprint: string, windowMin: number, now = this.clock()): LedgerEntry | undefined {
    return [...this.entries].reverse().find((e) => e.fingerprint === fingerprint && e.kind === 'cashout' && blocks(e, windowMin, now));
  }
  reusableOrderId(fingerprint: string, sinceMs: number): string | undefined {
    const e = [...this.entries].reverse().find((x) => x.fingerprint === fingerprint && x.outcome === 'not_sent' && x.resolvedBy === 'gateway' && (x.timeMs ?? 0) >= sinceMs);
    return e && !this.entries.some((x) => x.orderId === e.orderId && x.id > e.id) ? e.orderId : undefined;
  }
  begin(info: BeginInfo, opts: { windowMin?: number; allowDuplicate?: boolean }): { id: number; earlier?: LedgerEntry } {
    const now = this.clock();
    const fingerprint =
      info.kind === 'cashout'
        ? cashOutFingerprint(info.target, { value: info.value, pixKeyType: info.pixKeyType!, pixKey: info.pixKey! })
        : cashInFingerprint(info.target, { value: info.value, payer: info.payer });
    const earlier = info.kind === 'cashout' ? this.blockingCashOut(fingerprint, opts.windowMin ?? 10, now) : undefined;
    if (earlier && !opts.allowDuplicate) throw new Error('duplicate');
    const id = this.entries.length + 1;
    this.entries.push({
      id,
      uuid: String(id),
      time: new Date(now).toISOString(),
      timeMs: now,
      deadlineMs: now + info.timeoutMs,
      kind: info.kind,
      value: info.value,
      target: info.target,
      endpoint: info.target,
      sandbox: info.sandbox,
      profile: info.profile,
      allowDuplicate: false,
      outcome: 'unknown',
      completed: false,
      fingerprint,
      ...(info.orderId ? { orderId: info.orderId } : {}),
      ...(info.pixKey ? { pixKey: info.pixKey } : {}),
    });
    this.owners.set(id, 'self');
    return { id };
  }
  end(id: number, outcome: Outcome, extra: EndDetails = {}): void {
    Object.assign(this.get(id)!, { outcome, completed: true, ...(extra.transactionId !== undefined ? { transactionId: extra.transactionId } : {}) });
  }
  get(id: number): LedgerEntry | undefined {
    return this.entries.find((e) => e.id === id);
  }
  inFlight(e: LedgerEntry) {
    return { deadlineMs: e.deadlineMs!, owner: this.owners.get(e.id) ?? 'gone' };
  }
  resolve(id: number, outcome: Exclude<Outcome, 'unknown'>, opts: { by: 'hand' | 'gateway' } & EndDetails): LedgerEntry {
    const e = this.get(id)!;
    Object.assign(e, { outcome, completed: true, resolvedBy: opts.by, ...(opts.transactionId !== undefined ? { transactionId: opts.transactionId } : {}) });
    return e;
  }
  /** The process that recorded the entries has ended (a new process runs next). */
  endProcess(): void {
    for (const id of this.owners.keys()) this.owners.set(id, 'gone');
  }
}

/** The ledger contract's view of a {@link MemoryLedger}: the pipeline awaits every call. */
function contractOf(l: MemoryLedger): PaymentLedger {
  return {
    blockingCashOut: async (fingerprint, windowMin, now) => l.blockingCashOut(fingerprint, windowMin, now),
    reusableOrderId: async (fingerprint, sinceMs) => l.reusableOrderId(fingerprint, sinceMs),
    begin: async (info, opts = {}) => ({ uuid: '', ...l.begin(info, opts) }),
    end: async (id, outcome, extra) => l.end(id, outcome, extra),
    get: async (id) => l.get(id),
    inFlight: async (e) => l.inFlight(e),
    resolve: async (id, outcome, opts) => l.resolve(id, outcome, opts),
  };
}

interface Harness {
  deps: PipelineDeps;
  ledger: MemoryLedger;
  clock: { now: number };
  sent: Array<{ path: string; body: Record<string, unknown> }>;
  asked: string[];
  settingsCalls: number;
  printed: unknown[];
  /** What the gateway does with the next POST: answer, or fail with this error. */
  gateway: { fail?: Error };
  /** What a lookup by order reference answers. */
  lookup: (orderId: string) => Resolution;
}

function harness(env: Record<string, string> = {}): Harness {
  const clock = { now: T0 };
  const ledger = new MemoryLedger(() => clock.now);
  const h: Harness = {
    ledger,
    clock,
    sent: [],
    asked: [],
    settingsCalls: 0,
    printed: [],
    gateway: {},
    lookup: () => ({ kind: 'not_found' }),
    deps: undefined as unknown as PipelineDeps,
  };
  const fullEnv = { PAYCLI_BASE_URL: GATEWAY, PAYCLI_API_KEY: 'sk_test_0123456789abcdef', ...env };
  h.deps = {
    now: () => clock.now,
    settings: (flags, kind): RunSettings => {
      h.settingsCalls++;
      return { send: settingsFrom({ flags, env: fullEnv, config: {}, op: kind }), lookup: settingsFrom({ flags, env: fullEnv, config: {}, op: 'lookup', about: kind }) };
    },
    ledger: async () => contractOf(ledger),
    send: async (_settings, path, body) => {
      h.sent.push({ path, body: body as Record<string, unknown> });
      if (h.gateway.fail) throw h.gateway.fail;
      const value = (body as { value: number }).value;
      const data = path.endsWith('cashout')
        ? { transactionId: h.sent.length, gross: value, tax: '0', liquid: String(value), status: '0', createdAt: new Date(clock.now).toISOString() }
        : { transactionId: h.sent.length, externalId: 'e', qrCode: 'q', qrCodeBase64: 'x' };
      return { status: 200, data, raw: data, sandbox: false };
    },
    ask: async (_s, orderId) => {
      h.asked.push(orderId);
      return h.lookup(orderId);
    },
    confirm: async () => true,
    witness: async () => undefined,
  };
  return h;
}

/** The spec with its print steps capturing instead of writing to stdout. */
function quiet<B extends { value: number; orderId?: string }, R>(spec: PaymentSpec<B, R>, h: Harness): PaymentSpec<B, R> {
  return {
    ...spec,
    print: async (c) => {
      h.printed.push(c.data);
      return { doc: c.data, text: () => '' };
    },
    printFound: (f) => {
      h.printed.push(f.settled.found);
      return { doc: f.settled.found, text: () => '' };
    },
  };
}

const CASHOUT_FLAGS = {
  value: '1550',
  pixKeyType: 'email',
  pixKey: 'fulano@example.com',
  personName: 'Fulano de Tal',
  personEmail: 'fulano@example.com',
  personPhone: '11987654321',
  yes: true,
  noInput: true,
};
const CASHIN_FLAGS = {
  value: '1000',
  payerName: 'Fulano de Tal',
  payerDocument: '123.456.789-09',
  payerEmail: 'fulano@example.com',
  payerPhone: '11987654321',
  productName: 'Camiseta',
  productDescription: 'Camiseta azul',
  noInput: true,
};
const timeout = () => new NetworkError('no answer within 30000 ms after the request was sent: the outcome is unknown', { maybeSent: true }, 'timeout');

describe('the payment pipeline, in-process', () => {
  it('a cash-out resolves its settings once, records before sending, and records the answer', async () => {
    const h = harness();
    await pay(quiet(CASHOUT, h), { ...CASHOUT_FLAGS }, h.deps);
    expect(h.settingsCalls).toBe(1);
    expect(h.sent).toHaveLength(1);
    expect(h.sent[0]!.body.orderId).toMatch(/^paycli-/);
    expect(h.ledger.entries).toMatchObject([{ outcome: 'ok', completed: true, transactionId: 1, orderId: h.sent[0]!.body.orderId, deadlineMs: T0 + 30_000 }]);
    expect(h.printed).toHaveLength(1);
  });

  it('the command line is narrowed at the edge: a typed request (cents) and resolved settings; the pipeline runs from them alone', async () => {
    const h = harness();
    const order = await narrowPayment(quiet(CASHOUT, h), { ...CASHOUT_FLAGS, pixKeyType: 'EMAIL' }, h.deps);
    expect(order).toEqual({
      body: { value: 1550, pixKeyType: 2, pixKey: 'fulano@example.com', person: { name: 'Fulano de Tal', email: 'fulano@example.com', phone: '11987654321' } },
      run: { send: expect.objectContaining({ profile: 'default', duplicateWindowMin: 10 }), lookup: expect.anything() },
      dryRun: false,
      yes: true,
      allowDuplicate: false,
      interactive: false,
    });
    expect(h.settingsCalls).toBe(1);
    expect(h.sent).toHaveLength(0); // nothing sent while narrowing
    // the order is plain data: a copy of it (no flags, no functions) pays
    await runPayment(quiet(CASHOUT, h), structuredClone(order), h.deps);
    expect(h.sent).toHaveLength(1);
    expect(h.sent[0]!.body).toMatchObject({ value: 1550, pixKeyType: 2 });
    expect(h.settingsCalls).toBe(1);
    // --amount in reais becomes cents at the edge; with --value too it is exit 2 before settings are used to send
    expect((await narrowPayment(quiet(CASHOUT, h), { ...CASHOUT_FLAGS, value: undefined, amount: '15,50' }, h.deps)).body.value).toBe(1550);
    await expect(narrowPayment(quiet(CASHOUT, h), { ...CASHOUT_FLAGS, amount: '15,50' }, h.deps)).rejects.toMatchObject({ exitCode: 2, details: { field: '--amount' } });
    // a batch-only flag is refused at the edge
    await expect(narrowPayment(quiet(CASHOUT, h), { ...CASHOUT_FLAGS, concurrency: '4' }, h.deps)).rejects.toMatchObject({ exitCode: 2, details: { field: '--concurrency' } });
  });

  it('a cash-in goes through the same steps (settings once, recorded, sent, printed), never refused as a duplicate', async () => {
    const h = harness();
    await pay(quiet(CASHIN, h), { ...CASHIN_FLAGS }, h.deps);
    await pay(quiet(CASHIN, h), { ...CASHIN_FLAGS }, h.deps);
    expect(h.settingsCalls).toBe(2);
    expect(h.sent.map((s) => s.path)).toEqual(['/transaction/qrcode/cashin', '/transaction/qrcode/cashin']);
    expect(h.ledger.entries.map((e) => [e.kind, e.outcome])).toEqual([
      ['cashin', 'ok'],
      ['cashin', 'ok'],
    ]);
  });

  it("its own lookup after a timeout hears 'not found': the entry stays unknown, and the error says from when the gateway can be asked", async () => {
    const h = harness();
    h.gateway.fail = timeout();
    const err = await pay(quiet(CASHOUT, h), { ...CASHOUT_FLAGS }, h.deps).then(
      () => undefined,
      (e: unknown) => e as NetworkError,
    );
    expect(err?.exitCode).toBe(4);
    expect(err?.message).toContain('its outcome is unknown');
    expect(err?.message).toContain(`the gateway can be asked from ${whenText(Date.parse('2026-11-25T15:02:30Z'))}`); // T0 + 30 s timeout + 2 min settle-after, in local time
    expect(h.asked).toEqual([h.sent[0]!.body.orderId]);
    expect(h.ledger.entries[0]).toMatchObject({ outcome: 'unknown' });
  });

  it('the same cash-out again: refused while the first run is alive; after it ended, refused before the deadline plus settle-after; then sent under the same order reference', async () => {
    const h = harness();
    h.gateway.fail = timeout();
    await pay(quiet(CASHOUT, h), { ...CASHOUT_FLAGS }, h.deps).catch(() => undefined);
    const ref = h.sent[0]!.body.orderId;
    h.gateway.fail = undefined;
    h.asked.length = 0;
    // the first process is still alive (running or stopped): not even asked about
    h.ledger.owners.set(1, 'alive');
    await expect(pay(quiet(CASHOUT, h), { ...CASHOUT_FLAGS }, h.deps)).rejects.toMatchObject({
      code: 'duplicate_cashout',
      message: expect.stringContaining('still running'),
    });
    expect(h.asked).toEqual([]);
    // it ended; 1 minute later a "not found" proves nothing yet
    h.ledger.endProcess();
    h.clock.now = T0 + 60_000;
    await expect(pay(quiet(CASHOUT, h), { ...CASHOUT_FLAGS }, h.deps)).rejects.toMatchObject({
      code: 'duplicate_cashout',
      message: expect.stringContaining('proves nothing'),
    });
    expect(h.sent).toHaveLength(1);
    // past 30 s + 2 min: "not found" counts: recorded not sent, and sent again with the same reference
    h.clock.now = T0 + 150_000;
    await pay(quiet(CASHOUT, h), { ...CASHOUT_FLAGS }, h.deps);
    expect(h.sent).toHaveLength(2);
    expect(h.sent[1]!.body.orderId).toBe(ref);
    expect(h.ledger.entries.map((e) => e.outcome)).toEqual(['not_sent', 'ok']);
  });

  it('the same cash-out again when the gateway holds the first: recorded ok, refused, nothing sent', async () => {
    const h = harness();
    h.gateway.fail = timeout();
    h.lookup = () => ({ kind: 'not_found' });
    await pay(quiet(CASHOUT, h), { ...CASHOUT_FLAGS }, h.deps).catch(() => undefined);
    h.ledger.endProcess();
    h.lookup = (orderId) => ({ kind: 'found', data: { transactionId: 77, orderId, object: 'transfer', status: 'paid', value: 1550 } as never, raw: {} });
    await expect(pay(quiet(CASHOUT, h), { ...CASHOUT_FLAGS }, h.deps)).rejects.toMatchObject({
      code: 'duplicate_cashout',
      message: expect.stringContaining('already sent'),
    });
    expect(h.sent).toHaveLength(1);
    expect(h.ledger.entries[0]).toMatchObject({ outcome: 'ok', transactionId: 77 });
  });

  it('settle-after 0 from the environment: decidable right at the deadline', async () => {
    const h = harness({ PAYCLI_SETTLE_AFTER: '0' });
    h.gateway.fail = timeout();
    await pay(quiet(CASHOUT, h), { ...CASHOUT_FLAGS }, h.deps).catch(() => undefined);
    h.ledger.endProcess();
    h.gateway.fail = undefined;
    h.clock.now = T0 + 30_000;
    await pay(quiet(CASHOUT, h), { ...CASHOUT_FLAGS }, h.deps);
    expect(h.sent).toHaveLength(2);
  });

  it('a clock outside the years 2000-9999 is refused before anything is asked or sent', async () => {
    const h = harness();
    h.clock.now = Date.UTC(10021, 0, 1);
    await expect(pay(quiet(CASHOUT, h), { ...CASHOUT_FLAGS }, h.deps)).rejects.toMatchObject({ code: 'clock_invalid', exitCode: 2 });
    h.clock.now = Date.UTC(-5, 0, 1);
    await expect(pay(quiet(CASHOUT, h), { ...CASHOUT_FLAGS }, h.deps)).rejects.toMatchObject({ code: 'clock_invalid', exitCode: 2 });
    expect(h.sent).toHaveLength(0);
    expect(h.ledger.entries).toHaveLength(0);
  });
});

describe('one pipeline: a single payment and a batch row call the same step functions', () => {
  afterEach(() => vi.restoreAllMocks());
  /** Watches the pipeline's steps (record, send, classify, record end), counting calls. */
  const watch = () => ({
    record: vi.spyOn(steps, 'record'),
    recordMany: vi.spyOn(steps, 'recordMany'),
    send: vi.spyOn(steps, 'send'),
    classify: vi.spyOn(steps, 'classify'),
    recordEnd: vi.spyOn(steps, 'recordEnd'),
  });
  const counts = (w: ReturnType<typeof watch>) => Object.fromEntries(Object.entries(w).map(([k, v]) => [k, v.mock.calls.length]));

  /** A batch run of cash-outs around the harness: its ledger and its gateway function; outcomes written at once. */
  function batchRun(h: Harness, results: RowResult[]): RowRun {
    const settings = h.deps.settings({}, 'cashout').send;
    // the contract's recordMany: the outcomes held back written, then each row checked and recorded in order, a refusal being that row's answer
    const ledger = {
      recordMany: async (infos, opts, ends = []) => {
        for (const [id, outcome, extra] of ends) h.ledger.end(id, outcome, extra);
        return infos.map((info) => {
          try {
            return h.ledger.begin(info, opts);
          } catch {
            return new UsageError('an identical cash-out was already sent', {}, 'duplicate_cashout');
          }
        });
      },
    } as Partial<BatchLedger> as BatchLedger;
    let stopped: PaycliError | undefined;
    return {
      op: { ...BATCH_OPERATIONS.cashout, ...SCHEMAS.cashout },
      settings,
      batchId: 'b1',
      target: `${GATEWAY}/transaction/cashout`,
      sandbox: false,
      allowDuplicate: false,
      ledger,
      deps: { send: h.deps.send },
      signal: new AbortController().signal,
      stopping: () => stopped !== undefined,
      stop: (err) => void (stopped ??= err),
      sending: () => undefined,
      unknownExit: () => undefined,
      decidableAt: () => undefined,
      recorded: () => undefined,
      ensureStartable: async () => undefined,
      started: () => undefined,
      endLater: (id, outcome, details) => h.ledger.end(Number(id), outcome, details),
      pause: async () => undefined,
      lookup: () => h.deps.settings({}, 'cashout').lookup as never,
      finish: (r) => void results.push(r),
    };
  }
  const row = (n: number, value: number): ValidRow => ({
    line: n + 1,
    row: n,
    ok: true,
    ownOrderId: false,
    orderId: `paycli-b1-${n}`,
    body: { value, pixKeyType: 2, pixKey: `row${n}@example.com`, person: { name: 'Fulano de Tal', email: 'fulano@example.com', phone: '11987654321' } },
  });

  it('runPayment: record, send (classified), record end, once each', async () => {
    const h = harness();
    const w = watch();
    await pay(quiet(CASHOUT, h), { ...CASHOUT_FLAGS }, h.deps);
    expect(counts(w)).toEqual({ record: 1, recordMany: 0, send: 1, classify: 0, recordEnd: 1 });
    expect(w.send.mock.calls[0]![0]).toBe(h.deps); // the single payment's deps
    expect(h.ledger.entries).toMatchObject([{ outcome: 'ok', transactionId: 1 }]);
  });

  it("a batch row, recorded in its wave or on its own: the same record (the contract's recordMany), send and record end; a failure classified by the same function", async () => {
    const h = harness();
    const results: RowResult[] = [];
    const run = batchRun(h, results);
    const w = watch();
    // recorded in a wave (src/batch/recorder.ts), then sent
    const [ahead] = await recordRows(run, [row(1, 1000)]);
    await sendBatchRow(run, row(1, 1000), (ahead as { id: number }).id);
    expect(counts(w)).toEqual({ record: 0, recordMany: 1, send: 1, classify: 0, recordEnd: 1 });
    expect(w.send.mock.calls[0]![0]).toBe(run.deps); // the batch's own send (its connection pool)
    // recorded by the row itself (a wave of one)
    await sendBatchRow(run, row(2, 2000));
    expect(counts(w)).toEqual({ record: 0, recordMany: 2, send: 2, classify: 0, recordEnd: 2 });
    // a refusal: classified by steps.classify, recorded by steps.recordEnd
    h.gateway.fail = new GatewayRefusedError('pixKey inválida', { status: 400 });
    await sendBatchRow(run, row(3, 3000));
    expect(counts(w)).toEqual({ record: 0, recordMany: 3, send: 3, classify: 1, recordEnd: 3 });
    expect(h.ledger.entries.map((e) => [e.orderId, e.outcome, e.transactionId])).toEqual([
      ['paycli-b1-1', 'ok', 1],
      ['paycli-b1-2', 'ok', 2],
      ['paycli-b1-3', 'refused', undefined],
    ]);
    expect(results.map((r) => [r.row, r.outcome])).toEqual([
      [1, 'ok'],
      [2, 'ok'],
      [3, 'refused'],
    ]);
  });

  it("a wave (steps.recordMany): the outcomes held back written first, the rows recorded in order in one call, a refusal being that row's answer; a ledger error rejects the whole wave", async () => {
    const h = harness();
    const results: RowResult[] = [];
    const run = batchRun(h, results);
    const [first] = await recordRows(run, [row(1, 1000)]);
    const calls = vi.spyOn(run.ledger, 'recordMany');
    // row 2 is identical to row 1 (same key and amount): refused by the duplicate rule
    const out = await recordRows(run, [row(2, 2000), { ...row(3, 1000), body: row(1, 1000).body }], [[(first as { id: number }).id, 'ok', { transactionId: 9 }]]);
    expect(calls).toHaveBeenCalledTimes(1);
    expect(calls.mock.calls[0]![1]).toEqual({ windowMin: run.settings.duplicateWindowMin, allowDuplicate: false });
    expect(out[0]).toEqual({ id: 2 });
    expect(out[1]).toBeInstanceOf(UsageError);
    expect(h.ledger.entries.map((e) => [e.orderId, e.outcome])).toEqual([
      ['paycli-b1-1', 'ok'],
      ['paycli-b1-2', 'unknown'],
    ]);
    calls.mockRejectedValueOnce(new Error('disk I/O error'));
    await expect(recordRows(run, [row(4, 4000)])).rejects.toThrow('disk I/O error');
    expect(h.ledger.entries).toHaveLength(2);
  });

  it('a batch row answered 429 is sent again after Retry-After through the same send step; given up, recorded not_sent (the gateway did not process it)', async () => {
    const h = harness();
    const results: RowResult[] = [];
    const run = batchRun(h, results);
    let pauses = 0;
    run.pause = async () => {
      pauses++;
      if (pauses === 2) h.gateway.fail = undefined; // the third try is answered
    };
    h.gateway.fail = new GatewayRefusedError('too many requests', { status: 429 });
    const w = watch();
    await sendBatchRow(run, row(1, 1000));
    expect(counts(w)).toEqual({ record: 0, recordMany: 1, send: 3, classify: 2, recordEnd: 1 });
    expect(h.ledger.entries).toMatchObject([{ outcome: 'ok' }]);
    // stopped while paused: the 429 is its outcome, as not sent
    h.gateway.fail = new GatewayRefusedError('too many requests', { status: 429 });
    run.pause = async () => void run.stop(new GatewayRefusedError('stop', {}));
    await sendBatchRow(run, row(2, 2000));
    expect(h.ledger.entries[1]).toMatchObject({ outcome: 'not_sent', completed: true });
    expect(results.map((r) => [r.row, r.outcome])).toEqual([
      [1, 'ok'],
      [2, 'not_sent'],
    ]);
  });
});
