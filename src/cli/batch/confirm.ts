/**
 * Step 2 of a batch run (docs/batch-runs.md): the rows' problems (exit 2, nothing sent), the summary
 * of what the check found (src/batch/check.ts `scanFile`) and the one confirmation.
 */
import { ExitCode, UsageError } from '../../core/errors.js';
import { endpointHost } from '../../gateway/endpoint.js';
import { formatReais } from '../../pix/money.js';
import { logger, runStreams } from '../../core/logger.js';
import { redact } from '../../core/sanitize.js';
import type { Settings } from '../../config/settings.js';
import { canPrompt } from '../../core/terminal.js';
import type { Operation, Scan } from '../../batch/check.js';
import type { BatchSource } from '../../batch/read.js';
import type { RowProblem } from '../../batch/rows.js';
import type { BatchOptions } from './run.js';
import { t } from '../../core/i18n/index.js';

/** Exit 2 with every bad row listed (text, or one JSON document with `--json`). */
export function reportProblems(source: BatchSource, problems: RowProblem[], json: boolean): void {
  const rows = new Set(problems.map((p) => p.row)).size;
  const message = t('batchRow.problems', source.name, problems.length, rows);
  if (json) {
    runStreams().stderr.write(`${redact(JSON.stringify({ error: { code: 'validation', message, problems } }))}\n`);
  } else {
    const lines = problems.map((p) => `  ${t('batchRow.where', p.line, p.row)}${p.column ? `, ${p.column}` : ''}: ${p.message}`);
    logger.error(`${message}:\n${lines.join('\n')}`);
  }
  process.exitCode = ExitCode.USAGE;
}

/** The summary shown before sending (stderr), and asked about. */
export function summaryText(op: Operation, source: BatchSource, sha256: string, scan: Scan, settings: Settings): string {
  const gateway = endpointHost(settings.endpoint, t('batch.sandboxGateway'));
  const lines = [
    t('batch.summary.file', source.name, t('batch.rows', scan.rows), sha256.slice(0, 16)),
    t('batch.summary.toSend', t('batch.count', scan.toSend.count, op.kind), formatReais(scan.toSend.cents)),
  ];
  if (scan.toSend.count) lines.push(t('batch.summary.largest', formatReais(scan.toSend.largest), scan.toSend.largestRow));
  if (scan.alreadyOk) lines.push(t('batch.summary.alreadyOk', t('batch.rows', scan.alreadyOk)));
  if (scan.alreadyRefused) lines.push(t('batch.summary.refused', t('batch.rows', scan.alreadyRefused)));
  if (scan.unknown) lines.push(t('batch.summary.unknown', t('batch.rows', scan.unknown)));
  lines.push(t('batch.summary.profile', settings.profile), t('batch.summary.gateway', gateway));
  return lines.join('\n');
}

/** Asks once (default No). @throws UsageError when it cannot ask and `--yes` is missing */
export async function confirm(op: Operation, summary: string, count: number, opts: BatchOptions): Promise<void> {
  if (opts.yes) return;
  if (!canPrompt(opts)) {
    throw new UsageError(t('batch.needsYes', t('batch.count', count, op.kind)), { field: '--yes', hint: t('batch.needsYesHint') }, 'confirmation_required');
  }
  const [{ confirm: ask }, { promptContext, yesNoTheme }] = await Promise.all([import('@inquirer/prompts'), import('../../payment/prompts.js')]);
  if (!(await ask({ message: t('batch.confirm', t('batch.count', count, op.kind)), default: false, theme: yesNoTheme() }, promptContext()))) {
    throw new UsageError(t('batch.notConfirmed'), {}, 'confirmation_required');
  }
}
