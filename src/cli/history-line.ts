/**
 * The direct route's reading of a command line (docs/architecture.md "The direct route of
 * `history`"): `paycli history` with the flags its common forms use is recognised here, without
 * commander, and run by src/cli/history-direct.ts; every other line (help, `history resolve`, an
 * unknown or repeated flag, a value commander would refuse, `--jq`, `--template`, `--json FIELDS`,
 * a value that was not valid UTF-8, completion) returns undefined and goes through the whole
 * command tree (src/cli/program.ts), so that its output, errors and exit code are commander's.
 * No imports: src/cli/boot.ts asks it on every start. test/unit/history-line.test.ts checks that
 * what it gives is what commander gives for the same line.
 */

/** The value flags the route takes, by their option's attribute name; the root's (`--profile`, `--lang`) among them. */
const VALUE_FLAGS: Readonly<Record<string, string>> = {
  '--since': 'since',
  '--until': 'until',
  '--kind': 'kind',
  '--outcome': 'outcome',
  '--order-id': 'orderId',
  '--by': 'by',
  '--limit': 'limit',
  '--format': 'format',
  '--csv-dialect': 'csvDialect',
  '--profile': 'profile',
  '--lang': 'lang',
};

/** The root's flags that may stand before the word `history` (commander reads the root's flags anywhere). */
const ROOT_FLAGS = new Set(['--profile', '--lang', '--json', '--verbose', '--no-color', '--no-input']);

/** The switches the route takes: attribute name and value, as commander sets them. */
const SWITCHES: Readonly<Record<string, readonly [string, boolean]>> = {
  '--json': ['json', true],
  '--verbose': ['verbose', true],
  '--no-color': ['color', false],
  '--no-input': ['input', false],
};

/** The values commander accepts for the flags with listed choices (src/cli/commands/history.ts). */
const CHOICES: Readonly<Record<string, readonly string[]>> = {
  kind: ['cashin', 'cashout'],
  format: ['table', 'json', 'csv', 'ofx'],
  csvDialect: ['br', 'intl'],
};

/** `--lang`'s values as src/core/i18n/index.ts `parseLanguage` reads them (repeated here: that module loads the English catalog). */
function language(value: string): 'pt-BR' | 'en' | undefined {
  const v = value.trim().toLowerCase();
  if (/^pt([-_].*)?$/.test(v)) return 'pt-BR';
  if (/^en([-_].*)?$/.test(v)) return 'en';
  return undefined;
}

/**
 * The options of a `paycli history` line, as src/cli/action.ts `execute` builds them from
 * commander's (the flags' values, the defaults `limit: '20'` and `color: true`, `input` and
 * `noInput`), or undefined when the route does not take the line.
 * @param args the arguments after the program, e.g. `['history', '--limit', '20']`
 */
export function historyLine(args: readonly string[]): Record<string, unknown> | undefined {
  const opts: Record<string, unknown> = { color: true, limit: '20' };
  const seen = new Set<string>();
  let command = false;
  if (args.some((a) => a.includes('\uFFFD'))) return undefined; // src/cli/action.ts refuses it, naming the flag
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (!arg.startsWith('--')) {
      if (arg !== 'history' || command) return undefined;
      command = true;
      continue;
    }
    const eq = arg.indexOf('=');
    const flag = eq < 0 ? arg : arg.slice(0, eq);
    if (seen.has(flag) || (!command && !ROOT_FLAGS.has(flag))) return undefined;
    seen.add(flag);
    const name = VALUE_FLAGS[flag];
    if (name === undefined) {
      const sw = SWITCHES[flag];
      // `--json` takes the next word when it is a field list (src/cli/output/fields.ts): left to commander
      if (!sw || eq >= 0 || (flag === '--json' && args[i + 1] !== undefined && !args[i + 1]!.startsWith('--') && args[i + 1] !== 'history')) return undefined;
      opts[sw[0]] = sw[1];
      continue;
    }
    const value = eq < 0 ? args[++i] : arg.slice(eq + 1);
    if (value === undefined || (eq < 0 && value.startsWith('-'))) return undefined;
    if (CHOICES[name] && !CHOICES[name].includes(value)) return undefined;
    if (name === 'lang') {
      const lang = language(value);
      if (!lang) return undefined;
      opts.lang = lang;
    } else opts[name] = value;
  }
  if (!command) return undefined;
  const noInput = opts.input === false;
  delete opts.input;
  return { ...opts, input: undefined, noInput };
}
