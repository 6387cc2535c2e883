"""The first run on a fresh machine: scripts/apt.sh waits for a busy package manager and,
when it still cannot install, fails with a sentence, never with apt's raw error.

apt-get is replaced by a stand-in on PATH that answers as the real one does when another
program holds its lock ("E: Could not get lock ...", exit 100), a set number of times, and
records how it was called; a real lock on a file of our own stands in for the one another
program holds.
"""

from __future__ import annotations

import fcntl
import os
import subprocess
from pathlib import Path

from .conftest import ROOT

LOCKED = "E: Could not get lock /var/lib/apt/lists/lock. It is held by process 4242 (apt-get)"

STAND_IN = """#!/usr/bin/env bash
echo "$*" >> "$APT_CALLS"
count=$(cat "$APT_COUNT" 2>/dev/null || echo 0)
echo $((count + 1)) > "$APT_COUNT"
if [ "$count" -lt "$APT_FAIL_TIMES" ]; then
  echo "$APT_FAIL_WITH" >&2
  exit 100
fi
echo "fine"
"""


def _install(tmp_path: Path, *, fail_times: int, fail_with: str = LOCKED, wait: int = 30,
             lock: Path | None = None) -> tuple[subprocess.CompletedProcess[str], list[str]]:
    """Run `apt_install test chromium npm` under `set -euo pipefail`, as ./test does."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir(exist_ok=True)
    apt = bin_dir / "apt-get"
    apt.write_text(STAND_IN)
    apt.chmod(0o755)
    calls = tmp_path / "calls"
    env = {**os.environ, "PATH": f"{bin_dir}:{os.environ['PATH']}",
           "APT_CALLS": str(calls), "APT_COUNT": str(tmp_path / "count"),
           "APT_FAIL_TIMES": str(fail_times), "APT_FAIL_WITH": fail_with,
           "CHRONICLE_APT_LOCK_WAIT": str(wait), "APT_RETRY_EVERY": "0.1",
           "APT_LOCK_FILES": str(lock or tmp_path / "no-lock")}
    script = (f"set -euo pipefail; source {ROOT / 'scripts' / 'apt.sh'}; "
              "apt_install test chromium npm || exit 1; echo installed")
    done = subprocess.run(["bash", "-c", script], env=env, capture_output=True, text=True,
                          timeout=60)
    return done, calls.read_text().splitlines() if calls.exists() else []


def test_a_busy_package_manager_is_waited_for_and_then_the_install_goes_on(tmp_path):
    done, calls = _install(tmp_path, fail_times=3)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "installed"
    assert [c.split()[2] for c in calls] == ["update"] * 4 + ["install"]
    assert calls[-1].endswith("install -y -qq chromium npm")
    # apt itself waits for dpkg's lock too, for as long
    assert all("-o DPkg::Lock::Timeout=30" in c for c in calls)


def test_a_lock_that_stays_taken_ends_in_a_sentence_not_in_apts_error(tmp_path):
    lock = tmp_path / "lock"
    lock.touch()
    holder = subprocess.Popen(
        ["python3", "-c", "import fcntl, sys, time; f = open(sys.argv[1], 'a'); "
         "fcntl.lockf(f, fcntl.LOCK_EX); print('held', flush=True); time.sleep(60)",
         str(lock)], stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "held"
        # 3 s, not 1: on a loaded machine the first stand-in call alone took a second
        done, calls = _install(tmp_path, fail_times=10_000, wait=3, lock=lock)
    finally:
        holder.kill()
        holder.wait()
    assert done.returncode == 1 and "installed" not in done.stdout
    assert ("test: another program is using the package manager; waiting up to 3s for it to "
            "finish (CHRONICLE_APT_LOCK_WAIT)") in done.stderr
    assert ("test: could not install chromium npm: another program kept the package manager "
            "busy for more than 3s.") in done.stderr
    assert "E: " not in done.stderr and "Could not get lock" not in done.stderr
    assert len(calls) >= 2  # it tried again before giving up


def test_a_free_lock_is_not_announced(tmp_path):
    lock = tmp_path / "lock"
    lock.touch()
    with open(lock, "a") as mine:  # a lock this process took and let go of is free
        fcntl.lockf(mine, fcntl.LOCK_EX)
        fcntl.lockf(mine, fcntl.LOCK_UN)
    done, _ = _install(tmp_path, fail_times=0, lock=lock)
    assert done.returncode == 0
    assert done.stderr.strip() == "test: installing chromium npm from Debian's packages"


def test_any_other_failure_is_one_sentence_quoting_apt(tmp_path):
    done, calls = _install(tmp_path, fail_times=10_000,
                           fail_with="E: Unable to locate package chromium")
    assert done.returncode == 1
    assert done.stderr.splitlines()[-1] == (
        "test: could not install chromium npm from Debian's packages; apt-get said: "
        "E: Unable to locate package chromium")
    assert len(calls) == 1  # not a lock: no waiting
