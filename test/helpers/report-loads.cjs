// Preloaded into a paycli under test: prints `loaded <request>` on stderr for every module paycli
// requires whose name matches PAYCLI_TEST_REPORT_LOADS (a regular expression); as it exits, also
// `loaded ./<file>` for every file of paycli's dist/ in Node's module cache (a chunk's require of a
// chunk is answered by src/cli/compile-cache.ts without Module._load, but registered there); and as it exits
// `internal <name>` for every module of Node's own (process.moduleLoadList, e.g. Node's bundled
// undici, which no require names) matching PAYCLI_TEST_REPORT_INTERNALS. With PAYCLI_TEST_REPORT_READS=1, also
// `read ./<file>` for every file of dist/ read with fs.readFileSync (Node's loader and src/cli/compile-cache.ts
// both read a chunk's file so), in the order read.
'use strict';
const Module = require('node:module');
const pattern = new RegExp(process.env.PAYCLI_TEST_REPORT_LOADS || '^$');
const load = Module._load;
Module._load = function reportLoad(request, ...rest) {
  if (pattern.test(request)) process.stderr.write(`loaded ${request}\n`);
  return load.call(this, request, ...rest);
};
if (process.env.PAYCLI_TEST_REPORT_READS) {
  const fs = require('node:fs');
  const distDir = `${require('node:path').resolve(__dirname, '../../dist')}${require('node:path').sep}`;
  const readFileSync = fs.readFileSync;
  fs.readFileSync = function reportRead(file, ...rest) {
    if (typeof file === 'string' && file.startsWith(distDir)) process.stderr.write(`read ./${file.slice(distDir.length)}\n`);
    return readFileSync.call(this, file, ...rest);
  };
}
process.on('exit', () => {
  const dist = `${require('node:path').resolve(__dirname, '../../dist')}${require('node:path').sep}`;
  for (const file of Object.keys(Module._cache)) {
    const request = `./${file.slice(dist.length)}`;
    if (file.startsWith(dist) && pattern.test(request)) process.stderr.write(`loaded ${request}\n`);
  }
});
if (process.env.PAYCLI_TEST_REPORT_INTERNALS) {
  const internals = new RegExp(process.env.PAYCLI_TEST_REPORT_INTERNALS);
  process.on('exit', () => {
    for (const entry of process.moduleLoadList) if (internals.test(entry)) process.stderr.write(`internal ${entry}\n`);
  });
}
