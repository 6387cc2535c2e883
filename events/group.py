"""Group commit: the appends waiting on one database file at a moment share one commit.

SQLite commits one transaction at a time per file, and with `synchronous = FULL` each
commit waits for the disk. Threads of one process that append while a commit is under way
queue here; when it returns, the first of them leads: it takes every append waiting at
that moment and runs them in one transaction on its own connection (each in a SAVEPOINT
of its own, with its own seq check, so one refused append is rolled back alone), commits
once, and only then answers each of them. So an acknowledgement still follows the fsync
that covers it, and N waiting appends cost one fsync instead of N.

There is no writer thread to start or stop: the leader is always a caller, so a lone
writer commits at once, exactly as without a queue. Across processes (gunicorn workers)
SQLite's own lock serializes the batches.
"""

from __future__ import annotations

import os
import threading
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

#: appends one transaction takes at most (a bound on the latency of the last of them)
MAX_BATCH = 64


@dataclass(eq=False)
class Pending:
    """One append waiting for its batch: the work to run in the transaction, then the
    outcome its caller gets (a result or the exception to raise)."""

    work: Callable[..., Any]
    result: Any = None
    error: BaseException | None = None
    done: bool = field(default=False)

    def outcome(self) -> Any:
        if self.error is not None:
            raise self.error
        return self.result


#: commits a batch: sets each Pending's result or error, never raises for one of them
Committer = Callable[[Sequence[Pending]], None]


class GroupCommit:
    """The queue of appends to one database file in this process."""

    def __init__(self) -> None:
        self._cond = threading.Condition(threading.Lock())
        self._queue: deque[Pending] = deque()
        self._busy = False
        #: transactions committed and appends answered, for tests and measurements
        self.batches = 0
        self.appends = 0

    def submit(self, work: Callable[..., Any], commit: Committer) -> Any:
        """Run `work` in the next batch; returns its result after the batch committed
        (raises its error), leading the batch with `commit` if nobody else is."""
        me = Pending(work)
        with self._cond:
            self._queue.append(me)
            self._wait_for_turn(me)
            if me.done:
                return me.outcome()
            self._busy = True
            batch = [self._queue.popleft() for _ in range(min(MAX_BATCH, len(self._queue)))]
        try:
            commit(batch)
        except BaseException as err:  # the committer failed as a whole: nobody is stored
            for pending in batch:
                if pending.error is None:
                    pending.error = err
        finally:
            with self._cond:
                self._busy = False
                self.batches += 1
                self.appends += len(batch)
                for pending in batch:
                    pending.done = True
                self._cond.notify_all()
        return me.outcome()

    def _wait_for_turn(self, me: Pending) -> None:
        """Wait (holding the condition) until `me` is answered or leads. A caller whose
        wait is interrupted (a worker's timeout, a signal) withdraws its append if no
        leader has taken it yet, and wakes the others: left at the head of the queue it
        would block every later append to the file. One a leader already took is stored
        and unanswered, as when a client's connection drops after the commit."""
        try:
            while not me.done and (self._busy or self._queue[0] is not me):
                self._cond.wait()
        except BaseException:
            if not me.done and me in self._queue:
                self._queue.remove(me)
                self._cond.notify_all()
            raise


_GROUPS: dict[tuple[int, str], GroupCommit] = {}
_GROUPS_GUARD = threading.Lock()


def group_for(path: str) -> GroupCommit:
    """The one queue of this process for the database file at `path` (a forked worker
    gets its own: the pid is part of the key)."""
    key = (os.getpid(), os.path.realpath(path))
    with _GROUPS_GUARD:
        found = _GROUPS.get(key)
        if found is None:
            found = _GROUPS[key] = GroupCommit()
        return found
