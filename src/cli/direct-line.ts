/**
 * The direct route's reader of a command line (docs/architecture.md "The direct route"): a
 * command's common lines, described by a {@link LineSpec} (`history`: src/cli/history-line.ts; a
 * batch run: src/cli/batch-line.ts), are read here without commander and run by src/cli/direct.ts;
 * every other line (help, an unknown or repeated flag, a value commander would refuse, a flag
 * without its value, `--json FIELDS`, a value that was not valid UTF-8, another word) gives
 * undefined and goes through the whole command tree (src/cli/program.ts), so that its output,
 * errors and exit code are commander's. src/cli/boot.ts asks it on every start (through src/cli/line.ts): it imports only the
 * language rule, a module without imports of its own.
 */
import { parseLanguage } from '../core/i18n/language.js';

/** What the route takes of one command's lines. */
export interface LineSpec {
  /** The command's word (`history`, `cashout`). */
  readonly word: string;
  /** The value flags taken, by their option's attribute name; the root's (`--profile`, `--lang`) among them. */
  readonly values: Readonly<Record<string, string>>;
  /** The switches taken: attribute name and value, as commander sets them; the root's among them. */
  readonly switches: Readonly<Record<string, readonly [string, boolean]>>;
  /** Short flags taken, each as the long flag it stands for (`-y`: `--yes`). */
  readonly short?: Readonly<Record<string, string>>;
  /** The root's flags, which may also stand before the command's word (commander reads them anywhere). */
  readonly root: ReadonlySet<string>;
  /** The values commander accepts for the flags with listed choices, by attribute name. */
  readonly choices: Readonly<Record<string, readonly string[]>>;
  /** The options commander sets when no flag gives them (defaults), `color: true` for `--no-color` among them. */
  readonly defaults: Readonly<Record<string, unknown>>;
  /** An attribute the line must set for the route to take it (`batch`: a batch run, not a single payment). */
  readonly required?: string;
}

/**
 * The options of a line of `spec`'s command, as src/cli/action.ts `execute` builds them from
 * commander's (the flags' values, the spec's defaults, `input` (the command's own `--input`, never
 * taken here) and `noInput`), or undefined when the route does not take the line.
 * @param args the arguments after the program, e.g. `['history', '--limit', '20']`
 */
export function readLine(spec: LineSpec, args: readonly string[]): Record<string, unknown> | undefined {
  const opts: Record<string, unknown> = { ...spec.defaults };
  const seen = new Set<string>();
  let command = false;
  if (args.some((a) => a.includes('\uFFFD'))) return undefined; // src/cli/action.ts refuses it, naming the flag
  for (let i = 0; i < args.length; i++) {
    const given = args[i]!;
    const arg = spec.short?.[given] ?? given;
    if (!arg.startsWith('--')) {
      if (arg !== spec.word || command) return undefined;
      command = true;
      continue;
    }
    const eq = arg.indexOf('=');
    const flag = eq < 0 ? arg : arg.slice(0, eq);
    if (seen.has(flag) || (!command && !spec.root.has(flag))) return undefined;
    seen.add(flag);
    const name = spec.values[flag];
    if (name === undefined) {
      const sw = spec.switches[flag];
      const next = args[i + 1];
      // `--json` takes the next word when it is a field list (src/cli/output/fields.ts): left to commander
      if (!sw || eq >= 0 || (flag === '--json' && next !== undefined && !next.startsWith('-') && next !== spec.word)) return undefined;
      opts[sw[0]] = sw[1];
      continue;
    }
    const value = eq < 0 ? args[++i] : arg.slice(eq + 1);
    if (value === undefined || (eq < 0 && value.startsWith('-'))) return undefined;
    if (spec.choices[name] && !spec.choices[name].includes(value)) return undefined;
    if (name === 'lang') {
      const lang = parseLanguage(value);
      if (!lang) return undefined;
      opts.lang = lang;
    } else opts[name] = value;
  }
  if (!command || (spec.required !== undefined && opts[spec.required] === undefined)) return undefined;
  const noInput = opts.input === false;
  delete opts.input;
  return { ...opts, input: undefined, noInput };
}
