/** `paycli completion <shell>`: prints the completion script generated from the command tree. */
import type { Command } from 'commander';
import { generateCompletion, type Shell } from '../completion/index.js';
import { printResult } from '../../core/logger.js';
import type { RunContext } from '../../core/terminal.js';

/** Prints the script for the shell given as argument (commander has checked it is one we know). */
export async function run(opts: { json?: boolean }, { args, command }: RunContext): Promise<void> {
  let program = command as Command;
  while (program.parent) program = program.parent;
  const shell = args[0] as Shell;
  const script = generateCompletion(program, shell);
  printResult(opts.json ? { json: { shell, script } } : script);
}
