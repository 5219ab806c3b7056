// EXPERIMENT, not shipped (docs/speed.md "A startup snapshot for history: measured").
// Usage: node scripts/experimental/history-snapshot/build.mjs <out dir> [<node binary>...]
// Bundles ./entry.ts into <out dir>/history-snapshot.cjs (one CommonJS file, every npm package outside it,
// found at run time from the installed paycli), then builds <out dir>/history-<node version>.blob
// with each Node binary given (default: this one).
import { build } from 'esbuild';
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const out = resolve(process.argv[2] ?? 'snapshot-out');
const nodes = process.argv.length > 3 ? process.argv.slice(3) : [process.execPath];
mkdirSync(out, { recursive: true });

// The catalogs' grouping of tsup.config.ts, bundled first (it is TypeScript).
const groupsFile = join(root, 'node_modules/.cache/paycli-snapshot/catalog-groups.cjs'); // beside typescript, which it requires
await build({
  entryPoints: [join(root, 'scripts/lib/catalog-groups.ts')],
  bundle: true,
  platform: 'node',
  format: 'cjs',
  outfile: groupsFile,
  packages: 'external',
  logLevel: 'error',
});
const { lazyCatalogs } = (await import(groupsFile)).default; // the bundle's own plugin (tsup.config.ts)

// env-paths reads the home folder when it loads: built into the snapshot, it would keep the builder's. Its import
// becomes a function that loads it (still bundled, evaluated on first call: the first test of
// scripts/experimental/history-snapshot showed the builder's home folder used) in the process started from the blob.
const lazyEnvPaths = {
  name: 'lazy-env-paths',
  setup(b) {
    b.onResolve({ filter: /^env-paths$/ }, (args) => (args.namespace === 'lazy' ? undefined : { path: 'env-paths', namespace: 'lazy' }));
    b.onLoad({ filter: /.*/, namespace: 'lazy' }, () => ({
      // require(), not import: the bundler evaluates a statically imported module when the bundle starts (at build
      // time here), a required one on its first require
      contents: "export default (...a) => require('env-paths?real').default(...a);",
      resolveDir: root,
    }));
    b.onResolve({ filter: /^env-paths\?real$/ }, (args) => ({ path: createRequire(join(root, 'package.json')).resolve('env-paths') }));
  },
};

// Large packages the route never runs stay out of the bundle (required from the installed paycli on the rare paths
// that reach them); the rest is bundled.
const external = [
  'undici',
  'iconv-lite',
  'liquidjs',
  'qrcode',
  'jq-wasm',
  'zod',
  'pg',
  'pg-connection-string',
  'pgpass',
  '@inquirer/*',
  'pdfkit',
  'fontkit',
  '@resvg/resvg-js',
  '@napi-rs/keyring',
  'conf',
  'csv-parse',
  'cli-progress',
  'jsqr',
  'chalk',
  'commander',
  'dejavu-fonts-ttf',
  '@brazilian-utils/*',
];

// The bundle's `require` is the snapshot builder's while the snapshot is built (built-in modules only); in the
// started process it becomes a `require` of the installed paycli (entry.ts), so packages and addons resolve there.
const banner = `var __snapshotBuildRequire = require, __runRequire;
var __paycliSnapshotRequire = { set(r) { __runRequire = r; } };
require = Object.assign((id) => (__runRequire ?? __snapshotBuildRequire)(id), { resolve: (id, o) => __runRequire.resolve(id, o) });`;

const { version } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const bundle = join(out, 'history-snapshot.cjs');
const result = await build({
  entryPoints: [join(root, 'scripts/experimental/history-snapshot/entry.ts')],
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  outfile: bundle,
  external,
  minify: true,
  minifyIdentifiers: false,
  charset: 'ascii',
  banner: { js: banner },
  define: { __PAYCLI_VERSION__: JSON.stringify(version) },
  loader: { '.bash': 'text', '.zsh': 'text', '.fish': 'text', '.awk': 'text' },
  plugins: [lazyCatalogs, lazyEnvPaths],
  metafile: true,
  logLevel: 'error',
});
const inputs = Object.keys(result.metafile.inputs);
console.error(`bundle: ${bundle} (${readFileSync(bundle).length} bytes, ${inputs.length} modules)`);
for (const node of nodes) {
  const v = execFileSync(node, ['-p', 'process.version']).toString().trim();
  // PAYCLI_SNAPSHOT_NO_CODE=1: --build-snapshot-config's withoutCodeCache (no compiled code in the blob, Node's own
  // built-in modules' included: a blob about 3.6 MB smaller)
  const noCode = process.env.PAYCLI_SNAPSHOT_NO_CODE === '1';
  const blob = join(
    out,
    `history-${v}${process.env.PAYCLI_SNAPSHOT_WARMUP === '1' ? (process.env.PAYCLI_SNAPSHOT_WARMUP_LEDGER ? '-warmledger' : '-warm') : ''}${noCode ? '-nocode' : ''}.blob`,
  );
  const config = join(out, 'snapshot-config.json');
  writeFileSync(config, JSON.stringify({ builder: bundle, withoutCodeCache: noCode }));
  execFileSync(node, ['--snapshot-blob', blob, '--build-snapshot-config', config], { stdio: 'inherit' });
  console.error(`blob: ${blob} (${readFileSync(blob).length} bytes)`);
}
