import { readFileSync } from 'node:fs';
import { defineConfig } from 'tsup';

const { version } = JSON.parse(readFileSync('package.json', 'utf8')) as { version: string };

// One ESM bundle with code splitting: the command tree loads alone; each command's
// implementation (zod, undici, prompts, qrcode, the sandbox) is a chunk loaded on use.
export default defineConfig({
  entry: { cli: 'src/cli.ts' },
  format: ['esm'],
  platform: 'node',
  target: 'node20',
  splitting: true,
  bundle: true,
  noExternal: [/.*/],
  minify: true,
  sourcemap: false,
  clean: true,
  treeshake: true,
  define: { __PAYCLI_VERSION__: JSON.stringify(version) },
  banner: { js: "import { createRequire as __paycliCreateRequire } from 'node:module'; const require = __paycliCreateRequire(import.meta.url);" },
});
