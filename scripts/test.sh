#!/usr/bin/env bash
# `npm test`: the whole suite. Installs (or names) the programs the tests drive, builds, type-checks,
# lints (`npm run lint`), checks the formatting (`npm run format:check`), then runs every test; arguments go to
# vitest (`npm test -- test/e2e/help.test.ts`).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/test-deps.sh
npm run build
npx tsc --noEmit
npm run lint
npm run format:check
npx vitest run "$@"
