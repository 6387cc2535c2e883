"""Hostile actions through the recorder, for every registered game (projections.GAMES).

Hypothesis cuts a random legal playout at a random step, imports that prefix as a new
game, takes a legal action there and breaks it: a wrong actor, a missing, extra or
mutated field, an unknown id, a wrong type, a huge number, unicode edge cases, a wrong
shape. Each must be refused with IllegalAction or InvalidEvent (never another exception)
and leave the state and the log exactly as they were; the rare mutation that happens to
be legal must verify once stored. New games are covered as soon as they are registered.
"""

from __future__ import annotations

import random
import uuid
from functools import lru_cache
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from events import IllegalAction, InvalidEvent, Recorder
from events.memory import MemoryStore
from projections import GAMES, get_rules
from projections.playout import created_for, play
from projections.rules import ALL, Action, Dealer, thaw

from .conftest import FULL, count, import_prefix, size

CASES = [(slug, cls.player_counts[0]) for slug, cls in sorted(GAMES.items())]
EXAMPLES = size(150, 2000)

WEIRD_TEXT = ["", "\x00", "card\x00id", "\u202eright-to-left", "\ud800", "\udfff",
              "é" * 3, "🂡", "x" * 10_000, " ", "null", "0", "-1", "__proto__", "../../etc"]
hostile_scalar = st.one_of(
    st.sampled_from(WEIRD_TEXT),
    st.sampled_from([None, True, False, 0, -1, 1.5, 2**53 + 1, 2**63, -(2**63) - 1, 10**30,
                     10**400, float("nan"), float("inf"), float("-inf")]),
    st.text(max_size=12),
    st.integers(),
)
hostile_value = st.recursive(
    hostile_scalar,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner,
                                                                max_size=3),
    max_leaves=8,
)
mutation = st.one_of(
    st.tuples(st.just("actor"), st.one_of(st.integers(-3, 70), hostile_scalar,
                                           st.sampled_from(["table", "server", "all"]))),
    st.tuples(st.just("drop"), st.integers(0, 20)),
    st.tuples(st.just("extra"), st.tuples(st.text(min_size=1, max_size=8), hostile_value)),
    st.tuples(st.just("field"), st.tuples(st.integers(0, 20), hostile_value)),
    st.tuples(st.just("element"), st.tuples(st.integers(0, 20), st.integers(0, 50),
                                            hostile_value)),
    st.tuples(st.just("unknown_id"), st.tuples(st.integers(0, 20),
                                               st.sampled_from(["no_such_card", "x", "ACE",
                                                                "ace_suns ", "7"]))),
    st.tuples(st.just("duplicate"), st.integers(0, 20)),
    st.tuples(st.just("type"), st.one_of(st.sampled_from(
        ["no_such_action", "game_created", "seed_revealed", "Setup", "undo", "redo",
         "claim_result", "a" * 65, ""]), hostile_scalar)),
    st.tuples(st.just("data"), hostile_scalar),
    st.tuples(st.just("whole"), hostile_value),
    st.tuples(st.just("drop_key"), st.sampled_from(["type", "actor", "data"])),
)


@lru_cache(maxsize=256)
def _playout(slug: str, players: int, seed: int, mode: str = "table"):
    """A random game played in the mode it is imported in: digital play waits for answers
    a table never records (Thrones ruling 35), so one mode's moves are not the other's."""
    rules = get_rules(slug)
    rng = random.Random(seed)
    return play(rules, created_for(rules, players, mode=mode), rng.randrange,
                f"hostile-{seed}", max_steps=400)


def _base_action(rules, state, game, fallback: Action | None) -> dict[str, Any]:
    """A legal action now, its chance filled as a recorder at the table would type it."""
    options = rules.legal_actions(state, None)
    auto = rules.auto_action(state)
    proposal = auto or (options[0] if options else None)
    if proposal is None:
        return fallback.to_json() if fallback else {"type": "abandon", "actor": 0, "data": {}}
    action = Action.of(proposal["type"], proposal["actor"], proposal.get("data") or {})
    if game["mode"] == "table" and rules.chance_fields.get(action.type):
        return {**action.to_json(), "data": thaw(rules.fill_chance(state, action,
                                                                   Dealer("base", 1)))}
    return action.to_json()


def _pick(mapping: dict[str, Any], index: int) -> str | None:
    keys = sorted(mapping)
    return keys[index % len(keys)] if keys else None


def _mutate(action: dict[str, Any], how: tuple[str, Any]) -> Any:
    kind, arg = how
    out = {**action, "data": dict(action["data"])}
    data = out["data"]
    if kind == "actor":
        out["actor"] = arg
    elif kind == "drop" and _pick(data, arg):
        del data[_pick(data, arg)]
    elif kind == "extra":
        data[arg[0]] = arg[1]
    elif kind == "field" and _pick(data, arg[0]):
        data[_pick(data, arg[0])] = arg[1]
    elif kind in ("element", "unknown_id", "duplicate"):
        lists = {k: v for k, v in data.items() if isinstance(v, list)}
        strings = {k: v for k, v in data.items() if isinstance(v, str)}
        index = arg if kind == "duplicate" else arg[0]
        key = _pick(lists, index)
        if kind == "duplicate" and key and lists[key]:
            data[key] = [*lists[key], lists[key][0]]
        elif kind == "element" and key:
            items = list(lists[key]) or [None]
            items[arg[1] % len(items)] = arg[2]
            data[key] = items
        elif kind == "unknown_id":
            if key:
                data[key] = [*lists[key], arg[1]]
            elif _pick(strings, index):
                data[_pick(strings, index)] = arg[1]
    elif kind == "type":
        out["type"] = arg
    elif kind == "data":
        out["data"] = arg
    elif kind == "whole":
        return arg
    elif kind == "drop_key":
        del out[arg]
    return out


class Table:
    """One memory store for all examples of a test (the rules are judged here, not the
    storage: tests/events/test_store.py holds the memory store to the same contract as
    SQLite); each example is a new game."""

    store: MemoryStore | None = None

    @classmethod
    def recorder(cls) -> Recorder:
        if cls.store is None:
            cls.store = MemoryStore()
        return Recorder(cls.store)


def _snapshot(rec: Recorder, game_id: str) -> tuple[Any, ...]:
    events = list(rec.store.events(game_id))
    return (len(events), events[-1]["hash"], rec.state(game_id)["view"])


@pytest.mark.parametrize(("slug", "players"), CASES)
@settings(max_examples=EXAMPLES, deadline=None, derandomize=not FULL,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(seed=st.integers(0, 30), cut=st.floats(0, 1), mode=st.sampled_from(["table", "digital"]),
       how=mutation)
def test_a_hostile_action_is_refused_cleanly_and_changes_nothing(slug, players, seed, cut,
                                                                  mode, how):
    rec = Table.recorder()
    game = _playout(slug, players, seed, mode)
    k = round(cut * len(game.actions))
    if mode == "digital" and k == len(game.actions) and k:
        k -= 1  # a finished digital game must reveal a seed; a cut never has one
    created = rec.create_game({"game": slug, "players": list(game.created["players"]),
                               "mode": "table"}).events[0]
    envelopes = [{**created, "data": {**created["data"], "mode": mode}}]
    envelopes += [{"seq": i + 1, **a.to_json()} for i, a in enumerate(game.actions[:k])]
    gid = import_prefix(rec, envelopes, k, f"h{uuid.uuid4().hex[:10]}").id
    row = rec.game(gid)
    try:
        rec.catch_up(str(row["id"]))  # a digital cut may owe the server's deal: settle it first
    except IllegalAction as err:  # imported without its secret seed: no deal is possible
        assert err.code == "no_seed"
        return
    rules, cursor = rec.cursor(gid)
    base = _base_action(rules, cursor.state, row, game.actions[k - 1] if k else None)
    hostile = _mutate(base, how)
    before = _snapshot(rec, gid)
    count("hostile actions tried through the recorder")
    try:
        rec.record(gid, hostile)
    except (IllegalAction, InvalidEvent):
        assert _snapshot(rec, gid) == before, "a refused action changed the game"
        count("hostile actions refused (IllegalAction / InvalidEvent)")
        return
    count("hostile actions accepted because still legal (then verified)")
    report = rec.verify(gid)
    problems = [p for p in report["problems"]
                # a digital cut is imported without its secret seed, so it can never reveal it
                if not (mode == "digital" and p["code"] == "seed_not_revealed")]
    assert not problems, f"an accepted mutation {hostile!r} broke the audit: {problems[:3]}"
    assert rules.view(rec.cursor(gid)[1].state, ALL) is not None
