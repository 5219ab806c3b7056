#!/usr/bin/env bash
# npm's `prepare`: builds dist/ and man/ (`npm run build`). npm runs it after `npm ci`/`npm install` in a
# checkout, before `npm pack`, and for `npm install -g <checkout>`. That last one links the checkout
# instead of copying it, and a fresh clone has no node_modules yet (nothing to build with, nor the native
# modules paycli loads): then it installs them first, with `npm ci` as in the README, outside the global
# install's settings.
set -euo pipefail
cd "$(dirname "$0")/.."
[ -n "${PAYCLI_PREPARING:-}" ] && exit 0   # the nested `npm ci` below runs prepare again
if [ ! -e node_modules/.bin/tsup ]; then
  echo "paycli: installing its dependencies in $PWD (npm ci) to build it" >&2
  env -u npm_config_global -u npm_config_prefix -u npm_config_global_prefix -u npm_config_local_prefix \
    -u npm_config_globalconfig -u npm_config_allow_scripts PAYCLI_PREPARING=1 npm ci --no-audit --no-fund >&2
fi
npm run build >&2
