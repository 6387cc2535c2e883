"""In the Shadow of the Emperor: the spec's worked examples, refusals, the sealed vote and
property tests (docs/games/in_the_shadow_of_the_emperor.md)."""

from __future__ import annotations

import contextlib
import json
import random
from collections import Counter
from dataclasses import replace
from itertools import product
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from projections import get_rules
from projections.in_the_shadow_of_the_emperor.legal import card_cost
from projections.in_the_shadow_of_the_emperor.state import EMPIRE, Electorate, Pending, State
from projections.playout import created_for, play
from projections.replay import Folder, check_undo
from projections.rules import Action, Bag, Dealer, IllegalAction

from .in_the_shadow_of_the_emperor_games import SAMPLE_GAMES

SLUG = "in_the_shadow_of_the_emperor"
R = get_rules(SLUG)
S, C = "single", "couple"


# ---------------------------------------------------------------------------
# Building positions
# ---------------------------------------------------------------------------


def make(n: int = 4, *, emperor: int = 0, phase: int = 4, round_: int = 2, turn: int | None = None,
         throne: tuple | None = (0, S, 25), electors: dict | None = None,
         courts: dict | None = None, castles: dict | None = None, cities: dict | None = None,
         players: dict | None = None, display: dict | None = None, cursor: int = 0,
         settle: bool = True, **fields: Any) -> State:
    """A running position; every piece not named is in its owner's supply."""
    base = R.initial_state(created_for(R, n))
    electors, courts = electors or {}, courts or {}
    castles, cities, players = castles or {}, cities or {}, players or {}
    electorates = []
    for e in base.electorates:
        court = courts.get(e.id, [])
        electorates.append(Electorate(
            e.id, elector=electors.get(e.id),
            tiles=tuple(sorted(t for t in court if t[0] != "k")),
            knights=tuple(sorted(t[1] for t in court if t[0] == "k")),
            castles=tuple(sorted(castles.get(e.id, []))),
            cities=tuple(sorted(cities.get(e.id, [])))))
    on_board: Counter = Counter()
    for e in electorates:
        for t in (*e.tiles, *([e.elector] if e.elector else [])):
            on_board["tile", t[0]] += 1
        for k in (*e.knights, *e.castles):
            on_board["knight", k] += 1
        for c in e.cities:
            on_board["city", c] += 1
    if throne:
        on_board["tile", throne[0]] += 1
    people = []
    for seat, p in enumerate(base.players):
        extra = dict(players.get(seat, {}))
        extra["area"] = tuple(sorted(extra.get("area", ())))
        supply = {"tiles": p.tiles - on_board["tile", seat],
                  "knights": p.knights - on_board["knight", seat],
                  "cities": p.cities - on_board["city", seat]}
        people.append(replace(p, **{**supply, **extra}))
    if display is None:
        taken = Counter(c for p in people for c in p.area)
        display = {k: v - taken[k] for k, v in base.display.counts().items()}
    reserve = base.empire_reserve - on_board["city", EMPIRE]
    state = replace(base, status="playing", electorates=tuple(electorates), players=tuple(people),
                    display=Bag(display), empire_reserve=reserve,
                    emperor=emperor, phase=phase, round=round_, throne=throne, cursor=cursor,
                    turn=emperor if turn is None else turn, **fields)
    return R.settle(state) if settle else state


def act(state: State, type_: str, actor: Any, **data: Any) -> State:
    return R.apply(state, Action.of(type_, actor, data))


def ref(owner: int, at: str, side: str, age: int) -> dict[str, Any]:
    return {"owner": owner, "at": at, "side": side, "age": age}


def electorate(state: State, eid: str) -> Electorate:
    return state.electorates[R.eindex[eid]]


def refused(state: State, type_: str, actor: Any, code: str, text: str, **data: Any) -> None:
    with pytest.raises(IllegalAction) as err:
        act(state, type_, actor, **data)
    assert err.value.code == code, err.value.message
    assert text in err.value.message


# ---------------------------------------------------------------------------
# Worked example 1: income and the cap (spec §13, review ruling 2)
# ---------------------------------------------------------------------------


def test_example_1_income_counts_own_cities_others_under_own_electors_and_saxony_then_caps():
    state = make(phase=1, electors={"bohemia": (1, S, 25), "saxony": (1, S, 25)},
                 cities={"bohemia": [1, 2, EMPIRE], "saxony": [3, 0], "palatinate": [1]},
                 players={0: {"thalers": 8}, 1: {"thalers": 3}, 2: {"thalers": 0}},
                 settle=False)
    assert R.income(state, 1) == 13
    assert R.income(state, 0) == 7  # review ruling 2: seat 0 has the Saxony city
    assert R.income(state, 2) == 7
    after = R.settle(state)
    assert [p.thalers for p in after.players][:3] == [12, 12, 7]


# ---------------------------------------------------------------------------
# Worked example 2: a tie in phase V (Palatinate)
# ---------------------------------------------------------------------------


def _palatinate_tie() -> State:
    return make(phase=5, round_=5, emperor=3, throne=(3, S, 25), cursor=R.eindex["palatinate"],
                electors={"palatinate": (0, S, 35)},
                courts={"palatinate": [(0, C, 25), (1, C, 35), (1, S, 15), ("k", 2)]},
                castles={"palatinate": [0]}, cities={"palatinate": [1, EMPIRE]})


def test_example_2_a_tie_in_phase_v_waits_for_the_emperor_to_break_it():
    state = _palatinate_tie()
    assert R.influence(state, "palatinate") == [4, 4, 1, 1]
    assert state.pending == Pending("break_tie", 3, electorate="palatinate", seats=(0, 1))
    assert R.to_act(state) == (3,)
    assert {a["type"] for a in R.legal_actions(state)} == {"break_tie"}


def test_example_2_the_tie_winner_appoints_a_couple_and_the_old_elector_returns_to_court():
    state = act(_palatinate_tie(), "break_tie", 3, electorate="palatinate", winner=1)
    assert state.pending.kind == "appoint_elector" and state.pending.actor == 1
    vp = state.players[1].vp
    state = act(state, "appoint_elector", 1, electorate="palatinate",
                aristocrat=ref(1, "palatinate", C, 35))
    pal = electorate(state, "palatinate")
    assert pal.elector == (1, C, 35)
    assert pal.tiles == ((0, C, 25), (0, S, 35), (1, S, 15)) and pal.knights == (2,)
    assert state.players[1].vp == vp + 2
    assert R.influence(state, "palatinate") == [4, 4, 1, 1]


def test_example_2_choosing_the_incumbent_changes_nothing_and_pays_nothing():
    before = _palatinate_tie()
    state = act(before, "break_tie", 3, electorate="palatinate", winner=0)
    assert electorate(state, "palatinate") == electorate(before, "palatinate")
    assert [p.vp for p in state.players][:3] == [p.vp for p in before.players][:3]


# ---------------------------------------------------------------------------
# Worked example 3: an election with modifiers
# ---------------------------------------------------------------------------


def _election(mode: str = "digital") -> State:
    state = make(phase=6, round_=5, emperor=0, throne=(0, S, 25), rival=2,
                 electors={"mainz": (0, S, 25), "trier": (0, S, 25), "koeln": (2, S, 25),
                           "bohemia": (1, S, 25), "palatinate": (2, S, 25),
                           "saxony": (1, S, 25), "brandenburg": (3, S, 25)},
                 courts={"koeln": [(2, C, 25), ("k", 2)], "brandenburg": [(2, S, 35)]},
                 players={0: {"area": ("excommunication",)}, 2: {"area": ("rival",
                                                                            "church_influence")},
                          3: {"area": ("pope",)}}, settle=False)
    return R.settle(replace(state, mode=mode))


def _targets(state: State) -> State:
    assert state.pending.kind == "ex_target" and state.pending.actor == 0
    state = act(state, "choose_excommunication_target", 0, electorate="bohemia")
    assert state.pending.kind == "ci_target" and state.pending.actor == 2
    return act(state, "choose_church_influence_target", 2, electorate="koeln")


def test_example_3_votes_count_electors_pope_church_influence_and_excommunication():
    state = _targets(_election())
    assert R.votes(state) == [2, 1, 4, 2]
    assert state.pending.kind == "vote" and state.pending.seats == (1, 3)
    assert set(R.to_act(state)) == {1, 3}


def test_example_3a_the_emperor_stays_and_both_voters_score():
    state = _targets(_election())
    vp = [p.vp for p in state.players]
    state = act(state, "cast_vote", 1, choice="emperor")
    state = act(state, "cast_vote", 3, choice="emperor")
    assert state.last_totals == (5, 4) and state.emperor == 0
    assert state.players[1].vp == vp[1] + 1 and state.players[3].vp == vp[3] + 1


def test_example_3b_the_rival_wins_seats_a_tile_and_the_old_emperor_places_his():
    state = _targets(_election())
    vp = [p.vp for p in state.players]
    hidden = act(state, "cast_vote", 3, choice="rival")
    assert R.view(hidden, 1)["ballots"] == {"3": "hidden"}
    state = act(hidden, "cast_vote", 1, choice="emperor")
    assert state.last_totals == (3, 6) and state.emperor == 2
    assert state.players[3].vp == vp[3] + 1 and state.players[1].vp == vp[1]
    assert state.pending.kind == "seat_emperor" and state.pending.actor == 2
    state = act(state, "seat_emperor", 2, aristocrat=ref(2, "koeln", C, 25))
    assert state.throne == (2, C, 25)
    assert state.pending.kind == "place_former_emperor" and state.pending.actor == 0
    state = act(state, "place_former_emperor", 0, electorate="saxony", push_knight_owner=None)
    assert (0, S, 25) in electorate(state, "saxony").tiles


def test_example_3b_at_a_physical_table_one_reveal_replaces_the_two_ballots():
    state = _targets(_election(mode="table"))
    assert "table" in R.to_act(state)
    state = act(state, "reveal_votes", "table", votes={"1": "emperor", "3": "rival"})
    assert state.last_totals == (3, 6) and state.emperor == 2


def test_example_3_a_tie_keeps_the_emperor_and_the_loser_voter_scores_nothing():
    state = make(3, phase=6, round_=5, emperor=0, rival=1,
                 electors={"mainz": (0, S, 25), "trier": (0, S, 25), "koeln": (1, S, 25),
                           "saxony": (2, S, 25)},
                 players={1: {"area": ("rival",)}})
    vp = state.players[2].vp
    state = act(state, "cast_vote", 2, choice="rival")
    assert state.last_totals == (2, 2) and state.emperor == 0
    assert state.players[2].vp == vp


# ---------------------------------------------------------------------------
# Worked example 4: descendants
# ---------------------------------------------------------------------------


def _descendants() -> State:
    return make(phase=3, emperor=0, electors={"mainz": (2, S, 35)},
                courts={"saxony": [(3, S, 25)], "trier": [(0, S, 25), ("k", 1), ("k", 3)]},
                players={0: {"area": ("rival",)},
                         1: {"area": ("doctor", "permit", "indulgence")},
                         2: {"area": ("move", "ordinance")},
                         3: {"area": ("pope", "ordinance")}})


def test_example_4_children_follow_the_blue_red_balance_in_turn_order():
    state = _descendants()
    assert [R.child(state, s) for s in range(4)] == ["son", "daughter", "son", "daughter"]
    assert state.pending == Pending("son", 0)


def test_example_4_an_accepted_marriage_makes_a_couple_and_pays_the_bride_s_family():
    state = act(_descendants(), "place_son", 0, electorate=None)
    assert state.pending == Pending("daughter", 1)
    refused(state, "propose_marriage", 1, "archdiocese_elector",
            "archdiocese electors cannot marry", target=ref(2, "elector:mainz", S, 35))
    proposed = act(state, "propose_marriage", 1, target=ref(3, "saxony", S, 25))
    assert R.to_act(proposed) == (3,)
    state = act(proposed, "answer_proposal", 3, accept=True)
    assert electorate(state, "saxony").tiles == ((3, C, 25),)
    assert state.players[1].vp == 1
    assert R.influence(state, "saxony")[3] == 2
    nun = act(proposed, "answer_proposal", 3, accept=False)
    assert nun.players[1].thalers == proposed.players[1].thalers + 1 and nun.players[1].vp == 0


def test_example_4_a_son_pushes_a_knight_from_a_full_court_and_cards_return():
    state = act(_descendants(), "place_son", 0, electorate=None)
    state = act(state, "send_to_convent", 1)
    assert state.pending == Pending("son", 2)
    state = act(state, "place_son", 2, electorate="trier", push_knight_owner=3)
    trier = electorate(state, "trier")
    assert trier.knights == (1,) and (2, S, 15) in trier.tiles
    assert state.players[3].knights == 3
    state = act(state, "send_to_convent", 3)
    assert state.phase == 4 and all(p.area == () for p in state.players)
    assert state.display == R.initial_state(created_for(R, 4)).display


# ---------------------------------------------------------------------------
# Worked example 5: aging, throne refill and Doctor
# ---------------------------------------------------------------------------


def _aging() -> State:
    return make(phase=2, round_=3, emperor=0, throne=(0, S, 45),
                electors={"mainz": (0, S, 25)}, courts={"saxony": [(0, C, 35)]},
                players={2: {"thalers": 5}})


def test_example_5_aging_removes_the_old_emperor_and_the_only_court_tile_takes_the_throne():
    state = _aging()
    assert state.throne == (0, C, 45)
    assert electorate(state, "mainz").elector == (0, S, 35)
    assert electorate(state, "saxony").tiles == ()
    assert state.phase == 4 and state.pending == Pending("turn", 0)


def test_example_5_doctor_kills_the_emperor_and_a_45_single_from_supply_takes_the_throne():
    state = act(act(_aging(), "pass", 0), "pass", 1)
    refused(state, "buy_card", 2, "doctor_wrong_direction",
            "Doctor can only make your own aristocrats younger", card="doctor",
            target=ref(0, "throne", C, 45), direction="younger")
    supply = state.players[0].tiles
    state = act(state, "buy_card", 2, card="doctor", target=ref(0, "throne", C, 45),
                direction="older")
    assert state.throne == (0, S, 45)
    assert state.players[0].tiles == supply  # one back to supply, one out of it
    assert state.players[2].thalers == 4
    assert state.pending == Pending("turn", 3)


# ---------------------------------------------------------------------------
# Worked example 6: Permit cost and Trier
# ---------------------------------------------------------------------------


def _permits(thalers: int) -> State:
    return make(turn=2, electors={"trier": (0, S, 25)},
                cities={"bohemia": [2, 0], "saxony": [2]},
                players={2: {"thalers": thalers}, 0: {"thalers": 5}})


def test_example_6_the_third_city_costs_five_and_scores_two():
    refused(_permits(4), "buy_card", 2, "not_enough_thalers",
            "Permit for Player 3's 3rd city costs 5 thalers; Player 3 has 4 thalers", card="permit",
            electorate="palatinate")
    state = act(_permits(6), "buy_card", 2, card="permit", electorate="palatinate")
    assert state.players[2].thalers == 1 and state.players[2].vp == 2
    assert electorate(state, "palatinate").cities == (2,)


def test_example_6_trier_copies_an_exhausted_permit_without_taking_a_card():
    state = make(turn=0, electors={"trier": (0, S, 25)}, cities={"bohemia": [0]},
                 players={0: {"thalers": 5}}, display={**R.initial_state(
                     created_for(R, 4)).display.counts(), "permit": 0})
    refused(make(turn=0, electors={"trier": (0, S, 25)}), "use_privilege", 0,
            "stack_not_empty", "still holds cards", privilege="trier", card="permit",
            electorate="koeln")
    after = act(state, "use_privilege", 0, privilege="trier", card="permit", electorate="koeln")
    assert after.players[0].thalers == 1 and after.players[0].vp == 1
    assert after.players[0].area == () and electorate(after, "koeln").cities == (0,)
    again = replace(after, turn=0, pending=Pending("turn", 0))
    refused(again, "use_privilege", 0, "privilege_used", "already used this round",
            privilege="trier", card="permit", electorate="mainz")


# ---------------------------------------------------------------------------
# Other rules
# ---------------------------------------------------------------------------


def test_rival_ends_the_taker_s_phase_iv_and_the_emperor_may_not_take_it():
    state = make(turn=1)
    after = act(state, "buy_card", 1, card="rival")
    assert after.rival == 1 and after.players[1].passed and after.pending == Pending("turn", 2)
    refused(make(turn=0), "buy_card", 0, "emperor_cannot_take_rival", "Emperor", card="rival")


def test_phase_iv_ends_when_everyone_has_passed_and_phase_vii_pays_the_emperor():
    state = make(round_=4, throne=(0, S, 25))
    for seat in range(4):
        state = act(state, "pass", seat)
    # round 4: 1 VP and 2 thalers, no empire-city action (spec §3.5), then round 5 phase IV
    assert state.round == 5 and state.phase == 4
    assert state.players[0].vp == 1


def test_the_game_ends_after_round_5_with_the_thaler_tie_break():
    state = make(round_=5, players={0: {"vp": 9, "thalers": 2}, 1: {"vp": 10, "thalers": 3},
                                    2: {"vp": 10, "thalers": 1}, 3: {"vp": 8, "thalers": 9}})
    assert R.result(state) is None
    for seat in range(4):
        state = act(state, "pass", seat)
    result = R.result(state)
    assert result["scores"] == [10, 10, 10, 8]  # the Emperor's round-5 VP for seat 0
    assert result["winners"] == [1]  # 10 VP each for 0, 1, 2: seat 1 has most thalers
    assert result["breakdown"]["per_seat"][0]["emperor"] == 1
    assert R.to_act(state) == () and R.legal_actions(state) == []


def test_the_mainz_elector_scores_at_the_end_of_phase_v():
    state = make(electors={"mainz": (2, S, 25)})
    for seat in range(4):
        state = act(state, "pass", seat)
    assert state.players[2].vp == 1  # Mainz privilege, paid at the end of phase V


def test_gray_eminence_decides_ties_and_is_not_counted_for_descendants():
    state = make(phase=5, round_=5, cursor=R.eindex["palatinate"], emperor=3, throne=(3, S, 25),
                 courts={"palatinate": [(0, S, 25), (1, S, 25)]},
                 players={2: {"area": ("gray_eminence",)}})
    assert state.pending.kind == "break_tie" and state.pending.actor == 2
    assert R.child(state, 2) is None


def test_a_winner_without_an_eligible_tile_empties_the_seat_and_the_old_elector_may_push():
    state = make(phase=5, round_=5, cursor=R.eindex["koeln"], electors={"koeln": (1, S, 25)},
                 courts={"koeln": [("k", 2), ("k", 2), ("k", 3)]}, settle=False)
    assert R.influence(state, "koeln") == [0, 1, 2, 1]
    state = R.settle(state)
    assert electorate(state, "koeln").elector is None
    assert state.pending == Pending("place_former_elector", 1, electorate="koeln")
    assert {a["data"]["push_knight_owner"] for a in R.legal_actions(state)} == {None, 2, 3}
    refused(state, "place_former_elector", 1, "court_full", "name whose knight to push",
            electorate="koeln", to="court", push_knight_owner=None)
    state = act(state, "place_former_elector", 1, electorate="koeln", to="court",
                push_knight_owner=3)
    assert electorate(state, "koeln").tiles == ((1, S, 25),)
    assert electorate(state, "koeln").knights == (2, 2)
    assert state.players[2].vp == 0  # nobody scores (spec §5.5 step 5)


def test_a_forced_step_sent_as_an_event_is_refused_as_no_decision_pending():
    state = _aging()  # the throne was refilled automatically
    refused(state, "fill_throne", 0, "no_decision_pending", "no decision pending",
            aristocrat=ref(0, "saxony", C, 45))


def test_setup_runs_the_placement_order_of_the_spec_and_starts_round_1_at_phase_iv():
    state = R.initial_state(created_for(R, 3))
    state = act(state, "setup", "table", players=3, emperor=1)
    assert state.pending == Pending("start_empire_city", 1)
    state = act(state, "place_start_empire_city", 1, electorate="saxony")
    assert state.throne == (1, S, 45)
    state = act(state, "place_start_elector", 2, electorate="bohemia")
    state = act(state, "place_start_elector", 0, electorate="mainz")
    for side, age in ((C, 35), (S, 25), (C, 15)):
        for seat in (1, 2, 0):
            assert state.pending == Pending("start_aristocrat", seat, side=side, age=age)
            where = {(C, 35): "brandenburg", (S, 25): "trier", (C, 15): "bohemia"}
            state = act(state, "place_start_aristocrat", seat, electorate=where[side, age])
    for seat in (1, 2, 0):
        state = act(state, "place_start_knight", seat, electorate="koeln", slot="court")
    assert state.round == 1 and state.phase == 4 and state.pending == Pending("turn", 1)
    assert [p.thalers for p in state.players] == [7, 7, 7]


# ---------------------------------------------------------------------------
# Refusals
# ---------------------------------------------------------------------------


def _turn(seat: int = 1, **kw: Any) -> State:
    base = {"electors": {"koeln": (1, S, 25), "saxony": (2, S, 25)},
            "courts": {"koeln": [(1, S, 15), (2, S, 25), ("k", 3)],
                       "bohemia": [(1, C, 25)]},
            "castles": {"mainz": [2]}, "cities": {"koeln": [0, 1]}}
    base.update(kw)
    return make(turn=seat, **base)


def _setup_electors() -> State:
    state = act(R.initial_state(created_for(R, 4)), "setup", "table", players=4, emperor=0)
    state = act(state, "place_start_empire_city", 0, electorate="mainz")
    return act(state, "place_start_elector", 1, electorate="saxony")


def _emperor_city(round_: int, cities: dict | None = None) -> State:
    """Phase VII of `round_`, the Emperor (seat 0) deciding; `cities` on the board."""
    state = make(round_=round_, cities=cities)
    for seat in range(4):
        state = act(state, "pass", seat)
    return state


REFUSALS = [
    ("not_your_turn", lambda: _turn(1), "pass", 2, {}, "Player 2 is to act"),
    ("unknown_action", lambda: _turn(1), "fly", 1, {}, "fly"),
    ("no_decision_pending", lambda: _turn(1), "break_tie", 1,
     {"electorate": "mainz", "winner": 1}, "breaking a tie is not awaited"),
    ("card_not_buyable", lambda: _turn(1), "buy_card", 1, {"card": "knight"},
     "use the knight action"),
    ("card_not_buyable", lambda: _turn(1), "buy_card", 1, {"card": "gray_eminence"},
     "Brandenburg"),
    ("unknown_card", lambda: _turn(1), "buy_card", 1, {"card": "dragon"}, "dragon"),
    ("card_not_available", lambda: _turn(1, display={"pope": 0}), "buy_card", 1,
     {"card": "pope"}, "The Pope"),
    ("not_enough_thalers", lambda: _turn(1, players={1: {"thalers": 1}}), "buy_card", 1,
     {"card": "indulgence"}, "costs 2 thalers; Player 2 has 1 thaler"),
    ("already_youngest", lambda: _turn(1), "buy_card", 1,
     {"card": "doctor", "target": ref(1, "koeln", S, 15), "direction": "younger"}, "15"),
    ("no_such_aristocrat", lambda: _turn(1), "buy_card", 1,
     {"card": "doctor", "target": ref(3, "koeln", S, 35), "direction": "older"},
     "no such aristocrat: Player 4's single aged 35"),
    ("missing_field", lambda: _turn(1), "buy_card", 1, {"card": "doctor"},
     "needs a target aristocrat"),
    ("court_full", lambda: _turn(1), "buy_card", 1, {"card": "ordinance", "electorate": "koeln"},
     "aristocrat spaces of the Archdiocese of Cologne (Koeln) are full"),
    ("push_not_allowed", lambda: _turn(1), "buy_card", 1,
     {"card": "ordinance", "electorate": "trier", "push_knight_owner": 3},
     "The Archdiocese of Trier has an empty aristocrat space"),
    ("no_such_knight", lambda: _turn(1), "buy_card", 1,
     {"card": "ordinance", "electorate": "koeln", "push_knight_owner": 2}, "no knight of Player 3"),
    ("same_electorate", lambda: _turn(1), "buy_card", 1,
     {"card": "move", "aristocrat": ref(1, "bohemia", C, 25), "to": "bohemia"},
     "not back to the Kingdom of Bohemia"),
    ("not_movable", lambda: _turn(1), "buy_card", 1,
     {"card": "move", "aristocrat": ref(1, "elector:koeln", S, 25), "to": "bohemia"},
     "never an elector"),
    ("unknown_electorate", lambda: _turn(1), "buy_card", 1,
     {"card": "permit", "electorate": "bavaria"}, "bavaria"),
    ("no_empty_city_space", lambda: _turn(1), "buy_card", 1,
     {"card": "permit", "electorate": "koeln"},
     "Archdiocese of Cologne (Koeln) has no empty city space"),
    ("no_such_knight", lambda: _turn(1), "buy_card", 1,
     {"card": "promotion", "electorate": "bohemia"}, "the Kingdom of Bohemia"),
    ("not_the_elector", lambda: _turn(1), "use_privilege", 1, {"privilege": "palatinate",
                                                                "electorate": "mainz"},
     "County Palatine of the Rhine"),
    ("not_a_turn_privilege", lambda: _turn(1), "use_privilege", 1, {"privilege": "saxony"},
     "Duchy of Saxony"),
    ("not_a_phase4_card", lambda: _turn(1, electors={"trier": (1, S, 25)}), "use_privilege", 1,
     {"privilege": "trier", "card": "pope"}, "not The Pope"),
    ("doctor_wrong_direction", lambda: _turn(1), "use_privilege", 1,
     {"privilege": "koeln", "target": ref(1, "koeln", S, 15), "direction": "older"},
     "other players' aristocrats older"),
    ("same_space", lambda: _turn(3), "knight_action", 3,
     {"from": {"electorate": "koeln", "slot": "court"},
      "to": {"electorate": "koeln", "slot": "court"}}, "another space"),
    ("no_empty_space", lambda: _turn(1), "knight_action", 1,
     {"from": None, "to": {"electorate": "mainz", "slot": "castle"}},
     "Archdiocese of Mainz has no empty castle space"),
    ("no_such_knight", lambda: _turn(1), "knight_action", 1,
     {"from": {"electorate": "mainz", "slot": "castle"},
      "to": {"electorate": "trier", "slot": "castle"}}, "castle space of the Archdiocese of Mainz"),
    ("not_enough_thalers", lambda: _turn(1, players={1: {"thalers": 0}}), "knight_action", 1,
     {"from": None, "to": {"electorate": "trier", "slot": "castle"}}, "Player 2 has 0 thalers"),
    ("not_tied", _palatinate_tie, "break_tie", 3, {"electorate": "palatinate", "winner": 2},
     "Player 3 is not among the tied players (Player 1 and Player 2)"),
    ("wrong_electorate", _palatinate_tie, "break_tie", 3, {"electorate": "mainz", "winner": 1},
     "about the County Palatine of the Rhine, not the Archdiocese of Mainz"),
    ("not_eligible_elector",
     lambda: act(_palatinate_tie(), "break_tie", 3, electorate="palatinate", winner=1),
     "appoint_elector", 1, {"electorate": "palatinate", "aristocrat": ref(0, "palatinate", C, 25)},
     "comes from Player 2's own tiles"),
    ("not_a_voter", lambda: _targets(_election()), "cast_vote", 2, {"choice": "rival"},
     "candidates vote for themselves"),
    ("unknown_choice", lambda: _targets(_election()), "cast_vote", 1, {"choice": "pope"}, "pope"),
    ("already_voted", lambda: act(_targets(_election()), "cast_vote", 1, choice="emperor"),
     "cast_vote", 1, {"choice": "rival"}, "already cast"),
    ("ballots_already_cast", lambda: act(_targets(_election("table")), "cast_vote", 1,
                                         choice="emperor"),
     "reveal_votes", "table", {"votes": {"1": "emperor", "3": "rival"}},
     "sealed ballots were already cast"),
    ("wrong_voters", lambda: _targets(_election("table")), "reveal_votes", "table",
     {"votes": {"1": "emperor"}}, "exactly the voters"),
    ("not_an_archdiocese", lambda: act(_election(), "choose_excommunication_target", 0,
                                       electorate=None),
     "choose_church_influence_target", 2, {"electorate": "saxony"}, "not the Duchy of Saxony"),
    ("not_secular", _election, "choose_excommunication_target", 0, {"electorate": "mainz"},
     "not the Archdiocese of Mainz"),
    ("no_tile_in_supply", lambda: _turn(1, players={1: {"tiles": 0}}), "buy_card", 1,
     {"card": "ordinance", "electorate": "trier"}, "no aristocrat tile left"),
    ("no_city_in_supply", lambda: _turn(1, players={1: {"cities": 0}}), "buy_card", 1,
     {"card": "permit", "electorate": "trier"}, "has built every city"),
    ("no_knight_in_supply", lambda: _turn(1, players={1: {"knights": 0}}), "knight_action", 1,
     {"from": None, "to": {"electorate": "trier", "slot": "castle"}}, "no knight left"),
    ("unknown_direction", lambda: _turn(1), "buy_card", 1,
     {"card": "doctor", "target": ref(2, "koeln", S, 25), "direction": "sideways"}, "sideways"),
    ("unknown_slot", lambda: _turn(1), "knight_action", 1,
     {"from": None, "to": {"electorate": "trier", "slot": "tower"}}, "tower"),
    ("missing_field", lambda: _turn(1), "use_privilege", 1, {"privilege": "koeln"}, "target"),
    ("card_not_available", lambda: _turn(1, electors={"brandenburg": (1, S, 25)},
                                         display={"gray_eminence": 0}),
     "use_privilege", 1, {"privilege": "brandenburg"}, "Gray Eminence"),
    ("elector_space_taken", _setup_electors, "place_start_elector", 2, {"electorate": "saxony"},
     "elector space of the Duchy of Saxony is already taken"),
    ("unknown_mode", lambda: _emperor_city(1), "emperor_city_action", 0,
     {"mode": "burn", "from": None, "to": "mainz"}, "burn"),
    ("no_empire_city", lambda: _emperor_city(
        1, {"trier": [EMPIRE, EMPIRE], "koeln": [EMPIRE]}), "emperor_city_action", 0,
     {"mode": "place", "from": None, "to": "mainz"}, "reserve"),
    ("no_empire_city", lambda: _emperor_city(1), "emperor_city_action", 0,
     {"mode": "move", "from": "saxony", "to": "mainz"}, "Duchy of Saxony holds no empire city"),
    ("player_count_mismatch", lambda: R.initial_state(created_for(R, 4)), "setup", "table",
     {"players": 3, "emperor": 0}, "created with 4"),
    ("unknown_seat", lambda: R.initial_state(created_for(R, 4)), "setup", "table",
     {"players": 4, "emperor": 7}, "7"),
    ("game_not_started", lambda: R.initial_state(created_for(R, 4)), "pass", 0, {}, "setup"),
    ("already_set_up", lambda: _turn(1), "setup", "table", {"players": 4, "emperor": 0},
     "already"),
]


@pytest.mark.parametrize(("code", "build", "type_", "actor", "data", "text"), REFUSALS,
                         ids=[f"{r[0]}-{i}" for i, r in enumerate(REFUSALS)])
def test_refusals_name_the_rule_and_the_value(code, build, type_, actor, data, text):
    refused(build(), type_, actor, code, text, **data)


def test_refusals_for_the_throne_and_for_proposals():
    couple = make(phase=3, courts={"saxony": [(3, C, 25)]},
                  players={1: {"area": ("pope",)}})
    refused(couple, "propose_marriage", 1, "not_single", "is a couple",
            target=ref(3, "saxony", C, 25))
    mine = make(phase=3, courts={"saxony": [(1, S, 25), (3, S, 25)]},
                players={1: {"area": ("pope",)}})
    refused(mine, "propose_marriage", 1, "own_aristocrat", "another player's single",
            target=ref(1, "saxony", S, 25))
    throne = make(phase=2, throne=(0, S, 45), electors={"mainz": (0, S, 25)},
                  courts={"saxony": [(0, C, 25), (0, S, 15)]})
    assert throne.pending == Pending("fill_throne", 0)
    refused(throne, "fill_throne", 0, "court_tile_available", "no tile on any aristocrat space",
            aristocrat=None)
    refused(throne, "fill_throne", 0, "not_eligible_for_throne", "never an elector",
            aristocrat=ref(0, "elector:mainz", S, 35))


def test_any_action_after_the_end_is_refused():
    state = make(round_=5)
    for seat in range(4):
        state = act(state, "pass", seat)
    refused(state, "pass", 0, "game_over", "the game is over")


def test_emperor_city_action_follows_the_round_s_track():
    state = make(round_=3, throne=(0, S, 25), cities={"mainz": [EMPIRE]})
    for seat in range(4):
        state = act(state, "pass", seat)
    assert state.pending == Pending("emperor_city", 0)
    refused(state, "emperor_city_action", 0, "city_action_not_allowed", "round 3",
            mode="place", to="trier")
    moved = act(state, "emperor_city_action", 0, mode="move", **{"from": "mainz"}, to="trier")
    assert electorate(moved, "trier").cities == (EMPIRE,) and moved.round == 4


# ---------------------------------------------------------------------------
# Nothing is "moved" to where it stands (issue #19 item 4)
# ---------------------------------------------------------------------------


def test_an_empire_city_cannot_move_onto_its_own_space_when_no_other_city_space_is_empty():
    # spec §6.4: a move goes to an *empty* city space; Mainz has 2 city spaces, both taken
    state = _emperor_city(1, {"mainz": [EMPIRE, 0]})
    refused(state, "emperor_city_action", 0, "no_empty_city_space",
            "an empire city moves only to an empty city space (§6.4)",
            mode="move", **{"from": "mainz"}, to="mainz")
    assert electorate(state, "mainz").cities == (EMPIRE, 0)


def test_an_empire_city_may_move_to_another_empty_city_space_of_its_own_electorate():
    # spec §6.4: "the same electorate is allowed if it has another empty city space"
    # (the 5-player fixture records one, Trier to Trier, at seq 63)
    state = _emperor_city(1, {"mainz": [EMPIRE]})
    moved = act(state, "emperor_city_action", 0, mode="move", **{"from": "mainz"}, to="mainz")
    assert electorate(moved, "mainz").cities == (EMPIRE,) and moved.round == 2


@pytest.mark.parametrize("cities", [{"mainz": [EMPIRE]}, {"mainz": [EMPIRE, 0]},
                                    {"mainz": [EMPIRE, 0], "trier": [EMPIRE, 0],
                                     "koeln": [EMPIRE, 0]}])
def test_the_empire_city_moves_listed_are_exactly_those_accepted(cities):
    state = _emperor_city(1, cities)
    listed = {(a["data"]["mode"], a["data"]["from"], a["data"]["to"])
              for a in R.legal_actions(state, 0)}
    for src, dst in product([None, *R.eids], R.eids):
        mode = "place" if src is None else "move"
        try:
            act(state, "emperor_city_action", 0, mode=mode, **{"from": src}, to=dst)
            accepted = True
        except IllegalAction:
            accepted = False
        assert accepted == ((mode, src, dst) in listed), (mode, src, dst)


def test_a_knight_cannot_move_to_the_castle_space_it_stands_on():
    # spec §6.3: the knight action's `to` differs from `from`
    refused(_turn(2), "knight_action", 2, "same_space", "where it stands",
            **{"from": {"electorate": "mainz", "slot": "castle"}},
            to={"electorate": "mainz", "slot": "castle"})


def test_trier_s_move_cannot_take_a_tile_back_to_its_own_electorate():
    state = _turn(1, electors={"trier": (1, S, 25)}, display={"move": 0})
    refused(state, "use_privilege", 1, "same_electorate", "where it stands",
            privilege="trier", card="move", aristocrat=ref(1, "bohemia", C, 25), to="bohemia")
    assert not electorate(state, "trier").used


def test_the_throne_is_not_refilled_from_the_throne_and_an_elector_not_from_its_seat():
    throne = make(phase=2, throne=(0, S, 45), electors={"mainz": (0, S, 25)},
                  courts={"saxony": [(0, C, 25), (0, S, 15)]})
    refused(throne, "fill_throne", 0, "no_such_aristocrat", "on the throne",
            aristocrat=ref(0, "throne", S, 45))
    tie = act(_palatinate_tie(), "break_tie", 3, electorate="palatinate", winner=1)
    refused(tie, "appoint_elector", 1, "no_such_aristocrat", "elector space",
            electorate="palatinate", aristocrat=ref(1, "elector:palatinate", C, 35))
    refused(tie, "appoint_elector", 1, "not_eligible_elector", "comes from Player 2's own",
            electorate="palatinate", aristocrat=ref(0, "elector:palatinate", S, 35))


def _stays_put(state: State, option: dict[str, Any]) -> bool:
    """A listed action that "moves" a piece to where it already stands."""
    data, kind = option["data"], option["type"]
    card = data.get("card")
    if kind == "knight_action":
        return data["from"] == data["to"]
    if card == "move" and kind in ("buy_card", "use_privilege"):
        return data["to"] == data["aristocrat"]["at"]
    if kind in ("fill_throne", "seat_emperor"):
        return (data["aristocrat"] or {}).get("at") == "throne"
    if kind == "appoint_elector":
        return data["aristocrat"]["at"] != data["electorate"]
    if kind == "propose_marriage":
        return data["target"]["owner"] == option["actor"]
    if kind == "emperor_city_action" and data["mode"] == "move" and data["from"] == data["to"]:
        e = electorate(state, data["to"])
        return len(e.cities) >= R.einfo[e.id]["city_spaces"]
    return False


@pytest.mark.parametrize("players", [3, 4, 5])
def test_no_legal_action_of_random_games_moves_a_piece_to_where_it_stands(players):
    listed = Counter()
    for seed in range(3):
        game = _random_game(players, seed, "table")
        for state in game.states:
            for option in R.legal_actions(state):
                listed[option["type"]] += 1
                assert not _stays_put(state, option), option
    assert listed["knight_action"] and listed["buy_card"] and listed["emperor_city_action"]


def test_the_stays_put_check_sees_a_planted_no_op_move():
    state = _emperor_city(1, {"mainz": [EMPIRE, 0]})
    assert _stays_put(state, {"type": "emperor_city_action", "actor": 0,
                              "data": {"mode": "move", "from": "mainz", "to": "mainz"}})
    assert _stays_put(state, {"type": "knight_action", "actor": 0,
                              "data": {"from": {"electorate": "mainz", "slot": "castle"},
                                       "to": {"electorate": "mainz", "slot": "castle"}}})


# ---------------------------------------------------------------------------
# The sealed vote (spec §8)
# ---------------------------------------------------------------------------


def test_no_seat_learns_another_seat_s_ballot_before_the_reveal():
    state = _targets(_election())
    ballot = Action.of("cast_vote", 3, {"choice": "rival"})
    after = R.apply(state, ballot)
    for seat in (0, 1, 2, None):
        assert R.redact(ballot, seat, state) == {"choice": "hidden"}
        text = json.dumps(R.view(after, seat))
        assert "rival\"" not in text.split('"ballots"')[1].split("}")[0]
        assert R.view(after, seat)["ballots"] == {"3": "hidden"}
    assert R.redact(ballot, 3, state) is None and R.redact(ballot, "all", state) is None
    assert R.view(after, 3)["ballots"] == {"3": "rival"}
    assert R.view(after, "all")["ballots"] == {"3": "rival"}
    # the other choice gives exactly the same redacted views
    other = R.apply(state, Action.of("cast_vote", 3, {"choice": "emperor"}))
    for seat in (0, 1, 2, None):
        assert R.view(other, seat) == R.view(after, seat)
    last = Action.of("cast_vote", 1, {"choice": "emperor"})
    revealed = R.apply(after, last)
    assert R.redact(last, 0, after) is None  # the last ballot reveals them all
    assert R.view(revealed, 0)["last_election"]["ballots"] == {"1": "emperor", "3": "rival"}


def test_every_event_of_a_game_has_a_phrase_and_ballots_do_not_name_their_choice():
    game = _random_game(4, 12)
    for action in game.actions:
        text = R.describe(action)
        assert text and "_" not in text
        if action.type == "cast_vote":
            assert "emperor" not in text and "rival" not in text


def test_a_ballot_can_never_be_undone_in_digital_play():
    assert not R.is_undoable_in_digital(Action.of("cast_vote", 1, {"choice": "emperor"}))
    assert not R.is_undoable_in_digital(Action.of("reveal_votes", "table", {"votes": {}}))
    assert R.is_undoable_in_digital(Action.of("pass", 1, {}))


# ---------------------------------------------------------------------------
# Property tests
# ---------------------------------------------------------------------------


def _random_game(players: int, seed: int, mode: str = "digital"):
    rng = random.Random(seed)
    return play(R, created_for(R, players, mode=mode), rng.randrange, f"seed-{seed}",
                max_steps=3000)


def conservation_problems(state: State) -> list[str]:
    """Every tile, knight, city, empire city and card in exactly one place; thalers on track."""
    comp = R.edition["per_player_components"]
    problems = []
    for seat, p in enumerate(state.players):
        tiles = p.tiles + sum(1 for e in state.electorates for t in e.tiles if t[0] == seat)
        tiles += sum(1 for e in state.electorates if e.elector and e.elector[0] == seat)
        tiles += (state.throne is not None and state.throne[0] == seat)
        tiles += (state.held is not None and state.held[0] == seat)
        knights = p.knights + sum((*e.knights, *e.castles).count(seat) for e in state.electorates)
        cities = p.cities + sum(e.cities.count(seat) for e in state.electorates)
        if (tiles, knights, cities) != (comp["aristocrat_tiles"], comp["knights"], comp["cities"]):
            problems.append(f"seat {seat}: {tiles} tiles, {knights} knights, {cities} cities")
        if len(p.vp_sources) != p.vp:
            problems.append(f"seat {seat}: {p.vp} VP but sources {p.vp_sources}")
        if not 0 <= p.thalers <= R.edition["thalers"]["max"]:
            problems.append(f"seat {seat} has {p.thalers} thalers")
    empire = state.empire_reserve + sum(e.cities.count(EMPIRE) for e in state.electorates)
    if empire != R.edition["common_components"]["empire_cities"]:
        problems.append(f"{empire} empire cities")
    cards = Counter(state.display.counts())
    for p in state.players:
        cards.update(p.area)
    if dict(cards) != {k: v for k, v in R.edition["card_counts"][str(state.n)].items() if v}:
        problems.append(f"cards {dict(cards)}")
    for e in state.electorates:
        info = R.einfo[e.id]
        court_spaces = R.components().electorates[e.id].court_spaces(state.n)
        if len(e.tiles) + len(e.knights) > court_spaces or \
                len(e.castles) > info["castle_spaces"] or len(e.cities) > info["city_spaces"]:
            problems.append(f"{e.id} overfull")
        if e.elector and info["elector_must_be_single"] and e.elector[1] != S:
            problems.append(f"{e.id} elector is a couple")
    return problems


def thaler_problems(game) -> list[str]:
    """Inside phase IV, a turn moves only the actor's thalers, by the price of what he did."""
    problems = []
    for before, action, after in zip(game.states, game.actions, game.states[1:], strict=False):
        if before.phase != 4 or after.phase != 4 or after.round != before.round or \
                not isinstance(action.actor, int):
            continue
        seat, data = action.actor, action.data
        card = data.get("card") if action.type == "buy_card" or \
            data.get("privilege") == "trier" else None
        price = 0 if card is None else card_cost(before, seat, card, R.components())
        price += R.cards["knight"]["cost"] if action.type == "knight_action" else 0
        paid = [b.thalers - a.thalers for b, a in zip(before.players, after.players, strict=True)]
        if paid != [price if s == seat else 0 for s in range(before.n)]:
            problems.append(f"{action.to_json()}: paid {paid}, price {price}")
    return problems


@pytest.mark.parametrize("players", [3, 4, 5])
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1))
def test_random_games_finish_replay_and_conserve_every_piece(players, seed):
    mode = "table" if seed % 2 else "digital"
    game = _random_game(players, seed, mode)
    result = R.result(game.final)
    assert result is not None and game.final.round == R.edition["rounds"]
    for state in game.states[1:]:
        assert conservation_problems(state) == []
    assert thaler_problems(game) == []
    state = R.initial_state(json.loads(json.dumps(game.created)))
    for action, expected in zip(game.actions, game.states[1:], strict=True):
        raw = json.loads(json.dumps(action.to_json()))
        state = R.apply(state, Action.of(raw["type"], raw["actor"], raw["data"]))
        assert state == expected


@pytest.mark.parametrize("players", [3, 4, 5])
@settings(max_examples=5, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1))
def test_digital_undo_of_an_own_action_restores_the_state_and_ballots_stay(players, seed):
    game = _random_game(players, seed)
    for i, action in enumerate(game.actions):
        if action.actor == "table":
            continue
        target = Action.of(action.type, action.actor, action.data, seq=i + 1)
        if action.type in ("cast_vote", "reveal_votes"):
            with pytest.raises(IllegalAction) as err:
                check_undo(R, "digital", None, action.actor, target)
            assert err.value.code == "undo_reveals_hidden"
        else:
            check_undo(R, "digital", None, action.actor, target)
    envs = [{"seq": 0, "type": "game_created", "actor": "table", "data": game.created}]
    envs += [{"seq": i + 1, **a.to_json()} for i, a in enumerate(game.actions)]
    folder = Folder(R, "digital")
    for env in envs:
        folder.feed(env)
    last = game.actions[-1]
    undo = {"seq": len(envs), "type": "undo", "actor": last.actor, "data": {}}
    if R.is_undoable_in_digital(last):
        assert folder.feed(undo).state == game.states[-2]
    else:
        with pytest.raises(IllegalAction):
            folder.feed(undo)


NONSENSE = [None, 0, 1, 3, 7, -1, "mainz", "bavaria", "court", "castle", "throne",
            "elector:mainz", "elector:x", "single", "couple", 15, 55, "older", "younger", "doctor",
            "permit", "trier", "rival", "emperor", "supply", "place", "move", "knight",
            "gray_eminence", True, False, "table"]


def _scramble(value: Any, rng: random.Random) -> Any:
    if isinstance(value, dict):
        out = dict(value)
        if out:
            key = rng.choice(sorted(out))
            out[key] = _scramble(out[key], rng)
        return out
    return rng.choice(NONSENSE)


@pytest.mark.parametrize("players", [3, 4, 5])
def test_well_shaped_nonsense_is_refused_as_an_illegal_action_and_nothing_else(players):
    rng = random.Random(players)
    game = _random_game(players, players, "table")
    tried = 0
    for state in game.states[::4]:
        options = R.legal_actions(state) or [{"type": "pass", "actor": 0, "data": {}}]
        for _ in range(8):
            option = rng.choice(options)
            type_ = option["type"] if rng.random() < 0.8 else rng.choice(sorted(R.action_schemas))
            data = _scramble(option["data"], rng)
            actor = option["actor"] if rng.random() < 0.8 else rng.choice([0, 2, 9, "table"])
            if R.action_schemas[type_]().validate(data):
                continue  # not well-shaped: the engine answers 400 before the reducer
            tried += 1
            with contextlib.suppress(IllegalAction):
                R.apply(state, Action.of(type_, actor, data))
    assert tried > 100


@pytest.mark.slow
@pytest.mark.parametrize("players", [3, 4, 5])
def test_hundreds_of_random_games_per_player_count_finish_and_conserve(players):
    for seed in range(250):
        game = _random_game(players, seed, "table" if seed % 2 else "digital")
        assert R.result(game.final) is not None
        assert conservation_problems(game.final) == []


@pytest.mark.parametrize("players", [3, 4, 5])
def test_hidden_ballots_never_leak_in_random_games(players):
    checked = 0
    for seed in range(6):
        game = _random_game(players, seed)
        for before, action, after in zip(game.states, game.actions, game.states[1:],
                                         strict=False):
            if action.type != "cast_vote" or after.pending is None or \
                    after.pending.kind != "vote":
                continue
            flipped = Action.of("cast_vote", action.actor, {
                "choice": "rival" if action.data["choice"] == "emperor" else "emperor"})
            twin = R.apply(before, flipped)
            for seat in [None, *range(players)]:
                if seat == action.actor:
                    continue
                assert R.view(twin, seat) == R.view(after, seat)
                assert R.redact(action, seat, before) == R.redact(flipped, seat, before)
                checked += 1
    assert checked > 0 or players == 3  # 3 players: one voter, whose ballot is the reveal


# ---------------------------------------------------------------------------
# Sample games and the edition
# ---------------------------------------------------------------------------

SAMPLE_SCORES = {3: ([18, 23, 20], [1]), 4: ([16, 21, 15, 20], [1]),
                 5: ([14, 21, 17, 13, 18], [1])}


@pytest.mark.parametrize("players", [3, 4, 5])
def test_sample_games_replay_to_their_final_scores(players):
    created, actions = SAMPLE_GAMES[players]()
    assert len(created["players"]) == players
    state = R.initial_state(created)
    for raw in actions:
        state = R.apply(state, Action.of(raw["type"], raw["actor"], raw["data"]))
    result = R.result(state)
    assert (result["scores"], result["winners"]) == SAMPLE_SCORES[players]
    for score, seat in zip(result["scores"], result["breakdown"]["per_seat"], strict=True):
        assert score == seat["vp"] == sum(v for k, v in seat.items() if k not in ("vp", "thalers"))
    assert state.round == 5


def test_the_default_edition_is_valid_and_a_broken_one_is_named():
    assert R.check_edition_content(R.edition) == []
    broken = {**R.edition, "card_counts": {"4": {}}, "thalers": {"start": "x"}}
    problems = R.check_edition_content(broken)
    assert any("thalers" in p for p in problems)


def test_board_and_cards_come_from_the_edition():
    edited = json.loads(json.dumps(R.edition))
    edited["electorates"][3]["aristocrat_spaces"] = 2
    edited["card_counts"]["4"]["doctor"] = 1
    edited["thalers"]["start"] = 9
    rules = get_rules(SLUG, edited)
    state = rules.initial_state(created_for(rules, 4))
    assert state.display.count("doctor") == 1 and state.players[0].thalers == 9
    bohemia = rules.components().electorates["bohemia"]
    assert bohemia.court_spaces(4) == 2 and bohemia.court_spaces(5) == 3


# ---------------------------------------------------------------------------
# Table mode: the starting Emperor is tapped, not typed (GameRules.chance_slots)
# ---------------------------------------------------------------------------


def _listed_setup(players: int) -> tuple[State, dict[str, Any]]:
    state = R.initial_state(created_for(R, players, mode="table"))
    [setup] = R.legal_actions(state)
    assert setup == {"type": "setup", "actor": "table", "data": {"players": players}}
    return state, setup


def _slots(state: State, listed: dict[str, Any]) -> list[dict[str, Any]]:
    return R.chance_slots(state, Action.of(listed["type"], listed["actor"], listed["data"]))


def _picked(listed: dict[str, Any], slot: dict[str, Any], value: Any) -> Action:
    """What the tablet records: the listed data with the tapped value at field + path."""
    data = json.loads(json.dumps(listed["data"]))
    data[slot["field"]] = value
    return Action.of(listed["type"], listed["actor"], data)


@pytest.mark.parametrize("players", [3, 4, 5])
def test_at_a_table_setup_offers_every_seat_as_the_starting_emperor(players):
    state, setup = _listed_setup(players)
    # each seat is shown by the player's name from game_created, never by its number
    names = created_for(R, players, mode="table")["players"]
    assert _slots(state, setup) == [{
        "field": "emperor", "path": [], "options": list(range(players)), "many": False,
        "count": None, "label": "seat that starts as Emperor",
        "groups": [{"label": "Players", "items": [{"label": names[seat], "values": [seat]}
                                                  for seat in range(players)]}]}]


@pytest.mark.parametrize("players", [3, 4, 5])
def test_any_offered_emperor_gives_a_legal_setup_that_this_seat_begins(players):
    state, setup = _listed_setup(players)
    [slot] = _slots(state, setup)
    for seat in slot["options"]:
        action = _picked(setup, slot, seat)
        assert R.action_schemas["setup"]().validate(dict(action.data)) == {}
        after = R.apply(state, action)
        assert (after.status, after.emperor) == ("playing", seat)
        assert after.pending == Pending("start_empire_city", seat)
        assert R.legal_actions(after, seat)


@pytest.mark.parametrize("players", [3, 4, 5])
def test_the_digital_server_s_emperor_is_always_one_of_the_offered_seats(players):
    state, setup = _listed_setup(players)
    [slot] = _slots(state, setup)
    action = Action.of(setup["type"], setup["actor"], setup["data"])
    dealt = {R.fill_chance(state, action, Dealer(f"seed-{i}", 1))["emperor"]
             for i in range(40)}
    assert dealt <= set(slot["options"])
    assert len(dealt) > 1, "the dealer is not stuck on one seat"


@pytest.mark.parametrize("players", [3, 4, 5])
def test_no_emperor_outside_the_offered_seats_is_accepted(players):
    state, setup = _listed_setup(players)
    [slot] = _slots(state, setup)
    # past the last seat, negative, and what only looks like a seat number
    for value in (players, -1, players + 3, True, "0", 1.0, None):
        with pytest.raises(IllegalAction) as err:
            R.apply(state, _picked(setup, slot, value))
        assert err.value.code == "unknown_seat", err.value.message
        assert f"0 to {players - 1}" in err.value.message
    refused(state, "setup", "table", "unknown_seat",
            f"The first Emperor must be one of the {players} seats, 0 to {players - 1}; "
            "none was named",
            players=players)


def test_a_setup_that_already_names_its_emperor_needs_nothing_more():
    state, _ = _listed_setup(4)
    assert R.chance_slots(state, Action.of("setup", "table", {"players": 4, "emperor": 2})) == []


@pytest.mark.parametrize("players", [3, 4, 5])
def test_no_action_but_setup_has_a_chance_outcome_to_pick(players):
    game = _random_game(players, seed=players, mode="table")
    seen = set()
    for state in game.states[1:]:
        for listed in R.legal_actions(state):
            assert listed["type"] != "setup"
            assert _slots(state, listed) == [], listed
            seen.add(listed["type"])
    assert {"place_start_empire_city", "buy_card", "pass", "reveal_votes"} <= seen
