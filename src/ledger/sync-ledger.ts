/**
 * The local ledger with the synchronous methods of src/ledger/store.ts `LedgerStore`, for the
 * callers that are not on the asynchronous contract yet (the batch engine, src/cli/batch/). Every
 * rule is src/ledger/keeper.ts's (its rule functions run over a store that answers at once, so
 * they answer at once too); this file only calls them.
 */
import { UsageError } from '../core/errors.js';
import type { Recorded, RecordOptions } from './contract.js';
import { blockingRule, claimRule, endRule, inFlightRule, recordRule, releaseRule, resolveRule } from './keeper.js';
import type { Ledger } from './ledger.js';
import { cashOutFingerprint, duplicateError, type Outcome, type PaymentKind } from './rules.js';
import type { RunRecord } from './runs.js';
import { clean, type BatchOutcome, type BeginInfo, type EndDetails, type LedgerEntry, type LedgerQuery, type ResolvedBy } from './schema.js';
import type { InFlightFacts } from './settle-rule.js';

/** A rule's answer from a store that answers at once. */
const now_ = <T>(v: T | Promise<T>): T => {
  if (v instanceof Promise) throw new TypeError('the local ledger answered later');
  return v;
};

/** The local ledger, synchronous (see the file's comment). */
export class SyncLedger {
  readonly file: string;
  constructor(readonly store: Ledger) {
    this.file = store.file;
  }
  close(): void {
    this.store.close();
  }
  blockingCashOut(fingerprint: string, windowMin: number, now = Date.now()): LedgerEntry | undefined {
    return now_(blockingRule(this.store, fingerprint, windowMin, now));
  }
  /** @throws UsageError `duplicate_cashout` */
  checkCashOut(target: string, body: { value: number; pixKeyType: number; pixKey: string }, windowMin: number): void {
    const at = Date.now();
    const earlier = this.blockingCashOut(cashOutFingerprint(target, body), windowMin, at);
    if (earlier) throw duplicateError(earlier, windowMin, at);
  }
  /** @throws UsageError `duplicate_cashout` / `duplicate_order` */
  begin(info: BeginInfo, opts: RecordOptions = {}): Recorded {
    const [out] = now_(recordRule(this.store, [info], opts, []));
    if (out instanceof UsageError) throw out;
    return out!;
  }
  end(id: number, outcome: Outcome, extra: EndDetails = {}): void {
    now_(endRule(this.store, [[id, outcome, extra]]));
  }
  /** Runs `fn` in one `BEGIN IMMEDIATE`: the begins and ends inside it reach the disk together. */
  group<T>(fn: () => T): T {
    return this.store.exclusive(undefined, fn);
  }
  extendDeadlines(ids: readonly number[], deadlineMs: number): void {
    if (ids.length) this.store.extendDeadlines(ids, deadlineMs);
  }
  inFlight(e: LedgerEntry): InFlightFacts & { run?: RunRecord } {
    return now_(inFlightRule(this.store, e));
  }
  run(id: string): RunRecord | undefined {
    return this.store.run(id);
  }
  runs(): RunRecord[] {
    return this.store.runs();
  }
  claimBatch(batchId: string, endpoint: string): RunRecord | undefined {
    return now_(claimRule(this.store, batchId, endpoint));
  }
  releaseBatch(): void {
    now_(releaseRule(this.store));
  }
  reusableOrderId(fingerprint: string, sinceMs: number): string | undefined {
    return this.store.reusableOrderId(fingerprint, sinceMs);
  }
  get(id: number): LedgerEntry | undefined {
    return this.store.get(id);
  }
  findByOrderId(orderId: string): LedgerEntry[] {
    return this.store.findByOrderIds([orderId]).get(orderId) ?? [];
  }
  /** The entries of many order references, each newest first (a reference without any: no key). */
  findByOrderIds(orderIds: readonly string[]): Map<string, LedgerEntry[]> {
    return this.store.findByOrderIds([...new Set(orderIds)]);
  }
  /** None here: the batch records its rows one at a time inside {@link group}. */
  readonly beginMany?: (infos: readonly BeginInfo[], opts: RecordOptions) => Array<Recorded | UsageError>;
  batchOutcomes(batchId: string, endpoint: string): BatchOutcome[] {
    return this.store.batchOutcomes(batchId, endpoint);
  }
  batchRows(batchId: string): LedgerEntry[] {
    return this.store.batchRows(batchId);
  }
  listUnknown(opts: { since?: string; kind?: PaymentKind } = {}): LedgerEntry[] {
    return this.store.listUnknown(opts);
  }
  /** @throws UsageError (exit 2) when there is no such entry or its outcome is known */
  resolve(id: number, outcome: Exclude<Outcome, 'unknown'>, opts: { by: ResolvedBy; note?: string } & EndDetails): LedgerEntry {
    return now_(resolveRule(this.store, id, outcome, opts));
  }
  query(q: LedgerQuery): LedgerEntry[] {
    return [...this.store.iterate(q)];
  }
  iterate(q: LedgerQuery): Iterable<LedgerEntry> {
    return this.store.iterate(q);
  }
  noteStatus(id: number, status: string): void {
    this.store.noteStatus(id, clean(status, 20));
  }
  meta(key: string): string | undefined {
    return this.store.meta(key);
  }
  setMeta(key: string, value: string): void {
    this.store.setMeta(key, value);
  }
}
