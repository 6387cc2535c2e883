"""The writers of every process queue on one flock beside a SQLite file (issue #34:
gunicorn's workers are processes; SQLite's busy handler alone made them sleep and poll)."""

from __future__ import annotations

import fcntl
import os
import subprocess
import sys

from events import open_store
from events.sqlite import WRITER_SUFFIX

#: a second process asks for the lock without waiting: exit 0 if it got it, 3 if held
PROBE = """
import fcntl, os, sys
fd = os.open(sys.argv[1], os.O_RDWR | os.O_CREAT)
try:
    fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
except BlockingIOError:
    sys.exit(3)
sys.exit(0)
"""


def _other_process_gets_it(path: str) -> bool:
    done = subprocess.run([sys.executable, "-c", PROBE, path], timeout=60)
    assert done.returncode in (0, 3), done
    return done.returncode == 0


def test_a_write_holds_the_lock_of_every_process_and_lets_go_after(tmp_path):
    db = str(tmp_path / "chronicle.db")
    store = open_store(db)
    seen: list[bool] = []
    try:
        # a write's work runs inside the transaction: another process is kept out then
        store._transaction(lambda run: seen.append(_other_process_gets_it(db + WRITER_SUFFIX)))
        assert seen == [False]
        assert _other_process_gets_it(db + WRITER_SUFFIX)  # and let in once it committed
    finally:
        store.close()


def test_a_forked_child_takes_its_own_lock_not_its_parents(tmp_path):
    """A child sharing its parent's open file would share its flock, and the two would
    not exclude each other: the child reopens the file."""
    db = str(tmp_path / "chronicle.db")
    store = open_store(db)
    locked, release = os.pipe(), os.pipe()
    try:
        store._transaction(lambda run: None)  # the parent has opened the lock file
        parents = store._processes._fd
        pid = os.fork()
        if pid == 0:  # the child holds the lock until the parent has looked
            try:
                def hold(run):
                    os.write(locked[1], b"x")
                    os.read(release[0], 1)
                store._transaction(hold)
            finally:
                os._exit(0)
        os.read(locked[0], 1)
        try:
            # the parent's own open file: refused while the child holds the lock
            fcntl.flock(parents, fcntl.LOCK_EX | fcntl.LOCK_NB)
            shared = True
            fcntl.flock(parents, fcntl.LOCK_UN)
        except BlockingIOError:
            shared = False
        os.write(release[1], b"x")
        os.waitpid(pid, 0)
        assert not shared
    finally:
        store.close()
