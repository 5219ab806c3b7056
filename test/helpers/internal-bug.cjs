// Preloaded into a paycli under test to plant a bug: node:crypto's random source throws a plain
// TypeError, as a programming error inside paycli would, while paycli makes a payment's order
// reference. paycli must report it as an internal error (exit 70) and send nothing.
'use strict';
require('node:crypto').randomBytes = function randomBytes() {
  throw new TypeError('planted bug: randomBytes is broken');
};
