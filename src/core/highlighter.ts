/**
 * Colour, in one place. chalk alone ignores `NO_COLOR`, so whether colour is used is decided by
 * the terminal policy (src/core/terminal.ts `wantsColor`: `--no-color`, `NO_COLOR`, `TERM=dumb`, stderr
 * not a terminal). Only stderr text is coloured; stdout stays plain so that
 * pipes and files get clean text. chalk is loaded only when colour is on: scripts and CI, where
 * stderr is no terminal, never load it.
 */
import type { ChalkInstance } from 'chalk';
import { wantsColor, type RunContext } from './terminal.js';

let instance: ChalkInstance | undefined;

/** Decides once, at start-up, whether colour is used. `noColorFlag` is `--no-color`. */
export async function setupColor(noColorFlag: boolean, ctx?: Pick<RunContext, 'isTTY' | 'env'>): Promise<void> {
  if (noColorFlag) {
    // Every library decides colour for itself (the prompts use node:util styleText, which reads
    // NO_COLOR and, before it, FORCE_COLOR): --no-color becomes NO_COLOR for the whole process.
    process.env.NO_COLOR = '1';
    delete process.env.FORCE_COLOR;
  }
  const off = !wantsColor(noColorFlag, ctx);
  // The named class, not the default export: the bundle's CommonJS chunks wrap a default export once more.
  instance = off ? undefined : new (await import('chalk')).Chalk();
}

type Style = 'red' | 'yellow' | 'cyan' | 'green' | 'dim' | 'bold';
const paint = (style: Style) => (s: string) => (instance ? instance[style](s) : s);

/** Semantic colours; each returns plain text when colour is off. */
export const highlighter = {
  error: paint('red'),
  warn: paint('yellow'),
  info: paint('cyan'),
  success: paint('green'),
  dim: paint('dim'),
  bold: paint('bold'),
};
