/**
 * Interactive prompt mode (@inquirer/prompts), loaded only when paycli may prompt (stdin and
 * stdout are terminals, no `--no-input`/`PAYCLI_NO_INPUT=1`). Every answer is checked by the same
 * schema as the flag and re-asked in place, with the reason, when wrong.
 *
 * Prompts render on stderr when it is a terminal (stdout stays for the result), else on stdout.
 * Ctrl-C at any prompt makes @inquirer throw `ExitPromptError`, which src/cli/action.ts turns into
 * exit 130 "interrupted: nothing was sent".
 */
import { styleText } from 'node:util';
import type * as z from 'zod/mini';
import {
  convertField,
  deletePath,
  describeProblem,
  fieldOf,
  getPath,
  missingFields,
  parseSplit,
  problemsError,
  setPath,
  type FieldSpec,
  type ValueSources,
} from '../gateway/fields.js';
import { amountProblem, formatReais, parseReais } from '../pix/money.js';
import { problemsOf, type FieldProblem } from '../gateway/schemas.js';
import { PIX_KEY_TYPES, type PixKeyTypeValue } from '../pix/pix-key-types.js';
import { promptOutput } from '../core/terminal.js';
import { isPortuguese, t, type Key } from '../core/i18n/index.js';
import { en } from '../core/i18n/en.js';

type Inquirer = typeof import('@inquirer/prompts');
/** The second argument of every @inquirer prompt: streams, AbortSignal, clearPromptOnDone. */
type Context = NonNullable<Parameters<Inquirer['input']>[1]>;

/** Where prompts are drawn: stderr when it is a terminal, so that stdout carries only the result. */
export function promptContext(): Context {
  return { output: promptOutput() };
}

/** How many rounds of questions before giving up (a round asks every field still wrong). */
const MAX_ROUNDS = 10;

/** Prompt text of a field; the amount is asked in reais. */
function messageFor(f: FieldSpec, body: Record<string, unknown>, optional: boolean): string {
  if (f.kind === 'cents') return t('prompt.amount');
  if (f.path === 'pixKey') {
    const type = PIX_KEY_TYPES[body.pixKeyType as PixKeyTypeValue];
    if (type) return t('prompt.pixKey', t(`pixkey.noun.${type.name}`), type.example);
  }
  const label = labelOf(f);
  return optional ? t('prompt.optional', label) : t('prompt.example', label, f.example);
}

/** A field's label in the language of the run (catalog `field.<path>`; the English one as a fallback). */
function labelOf(f: FieldSpec): string {
  const key = `field.${f.path}`;
  return key in en ? t(key as Key) : f.label.replace(/\s*\(optional\)$/, '');
}

/** A field's label without "(optional)", to start a sentence ("Payer's name must not be empty"). */
const subject = (f: FieldSpec) => (f.kind === 'cents' ? t('prompt.amountSubject') : labelOf(f));

/**
 * The theme of a yes/no question in the language of the run: `(s/N)` and Sim/Não in Portuguese
 * (which also accepts y/yes, as @inquirer/confirm always does), `(y/N)` in English.
 */
export function yesNoTheme(): { keywords: { yes: string; no: string; error: (k: { yes: string; no: string }) => string } } {
  return { keywords: { yes: t('prompt.yes'), no: t('prompt.no'), error: ({ yes, no }) => t('prompt.yesNoError', yes, no) } };
}

/**
 * The theme of a select list in Portuguese: its keys line (`↑↓ navegar • ⏎ selecionar`) drawn as
 * @inquirer/select draws its English one (`theme.style.keysHelpTip`, `theme.i18n`).
 */
export function selectTheme(): { style: { keysHelpTip: (keys: [string, string][]) => string }; i18n: { disabledError: string } } {
  const actions: Record<string, string> = { navigate: t('prompt.selectNavigate'), select: t('prompt.selectSelect') };
  return {
    style: { keysHelpTip: (keys) => keys.map(([key, action]) => `${styleText('bold', key)} ${styleText('dim', actions[action] ?? action)}`).join(styleText('dim', ' • ')) },
    i18n: { disabledError: t('prompt.selectDisabled') },
  };
}

/**
 * Asks for every missing or invalid field until the body validates; returns the completed body.
 * Fields are asked in table order: required fields that are missing or wrong (a wrong one shows
 * its problem first and is prefilled for editing), optional fields not given by flags or
 * `--input` are offered (Enter skips). `pixKeyType` is a select list; the amount is asked in reais.
 * @throws UsageError when a problem cannot be fixed by prompting (e.g. a field of `--input` outside the table)
 * @throws ExitPromptError (from @inquirer) on Ctrl-C
 */
export async function promptForFields(
  fields: readonly FieldSpec[],
  schema: z.ZodMiniType,
  body: Record<string, unknown>,
  problems: FieldProblem[],
  sources?: ValueSources,
): Promise<Record<string, unknown>> {
  const inquirer = await import('@inquirer/prompts');
  const ctx = promptContext();
  const out = ctx.output!;
  const current = structuredClone(body);
  const given = new Set(fields.filter((f) => getPath(body, f.path) !== undefined).map((f) => f.path));
  const offered = new Set<string>();
  let probs = problems;

  for (let round = 0; round < MAX_ROUNDS; round++) {
    const wrong = new Map<string, FieldProblem | undefined>();
    for (const p of probs) {
      const missing = missingFields(fields, p);
      if (missing.length) for (const m of missing) wrong.set(m.path, undefined);
      else {
        const f = fieldOf(fields, p.path);
        if (!f) throw problemsError(fields, probs, sources);
        if (!wrong.get(f.path)) wrong.set(f.path, p);
      }
    }
    // A key that does not fit its type may be the type's fault: choose the type again too.
    // Its problem is shown before the type is asked.
    if (wrong.has('pixKey') && getPath(current, 'pixKeyType') !== undefined && !wrong.has('pixKeyType')) wrong.set('pixKeyType', wrong.get('pixKey'));

    const shown = new Set<FieldProblem>();
    for (const f of fields) {
      if (wrong.has(f.path)) {
        const problem = wrong.get(f.path);
        if (problem && !shown.has(problem)) out.write(`! ${describeProblem(fields, problem, round === 0 ? sources : undefined)}\n`);
        if (problem) shown.add(problem);
        await ask(inquirer, ctx, fields, schema, current, f, Boolean(problem));
      } else if (!f.required && f.prompt && !given.has(f.path) && !offered.has(f.path)) {
        offered.add(f.path);
        await ask(inquirer, ctx, fields, schema, current, f, false);
      }
    }
    const parsed = schema.safeParse(current);
    if (parsed.success) return current;
    probs = problemsOf(parsed.error);
  }
  throw problemsError(fields, probs);
}

/** Asks one field and stores the answer in `body`. */
async function ask(
  inquirer: Inquirer,
  ctx: Context,
  fields: readonly FieldSpec[],
  schema: z.ZodMiniType,
  body: Record<string, unknown>,
  f: FieldSpec,
  wasWrong: boolean,
): Promise<void> {
  const check = (raw: string): string | true => checkField(fields, schema, body, f, convertField(f, raw));
  switch (f.kind) {
    case 'pixKeyType': {
      const cur = body.pixKeyType as PixKeyTypeValue;
      const value = await inquirer.select(
        {
          message: labelOf(f),
          choices: pixKeyTypeChoices(),
          default: PIX_KEY_TYPES[cur] ? cur : undefined,
          ...(isPortuguese() ? { theme: selectTheme() } : {}),
        },
        ctx,
      );
      setPath(body, f.path, value);
      return;
    }
    case 'cents': {
      const answer = await inquirer.input(
        {
          message: messageFor(f, body, false),
          validate: (v) => {
            const problem = amountProblem(v);
            if (problem) return `${t('prompt.amountSubject')} ${problem}`;
            const r = checkField(fields, schema, body, f, parseReais(v));
            return r === true ? true : `${subject(f)} ${r}`;
          },
          transformer: (v, { isFinal }) => {
            const cents = parseReais(v);
            return isFinal && cents !== null ? t('prompt.centsShown', formatReais(cents), cents) : v;
          },
        },
        ctx,
      );
      setPath(body, f.path, parseReais(answer));
      return;
    }
    case 'splits': {
      if (wasWrong || getPath(body, f.path) !== undefined) {
        ctx.output!.write(`${t('prompt.splitsAgain')}\n`);
        delete body.splits;
      }
      const list: unknown[] = [];
      while (await inquirer.confirm({ message: list.length ? t('prompt.anotherSplit') : t('prompt.firstSplit'), default: false, theme: yesNoTheme() }, ctx)) {
        const answer = await inquirer.input(
          {
            message: t('prompt.split', f.example),
            validate: (v) => {
              const candidate = { ...body, splits: [...list, parseSplit(v)] };
              const issue = fieldIssues(fields, schema, candidate, f)[0];
              return issue ? describeProblem(fields, issue).replace(/^--split: /, '') : true;
            },
          },
          ctx,
        );
        list.push(parseSplit(answer));
        body.splits = [...list];
      }
      return;
    }
    default: {
      const optional = !f.required;
      const cur = getPath(body, f.path);
      const answer = await inquirer.input(
        {
          message: messageFor(f, body, optional),
          ...(wasWrong && typeof cur === 'string' ? { default: cur, prefill: 'editable' as const } : {}),
          validate: (v) => {
            if (optional && v.trim() === '') return true;
            const r = check(v);
            return r === true ? true : `${subject(f)} ${r}`;
          },
        },
        ctx,
      );
      if (optional && answer.trim() === '') deletePath(body, f.path);
      else setPath(body, f.path, convertField(f, answer));
    }
  }
}

/** The select list of `pixKeyType`, from the key-type table. */
const pixKeyTypeChoices = () => PIX_KEY_TYPES.map((k) => ({ value: k.value, name: `${k.name.padEnd(8)}${t(`pixkey.description.${k.name}`)}`, short: k.name }));

/**
 * The schema's problems for field `f` in `candidate`, with every other field that is missing or
 * wrong replaced by its valid example (optional ones removed), so that cross-field checks (the
 * PIX key against its type, splits against the value) run as they will on the whole body.
 */
function fieldIssues(fields: readonly FieldSpec[], schema: z.ZodMiniType, candidate: Record<string, unknown>, f: FieldSpec): FieldProblem[] {
  const trial = structuredClone(candidate);
  const parsed = schema.safeParse(trial);
  if (parsed.success) return [];
  const bad = new Set<string>();
  for (const p of problemsOf(parsed.error)) {
    for (const m of missingFields(fields, p)) bad.add(m.path);
    const g = fieldOf(fields, p.path);
    if (g) bad.add(g.path);
  }
  for (const g of fields) {
    if (g === f || !bad.has(g.path)) continue;
    if (g.required) setPath(trial, g.path, convertField(g, g.example));
    else deletePath(trial, g.path);
  }
  const again = schema.safeParse(trial);
  if (again.success) return [];
  return problemsOf(again.error).filter((p) => fieldOf(fields, p.path) === f);
}

/** Checks one answer of field `f` against the schema; `true` or what is wrong with it. */
function checkField(fields: readonly FieldSpec[], schema: z.ZodMiniType, body: Record<string, unknown>, f: FieldSpec, value: unknown): string | true {
  const candidate = structuredClone(body);
  setPath(candidate, f.path, value);
  const issue = fieldIssues(fields, schema, candidate, f)[0];
  return issue ? issue.message : true;
}

/** Shows the cash-out summary and asks for confirmation, defaulting to No (prompts on stderr). */
export async function confirmCashOut(summary: string): Promise<boolean> {
  const { confirm } = await import('@inquirer/prompts');
  const ctx = promptContext();
  ctx.output!.write(`\n${summary}\n\n`);
  return confirm({ message: t('prompt.confirmCashOut'), default: false, theme: yesNoTheme() }, ctx);
}
