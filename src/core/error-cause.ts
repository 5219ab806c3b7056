/**
 * The one walker of an error's `cause` chain. Node and undici wrap the error that says what
 * happened (`ECONNREFUSED`, `UND_ERR_CONNECT_TIMEOUT`…) in others (`fetch failed`, `UND_ERR_SOCKET`);
 * classifying a failure needs the innermost meaningful code.
 */

/** How many `cause` links are followed at most (a cycle must not hang). */
const MAX_DEPTH = 8;

/** Codes that only say "the socket failed" and hide a better one further down the chain. */
const WRAPPER_CODES = new Set(['UND_ERR_SOCKET']);

/** The errors of a chain, outermost first: `err`, `err.cause`, `err.cause.cause`… */
export function causeChain(err: unknown): unknown[] {
  const out: unknown[] = [];
  let e: unknown = err;
  while (e && typeof e === 'object' && out.length < MAX_DEPTH && !out.includes(e)) {
    out.push(e);
    e = (e as { cause?: unknown }).cause;
  }
  return out;
}

/**
 * The first string `code` along the cause chain (e.g. `ECONNREFUSED`) that is not a mere wrapper
 * (`UND_ERR_SOCKET`); the wrapper's code when there is no other; `undefined` when none has a code.
 */
export function errorCodeOf(err: unknown): string | undefined {
  let wrapper: string | undefined;
  for (const e of causeChain(err)) {
    const code = (e as { code?: unknown }).code;
    if (typeof code !== 'string') continue;
    if (!WRAPPER_CODES.has(code)) return code;
    wrapper ??= code;
  }
  return wrapper;
}
