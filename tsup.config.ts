import { readFileSync } from 'node:fs';
import { defineConfig, type Options } from 'tsup';

type Plugin = NonNullable<Options['esbuildPlugins']>[number];

// commander requires node:child_process when it loads, only to spawn executable subcommands,
// which paycli has none of; loading it costs ~3 ms on every start. Within commander it becomes a
// proxy that loads the real module on first use.
const lazyChildProcessInCommander: Plugin = {
  name: 'lazy-child-process-in-commander',
  setup(build) {
    build.onResolve({ filter: /^(node:)?child_process$/ }, (args) =>
      /[\\/]node_modules[\\/]commander[\\/]/.test(args.importer) ? { path: 'child_process', namespace: 'lazy-builtin' } : undefined,
    );
    build.onLoad({ filter: /.*/, namespace: 'lazy-builtin' }, () => ({
      contents: "let m; module.exports = new Proxy({}, { get: (_, key) => (m ??= require('node:child_process'))[key] });",
      loader: 'js',
    }));
  },
};

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
  esbuildPlugins: [lazyChildProcessInCommander],
  removeNodeProtocol: false, // keep `node:` imports (Node 20 has them); else tsup claims them before the plugin above
});
