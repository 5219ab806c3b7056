#!/usr/bin/env bash
# Makes sure the programs the tests drive (scripts/test-deps.txt) are installed: installs the missing
# Debian packages with apt-get when it can (as root, or with passwordless sudo), otherwise stops at
# once with one line naming them (exit 1). Run by `npm test` (scripts/test.sh) before anything else.
set -euo pipefail
list="$(dirname "$0")/test-deps.txt"
# Some programs (ip) live in sbin, which a user's PATH may lack; the tests look there too.
PATH="$PATH:/usr/sbin:/sbin"
missing=()
while read -r cmd pkg _; do
  case "$cmd" in '' | '#'*) continue ;; esac
  command -v "$cmd" >/dev/null 2>&1 || missing+=("$pkg")
done <"$list"
[ ${#missing[@]} -eq 0 ] && exit 0

stop() {
  echo "npm test: the tests need Debian packages that are not installed: ${missing[*]} (install them: sudo apt-get install -y ${missing[*]})" >&2
  exit 1
}
command -v apt-get >/dev/null 2>&1 || stop
if [ "$(id -u)" = 0 ]; then
  as_root=()
elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
  as_root=(sudo -n)
else
  stop
fi
echo "npm test: installing ${missing[*]} (apt-get), which the tests drive" >&2
export DEBIAN_FRONTEND=noninteractive
# A fresh machine may have no package lists yet; an update that fails (offline) leaves the install to say why.
"${as_root[@]}" apt-get update -qq >&2 || true
"${as_root[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >&2 || {
  echo "npm test: apt-get could not install ${missing[*]}" >&2
  exit 1
}
# Check again: a package installed but still not on PATH would fail tests later, less clearly.
while read -r cmd pkg _; do
  case "$cmd" in '' | '#'*) continue ;; esac
  command -v "$cmd" >/dev/null 2>&1 || { echo "npm test: $pkg is installed but $cmd is not on PATH" >&2; exit 1; }
done <"$list"
