// Preloaded into a paycli under test: prints `loaded <request>` on stderr for every module paycli
// requires whose name matches PAYCLI_TEST_REPORT_LOADS (a regular expression).
'use strict';
const Module = require('node:module');
const pattern = new RegExp(process.env.PAYCLI_TEST_REPORT_LOADS || '^$');
const load = Module._load;
Module._load = function reportLoad(request, ...rest) {
  if (pattern.test(request)) process.stderr.write(`loaded ${request}\n`);
  return load.call(this, request, ...rest);
};
