"""Auditing an archive on every core (issue #34): `verify` and `reaudit` over many games
in worker processes.

Each worker opens its own connection to the store by its URL (a SQLite file or a
PostgreSQL server) and audits a share of the games; answers come back in the order the
games were asked for, so a report is the same with one process or eight. Reads only:
a worker writes nothing (docs/design.md, "Stores": reads never write). One process (`jobs=1`)
runs in this process, without a pool.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from .audit import reaudit_game, rows_of
from .editions import Editions
from .opening import open_store

#: the most games in one task: a task outlasts its scheduling, and the last one does not
#: leave the other workers idle for long
GAMES_PER_TASK = 64


def default_jobs() -> int:
    """The cores this process may run on."""
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else \
        (os.cpu_count() or 1)


def _reaudit_share(db: str, rows: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    store = open_store(db)
    try:
        editions = Editions(store)
        return [reaudit_game(store, editions, row) for row in rows]
    finally:
        store.close()


#: one share's work in a worker: (the store's URL, its items) -> a report per item; a
#: module-level function, so a worker process can be handed it
Work = Callable[[str, Sequence[Any]], list[dict[str, Any]]]


def in_shares(work: Work, db: str, items: Sequence[Any], jobs: int) -> list[dict[str, Any]]:
    """`work` over `items` in shares, on `jobs` processes; the reports in the items' order
    (the facade's verify_games hands it its Recorder's share: this module cannot import
    the facade, which re-exports it)."""
    if jobs <= 1 or len(items) <= 1:
        return work(db, items)
    size = max(1, min(GAMES_PER_TASK, -(-len(items) // (jobs * 4))))
    shares = [items[i:i + size] for i in range(0, len(items), size)]
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        done = pool.map(work, [db] * len(shares), shares)
        return [report for share in done for report in share]


def stored_ids(db: str, slug: str | None = None) -> list[str]:
    """Every stored game's id (of one game, or all), forks left out."""
    store = open_store(db)
    try:
        return [row["id"] for row in rows_of(store, slug)]
    finally:
        store.close()


def reaudit_games(db: str, slug: str | None = None, jobs: int = 1) -> list[dict[str, Any]]:
    """`events.audit.reaudit` of every stored game (of one game, or all), on `jobs`
    processes: each game replayed under today's reducers, what changed."""
    store = open_store(db)
    try:
        rows = rows_of(store, slug)
    finally:
        store.close()
    return in_shares(_reaudit_share, db, rows, jobs)


__all__ = ["default_jobs", "in_shares", "reaudit_games", "stored_ids"]
