// Preloaded into a paycli under test to plant a bug: the random source of a payment's order reference
// (src/core/random.ts reads /dev/urandom) throws a plain TypeError, as a programming error inside paycli
// would. paycli must report it as an internal error (exit 70) and send nothing.
'use strict';
const fs = require('node:fs');
const openSync = fs.openSync;
fs.openSync = function plantedOpenSync(path, ...rest) {
  if (path === '/dev/urandom') throw new TypeError('planted bug: randomBytes is broken');
  return openSync.call(this, path, ...rest);
};
