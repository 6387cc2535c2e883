# Sourced by scripts/system-deps.sh and scripts/offline-deps.sh: one way to install Debian
# packages on a fresh machine. On a machine that has just booted, another program (the
# first-boot setup, unattended-upgrades, another ./test) often holds the package manager's
# lock for a minute or two; apt-get alone then fails at once with its raw "Could not get
# lock" and exit 100. apt_install waits for the lock instead, says so, and when it still
# cannot install says why in a sentence.
#
# CHRONICLE_APT_LOCK_WAIT: seconds to wait for a busy package manager (default 300).
# APT_LOCK_FILES: the locks that are looked at to say whose turn it is (tests point it
# elsewhere; apt itself always uses its own); APT_RETRY_EVERY: seconds between tries of a
# locked `update` (default 5).

APT_LOCK_WAIT="${CHRONICLE_APT_LOCK_WAIT:-300}"
APT_LOCK_FILES="${APT_LOCK_FILES:-/var/lib/dpkg/lock-frontend /var/lib/dpkg/lock /var/lib/apt/lists/lock}"

# Exit 0 when some other process holds one of the package manager's locks now.
apt_lock_busy() {
  python3 - $APT_LOCK_FILES <<'PY' 2>/dev/null
import fcntl, sys
for path in sys.argv[1:]:
    try:
        with open(path, "a") as f:
            fcntl.lockf(f, fcntl.LOCK_EX | fcntl.LOCK_NB)  # released when closed
    except BlockingIOError:
        sys.exit(0)
    except OSError:
        continue
sys.exit(1)
PY
}

# apt_run LOG ARGS...: apt-get ARGS, waiting up to APT_LOCK_WAIT seconds for the lock (apt
# waits itself for dpkg's lock; the lists lock of `update` is retried here). Output in LOG.
apt_run() {
  local log=$1; shift
  local deadline=$((SECONDS + APT_LOCK_WAIT))
  while true; do
    if DEBIAN_FRONTEND=noninteractive apt-get -o "DPkg::Lock::Timeout=$APT_LOCK_WAIT" \
        "$@" >"$log" 2>&1; then
      return 0
    fi
    if ! grep -qiE "could not get lock|unable to lock|unable to acquire" "$log" \
        || [ "$SECONDS" -ge "$deadline" ]; then
      return 1
    fi
    sleep "${APT_RETRY_EVERY:-5}"
  done
}

# apt_install WHO PACKAGE...: install the packages, saying on stderr what it does and waits
# for; on failure, one sentence on stderr (apt's own last words after it) and status 1.
apt_install() {
  local who=$1; shift
  local log status=0
  log=$(mktemp /tmp/chronicle-apt.XXXXXX)
  echo "$who: installing $* from Debian's packages" >&2
  if apt_lock_busy; then
    echo "$who: another program is using the package manager; waiting up to" \
      "${APT_LOCK_WAIT}s for it to finish (CHRONICLE_APT_LOCK_WAIT)" >&2
  fi
  if ! apt_run "$log" update -qq || ! apt_run "$log" install -y -qq "$@"; then
    status=1
    if grep -qiE "could not get lock|unable to lock|unable to acquire" "$log"; then
      echo "$who: could not install $*: another program kept the package manager busy" \
        "for more than ${APT_LOCK_WAIT}s. Run this again when it has finished, or install" \
        "them yourself (apt-get install $*)." >&2
    else
      local said
      said=$(grep -E '^E:' "$log" | head -n 1) || true
      [ -n "$said" ] || said=$(tail -n 1 "$log")
      echo "$who: could not install $* from Debian's packages; apt-get said: $said" >&2
    fi
  fi
  rm -f "$log"
  return "$status"
}
