"""Auditing beyond replay: corrections' impact, two records compared, re-audit, claims, stats.

Everything here reads the log through the recorder and the store; nothing writes events.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from statistics import mean, median
from typing import Any

from projections import get_rules
from projections.replay import META_TYPES, Folder, effective_stack, refold, to_action
from projections.rules import ALL, Action, GameRules, IllegalAction, thaw

from .recorder import Recorder, state_digest
from .store import GameFilter

Envelope = dict[str, Any]


# -- claimed results ------------------------------------------------------------------------
def claim_differences(claim: Mapping[str, Any], result: Mapping[str, Any] | None
                      ) -> list[dict[str, Any]]:
    """Each way the scores written at the table differ from the recomputed result."""
    if result is None:
        return [{"seat": None, "category": "result", "claimed": "finished",
                 "computed": "the game is not over"}]
    diffs: list[dict[str, Any]] = []
    for seat, claimed in enumerate(claim.get("scores") or []):
        computed = result["scores"][seat] if seat < len(result["scores"]) else None
        if claimed is not None and claimed != computed:
            diffs.append({"seat": seat, "category": "total", "claimed": claimed,
                          "computed": computed})
    per_seat = _per_seat(result)
    for seat, categories in enumerate(claim.get("per_seat") or []):
        for category, claimed in sorted((categories or {}).items()):
            computed = per_seat[seat].get(category) if seat < len(per_seat) else None
            if claimed != computed:
                diffs.append({"seat": seat, "category": category, "claimed": claimed,
                              "computed": computed})
    winners = claim.get("winners")
    if winners is not None and sorted(winners) != sorted(result["winners"]):
        diffs.append({"seat": None, "category": "winners", "claimed": winners,
                      "computed": result["winners"]})
    return diffs


def _per_seat(result: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The result's breakdown as one mapping of categories per seat."""
    breakdown = result.get("breakdown") or {}
    if isinstance(breakdown.get("per_seat"), list):
        return [dict(x) if isinstance(x, Mapping) else {} for x in breakdown["per_seat"]]
    if len(result["scores"]) == 1:  # one-seat games report their categories flat
        return [{k: v for k, v in breakdown.items() if isinstance(v, int | float)}]
    return [{} for _ in result["scores"]]


def claim_problems(envelopes: list[Envelope], result: Mapping[str, Any] | None
                   ) -> list[dict[str, Any]]:
    problems = []
    for env in envelopes:
        if env["type"] != "claim_result":
            continue
        diffs = claim_differences(env["data"], result)
        if diffs:
            summary = "; ".join(
                f"{'seat ' + str(d['seat']) + ' ' if d['seat'] is not None else ''}"
                f"{d['category']}: claimed {d['claimed']}, computed {d['computed']}"
                for d in diffs)
            problems.append({"seq": env["seq"], "code": "claimed_result_differs",
                             "message": f"the result written at the table differs: {summary}",
                             "differences": diffs})
    return problems


# -- corrections -----------------------------------------------------------------------------
def correction_impact(rules: GameRules, envelopes: list[Envelope]) -> list[dict[str, Any]]:
    """For the last event (a correction): each later event now illegal or with changed outcome.

    Compares the effective history folded without this correction and with it, event by
    event after the corrected one.
    """
    last = envelopes[-1]
    target = last["data"]["target_seq"]
    before_envs = envelopes[:-1]
    old_effective = effective_stack(before_envs)
    old = _fold_views(rules, before_envs, old_effective, _corrections(before_envs, old_effective))
    new_effective = effective_stack(envelopes)
    new = _fold_views(rules, envelopes, new_effective, _corrections(envelopes, new_effective))
    report = []
    for seq in sorted(set(old) | set(new)):
        if seq <= target:
            continue
        (old_view, _), (new_view, new_error) = old.get(seq, (None, None)), new.get(
            seq, (None, None))
        if new_error:
            report.append({"seq": seq, "status": "illegal", "message": new_error})
        elif old_view != new_view:
            changed = sorted(k for k in set(old_view or {}) | set(new_view or {})
                             if (old_view or {}).get(k) != (new_view or {}).get(k))
            report.append({"seq": seq, "status": "changed", "changed": changed})
    return report


def _corrections(envs: list[Envelope], effective: list[int]) -> dict[int, Action]:
    out: dict[int, Action] = {}
    for seq in effective:
        if envs[seq]["type"] == "correction":
            data = envs[seq]["data"]
            action = data["action"]
            out[data["target_seq"]] = Action.of(action["type"], action["actor"],
                                                action.get("data") or {}, data["target_seq"])
    return out


def _fold_views(rules: GameRules, envs: list[Envelope], effective: list[int],
                corrections: Mapping[int, Action]) -> dict[int, tuple[Any, str | None]]:
    """seq -> (full view plus result after it, or the refusal message)."""
    state = rules.initial_state(envs[0]["data"])
    out: dict[int, tuple[Any, str | None]] = {}
    for seq in effective:
        if envs[seq]["type"] == "correction":
            continue
        try:
            state = rules.apply(state, corrections.get(seq) or to_action(envs[seq]))
        except IllegalAction as err:
            out[seq] = (None, f"({err.code}) {err.message}")
            continue
        out[seq] = ({**rules.view(state, ALL), "result": rules.result(state)}, None)
    return out


# -- two recorders, one table ----------------------------------------------------------------
def effective_actions(envelopes: list[Envelope]) -> list[tuple[int, dict[str, Any]]]:
    """(seq, action) of the history in effect, corrections applied."""
    effective = effective_stack(envelopes)
    fixes = _corrections(envelopes, effective)
    out = []
    for seq in effective:
        env = envelopes[seq]
        if env["type"] in META_TYPES:
            continue
        action = fixes[seq].to_json() if seq in fixes else {
            "type": env["type"], "actor": env["actor"], "data": env["data"]}
        out.append((seq, {**action, "data": thaw(action["data"])}))
    return out


def compare(rec: Recorder, game_a: str, game_b: str) -> dict[str, Any]:
    """Align two records of the same physical game; name the first event where they differ."""
    a, b = rec.game(game_a), rec.game(game_b)
    same = {k: (a[k], b[k]) for k in ("game", "players", "edition_sha256") if a[k] != b[k]}
    if same:
        raise IllegalAction("not_the_same_game", "these records are not of the same game: "
                            + "; ".join(f"{k} {x!r} vs {y!r}" for k, (x, y) in same.items()),
                            differences={k: list(v) for k, v in same.items()})
    left = effective_actions(list(rec.store.events(game_a)))
    right = effective_actions(list(rec.store.events(game_b)))
    for index, ((seq_a, act_a), (seq_b, act_b)) in enumerate(zip(left, right, strict=False)):
        if act_a != act_b:
            return {"agree": False, "index": index, "a": {"seq": seq_a, "action": act_a},
                    "b": {"seq": seq_b, "action": act_b},
                    "message": f"the records differ at action {index + 1}: "
                               f"{game_a} seq {seq_a} vs {game_b} seq {seq_b}"}
    if len(left) != len(right):
        longer, extra = (game_a, left) if len(left) > len(right) else (game_b, right)
        index = min(len(left), len(right))
        seq, action = extra[index]
        return {"agree": False, "index": index,
                "a": {"seq": seq, "action": action} if longer == game_a else None,
                "b": {"seq": seq, "action": action} if longer == game_b else None,
                "message": f"the records agree for {index} actions; {longer} goes on "
                           f"({len(extra) - index} more)"}
    return {"agree": True, "index": None, "a": None, "b": None,
            "message": f"the records agree on all {len(left)} actions"}


# -- re-audit under the current reducers -------------------------------------------------------
def reaudit(rec: Recorder, slug: str | None = None) -> list[dict[str, Any]]:
    """Replay every stored game under today's reducers; report what changed per game."""
    reports = []
    offset = 0
    while True:
        rows, total = rec.list_games(GameFilter(game=slug, limit=200, offset=offset))
        for row in rows:
            reports.append(reaudit_game(rec, row))
        offset += len(rows)
        if not rows or offset >= total:
            return reports


def reaudit_game(rec: Recorder, row: Mapping[str, Any],
                 rules: GameRules | None = None) -> dict[str, Any]:
    """One game: legality, result and the first event whose outcome differs."""
    envelopes = list(rec.store.events(row["id"]))
    edition = rec.store.edition(row["edition_sha256"])
    if rules is None:
        rules = get_rules(row["game"], __import__("json").loads(edition["content"])) \
            if edition else rec.rules_for(row)
    pinned = str(envelopes[0]["data"].get("rules_version", row.get("rules_version")))
    stored = rec.store.digests(row["id"], f"{row['game']}:{pinned}")
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
    }


# -- statistics across the archive --------------------------------------------------------------
def statistics(rec: Recorder, slug: str | None = None) -> dict[str, Any]:
    """Games played, win rate by seat, score distributions, lengths, frequent actions."""
    per_game: dict[str, dict[str, Any]] = {}
    offset = 0
    while True:
        rows, total = rec.list_games(GameFilter(game=slug, limit=500, offset=offset))
        for row in rows:
            _count_game(rec, row, per_game.setdefault(row["game"], _empty_stats()))
        offset += len(rows)
        if not rows or offset >= total:
            break
    return {"games": {name: _summarise(stats) for name, stats in sorted(per_game.items())},
            "total_games": sum(s["played"] for s in per_game.values())}


def _empty_stats() -> dict[str, Any]:
    return {"played": 0, "finished": 0, "lengths": [], "wins": Counter(), "seats": Counter(),
            "scores": [], "actions": Counter()}


def _count_game(rec: Recorder, row: Mapping[str, Any], stats: dict[str, Any]) -> None:
    stats["played"] += 1
    envelopes = list(rec.store.events(row["id"]))
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
    low, high = min(values), max(values)
    width = max(1.0, (high - low) / bins)
    counts = Counter(min(bins - 1, int((v - low) / width)) for v in values)
    return [{"from": round(low + i * width, 1), "to": round(low + (i + 1) * width, 1),
             "count": counts[i]} for i in range(bins) if low + i * width <= high]


__all__ = ["claim_differences", "claim_problems", "compare", "correction_impact",
           "effective_actions", "reaudit", "refold", "statistics"]
