"""In the Shadow of the Emperor's choices against a brute force written from the spec
(docs/games/in_the_shadow_of_the_emperor.md), independent of legal.py: on states of random
playouts (3, 4 and 5 players, table and digital), the moves `Walker.moves` reaches for the
small spaces are exactly the moves the spec allows, each once, and the reducer accepts each.

The brute force reads only the state's pieces and the edition JSON itself: §6.1 (entering a
court, the knight push), §6.3 (every card's effect fields, the privileges, the knight
action), §4 (setup placements), §5.3 (the son), §5.6 and §8 (who votes, every ballot and
every reveal), §5.6 step 7 (the former Emperor), §3.5 and §6.4 (the empire city), and the
other decisions: §5.2 step 3 (the throne), §5.3 (the daughter, the answer), §5.5 (a tie
with the influence counted from the pieces, the new elector, the former elector) and §5.6
step 1 (the targets). Every one of the 23 player action types is compared (setup has no
choice but its chance field).
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from dataclasses import replace
from itertools import product
from pathlib import Path
from typing import Any

import pytest

from projections import get_rules
from projections.choices import Made, Walker
from projections.playout import created_for, play
from projections.rules import Action

SLUG = "in_the_shadow_of_the_emperor"
R = get_rules(SLUG)
ROOT = Path(__file__).resolve().parents[2]
EDITION = json.loads((ROOT / "projections" / "data" / f"{SLUG}.json").read_text("utf-8"))
ORDER: list[str] = EDITION["electorate_order"]
BOARD = {e["id"]: e for e in EDITION["electorates"]}
CARDS = {c["id"]: c for c in EDITION["action_cards"]}
AGES: list[int] = EDITION["ages"]
CITIES = EDITION["per_player_components"]["cities"]
SPIRITUAL = {e for e, info in BOARD.items() if info["kind"] == "spiritual"}
#: §6.3: the cards whose effect happens in phase IV, which Trier may copy
PHASE4 = ["doctor", "move", "indulgence", "permit", "ordinance", "promotion",
          "foreign_kings_daughter"]


# -- the board, read from the state's pieces -----------------------------------------------
def _e(state, eid):
    return state.electorates[ORDER.index(eid)]


def _court_spaces(state, eid) -> int:
    """§3.2: aristocrat spaces, one more in each secular electorate with 5 players."""
    info = BOARD[eid]
    return info["aristocrat_spaces"] + (info["extra_aristocrat_spaces_5p"] if state.n == 5
                                        else 0)


def _court_free(state, eid) -> bool:
    e = _e(state, eid)
    return len(e.tiles) + len(e.knights) < _court_spaces(state, eid)


def _city_free(state, eid) -> bool:
    return len(_e(state, eid).cities) < BOARD[eid]["city_spaces"]


def _entries(state) -> list[tuple[str, int | None]]:
    """§6.1: a tile enters an empty aristocrat space, or a full court by pushing one knight
    standing on its aristocrat spaces (never while a space is empty)."""
    out = []
    for eid in ORDER:
        if _court_free(state, eid):
            out.append((eid, None))
        else:
            out += [(eid, owner) for owner in set(_e(state, eid).knights)]
    return out


def _ref(at, tile) -> dict[str, Any]:
    return {"owner": tile[0], "at": at, "side": tile[1], "age": tile[2]}


def _board_tiles(state) -> list[tuple[str, Any]]:
    """§2: every tile on the board: the throne, the elector spaces, the courts."""
    out = [("throne", state.throne)] if state.throne is not None else []
    for eid in ORDER:
        e = _e(state, eid)
        out += [(f"elector:{eid}", e.elector)] if e.elector is not None else []
        out += [(eid, t) for t in e.tiles]
    return out


def _cost(state, seat, card) -> int:
    if card == "permit":  # §3.6, §12.4: 3/4/5 by the number of the city built
        built = CITIES - state.players[seat].cities  # with every city built, none to buy
        return CARDS["permit"]["cost_by_city_number"].get(str(built + 1), 10 ** 6)
    return CARDS[card]["cost"]


def _effects(state, seat, card) -> list[dict[str, Any]]:
    """§6.3: every way to carry out `card`'s effect in full (a card is never bought for
    its colour only, §12.14); the privileges of Koeln and the Palatinate likewise."""
    player = state.players[seat]
    if card in ("doctor", "koeln"):
        return [{"target": _ref(at, t), "direction": "younger" if t[0] == seat else "older"}
                for at, t in _board_tiles(state)
                if t[0] != seat or t[2] != AGES[0]]
    if card == "move":
        return [{"aristocrat": _ref(at, t), "to": to, "push_knight_owner": push}
                for at, t in _board_tiles(state) if at in BOARD and t[0] == seat
                for to, push in _entries(state) if to != at]
    if card == "permit":
        return [{"electorate": e} for e in ORDER if player.cities and _city_free(state, e)]
    if card in ("ordinance", "foreign_kings_daughter", "palatinate"):
        return [{"electorate": e, "push_knight_owner": push}
                for e, push in _entries(state)] if player.tiles else []
    if card == "promotion":
        return [{"electorate": e} for e in ORDER
                if seat in _e(state, e).knights] if player.tiles else []
    return [{}]


def brute_buy_card(state, seat) -> list[dict[str, Any]]:
    out = []
    for card in CARDS:
        if card in ("knight", "gray_eminence") or state.display.count(card) == 0:
            continue
        if (card == "rival" and seat == state.emperor) or \
                _cost(state, seat, card) > state.players[seat].thalers:
            continue
        out += [{"card": card, **effect} for effect in _effects(state, seat, card)]
    return out


def brute_use_privilege(state, seat) -> list[dict[str, Any]]:
    """§3.4, §6.3: the elector's unused phase-IV privileges."""
    out: list[dict[str, Any]] = []
    for name in ("trier", "koeln", "palatinate", "brandenburg"):
        e = _e(state, name)
        if e.elector is None or e.elector[0] != seat or e.used:
            continue
        if name == "trier":
            out += [{"privilege": name, "card": card, **effect} for card in PHASE4
                    if state.display.count(card) == 0
                    and _cost(state, seat, card) <= state.players[seat].thalers
                    for effect in _effects(state, seat, card)]
        elif name == "brandenburg":
            out += [{"privilege": name}] if state.display.count("gray_eminence") else []
        else:
            out += [{"privilege": name, **effect} for effect in _effects(state, seat, name)]
    return out


def _knight_spaces(state) -> list[dict[str, str]]:
    out = []
    for eid in ORDER:
        if _court_free(state, eid):
            out.append({"electorate": eid, "slot": "court"})
        if len(_e(state, eid).castles) < BOARD[eid]["castle_spaces"]:
            out.append({"electorate": eid, "slot": "castle"})
    return out


def brute_knight_action(state, seat) -> list[dict[str, Any]]:
    """§6.3: for 1 thaler, a knight from supply or an own knight on the board to another
    empty aristocrat or castle space (knights never push)."""
    if state.players[seat].thalers < CARDS["knight"]["cost"]:
        return []
    sources: list[Any] = [None] if state.players[seat].knights else []
    for eid in ORDER:
        e = _e(state, eid)
        sources += [{"electorate": eid, "slot": "court"}] if seat in e.knights else []
        sources += [{"electorate": eid, "slot": "castle"}] if seat in e.castles else []
    return [{"from": s, "to": t} for s in sources for t in _knight_spaces(state) if s != t]


def _votes(state, seat) -> int:
    """§5.6 step 2: 1 per elector (Bohemia 2) unless excommunicated, +1 with the Pope, +
    the Church Influence bonus for the targeted archdiocese's elector (§12.7)."""
    votes = 0
    for eid in ORDER:
        e = _e(state, eid)
        if e.elector is not None and e.elector[0] == seat and eid != state.ex_target:
            votes += 2 if eid == "bohemia" else 1
    votes += 1 if "pope" in state.players[seat].area else 0
    target = state.ci_target
    if target and _e(state, target).elector and _e(state, target).elector[0] == seat:
        e = _e(state, target)
        votes += sum(1 for t in e.tiles if t[0] == seat) + e.knights.count(seat) + \
            e.castles.count(seat)
    return votes


def brute_votes(state) -> tuple[list[int], list[tuple[Any, dict[str, Any]]]]:
    """§5.6 step 3, §8: the voters (neither candidate, at least one vote); each still to
    vote may choose either side; at a table, before any ballot, one reveal of every
    combination."""
    voters = [s for s in range(state.n) if s not in (state.emperor, state.rival)
              and _votes(state, s) >= 1]
    voted = {s for s, _ in state.ballots}
    moves: list[tuple[Any, dict[str, Any]]] = [
        ("cast_vote", (s, {"choice": c})) for s in voters if s not in voted
        for c in ("emperor", "rival")]
    if state.mode == "table" and not voted:
        moves += [("reveal_votes", ("table", {"votes": {str(s): c for s, c in
                                                        zip(voters, combo, strict=True)}}))
                  for combo in product(("emperor", "rival"), repeat=len(voters))]
    return voters, moves


def brute_placements(state) -> list[tuple[str, dict[str, Any]]]:
    """The placements of the other decisions (§4, §5.3, §5.6 step 7, §6.4)."""
    kind, round_ = state.pending.kind, state.round
    if kind == "start_empire_city":
        return [("place_start_empire_city", {"electorate": e}) for e in ORDER
                if _city_free(state, e)]
    if kind == "start_aristocrat":
        return [("place_start_aristocrat", {"electorate": e}) for e in ORDER
                if _court_free(state, e)]
    if kind == "start_knight":
        return [("place_start_knight", loc) for loc in _knight_spaces(state)]
    if kind == "start_elector":
        return [("place_start_elector", {"electorate": e}) for e in ORDER
                if _e(state, e).elector is None]
    if kind in ("son", "place_former_emperor"):
        type_ = "place_son" if kind == "son" else "place_former_emperor"
        return [(type_, {"electorate": e, "push_knight_owner": p})
                for e, p in [(None, None), *_entries(state)]]
    if kind == "emperor_city":
        allowed = EDITION["emperor_track"][str(round_)]["empire_city"]
        free = [e for e in ORDER if _city_free(state, e)]
        out = [("emperor_city_action", {"mode": "none", "from": None, "to": None})]
        if allowed == "place_or_move" and state.empire_reserve:
            out += [("emperor_city_action", {"mode": "place", "from": None, "to": t})
                    for t in free]
        if allowed in ("place_or_move", "move"):
            out += [("emperor_city_action", {"mode": "move", "from": f, "to": t})
                    for f in ORDER if -1 in _e(state, f).cities for t in free]
        return out
    return []


def _influence(state, eid) -> list[int]:
    """§5.5 step 1: +1 per own city and knight, +1 per single and +2 per couple on the
    aristocrat spaces and on the elector space (§12.1), +1 per empire city to the Emperor."""
    e, out = _e(state, eid), [0] * state.n
    for city in e.cities:
        out[state.emperor if city == -1 else city] += 1
    for knight in (*e.knights, *e.castles):
        out[knight] += 1
    for tile in (*e.tiles, *([e.elector] if e.elector else [])):
        out[tile[0]] += 2 if tile[1] == "couple" else 1
    return out


def _own_court_tiles(state, seat) -> list[dict[str, Any]]:
    return [_ref(at, t) for at, t in _board_tiles(state) if at in BOARD and t[0] == seat]


def brute_decisions(state) -> list[tuple[str, dict[str, Any]]]:
    """The other decisions (§5.2 step 3, §5.3, §5.5, §5.6 steps 1 and 7)."""
    pending, seat = state.pending, state.pending.actor
    if pending.kind in ("fill_throne", "seat_emperor"):
        refs: list[Any] = _own_court_tiles(state, seat)
        refs = refs or ([None] if state.players[seat].tiles else [])
        return [(pending.kind, {"aristocrat": r}) for r in refs]
    if pending.kind == "daughter":
        return [("propose_marriage", {"target": _ref(at, t)}) for at, t in _board_tiles(state)
                if t[0] != seat and t[1] == "single"
                and not (at.startswith("elector:") and at[8:] in SPIRITUAL)] + \
            [("send_to_convent", {})]
    if pending.kind == "answer_proposal":
        return [("answer_proposal", {"accept": a}) for a in (True, False)]
    if pending.kind == "break_tie":
        power = _influence(state, pending.electorate)
        return [("break_tie", {"electorate": pending.electorate, "winner": s})
                for s in range(state.n) if power[s] == max(power)]
    if pending.kind == "appoint_elector":
        eid = pending.electorate
        return [("appoint_elector", {"electorate": eid, "aristocrat": r})
                for r in _own_court_tiles(state, seat)
                if r["at"] == eid and (eid not in SPIRITUAL or r["side"] == "single")]
    if pending.kind == "place_former_elector":
        eid = pending.electorate
        return [("place_former_elector", {"electorate": eid, "to": "supply"})] + [
            ("place_former_elector", {"electorate": eid, "to": "court", "push_knight_owner": k})
            for k in set(_e(state, eid).knights)]
    if pending.kind in ("ci_target", "ex_target"):
        named = SPIRITUAL if pending.kind == "ci_target" else set(ORDER) - SPIRITUAL
        type_ = "choose_church_influence_target" if pending.kind == "ci_target" \
            else "choose_excommunication_target"
        return [(type_, {"electorate": e}) for e in [*named, None]]
    return []


# -- the comparison ------------------------------------------------------------------------
def _key(type_: str, data: dict[str, Any]) -> str:
    """A move's identity: a push of nobody is the same as no push field (§6.1)."""
    data = {k: v for k, v in data.items() if not (k == "push_knight_owner" and v is None)}
    return json.dumps([type_, data], sort_keys=True)


def _states() -> Iterator[Any]:
    for players, seed, mode in product((3, 4, 5), range(3), ("table", "digital")):
        game = play(R, created_for(R, players, mode=mode), random.Random(seed).randrange,
                    f"brute-{players}-{seed}-{mode}", max_steps=400)
        yield from (s for s in game.states if s.status == "playing" and s.pending)


def _reached(state, type_: str, actor: Any) -> list[str]:
    walker = Walker(R, table=state.mode == "table")
    moves = list(walker.moves(state, type_, actor))
    for move in moves:  # the reducer accepts every move the choices reach
        R.apply(state, Action.of(move["type"], move["actor"], move["data"]))
    return [_key(m["type"], m["data"]) for m in moves]


def _compare(state, type_: str, actor: Any, expected: list[dict[str, Any]]) -> int:
    reached = _reached(state, type_, actor)
    assert len(set(reached)) == len(reached), f"{type_}: a move is reached twice"
    want = {_key(type_, d) for d in expected}
    assert set(reached) == want, (type_, sorted(set(reached) ^ want)[:4])
    return len(reached)


STATES = list(_states())


def test_every_phase_iv_turn_is_exactly_what_the_spec_allows():
    """§6.3: every card with every way to carry out its effect, every privilege and every
    knight action, at each phase-IV turn of the playouts."""
    counted = {"buy_card": 0, "use_privilege": 0, "knight_action": 0}
    brute = {"buy_card": brute_buy_card, "use_privilege": brute_use_privilege,
             "knight_action": brute_knight_action}
    for state in STATES:
        if state.pending.kind != "turn":
            continue
        seat = state.pending.actor
        for type_, make in brute.items():
            counted[type_] += _compare(state, type_, seat, make(state, seat))
    assert counted["buy_card"] > 5000 and counted["knight_action"] > 5000, counted
    assert counted["use_privilege"] > 100, counted


def test_every_placement_is_exactly_what_the_spec_allows():
    counted: dict[str, int] = {}
    for state in STATES:
        by_type: dict[str, list[dict[str, Any]]] = {}
        for type_, data in brute_placements(state):
            by_type.setdefault(type_, []).append(data)
        for type_, expected in by_type.items():
            counted[type_] = counted.get(type_, 0) + _compare(
                state, type_, state.pending.actor, expected)
    assert set(counted) == {"place_start_empire_city", "place_start_elector",
                            "place_start_aristocrat", "place_start_knight", "place_son",
                            "place_former_emperor", "emperor_city_action"}, counted


def test_every_other_decision_is_exactly_what_the_spec_allows():
    counted: dict[str, int] = {}
    for state in STATES:
        by_type: dict[str, list[dict[str, Any]]] = {}
        for type_, data in brute_decisions(state):
            by_type.setdefault(type_, []).append(data)
        for type_, expected in by_type.items():
            counted[type_] = counted.get(type_, 0) + _compare(
                state, type_, state.pending.actor, expected)
    assert set(counted) == {"fill_throne", "seat_emperor", "propose_marriage",
                            "send_to_convent", "answer_proposal", "break_tie",
                            "appoint_elector", "place_former_elector",
                            "choose_church_influence_target",
                            "choose_excommunication_target"}, counted


def test_every_ballot_and_every_reveal_is_exactly_what_the_spec_allows():
    compared = reveals = 0
    for state in STATES:
        if state.pending.kind != "vote":
            continue
        voters, moves = brute_votes(state)
        assert list(state.pending.seats) == voters
        for type_, actor in {(t, a) for t, (a, _) in moves}:
            expected = [d for t, (a, d) in moves if (t, a) == (type_, actor)]
            compared += _compare(state, type_, actor, expected)
            reveals += len(expected) if type_ == "reveal_votes" else 0
        if state.mode == "digital":
            assert "table" not in R.to_act(state)
    assert compared > 50 and reveals > 10, (compared, reveals)


# -- the order a player thinks in, and the words -------------------------------------------
def test_a_buy_asks_for_the_card_first_then_where_its_effect_goes_in_words():
    """The issue's example: the buy-card target read "45, Throne, 0, Single" and asked
    for the card last."""
    walker = Walker(R, table=False)
    seen = set()
    for state in STATES:
        if state.pending.kind != "turn" or not brute_buy_card(state, state.pending.actor):
            continue
        first = walker.walk(state, "buy_card", state.pending.actor, []).choice
        assert first is not None and first.id == "card"
        assert {o.label for o in first.options} <= {c["name"] for c in CARDS.values()}
        for option in first.options:
            after = Made({"card": option.value})
            step = R.action_type("buy_card").steps(state, state.pending.actor, after,
                                                   R.components())
            if hasattr(step, "options") and option.value == "doctor":
                for target in step.options:
                    seen.add(target.label)
                    assert target.value["at"] not in target.label
                    assert "aged" in target.label and str(target.value["age"]) in target.label
    assert seen


# -- sealed ballots stay sealed in the choices ---------------------------------------------
def _twin_ballots():
    """Two states of one election that differ only in the ballot one voter cast."""
    for state in STATES:
        if state.pending.kind == "vote" and len(state.pending.seats) >= 2 and \
                not state.ballots and state.mode == "table":
            first = state.pending.seats[0]
            yield [R.apply(state, Action.of("cast_vote", first, {"choice": c}))
                   for c in ("emperor", "rival")]


def _offered(state) -> list[Any]:
    """Everything the choices show anyone now: the menus, every prompt and option."""
    walker = Walker(R, table=True)
    out: list[Any] = []
    for actor in R.to_act(state):
        for record in walker.opening(state, actor):
            walk = walker.walk(state, record.name, actor, [])
            out.append((actor, record.name, walk.choice.to_json() if walk.choice else None))
    return out


def test_the_choices_after_a_sealed_ballot_do_not_depend_on_it():
    twins = list(_twin_ballots())
    assert twins
    for emperor_ballot, rival_ballot in twins:
        assert _offered(emperor_ballot) == _offered(rival_ballot)


def test_a_planted_leak_of_the_ballot_into_the_choices_is_caught(monkeypatch):
    """The absence check above fails when a prompt names the ballots already cast."""
    from projections.in_the_shadow_of_the_emperor import actions

    record = next(a for a in actions.ACTIONS if a.name == "cast_vote")

    def leaky(state, actor, made, components):
        step = record.steps(state, actor, made, components)
        return replace(step, prompt=f"{step.prompt} {state.ballots}") \
            if hasattr(step, "prompt") else step

    leaky_record = replace(record, steps=leaky)
    monkeypatch.setattr(R, "_records", {**R._records, "cast_vote": leaky_record})
    monkeypatch.setattr(type(R), "actions", tuple(leaky_record if a.name == "cast_vote"
                                                  else a for a in R.actions))
    assert any(_offered(a) != _offered(b) for a, b in _twin_ballots())


@pytest.mark.parametrize("mode", ["table", "digital"])
def test_another_seat_s_sealed_ballot_stays_hidden_in_its_event(mode):
    """Behaviour kept from the old redaction (spec §8), now the cast_vote record's own."""
    for state in STATES:
        if state.mode != mode or state.pending.kind != "vote" or \
                len(state.pending.seats) - len(state.ballots) < 2:
            continue
        voter = next(s for s in state.pending.seats if s not in dict(state.ballots))
        ballot = Action.of("cast_vote", voter, {"choice": "rival"})
        others = [s for s in range(state.n) if s != voter]
        assert all(R.redact(ballot, s, state) == {"choice": "hidden"} for s in others)
        assert R.redact(ballot, voter, state) is None
        return
    pytest.fail(f"no {mode} election with two ballots to come")
