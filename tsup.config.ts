import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { defineConfig, type Options } from 'tsup';
import { lazyCatalogs } from './scripts/lib/catalog-groups.js';
import { writeRoutePacks } from './scripts/lib/route-packs.js';

type Plugin = NonNullable<Options['esbuildPlugins']>[number];

/**
 * A module's source that stands for the module `request` and requires it on the first read of one of its
 * exports. `__esModule` is read by the bundler's interop as the importer loads, and none of these modules has it.
 */
const onFirstUse = (request: string): string =>
  `let m; module.exports = new Proxy({}, { get: (_, key) => (key === '__esModule' ? undefined : (m ??= require(${JSON.stringify(request)}))[key]) });`;

// commander requires node:child_process when it loads, only to spawn executable subcommands,
// which paycli has none of; loading it costs ~3 ms on every start. Within commander it becomes a
// proxy that loads the real module on first use.
const lazyChildProcessInCommander: Plugin = {
  name: 'lazy-child-process-in-commander',
  setup(build) {
    build.onResolve({ filter: /^(node:)?child_process$/ }, (args) =>
      /[\\/]node_modules[\\/]commander[\\/]/.test(args.importer) ? { path: 'child_process', namespace: 'lazy-builtin' } : undefined,
    );
    build.onResolve({ filter: /^(node:)?dns$/ }, (args) => (/[\\/]node_modules[\\/]pg[\\/]/.test(args.importer) ? { path: 'dns', namespace: 'lazy-builtin' } : undefined));
    // ulid's Node build imports node:crypto for its default source of randomness, which paycli never uses (it passes
    // its own, src/gateway/order-id.ts): a cash-out then loads no node:crypto (docs/speed.md "Crypto off a cash-out's path").
    build.onResolve({ filter: /^(node:)?crypto$/ }, (args) => (/[\\/]node_modules[\\/]ulid[\\/]/.test(args.importer) ? { path: 'crypto', namespace: 'lazy-builtin' } : undefined));
    build.onLoad({ filter: /.*/, namespace: 'lazy-builtin' }, (args) => ({
      contents: onFirstUse(`node:${args.path}`),
      loader: 'js',
    }));
  },
};

// The pg driver picks its socket when it loads: a Cloudflare Worker's, or Node's. To tell them apart
// it reads `navigator.userAgent` where there is one (Node 21 and later), else builds a fetch
// `Response`, which on Node 20 loads Node's whole fetch implementation (about 18 ms of every
// team-ledger command, docs/speed.md "Team ledger"). paycli runs on Node only: the bundle gets the
// driver's own Node branch of lib/stream.js, and nothing else of the driver changes.
const pgNodeStreams: Plugin = {
  name: 'pg-node-streams',
  setup(build) {
    build.onLoad({ filter: /[\\/]node_modules[\\/]pg[\\/]lib[\\/]stream\.js$/ }, () => ({
      contents: "module.exports = { getStream: () => new (require('net').Socket)(), getSecureStream: (options) => require('tls').connect(options) };",
      loader: 'js',
    }));
  },
};

// The pg driver's password hashing (lib/crypto/utils.js: MD5 and SCRAM-SHA-256 through Web Crypto) loads
// node:crypto and its Web Crypto as the driver loads, about 17 of Node's modules, though a connection that
// needs no password never hashes one (docs/speed.md "Team ledger: the driver's crypto on demand"). The driver's
// two users of it (lib/client.js, lib/crypto/sasl.js) get a proxy that loads the module on first use.
const pgCryptoOnDemand: Plugin = {
  name: 'pg-crypto-on-demand',
  setup(build) {
    build.onResolve({ filter: /^\.(\/crypto)?\/utils$/ }, (args) => {
      const path = join(args.resolveDir, `${args.path}.js`);
      // the proxy's own require of the module (an absolute path, from its namespace) is not taken again
      return args.namespace === 'file' && /[\\/]node_modules[\\/]pg[\\/]lib[\\/]crypto[\\/]utils\.js$/.test(path) ? { path, namespace: 'pg-crypto-on-demand' } : undefined;
    });
    build.onLoad({ filter: /.*/, namespace: 'pg-crypto-on-demand' }, (args) => ({
      contents: onFirstUse(args.path),
      loader: 'js',
      resolveDir: args.path.replace(/[\\/][^\\/]*$/, ''),
    }));
  },
};

// The message catalogs are built a group of keys at a time, on first use (src/core/i18n/lazy.ts,
// scripts/lib/catalog-groups.ts `lazyCatalogs`).

/**
 * Rollup writes the bundle's dynamic imports (`import('./cashin-54ZCGLEJ.cjs')`, `import('node:http')`)
 * as `import()` even in CommonJS, and on Node 20 every such call goes through the ESM loader,
 * which parses the CommonJS file again to find its exports (about 5% of a cash-in's
 * instructions, docs/speed.md). tsup does not expose rollup's `dynamicImportInCjs: false`, so this
 * step rewrites them after the build to what that option emits: `require()` wrapped as a module
 * namespace (named exports, plus `default` = `module.exports`, as Node's own import of CommonJS
 * gives). It also makes the chunks runnable by src/cli/compile-cache.ts, whose `vm.Script` has no
 * dynamic-import support. The build fails if any `import(` is left.
 *
 * A built-in module's namespace is not a copy: spreading `node:http` reads every export, and on
 * Node 22 and later its `WebSocket`, `CloseEvent` and `MessageEvent` are getters that load Node's
 * whole undici (with assert and zlib), about a quarter of a cash-out's CPU there (docs/speed.md
 * "The cash-out's CPU"). It is an object whose prototype is the module, so each export is read
 * only when the code reads it, and `default` is the module, as Node's own import gives.
 */
function requireDynamicImports(dir: string): void {
  const call = /\bimport\('((?:\.\/[\w.-]+\.cjs)|(?:node:[\w/]+))'\)/g;
  for (const name of readdirSync(dir).filter((n) => n.endsWith('.cjs'))) {
    const file = join(dir, name);
    const code = readFileSync(file, 'utf8');
    const out = code.replace(call, (_, spec: string) =>
      spec.startsWith('node:')
        ? `Promise.resolve().then(()=>{const m=require('${spec}');return Object.freeze(Object.create(m,{default:{value:m,enumerable:true}}))})`
        : `Promise.resolve().then(()=>{const m=require('${spec}');return Object.freeze({...m,default:m})})`,
    );
    if (/\bimport\(/.test(out)) throw new Error(`${name}: an import() the build step does not rewrite`);
    if (out !== code) writeFileSync(file, out);
  }
}

const { version } = JSON.parse(readFileSync('package.json', 'utf8')) as { version: string };

// One CommonJS bundle with code splitting (tsup's splitting for cjs): the command tree loads
// alone, and each command's implementation (zod, prompts, qrcode, the sandbox, undici behind a
// proxy) is a chunk required on use. CommonJS rather than ESM because Node 20's ESM loader adds
// ~10 ms to every start (docs/speed.md). Identifiers stay unminified: minifying them breaks
// the helpers tsup's cjs splitting inserts.
/** Where the man page generator (src/cli/man.ts) is bundled before it runs; not part of the package. */
const MAN_BUILD_DIR = 'node_modules/.cache/paycli-man';

export default defineConfig([
  {
    // boot (src/cli/boot.ts) turns on the code cache, then imports cli (src/cli/program.ts) and the rest.
    entry: { boot: 'src/cli/boot.ts' },
    format: ['cjs'],
    platform: 'node',
    target: 'node20',
    splitting: true,
    bundle: true,
    // Everything is bundled, better-sqlite3's JavaScript too (one chunk instead of 13 files to find,
    // read and compile at every cash-out; docs/speed.md). Its compiled addon stays in the installed
    // package, and src/core/sqlite/driver-better-sqlite3.ts names it (`nativeBinding`); it is loaded only with the first ledger
    // opened, never on the path of --help or --version.
    // Except resvg (the PNG of a receipt): its index picks a platform package's prebuilt binary at run time.
    noExternal: [/^(?!@resvg\/resvg-js)/],
    external: ['@resvg/resvg-js'],
    minify: true,
    esbuildOptions(options) {
      options.minifyIdentifiers = false;
    },
    sourcemap: false,
    clean: true,
    treeshake: true,
    define: { __PAYCLI_VERSION__: JSON.stringify(version) },
    // The completion scripts' static bodies (src/completion/*.bash|zsh|fish|awk) are bundled as text.
    loader: { '.bash': 'text', '.zsh': 'text', '.fish': 'text', '.awk': 'text' },
    esbuildPlugins: [lazyChildProcessInCommander, pgNodeStreams, pgCryptoOnDemand, lazyCatalogs],
    onSuccess: async () => {
      requireDynamicImports('dist');
      // The direct routes (src/cli/direct.ts), `history`'s and a batch line's: the chunks each loads as one file, taken by
      // src/cli/boot.ts once the line readers (src/cli/line.ts) have recognised the line; modules named by their file's name
      writeRoutePacks('dist', { history: ['direct', 'shape', 'history', 'read', 'printer'], batch: ['direct', 'shape', 'run', 'read-kept'] }, ['line']);
    },
    removeNodeProtocol: false, // keep `node:` imports (Node 20 has them); else tsup claims them before the plugin above
    // No build chatter: the first command of README (`npm ci`, whose `prepare` builds) shows no warning.
    // Rollup's tree-shaking pass warns that the chunks of jsQR and qr export a default beside named
    // exports, which is how requireDynamicImports() above hands them over; errors still stop the build.
    silent: true,
  },
  {
    // man/paycli.1, man/paycli-pt_BR.1 and man/pt_BR/man1/paycli.1, generated from the same command tree (src/cli/man.ts), beside the CLI bundle.
    // schemas/: the JSON Schema of each command's --json document (src/cli/output/document-schemas.ts), shipped in the package.
    entry: { man: 'src/cli/man.ts', schemas: 'src/cli/output/document-schemas.ts' },
    outDir: MAN_BUILD_DIR,
    // zod is bundled as in the CLI (its locale module's default export, read by src/gateway/schemas.ts)
    noExternal: [/^zod/],
    format: ['cjs'],
    platform: 'node',
    target: 'node20',
    clean: true,
    define: { __PAYCLI_VERSION__: JSON.stringify(version) },
    // The completion scripts' static bodies (src/completion/*.bash|zsh|fish|awk) are bundled as text.
    loader: { '.bash': 'text', '.zsh': 'text', '.fish': 'text', '.awk': 'text' },
    removeNodeProtocol: false,
    onSuccess: async () => {
      execFileSync(process.execPath, ['-e', `require(${JSON.stringify(`./${MAN_BUILD_DIR}/man.cjs`)}).writeManPage('man').catch((e) => { console.error(e); process.exit(1); })`], {
        stdio: 'inherit',
      });
      execFileSync(
        process.execPath,
        ['-e', `require(${JSON.stringify(`./${MAN_BUILD_DIR}/schemas.cjs`)}).writeSchemaFiles('schemas').catch((e) => { console.error(e); process.exit(1); })`],
        { stdio: 'inherit' },
      );
    },
  },
]);
