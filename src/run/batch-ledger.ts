/**
 * What a batch run needs from the payment ledger (src/ledger.ts), in one place: what happened
 * before to a row's `orderId`, a record before each row is sent (with the batch id and row number),
 * its outcome after, and the settling of an unknown outcome.
 */
import { openLedger, type BeginInfo } from '../ledger.js';
import { outcomeOfError, type Outcome } from '../ledger-rules.js';

export { outcomeOfError, type Outcome };

/** The latest ledger entry of a row's `orderId`. */
export interface PreviousRow {
  id: string | number;
  outcome: Outcome;
  /** False when no outcome was recorded (paycli killed after recording it). */
  completed: boolean;
  transactionId?: number | string;
  status?: string;
  message?: string;
}

/** What is recorded before a row is sent: the ledger's {@link BeginInfo}, with the order reference and batch position required. */
export type RowBegin = BeginInfo & Required<Pick<BeginInfo, 'orderId' | 'batchId' | 'batchRow'>>;

/** The ledger as a batch run uses it. */
export interface BatchLedger {
  /** The latest entry with this `orderId`, if any. */
  previous(orderId: string): PreviousRow | undefined;
  /**
   * Records a row before it is sent (a cash-out is checked against identical earlier ones).
   * @throws UsageError `duplicate_cashout`; the ledger's errors when it cannot write
   */
  begin(info: RowBegin, opts: { windowMin: number; allowDuplicate: boolean }): string | number;
  end(id: string | number, outcome: Outcome, extra?: { transactionId?: number; status?: string; httpStatus?: number; message?: string }): void;
  /** Runs `fn` in one transaction: the begins and ends inside it reach the disk together. */
  group<T>(fn: () => T): T;
  /** Settles an unknown outcome (after asking the gateway). */
  resolve(id: string | number, outcome: 'ok' | 'not_sent' | 'refused', extra: { note: string; transactionId?: number; status?: string }): void;
  close(): void;
}

/**
 * Opens the ledger for a batch run.
 * @throws the ledger's errors (exit 2, nothing sent) when it cannot be opened
 */
export function openBatchLedger(): BatchLedger {
  const ledger = openLedger();
  return {
    previous(orderId) {
      const e = ledger.findByOrderId(orderId)[0];
      if (!e) return undefined;
      return { id: e.id, outcome: e.outcome, completed: e.completed, ...(e.transactionId !== undefined ? { transactionId: e.transactionId } : {}), ...(e.status !== undefined ? { status: e.status } : {}), ...(e.message !== undefined ? { message: e.message } : {}) };
    },
    group: (fn) => ledger.group(fn),
    begin: (info, opts) => ledger.begin(info, opts).id,
    end: (id, outcome, extra) => ledger.end(Number(id), outcome, extra),
    resolve: (id, outcome, extra) =>
      void ledger.resolve(Number(id), outcome, { by: 'gateway', note: extra.note, ...(extra.transactionId !== undefined ? { transactionId: extra.transactionId } : {}), ...(extra.status !== undefined ? { status: extra.status } : {}) }),
    close: () => ledger.close(),
  };
}
