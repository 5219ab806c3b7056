#!/usr/bin/env node
// Writes completions/ from the built CLI (`npm run completions` builds first). It runs
// `paycli completion <shell>`, so the committed scripts and the command are the same code
// (src/cli/completion/ walking buildProgram()); test/e2e/completion.test.ts fails when they differ.
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const files = { bash: 'paycli.bash', zsh: '_paycli', fish: 'paycli.fish' };
const env = { ...process.env };
for (const k of Object.keys(env)) if (k.startsWith('PAYCLI_') || k === 'NO_COLOR' || k === 'FORCE_COLOR' || k === 'LC_ALL' || k === 'LC_MESSAGES') delete env[k];
env.LANG = 'C.UTF-8'; // the shipped scripts carry the English descriptions; `paycli completion` prints the user's language

mkdirSync(join(root, 'completions'), { recursive: true });
for (const [shell, file] of Object.entries(files)) {
  const script = execFileSync(process.execPath, [join(root, 'bin/paycli.cjs'), 'completion', shell], { env, encoding: 'utf8' });
  writeFileSync(join(root, 'completions', file), script);
  process.stderr.write(`wrote completions/${file}\n`);
}
