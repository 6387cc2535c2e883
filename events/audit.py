"""Auditing across the archive: two records compared, re-audit under today's reducers, stats.

The rules' part of each (aligning two histories, the state digest, claims, corrections) is
pure and lives in projections/audit.py; this module only reads the store. Nothing here
writes events, and nothing here imports the recorder.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from statistics import mean, median
from typing import Any, Protocol

from projections.audit import (
    describe_actions,
    digest_key,
    effective_actions,
    first_difference,
    rulings_in,
    state_digest,
)
from projections.messages import M, Seq
from projections.replay import META_TYPES, Folder
from projections.rules import GameRules, IllegalAction

from .access import Access
from .editions import Editions
from .reading import GameReader
from .store import GameFilter, ReadModel, Store

Envelope = dict[str, Any]
#: what two records of one game must share, in words
_FIELDS = {"game": M("games"), "players": M("players"), "edition_sha256": M("editions")}


# -- two recorders, one table ----------------------------------------------------------------
class Archive(Protocol):
    """What the audits read: the store, its editions, and a reader per game and caller (the
    recorder service satisfies it; this module never imports it)."""

    store: Store
    registry: Editions

    def reader(self, game_id: str, access: Access | None = None) -> GameReader: ...


def compare(archive: Archive, game_a: str, game_b: str,
            access: tuple[Access, Access] | None = None) -> dict[str, Any]:
    """Align two records of the same physical game, each as its caller may see it; name the
    first action where they differ (comparing a hidden game reveals nothing hidden)."""
    left, right = (archive.reader(game_a, access[0] if access else None),
                   archive.reader(game_b, access[1] if access else None))
    a, b = left.ctx.row, right.ctx.row
    same = {k: (a[k], b[k]) for k in ("game", "players", "edition_sha256") if a[k] != b[k]}
    if same:
        raise IllegalAction("not_the_same_game", M(
            "these records are not of the same game: their {what} differ",
            what=Seq([_FIELDS[k] for k in same])),
            differences={k: list(v) for k, v in same.items()})
    report = first_difference(effective_actions(left.envelopes()),
                              effective_actions(right.envelopes()), (a["id"], b["id"]))
    describe_actions(left.rules, report, list(a["players"]))
    return report


# -- re-audit under the current reducers -------------------------------------------------------
def rows_of(store: ReadModel, slug: str | None, page: int = 200, forks: bool = False
          ) -> list[dict[str, Any]]:
    """Every game row (of one game, or all), in pages; forks ("what if" explorations, not
    games played) only when asked."""
    out: list[dict[str, Any]] = []
    while True:
        rows, total = store.list_games(GameFilter(game=slug, limit=page, offset=len(out),
                                                  forks=None if forks else False))
        out += rows
        if not rows or len(out) >= total:
            return out


def reaudit(archive: Archive, slug: str | None = None, forks: bool = False
            ) -> list[dict[str, Any]]:
    """Replay every stored game under today's reducers; report what changed per game."""
    return [reaudit_game(archive.store, archive.registry, row)
            for row in rows_of(archive.store, slug, forks=forks)]


def reaudit_game(store: Store, editions: Editions, row: Mapping[str, Any],
                 rules: GameRules[Any] | None = None) -> dict[str, Any]:
    """One game: legality, result and the first event whose outcome differs."""
    envelopes = list(store.events(row["id"]))
    rules = rules or editions.rules_for(row)
    pinned = str(envelopes[0]["data"].get("rules_version", row.get("rules_version")))
    stored = store.digests(row["id"], digest_key(row["game"], pinned))
    folder = Folder(rules, row["mode"])
    first_illegal, first_differs = None, None
    for env in envelopes:
        try:
            cursor = folder.feed(env)
        except IllegalAction as err:
            first_illegal = {"seq": env["seq"], "code": err.code, "message": err.message}
            break
        if first_differs is None and env["seq"] in stored and \
                stored[env["seq"]] != state_digest(rules, cursor):
            first_differs = env["seq"]
    result = rules.result(folder.last.state) if folder.last and not first_illegal else None
    result_changed = first_illegal is None and result != row.get("result")
    legality_changed = first_illegal is not None
    return {
        "game_id": row["id"], "game": row["game"], "pinned_rules_version": pinned,
        "current_rules_version": rules.rules_version,
        "changed": legality_changed or result_changed or first_differs is not None,
        "legality_changed": legality_changed, "first_illegal": first_illegal,
        "result_changed": result_changed, "stored_result": row.get("result"),
        "current_result": result,
        "first_differing_seq": first_illegal["seq"] if first_illegal else first_differs,
        "rulings": [] if first_illegal else rulings_in(rules, envelopes),
    }


# -- statistics across the archive --------------------------------------------------------------
def statistics(archive: Archive, slug: str | None = None, forks: bool = False
               ) -> dict[str, Any]:
    """Games played, win rate by seat, score distributions, lengths, frequent actions."""
    per_game: dict[str, dict[str, Any]] = {}
    for row in rows_of(archive.store, slug, 500, forks=forks):
        _count_game(archive.store, row, per_game.setdefault(row["game"], _empty_stats()))
    return {"games": {name: _summarise(stats) for name, stats in sorted(per_game.items())},
            "total_games": sum(s["played"] for s in per_game.values())}


def _empty_stats() -> dict[str, Any]:
    return {"played": 0, "finished": 0, "lengths": [], "wins": Counter(), "seats": Counter(),
            "scores": [], "actions": Counter()}


def _count_game(store: Store, row: Mapping[str, Any], stats: dict[str, Any]) -> None:
    stats["played"] += 1
    envelopes = list(store.events(row["id"]))
    stats["actions"].update(e["type"] for e in envelopes if e["type"] not in META_TYPES)
    result = row.get("result")
    if not result:
        return
    stats["finished"] += 1
    stats["lengths"].append(len(effective_actions(envelopes)))
    for seat in range(len(row["players"])):
        stats["seats"][seat] += 1
    for seat in result.get("winners", []):
        stats["wins"][seat] += 1
    stats["scores"].extend(s for s in result.get("scores", []) if isinstance(s, int | float))


def _summarise(stats: dict[str, Any]) -> dict[str, Any]:
    scores = stats["scores"]
    return {
        "played": stats["played"], "finished": stats["finished"],
        "average_length": round(mean(stats["lengths"]), 1) if stats["lengths"] else None,
        "win_rate_by_seat": {str(seat): round(stats["wins"][seat] / n, 3)
                             for seat, n in sorted(stats["seats"].items())},
        "scores": {"min": min(scores), "median": median(scores), "max": max(scores),
                   "histogram": _histogram(scores)} if scores else None,
        "most_frequent_actions": stats["actions"].most_common(8),
    }


def _histogram(values: list[float], bins: int = 8) -> list[dict[str, Any]]:
    """Equal-width bins over [min, max]. Whole-number scores (every game's) get whole-number
    bins, `to` included ("14 to 15"), never "14.2 to 15.5", which no score can be; the web's
    chart bins the same way (api/static/stats.js)."""
    if all(float(v).is_integer() for v in values):
        lo, hi = int(min(values)), int(max(values))
        step = max(1, -(-(hi - lo + 1) // bins))  # ceil
        whole = Counter((int(v) - lo) // step for v in values)
        return [{"from": lo + i * step, "to": min(hi, lo + (i + 1) * step - 1), "count": whole[i]}
                for i in range((hi - lo) // step + 1)]
    low, high = min(values), max(values)
    width = max(1.0, (high - low) / bins)
    counts = Counter(min(bins - 1, int((v - low) / width)) for v in values)
    return [{"from": round(low + i * width, 1), "to": round(low + (i + 1) * width, 1),
             "count": counts[i]} for i in range(bins) if low + i * width <= high]


__all__ = ["compare", "reaudit", "reaudit_game", "rows_of", "statistics"]
