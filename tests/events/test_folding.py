"""The fold's memo of cursors is bounded and never changes what a fold gives (issue #23).

A cold export of a 100,000-event game kept every cursor its nested folds made (+60 MB);
the memo now keeps the most recently used MEMO_LIMIT. The oracle of the second test is
the fold with a memo large enough never to drop anything.
"""

from __future__ import annotations

import random

from events import Recorder, folding
from events.folding import CursorMemo
from events.sqlite import SQLiteStore
from projections.replay import Cursor

from .logs import random_game


def _cursor(seq: int) -> Cursor:
    return Cursor(seq=seq, state=None, top=None)


def test_the_memo_keeps_the_most_recently_used_cursors_up_to_its_limit():
    memo = CursorMemo(limit=3)
    for seq in range(3):
        memo.put(_cursor(seq))
    assert memo.get(0) is not None  # used again: now the most recent
    memo.put(_cursor(3))
    assert len(memo) == 3
    assert memo.get(1) is None, "the least recently used went first"
    assert [memo.get(s) is not None for s in (0, 2, 3)] == [True, True, True]


def test_a_fold_with_a_tiny_memo_gives_every_step_the_fold_without_a_bound_gives(
        store, db_path, monkeypatch):
    gid = random_game(Recorder(store), random.Random(5), 160)
    last = Recorder(store).last_seq(gid)
    monkeypatch.setattr(folding, "MEMO_LIMIT", 10**9)
    steps = range(last, 0, -7)
    unbounded = [Recorder(SQLiteStore(str(db_path))).state(gid, at) for at in steps]
    monkeypatch.setattr(folding, "MEMO_LIMIT", 8)
    tiny = [Recorder(SQLiteStore(str(db_path))).state(gid, at) for at in steps]
    assert tiny == unbounded
