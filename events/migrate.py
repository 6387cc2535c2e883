"""Copy every game from one store to another (SQLite -> PostgreSQL when a club outgrows one
machine, or back): editions first, then each game whole, its chain verified before it is
committed. Idempotent: a game already present in the target is skipped, so an interrupted
copy is resumed by running it again.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

from .errors import Conflict
from .model import Envelope, chain_problems
from .store import GameFilter, ReadModel, Store

PAGE = 500


@dataclass(slots=True)
class CopyReport:
    """What a copy did: ids copied, skipped (already there) and refused (with the reason)."""

    copied: list[str] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)
    refused: dict[str, str] = field(default_factory=dict)
    editions: int = 0
    events: int = 0

    @property
    def ok(self) -> bool:
        return not self.refused


def game_ids(store: ReadModel) -> Iterator[str]:
    """Every game id of a store, oldest first, page by page."""
    _, total = store.list_games(GameFilter(limit=1))
    ids: list[str] = []
    for offset in range(0, total, PAGE):
        rows, _ = store.list_games(GameFilter(limit=PAGE, offset=offset))
        ids.extend(r["id"] for r in rows)
    yield from reversed(dict.fromkeys(ids))


Audit = Callable[[list[Envelope]], dict[str, Any]]


def copy_games(source: Store, target: Store,
               progress: Callable[[str, str], None] | None = None,
               audit: Audit | None = None) -> CopyReport:
    """Copy editions and games; `progress(game_id, outcome)` after each game.

    Every game's hash chain is checked before it is written; with `audit` (for example
    `Recorder(source).verify_envelopes`) every move is re-applied by the rules as well.
    """
    report = CopyReport()
    for row in source.editions():
        edition = source.edition(row["sha256"])
        if edition is not None and target.edition(row["sha256"]) is None:
            target.put_edition(edition["slug"], edition["name"], edition["sha256"],
                               edition["content"])
            report.editions += 1
    for game_id in game_ids(source):
        outcome = copy_game(source, target, game_id, report, audit)
        if progress is not None:
            progress(game_id, outcome)
    return report


def copy_game(source: Store, target: Store, game_id: str, report: CopyReport,
              audit: Audit | None = None) -> str:
    """Copy one game in one transaction of the target; "copied", "skipped" or "refused"."""
    if target.game(game_id) is not None:
        report.skipped.append(game_id)
        return "skipped"
    row = source.game(game_id)
    envelopes = list(source.events(game_id))
    problems = chain_problems(envelopes)
    if row is None or not envelopes:
        problems.append({"message": "the game has no events"})
    elif not problems and audit is not None:
        problems = audit(envelopes)["problems"]
    if problems:
        report.refused[game_id] = problems[0]["message"]
        return "refused"
    assert row is not None
    game: dict[str, Any] = dict(row)
    if game.get("result") is not None:
        game["result"] = json.dumps(game["result"], ensure_ascii=False)
    try:
        target.import_game(game, envelopes, source.tokens(game_id), source.seed(game_id),
                           source.salt(game_id))
    except Conflict:  # another copy got there first
        report.skipped.append(game_id)
        return "skipped"
    report.copied.append(game_id)
    report.events += len(envelopes)
    return "copied"
