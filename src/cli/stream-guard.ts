/**
 * What a paycli process does when stdout or stderr fails (src/cli/program.ts `main` and the direct
 * route of src/cli/direct.ts both install it). `paycli --help | head -1`: the reader went
 * away; stop quietly, as git and gh do. But a result about something the gateway created that
 * cannot be written out (a full disk, a closed pipe) ends with exit 6, so a script never takes it
 * for "nothing happened" (docs/output-for-scripts.md "Exit codes").
 */
import { ExitCode } from '../core/errors.js';
import { t } from '../core/i18n/index.js';
import { createdInThisRun } from '../core/result-state.js';
import { currentBase, inProcess } from './base-context.js';
import { jsonRequested } from './output/fields.js';

/** Installs the handlers on the process's stdout and stderr (not in a test's process). @param argv the command line, for `--json` */
export function guardStreams(argv: readonly string[]): void {
  if (inProcess()) return;
  const base = currentBase();
  for (const stream of [base.stdout, base.stderr]) {
    stream.on('error', (err: NodeJS.ErrnoException) => {
      const created = stream === base.stdout ? createdInThisRun() : undefined;
      if (created) {
        const message = `${t('error.needsAttention')}: ${t('error.stdoutLost', created, err.code ?? err.message)}`;
        base.stderr.write(jsonRequested(argv) ? `${JSON.stringify({ error: { code: 'needs_attention', message, problems: [message] } })}\n` : `${t('log.error')} ${message}\n`);
        process.exit(ExitCode.NEEDS_ATTENTION);
      }
      if (err.code === 'EPIPE') process.exit(process.exitCode ?? 0);
      base.stderr.write(`${t('log.error')} ${t('error.stdoutFailed', err.code ?? err.message)}\n`);
      process.exit(ExitCode.USAGE);
    });
  }
}
