/**
 * Where the standalone sandbox listens unless told otherwise (docs/sandbox-and-postbacks.md). No
 * imports: the command definitions and the control subcommands both read it.
 */

/** Default port of the standalone sandbox. */
export const SANDBOX_DEFAULT_PORT = 4010;

/** The standalone sandbox's usual address: where the control subcommands go when nothing names another. */
export const SANDBOX_DEFAULT_URL = `http://127.0.0.1:${SANDBOX_DEFAULT_PORT}`;
