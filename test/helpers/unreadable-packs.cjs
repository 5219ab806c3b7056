// Preloaded into a paycli under test: every read of a route pack of dist/ (`pack-<route>-<hash>.cjs`, scripts/lib/route-packs.ts)
// fails with EACCES, as a pack a damaged or half-copied installation cannot read; everything else reads as usual.
'use strict';
const fs = require('node:fs');
const readFileSync = fs.readFileSync;
fs.readFileSync = function unreadablePacks(file, ...rest) {
  if (typeof file === 'string' && /[\\/]dist[\\/]pack-[\w-]+-[A-Z0-9]{8}\.cjs$/.test(file)) {
    throw Object.assign(new Error(`EACCES: permission denied, open '${file}'`), { code: 'EACCES', errno: -13, syscall: 'open', path: file });
  }
  return readFileSync.call(this, file, ...rest);
};
