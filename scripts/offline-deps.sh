# Sourced by ./test and ./run: the Pyodide runtime that the offline recorder runs the rules
# in (README, "Recording offline"), from the npm registry, pinned by version and checked
# against its sha512, unpacked into vendor/pyodide (git-ignored). Nothing is fetched when
# that version is already there. The rules themselves (projections and marshmallow) are
# not installed here: chronicle packages them from its own code at the first request, so
# the browser always runs the rules the server runs.
#
# `source scripts/offline-deps.sh optional` (./run) only warns when it cannot install:
# the service then runs without offline recording. ./test fails instead, since its browser
# tests need it.

PYODIDE_VERSION=314.0.8
PYODIDE_INTEGRITY="sha512-74Wq1kXOC+CCEzAfxuRAO701nAcCMLjf8NrwvWpu8S41dVMXwXmLQ05dYB+F4e46AdnGo0oq7YHSVUpHsoarLQ=="
# what the browser loads of the package (the rest is for Node.js, types and source maps)
PYODIDE_FILES=(pyodide.mjs pyodide.asm.mjs pyodide.asm.wasm python_stdlib.zip
               pyodide-lock.json package.json)

offline_deps_install() {
  local dest=vendor/pyodide
  if [ "$(cat "$dest/.installed" 2>/dev/null)" = "$PYODIDE_VERSION" ]; then
    return 0
  fi
  # npm itself, from Debian's packages, when root: ./run does not source system-deps.sh
  # (it needs neither Chromium nor PostgreSQL), yet a fresh club server should record offline
  if ! command -v npm >/dev/null 2>&1 && [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    source "$(dirname "${BASH_SOURCE[0]}")/apt.sh"
    apt_install offline-deps npm || return 1
  fi
  if ! command -v npm >/dev/null 2>&1; then
    echo "offline-deps: npm is not installed; the offline recorder needs Pyodide" \
      "$PYODIDE_VERSION from the npm registry" >&2
    return 1
  fi
  echo "offline-deps: installing Pyodide $PYODIDE_VERSION from the npm registry" >&2
  local tmp tarball got
  tmp=$(mktemp -d /tmp/chronicle-pyodide.XXXXXX)
  tarball=$(cd "$tmp" && npm pack --silent "pyodide@$PYODIDE_VERSION" 2>/dev/null | tail -n 1)
  if [ -z "$tarball" ] || [ ! -f "$tmp/$tarball" ]; then
    echo "offline-deps: npm could not fetch pyodide@$PYODIDE_VERSION" >&2
    rm -rf "$tmp"
    return 1
  fi
  got="sha512-$(python3 -c "import base64, hashlib, sys; print(base64.b64encode(hashlib.sha512(open(sys.argv[1], 'rb').read()).digest()).decode())" "$tmp/$tarball")"
  if [ "$got" != "$PYODIDE_INTEGRITY" ]; then
    echo "offline-deps: pyodide@$PYODIDE_VERSION does not match its pinned sha512" >&2
    rm -rf "$tmp"
    return 1
  fi
  tar -xzf "$tmp/$tarball" -C "$tmp"
  mkdir -p "$tmp/out"
  local f
  for f in "${PYODIDE_FILES[@]}"; do
    cp "$tmp/package/$f" "$tmp/out/$f"
  done
  # served compressed to browsers that accept gzip (all do): a club's Wi-Fi carries 6 MB
  # instead of 13 (-n: no name or time in the header, so the files are reproducible)
  for f in pyodide.asm.wasm pyodide.asm.mjs pyodide.mjs pyodide-lock.json; do
    gzip -9 -n -k "$tmp/out/$f"
  done
  echo "$PYODIDE_VERSION" > "$tmp/out/.installed"
  mkdir -p vendor
  rm -rf "$dest"
  mv "$tmp/out" "$dest"
  rm -rf "$tmp"
}

if ! offline_deps_install; then
  if [ "${1:-}" = optional ]; then
    echo "offline-deps: running without offline recording" >&2
  else
    return 1 2>/dev/null || exit 1
  fi
fi
