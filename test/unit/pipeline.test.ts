/**
 * The payment pipeline (src/payment/pipeline.ts) driven in-process: a fake clock, a fake gateway
 * function, a fake lookup and a ledger in memory. Checks that a run resolves its settings once,
 * that cash-in and cash-out go through the same steps, and the in-flight rule at each place a
 * payment is settled: its own failed send, and an identical payment sent again.
 */
import { describe, expect, it } from 'vitest';
import { settingsFrom } from '../../src/config/settings.js';
import { NetworkError } from '../../src/core/errors.js';
import type { BeginInfo, EndDetails, LedgerEntry } from '../../src/ledger/ledger.js';
import { blocks, cashInFingerprint, cashOutFingerprint, type Outcome } from '../../src/ledger/rules.js';
import type { OwnerState } from '../../src/ledger/settle-rule.js';
import { runPayment, type PaymentLedger, type PaymentSpec, type PipelineDeps, type RunSettings } from '../../src/payment/pipeline.js';
import { CASHOUT } from '../../src/cli/run/cashout.js';
import { CASHIN } from '../../src/cli/run/cashin.js';
import type { Resolution } from '../../src/gateway/lookup.js';

const T0 = Date.UTC(2026, 10, 25, 15, 0, 0);
const GATEWAY = 'http://127.0.0.1:9';

/** A ledger in memory with the rules of the real one that the pipeline relies on. */
class MemoryLedger implements PaymentLedger {
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
    const fingerprint = info.kind === 'cashout' ? cashOutFingerprint(info.target, { value: info.value, pixKeyType: info.pixKeyType!, pixKey: info.pixKey! }) : cashInFingerprint(info.target, { value: info.value, payer: info.payer });
    const earlier = info.kind === 'cashout' ? this.blockingCashOut(fingerprint, opts.windowMin ?? 10, now) : undefined;
    if (earlier && !opts.allowDuplicate) throw new Error('duplicate');
    const id = this.entries.length + 1;
    this.entries.push({ id, uuid: String(id), time: new Date(now).toISOString(), timeMs: now, deadlineMs: now + info.timeoutMs, kind: info.kind, value: info.value, target: info.target, endpoint: info.target, sandbox: info.sandbox, profile: info.profile, allowDuplicate: false, outcome: 'unknown', completed: false, fingerprint, ...(info.orderId ? { orderId: info.orderId } : {}), ...(info.pixKey ? { pixKey: info.pixKey } : {}) });
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
    ledger: () => ledger,
    send: async (_settings, path, body) => {
      h.sent.push({ path, body: body as Record<string, unknown> });
      if (h.gateway.fail) throw h.gateway.fail;
      const value = (body as { value: number }).value;
      const data = path.endsWith('cashout') ? { transactionId: h.sent.length, gross: value, tax: '0', liquid: String(value), status: '0', createdAt: new Date(clock.now).toISOString() } : { transactionId: h.sent.length, externalId: 'e', qrCode: 'q', qrCodeBase64: 'x' };
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
  return { ...spec, print: async (c) => void h.printed.push(c.data), printFound: (f) => void h.printed.push(f.settled.found) };
}

const CASHOUT_FLAGS = { value: '1550', pixKeyType: 'email', pixKey: 'fulano@example.com', personName: 'Fulano de Tal', personEmail: 'fulano@example.com', personPhone: '11987654321', yes: true, noInput: true };
const CASHIN_FLAGS = { value: '1000', payerName: 'Fulano de Tal', payerDocument: '123.456.789-09', payerEmail: 'fulano@example.com', payerPhone: '11987654321', productName: 'Camiseta', productDescription: 'Camiseta azul', noInput: true };
const timeout = () => new NetworkError('no answer within 30000 ms after the request was sent: the outcome is unknown', { maybeSent: true }, 'timeout');

describe('the payment pipeline, in-process', () => {
  it('a cash-out resolves its settings once, records before sending, and records the answer', async () => {
    const h = harness();
    await runPayment(quiet(CASHOUT, h), { ...CASHOUT_FLAGS }, h.deps);
    expect(h.settingsCalls).toBe(1);
    expect(h.sent).toHaveLength(1);
    expect(h.sent[0]!.body.orderId).toMatch(/^paycli-/);
    expect(h.ledger.entries).toMatchObject([{ outcome: 'ok', completed: true, transactionId: 1, orderId: h.sent[0]!.body.orderId, deadlineMs: T0 + 30_000 }]);
    expect(h.printed).toHaveLength(1);
  });

  it('a cash-in goes through the same steps (settings once, recorded, sent, printed), never refused as a duplicate', async () => {
    const h = harness();
    await runPayment(quiet(CASHIN, h), { ...CASHIN_FLAGS }, h.deps);
    await runPayment(quiet(CASHIN, h), { ...CASHIN_FLAGS }, h.deps);
    expect(h.settingsCalls).toBe(2);
    expect(h.sent.map((s) => s.path)).toEqual(['/transaction/qrcode/cashin', '/transaction/qrcode/cashin']);
    expect(h.ledger.entries.map((e) => [e.kind, e.outcome])).toEqual([['cashin', 'ok'], ['cashin', 'ok']]);
  });

  it("its own lookup after a timeout hears 'not found': the entry stays unknown, and the error says from when the gateway can be asked", async () => {
    const h = harness();
    h.gateway.fail = timeout();
    const err = await runPayment(quiet(CASHOUT, h), { ...CASHOUT_FLAGS }, h.deps).then(() => undefined, (e: unknown) => e as NetworkError);
    expect(err?.exitCode).toBe(4);
    expect(err?.message).toContain('its outcome is unknown');
    expect(err?.message).toContain('the gateway can be asked from 2026-11-25T15:02:30Z'); // T0 + 30 s timeout + 2 min settle-after
    expect(h.asked).toEqual([h.sent[0]!.body.orderId]);
    expect(h.ledger.entries[0]).toMatchObject({ outcome: 'unknown' });
  });

  it('the same cash-out again: refused while the first run is alive; after it ended, refused before the deadline plus settle-after; then sent under the same order reference', async () => {
    const h = harness();
    h.gateway.fail = timeout();
    await runPayment(quiet(CASHOUT, h), { ...CASHOUT_FLAGS }, h.deps).catch(() => undefined);
    const ref = h.sent[0]!.body.orderId;
    h.gateway.fail = undefined;
    h.asked.length = 0;
    // the first process is still alive (running or stopped): not even asked about
    h.ledger.owners.set(1, 'alive');
    await expect(runPayment(quiet(CASHOUT, h), { ...CASHOUT_FLAGS }, h.deps)).rejects.toMatchObject({ code: 'duplicate_cashout', message: expect.stringContaining('still running') });
    expect(h.asked).toEqual([]);
    // it ended; 1 minute later a "not found" proves nothing yet
    h.ledger.endProcess();
    h.clock.now = T0 + 60_000;
    await expect(runPayment(quiet(CASHOUT, h), { ...CASHOUT_FLAGS }, h.deps)).rejects.toMatchObject({ code: 'duplicate_cashout', message: expect.stringContaining('proves nothing') });
    expect(h.sent).toHaveLength(1);
    // past 30 s + 2 min: "not found" counts: recorded not sent, and sent again with the same reference
    h.clock.now = T0 + 150_000;
    await runPayment(quiet(CASHOUT, h), { ...CASHOUT_FLAGS }, h.deps);
    expect(h.sent).toHaveLength(2);
    expect(h.sent[1]!.body.orderId).toBe(ref);
    expect(h.ledger.entries.map((e) => e.outcome)).toEqual(['not_sent', 'ok']);
  });

  it('the same cash-out again when the gateway holds the first: recorded ok, refused, nothing sent', async () => {
    const h = harness();
    h.gateway.fail = timeout();
    h.lookup = () => ({ kind: 'not_found' });
    await runPayment(quiet(CASHOUT, h), { ...CASHOUT_FLAGS }, h.deps).catch(() => undefined);
    h.ledger.endProcess();
    h.lookup = (orderId) => ({ kind: 'found', data: { transactionId: 77, orderId, object: 'transfer', status: 'paid', value: 1550 } as never, raw: {} });
    await expect(runPayment(quiet(CASHOUT, h), { ...CASHOUT_FLAGS }, h.deps)).rejects.toMatchObject({ code: 'duplicate_cashout', message: expect.stringContaining('already sent') });
    expect(h.sent).toHaveLength(1);
    expect(h.ledger.entries[0]).toMatchObject({ outcome: 'ok', transactionId: 77 });
  });

  it('settle-after 0 from the environment: decidable right at the deadline', async () => {
    const h = harness({ PAYCLI_SETTLE_AFTER: '0' });
    h.gateway.fail = timeout();
    await runPayment(quiet(CASHOUT, h), { ...CASHOUT_FLAGS }, h.deps).catch(() => undefined);
    h.ledger.endProcess();
    h.gateway.fail = undefined;
    h.clock.now = T0 + 30_000;
    await runPayment(quiet(CASHOUT, h), { ...CASHOUT_FLAGS }, h.deps);
    expect(h.sent).toHaveLength(2);
  });

  it('a clock outside the years 2000-9999 is refused before anything is asked or sent', async () => {
    const h = harness();
    h.clock.now = Date.UTC(10021, 0, 1);
    await expect(runPayment(quiet(CASHOUT, h), { ...CASHOUT_FLAGS }, h.deps)).rejects.toMatchObject({ code: 'clock_invalid', exitCode: 2 });
    h.clock.now = Date.UTC(-5, 0, 1);
    await expect(runPayment(quiet(CASHOUT, h), { ...CASHOUT_FLAGS }, h.deps)).rejects.toMatchObject({ code: 'clock_invalid', exitCode: 2 });
    expect(h.sent).toHaveLength(0);
    expect(h.ledger.entries).toHaveLength(0);
  });
});
