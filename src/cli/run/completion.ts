/** `paycli completion <shell>`: prints the completion script generated from the command tree. */
import type { Command } from 'commander';
import { generateCompletion, type Shell } from '../completion/index.js';
import { output, type Output } from '../../core/output.js';
import type { RunContext } from '../../core/terminal.js';

/** Prints the script for the shell given as argument (commander has checked it is one we know). */
export async function run(_opts: { json?: boolean | string }, { args, command }: RunContext): Promise<Output<{ shell: Shell; script: string }>> {
  let program = command as Command;
  while (program.parent) program = program.parent;
  const shell = args[0] as Shell;
  const script = generateCompletion(program, shell);
  return output({ shell, script }, script);
}
