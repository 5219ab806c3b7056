#!/bin/sh
# EXPERIMENT, not shipped (docs/speed.md "A startup snapshot for history: measured"): what bin/ would become
# with a startup snapshot for `history`. A `history` line starts Node from the blob built for this very Node
# binary (kept under the user's cache, in a folder that mirrors the binary's path, so no string work is needed
# here); any other line, or no usable blob, runs bin/paycli.cjs as today. Building the blob (build.mjs) is not
# wired: the fallback run would start it in the background.
self=$(readlink -f "$0") || self=$0
root=${self%/*/*/*/*}
node=$(command -v node) || { echo 'paycli: node not found' >&2; exit 2; }
blob=${PAYCLI_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/paycli}/snapshots$node/history.blob
case " $* " in
*" history "*)
  # usable only when written after both the Node binary and paycli's bundle (an upgrade of either makes it stale)
  if [ "$blob" -nt "$node" ] && [ "$blob" -nt "$root/dist/boot.cjs" ]; then
    exec "$node" --snapshot-blob "$blob" -- "$root/bin/paycli.cjs" "$@"
  fi
  ;;
esac
exec "$node" "$root/bin/paycli.cjs" "$@"
