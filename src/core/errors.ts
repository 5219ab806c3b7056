/**
 * Typed errors and the exit codes they map to. Every failure paycli reports is one of these;
 * `src/cli/action.ts` turns them into a message on stderr (or a JSON document with `--json`) and
 * the process exit code. The table is documented in README.md, docs/output-for-scripts.md and `paycli --help`.
 */

import { en } from './i18n/en.js';
import { t } from './i18n/index.js';

/** Exit codes, as documented in README "Exit codes", docs/output-for-scripts.md "Exit codes" and `paycli --help`. */
export const ExitCode = {
  /** The command did what was asked. */
  OK: 0,
  /** The gateway refused the request (4xx other than 401/403); its `message` is shown verbatim. */
  REFUSED: 1,
  /** Usage or validation error; nothing was sent. */
  USAGE: 2,
  /** Authentication failed (401/403) or no credential is configured. */
  AUTH: 3,
  /** Network failure or timeout; the outcome is unknown if the request may have been sent. */
  NETWORK: 4,
  /** The gateway failed or answered outside the interface (5xx, not JSON, wrong shape). */
  GATEWAY: 5,
  /**
   * The gateway created the transaction (the result is on stdout and in the ledger), but something
   * needs a person: the answer is wrong about money, the BR Code is unusable, or the result could
   * not be written out. stderr lists every problem.
   */
  NEEDS_ATTENTION: 6,
  /** A bug in paycli itself (sysexits' EX_SOFTWARE); never used for a gateway failure. */
  INTERNAL: 70,
  /** Interrupted by Ctrl-C (SIGINT) or SIGTERM. */
  INTERRUPTED: 130,
} as const;
export type ExitCodeValue = (typeof ExitCode)[keyof typeof ExitCode];

/**
 * One line per exit code, for `paycli --help` ("Exit codes:", built from this table in src/cli/program.ts)
 * and checked against README "Exit codes" and docs/output-for-scripts.md "Exit codes" by test/unit/exit-codes.test.ts: a code added to
 * {@link ExitCode} without a line here does not compile. The texts are the English catalog's
 * (src/core/i18n/en.ts `exit.<code>`); `--help` shows them in the language of the run.
 */
export const EXIT_CODE_SUMMARY: Readonly<Record<ExitCodeValue, string>> = {
  0: en['exit.0'],
  1: en['exit.1'],
  2: en['exit.2'],
  3: en['exit.3'],
  4: en['exit.4'],
  5: en['exit.5'],
  6: en['exit.6'],
  70: en['exit.70'],
  130: en['exit.130'],
};

/** Machine-readable error codes, the `error.code` of the `--json` error document. */
export type ErrorCode =
  | 'usage'
  | 'validation'
  | 'missing_fields'
  | 'confirmation_required'
  | 'duplicate_cashout'
  | 'duplicate_order'
  | 'batch_running'
  | 'clock_invalid'
  | 'journal_unavailable'
  | 'gateway_refused'
  | 'no_active_acquirer'
  | 'unauthorized'
  | 'no_credential'
  | 'network'
  | 'timeout'
  | 'gateway_error'
  | 'bad_response'
  | 'interrupted'
  | 'needs_attention'
  | 'internal_error'
  | 'unknown_profile'
  | 'ledger_busy'
  | 'not_found'
  | 'unresolved'
  | 'invalid_brcode'
  | 'no_receipt'
  | 'config_untrusted'
  | 'proxy_auth_required';

/** Extra facts an error may carry; all are optional and go into the `--json` error document. */
export interface ErrorDetails {
  /** HTTP status the gateway answered with, when there was an answer. */
  status?: number;
  /** The flag (or interface field) at fault, e.g. `--payer-document`. */
  field?: string;
  /** A line telling the user what to do next; printed after the message, never in JSON `message`. */
  hint?: string;
  /** Whether the request may have reached the gateway (true: outcome unknown). */
  maybeSent?: boolean;
  /** The underlying error, shown only with `--verbose`. */
  cause?: unknown;
  /** `Retry-After` of a 429 answer, as received (seconds or an HTTP date); batch runs wait for it. */
  retryAfter?: string;
}

/**
 * Base class of every error paycli reports on purpose. `exitCode` is one of {@link ExitCode};
 * `code` is the stable machine-readable name used in `--json` output.
 */
export class PaycliError extends Error {
  readonly code: ErrorCode;
  readonly exitCode: ExitCodeValue;
  readonly details: ErrorDetails;
  constructor(code: ErrorCode, exitCode: ExitCodeValue, message: string, details: ErrorDetails = {}) {
    super(message, details.cause === undefined ? undefined : { cause: details.cause });
    this.name = 'PaycliError';
    this.code = code;
    this.exitCode = exitCode;
    this.details = details;
  }
}

/**
 * The kinds of error paycli reports on purpose that differ only by their exit code and default
 * `code`, one row each (the rest of the file adds the two that carry more: {@link InterruptedError},
 * {@link NeedsAttentionError}). Each row becomes a class of that name below, so `instanceof` tells
 * them apart; each takes `(message, details?, code?)`.
 */
const ERROR_KINDS = {
  /** Bad flags, bad input file or a value that fails validation: exit 2, nothing was sent. */
  UsageError: [ExitCode.USAGE, 'usage'],
  /** The gateway answered 4xx (not 401/403) with an error body: exit 1. */
  GatewayRefusedError: [ExitCode.REFUSED, 'gateway_refused'],
  /** 401/403 from the gateway, or no API key configured for a gateway: exit 3. */
  AuthError: [ExitCode.AUTH, 'unauthorized'],
  /** Connection failure, reset or timeout: exit 4. `details.maybeSent` says if the outcome is unknown. */
  NetworkError: [ExitCode.NETWORK, 'network'],
  /** 5xx, a body that is not JSON, too large, or of the wrong shape: exit 5. */
  GatewayError: [ExitCode.GATEWAY, 'gateway_error'],
  /** A bug in paycli: exit 70, never reported as a gateway failure. */
  InternalError: [ExitCode.INTERNAL, 'internal_error'],
} as const satisfies Record<string, readonly [ExitCodeValue, ErrorCode]>;

/** The class of one row of {@link ERROR_KINDS}. */
function errorKind<N extends keyof typeof ERROR_KINDS>(name: N) {
  const [exitCode, defaultCode] = ERROR_KINDS[name];
  const kind = class extends PaycliError {
    constructor(message: string, details: ErrorDetails = {}, code: ErrorCode = defaultCode) {
      super(code, exitCode, message, details);
    }
  };
  Object.defineProperty(kind, 'name', { value: name });
  return kind;
}

/** Bad flags, bad input file or a value that fails validation: exit 2, nothing was sent. */
export const UsageError = errorKind('UsageError');
export type UsageError = InstanceType<typeof UsageError>;
/** The gateway answered 4xx (not 401/403) with an error body: exit 1. */
export const GatewayRefusedError = errorKind('GatewayRefusedError');
export type GatewayRefusedError = InstanceType<typeof GatewayRefusedError>;
/** 401/403 from the gateway, or no API key configured for a gateway: exit 3. */
export const AuthError = errorKind('AuthError');
export type AuthError = InstanceType<typeof AuthError>;
/** Connection failure, reset or timeout: exit 4. `details.maybeSent` says if the outcome is unknown. */
export const NetworkError = errorKind('NetworkError');
export type NetworkError = InstanceType<typeof NetworkError>;
/** 5xx, a body that is not JSON, too large, or of the wrong shape: exit 5. */
export const GatewayError = errorKind('GatewayError');
export type GatewayError = InstanceType<typeof GatewayError>;
/** A bug in paycli: exit 70, never reported as a gateway failure. */
export const InternalError = errorKind('InternalError');
export type InternalError = InstanceType<typeof InternalError>;

/** Ctrl-C: exit 130. */
export class InterruptedError extends PaycliError {
  constructor(message = t('error.interrupted'), details: ErrorDetails = {}) {
    super('interrupted', ExitCode.INTERRUPTED, message, details);
  }
}

/**
 * The gateway created the transaction, but a person must look at it: exit 6. Thrown only after the
 * result was printed on stdout and recorded; `problems` lists every reason (one line each).
 */
export class NeedsAttentionError extends PaycliError {
  readonly problems: readonly string[];
  constructor(problems: readonly string[], details: ErrorDetails = {}) {
    super('needs_attention', ExitCode.NEEDS_ATTENTION, `${t('error.needsAttention')}: ${problems.join('; ')}`, details);
    this.problems = problems;
  }
}
