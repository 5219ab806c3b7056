/**
 * Progress of a batch run, on stderr: a live bar (`cli-progress`) when stderr is a terminal; a
 * plain line every few seconds otherwise; JSON Lines `{"progress": {...}}` with `--json`.
 */
import { formatReais } from '../../pix/money.js';
import { t } from '../../core/i18n/index.js';
import { runStreams } from '../../core/logger.js';

/** Counters of a batch run. */
export interface BatchCounters {
  /** Rows in the file. */
  total: number;
  /** Rows finished (sent, skipped or left). */
  done: number;
  /** Rows of {@link done} this run sent no request for: done by an earlier run of the file (`already_ok`, `already_refused`, still needing attention). */
  skipped: number;
  ok: number;
  refused: number;
  unknown: number;
  /** Cents of the rows created in this run. */
  sentCents: number;
}

/** Seconds between two plain or JSON progress lines. */
export const PROGRESS_EVERY_MS = 3000;

/** A progress display: `update()` after each row, `stop()` at the end. */
export interface Progress {
  update(): void;
  stop(): void;
}

/**
 * Rows a second and seconds left, from the rows this run sent only: the rows an earlier run of the
 * file finished are skipped in no time, and counting them would promise a resumed run far too soon an end.
 * @param now epoch ms (the clock, for tests)
 */
export function eta(c: BatchCounters, startedAt: number, now = Date.now()): { rate: number; left: number } {
  const elapsed = (now - startedAt) / 1000;
  const rate = elapsed > 0 ? (c.done - c.skipped) / elapsed : 0;
  return { rate, left: rate > 0 ? Math.ceil((c.total - c.done) / rate) : 0 };
}

/** The plain progress line (also the bar's `skipped` text): rows done, outcomes, and the rows skipped when a run resumes a file. */
export function progressLine(c: BatchCounters, rate: number, left: number): string {
  const line = t('batch.progress', c.done, c.total, c.ok, c.refused, c.unknown, formatReais(c.sentCents), rate.toFixed(1), left);
  return c.skipped ? `${line}${t('batch.progressSkipped', c.skipped)}` : line;
}

/** Starts the progress display fitting the output. */
export async function startProgress(c: BatchCounters, mode: { json: boolean; tty: boolean }): Promise<Progress> {
  const startedAt = Date.now();
  if (mode.tty && !mode.json) {
    const { SingleBar, Presets } = await import('cli-progress');
    const bar = new SingleBar(
      {
        stream: runStreams().stderr as NodeJS.WriteStream,
        hideCursor: true,
        clearOnComplete: false,
        etaBuffer: 200,
        // cli-progress's own ETA counts every row; ours counts only the rows this run sent
        format: t('batch.bar').replace('{eta_formatted}', '{left}'),
        fps: 8,
      },
      Presets.shades_classic,
    );
    const payload = () => ({
      left: `${eta(c, startedAt).left} s`,
      ok: c.ok,
      refused: c.refused,
      unknown: c.unknown,
      reais: formatReais(c.sentCents),
      rate: eta(c, startedAt).rate.toFixed(1),
      skipped: c.skipped ? t('batch.progressSkipped', c.skipped) : '',
    });
    bar.start(c.total, c.done, payload());
    return { update: () => bar.update(c.done, payload()), stop: () => bar.stop() };
  }
  let last = Date.now();
  const emit = () => {
    const { rate, left } = eta(c, startedAt);
    if (mode.json) {
      runStreams().stderr.write(
        `${JSON.stringify({ progress: { done: c.done, total: c.total, ok: c.ok, refused: c.refused, unknown: c.unknown, sentCents: c.sentCents, skipped: c.skipped, perSecond: Math.round(rate * 10) / 10, secondsLeft: left } })}\n`,
      );
    } else {
      runStreams().stderr.write(`${progressLine(c, rate, left)}\n`);
    }
  };
  return {
    update() {
      if (Date.now() - last >= PROGRESS_EVERY_MS) {
        last = Date.now();
        emit();
      }
    },
    stop: emit,
  };
}
