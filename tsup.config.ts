import { readFileSync } from 'node:fs';
import { defineConfig } from 'tsup';

const { version } = JSON.parse(readFileSync('package.json', 'utf8')) as { version: string };

// One CommonJS bundle with code splitting (tsup's splitting for cjs): the command tree loads
// alone, and each command's implementation (zod, prompts, qrcode, the sandbox, undici behind a
// proxy) is a chunk required on use. CommonJS rather than ESM because Node 20's ESM loader adds
// ~10 ms to every start (README, "Speed"). Identifiers stay unminified: minifying them breaks
// the helpers tsup's cjs splitting inserts.
export default defineConfig({
  entry: { cli: 'src/cli.ts' },
  format: ['cjs'],
  platform: 'node',
  target: 'node20',
  splitting: true,
  bundle: true,
  noExternal: [/.*/],
  minify: true,
  esbuildOptions(options) {
    options.minifyIdentifiers = false;
  },
  sourcemap: false,
  clean: true,
  treeshake: true,
  define: { __PAYCLI_VERSION__: JSON.stringify(version) },
});
