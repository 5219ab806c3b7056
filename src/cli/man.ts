/**
 * The manual page `man/paycli.1`, generated from the command tree at build time (tsup.config.ts
 * bundles this file apart from the CLI and runs {@link writeManPage}); nothing in paycli itself
 * loads it. One page holds every command, so `man paycli` is the whole reference: the root
 * description, global options, each command (usage, description, arguments, options, and the
 * text its `--help` prints after the options: details and examples), then the root's own
 * sections (examples, exit codes, environment). Same source as `--help`, so it cannot drift.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Command } from 'commander';
import { buildProgram } from './program.js';
import { allCommands, MAN_PAGE_FILES } from './help.js';
import { VERSION } from '../core/version.js';
import { setLanguage, t } from '../core/i18n/index.js';

/** Escapes text for roff: backslashes, hyphens (so they stay hyphens), and control characters at a line start. */
export function roffEscape(text: string): string {
  return text
    .replace(/\\/g, '\\e')
    .replace(/-/g, '\\-')
    .split('\n')
    .map((l) => (/^[.']/.test(l) ? `\\&${l}` : l))
    .join('\n');
}

/** The text a command's `--help` prints after its options (addHelpText 'after'), without colour. */
export function helpTextAfter(cmd: Command): string {
  let out = '';
  (cmd as unknown as NodeJS.EventEmitter).emit('afterHelp', { error: false, command: cmd, write: (s: string) => void (out += s) });
  return out.replace(/\x1b\[[0-9;]*m/g, '');
}

/**
 * Splits help text into sections at lines like `Examples:` (a heading at column 0 ending with a
 * colon); text before the first heading has an empty heading.
 */
export function sections(text: string): Array<{ heading: string; body: string }> {
  const out: Array<{ heading: string; body: string[] }> = [{ heading: '', body: [] }];
  for (const line of text.replace(/^\n+|\n+$/g, '').split('\n')) {
    const m = /^(\p{Lu}[\p{L} ,/-]*):$/u.exec(line);
    if (m) out.push({ heading: m[1]!, body: [] });
    else out[out.length - 1]!.body.push(line);
  }
  return out.map((s) => ({ heading: s.heading, body: s.body.join('\n').replace(/^\n+|\n+$/g, '') })).filter((s) => s.heading || s.body);
}

/** A block of text kept as written (examples, tables), indented. */
function preformatted(body: string): string {
  const lines = body.split('\n');
  const indent = Math.min(...lines.filter((l) => l.trim()).map((l) => /^ */.exec(l)![0].length));
  return `.RS 4\n.nf\n${roffEscape(lines.map((l) => l.slice(indent)).join('\n'))}\n.fi\n.RE`;
}

/** `.TP` items: a term in bold, its description below. */
function items(list: Array<{ term: string; description: string }>): string {
  return list.map((i) => `.TP\n.B ${roffEscape(i.term)}\n${roffEscape(i.description || ' ')}`).join('\n');
}

/** One command: usage, description, arguments, options and its after-help text. */
function commandSection(cmd: Command): string {
  const h = cmd.createHelp();
  const parts = [`.SS ${roffEscape(h.commandUsage(cmd))}`];
  parts.push(roffEscape(h.commandDescription(cmd)));
  const args = h.visibleArguments(cmd).map((a) => ({ term: h.argumentTerm(a), description: h.argumentDescription(a) }));
  if (args.length) parts.push(`.PP\n${t('help.title.arguments')}\n${items(args)}`);
  const opts = h.visibleOptions(cmd).map((o) => ({ term: h.optionTerm(o), description: h.optionDescription(o) }));
  if (opts.length) parts.push(`.PP\n${t('help.title.options')}\n${items(opts)}`);
  if (cmd.parent) parts.push(`.PP\n${t('man.andGlobal')}`);
  for (const s of sections(helpTextAfter(cmd))) {
    parts.push(s.heading ? `.PP\n${roffEscape(s.heading)}:\n${preformatted(s.body)}` : `.PP\n${preformatted(s.body)}`);
  }
  return parts.join('\n');
}

/** The whole page `paycli(1)`. */
export function manPage(program: Command = buildProgram(), name = 'paycli'): string {
  const h = program.createHelp();
  const [summary, ...rest] = h.commandDescription(program).split('\n');
  const commands = allCommands(program).filter((c) => c.name() !== 'help');
  const out = [
    // man-db reads the page's encoding from this line; without it, a pt_BR locale makes it guess ISO-8859-1
    `'\\" -*- coding: UTF-8 -*-`,
    `.\\" Generated from paycli's command tree by src/cli/man.ts at build time; do not edit.`,
    `.TH PAYCLI 1 "" "paycli ${roffEscape(VERSION)}" "${t('man.userCommands')}"`,
    `.SH ${t('man.name')}`,
    `${name === 'paycli' ? 'paycli' : `paycli, ${roffEscape(name)}`} \\- ${roffEscape(summary ?? '')}`,
    `.SH ${t('man.synopsis')}`,
    t('man.synopsisOptions'),
    t('man.synopsisHelp'),
    `.SH ${t('man.description')}`,
    roffEscape([summary, ...rest].join('\n')),
    t('man.everyCommand'),
    `.SH ${t('man.globalOptions')}`,
    t('man.beforeOrAfter'),
    items(h.visibleOptions(program).map((o) => ({ term: h.optionTerm(o), description: h.optionDescription(o) }))),
    `.SH ${t('man.commands')}`,
    ...commands.map(commandSection),
  ];
  for (const s of sections(helpTextAfter(program))) {
    const heading = s.heading === t('root.exitCodes').slice(0, -1) ? t('man.exitStatus') : s.heading.toUpperCase();
    out.push(`.SH ${roffEscape(heading || t('man.notes'))}`, preformatted(s.body));
  }
  out.push(`.SH ${t('man.seeAlso')}`, t('man.seeAlsoText'));
  return `${out.join('\n')}\n`;
}

/**
 * Writes the page in each language (the build calls it with `man`): English `<dir>/paycli.1` and
 * Portuguese `<dir>/paycli-pt_BR.1`, both in package.json "man", which npm links into
 * `<prefix>/share/man/man1/` (one folder, so the names differ: `man paycli-pt_BR`); and the
 * Portuguese page again as `<dir>/pt_BR/man1/paycli.1`, where `man -L pt_BR paycli` looks in a
 * clone (docs/portugues.md). `paycli help --man` opens the one of the language in use.
 */
export async function writeManPage(dir: string): Promise<void> {
  await setLanguage('en');
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, MAN_PAGE_FILES.en), manPage());
  await setLanguage('pt-BR');
  writeFileSync(join(dir, MAN_PAGE_FILES['pt-BR']), manPage(buildProgram(), MAN_PAGE_FILES['pt-BR'].replace(/\.1$/, '')));
  mkdirSync(join(dir, 'pt_BR', 'man1'), { recursive: true });
  writeFileSync(join(dir, 'pt_BR', 'man1', 'paycli.1'), manPage());
  await setLanguage('en');
}
