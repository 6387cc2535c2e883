# Sourced by ./test: system packages for the browser and PostgreSQL tests.
# Skips what is already there; without root it only uses what it finds.
need=()
[ -x /usr/bin/chromium ] || need+=(chromium)
# npm fetches Pyodide for the offline recorder (scripts/offline-deps.sh, which also installs
# it for ./run; asked for here too so a fresh machine runs apt-get once)
command -v npm >/dev/null 2>&1 || need+=(npm)
# the server binaries (initdb, pg_ctl) for scripts/pg-cluster.sh's throwaway cluster
ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || need+=(postgresql)
if [ ${#need[@]} -gt 0 ] && [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
  echo "installing ${need[*]} from Debian's packages" >&2
  apt-get update -qq >/dev/null && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need[@]}" >/dev/null
fi
