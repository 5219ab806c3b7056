/**
 * Colour, in one place. chalk alone ignores `NO_COLOR` (field-notes), so colour is switched off
 * here for `--no-color`, `NO_COLOR` (any non-empty value, https://no-color.org), `TERM=dumb`, and
 * whenever stderr is not a terminal. Only stderr text is coloured; stdout stays plain so that
 * pipes and files get clean text.
 */
import chalk, { Chalk, type ChalkInstance } from 'chalk';

let instance: ChalkInstance = chalk;

/** Decides once, at start-up, whether colour is used. `noColorFlag` is `--no-color`. */
export function setupColor(noColorFlag: boolean): void {
  const off =
    noColorFlag ||
    (process.env.NO_COLOR ?? '') !== '' ||
    process.env.TERM === 'dumb' ||
    !process.stderr.isTTY;
  instance = off ? new Chalk({ level: 0 }) : chalk;
}

/** Semantic colours; each returns plain text when colour is off. */
export const highlighter = {
  error: (s: string) => instance.red(s),
  warn: (s: string) => instance.yellow(s),
  info: (s: string) => instance.cyan(s),
  success: (s: string) => instance.green(s),
  dim: (s: string) => instance.dim(s),
  bold: (s: string) => instance.bold(s),
};
