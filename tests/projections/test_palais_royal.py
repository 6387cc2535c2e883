"""Palais Royal: the spec's worked examples (§11), every refusal, scoring and properties."""

from __future__ import annotations

import json
import random
from collections import Counter
from dataclasses import replace

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from projections import get_rules
from projections.palais_royal.edition import DONE
from projections.palais_royal.state import Turn
from projections.playout import created_for, play
from projections.replay import Folder
from projections.rules import Action, Bag, IllegalAction

from .palais_royal_games import SAMPLE_GAMES

RULES = get_rules("palais_royal")
LAYOUT = ["parade_ground", "stairway", "mint", "office", "gate", "kings_chamber",
          "back_door", "cardinal", "pompadour"]
SPACES = RULES.space_ids
ALL_NOBLES = sorted(RULES.nobles)
NAMES = ["Anne", "Bastien", "Claire", "Denis"]


# ---------------------------------------------------------------------------
# Helpers
# ---------------------------------------------------------------------------


def garden_with(**fixed: str) -> dict[str, str]:
    """36 nobles on the garden: the `fixed` ones where named, the others in id order."""
    rest = [n for n in ALL_NOBLES if n not in fixed.values()]
    out = {}
    for space in SPACES:
        out[space] = fixed[space] if space in fixed else rest.pop(0)
    return out


def setup_data(n: int = 3, start: int = 0, garden: dict | None = None) -> dict:
    garden = garden or garden_with()
    return {"player_count": n, "start_player": start, "court_layout": LAYOUT,
            "garden": garden}


def created(n: int) -> dict:
    """A game_created payload for `n` players named Anne, Bastien, Claire, Denis."""
    return {**created_for(RULES, n), "players": NAMES[:n]}


def set_up(n: int = 3, start: int = 0, garden: dict | None = None):
    state = RULES.initial_state(created(n))
    return RULES.apply(state, Action.of("setup", "table", setup_data(n, start, garden)))


def in_play(n: int = 3, start: int = 0, garden: dict | None = None):
    """After setup and initial placements (5 servants each on the Cardinal's neighbour
    Gate, so nothing matters until a test sets the court explicitly)."""
    state = set_up(n, start, garden)
    for k in range(n):
        seat = (start + k) % n
        state = RULES.apply(state, Action.of("initial_placement", seat,
                                             {"placements": {"gate": 5}}))
    return state


def court(**counts: int) -> tuple[int, ...]:
    return tuple(counts.get(t, 0) for t in RULES.tile_ids)


def with_player(state, seat, **changes):
    if "court" in changes and isinstance(changes["court"], dict):
        changes["court"] = court(**changes["court"])
    players = list(state.players)
    players[seat] = replace(players[seat], **changes)
    return replace(state, players=tuple(players))


def turn_of(state, seat, **turn):
    return replace(state, active=seat, turn=Turn(**turn))


def act(state, type_, actor, data=None):
    return RULES.apply(state, Action.of(type_, actor, data or {}))


def refused(state, type_, actor, data=None) -> IllegalAction:
    with pytest.raises(IllegalAction) as err:
        act(state, type_, actor, data)
    return err.value


def gold(state, seat):
    return state.players[seat].gold


def count(state, seat, tile):
    return state.players[seat].court[RULES.tile_index[tile]]


# ---------------------------------------------------------------------------
# §11 worked examples
# ---------------------------------------------------------------------------


def e1_state(cardinal_b: int = 0):
    state = in_play(3)
    state = with_player(state, 0, court={"mint": 2, "cardinal": 1}, gold=0)
    state = with_player(state, 1, court={"mint": 2, "cardinal": cardinal_b}, gold=0)
    return with_player(state, 2, court={"mint": 1, "cardinal": 3}, gold=0)


def test_e1_advantage_goes_to_the_tied_player_with_more_cardinal_servants():
    after = act(turn_of(e1_state(), 0), "move_servants", 0, {"steps": []})
    assert gold(after, 0) == 3


def test_e1_tied_player_with_fewer_cardinal_servants_has_no_advantage():
    after = act(turn_of(e1_state(), 1), "move_servants", 1, {"steps": []})
    assert gold(after, 1) == 2


def test_e1_equal_cardinal_counts_leave_the_mint_advantage_to_nobody():
    after = act(turn_of(e1_state(cardinal_b=1), 0), "move_servants", 0, {"steps": []})
    assert gold(after, 0) == 2


def test_e1_cardinal_card_gives_the_advantage_with_a_single_servant():
    state = with_player(turn_of(e1_state(), 2), 2, hand=Bag(["cardinal"]), gold=2)
    state = act(state, "play_privilege_card", 2, {"card": "cardinal"})
    assert gold(state, 2) == 0
    after = act(state, "move_servants", 2, {"steps": []})
    assert gold(after, 2) == 2  # 1 + 1: net 0 after the card's cost


def e2_state():
    state = in_play(2)
    state = with_player(state, 0, court={"stairway": 3, "cardinal": 2, "gate": 1},
                        nobles=("n26",), hand=Bag(["stairway_plus_5"]), gold=1)
    state = with_player(state, 1, court={"stairway": 3, "cardinal": 2})
    state = turn_of(state, 0)
    return act(state, "play_privilege_card", 0, {"card": "stairway_plus_5"})


def test_e2_move_allowance_adds_stairway_nobles_and_cards():
    state = e2_state()
    assert gold(state, 0) == 0
    assert not RULES.has_advantage(state, 0, "stairway")
    assert RULES.move_allowance(state, 0) == 10


def test_e2_orthogonal_steps_are_legal():
    after = act(e2_state(), "move_servants", 0, {"steps": [
        {"from": "gate", "to": "kings_chamber"}, {"from": "kings_chamber", "to": "pompadour"}]})
    assert count(after, 0, "pompadour") == 1 and count(after, 0, "gate") == 0


def test_e2_diagonal_step_without_a_diagonal_noble_is_refused():
    err = refused(e2_state(), "move_servants", 0, {"steps": [{"from": "gate",
                                                               "to": "pompadour"}]})
    assert err.code == "not_adjacent" and "Madame de Pompadour" in err.message


def test_e2_diagonal_step_with_a_diagonal_noble_is_legal():
    state = with_player(e2_state(), 0, nobles=("n26", "n29"))
    after = act(state, "move_servants", 0, {"steps": [{"from": "gate", "to": "pompadour"}]})
    assert count(after, 0, "pompadour") == 1


def test_e2_servants_moved_onto_the_stairway_do_not_raise_the_allowance():
    state = with_player(e2_state(), 0, court={"stairway": 3, "cardinal": 2, "mint": 1})
    steps = [{"from": "mint", "to": "stairway"}]
    steps += [{"from": "stairway", "to": "parade_ground"},
              {"from": "parade_ground", "to": "stairway"}] * 5
    err = refused(state, "move_servants", 0, {"steps": steps})
    assert err.code == "too_many_moves" and "10" in err.message


def e3_state():
    garden = garden_with(r0c3="n21")
    state = in_play(2, garden=garden)
    g = list(state.garden)
    for space in ("r0c2", "r0c4", "r1c2", "r1c3"):
        g[RULES.space_index[space]] = None
    state = replace(state, garden=tuple(g))
    state = with_player(state, 0, court={"office": 1, "pompadour": 2, "kings_chamber": 2},
                        gold=5, supply=0)
    return turn_of(state, 0)


def test_e3_statue_separated_spaces_give_no_discount():
    state = e3_state()
    assert RULES.recruit_price(state, "r0c3", RULES.nobles["n21"]) == 4


def test_e3_recruiting_pays_seals_servants_and_discounted_gold():
    after = act(e3_state(), "recruit_noble", 0, {"space": "r0c3", "noble": "n21"})
    p = after.players[0]
    assert (count(after, 0, "office"), count(after, 0, "pompadour"),
            count(after, 0, "kings_chamber")) == (0, 0, 0)
    assert p.gold == 1
    assert p.supply == 4
    assert after.garden_servants[RULES.space_index["r0c3"]] == 0
    assert after.garden[RULES.space_index["r0c3"]] is None
    view = RULES.view(after, 0)
    assert view["players"][0]["nobles_face_down"] == ["n21"]
    assert RULES.view(after, 1)["players"][0]["nobles_face_down_count"] == 1
    assert "nobles_face_down" not in RULES.view(after, 1)["players"][0]


def test_e3_a_second_recruit_needs_another_office_servant():
    after = act(e3_state(), "recruit_noble", 0, {"space": "r0c3", "noble": "n21"})
    space = SPACES[-1]
    err = refused(after, "recruit_noble", 0, {"space": space,
                                              "noble": after.garden[RULES.space_index[space]]})
    assert err.code == "no_office_servant" and "Office" in err.message


def e4_state():
    state = in_play(2, garden=garden_with(r3c2="n13"))
    state = with_player(state, 0, court={"office": 2, "pompadour": 1}, gold=5,
                        hand=Bag(["seals_plus_2"]))
    state = turn_of(state, 0)
    return act(state, "play_privilege_card", 0,
               {"card": "seals_plus_2", "seals": {"blue": 1, "purple": 1}})


def test_e4_bonus_seals_are_spent_before_servants():
    state = e4_state()
    assert gold(state, 0) == 3 and state.turn.open_step == 4
    supply = state.players[0].supply
    after = act(state, "recruit_noble", 0, {"space": "r3c2", "noble": "n13"})
    assert count(after, 0, "office") == 1 and count(after, 0, "pompadour") == 0
    assert gold(after, 0) == 1
    assert (after.turn.bonus_blue, after.turn.bonus_purple) == (0, 0)
    assert after.players[0].supply == supply + 2
    assert after.garden_servants[RULES.space_index["r3c2"]] is None


def test_e4_the_next_recruit_fails_on_the_first_missing_seal_purple():
    after = act(e4_state(), "recruit_noble", 0, {"space": "r3c2", "noble": "n13"})
    space = next(s for s in SPACES if after.garden[RULES.space_index[s]] == "n01")
    err = refused(after, "recruit_noble", 0, {"space": space, "noble": "n01"})
    assert err.code == "not_enough_purple_seals"
    assert "the 2-point noble (1 purple, 1 blue) costs 1 purple seal" in err.message


def e5_state(back_door: int = 2):
    state = in_play(2)
    state = with_player(state, 0, court={"back_door": back_door}, nobles=("n37",))
    return turn_of(state, 0, open_step=4)


FIVE = ["mint_4_gold", "cardinal", "noble_2_points", "seals_plus_2", "cardinal"]


def test_e5_back_door_allowance_includes_cards_plus_3():
    assert RULES.draw_allowance(e5_state(), 0) == 5
    assert RULES.draw_allowance(e5_state(back_door=0), 0) == 0


def test_e5_keeping_more_cards_than_back_door_servants_is_refused():
    drawn = act(e5_state(), "draw_privilege_cards", 0, {"count": 5, "cards": FIVE})
    err = refused(drawn, "keep_privilege_cards", 0, {"kept": FIVE[:3]})
    assert err.code == "too_many_kept" and "2" in err.message


def test_e5_keeping_two_returns_two_servants_and_discards_the_rest():
    state = e5_state()
    supply = state.players[0].supply
    drawn = act(state, "draw_privilege_cards", 0, {"count": 5, "cards": FIVE})
    kept = act(drawn, "keep_privilege_cards", 0, {"kept": ["cardinal", "mint_4_gold"]})
    assert count(kept, 0, "back_door") == 0
    assert kept.players[0].supply == supply + 2
    assert kept.players[0].hand == Bag(["cardinal", "mint_4_gold"])
    assert kept.discard == Bag(["noble_2_points", "seals_plus_2", "cardinal"])
    assert kept.turn.open_step == DONE


def test_e5_no_back_door_servant_means_no_draw_even_with_cards_plus_3():
    err = refused(e5_state(back_door=0), "draw_privilege_cards", 0,
                  {"count": 1, "cards": ["cardinal"]})
    assert err.code == "too_many_cards" and "0" in err.message


def e5_reshuffle_state():
    discard = Bag(["noble_4_points"] * 4 + ["stairway_plus_9"] * 4 + ["parade_unlimited"] * 2)
    return replace(e5_state(), deck=Bag(["mint_4_gold", "cardinal"]), discard=discard)


def test_e5_reshuffle_draws_the_pile_first_then_the_discard():
    cards = ["cardinal", "mint_4_gold", "noble_4_points", "stairway_plus_9",
             "noble_4_points"]
    after = act(e5_reshuffle_state(), "draw_privilege_cards", 0, {"count": 5, "cards": cards})
    assert after.discard == Bag()
    assert after.deck == Bag(["noble_4_points"] * 2 + ["stairway_plus_9"] * 3
                             + ["parade_unlimited"] * 2)
    assert after.turn.pending == tuple(cards)


def test_e5_reshuffle_refuses_a_discard_card_before_the_pile_is_empty():
    cards = ["noble_4_points", "cardinal", "mint_4_gold", "stairway_plus_9", "noble_4_points"]
    err = refused(e5_reshuffle_state(), "draw_privilege_cards", 0, {"count": 5,
                                                                    "cards": cards})
    assert err.code == "not_available" and "Noble: 4 points" in err.message


def e6_state():
    state = in_play(3)
    placed = {"r0c0": 0, "r0c2": 0, "r4c5": 0, "r5c4": 0,
              "r0c1": 1, "r0c4": 1, "r2c0": 1, "r5c5": 1,
              "r0c5": 2, "r5c2": 2}
    servants = tuple(placed.get(s) for s in SPACES)
    return replace(state, garden_servants=servants)


def test_e6_garden_edge_scoring():
    edges = RULES.garden_edge_points(e6_state())
    assert edges[0] == {"north": 6, "east": 2, "west": 2}
    assert edges[1] == {"north": 2, "east": 2, "west": 6}
    assert edges[2] == {"east": 2, "south": 6}
    assert [sum(e.values()) for e in edges] == [10, 10, 8]


def e7_state(gold_q: int = 1):
    state = e6_state()
    state = with_player(state, 0, nobles=("n21", "n15", "n41"), gold=3,
                        played=("noble_4_points", "noble_2_points"),
                        hand=Bag(["cardinal"] * 4 + ["mint_4_gold"] * 4))
    state = with_player(state, 1, nobles=("n22", "n20", "n19", "n18"), gold=gold_q,
                        hand=Bag(["cardinal"] * 3), played=())
    state = with_player(state, 2, nobles=(), hand=Bag(), played=(), gold=0)
    return replace(state, phase="over")


def test_e7_final_score_caps_held_cards_at_six():
    result = RULES.result(e7_state())
    row = result["breakdown"]["per_seat"][0]
    assert (row["nobles"], row["played_cards"], row["held_cards"], row["garden"]) == \
        (16, 6, 6, 10)
    assert result["scores"] == [38, 38, 8]


def test_e7_tie_on_points_goes_to_the_player_with_more_gold():
    assert RULES.result(e7_state())["winners"] == [0]


def test_e7_tie_on_points_and_gold_is_a_shared_victory():
    assert RULES.result(e7_state(gold_q=3))["winners"] == [0, 1]


def e8_state(left_after: int = 11):
    """4 players, round 5, seat 2's turn, 13 nobles in the garden."""
    state = in_play(4)
    keep = set(SPACES[:13])
    garden = tuple(n if s in keep else None for s, n in zip(SPACES, state.garden, strict=True))
    state = replace(state, garden=garden, round=5)
    state = with_player(state, 2, court={"office": 2, "pompadour": 9, "kings_chamber": 9},
                        gold=50)
    state = turn_of(state, 2)
    for space in SPACES[:13 - left_after]:
        state = act(state, "recruit_noble", 2,
                    {"space": space, "noble": state.garden[RULES.space_index[space]]})
    return state


def test_e8_the_final_round_starts_at_the_start_player_check():
    state = act(e8_state(), "end_turn", 2)
    assert RULES.nobles_left(state) == 11 and not state.final_round and state.active == 3
    state = act(state, "end_turn", 3)
    assert state.final_round and state.round == 6 and state.active == 0
    for seat in (0, 1, 2):
        state = act(state, "end_turn", seat)
        assert RULES.result(state) is None
    state = act(state, "end_turn", 3)
    assert state.phase == "over" and RULES.result(state) is not None
    assert RULES.to_act(state) == () and RULES.legal_actions(state) == []


def test_e8_thirteen_nobles_at_the_check_continue_play():
    state = act(act(e8_state(left_after=13), "end_turn", 2), "end_turn", 3)
    assert not state.final_round and state.round == 6


def e9_state():
    state = in_play(2)
    state = with_player(state, 0, supply=1, court={"parade_ground": 2, "mint": 1})
    state = with_player(state, 1, court={"parade_ground": 3})
    return turn_of(state, 0)


def test_e9_tile_sources_only_once_the_supply_is_empty():
    state = e9_state()
    assert RULES.gate_allowance(state, 0) == 2
    after = act(state, "place_at_gate", 0, {"sources": ["supply", "mint"]})
    assert count(after, 0, "gate") == 2 and count(after, 0, "mint") == 0
    assert after.players[0].supply == 0 and after.turn.open_step == 2


@pytest.mark.parametrize(("sources", "code"), [
    (["mint", "supply"], "supply_not_empty"),
    (["supply", "gate"], "source_is_destination"),
    (["supply", "supply"], "supply_empty"),
])
def test_e9_refused_sources(sources, code):
    err = refused(e9_state(), "place_at_gate", 0, {"sources": sources})
    assert err.code == code and "for the Gate" in err.message


def test_e10_setup_numbers():
    state = set_up(3, start=1)
    assert [p.gold for p in state.players] == [2, 0, 1]
    for p in state.players:
        assert (count(state, 0, "stairway"), count(state, 0, "parade_ground")) == (3, 2)
        assert p.supply == 13 and p.general == 7
    assert RULES.to_act(state) == (1,)
    for seat in (1, 2, 0):
        state = act(state, "initial_placement", seat,
                    {"placements": {"office": 2, "mint": 1, "back_door": 2}})
    for p in state.players:
        assert p.supply == 8 and sum(p.court) == 10
    assert RULES.nobles_left(state) == 36 and len(state.deck) == 36
    assert state.phase == "play" and state.round == 1 and state.active == 1


# ---------------------------------------------------------------------------
# Other rules
# ---------------------------------------------------------------------------


def test_closing_step_two_pays_the_mint_even_when_the_turn_just_ends():
    state = turn_of(with_player(in_play(2), 0, court={"mint": 2}, nobles=("n31",)), 0)
    after = act(state, "end_turn", 0)
    assert gold(after, 0) == gold(state, 0) + 2 + 1 + 2  # mint, advantage, gold+2 noble


def test_mint_income_can_pay_for_seals_plus_2_review_ruling_1():
    state = turn_of(with_player(in_play(2), 0, court={"mint": 2}, gold=0,
                                hand=Bag(["seals_plus_2"])), 0)
    after = act(state, "play_privilege_card", 0,
                {"card": "seals_plus_2", "seals": {"blue": 2, "purple": 0}})
    assert gold(after, 0) == 1 and after.turn.bonus_blue == 2


def test_unspent_bonus_seals_lapse_when_step_four_closes():
    state = act(e4_state(), "draw_privilege_cards", 0, {"count": 0, "cards": []})
    assert (state.turn.bonus_blue, state.turn.bonus_purple) == (0, 0)
    assert state.turn.open_step == DONE


def test_servant_privilege_moves_general_supply_servants_once():
    state = e3_state()
    state = replace(state, garden=tuple("n41" if s == "r3c2" else (None if n == "n41" else n)
                                        for s, n in zip(SPACES, state.garden, strict=True)))
    state = with_player(state, 0, general=2)
    after = act(state, "recruit_noble", 0, {"space": "r3c2", "noble": "n41"})
    p = after.players[0]
    assert p.general == 0 and p.supply == 0 + 1 + 2 + 2 + 2  # office, seals, only 2 left


def test_court_placements_put_advantage_and_seal_servants():
    state = in_play(2)
    state = with_player(state, 0, court={"kings_chamber": 2, "gate": 1}, supply=1,
                        nobles=("n34",))
    state = with_player(state, 1, court={"pompadour": 1})
    state = turn_of(state, 0, open_step=3)
    after = act(state, "court_placements", 0, {
        "kings_chamber_extra": "supply", "pompadour_extra": None,
        "seal_bonus": [{"tile": "pompadour", "source": "gate"}]})
    assert count(after, 0, "kings_chamber") == 3 and count(after, 0, "pompadour") == 1
    assert after.players[0].supply == 0 and after.turn.open_step == 4


def test_court_placements_close_step_two_first_and_pay_the_mint():
    state = in_play(2)
    state = with_player(state, 0, court={"mint": 1, "pompadour": 1}, supply=1, gold=0)
    after = act(turn_of(state, 0), "court_placements", 0, {"pompadour_extra": "supply"})
    assert gold(after, 0) == 2 and count(after, 0, "pompadour") == 2


def test_gate_placement_unlimited_with_parade_unlimited():
    state = turn_of(with_player(in_play(2), 0, hand=Bag(["parade_unlimited"]), gold=2), 0)
    state = act(state, "play_privilege_card", 0, {"card": "parade_unlimited"})
    after = act(state, "place_at_gate", 0, {"sources": ["supply"] * 8})
    assert after.players[0].supply == 0


def test_gate_plus_2_nobles_and_parade_stairway_add_to_the_gate_allowance():
    state = with_player(in_play(2), 0, nobles=("n23", "n24"), hand=Bag(["parade_stairway"]),
                        gold=3)
    state = act(turn_of(state, 0), "play_privilege_card", 0, {"card": "parade_stairway"})
    # Parade Ground 2 (tied with seat 1, no advantage) + 2x2 nobles + 2 card
    assert RULES.gate_allowance(state, 0) == 8
    assert RULES.move_allowance(state, 0) == 3 + 6


def test_noble_cards_stay_in_front_and_score():
    state = turn_of(with_player(in_play(2), 0, hand=Bag(["noble_4_points"]), gold=6), 0)
    after = act(state, "play_privilege_card", 0, {"card": "noble_4_points"})
    assert after.players[0].played == ("noble_4_points",) and after.discard == Bag()
    assert RULES.score_breakdown(after)[0]["played_cards"] == 4


def test_mint_card_may_be_played_after_all_steps():
    state = turn_of(with_player(in_play(2), 0, hand=Bag(["mint_4_gold"]), gold=0), 0,
                    open_step=DONE)
    assert gold(act(state, "play_privilege_card", 0, {"card": "mint_4_gold"}), 0) == 4


def test_garden_tie_for_first_scores_two_each_and_nobody_else():
    state = in_play(3)
    placed = {"r0c0": 0, "r0c1": 1, "r0c4": 2}
    state = replace(state, garden_servants=tuple(placed.get(s) for s in SPACES))
    edges = RULES.garden_edge_points(state)
    assert [e.get("north", 0) for e in edges] == [2, 2, 2]


def test_setup_fill_chance_gives_a_legal_setup():
    from projections.rules import Dealer
    state = RULES.initial_state(created(4))
    auto = RULES.auto_action(state)
    data = RULES.fill_chance(state, Action.of(auto["type"], "table", auto["data"]),
                             Dealer("x", 1))
    after = act(state, "setup", "table", data)
    assert after.phase == "initial_placement" and len(after.set_aside) == 6


# ---------------------------------------------------------------------------
# Refusals
# ---------------------------------------------------------------------------


def _bad_garden_missing():
    g = garden_with()
    g.pop("r0c0")
    return g


def _bad_garden_dup():
    g = garden_with()
    g["r0c0"] = g["r0c1"]
    return g


def _bad_garden_unknown():
    g = garden_with()
    g["r0c0"] = "n99"
    return g


def _play(**turn):
    state = in_play(3)
    state = with_player(state, 0, court={"parade_ground": 2, "stairway": 3, "gate": 1,
                                         "office": 1, "mint": 1},
                        hand=Bag(["cardinal", "seals_plus_2"]), gold=1)
    return turn_of(state, 0, **turn)


def _after(type_, data, **turn):
    return act(_play(**turn), type_, 0, data)


def _drawn():
    state = with_player(_play(open_step=4), 0, court={"back_door": 1})
    return act(state, "draw_privilege_cards", 0, {"count": 1, "cards": ["noble_2_points"]})


FRESH = RULES.initial_state(created(3))
N01_SPACE = "r0c0"  # garden_with() puts n01 on r0c0

REFUSALS = [
    # setup
    ("setup twice", lambda: set_up(3), "setup", "table", setup_data(3),
     "game_already_set_up", "already"),
    ("setup player count", lambda: FRESH, "setup", "table", setup_data(4),
     "player_count_mismatch", "4"),
    ("setup start player", lambda: FRESH, "setup", "table", setup_data(3, start=3),
     "bad_start_player", "3"),
    ("setup layout", lambda: FRESH, "setup", "table",
     {**setup_data(3), "court_layout": [*LAYOUT[:-1], "gate"]}, "bad_court_layout",
     "Cardinal and Gate"),
    ("setup garden missing", lambda: FRESH, "setup", "table",
     setup_data(3, garden=_bad_garden_missing()), "bad_garden",
     "no noble is named for row 1, column 1"),
    ("setup garden repeat", lambda: FRESH, "setup", "table",
     setup_data(3, garden=_bad_garden_dup()), "bad_garden",
     "the 1-point noble (1 gold, 1 purple) is on 2 spaces"),
    ("setup garden unknown", lambda: FRESH, "setup", "table",
     setup_data(3, garden=_bad_garden_unknown()), "unknown_noble", "n99"),
    ("setup set aside", lambda: FRESH, "setup", "table",
     {**setup_data(3), "set_aside": ["n01"] * 6}, "bad_set_aside",
     "2-point noble with Servants +3 (1 purple, 2 blue))"),
    ("setup by a seat", lambda: FRESH, "setup", 0, setup_data(3), "not_your_turn",
     "the table records the setup, not Anne"),
    # initial placement
    ("placement out of turn", lambda: set_up(3), "initial_placement", 1,
     {"placements": {"office": 5}}, "not_your_turn",
     "it is Anne's turn to place 5 servants, not Bastien's"),
    ("placement of 4", lambda: set_up(3), "initial_placement", 0,
     {"placements": {"office": 4}}, "wrong_placement_total", "4"),
    ("placement unknown tile", lambda: set_up(3), "initial_placement", 0,
     {"placements": {"garden": 5}}, "unknown_tile", "garden"),
    ("placement of zero", lambda: set_up(3), "initial_placement", 0,
     {"placements": {"office": 5, "mint": 0}}, "bad_placement", "the Mint has 0"),
    ("turn action during setup placements", lambda: set_up(3), "place_at_gate", 0,
     {"sources": []}, "wrong_phase", "the initial placements are under way"),
    ("placement during play", lambda: _play(), "initial_placement", 0,
     {"placements": {"office": 5}}, "wrong_phase", "play"),
    # gate
    ("gate by the wrong seat", lambda: _play(), "place_at_gate", 1, {"sources": []},
     "not_your_turn", "it is Anne's turn to place servants on the Gate, not Bastien's"),
    ("gate twice", lambda: _after("place_at_gate", {"sources": []}), "place_at_gate", 0,
     {"sources": []}, "step_closed", "step 2"),
    ("gate after moving", lambda: _after("move_servants", {"steps": []}), "place_at_gate", 0,
     {"sources": []}, "step_closed", "step 3"),
    ("gate over the allowance", lambda: _play(), "place_at_gate", 0,
     {"sources": ["supply"] * 3}, "too_many_servants", "2"),
    ("gate from a tile with supply left", lambda: _play(), "place_at_gate", 0,
     {"sources": ["mint"]}, "supply_not_empty",
     "taken from a court tile (the Mint) only when Anne's personal supply is empty"),
    ("gate from an unknown place", lambda: _play(), "place_at_gate", 0,
     {"sources": ["cellar"]}, "unknown_tile", "cellar"),
    ("gate from an empty tile", lambda: with_player(_play(), 0, supply=0), "place_at_gate", 0,
     {"sources": ["back_door"]}, "no_servant_on_source",
     "Anne has no servant on the Back Door"),
    # moves
    ("move to a non-adjacent tile", lambda: _play(), "move_servants", 0,
     {"steps": [{"from": "gate", "to": "cardinal"}, {"from": "office", "to": "mint"}]},
     "not_adjacent", "move 2: the Mint is not orthogonally next to the Office"),
    ("move from an empty tile", lambda: _play(), "move_servants", 0,
     {"steps": [{"from": "pompadour", "to": "cardinal"}]}, "no_servant_on_tile",
     "Anne has no servant on Madame de Pompadour"),
    ("move to the same tile", lambda: _play(), "move_servants", 0,
     {"steps": [{"from": "gate", "to": "gate"}]}, "move_to_same_tile",
     "from the Gate to the Gate"),
    ("move to an unknown tile", lambda: _play(), "move_servants", 0,
     {"steps": [{"from": "gate", "to": "ballroom"}]}, "unknown_tile", "ballroom"),
    ("too many moves", lambda: _play(), "move_servants", 0,
     {"steps": [{"from": "gate", "to": "office"}, {"from": "office", "to": "gate"}] * 3},
     "too_many_moves", "6"),
    ("move twice", lambda: _after("move_servants", {"steps": []}), "move_servants", 0,
     {"steps": []}, "step_closed", "step 2"),
    # court placements
    ("extra servant without advantage", lambda: _play(), "court_placements", 0,
     {"kings_chamber_extra": "supply"}, "no_advantage",
     "the extra servant on the King's Chamber needs the advantage"),
    ("seal bonus without a seal noble", lambda: _play(), "court_placements", 0,
     {"seal_bonus": [{"tile": "pompadour", "source": "supply"}]}, "too_many_seal_bonus", "0"),
    ("seal bonus on a wrong tile", lambda: with_player(_play(), 0, nobles=("n34",)),
     "court_placements", 0, {"seal_bonus": [{"tile": "mint", "source": "supply"}]},
     "bad_seal_bonus_tile", "not on the Mint"),
    ("court placements after recruiting", lambda: _after(
        "play_privilege_card", {"card": "seals_plus_2", "seals": {"blue": 0, "purple": 2}}),
     "court_placements", 0, {}, "step_closed", "step 4"),
    # recruits
    ("recruit a noble not on that space", lambda: _play(), "recruit_noble", 0,
     {"space": "r0c0", "noble": "n02"}, "noble_not_in_garden",
     "the 1-point noble (1 gold, 1 purple) is not on row 1, column 1"),
    ("recruit from an unknown space", lambda: _play(), "recruit_noble", 0,
     {"space": "r9c9", "noble": "n01"}, "unknown_space", "r9c9"),
    ("recruit an unknown noble", lambda: _play(), "recruit_noble", 0,
     {"space": "r0c0", "noble": "n77"}, "unknown_noble", "n77"),
    ("recruit a noble already taken",
     lambda: replace(_play(), garden=(None, *_play().garden[1:])),
     "recruit_noble", 0, {"space": N01_SPACE, "noble": "n01"}, "noble_not_in_garden", "empty"),
    ("recruit without office", lambda: with_player(_play(), 0, court={"pompadour": 3}),
     "recruit_noble", 0, {"space": N01_SPACE, "noble": "n01"}, "no_office_servant", "Office"),
    ("recruit without purple", lambda: _play(), "recruit_noble", 0,
     {"space": N01_SPACE, "noble": "n01"}, "not_enough_purple_seals",
     "the 2-point noble (1 purple, 1 blue) costs 1 purple seal"),
    ("recruit without blue", lambda: with_player(_play(), 0, court={"office": 1,
                                                                    "pompadour": 1}),
     "recruit_noble", 0, {"space": N01_SPACE, "noble": "n01"}, "not_enough_blue_seals",
     "1 blue seal; Anne has 0 bonus blue seals and 0 servants on the King's Chamber"),
    ("recruit without gold", lambda: with_player(_play(), 0, gold=0, court={
        "office": 1, "pompadour": 2, "kings_chamber": 2}),
     "recruit_noble", 0, {"space": "r0c1", "noble": "n02"}, "not_enough_gold",
     "the 1-point noble (1 gold, 1 purple) costs 1 gold on row 1, column 2; Anne has 0"),
    ("recruit after drawing", lambda: act(_play(open_step=4), "draw_privilege_cards", 0,
                                          {"count": 0, "cards": []}),
     "recruit_noble", 0, {"space": N01_SPACE, "noble": "n01"}, "step_closed", "step 4"),
    # back door
    ("draw over the allowance", lambda: _play(), "draw_privilege_cards", 0,
     {"count": 1, "cards": ["cardinal"]}, "too_many_cards", "0"),
    ("draw a negative count", lambda: _play(), "draw_privilege_cards", 0,
     {"count": -1, "cards": []}, "bad_count", "-1"),
    ("draw naming too few cards", lambda: with_player(_play(), 0, court={"back_door": 2}),
     "draw_privilege_cards", 0, {"count": 2, "cards": ["cardinal"]}, "wrong_card_count", "2"),
    ("draw a card not in the pile", lambda: replace(with_player(_play(), 0,
                                                                court={"back_door": 1}),
                                                    deck=Bag(["mint_4_gold"])),
     "draw_privilege_cards", 0, {"count": 1, "cards": ["cardinal"]}, "not_available",
     "the Cardinal card is not in the draw pile"),
    ("draw an unknown card", lambda: with_player(_play(), 0, court={"back_door": 1}),
     "draw_privilege_cards", 0, {"count": 1, "cards": ["joker"]}, "unknown_card", "joker"),
    ("draw twice", _drawn, "draw_privilege_cards", 0, {"count": 0, "cards": []},
     "step_closed", "step 5"),
    ("keep without drawing", lambda: _play(), "keep_privilege_cards", 0, {"kept": []},
     "nothing_drawn", "draw"),
    ("keep a card not drawn", _drawn, "keep_privilege_cards", 0, {"kept": ["cardinal"]},
     "card_not_drawn", "the Cardinal card is not among the cards Anne drew"),
    ("keep more than the back door", lambda: with_player(_drawn(), 0, court={}),
     "keep_privilege_cards", 0, {"kept": ["noble_2_points"]}, "too_many_kept", "0"),
    ("end turn with cards pending", _drawn, "end_turn", 0, {}, "cards_pending", "1"),
    # privilege cards
    ("card not in hand", lambda: _play(), "play_privilege_card", 0, {"card": "mint_4_gold"},
     "card_not_in_hand", "Anne holds no Mint: 4 gold card"),
    ("unknown card", lambda: _play(), "play_privilege_card", 0, {"card": "joker"},
     "unknown_card", "joker"),
    ("cardinal after the gate step", lambda: _after("place_at_gate", {"sources": []}),
     "play_privilege_card", 0, {"card": "cardinal"}, "card_window_closed", "step 1"),
    ("card without the gold", lambda: with_player(_play(), 0, gold=1), "play_privilege_card",
     0, {"card": "cardinal"}, "not_enough_gold", "2"),
    ("seals split not adding up", lambda: with_player(_play(), 0, gold=9),
     "play_privilege_card", 0, {"card": "seals_plus_2", "seals": {"blue": 2, "purple": 1}},
     "bad_seals", "got 2 blue and 1 purple"),
    ("seals on another card", lambda: with_player(_play(), 0, gold=9), "play_privilege_card",
     0, {"card": "cardinal", "seals": {"blue": 1, "purple": 1}}, "seals_not_allowed",
     "the Cardinal card does not"),
    # game over and unknown actions
    ("acting after the end", lambda: replace(_play(), phase="over"), "end_turn", 0, {},
     "game_over", "over"),
    ("unknown action", lambda: _play(), "bribe_the_king", 0, {}, "unknown_action",
     "bribe_the_king"),
]


@pytest.mark.parametrize(("name", "make", "type_", "actor", "data", "code", "named"),
                         REFUSALS, ids=[r[0] for r in REFUSALS])
def test_refusals_name_the_rule(name, make, type_, actor, data, code, named):
    err = refused(make(), type_, actor, data)
    assert err.code == code, err.message
    assert named in err.message


# ---------------------------------------------------------------------------
# Moves and placements that go nowhere (issue #19.4): each is refused
# ---------------------------------------------------------------------------


def _seal_tiles_state(**court_counts):
    """Anne at step 3 with an empty supply, a Seal +1 noble and a majority on both seal
    tiles, so only the no-op rule can refuse her placements."""
    state = with_player(_play(open_step=3), 0, supply=0, nobles=("n34",),
                        court={"kings_chamber": 2, "pompadour": 2, **court_counts})
    assert RULES.has_advantage(state, 0, "kings_chamber")
    assert RULES.has_advantage(state, 0, "pompadour")
    return state


NO_OPS = [
    # spec §5.5: "for every step ... from ≠ to"
    ("a move onto the tile it starts on", lambda: _play(), "move_servants",
     {"steps": [{"from": "mint", "to": "mint"}]}, "move_to_same_tile",
     "move 1 goes from the Mint to the Mint"),
    ("a later move onto its own tile", lambda: _play(), "move_servants",
     {"steps": [{"from": "gate", "to": "office"}, {"from": "office", "to": "office"}]},
     "move_to_same_tile", "move 2 goes from the Office to the Office"),
    # spec §4.2 / §5.4: "no source may be gate"
    ("a Gate servant taken from the Gate", lambda: with_player(_play(), 0, supply=0),
     "place_at_gate", {"sources": ["gate"]}, "source_is_destination",
     "servant 1 for the Gate cannot come from the Gate itself"),
    # spec §4.2 / §5.6: "a tile source may not be the destination"
    ("the King's Chamber extra from the King's Chamber", _seal_tiles_state,
     "court_placements", {"kings_chamber_extra": "kings_chamber"}, "source_is_destination",
     "servant 1 for the King's Chamber cannot come from the King's Chamber itself"),
    ("the Pompadour extra from Madame de Pompadour", _seal_tiles_state, "court_placements",
     {"pompadour_extra": "pompadour"}, "source_is_destination",
     "servant 1 for Madame de Pompadour cannot come from Madame de Pompadour itself"),
    ("a Seal +1 servant from the tile it goes to", _seal_tiles_state, "court_placements",
     {"seal_bonus": [{"tile": "kings_chamber", "source": "kings_chamber"}]},
     "source_is_destination", "cannot come from the King's Chamber itself"),
    # spec §5.9: kept is a sub-multiset of the cards drawn; one card cannot be kept twice
    ("one drawn card kept twice", lambda: with_player(_drawn(), 0, court={"back_door": 2}),
     "keep_privilege_cards", {"kept": ["noble_2_points", "noble_2_points"]},
     "card_not_drawn", "Anne drew 1 copy of the Noble: 2 points card"),
    # spec §5.7: the space must hold that noble now; a taken noble is not there any more
    ("a noble recruited from the space it already left",
     lambda: replace(_play(), garden=(None, *_play().garden[1:])), "recruit_noble",
     {"space": N01_SPACE, "noble": "n01"}, "noble_not_in_garden", "that space is empty"),
]


@pytest.mark.parametrize(("name", "make", "type_", "data", "code", "words"), NO_OPS,
                         ids=[r[0] for r in NO_OPS])
def test_a_move_or_placement_that_goes_nowhere_is_refused(name, make, type_, data, code,
                                                          words):
    err = refused(make(), type_, 0, data)
    assert err.code == code, err.message
    assert words in err.message


def test_the_same_placements_from_another_tile_are_accepted():
    """The refusals above are the no-op rule, not something else about those states."""
    state = _seal_tiles_state(gate=1)
    after = act(state, "court_placements", 0, {
        "kings_chamber_extra": "gate", "pompadour_extra": "kings_chamber",
        "seal_bonus": [{"tile": "kings_chamber", "source": "pompadour"}]})
    assert count(after, 0, "gate") == 0
    assert (count(after, 0, "kings_chamber"), count(after, 0, "pompadour")) == (3, 2)
    moved = act(_play(), "move_servants", 0, {"steps": [{"from": "mint", "to": "stairway"}]})
    assert count(moved, 0, "mint") == 0


def test_a_servant_walked_there_and_back_is_two_real_moves():
    """Rulings #21: each step changes tile (§5.5), so a servant may go and come back; it
    spends 2 moves of the allowance and leaves the court as it was."""
    state = _play()
    steps = [{"from": "gate", "to": "office"}, {"from": "office", "to": "gate"}]
    after = act(state, "move_servants", 0, {"steps": steps})
    assert after.players[0].court == state.players[0].court
    err = refused(_play(), "move_servants", 0, {"steps": steps * 2})
    assert err.code == "too_many_moves"  # 4 moves against an allowance of 3


@pytest.mark.parametrize("players, seed", [(2, 21), (3, 22), (4, 23)])
def test_the_listed_actions_never_move_or_place_a_servant_onto_its_own_tile(players, seed):
    game = random_game(players, seed)
    checked = 0
    for state in game.states[::3]:
        for action in RULES.legal_actions(state):
            d = action["data"]
            for step in d.get("steps", ()):
                assert step["from"] != step["to"], action
            assert "gate" not in d.get("sources", ()), action
            for tile, key in (("kings_chamber", "kings_chamber_extra"),
                              ("pompadour", "pompadour_extra")):
                assert d.get(key) != tile, action
            for entry in d.get("seal_bonus", ()):
                assert entry["tile"] != entry["source"], action
            checked += action["type"] in ("move_servants", "place_at_gate", "court_placements")
    assert checked > 50


# ---------------------------------------------------------------------------
# Views and redaction
# ---------------------------------------------------------------------------


def test_views_hide_hands_face_down_nobles_and_pending_draws():
    state = with_player(_drawn(), 0, nobles=("n01", "n23"))
    mine, other, spectator = RULES.view(state, 0), RULES.view(state, 1), RULES.view(state, None)
    assert mine["players"][0]["hand"] == {"cardinal": 1, "seals_plus_2": 1}
    assert mine["turn"]["pending_drawn"] == ["noble_2_points"]
    for view in (other, spectator):
        me = view["players"][0]
        assert "hand" not in me and "nobles_face_down" not in me and me["hand_count"] == 2
        assert me["nobles_face_up"] == ["n23"] and me["nobles_face_down_count"] == 1
        assert "pending_drawn" not in view["turn"] and view["turn"]["pending_drawn_count"] == 1
        assert "set_aside" not in view and isinstance(view["deck_count"], int)
    assert RULES.view(state, "all")["players"][1]["hand"] == {}


def test_redact_hides_another_seats_back_door_draw_and_keep():
    state = with_player(_play(open_step=4), 0, court={"back_door": 1})
    draw = Action.of("draw_privilege_cards", 0, {"count": 1, "cards": ["noble_2_points"]})
    keep = Action.of("keep_privilege_cards", 0, {"kept": ["noble_2_points"]})
    assert RULES.redact(draw, 1, state) == {"count": 1, "drawn_count": 1}
    assert RULES.redact(draw, None, state) == {"count": 1, "drawn_count": 1}
    assert RULES.redact(draw, 0, state) is None and RULES.redact(draw, "all", state) is None
    assert RULES.redact(keep, 2, state) == {"kept_count": 1}


# ---------------------------------------------------------------------------
# Properties of random legal play
# ---------------------------------------------------------------------------


def random_game(players: int, seed: int):
    return play(RULES, created_for(RULES, players), random.Random(seed).randrange,
                f"seed-{seed}", max_steps=3000)


def assert_conserved(state):
    if state.phase == "awaiting_setup":
        return
    for seat, p in enumerate(state.players):
        assert p.supply >= 0 and p.general >= 0 and min(p.court) >= 0 and p.gold >= 0
        garden = sum(1 for s in state.garden_servants if s == seat)
        assert p.supply + sum(p.court) + garden + p.general == RULES.per_colour
    nobles = [n for n in state.garden if n] + list(state.set_aside)
    nobles += [n for p in state.players for n in p.nobles]
    assert sorted(nobles) == ALL_NOBLES
    cards = Counter(state.deck) + Counter(state.discard) + Counter(state.turn.pending)
    for p in state.players:
        cards += Counter(p.hand) + Counter(p.played)
    assert cards == Counter({c.id: c.count for c in RULES.cards.values()})


CLOSERS = {"move_servants", "court_placements", "recruit_noble", "draw_privilege_cards",
           "end_turn"}


def expected_gold_delta(before, action, after) -> int:
    """An independent gold ledger: Mint income when step 2 closes, card costs and gains,
    recruit prices. The bank is unlimited, so this is what "gold is conserved" means."""
    if before.phase != "play":
        return 0
    seat, delta = before.active, 0
    card = RULES.cards.get(action.data.get("card")) if action.type == "play_privilege_card" \
        else None
    closes = action.type in CLOSERS or (card is not None
                                        and "closes_steps_through" in card.effect)
    if closes and before.turn.open_step <= 2:
        basis = after if action.type == "move_servants" else before
        delta += RULES.mint_income(replace(basis, active=seat, turn=before.turn), seat)
    if card is not None:
        delta += int(card.effect.get("gold", 0)) - card.cost
    if action.type == "recruit_noble":
        delta -= RULES.recruit_price(before, action.data["space"],
                                     RULES.nobles[action.data["noble"]])
    return delta


def assert_gold_is_accounted_for(before, after, action):
    for seat in range(before.player_count if before.players else 0):
        change = after.players[seat].gold - before.players[seat].gold
        assert change == (expected_gold_delta(before, action, after)
                          if seat == before.active else 0)


def assert_no_leaks(state, action, before):
    for seat in [None, *range(state.player_count)]:
        view = RULES.view(state, seat)
        for other, pv in enumerate(view["players"]):
            if other != seat and state.phase != "over":
                assert "hand" not in pv and "nobles_face_down" not in pv
        if state.phase != "over" and seat != state.active:
            assert "pending_drawn" not in view["turn"]
        if action.type in ("draw_privilege_cards", "keep_privilege_cards") and \
                seat != action.actor:
            shown = RULES.redact(action, seat, before)
            assert shown is not None and "cards" not in shown and "kept" not in shown


@pytest.mark.parametrize("players", [2, 3, 4])
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1))
def test_random_games_finish_and_conserve_every_component(players, seed):
    game = random_game(players, seed)
    result = RULES.result(game.final)
    assert result is not None and len(result["scores"]) == players
    for before, action, after in zip(game.states[:-1], game.actions, game.states[1:], strict=True):
        assert_conserved(after)
        assert_gold_is_accounted_for(before, after, action)
    json.dumps(result)


@pytest.mark.parametrize("players", [2, 3, 4])
@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1))
def test_random_games_replay_deterministically_and_hide_what_is_hidden(players, seed):
    game = random_game(players, seed)
    replayed = RULES.initial_state(json.loads(json.dumps(game.created)))
    steps = zip(game.states[:-1], game.actions, game.states[1:], strict=True)
    for number, (before, action, after) in enumerate(steps):
        raw = json.loads(json.dumps(action.to_json()))
        replayed = RULES.apply(replayed, Action.of(raw["type"], raw["actor"], raw["data"]))
        assert replayed == after
        if number % 3 == 0 or action.type in ("draw_privilege_cards", "keep_privilege_cards"):
            assert_no_leaks(after, action, before)


@pytest.mark.parametrize("players", [2, 3, 4])
@settings(max_examples=3, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1))
def test_every_listed_action_applies(players, seed):
    from projections.rules import Dealer
    game = random_game(players, seed)
    for number, state in enumerate(game.states[::5]):
        for proposal in RULES.legal_actions(state):
            action = Action.of(proposal["type"], proposal["actor"], proposal["data"])
            if RULES.chance_fields.get(action.type):
                data = RULES.fill_chance(state, action, Dealer("x", number))
                action = Action.of(action.type, action.actor, data)
            RULES.apply(state, action)


@pytest.mark.parametrize("players", [2, 3, 4])
@settings(max_examples=3, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1))
def test_undo_restores_the_state_before_every_action(players, seed):
    game = random_game(players, seed)
    envs = [{"seq": 0, "type": "game_created", "actor": "table", "data": game.created}]
    envs += [{"seq": i + 1, **a.to_json()} for i, a in enumerate(game.actions)]
    folder = Folder(RULES, "table")
    folder.feed(envs[0])
    for i, env in enumerate(envs[1:], 1):
        folder.feed(env)
        if i % 7:
            continue
        scratch = Folder(RULES, "table", fallback=folder.lookup, event_at=folder.envelopes.get)
        scratch.resume(folder.last)
        undo = {"seq": folder.last.seq + 1, "type": "undo", "actor": "table", "data": {}}
        assert scratch.feed(undo).state == game.states[i - 1]


@pytest.mark.slow
@pytest.mark.parametrize("players", [2, 3, 4])
def test_hundreds_of_random_games_finish(players):
    for seed in range(200):
        game = random_game(players, seed * 7919 + players)
        assert RULES.result(game.final) is not None, seed
        assert_conserved(game.final)


# ---------------------------------------------------------------------------
# Sample games (fixtures)
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("name", sorted(SAMPLE_GAMES))
def test_sample_games_reach_their_recorded_scores(name):
    make, expected_scores, expected_winners = SAMPLE_GAMES[name]
    created, actions = make()
    state = RULES.initial_state(created)
    for raw in actions:
        state = RULES.apply(state, Action.of(raw["type"], raw["actor"], raw["data"]))
    result = RULES.result(state)
    assert result["scores"] == expected_scores
    assert result["winners"] == expected_winners


# ---------------------------------------------------------------------------
# Edition and wording
# ---------------------------------------------------------------------------


def test_the_shipped_edition_passes_its_schema_and_a_broken_one_does_not():
    from projections.palais_royal import PalaisRoyal
    assert PalaisRoyal.check_edition_content(RULES.edition) == []
    broken = {**RULES.edition, "nobles": [{"id": "n01", "gold": -1}]}
    assert PalaisRoyal.check_edition_content(broken)
    fewer = {**RULES.edition, "nobles_placed": 35}
    assert any("garden spaces" in p for p in PalaisRoyal.check_edition_content(fewer))


def test_a_club_edition_changes_the_numbers():
    edition = json.loads(json.dumps(RULES.edition))
    for card in edition["privilege_cards"]:
        if card["id"] == "stairway_plus_5":
            card["cost"] = 4
    for tile in edition["court"]["tiles"]:
        if tile["id"] == "mint":
            tile["advantage_bonus"] = 3
    rules = get_rules("palais_royal", edition)
    state = turn_of(with_player(in_play(2), 0, court={"mint": 1},
                                hand=Bag(["stairway_plus_5"]), gold=3), 0)
    err = refused_with(rules, state, "play_privilege_card", 0, {"card": "stairway_plus_5"})
    assert err.code == "not_enough_gold" and "4" in err.message
    after = rules.apply(state, Action.of("end_turn", 0, {}))
    assert gold(after, 0) == 3 + 1 + 3


def refused_with(rules, state, type_, actor, data):
    with pytest.raises(IllegalAction) as err:
        rules.apply(state, Action.of(type_, actor, data))
    return err.value


SENTENCES = [
    ("setup", "table", {"player_count": 3, "start_player": 1},
     "The table laid out the court and the garden; Bastien starts"),
    ("initial_placement", 0, {"placements": {"office": 2, "mint": 1, "back_door": 2}},
     "Anne placed 5 servants: 2 on the Office, 1 on the Mint and 2 on the Back Door"),
    ("initial_placement", 2, {"placements": {"pompadour": 5}},
     "Claire placed 5 servants on Madame de Pompadour"),
    ("play_privilege_card", 1, {"card": "seals_plus_2", "seals": {"blue": 1, "purple": 1}},
     "Bastien played the Seals +2 card for 1 blue seal and 1 purple seal"),
    ("play_privilege_card", 1, {"card": "noble_4_points"},
     "Bastien played the Noble: 4 points card"),
    ("place_at_gate", 2, {"sources": ["supply"]}, "Claire put 1 servant on the Gate"),
    ("place_at_gate", 2, {"sources": ["supply", "mint", "mint"]},
     "Claire put 3 servants on the Gate (2 taken from the Mint)"),
    ("place_at_gate", 2, {"sources": []}, "Claire put no servants on the Gate"),
    ("move_servants", 0, {"steps": [{"from": "gate", "to": "office"}] * 2 + [
        {"from": "office", "to": "pompadour"}]},
     "Anne made 3 moves: from the Gate to the Office twice and from the Office to Madame de "
     "Pompadour"),
    ("move_servants", 0, {"steps": [{"from": "gate", "to": "office"}]},
     "Anne made 1 move: from the Gate to the Office"),
    ("court_placements", 0, {"kings_chamber_extra": "supply", "pompadour_extra": None,
                             "seal_bonus": [{"tile": "pompadour", "source": "supply"}]},
     "Anne put 2 extra servants on the seal tiles: 1 on the King's Chamber (advantage) and 1 "
     "on Madame de Pompadour (Seal +1 noble)"),
    ("court_placements", 0, {}, "Anne put no extra servants on the seal tiles"),
    ("recruit_noble", 1, {"space": "r1c0", "noble": "n08"},
     "Bastien recruited the 3-point noble (2 gold, 1 purple, 1 blue) from row 2, column 1"),
    ("recruit_noble", 1, {"space": "r0c3", "noble": "n41"},
     "Bastien recruited the 4-point noble with Servants +3 (2 gold, 2 purple, 2 blue) from "
     "row 1, column 4"),
    ("draw_privilege_cards", 1, {"count": 3, "cards": ["cardinal", "cardinal", "mint_4_gold"]},
     "Bastien drew 3 privilege cards at the Back Door"),
    ("draw_privilege_cards", 1, {"count": 1, "cards": ["cardinal"]},
     "Bastien drew 1 privilege card at the Back Door"),
    ("draw_privilege_cards", 1, {"count": 0, "cards": []},
     "Bastien drew no privilege cards at the Back Door"),
    ("keep_privilege_cards", 1, {"kept": ["cardinal"]}, "Bastien kept 1 privilege card"),
    ("keep_privilege_cards", 1, {"kept": []}, "Bastien kept none of the drawn cards"),
    ("end_turn", 2, {}, "Claire ended the turn"),
]


@pytest.mark.parametrize(("type_", "actor", "data", "sentence"), SENTENCES,
                         ids=[f"{r[0]}-{i}" for i, r in enumerate(SENTENCES)])
def test_describe_is_a_sentence_naming_the_player_and_the_pieces(type_, actor, data, sentence):
    assert RULES.describe(Action.of(type_, actor, data), NAMES[:3]) == sentence


def test_describe_never_names_the_cards_drawn_or_kept():
    """Spec §8: which cards were drawn or kept is the drawer's secret; the sentence is
    shown to every seat."""
    draw = Action.of("draw_privilege_cards", 0, {"count": 2, "cards": ["cardinal",
                                                                       "mint_4_gold"]})
    keep = Action.of("keep_privilege_cards", 0, {"kept": ["mint_4_gold"]})
    for action in (draw, keep):
        text = RULES.describe(action, NAMES)
        assert "Cardinal" not in text and "Mint" not in text, text


# ---------------------------------------------------------------------------
# Table mode: chance slots (the outcomes a tablet offers as buttons to tap)
# ---------------------------------------------------------------------------

# the chance fields each action must carry; set_aside is derived from the garden (#11)
NEEDED = {"setup": {"court_layout", "garden", "start_player"},
          "draw_privilege_cards": {"cards"}}
TILES = sorted(RULES.tile_ids)


def _key(value) -> str:
    return json.dumps(value, sort_keys=True)


def still_offered(slot, picked: Counter) -> Counter:
    """What the client offers in `slot`: its options (a multiset) less every copy already
    picked in any slot of the same action."""
    return Counter(_key(v) for v in slot["options"]) - picked


def put(data, keys, value):
    """Write `value` at data[keys[0]][keys[1]]..., creating a list before an int key and a
    dict before a string key, as the client does."""
    here = data
    for i, key in enumerate(keys):
        if isinstance(here, list):
            here.extend([None] * (key + 1 - len(here)))
        if i == len(keys) - 1:
            here[key] = value
        else:
            if (here[key] if isinstance(here, list) else here.get(key)) is None:
                here[key] = [] if isinstance(keys[i + 1], int) else {}
            here = here[key]


def thaw_json(data):
    return json.loads(json.dumps(dict(data)))


def value_at(data, keys):
    for key in keys:
        data = data[key]
    return data


def fill_slots(listed_data, slots, choose):
    """Play the client: for each slot in order, pick `count` values (one when not `many`)
    with `choose(slot, number, offered)`, each among what is still offered."""
    data, picked = json.loads(json.dumps(listed_data)), Counter()
    for slot in slots:
        values = []
        for number in range(slot["count"] if slot["many"] else 1):
            offered = still_offered(slot, picked)
            value = choose(slot, number, offered)
            assert offered[_key(value)] > 0, (slot["label"], value)
            picked[_key(value)] += 1
            values.append(value)
        put(data, [slot["field"], *slot["path"]], values if slot["many"] else values[0])
    return data


def the_dealers_picks(dealt):
    """Choose what the digital dealer dealt (so a mismatch fails the offered check)."""
    def choose(slot, number, offered):
        value = value_at(dealt, [slot["field"], *slot["path"]])
        return value[number] if slot["many"] else value
    return choose


def random_picks(rng):
    def choose(slot, number, offered):
        return json.loads(rng.choice(sorted(offered.elements())))
    return choose


def slots_of(state, type_, actor, data):
    return RULES.chance_slots(state, Action.of(type_, actor, data))


def chance_steps(players: int, seed: int):
    """(state, listed action, dealt action) at every chance step of a random game."""
    game = random_game(players, seed)
    for state, action in zip(game.states, game.actions, strict=False):
        if RULES.chance_fields.get(action.type):
            yield state, RULES.strip_chance(action), action


@pytest.mark.parametrize("players, seed", [(2, 0), (3, 1), (4, 2)])
def test_slots_cover_every_needed_chance_field_and_fit_what_the_dealer_deals(players, seed):
    seen = Counter()
    for state, listed, dealt in chance_steps(players, seed):
        slots = slots_of(state, dealt.type, dealt.actor, listed)
        assert {s["field"] for s in slots} == NEEDED[dealt.type]
        for slot in slots:
            assert set(slot) - {"groups"} == {"field", "path", "options", "many", "count",
                                              "label"}
            assert slot["label"] and (slot["count"] is not None or not slot["many"])
        data = fill_slots(listed, slots, the_dealers_picks(dealt.data))
        expected = {k: v for k, v in thaw_json(dealt.data).items() if k != "set_aside"}
        assert data == expected  # the slots reach every outcome, no more, no gap
        RULES.apply(state, Action.of(dealt.type, dealt.actor, data))
        seen[dealt.type, len(slots) > 1] += 1
    # these seeds also draw across a reshuffle of the discard pile (one slot per card)
    assert seen["setup", True] == 1
    assert seen["draw_privilege_cards", False] and seen["draw_privilege_cards", True]


@pytest.mark.parametrize("players, seed", [(2, 4), (3, 6), (4, 3)])
def test_any_pick_the_slots_offer_is_accepted_by_the_rules(players, seed):
    rng = random.Random(seed)
    reshuffles = 0
    for state, listed, dealt in chance_steps(players, seed):
        slots = slots_of(state, dealt.type, dealt.actor, listed)
        reshuffles += len(slots) > 1 and dealt.type == "draw_privilege_cards"
        for _ in range(3):
            data = fill_slots(listed, slots, random_picks(rng))
            RULES.apply(state, Action.of(dealt.type, dealt.actor, data))
    assert reshuffles  # these seeds draw across a reshuffle of the discard pile


def test_setup_slots_one_per_court_position_one_per_garden_space_then_the_start_player():
    state = RULES.initial_state(created(3))
    slots = slots_of(state, "setup", "table", {"player_count": 3})
    assert len(slots) == 9 + 36 + 1
    assert slots[0] == {"field": "court_layout", "path": [0], "options": TILES, "many": False,
                        "count": None, "label": "court tile in row 1, column 1"}
    assert slots[5]["label"] == "court tile in row 2, column 3"
    assert [s["path"] for s in slots[:9]] == [[i] for i in range(9)]
    assert {k: v for k, v in slots[9].items() if k != "groups"} == {
        "field": "garden", "path": ["r0c0"], "options": ALL_NOBLES, "many": False,
        "count": None, "label": "noble on garden row 1, column 1"}
    assert slots[44]["path"] == ["r5c5"] and slots[44]["label"].endswith("row 6, column 6")
    assert [s["path"] for s in slots[9:45]] == [[s] for s in SPACES]
    assert slots[45] == {"field": "start_player", "path": [], "options": [0, 1, 2],
                         "many": False, "count": None, "label": "start player",
                         "groups": [{"label": "", "items": [  # buttons read players' names
                             {"label": name, "values": [seat]}
                             for seat, name in enumerate(state.names)]}]}
    # tapping the layout, the garden and seat 0 records the same setup as typing it
    picks = iter(LAYOUT + list(garden_with().values()) + [0])
    data = fill_slots({"player_count": 3}, slots, lambda slot, number, offered: next(picks))
    assert data == setup_data(3)
    assert act(state, "setup", "table", data).set_aside == tuple(ALL_NOBLES[36:])


def test_a_tile_or_noble_tapped_once_is_no_longer_offered():
    state = RULES.initial_state(created(2))
    slots = slots_of(state, "setup", "table", {"player_count": 2})
    picked = Counter({_key("mint"): 1, _key("n07"): 1})
    assert _key("mint") not in still_offered(slots[1], picked)
    assert _key("n07") not in still_offered(slots[10], picked)
    assert still_offered(slots[-1], picked) == Counter({"0": 1, "1": 1})


def test_an_incomplete_setup_pick_gets_the_rules_refusal():
    state = RULES.initial_state(created(3))
    slots = slots_of(state, "setup", "table", {"player_count": 3})
    picks = iter(LAYOUT + list(garden_with().values()) + [0])
    data = fill_slots({"player_count": 3}, slots, lambda slot, number, offered: next(picks))
    del data["garden"]["r3c3"]
    err = refused(state, "setup", "table", data)
    assert err.code == "bad_garden" and "row 4, column 4" in err.message


def listed_draw(state):
    return next(a for a in RULES.legal_actions(state) if a["type"] == "draw_privilege_cards")


def test_a_draw_from_the_pile_is_one_ordered_pick_of_the_allowance():
    state = e5_state()
    listed = listed_draw(state)
    assert listed["data"] == {"count": 5}
    slots = slots_of(state, "draw_privilege_cards", 0, listed["data"])
    assert slots == [{"field": "cards", "path": [], "options": sorted(state.deck),
                      "many": True, "count": 5,
                      "label": "privilege cards drawn, in the order turned up"}]
    assert Counter(slots[0]["options"])["cardinal"] == 4  # four copies to tap
    picks = iter(FIVE)
    data = fill_slots(listed["data"], slots, lambda slot, number, offered: next(picks))
    assert data == {"count": 5, "cards": FIVE}
    assert act(state, "draw_privilege_cards", 0, data).turn.pending == tuple(FIVE)
    err = refused(state, "draw_privilege_cards", 0, {"count": 5, "cards": FIVE[:4]})
    assert err.code == "wrong_card_count" and "4 were named" in err.message


def test_a_draw_across_the_reshuffle_takes_the_pile_first_then_the_discard():
    state = e5_reshuffle_state()  # pile: mint_4_gold, cardinal; discard: 10 cards
    slots = slots_of(state, "draw_privilege_cards", 0, listed_draw(state)["data"])
    pile = ["cardinal", "mint_4_gold"]
    both = sorted(pile + list(state.discard))
    assert slots == [
        {"field": "cards", "path": [0], "options": pile, "many": False, "count": None,
         "label": "privilege card 1 of 5, from the draw pile"},
        {"field": "cards", "path": [1], "options": pile, "many": False, "count": None,
         "label": "privilege card 2 of 5, from the draw pile"},
        *({"field": "cards", "path": [i], "options": both, "many": False, "count": None,
           "label": f"privilege card {i + 1} of 5, from the reshuffled discard pile"}
          for i in (2, 3, 4)),
    ]
    # once the pile's two are tapped, exactly the discard pile is offered
    picked = Counter(_key(c) for c in pile)
    assert still_offered(slots[2], picked) == Counter(_key(c) for c in state.discard)
    cards = ["mint_4_gold", "cardinal", "parade_unlimited", "noble_4_points",
             "parade_unlimited"]
    picks = iter(cards)
    data = fill_slots({"count": 5}, slots, lambda slot, number, offered: next(picks))
    assert act(state, "draw_privilege_cards", 0, data).turn.pending == tuple(cards)


def test_a_card_type_in_both_piles_keeps_all_its_discard_copies_after_the_pile_part():
    state = replace(e5_state(), deck=Bag(["noble_4_points"]),
                    discard=Bag(["noble_4_points"] * 3 + ["cardinal"]))
    slots = slots_of(state, "draw_privilege_cards", 0, {"count": 5})
    assert [s["path"] for s in slots] == [[0], [1], [2], [3], [4]]
    picked = Counter({_key("noble_4_points"): 1})  # the pile's one
    assert still_offered(slots[1], picked) == Counter({_key("noble_4_points"): 3,
                                                       _key("cardinal"): 1})
    data = fill_slots({"count": 5}, slots, random_picks(random.Random(5)))
    assert sorted(data["cards"]) == ["cardinal"] + ["noble_4_points"] * 4
    act(state, "draw_privilege_cards", 0, data)


def test_a_draw_short_of_cards_asks_for_what_is_left_and_an_empty_pile_draws_the_discard():
    state = replace(e5_state(), deck=Bag(), discard=Bag(["cardinal", "cardinal",
                                                         "seals_plus_2"]))
    slots = slots_of(state, "draw_privilege_cards", 0, {"count": 5})
    assert slots == [{"field": "cards", "path": [], "many": True, "count": 3,
                      "options": ["cardinal", "cardinal", "seals_plus_2"],
                      "label": "privilege cards drawn, in the order turned up"}]
    data = fill_slots({"count": 5}, slots, random_picks(random.Random(1)))
    assert act(state, "draw_privilege_cards", 0, data).discard == Bag()


def test_actions_without_chance_have_no_slots():
    state = e5_state()
    assert slots_of(state, "end_turn", 0, {}) == []
    assert slots_of(state, "draw_privilege_cards", 0, {"count": "five"}) == []
