# Sourced by ./test: system packages for the browser and PostgreSQL tests.
# Skips what is already there; without root it only uses what it finds. A busy package
# manager is waited for (scripts/apt.sh); what cannot be installed stops ./test, saying why.
need=()
[ -x /usr/bin/chromium ] || need+=(chromium)
# a font with Han characters: the zh-Hans pages and scripts/screenshots.py draw boxes without
# one (WenQuanYi Micro Hei, 5 MB; the Noto CJK fonts are 90 MB)
[ -e /usr/share/fonts/truetype/wqy/wqy-microhei.ttc ] || need+=(fonts-wqy-microhei)
# npm fetches Pyodide for the offline recorder (scripts/offline-deps.sh, which also installs
# it for ./run; asked for here too so a fresh machine runs apt-get once)
command -v npm >/dev/null 2>&1 || need+=(npm)
# the server binaries (initdb, pg_ctl) for scripts/pg-cluster.sh's throwaway cluster
ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || need+=(postgresql)
if [ ${#need[@]} -gt 0 ] && [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
  source "$(dirname "${BASH_SOURCE[0]}")/apt.sh"
  apt_install system-deps "${need[@]}" || return 1 2>/dev/null || exit 1
fi
