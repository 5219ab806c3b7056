/**
 * The English catalog: every text a person reads, by key. It defines the keys: the Portuguese
 * catalog (./pt-BR.ts) is typed {@link Catalog}, so a key missing there (or one added here only)
 * fails the build (`npm run build` type-checks this folder first). A text with values is a
 * function of typed parameters. Flags, command names, JSON keys, error codes and exit codes are
 * never in a catalog: they are the scripting interface and do not change with the language
 * (docs/portugues.md).
 */
export const en = {
  // ── language itself ──
  'lang.invalid': (choices: string) => `use one of ${choices}`,
  'lang.flag': 'language of messages and help: pt-BR or en (default: config key lang, then LC_ALL/LC_MESSAGES/LANG)',
  // ── message prefixes (src/core/logger.ts) ──
  'log.error': 'error:',
  'log.warning': 'warning:',
  'log.hint': 'hint:',
  // ── help layout (src/cli/help.ts): commander's headings and notes ──
  'help.title.usage': 'Usage:',
  'help.title.options': 'Options:',
  'help.title.globalOptions': 'Global Options:',
  'help.title.commands': 'Commands:',
  'help.title.arguments': 'Arguments:',
  'help.title.examples': 'Examples:',
  'help.choices': 'choices:',
  'help.default': 'default:',
  'help.after.error': '(run with --help for usage)',
  'help.option.help': 'show help',
  'help.option.helpCommand': 'display help for command',
  // ── commander's own errors, as paycli shows them ──
  'cmdr.unknownOption': (flag: string) => `unknown option '${flag}'`,
  'cmdr.didYouMean': (name: string) => `(Did you mean ${name}?)`,
  'cmdr.argumentMissing': (flags: string) => `option '${flags}' argument missing`,
  'cmdr.invalidArgument': (flags: string, value: string) => `option '${flags}' argument '${value}' is invalid.`,
  'cmdr.missingArgument': (name: string) => `missing required argument '${name}'`,
  'cmdr.tooManyArguments': (where: string, expected: number, got: number) => `too many arguments${where}. Expected ${expected} argument${expected === 1 ? '' : 's'} but got ${got}.`,
  'cmdr.unknownCommand': (word: string, where: string) => `unknown command '${word}'${where}`,
  'cmdr.for': (path: string) => ` for '${path}'`,
  'cmdr.knownCommands': (where: string, names: string) => `(known commands${where}: ${names})`,
  // ── paycli --help (src/cli/program.ts) ──
  'root.description': 'PIX cash-ins (BR Code / QR code) and cash-outs (payouts to a PIX key) against a payment gateway.\nWith no gateway configured, commands run against a built-in sandbox where no money moves.',
  'root.version': 'print the version (with --verbose: also Node, the SQLite driver, and where the ledger, config and cache are)',
  'root.json': 'print the result as one JSON document on stdout (errors as JSON on stderr)',
  'root.profile': 'config profile to use (env PAYCLI_PROFILE; default "default")',
  'root.baseUrl': 'gateway base URL, or "sandbox" (env PAYCLI_BASE_URL)',
  'root.timeout': 'request timeout in milliseconds (default 30000)',
  'root.verbose': 'trace the request and response on stderr (credential redacted)',
  'root.noColor': 'no colour (also NO_COLOR=1)',
  'root.noInput': 'never prompt; fail on missing fields (also PAYCLI_NO_INPUT=1)',
  'root.allowInsecureHttp': 'allow a plain http:// base URL to a non-loopback host',
  'root.exitCodes': 'Exit codes:',
  'root.environment': 'Environment:',
  'root.example.cashoutComment': '# in a terminal: asks for the key, hidden',
  'root.environmentText': '  PAYCLI_PROFILE, PAYCLI_BASE_URL, PAYCLI_API_KEY override the profile; flags override both.\n  PAYCLI_NO_INPUT=1, NO_COLOR=1, HTTPS_PROXY/HTTP_PROXY/NO_PROXY, NODE_EXTRA_CA_CERTS.\n  PAYCLI_POSTBACK_SECRET signs (sandbox) and checks (listen) postbacks.\n  PAYCLI_CONFIG_DIR, PAYCLI_DATA_DIR, PAYCLI_CACHE_DIR move the config file, the data folder and the\n  code cache (NODE_DISABLE_COMPILE_CACHE=1 turns the cache off).\n  LC_ALL, LC_MESSAGES, LANG: a value starting with pt gives Portuguese (unless --lang or config key lang).',
  // ── exit codes (src/core/errors.ts EXIT_CODE_SUMMARY) ──
  'exit.0': 'success (a batch: every row ok, or already ok)',
  'exit.1': 'the gateway refused the request (4xx other than 401/403); its message is shown (a batch: some rows refused)',
  'exit.2': 'usage or validation error, nothing sent (also: cash-out not confirmed, duplicate cash-out, ledger unusable or busy; a batch file with bad rows)',
  'exit.3': 'authentication failed (401/403) or no API key configured',
  'exit.4': 'network failure or timeout (outcome unknown if the request may have been sent; a batch: some rows unknown)',
  'exit.5': 'the gateway failed or answered outside the interface (5xx, not JSON, wrong shape; a batch: some rows unknown)',
  'exit.6': 'created, but needs attention (wrong amounts or BR Code in the answer; result not written; a batch: some rows need a person)',
  'exit.70': 'internal error (a bug in paycli)',
  'exit.130': 'interrupted (Ctrl-C, or SIGTERM during a request; a batch: rows in flight recorded, run it again to resume)',
  // ── paycli help (src/cli/help.ts) ──
  'help.cmd.description': 'show the help of a command, e.g. paycli help config set; `paycli help examples` prints where the example files are',
  'help.cmd.argument': 'a command and its subcommands, or examples',
  'help.cmd.after': (files: string) => `paycli help examples prints the folder of the example files that ship with paycli (${files}),\nwhich the examples of every --help use; copy a file before changing it.`,
  'help.usage.options': 'options',
  'help.usage.command': 'command',
  'config.lang.invalid': (value: string) => `lang must be pt-BR or en, got "${value}"`,
} as const;

/** The keys of every catalog. */
export type Key = keyof typeof en;

/** A catalog: for every key of {@link en}, a text, or a function of the same parameters. */
export type Catalog = {
  readonly [K in Key]: (typeof en)[K] extends (...args: infer A) => string ? (...args: A) => string : string;
};
