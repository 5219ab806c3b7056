/**
 * The group recorder of a batch run (docs/batch-runs.md, "Send"): what the run writes to the ledger,
 * a group at a time, through the ledger contract (src/ledger/contract.ts).
 * - A wave of rows is recorded just before it can leave, in one transaction with the outcomes held
 *   back since the last write (`recordMany`): one disk sync (one round trip on the team ledger) for
 *   many rows, and never more than 2 x concurrency rows recorded without an outcome.
 * - Outcomes are held back and written with the next wave, or on their own every 250 ms or 256 rows
 *   (`endMany`). One lost to a crash leaves its row unknown in the ledger, which the next run of
 *   the file settles by asking the gateway.
 * - Each recorded row may start until its start-by ({@link START_WITHIN_MS} after it was recorded);
 *   a row about to start later (`--rate`, a 429 pause) first moves on the deadlines of the rows
 *   still waiting, so a lookup after a crash never takes a row that may still leave for not sent.
 */
import { t } from '../core/i18n/index.js';
import type { UsageError } from '../core/errors.js';
import type { EndRecord } from '../ledger/contract.js';
import type { Outcome } from '../ledger/rules.js';
import type { EndDetails } from '../ledger/schema.js';
import type { ValidRow } from './check.js';
import type { BatchLedger } from './ledger.js';
import { recordRows, START_WITHIN_MS, type RowRun } from './row.js';

/** Outcomes held back before they are written on their own. */
const ENDS_AT_ONCE = 256;
/** The longest an outcome is held back, in milliseconds. */
const ENDS_WITHIN_MS = 250;

/** What the recorder tells the run: outcomes reached the ledger (results may follow), or could not. */
export interface RecorderReport {
  durable(): void;
  warn(text: string): void;
}

/** A ledger error's text without the "nothing was sent" that the ledger adds to errors before a send. */
export function withoutNothingSent(message: string): string {
  const ending = `; ${t('common.nothingSent')}`;
  return message.endsWith(ending) ? message.slice(0, -ending.length) : message;
}

/**
 * The warning when the outcomes of rows already sent could not be recorded: they were sent; the
 * ledger keeps them unknown, which blocks sending them again until the gateway is asked.
 */
function outcomesNotRecorded(err: unknown, which: string): string {
  return t('batchRun.notRecorded', which, withoutNothingSent((err as Error).message));
}

/** See the file's comment. */
export class GroupRecorder {
  private ends: EndRecord[] = [];
  private timer: NodeJS.Timeout | undefined;
  /** The write under way (a wave or outcomes), if any: writes go one after the other. */
  private writing: Promise<unknown> = Promise.resolve();
  /** Rows recorded and not started yet, and the latest moment each may start without its deadline being moved on. */
  private readonly startBy = new Map<number, number>();

  constructor(
    private readonly ledger: BatchLedger,
    private readonly report: RecorderReport,
    /** The run's request timeout, in milliseconds (a deadline moved on covers it). */
    private readonly timeoutMs: number,
  ) {}

  /** Runs `write` after the writes under way. */
  private serial<T>(write: () => Promise<T>): Promise<T> {
    const p = this.writing.then(write, write);
    this.writing = p.catch(() => undefined);
    return p;
  }

  /**
   * Records `rows` (a wave), with the outcomes held back, in one transaction.
   * @returns each row's entry number, or the refusal (`duplicate_cashout` / `duplicate_order`) that is its answer, by row number
   * @throws the ledger's errors: then none of the wave is recorded (the outcomes written with it are warned about)
   */
  async recordWave(run: RowRun, rows: readonly ValidRow[]): Promise<Map<number, number | UsageError>> {
    const ids = new Map<number, number | UsageError>();
    if (!rows.length) return ids;
    return this.serial(async () => {
      const ends = this.takeEnds();
      const from = Date.now(); // the ledger's clock reads this or later: a safe start-by
      let begun: Array<{ id: number } | UsageError>;
      try {
        begun = await recordRows(run, rows, ends);
      } catch (err) {
        if (ends.length) this.report.warn(outcomesNotRecorded(err, t('batch.rows', ends.length)));
        throw err;
      }
      rows.forEach((row, i) => {
        const b = begun[i]!;
        if (b instanceof Error) ids.set(row.row, b);
        else {
          ids.set(row.row, b.id);
          this.recorded(b.id, from);
        }
      });
      this.report.durable();
      return ids;
    });
  }

  /** Row `id` was recorded at `fromMs`: it may start until `fromMs` + {@link START_WITHIN_MS}. */
  recorded(id: number | string, fromMs: number): void {
    this.startBy.set(Number(id), fromMs + START_WITHIN_MS);
  }

  /** Row `id` has left (or will not): it no longer counts for start-by. */
  started(id: number | string): void {
    this.startBy.delete(Number(id));
  }

  /**
   * Before a recorded row's request starts: when it is past its start-by, the deadlines of every
   * row still waiting are moved on in the ledger first (one transaction).
   * @throws the ledger's errors (the row is then not sent)
   */
  async ensureStartable(id: number | string): Promise<void> {
    this.ledger.usable(); // a team ledger whose connection was lost starts no more rows
    const by = this.startBy.get(Number(id));
    const now = Date.now();
    if (by === undefined || now < by - 1000) return;
    const late = [...this.startBy].filter(([, b]) => b < now + START_WITHIN_MS / 2).map(([i]) => i);
    await this.ledger.extendDeadlines(late, now + START_WITHIN_MS + this.timeoutMs);
    for (const i of late) this.startBy.set(i, now + START_WITHIN_MS);
  }

  /** Holds a row's outcome back until the next write (never throws: a failed write only warns). */
  endLater(id: number, outcome: Outcome, details: EndDetails): void {
    this.ends.push([id, outcome, details]);
    if (this.ends.length >= ENDS_AT_ONCE) void this.flush(t('batchRun.theseRows'));
    else this.timer ??= setTimeout(() => void this.flush(t('batchRun.theseRows')), ENDS_WITHIN_MS);
  }

  /** The outcomes held back, taken for a write. */
  private takeEnds(): EndRecord[] {
    clearTimeout(this.timer);
    this.timer = undefined;
    const ends = this.ends;
    this.ends = [];
    return ends;
  }

  /** Writes the outcomes held back on their own; a failure warns naming `which` rows. */
  private flush(which: string): Promise<void> {
    return this.serial(async () => {
      const ends = this.takeEnds();
      try {
        if (ends.length) await this.ledger.endMany(ends);
        this.report.durable();
      } catch (err) {
        this.report.warn(outcomesNotRecorded(err, which));
      }
    });
  }

  /** The end of the run: the last outcomes written (a failure warns naming `which` rows). */
  async close(which: string): Promise<void> {
    await this.flush(which);
    clearTimeout(this.timer);
  }
}
