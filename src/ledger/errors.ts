/** The ledger's own errors (docs/ledger-and-safety.md): both exit 2, nothing sent. */
import { ExitCode, PaycliError, type ErrorDetails } from '../core/errors.js';

/** How long a paycli waits for another one's write lock before giving up with `ledger_busy` (ms). */
export const BUSY_TIMEOUT_MS = 10_000;

/** The ledger cannot be used (exit 2, `journal_unavailable`): nothing is sent. */
export class LedgerUnavailableError extends PaycliError {
  constructor(message: string, details: ErrorDetails = {}) {
    super('journal_unavailable', ExitCode.USAGE, message, details);
  }
}

/** Another paycli held the ledger's write lock for longer than {@link BUSY_TIMEOUT_MS} (exit 2, `ledger_busy`). */
export class LedgerBusyError extends PaycliError {
  constructor(message: string, details: ErrorDetails = {}) {
    super('ledger_busy', ExitCode.USAGE, message, details);
  }
}
