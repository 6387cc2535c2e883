"""Auditing a log as pure functions: the collecting fold, claims, corrections, two records.

`fold` in replay.py is the strict reader (it raises at the first illegal event); `audit_log`
here is the collecting one (python-chess keeps both readers of one format side by side):
it checks every event, re-derives digital deals from a revealed seed, compares claimed
results and returns every problem found, never raising for a rule problem.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from .chance import commitment, deal_problem, scheme_of
from .messages import N_, M, Message, Mn, Seq
from .replay import (
    META_TYPES,
    Cursor,
    Folder,
    corrections_in,
    effective_stack,
    mode_of,
    to_action,
)
from .rules import ALL, Action, GameRules, IllegalAction, seat_name, thaw

Envelope = Mapping[str, Any]
Problem = dict[str, Any]

#: the sentences of an event the fold refuses, by key: a report in words (cli/render.py)
#: says "Step 3: <reason>" without repeating the step (docs/design.md, "Sentences as data")
ILLEGAL = N_("event {seq} is illegal: {reason}")
ILLEGAL_AFTER_CORRECTIONS = N_("event {seq} is illegal after the corrections: {reason}")


def state_digest(rules: GameRules[Any], cursor: Cursor,
                 built: tuple[Any, Any] | None = None) -> str:
    """sha256 of the full view and result after an event: what the rules made of it.

    `built`: (full view, result) of this cursor when the caller has them already (the
    recorder's answer shows them), so a write builds the view once, not twice.
    """
    view, result = built if built is not None else (rules.view(cursor.state, ALL),
                                                    rules.result(cursor.state))
    text = json.dumps([view, result, [list(i) for i in cursor.invalid]], sort_keys=True,
                      default=str, check_circular=False)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def digest_key(slug: str, rules_version: str) -> str:
    """Digests are comparable only under one reducer version."""
    return f"{slug}:{rules_version}"


# -- the collecting fold -----------------------------------------------------------------
@dataclass
class AuditReport:
    """What `audit_log` found: every problem, how far the fold got, the final result."""

    problems: list[Problem] = field(default_factory=list)
    checked: int = 0
    result: dict[str, Any] | None = None
    last: Cursor | None = None
    #: the table's rulings in effect (`rulings_in`), once every event has folded
    rulings: list[dict[str, Any]] = field(default_factory=list)


def audit_log(rules: GameRules[Any], envelopes: Sequence[Envelope]) -> AuditReport:
    """Every event re-applied, every deal re-derived, claims checked (log already chained)."""
    created = envelopes[0]["data"]
    report = AuditReport()
    digital = created.get("mode") == "digital"
    seed = _revealed_seed(envelopes, created, report.problems) if digital else None
    scheme = scheme_of(created)
    folder = Folder(rules, mode_of(envelopes))
    for env in envelopes:
        before = folder.last
        try:
            folder.feed(env)
        except IllegalAction as err:
            report.problems.append({"seq": env["seq"], "code": err.code, "message": Message(
                ILLEGAL, {"seq": env["seq"], "reason": err.message})})
            return report
        except Exception:  # altered data the reducer cannot even read
            report.problems.append({"seq": env["seq"], "code": "unreadable_event",
                                    "message": M("event {seq}'s data is not the shape of a "
                                                 "{move} action", seq=env["seq"],
                                                 move=str(env.get("type")).replace("_", " "))})
            return report
        report.checked += 1
        if seed is not None and before is not None:
            problem = deal_problem(rules, scheme, before, env, seed)
            if problem:
                report.problems.append(problem)
    report.last = folder.last
    if report.last is None:
        return report
    report.result = rules.result(report.last.state)
    report.rulings = rulings_in(rules, envelopes)
    report.problems += [{"seq": seq, "code": "invalidated_by_correction",
                         "message": Message(ILLEGAL_AFTER_CORRECTIONS,
                                            {"seq": seq, "reason": message})}
                        for seq, _code, message in report.last.invalid]
    report.problems += claim_problems(envelopes, report.result, created.get("players") or [])
    if digital and seed is None and report.result is not None and not any(
            p["code"] == "seed_mismatch" for p in report.problems):
        report.problems.append({"seq": None, "code": "seed_not_revealed",
                                "message": M("a finished digital game must reveal its seed")})
    return report


def _revealed_seed(envelopes: Sequence[Envelope], created: Mapping[str, Any],
                   problems: list[Problem]) -> str | None:
    """The seed `seed_revealed` published, if it matches the commitment of `game_created`."""
    revealed = next((e for e in envelopes if e["type"] == "seed_revealed"), None)
    if revealed is None:
        return None
    data = revealed.get("data") or {}
    seed, salt, scheme = data.get("seed"), data.get("salt"), scheme_of(created)
    if scheme < 0:
        problems.append({"seq": 0, "code": "unknown_seed_scheme",
                         "message": M("the game's creation names seed scheme {scheme}, which "
                                      "chronicle does not know",
                                      scheme=json.dumps(created.get("seed_scheme")))})
        return None
    if not isinstance(seed, str) or (scheme > 1 and not isinstance(salt, str)) or \
            commitment(seed, salt, scheme) != created.get("seed_commitment"):
        problems.append({"seq": revealed["seq"], "code": "seed_mismatch",
                         "message": M("the revealed seed does not match its commitment")})
        return None
    return seed


# -- claimed results ------------------------------------------------------------------------
def claim_differences(claim: Mapping[str, Any], result: Mapping[str, Any] | None
                      ) -> list[dict[str, Any]]:
    """Each way the scores written at the table differ from the recomputed result."""
    if result is None:
        return [{"seat": None, "category": "result", "claimed": "finished",
                 "computed": M("the game is not over")}]
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


def claim_problems(envelopes: Sequence[Envelope], result: Mapping[str, Any] | None,
                   names: list[str] | tuple[str, ...] = ()) -> list[Problem]:
    """A problem for every claimed result that differs from the recomputed one."""
    problems = []
    for env in envelopes:
        if env["type"] != "claim_result":
            continue
        diffs = claim_differences(env["data"], result)
        if diffs:
            summary = _semicolons([_difference_words(d, names) for d in diffs])
            problems.append({"seq": env["seq"], "code": "claimed_result_differs",
                             "message": M("the result written at the table differs: "
                                          "{differences}", differences=summary),
                             "differences": diffs})
    return problems


def _semicolons(items: list[Message]) -> Message:
    """ "a; b; c" as one message (each part rendered in the reader's language)."""
    joined = items[0]
    for item in items[1:]:
        joined = M("{first}; {then}", first=joined, then=item)
    return joined


#: the categories of a claim that are not a game's own score categories
_CATEGORIES = {"total": M("score"), "winners": M("winners"), "result": M("result")}


def _difference_words(diff: Mapping[str, Any], names: list[str] | tuple[str, ...]
                      ) -> Message:
    category = _CATEGORIES.get(diff["category"], str(diff["category"]).replace("_", " "))
    claimed, computed = _words(diff["claimed"], names), _words(diff["computed"], names)
    if diff["seat"] is None:
        return M("{category}: claimed {claimed}, computed {computed}", category=category,
                 claimed=claimed, computed=computed)
    return M("{player}'s {category}: claimed {claimed}, computed {computed}",
             player=seat_name(names, diff["seat"]), category=category, claimed=claimed,
             computed=computed)


def _words(value: Any, names: list[str] | tuple[str, ...]) -> Any:
    if value is None:
        return M("nothing")
    if isinstance(value, list):
        return Seq(seat_name(names, v) for v in value) if value else M("nobody")
    if value == "finished":
        return M("finished")
    return value if isinstance(value, Message) else str(value)


# -- corrections -----------------------------------------------------------------------------
def correction_impact(rules: GameRules[Any], envelopes: Sequence[Envelope]) -> list[dict[str, Any]]:
    """For the last event (a correction): each later event now illegal or with changed outcome.

    Compares the effective history folded without this correction and with it, event by
    event after the corrected one.
    """
    target = envelopes[-1]["data"]["target_seq"]
    before_envs = envelopes[:-1]
    old = _fold_views(rules, before_envs, effective_stack(before_envs))
    new = _fold_views(rules, envelopes, effective_stack(envelopes))
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


def _fold_views(rules: GameRules[Any], envs: Sequence[Envelope], effective: list[int]
                ) -> dict[int, tuple[Any, str | None]]:
    """seq -> (full view plus result after it, or the refusal message)."""
    corrections = corrections_in(envs, effective)
    state = rules.initial_state(envs[0]["data"])
    out: dict[int, tuple[Any, str | None]] = {}
    for seq in effective:
        if envs[seq]["type"] == "correction":
            continue
        try:
            state = rules.apply(state, corrections.get(seq) or to_action(envs[seq]))
        except IllegalAction as err:
            out[seq] = (None, M("({code}) {reason}", code=err.code, reason=err.message))
            continue
        out[seq] = ({**rules.view(state, ALL), "result": rules.result(state)}, None)
    return out


# -- two records of one table -----------------------------------------------------------------
def effective_actions(envelopes: Sequence[Envelope]) -> list[tuple[int, dict[str, Any]]]:
    """(seq, action) of the history in effect, corrections applied."""
    effective = effective_stack(envelopes)
    fixes = corrections_in(envelopes, effective)
    out = []
    for seq in effective:
        env = envelopes[seq]
        if env["type"] in META_TYPES:
            continue
        action = fixes[seq].to_json() if seq in fixes else {
            "type": env["type"], "actor": env["actor"], "data": env["data"]}
        out.append((seq, {**action, "data": thaw(action["data"])}))
    return out


def first_difference(left: list[tuple[int, dict[str, Any]]],
                     right: list[tuple[int, dict[str, Any]]],
                     names: tuple[str, str]) -> dict[str, Any]:
    """Align two effective histories; the first action where they differ, or agreement."""
    a_name, b_name = names
    for index, ((seq_a, act_a), (seq_b, act_b)) in enumerate(zip(left, right, strict=False)):
        if act_a != act_b:
            return {"agree": False, "index": index, "a": {"seq": seq_a, "action": act_a},
                    "b": {"seq": seq_b, "action": act_b},
                    "message": M("the records differ at action {number}: {a} event "
                                 "{seq_a}, {b} event {seq_b}", number=index + 1, a=a_name,
                                 seq_a=seq_a, b=b_name, seq_b=seq_b)}
    if len(left) != len(right):
        longer, extra = (a_name, left) if len(left) > len(right) else (b_name, right)
        index = min(len(left), len(right))
        seq, action = extra[index]
        return {"agree": False, "index": index,
                "a": {"seq": seq, "action": action} if longer == a_name else None,
                "b": {"seq": seq, "action": action} if longer == b_name else None,
                "message": M("the records agree for {agreed}; {game} goes on ({more} more)",
                             agreed=Mn("{count} action", "{count} actions", index),
                             game=longer, more=len(extra) - index)}
    return {"agree": True, "index": None, "a": None, "b": None,
            "message": Mn("the records agree on the {count} action",
                          "the records agree on all {count} actions", len(left))}


# -- rulings: what the table decided outside card text ----------------------------------------
def rulings_in(rules: GameRules[Any], envelopes: Sequence[Envelope]) -> list[dict[str, Any]]:
    """Every event of the history in effect (corrections applied, undone ones left out:
    they changed nothing: engine ruling 17) that the rules call a ruling (`GameRules.ruling`,
    issue #30):
    `{"seq", "actor", "reason", "message"}` in log order, for `verify` and `reaudit` to
    count and list; the message names who ruled."""
    names = list(envelopes[0]["data"].get("players") or []) if envelopes else []
    out = []
    for seq, action in effective_actions(envelopes):
        reason = rules.ruling(Action.of(action["type"], action["actor"], action["data"]))
        if reason is None:
            continue
        who = seat_name(names, action["actor"])
        out.append({"seq": seq, "actor": action["actor"], "reason": reason, "message": M(
            "step {seq}: a ruling by {who}: {reason}", seq=seq, who=who, reason=reason)
            if reason else M("step {seq}: a ruling by {who}, with no reason given", seq=seq,
                             who=who)})
    return out


def describe_actions(rules: GameRules[Any], report: dict[str, Any], names: list[str]) -> None:
    """Add the sentence of each differing action to a `first_difference` report."""
    for side in ("a", "b"):
        entry = report.get(side)
        if entry:
            act = entry["action"]
            entry["description"] = rules.describe(Action.of(act["type"], act["actor"],
                                                             act["data"]), names)


__all__ = ["AuditReport", "audit_log", "claim_differences", "claim_problems",
           "correction_impact", "describe_actions", "digest_key", "effective_actions",
           "first_difference", "rulings_in", "state_digest"]
