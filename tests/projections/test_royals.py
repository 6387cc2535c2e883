"""Royals: the worked examples of docs/games/royals.md §10, every refusal, the scoring rules,
the review rulings, and property tests over random legal games for 2 to 5 players."""

from __future__ import annotations

import json
import random
from collections import Counter
from dataclasses import replace
from itertools import pairwise

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from projections import get_rules
from projections.playout import created_for, play
from projections.replay import Folder
from projections.royals import scoring
from projections.royals.chance import nth_card
from projections.royals.edition import Marker
from projections.royals.state import DRAW, OVER, PLAY, State
from projections.rules import Action, Bag, Dealer, IllegalAction, thaw, with_item

from .royals_games import SAMPLES
from .royals_readable import unreadable

RULES = get_rules("royals")
BOARD = RULES.board
VARIANTS = dict(RULES.default_options["variants"])


# ---------------------------------------------------------------------------
# helpers
# ---------------------------------------------------------------------------


def created(players=3, mode="table", **variants):
    return created_for(RULES, players, mode, {"variants": {**VARIANTS, **variants}})


def act(state, type_, actor, **data):
    return RULES.apply(state, Action.of(type_, actor, data))


def refused(state, type_, actor, **data):
    with pytest.raises(IllegalAction) as err:
        act(state, type_, actor, **data)
    return err.value


def set_up(players=3, start=0, display=("france", "france", "spain"), **variants):
    state = RULES.initial_state(created(players, **variants))
    colours = list(RULES.auto_action(state)["data"]["colours"])
    return act(state, "setup", "table", colours=colours, start_player=start,
               display=list(display))


def playing(players=3, seat=0, hand=(), intrigues=(), **changes):
    """Seat `seat` in the play step of a turn after round 1, holding `hand`/`intrigues`."""
    state = set_up(players, start=seat)
    hands = with_item(state.hands, seat, Bag(hand))
    held = with_item(state.intrigues, seat, Bag("+".join(sorted(p)) for p in intrigues))
    return replace(state, phase=PLAY, turn_no=players, hands=hands, intrigues=held,
                   **changes)


def drawing(players=3, seat=0, **changes):
    return replace(playing(players, seat), phase=DRAW, **changes)


def occupy(state, portrait_id, seat):
    """Put `seat`'s cube on a portrait and on its title tile (as a claim does, unpaid)."""
    portrait = BOARD.portrait(portrait_id)
    index = BOARD.portrait_index[portrait_id]
    title = BOARD.titles.index(portrait.title)
    row = state.tiles[title]
    return replace(state, board=with_item(state.board, index, seat),
                   tiles=with_item(state.tiles, title, with_item(row, seat, row[seat] + 1)),
                   supply=with_item(state.supply, seat, state.supply[seat] - 2))


def bury(state, city, seat, count=1):
    index = BOARD.cities.index(city)
    row = state.cathedrals[index]
    return replace(state, cathedrals=with_item(state.cathedrals, index,
                                               with_item(row, seat, row[seat] + count)),
                   supply=with_item(state.supply, seat, state.supply[seat] - count))


def values(state, seat, kind=None):
    return sorted((m.value for m in state.holdings[seat] if kind in (None, m.kind)),
                  reverse=True)


def holds(state, seat, kind, key):
    return any(m.kind == kind and m.key == key for m in state.holdings[seat])


def give(state, seat, *markers):
    return replace(state, holdings=with_item(state.holdings, seat,
                                             (*state.holdings[seat], *markers)))


def intrigue(a, b):
    return [a, b]


# ---------------------------------------------------------------------------
# E1 - country wild payment (spec §5.2)
# ---------------------------------------------------------------------------

E1_HAND = ["spain"] * 5 + ["france"] * 3 + ["britain"] * 3


def test_e1a_valencia_duke_paid_with_two_spain_and_two_wild_groups():
    state = playing(hand=E1_HAND)
    cards = ["spain"] * 2 + ["france"] * 3 + ["britain"] * 3
    after = act(state, "claim_noble", 0, portrait="valencia_duke", country_cards=cards)
    assert after.board[BOARD.portrait_index["valencia_duke"]] == 0
    assert len(after.discard) == 8
    assert after.hands[0] == Bag(["spain"] * 3)


def test_e1b_three_spain_and_two_france_is_refused_as_odd():
    state = playing(hand=E1_HAND)
    err = refused(state, "claim_noble", 0, portrait="valencia_duke",
                  country_cards=["spain"] * 3 + ["france"] * 2)
    assert err.code == "wrong_payment"
    assert "The Duke in Valencia needs exactly 4 Spain cards" in err.message
    assert "Player 1 offered 5 cards, 3 of them Spain" in err.message


def test_e1c_five_spain_overpays_and_four_spain_is_exact():
    state = playing(hand=E1_HAND)
    err = refused(state, "claim_noble", 0, portrait="valencia_duke", country_cards=["spain"] * 5)
    assert err.code == "wrong_payment"
    assert "Player 1 offered 5 cards, all of them Spain" in err.message
    after = act(state, "claim_noble", 0, portrait="valencia_duke", country_cards=["spain"] * 4)
    assert after.hands[0].count("spain") == 1


def test_the_wild_may_be_used_even_when_holding_enough_matching_cards():
    state = playing(hand=["spain"] * 4 + ["france"] * 3)
    after = act(state, "claim_noble", 0, portrait="valencia_marshal",
                country_cards=["france"] * 3)
    assert after.board[BOARD.portrait_index["valencia_marshal"]] == 0


def test_a_wild_group_may_hold_cards_of_the_named_country():
    # ruling 10: the cards inside a wild group can be any country, Spain included, so
    # 4 Spain pay a Baron as 1 Spain + one group of 3 (k = 1 in spec §5.2's formula)
    state = playing(hand=["spain"] * 4)
    after = act(state, "claim_noble", 0, portrait="seville_baron", country_cards=["spain"] * 4)
    assert after.hands[0].count("spain") == 0
    err = refused(state, "claim_noble", 0, portrait="seville_baron", country_cards=["spain"] * 3)
    assert err.code == "wrong_payment"  # 3 cards: (6 - 3) is odd


# ---------------------------------------------------------------------------
# E2 - usurping a King (spec §5.3)
# ---------------------------------------------------------------------------

E2_INTRIGUES = [intrigue("britain", "spain"), intrigue("france", "german_states"),
                intrigue("britain", "france")]


def e2_state():
    state = playing(hand=["spain"] * 8, intrigues=E2_INTRIGUES)
    return occupy(state, "madrid_king", 2)


def test_e2_usurping_madrid_king_with_one_matching_and_two_wild_intrigue_cards():
    state = e2_state()
    after = act(state, "usurp_noble", 0, portrait="madrid_king", country_cards=["spain"] * 8,
                intrigue_cards=E2_INTRIGUES)
    king = BOARD.titles.index("king")
    assert after.board[BOARD.portrait_index["madrid_king"]] == 0
    assert after.cathedrals[BOARD.cities.index("madrid")] == (0, 0, 1)
    assert after.tiles[king] == (1, 0, 1)  # seat 2 keeps its King-tile cube
    assert len(after.intrigue_discard) == 3 and len(after.intrigues[0]) == 0
    assert after.supply[2] == state.supply[2]  # the buried cube is not returned


def test_e2_one_matching_intrigue_card_is_not_enough_for_a_king():
    err = refused(e2_state(), "usurp_noble", 0, portrait="madrid_king",
                  country_cards=["spain"] * 8, intrigue_cards=[intrigue("spain", "britain")])
    assert err.code == "wrong_intrigue_payment"
    assert "A King needs 2 intrigue cards showing Spain" in err.message
    assert "Player 1 offered 1 card, 1 showing Spain" in err.message


def test_a_king_needs_two_intrigue_cards_showing_spain_none_shown():
    state = replace(e2_state(), intrigues=with_item(e2_state().intrigues, 0,
                                                    Bag(["france+german_states"])))
    err = refused(state, "usurp_noble", 0, portrait="madrid_king", country_cards=["spain"] * 8,
                  intrigue_cards=[intrigue("france", "german_states")])
    assert "Player 1 offered 1 card, none showing Spain" in err.message


def test_a_non_king_is_usurped_with_one_matching_or_any_two_intrigue_cards():
    base = occupy(playing(hand=["spain"] * 4, intrigues=E2_INTRIGUES), "valencia_marshal", 1)
    one = act(base, "usurp_noble", 0, portrait="valencia_marshal", country_cards=["spain"],
              intrigue_cards=[intrigue("spain", "britain")])
    two = act(base, "usurp_noble", 0, portrait="valencia_marshal", country_cards=["spain"],
              intrigue_cards=E2_INTRIGUES[1:])
    assert one.board == two.board
    err = refused(base, "usurp_noble", 0, portrait="valencia_marshal", country_cards=["spain"],
                  intrigue_cards=E2_INTRIGUES)
    assert err.code == "wrong_intrigue_payment"  # three cards overpay a Marshal


# ---------------------------------------------------------------------------
# E3 - country bonus counts the cathedral (spec §6.1)
# ---------------------------------------------------------------------------


def e3_state(players=4):
    state = playing(players, seat=1, hand=["britain"] * 2)
    state = bury(occupy(state, "london_king", 1), "edinburgh", 1)
    return give(state, 1, BOARD.city_marker("london"))


def test_e3_dublin_baron_completes_britain_through_a_cathedral_cube():
    after = act(e3_state(), "claim_noble", 1, portrait="dublin_baron",
                country_cards=["britain"] * 2)
    assert holds(after, 1, "shield", "britain:0")
    assert values(after, 1, "shield") == [6]
    assert holds(after, 1, "city", "dublin")


def test_e3_the_second_shield_goes_to_the_second_player_to_complete_britain():
    state = give(e3_state(), 3, BOARD.shields("britain")[0])
    after = act(state, "claim_noble", 1, portrait="dublin_baron", country_cards=["britain"] * 2)
    assert values(after, 1, "shield") == [3]


def test_e3_when_both_shields_are_gone_nobody_else_scores_britain():
    state = give(e3_state(), 3, *BOARD.shields("britain"))
    state = give(state, 2, BOARD.city_marker("dublin"))
    after = act(state, "claim_noble", 1, portrait="dublin_baron", country_cards=["britain"] * 2)
    assert values(after, 1, "shield") == []
    assert not holds(after, 1, "city", "dublin")  # Dublin's hex was taken earlier


def test_a_player_takes_at_most_one_shield_per_country():
    state = give(e3_state(), 1, BOARD.shields("britain")[1])
    after = act(state, "claim_noble", 1, portrait="dublin_baron", country_cards=["britain"] * 2)
    assert values(after, 1, "shield") == [3]


def test_the_city_hex_goes_to_the_first_player_to_occupy_a_portrait_there():
    state = playing(hand=["france"] * 4)
    first = act(state, "claim_noble", 0, portrait="lyon_marshal", country_cards=["france"])
    assert holds(first, 0, "city", "lyon")
    again = act(first, "claim_noble", 0, portrait="lyon_countess", country_cards=["france"] * 3)
    assert [m.key for m in again.holdings[0]].count("lyon") == 1


# ---------------------------------------------------------------------------
# E4, E5 - period scoring tie-breaks (spec §6.5)
# ---------------------------------------------------------------------------


def test_e4_period_1_spain_tie_goes_to_the_higher_rank_king_over_duke():
    state = playing()
    state = occupy(state, "madrid_king", 0)
    for portrait in ("valencia_duke", "valencia_marshal", "seville_baron"):
        state = occupy(state, portrait, 1)
    state = bury(state, "madrid", 2)
    assert scoring.influence(BOARD, state, 0, "spain") == 4
    assert scoring.influence(BOARD, state, 1, "spain") == 4
    assert scoring.influence(BOARD, state, 2, "spain") == 0  # cathedral cubes do not count
    scored = scoring.score_period(BOARD, state)
    assert holds(scored, 0, "period", "1:spain:high") and values(scored, 0, "period") == [4]
    assert holds(scored, 1, "period", "1:spain:low") and values(scored, 1, "period") == [2]
    assert values(scored, 2) == []


def test_e5_period_2_france_tie_goes_to_the_baron_in_the_more_valuable_city():
    state = replace(playing(), period=2)
    state = occupy(occupy(state, "avignon_marshal", 0), "rouen_baron", 0)
    state = occupy(occupy(state, "bordeaux_baron", 1), "lyon_marshal", 1)
    scored = scoring.score_period(BOARD, state)
    assert values(scored, 1, "period") == [8]
    assert values(scored, 0, "period") == [4]


def test_period_markers_nobody_qualifies_for_leave_the_game():
    state = occupy(playing(), "madrid_king", 0)
    scored = scoring.score_period(BOARD, state)
    assert values(scored, 0) == [4]
    out = {m.key for m in scored.out_of_game}
    assert "1:spain:low" in out and "1:france:high" in out and "1:france:low" in out
    assert len(scored.out_of_game) == 2 * len(BOARD.countries) - 1


def test_turn_order_breaks_a_tie_that_survives_rank_and_city_value():
    # ruling R3: unreachable with the default board (one portrait per title per city), so
    # an edition with two Marshals in one city is used
    edition = json.loads(json.dumps(RULES.edition))
    lyon = next(c for c in edition["cities"] if c["id"] == "lyon")
    lyon["portraits"][0] = {"id": "lyon_marshal2", "title": "marshal", "cards_required": 1,
                            "influence": 1}
    rules = get_rules("royals", edition)
    state = rules.apply(rules.initial_state(created_for(rules, 3)), Action.of(
        "setup", "table", {"colours": ["black", "white", "grey"], "start_player": 2,
                           "display": ["france"] * 3}))
    board = rules.board
    for seat, portrait in ((0, "lyon_marshal"), (2, "lyon_marshal2")):
        state = replace(state, board=with_item(state.board, board.portrait_index[portrait], seat))
    assert scoring.period_order(board, state, "france") == [2, 0]


# ---------------------------------------------------------------------------
# E6 - title scoring (spec §6.6)
# ---------------------------------------------------------------------------


def test_e6_title_tiles_full_half_and_three_way_tie():
    state = playing()
    counts = {"king": (2, 2, 1), "duke": (1, 1, 1), "marshal": (1, 0, 3), "princess": (0, 0, 0)}
    tiles = tuple(counts.get(t, (0, 0, 0)) for t in BOARD.titles)
    scored = scoring.score_titles(BOARD, replace(state, tiles=tiles))
    assert sorted((m.kind, m.key, m.value) for m in scored.holdings[0]) == [
        ("title_half", "king", 4)]
    assert sorted((m.kind, m.key, m.value) for m in scored.holdings[1]) == [
        ("title_half", "king", 4)]
    assert [(m.key, m.value) for m in scored.holdings[2]] == [("marshal", 2)]
    out = {m.key for m in scored.out_of_game}
    assert {"duke", "princess"} <= out


# ---------------------------------------------------------------------------
# E7 - noble house bonus by player count (spec §6.1 step 3)
# ---------------------------------------------------------------------------


def all_titles_but_king(state, seat):
    tiles = tuple(with_item(row, seat, 1) if title != "king" else row
                  for row, title in zip(state.tiles, BOARD.titles, strict=True))
    return replace(state, tiles=tiles)


def claim_a_king(state, seat, portrait):
    state = replace(state, current=seat, hands=with_item(state.hands, seat, Bag(["france"] * 8
                                                                                + ["spain"] * 8
                                                                                + ["britain"]
                                                                                * 8)))
    country = BOARD.portrait(portrait).country
    return act(state, "claim_noble", seat, portrait=portrait, country_cards=[country] * 8)


def test_e7_three_players_discs_12_then_8_then_nothing():
    state = playing(3, seat=1)
    for seat in range(3):
        state = all_titles_but_king(state, seat)
    state = claim_a_king(state, 1, "paris_king")
    state = claim_a_king(state, 0, "madrid_king")
    state = claim_a_king(state, 2, "london_king")
    assert values(state, 1, "noble_house") == [12]
    assert values(state, 0, "noble_house") == [8]
    assert values(state, 2, "noble_house") == []


def test_e7_two_players_only_the_8_disc_exists():
    state = playing(2, seat=1)
    for seat in range(2):
        state = all_titles_but_king(state, seat)
    state = claim_a_king(state, 1, "paris_king")
    state = claim_a_king(state, 0, "madrid_king")
    assert values(state, 1, "noble_house") == [8]
    assert values(state, 0, "noble_house") == []


def test_four_and_five_players_start_with_the_16_disc():
    for players in (4, 5):
        state = all_titles_but_king(playing(players, seat=0), 0)
        assert values(claim_a_king(state, 0, "paris_king"), 0, "noble_house") == [16]


def test_the_noble_house_disc_needs_a_cube_on_every_title_tile():
    state = all_titles_but_king(playing(3, seat=0), 0)
    marshal = BOARD.titles.index("marshal")
    state = replace(state, tiles=with_item(state.tiles, marshal, (0, 0, 0)))
    assert values(claim_a_king(state, 0, "paris_king"), 0, "noble_house") == []


# ---------------------------------------------------------------------------
# E8 - period end during a draw and during the refill (spec §6.4)
# ---------------------------------------------------------------------------

FORTY = ["france"] * 10 + ["german_states"] * 10 + ["britain"] * 10 + ["spain"] * 10


def e8_state():
    state = drawing(3, seat=0, deck=Bag(["britain"]), discard=Bag(FORTY),
                    display=Bag(["france", "spain", "german_states"]))
    return occupy(state, "madrid_king", 0)


def test_e8_the_last_deck_card_ends_period_1_and_the_discards_become_the_pile():
    state = act(e8_state(), "draw_cards", 0, draws=[
        {"kind": "country", "source": "display", "card": "france"},
        {"kind": "country", "source": "display", "card": "spain"},
        {"kind": "country", "source": "deck", "card": "britain"}])
    assert state.period_ended and state.period == 1
    assert len(state.deck) == 40 and len(state.discard) == 0
    err = refused(state, "end_turn", 0, refill=["spain"])
    assert err.code == "refill_too_short"
    after = act(state, "end_turn", 0, refill=["spain", "britain"])
    assert after.period == 2 and after.current == 1 and after.phase == DRAW
    assert len(after.deck) == 38 and sorted(after.display) == ["britain", "german_states",
                                                                 "spain"]
    assert holds(after, 0, "period", "1:spain:high")


def test_e8_variant_the_first_refill_card_ends_the_period_and_the_second_comes_from_the_new_pile():
    state = replace(e8_state(), phase=PLAY, deck=Bag(["britain"]), discard=Bag(["spain"] * 5),
                    display=Bag(["france"]), hands=with_item(e8_state().hands, 0,
                                                             Bag(["france"] * 13)))
    err = refused(state, "end_turn", 0, discard_country=["france"], refill=["britain", "britain"])
    assert err.code == "not_available" and "Britain" in err.message
    # the turn's own discards are already in the discard pile that becomes the new pile
    after = act(state, "end_turn", 0, discard_country=["france"], refill=["britain", "france"])
    assert after.period == 2 and holds(after, 0, "period", "1:spain:high")
    assert after.deck == Bag(["spain"] * 5)


def test_a_second_run_out_in_the_same_turn_ends_no_further_period():
    state = drawing(3, seat=0, deck=Bag(["britain"]), discard=Bag(["spain"]),
                    display=Bag(["france", "france", "france"]))
    state = act(state, "draw_cards", 0, draws=[
        {"kind": "country", "source": "deck", "card": "britain"},
        {"kind": "country", "source": "deck", "card": "spain"},
        {"kind": "country", "source": "display", "card": "france"}])
    assert state.period_ended and len(state.deck) == 0 and len(state.discard) == 0
    after = act(state, "end_turn", 0, refill=[])  # nothing left anywhere: it stops short
    assert after.period == 2 and len(after.display) == 2


def test_a_deck_draw_with_no_card_anywhere_is_refused():
    state = drawing(3, seat=0, deck=Bag(), discard=Bag(), display=Bag(["france"] * 3))
    err = refused(state, "draw_cards", 0, draws=[
        {"kind": "country", "source": "deck", "card": "spain"},
        {"kind": "country", "source": "display", "card": "france"},
        {"kind": "country", "source": "display", "card": "france"}])
    assert err.code == "deck_empty"


def test_when_fewer_cards_exist_than_a_draw_needs_the_draw_is_shorter():
    state = drawing(3, seat=0, deck=Bag(), discard=Bag(), display=Bag(["france"]))
    after = act(state, "draw_cards", 0, draws=[
        {"kind": "country", "source": "display", "card": "france"}])
    assert after.hands[0] == Bag(["france"])


def test_period_3_ending_in_a_draw_skips_the_refill_and_ends_the_game():
    state = replace(e8_state(), period=3)
    state = act(state, "draw_cards", 0, draws=[
        {"kind": "country", "source": "deck", "card": "britain"},
        {"kind": "country", "source": "deck", "card": "spain"},
        {"kind": "country", "source": "display", "card": "spain"}])
    assert len(state.deck) == 39  # the reshuffle still happens (review ruling 3)
    err = refused(state, "end_turn", 0, refill=["france"])
    assert err.code == "refill_too_long"
    after = act(state, "end_turn", 0, refill=[])
    assert after.phase == OVER and RULES.to_act(after) == ()
    result = RULES.result(after)
    assert result["scores"][0] == 8 + 8  # Spain period-3 high marker + the King tile
    assert result["winners"] == [0]


def test_period_3_ending_during_the_refill_stops_the_refill_at_that_card():
    state = replace(e8_state(), phase=PLAY, period=3, deck=Bag(["britain"]),
                    display=Bag(["spain"]))
    err = refused(state, "end_turn", 0, refill=["britain", "spain"])
    assert err.code == "refill_too_long"
    after = act(state, "end_turn", 0, refill=["britain"])
    assert after.phase == OVER


def test_variant_period3_finish_round_plays_to_the_player_before_the_start_player():
    state = set_up(3, start=1, period3_finish_round=True)
    state = replace(state, phase=DRAW, turn_no=3, period=3, current=1, deck=Bag(["britain"]),
                    discard=Bag(FORTY), display=Bag(["spain"] * 3))
    deck3 = [{"kind": "country", "source": "deck", "card": "spain"}] * 3
    state = act(state, "draw_cards", 1, draws=[
        {"kind": "country", "source": "deck", "card": "britain"}, *deck3[:2]])
    state = act(state, "end_turn", 1, refill=[])
    assert state.final_round and state.phase == DRAW and state.current == 2
    state = act(act(state, "draw_cards", 2, draws=deck3), "claim_noble", 2,
                portrait="valencia_marshal", country_cards=["spain"])
    state = act(state, "end_turn", 2, refill=[])
    assert state.phase == DRAW and state.current == 0
    state = act(act(state, "draw_cards", 0, draws=deck3), "end_turn", 0, refill=[])
    assert state.phase == OVER
    assert holds(state, 2, "period", "3:spain:high")  # seat 2's later claim counted


# ---------------------------------------------------------------------------
# E9 - hand limits (spec §5.4)
# ---------------------------------------------------------------------------


def test_e9_after_a_baron_claim_discard_exactly_0_country_and_1_intrigue():
    hand = ["spain"] * 4 + ["france"] * 10
    pairs = [intrigue("britain", "spain")] * 3 + [intrigue("france", "spain")] * 2
    state = act(playing(hand=hand, intrigues=pairs), "claim_noble", 0,
                portrait="seville_baron", country_cards=["spain"] * 2)
    assert (len(state.hands[0]), len(state.intrigues[0])) == (12, 5)
    err = refused(state, "end_turn", 0, refill=[])
    assert err.code == "wrong_discard_count" and "discard exactly 1" in err.message
    err = refused(state, "end_turn", 0, discard_country=["france"],
                  discard_intrigue=[intrigue("spain", "france")])
    assert err.code == "wrong_discard_count" and "discard nothing, not 1" in err.message
    after = act(state, "end_turn", 0, discard_intrigue=[intrigue("spain", "france")])
    assert len(after.intrigues[0]) == 4 and after.intrigue_discard == Bag(["france+spain"])


# ---------------------------------------------------------------------------
# E10 - final tie-break (spec §6.7)
# ---------------------------------------------------------------------------


def tie_state(largest_0):
    """Both seats total 61; seat 1's largest marker is the shield 10."""
    state = replace(playing(2), phase=OVER)
    small = [Marker("period", f"a{i}", 5) for i in range((61 - largest_0) // 5)]
    state = give(state, 0, Marker("noble_house", "0", largest_0), *small,
                 *[Marker("period", "r", (61 - largest_0) % 5)] * ((61 - largest_0) % 5 > 0))
    return give(state, 1, Marker("shield", "france:0", 10),
                *[Marker("period", f"b{i}", 3) for i in range(17)])


def test_e10_equal_totals_go_to_the_holder_of_the_largest_marker():
    result = RULES.result(tie_state(16))
    assert result["scores"] == [61, 61] and result["winners"] == [0]


def test_e10_equal_largest_markers_share_the_victory():
    result = RULES.result(tie_state(10))
    assert result["scores"] == [61, 61] and result["winners"] == [0, 1]


def test_a_half_tile_counts_at_its_half_value_in_the_tie_break():
    rows = scoring.breakdown(give(playing(2), 0, Marker("title_half", "king", 4)))
    assert rows[0]["largest_marker"] == 4 and rows[0]["titles"] == 4


# ---------------------------------------------------------------------------
# E11 - round 1 draws (spec §5.1)
# ---------------------------------------------------------------------------


def deck_draws(count):
    return [{"kind": "country", "source": "deck", "card": "france"}] * count


def test_e11_three_players_start_seat_2_draw_1_2_3_and_no_intrigue():
    state = set_up(3, start=2)
    err = refused(state, "draw_cards", 2, draws=deck_draws(2))
    assert err.code == "wrong_draw_count"
    assert "position 0 (the 1st player) draws exactly 1 country card and no intrigue card" \
        in err.message
    assert "Player 3's draw has 2 country cards" in err.message
    state = act(act(state, "draw_cards", 2, draws=deck_draws(1)), "end_turn", 2, refill=[])
    err = refused(state, "draw_cards", 0, draws=[*deck_draws(1), {"kind": "intrigue",
                                                                   "card": ["spain", "france"]}])
    assert err.code == "wrong_draw_count" and "the 2nd player" in err.message
    state = act(act(state, "draw_cards", 0, draws=deck_draws(2)), "end_turn", 0, refill=[])
    state = act(state, "draw_cards", 1, draws=deck_draws(3))
    assert [len(h) for h in state.hands] == [2, 3, 1]


def test_from_round_2_draw_three_country_or_one_and_one_in_either_order():
    state = drawing(3, seat=0)
    one_one = [{"kind": "intrigue", "card": ["spain", "britain"]},
               {"kind": "country", "source": "display", "card": "spain"}]
    after = act(state, "draw_cards", 0, draws=one_one)
    assert after.intrigues[0] == Bag(["britain+spain"]) and after.hands[0] == Bag(["spain"])
    err = refused(state, "draw_cards", 0, draws=deck_draws(2))
    assert err.code == "wrong_draw_count" and (
        "Player 1 draws 3 country cards and no intrigue card, or 1 country card and 1 intrigue "
        "card" in err.message)


def test_the_intrigue_discards_are_reshuffled_when_the_pile_is_empty():
    state = drawing(3, seat=0, intrigue_deck=Bag(), intrigue_discard=Bag(["britain+spain"]))
    after = act(state, "draw_cards", 0, draws=[
        *deck_draws(1), {"kind": "intrigue", "card": ["britain", "spain"]}])
    assert after.intrigues[0] == Bag(["britain+spain"]) and len(after.intrigue_discard) == 0
    err = refused(state, "draw_cards", 0, draws=[
        *deck_draws(1), {"kind": "intrigue", "card": ["france", "spain"]}])
    assert err.code == "not_available"


# ---------------------------------------------------------------------------
# Cubes (spec §5.2, ruling 11, review ruling 1)
# ---------------------------------------------------------------------------


def test_with_no_cubes_left_a_claim_is_refused():
    state = playing(hand=["spain"])
    state = replace(state, supply=with_item(state.supply, 0, 1))
    err = refused(state, "claim_noble", 0, portrait="valencia_marshal", country_cards=["spain"])
    assert err.code == "no_cubes" and "only 1 cube left; a claim needs 2" in err.message


def test_redundant_cathedral_cubes_are_recycled_keeping_one_per_city():
    state = playing(hand=["spain"])
    state = bury(bury(state, "paris", 0, 3), "lyon", 0, 1)
    state = occupy(state, "avignon_marshal", 0)
    state = bury(state, "avignon", 0, 2)
    state = replace(state, supply=with_item(state.supply, 0, 0))
    after = act(state, "claim_noble", 0, portrait="valencia_marshal", country_cards=["spain"])
    # Paris keeps 1 of 3, Lyon keeps its only cube, Avignon's 2 go (a portrait is held there)
    assert after.supply[0] == 2 + 2 - 2
    assert after.cathedrals[BOARD.cities.index("paris")][0] == 1
    assert after.cathedrals[BOARD.cities.index("lyon")][0] == 1
    assert after.cathedrals[BOARD.cities.index("avignon")][0] == 0


# ---------------------------------------------------------------------------
# Refusals: each code, and the message names the key value
# ---------------------------------------------------------------------------


def _occupied():
    return occupy(playing(hand=["spain"] * 8, intrigues=E2_INTRIGUES), "madrid_king", 1)


REFUSALS = [
    ("not_your_turn", lambda: (playing(), "end_turn", 1, {}),
     "It is Player 1's turn: Player 2 cannot end the turn now"),
    ("already_drawn", lambda: (playing(), "draw_cards", 0, {"draws": deck_draws(3)}),
     "Player 1 has already drawn this turn"),
    ("draw_first", lambda: (drawing(), "claim_noble", 0,
                            {"portrait": "lyon_marshal", "country_cards": ["france"]}),
     "Player 1 must draw before playing"),
    ("draw_first", lambda: (drawing(), "end_turn", 0, {}),
     "Player 1 must draw before ending the turn"),
    ("wrong_draw_count", lambda: (drawing(), "draw_cards", 0, {"draws": deck_draws(4)}),
     "this draw has 4 country cards and no intrigue card"),
    ("not_in_display", lambda: (drawing(), "draw_cards", 0, {"draws": [
        {"kind": "country", "source": "display", "card": "britain"}, *deck_draws(2)]}),
     "No Britain card is face up in the display"),
    ("not_available", lambda: (drawing(deck=Bag(["spain"] * 5)), "draw_cards", 0,
                               {"draws": [{"kind": "country", "source": "deck",
                                           "card": "britain"}] * 3}),
     "No Britain card remains in the draw pile"),
    ("missing_card", lambda: (drawing(), "draw_cards", 0, {"draws": [
        {"kind": "country", "source": "deck"}] * 3}), "Name the card"),
    ("unknown_country", lambda: (drawing(), "draw_cards", 0, {"draws": [
        {"kind": "country", "source": "deck", "card": "prussia"}] * 3}), "prussia"),
    ("unknown_intrigue_card", lambda: (drawing(), "draw_cards", 0, {"draws": [
        *deck_draws(1), {"kind": "intrigue", "card": ["spain", "spain"]}]}),
     "Spain and Spain is not an intrigue card"),
    ("unknown_portrait", lambda: (playing(hand=["spain"]), "claim_noble", 0,
                                  {"portrait": "toledo_count", "country_cards": ["spain"]}),
     "“toledo count” is not a portrait on the board"),
    ("portrait_occupied", lambda: (_occupied(), "claim_noble", 0,
                                   {"portrait": "madrid_king", "country_cards": ["spain"] * 8}),
     "The King in Madrid is held by Player 2: a claim needs a vacant portrait (§5.2); "
     "Player 1 may usurp it instead (§5.3)"),
    ("portrait_empty", lambda: (_occupied(), "usurp_noble", 0, {
        "portrait": "valencia_duke", "country_cards": ["spain"] * 4,
        "intrigue_cards": [["britain", "spain"]]}), "The Duke in Valencia is vacant"),
    ("own_noble", lambda: (occupy(_occupied(), "valencia_duke", 0), "usurp_noble", 0, {
        "portrait": "valencia_duke", "country_cards": ["spain"] * 4,
        "intrigue_cards": [["britain", "spain"]]}),
     "Player 1 already holds the Duke in Valencia: nobody usurps their own noble (§5.3)"),
    ("card_not_in_hand", lambda: (playing(hand=["spain"]), "claim_noble", 0,
                                  {"portrait": "seville_baron", "country_cards": ["spain"] * 2}),
     "Player 1 holds only 1 Spain card and offered 2"),
    ("card_not_in_hand", lambda: (_occupied(), "usurp_noble", 0, {
        "portrait": "madrid_king", "country_cards": ["spain"] * 8,
        "intrigue_cards": [["german_states", "spain"]]}),
     "Player 1 holds no German States/Spain intrigue card and offered 1"),
    ("wrong_payment", lambda: (playing(hand=["spain"] * 3), "claim_noble", 0,
                               {"portrait": "seville_baron", "country_cards": ["spain"] * 3}),
     "The Baron in Seville needs exactly 2 Spain cards"),
    ("wrong_intrigue_payment", lambda: (_occupied(), "usurp_noble", 0, {
        "portrait": "madrid_king", "country_cards": ["spain"] * 8, "intrigue_cards": []}),
     "A King needs 2 intrigue cards showing Spain"),
    ("wrong_discard_count", lambda: (playing(hand=["spain"] * 13), "end_turn", 0, {}),
     "Player 1 holds 13 country cards (the limit is 12): discard exactly 1, not 0"),
    ("card_not_in_hand", lambda: (playing(hand=["spain"] * 13), "end_turn", 0,
                                  {"discard_country": ["france"]}),
     "Player 1 holds no France card and offered 1"),
    ("refill_too_short", lambda: (replace(playing(), display=Bag(["spain"])), "end_turn", 0,
                                  {"refill": ["spain"]}), "the refill names 1 card, more are"),
    ("refill_too_long", lambda: (playing(), "end_turn", 0, {"refill": ["spain"]}),
     "The refill turns up no card; the refill names 1"),
    ("not_available", lambda: (replace(playing(), display=Bag(["spain"] * 2),
                                       deck=Bag(["france"] * 3)), "end_turn", 0,
                               {"refill": ["spain"]}), "No Spain card remains"),
    ("game_over", lambda: (replace(playing(), phase=OVER), "end_turn", 0, {}), "over"),
    ("game_not_started", lambda: (RULES.initial_state(created()), "end_turn", 0, {}),
     "setup"),
    ("unknown_action", lambda: (playing(), "bribe_the_pope", 0, {}), "no move “bribe_the_pope”"),
]

SETUP_REFUSALS = [
    ("wrong_colours", {"colours": ["black", "white"]}, "3 colours needed"),
    ("unknown_colour", {"colours": ["black", "white", "pink"]}, "pink"),
    ("duplicate_colour", {"colours": ["black", "white", "black"]}, "black"),
    ("bad_start_player", {"start_player": 3}, "0 to 2"),
    ("wrong_display_size", {"display": ["spain"]}, "1 card was named"),
    ("setup_disagrees", {"players": 4}, "created for 3"),
    ("setup_disagrees", {"variants": {"period3_finish_round": True}},
     "“finish the round after period 3” on, but the game was created with it off"),
]


@pytest.mark.parametrize(("code", "case", "text"), REFUSALS,
                         ids=[f"{c}-{i}" for i, (c, _, _) in enumerate(REFUSALS)])
def test_refusal_names_the_rule(code, case, text):
    state, type_, actor, data = case()
    err = refused(state, type_, actor, **data)
    assert err.code == code
    assert text in err.message


@pytest.mark.parametrize(("code", "case", "text"), REFUSALS,
                         ids=[f"{c}-{i}" for i, (c, _, _) in enumerate(REFUSALS)])
def test_refusal_is_a_sentence_for_a_person(code, case, text):
    state, type_, actor, data = case()
    message = refused(state, type_, actor, **data).message
    if code == "unknown_action":  # quotes the type as sent (the game contract)
        message = message.replace(type_, "")
    assert not unreadable(message), message


@pytest.mark.parametrize(("code", "data", "text"), SETUP_REFUSALS,
                         ids=[f"{c}-{i}" for i, (c, _, _) in enumerate(SETUP_REFUSALS)])
def test_setup_refusal_names_the_rule(code, data, text):
    state = RULES.initial_state(created(3))
    base = {"colours": ["black", "white", "grey"], "start_player": 0,
            "display": ["france", "spain", "spain"]}
    err = refused(state, "setup", "table", **{**base, **data})
    assert err.code == code
    assert text in err.message
    assert not unreadable(err.message), err.message


# ---------------------------------------------------------------------------
# Issue #19.4: a piece "moved" to where it already stands is no move
# ---------------------------------------------------------------------------
# Every Royals action that moves something, and what would make it a no-op: a claim or usurp
# puts the actor's cube on a portrait (the actor's own cube may already stand there); a
# draw moves a card display/deck -> hand; payments and discards move cards hand -> discard
# piles; a refill moves cards deck -> display. Each case is refused below.


def test_claiming_a_portrait_one_already_holds_is_refused_naming_the_rule():
    state = occupy(playing(hand=["spain"] * 4), "valencia_duke", 0)
    err = refused(state, "claim_noble", 0, portrait="valencia_duke",
                  country_cards=["spain"] * 4)
    assert err.code == "own_noble"
    assert err.message == (
        "Player 1 already holds the Duke in Valencia: a claim places a cube on a vacant "
        "portrait (§5.2) and nobody usurps their own noble (§5.3), so the cube would stay "
        "where it stands")


def test_usurping_a_portrait_one_already_holds_is_refused_naming_the_rule():
    state = occupy(playing(hand=["spain"] * 4, intrigues=[intrigue("britain", "spain")]),
                   "valencia_duke", 0)
    err = refused(state, "usurp_noble", 0, portrait="valencia_duke",
                  country_cards=["spain"] * 4, intrigue_cards=[intrigue("britain", "spain")])
    assert err.code == "own_noble" and "(§5.3)" in err.message
    assert "Player 1 already holds the Duke in Valencia" in err.message


def test_a_refused_claim_of_ones_own_portrait_changes_nothing_in_the_legal_list():
    # the enumerated actions never offer the no-op either (spec §5.2: a vacant portrait)
    state = occupy(playing(hand=["spain"] * 8, intrigues=E2_INTRIGUES), "madrid_king", 0)
    offered = [a for a in RULES.legal_actions(state) if a["type"] != "end_turn"]
    assert offered and all(a["data"]["portrait"] != "madrid_king" for a in offered)


def test_a_face_up_card_drawn_leaves_the_display_and_cannot_be_drawn_twice():
    state = drawing(3, seat=0, display=Bag(["france", "spain", "spain"]))
    twice = [{"kind": "country", "source": "display", "card": "france"}] * 2 + deck_draws(1)
    err = refused(state, "draw_cards", 0, draws=twice)
    assert err.code == "not_in_display"
    assert err.message == "No France card is face up in the display any more"
    after = act(state, "draw_cards", 0, draws=twice[:1] + deck_draws(2))
    assert after.display == Bag(["spain", "spain"]) and after.hands[0].count("france") == 3


def test_a_refill_into_a_full_display_is_refused():
    err = refused(playing(), "end_turn", 0, refill=["spain"])
    assert err.code == "refill_too_long"
    assert err.message == "The refill turns up no card; the refill names 1 (§5.4)"


def test_paying_or_discarding_a_card_not_in_hand_is_refused():
    state = playing(hand=["spain"] * 13)
    assert refused(state, "end_turn", 0, discard_country=["britain"]).code == "card_not_in_hand"
    err = refused(state, "claim_noble", 0, portrait="london_king",
                  country_cards=["britain"] * 8)
    assert err.code == "card_not_in_hand" and "holds no Britain card" in err.message


def test_setup_display_cards_must_be_in_the_prepared_deck():
    state = replace(RULES.initial_state(created(3)), deck=Bag(["france"] * 5 + ["spain"]))
    err = refused(state, "setup", "table", colours=["black", "white", "grey"], start_player=0,
                  display=["spain", "spain", "france"])
    assert err.code == "not_available" and "Spain" in err.message


def test_two_players_must_use_black_and_white():
    state = RULES.initial_state(created(2))
    err = refused(state, "setup", "table", colours=["black", "grey"], start_player=0,
                  display=["spain"] * 3)
    assert err.code == "two_player_colours" and "black and white" in err.message


def test_setup_is_only_for_the_table_and_only_once():
    state = RULES.initial_state(created(3))
    data = {"colours": ["black", "white", "grey"], "start_player": 0, "display": ["spain"] * 3}
    assert refused(state, "setup", 0, **data).code == "not_your_turn"
    assert refused(act(state, "setup", "table", **data), "setup", "table",
                   **data).code == "already_set_up"


def test_unknown_and_unsupported_options_are_refused():
    with pytest.raises(IllegalAction) as err:
        RULES.initial_state(created_for(RULES, 3, options={"speed": "fast"}))
    assert err.value.code == "unknown_option" and "speed" in err.value.message
    with pytest.raises(IllegalAction) as err:
        RULES.initial_state(created(3, edition_arcane_wonders_deck=True))
    assert err.value.code == "unsupported_option"


# ---------------------------------------------------------------------------
# Setup, digital dealing, views and redaction
# ---------------------------------------------------------------------------


def test_setup_prepares_the_deck_by_player_count_and_the_supplies():
    for players, in_play in ((2, 54), (3, 69), (4, 83), (5, 99)):
        state = set_up(players)
        assert len(state.deck) + len(state.display) == in_play
        assert len(state.removed) == 99 - in_play
        assert len(state.intrigue_deck) == 24
    assert set_up(2).supply == (46, 46)
    assert set_up(5).colours == ("black", "white", "grey", "orange", "purple")
    assert set_up(5).supply == (46, 46, 36, 36, 36)


def test_digital_mode_deals_from_the_seeded_dealer_and_replays_the_same():
    state = RULES.initial_state(created(3, mode="digital"))
    auto = RULES.auto_action(state)
    action = Action.of(auto["type"], auto["actor"], auto["data"])
    data = RULES.fill_chance(state, action, Dealer("s", 1))
    assert data == RULES.fill_chance(state, action, Dealer("s", 1))
    state = act(state, "setup", "table", **data)
    proposal = RULES.legal_actions(state)[0]
    draw = Action.of(proposal["type"], proposal["actor"], proposal["data"])
    filled = RULES.fill_chance(state, draw, Dealer("s", 2))
    assert all("card" in d for d in filled["draws"])
    after = act(state, "draw_cards", state.current, **filled)
    assert len(after.hands[state.current]) == 1


@given(st.dictionaries(st.sampled_from(["spain", "france", "england", "austria"]),
                       st.integers(-2, 4)))
def test_a_dealt_pick_is_the_card_at_its_index_of_the_sorted_pile(counts):
    # ruling R13: uniform over the pile's cards as a multiset, listed in sorted order
    pile = Counter(counts)
    cards = sorted(pile.elements())
    assert [nth_card(pile, i) for i in range(len(cards))] == cards


def test_legal_draws_leave_the_chance_fields_out():
    for option in RULES.legal_actions(drawing(3)):
        for draw in option["data"]["draws"]:
            assert ("card" in draw) == (draw.get("source") == "display")


def test_the_state_keeps_the_names_but_no_view_shows_them():
    state = RULES.initial_state({**created(3), "players": ["Ann", "Bo", "Claire"]})
    assert state.names == ("Ann", "Bo", "Claire")
    for seat in (0, None, "all"):
        assert "Ann" not in json.dumps(RULES.view(state, seat))


def test_views_hide_other_hands_and_show_counts():
    state = playing(hand=["spain", "france"], intrigues=[intrigue("britain", "spain")])
    own, other, spectator = (RULES.view(state, 0), RULES.view(state, 1), RULES.view(state, None))
    assert own["hands"][0]["country"] == {"france": 1, "spain": 1}
    assert own["hands"][0]["intrigue"] == [["britain", "spain"]]
    for view in (other, spectator):
        assert view["hands"][0] == {"country_count": 2, "intrigue_count": 1, "country": None,
                                    "intrigue": None}
    assert RULES.view(state, "all")["hands"][0]["country"] == {"france": 1, "spain": 1}


def test_redact_hides_deck_and_intrigue_draws_from_other_seats_only():
    action = Action.of("draw_cards", 0, {"draws": [
        {"kind": "country", "source": "display", "card": "spain"},
        {"kind": "intrigue", "card": ["britain", "spain"]}]})
    assert RULES.redact(action, 0, drawing()) is None
    assert RULES.redact(action, "all", drawing()) is None
    for seat in (1, None):
        assert RULES.redact(action, seat, drawing()) == {"draws": [
            {"kind": "country", "source": "display", "card": "spain"}, {"kind": "intrigue"}]}
    public = Action.of("draw_cards", 0, {"draws": [
        {"kind": "country", "source": "display", "card": "spain"}]})
    assert RULES.redact(public, 1, drawing()) is None


NAMES = ("Ann", "Bo", "Claire")

DESCRIBED = [
    (("setup", "table", {"colours": ["black", "white", "grey"], "start_player": 1,
                         "display": ["spain", "france", "france"]}),
     "The table set up the game: Ann plays black, Bo white and Claire grey; Bo starts; the "
     "display shows Spain, France and France"),
    (("draw_cards", 1, {"draws": [{"kind": "country", "source": "deck", "card": "spain"},
                                  {"kind": "intrigue", "card": ["britain", "spain"]}]}),
     "Bo drew 1 country card from the deck and 1 intrigue card"),
    (("draw_cards", 2, {"draws": [{"kind": "country", "source": "display", "card": "spain"},
                                  {"kind": "country", "source": "display", "card": "france"},
                                  {"kind": "country", "source": "deck", "card": "britain"}]}),
     "Claire drew 3 country cards: Spain and France from the display and 1 from the deck"),
    (("draw_cards", 0, {"draws": [{"kind": "country", "source": "display", "card": "spain"}]}),
     "Ann drew 1 country card from the display (Spain)"),
    (("draw_cards", 0, {"draws": [{"kind": "country", "source": "deck"}] * 3}),
     "Ann drew 3 country cards from the deck"),
    (("claim_noble", 0, {"portrait": "valencia_duke", "country_cards": ["spain"] * 4}),
     "Ann claimed the Duke in Valencia, paying 4 Spain cards"),
    (("claim_noble", 0, {"portrait": "valencia_marshal", "country_cards": ["spain"]}),
     "Ann claimed the Marshal in Valencia, paying 1 Spain card"),
    (("claim_noble", 1, {"portrait": "valencia_duke", "country_cards": [
        "spain", "spain", "france", "france", "france", "britain", "britain", "britain"]}),
     "Bo claimed the Duke in Valencia, paying 3 Britain, 3 France and 2 Spain cards"),
    (("usurp_noble", 0, {"portrait": "madrid_king", "country_cards": ["spain"] * 8,
                         "intrigue_cards": [["spain", "britain"], ["france", "german_states"],
                                            ["britain", "france"]]}),
     "Ann usurped the King in Madrid, paying 8 Spain cards and 3 intrigue cards "
     "(Britain/France, Britain/Spain and France/German States)"),
    (("end_turn", 2, {"discard_country": [], "discard_intrigue": [], "refill": []}),
     "Claire ended the turn"),
    (("end_turn", 2, {"discard_country": ["france", "france"], "discard_intrigue": [],
                      "refill": ["spain"]}),
     "Claire ended the turn, discarding 2 France cards; Spain was turned face up for the "
     "display"),
    (("end_turn", 0, {"discard_country": ["france"], "discard_intrigue": [["spain", "france"]],
                      "refill": ["spain", "german_states"]}),
     "Ann ended the turn, discarding 1 France card and 1 intrigue card (France/Spain); Spain "
     "and German States were turned face up for the display"),
    # ruling R22: a type no record declares is the engine's to describe, quoted as sent
    (("bribe_the_pope", 1, {}), "Bo: bribe the pope"),
]


@pytest.mark.parametrize(("action", "sentence"), DESCRIBED,
                         ids=[f"{a[0]}-{i}" for i, (a, _) in enumerate(DESCRIBED)])
def test_describe_says_a_whole_sentence_naming_the_actor_and_the_pieces(action, sentence):
    type_, actor, data = action
    assert RULES.describe(Action.of(type_, actor, data), NAMES) == sentence


def test_describe_never_names_a_card_drawn_face_down():
    # spec §7: the log shows everyone the sentence, so deck and intrigue cards stay unnamed
    draws = [{"kind": "country", "source": "deck", "card": "britain"},
             {"kind": "intrigue", "card": ["france", "german_states"]}]
    text = RULES.describe(Action.of("draw_cards", 0, {"draws": draws}), NAMES)
    assert not any(word in text for word in ("Britain", "France", "German"))


def test_describe_survives_data_a_correction_may_carry():
    for type_, data in (("claim_noble", {"portrait": 7}), ("draw_cards", {"draws": "x"}),
                        ("end_turn", {"refill": [None, "atlantis"]}), ("setup", {})):
        text = RULES.describe(Action.of(type_, 0, data), NAMES)
        assert text.startswith("Ann ") or text.startswith("The table")
        assert "None" not in text and "_" not in text


# ---------------------------------------------------------------------------
# The edition: every number is read from it
# ---------------------------------------------------------------------------


def test_the_default_edition_passes_its_checks():
    assert RULES.check_edition_content(RULES.edition) == []


def test_a_broken_edition_is_reported():
    edition = json.loads(json.dumps(RULES.edition))
    del edition["hand_limits"]
    edition["cities"][0]["portraits"][0]["cards_required"] = 7
    problems = RULES.check_edition_content(edition)
    assert any("hand_limits" in p for p in problems)
    edition["hand_limits"] = RULES.edition["hand_limits"]
    assert any("paris_king" in p for p in RULES.check_edition_content(edition))


def test_changed_edition_values_change_the_game():
    edition = json.loads(json.dumps(RULES.edition))
    edition["country_bonus"]["values"]["britain"] = [60, 30]
    edition["hand_limits"]["country"] = 20
    next(c for c in edition["cities"] if c["id"] == "london")["city_bonus"] = 50
    rules = get_rules("royals", edition)
    state = rules.apply(rules.initial_state(created_for(rules, 3)), Action.of(
        "setup", "table", {"colours": ["black", "white", "grey"], "start_player": 0,
                           "display": ["france"] * 3}))
    state = replace(state, phase=PLAY, turn_no=3,
                    hands=with_item(state.hands, 0, Bag(["britain"] * 14 + ["spain"] * 3)))
    for portrait in ("london_princess", "edinburgh_duke"):
        country_cards = ["britain"] * rules.board.portrait(portrait).cost
        state = rules.apply(state, Action.of("claim_noble", 0, {"portrait": portrait,
                                                                "country_cards": country_cards}))
    state = rules.apply(state, Action.of("claim_noble", 0, {
        "portrait": "dublin_baron", "country_cards": ["britain", "spain", "spain", "spain"]}))
    assert sorted(m.value for m in state.holdings[0]) == [2, 3, 50, 60]
    rules.apply(state, Action.of("end_turn", 0, {"refill": []}))  # 13 cards: under 20


# ---------------------------------------------------------------------------
# Sample games (fixtures) and their final scores
# ---------------------------------------------------------------------------

SAMPLE_SCORES = {
    "two_players": ([87, 109], [1]),
    "three_players": ([104, 31, 60], [0]),
    "four_players": ([35, 52, 55, 59], [3]),
    "five_players": ([52, 40, 18, 43, 49], [0]),
    "three_players_finishing_the_round": ([54, 80, 83], [2]),
}


@pytest.mark.parametrize("name", sorted(SAMPLES))
def test_sample_game_final_scores(name):
    created_data, actions = SAMPLES[name]()
    state = RULES.initial_state(json.loads(json.dumps(created_data)))
    for raw in json.loads(json.dumps(actions)):
        state = RULES.apply(state, Action.of(raw["type"], raw["actor"], raw["data"]))
    result = RULES.result(state)
    assert (result["scores"], result["winners"]) == SAMPLE_SCORES[name]
    assert_conserved(state)


# ---------------------------------------------------------------------------
# Properties of random legal games
# ---------------------------------------------------------------------------


def assert_conserved(state: State, markers: bool = True) -> None:
    """Every card, cube and marker is in exactly one place; nothing is created or lost."""
    deck, removed = BOARD.prepared_deck(state.players)
    cards = Counter()
    for bag in (state.deck, state.display, state.discard, *state.hands):
        cards.update(bag.counts())
    assert cards == deck and state.removed.counts() == removed
    intrigues = Counter()
    for bag in (state.intrigue_deck, state.intrigue_discard, *state.intrigues):
        intrigues.update(bag.counts())
    assert intrigues == BOARD.intrigue_cards
    for seat, colour in enumerate(state.colours):
        placed = (state.board.count(seat) + sum(row[seat] for row in state.cathedrals)
                  + sum(row[seat] for row in state.tiles))
        assert state.supply[seat] + placed == BOARD.cube_counts[colour]
        assert state.supply[seat] >= 0
    if markers:
        assert_markers_conserved(state)


def assert_markers_conserved(state: State) -> None:
    places = Counter((("title", m.key) if m.kind == "title_half" else (m.kind, m.key))
                     for ms in (*state.holdings, state.out_of_game) for m in ms)
    halves = {k for k, v in places.items() if v > 1}
    assert all(places[k] == 2 and k[0] == "title" for k in halves)
    board = RULES.view(state, "all")["board_markers"]
    on_board = (len(board["city"]) + len(board["shield"]) + len(board["noble_house"])
                + 2 * len(board["period"]) + len(board["title"]))
    assert on_board + len(places) == BOARD.all_markers_count(state.players)


def random_game(players, seed, **variants):
    return play(RULES, created(players, "digital", **variants), random.Random(seed).randrange,
                f"royals-{seed}", max_steps=5000)


def check_game(game, players):
    """Finished, conserving every component at every step, never leaking hidden cards."""
    result = RULES.result(game.final)
    assert result is not None and len(result["scores"]) == players
    assert RULES.legal_actions(game.final) == []
    for i, action in enumerate(game.actions):
        before = game.states[i]
        if before.phase != "awaiting_setup":
            assert_conserved(before, markers=i % 20 == 0)
        check_hidden(before, action, views=i % 25 == 0)
    assert_conserved(game.final)


def check_replay(game):
    """The JSON of the actions replays to exactly the same states."""
    state = RULES.initial_state(json.loads(json.dumps(game.created)))
    for i, raw in enumerate(json.loads(json.dumps([a.to_json() for a in game.actions]))):
        state = RULES.apply(state, Action.of(raw["type"], raw["actor"], raw["data"]))
        assert state == game.states[i + 1]


def check_hidden(state, action, views=True):
    """Another seat's hand never appears in a view, nor its deck draws in a redacted event."""
    if state.phase in ("awaiting_setup", OVER):
        return
    for viewer in (None, *range(state.players)) if views else ():
        view = RULES.view(state, viewer)
        for seat, hand in enumerate(view["hands"]):
            assert (hand["country"] is None) == (seat != viewer)
            assert (hand["intrigue"] is None) == (seat != viewer)
    if action.type == "draw_cards":
        for viewer in (None, *(s for s in range(state.players) if s != action.actor)):
            shown = RULES.redact(action, viewer, state) or action.to_json()["data"]
            for draw in shown["draws"]:
                assert "card" not in draw or draw.get("source") == "display"


@pytest.mark.parametrize("players", [2, 3, 4, 5])
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1))
def test_random_legal_games_finish_and_conserve_every_card_cube_and_marker(players, seed):
    check_game(random_game(players, seed), players)


@pytest.mark.parametrize("players", [2, 3, 4, 5])
@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1))
def test_random_legal_games_replay_exactly_from_json(players, seed):
    check_replay(random_game(players, seed))


@pytest.mark.parametrize("players", [2, 3, 4, 5])
@settings(max_examples=3, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1))
def test_random_games_with_the_finish_round_variant_finish(players, seed):
    check_game(random_game(players, seed, period3_finish_round=True), players)


def test_the_same_seed_deals_the_same_game():
    assert random_game(4, 99).actions == random_game(4, 99).actions


@pytest.mark.parametrize("players", [2, 3, 4, 5])
@settings(max_examples=3, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1))
def test_undo_restores_the_state_before_every_action(players, seed):
    game = random_game(players, seed)
    folder = Folder(RULES, "table")
    folder.feed({"seq": 0, "type": "game_created", "actor": "table", "data": game.created})
    for i, action in enumerate(game.actions, start=1):
        folder.feed({"seq": folder.last.seq + 1, **action.to_json()})
        scratch = Folder(RULES, "table", fallback=folder.lookup, event_at=folder.envelopes.get)
        scratch.resume(folder.last)
        undone = scratch.feed({"seq": folder.last.seq + 1, "type": "undo", "actor": "table",
                               "data": {}})
        assert undone.state == game.states[i - 1]


@pytest.mark.slow
@pytest.mark.parametrize("players", [2, 3, 4, 5])
@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1))
def test_hundreds_of_random_games_finish_conserve_and_replay(players, seed):
    game = random_game(players, seed, period3_finish_round=seed % 4 == 0)
    check_game(game, players)
    check_replay(game)


def test_a_lazy_reshuffle_of_an_empty_pile_ends_no_period():
    # ruling R2: the pile was already empty (a reshuffle found no discards), so taking a card
    # from the reshuffled discards is no run-out
    state = drawing(3, seat=0, deck=Bag(), discard=Bag(["spain"] * 5))
    after = act(state, "draw_cards", 0, draws=[
        {"kind": "country", "source": "deck", "card": "spain"}] * 3)
    assert not after.period_ended and after.deck == Bag(["spain"] * 2)
    assert act(after, "end_turn", 0, refill=[]).period == 1


def test_variant_last_turn_makes_no_refill():
    # ruling R5: the last turn of the finishing round ends the game, so nothing is turned up
    state = set_up(3, start=1, period3_finish_round=True)
    state = replace(state, phase=PLAY, turn_no=9, period=3, current=0, final_round=True,
                    display=Bag(["spain"]), deck=Bag(FORTY))
    assert refused(state, "end_turn", 0, refill=["spain", "spain"]).code == "refill_too_long"
    assert act(state, "end_turn", 0, refill=[]).phase == OVER
    earlier = replace(state, current=2)
    assert refused(earlier, "end_turn", 2, refill=[]).code == "refill_too_short"


COUNTRY_IDS = st.sampled_from(["france", "spain", "britain", "german_states", "prussia", ""])
PAIRS = st.lists(COUNTRY_IDS, min_size=0, max_size=3)
DRAW_ENTRY = st.fixed_dictionaries({"kind": st.sampled_from(["country", "intrigue"])}, optional={
    "source": st.sampled_from(["display", "deck"]),
    "card": st.one_of(COUNTRY_IDS, PAIRS, st.none())})
SHAPES = {
    "draw_cards": st.fixed_dictionaries({"draws": st.lists(DRAW_ENTRY, max_size=5)}),
    "claim_noble": st.fixed_dictionaries({
        "portrait": st.sampled_from([*BOARD.portrait_index, "toledo_count"]),
        "country_cards": st.lists(COUNTRY_IDS, max_size=10)}),
    "usurp_noble": st.fixed_dictionaries({
        "portrait": st.sampled_from([*BOARD.portrait_index, "x"]),
        "country_cards": st.lists(COUNTRY_IDS, max_size=10),
        "intrigue_cards": st.lists(PAIRS, max_size=5)}),
    "end_turn": st.fixed_dictionaries({}, optional={
        "discard_country": st.lists(COUNTRY_IDS, max_size=4),
        "discard_intrigue": st.lists(PAIRS, max_size=3),
        "refill": st.lists(COUNTRY_IDS, max_size=4)}),
    "setup": st.fixed_dictionaries({
        "colours": st.lists(st.sampled_from(["black", "white", "grey", "pink"]), max_size=6)},
        optional={"start_player": st.integers(-2, 6), "display": st.lists(COUNTRY_IDS,
                                                                          max_size=4),
                  "players": st.integers(0, 6)}),
}
FUZZ_GAME = random_game(3, 5)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(step=st.integers(0, len(FUZZ_GAME.states) - 1), kind=st.sampled_from(sorted(SHAPES)),
       actor=st.sampled_from([0, 1, 2, 3, -1, "table"]), data=st.data())
def test_well_shaped_nonsense_is_refused_with_illegal_action_only(step, kind, actor, data):
    payload = data.draw(SHAPES[kind])
    try:
        RULES.apply(FUZZ_GAME.states[step], Action.of(kind, actor, payload))
    except IllegalAction as err:
        assert err.code and err.message


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_every_listed_legal_action_applies_once_its_chance_is_filled(players):
    game = random_game(players, 1000 + players)
    for step, state in enumerate(game.states[:-1:7]):
        for option in RULES.legal_actions(state):
            action = Action.of(option["type"], option["actor"], option["data"])
            data = RULES.fill_chance(state, action, Dealer("every-option", step))
            RULES.apply(state, Action.of(action.type, action.actor, data))


# ---------------------------------------------------------------------------
# Table mode: the chance outcomes offered to pick (chance_slots)
# ---------------------------------------------------------------------------
# A tablet recorder taps what turned up instead of typing ids. The client writes each pick at
# data[field] + path, and takes every pick of one action from one pool: a value repeated k
# times in a slot's options is k cards, and a value picked in any slot uses one up.


def key(value):
    return json.dumps(value, sort_keys=True)


def at(data, slot):
    """The value `data` holds where `slot` writes."""
    value = data[slot["field"]]
    for step in slot["path"]:
        value = value[step]
    return value


def write(data, slot, value):
    """Write a pick as the client does, making missing lists and dicts on the way."""
    path = [slot["field"], *slot["path"]]
    holder = data
    for step, following in pairwise(path):
        if _get(holder, step) is None:
            _put(holder, step, [] if isinstance(following, int) else {})
        holder = holder[step]
    _put(holder, path[-1], list(value) if slot["many"] else value)


def _get(holder, step):
    return holder.get(step) if isinstance(holder, dict) else \
        holder[step] if step < len(holder) else None


def _put(holder, step, value):
    if isinstance(holder, list):  # a JavaScript array: the gaps read as null in JSON
        holder.extend([None] * (step + 1 - len(holder)))
    holder[step] = value


def left(slot, picked):
    """What is left to pick in `slot`: its options less every pick of the action so far."""
    pool = Counter(key(o) for o in slot["options"])
    pool.subtract(key(p) for p in picked)
    return +pool


def pick_in_order(slots, chooser):
    """Picks for every slot in turn, `chooser(slot, left)` giving each value (JSON key)."""
    picked, picks = [], []
    for slot in slots:
        values = []
        for _ in range(slot["count"] if slot["many"] else 1):
            value = json.loads(chooser(slot, left(slot, picked), len(values)))
            values.append(value)
            picked.append(value)
        picks.append(values if slot["many"] else values[0])
    return picks


def listed(state, action):
    """The action as legal_actions lists it: its chance outcomes left out."""
    return Action.of(action.type, action.actor, RULES.strip_chance(action))


def slot_shape(slots):
    return [(s["field"], s["path"], s["many"], s["count"]) for s in slots]


@pytest.fixture(scope="module")
def slot_games():
    return [random_game(players, 700 + players) for players in (2, 3, 4, 5)] + [
        random_game(3, 777, period3_finish_round=True)]


def test_slots_cover_every_outcome_the_dealer_deals_and_offer_it(slot_games):
    crossings = Counter()
    for game in slot_games:
        for state, action in zip(game.states, game.actions, strict=False):
            if not RULES.chance_fields.get(action.type):
                continue
            bare = listed(state, action)
            offered = [RULES.auto_action(state)] if state.phase == "awaiting_setup" \
                else RULES.legal_actions(state)
            assert {"type": bare.type, "actor": bare.actor, "data": thaw(bare.data)} in offered
            slots = RULES.chance_slots(state, bare)
            dealt = thaw(action.data)
            # the dealer's outcome, picked slot by slot from what is left, rebuilds the action
            rebuilt = thaw(bare.data)
            picks = pick_in_order(slots, lambda slot, pool, n, dealt=dealt: key(
                at(dealt, slot)[n] if slot["many"] else at(dealt, slot)))
            for slot, value in zip(slots, picks, strict=True):
                if slot["many"]:
                    assert len(value) == slot["count"]
                write(rebuilt, slot, value)
            assert rebuilt == dealt, (action.type, slots)
            crossings.update(s["field"] for s in slots if "ran out" in s["label"])
    # the seeds reach a pile running out in the middle of a draw and of a refill
    assert crossings["draws"] and crossings["refill"]


def test_any_picks_from_the_slots_make_an_action_the_rules_accept(slot_games):
    rng = random.Random(11)

    def chooser(slot, pool, n):
        assert pool, f"nothing left to pick for {slot['label']}"
        return rng.choice(sorted(pool.elements()))

    tried = Counter()
    for game in slot_games:
        for step, state in enumerate(game.states[:-1]):
            if step % 5 and len(state.deck) > 3:
                continue  # every 5th state, and every state where the pile may run out
            options = [RULES.auto_action(state)] if state.phase == "awaiting_setup" \
                else RULES.legal_actions(state)
            for option in options:
                if not RULES.chance_fields.get(option["type"]):
                    continue
                action = Action.of(option["type"], option["actor"], option["data"])
                slots = RULES.chance_slots(state, action)
                data = thaw(action.data)
                for slot, value in zip(slots, pick_in_order(slots, chooser), strict=True):
                    write(data, slot, value)
                RULES.apply(state, Action.of(action.type, action.actor, data))
                tried[action.type] += 1
                tried["ran out"] += any("ran out" in s["label"] for s in slots)
    assert tried["setup"] and tried["draw_cards"] > 100 and tried["end_turn"] > 30
    assert tried["ran out"] > 10


def test_setup_slots_are_the_start_seat_and_the_display_from_the_prepared_deck():
    state = RULES.initial_state(created(3))
    auto = RULES.auto_action(state)
    slots = RULES.chance_slots(state, Action.of("setup", "table", auto["data"]))
    assert slots == [
        {"field": "start_player", "path": [], "options": [0, 1, 2], "many": False,
         "count": None, "label": "the start player",  # tapped by the players' names
         "groups": [{"label": "", "items": [{"label": name, "values": [seat]}
                                            for seat, name in enumerate(state.names)]}]},
        {"field": "display", "path": [], "options": list(state.deck), "many": True, "count": 3,
         "label": "the 3 cards turned face up for the display"}]
    assert Counter(slots[1]["options"]) == BOARD.prepared_deck(3)[0]  # 69 cards, with repeats
    colours = auto["data"]["colours"]
    # a display picked short is refused by the rules
    err = refused(state, "setup", "table", colours=colours, start_player=1, display=["spain"])
    assert (err.code, err.message) == (
        "wrong_display_size", "The setup turns 3 cards face up for the display; 1 card was named")
    err = refused(state, "setup", "table", colours=colours, display=["spain"] * 3)
    assert (err.code, err.message) == (
        "bad_start_player",
        "The start player is one of the 3 players (a seat from 0 to 2); none was named")


def test_a_draw_offers_one_slot_per_deck_and_intrigue_card_and_none_for_the_display():
    state = drawing(3, seat=0, deck=Bag(["britain", "spain", "spain"]),
                    intrigue_deck=Bag(["britain+spain", "britain+spain", "france+spain"]))
    three = Action.of("draw_cards", 0, {"draws": [
        {"kind": "country", "source": "display", "card": "france"},
        {"kind": "country", "source": "deck"}, {"kind": "country", "source": "deck"}]})
    deck = ["britain", "spain", "spain"]
    assert RULES.chance_slots(state, three) == [
        {"field": "draws", "path": [1, "card"], "options": deck, "many": False, "count": None,
         "label": "the 1st card Player 1 drew from the deck"},
        {"field": "draws", "path": [2, "card"], "options": deck, "many": False, "count": None,
         "label": "the 2nd card Player 1 drew from the deck"}]
    one_one = Action.of("draw_cards", 0, {"draws": [{"kind": "intrigue"},
                                                    {"kind": "country", "source": "deck"}]})
    assert RULES.chance_slots(state, one_one) == [
        {"field": "draws", "path": [0, "card"], "many": False, "count": None,
         "options": [["britain", "spain"], ["britain", "spain"], ["france", "spain"]],
         "label": "the intrigue card Player 1 drew"},
        {"field": "draws", "path": [1, "card"], "options": deck, "many": False, "count": None,
         "label": "the card Player 1 drew from the deck"}]
    display_only = Action.of("draw_cards", 0, {"draws": [
        {"kind": "country", "source": "display", "card": c} for c in ("france", "france",
                                                                      "spain")]})
    assert RULES.chance_slots(state, display_only) == []
    # a deck card left unpicked is refused by the rules
    err = refused(state, "draw_cards", 0, draws=[{"kind": "intrigue", "card": ["spain", "france"]},
                                                 {"kind": "country", "source": "deck"}])
    assert err.code == "missing_card"


def test_a_draw_past_the_last_deck_card_takes_that_card_first_then_the_reshuffled_discards():
    # spec §6.4: the pile's last card, then the discards (now the pile): one pool for the
    # client, so the later picks offer both piles, exact once the earlier pick is made
    state = drawing(3, seat=0, deck=Bag(["britain"]), discard=Bag(["britain", "spain"]))
    action = Action.of("draw_cards", 0, {"draws": [{"kind": "country", "source": "deck"}] * 3})
    after = " (after the pile ran out and the discards were reshuffled)"
    assert RULES.chance_slots(state, action) == [
        {"field": "draws", "path": [0, "card"], "options": ["britain"], "many": False,
         "count": None, "label": "the 1st card Player 1 drew from the deck"},
        {"field": "draws", "path": [1, "card"], "options": ["britain", "britain", "spain"],
         "many": False, "count": None, "label": "the 2nd card Player 1 drew from the deck" + after},
        {"field": "draws", "path": [2, "card"], "options": ["britain", "britain", "spain"],
         "many": False, "count": None, "label": "the 3rd card Player 1 drew from the deck" + after}]
    deck = {"kind": "country", "source": "deck"}
    in_order = [{**deck, "card": c} for c in ("britain", "spain", "britain")]
    assert act(state, "draw_cards", 0, draws=in_order).hands[0] == Bag(["britain"] * 2
                                                                       + ["spain"])
    # picked out of turn-up order the pile's last card is not first: refused
    err = refused(state, "draw_cards", 0, draws=[{**deck, "card": c}
                                                 for c in ("spain", "britain", "britain")])
    assert err.code == "not_available"


def test_end_turn_refill_is_the_cards_turned_up_in_order_as_many_as_the_display_lacks():
    state = playing(3, seat=0, display=Bag(["france"]), deck=Bag(["spain", "spain", "britain"]))
    option = RULES.legal_actions(state)[-1]
    assert option["type"] == "end_turn"
    action = Action.of("end_turn", 0, option["data"])
    assert RULES.chance_slots(state, action) == [
        {"field": "refill", "path": [], "options": ["britain", "spain", "spain"], "many": True,
         "count": 2,
         "label": "the cards turned up to refill the display at the end of Player 1's turn, "
                  "in order"}]
    err = refused(state, "end_turn", 0, **option["data"], refill=["spain"])
    assert (err.code, err.message) == (
        "refill_too_short",
        "The display is refilled to 3 cards: the refill names 1 card, more are needed (§5.4)")
    err = refused(state, "end_turn", 0, **option["data"], refill=[])
    assert (err.code, err.message) == (
        "refill_too_short",
        "The display is refilled to 3 cards: the refill names 0 cards, more are needed (§5.4)")
    # a full display, or the game ending, turns nothing up: an empty list
    full = replace(state, display=Bag(["france"] * 3))
    assert slot_shape(RULES.chance_slots(full, action)) == [("refill", [], True, 0)]
    ending = replace(e8_state(), phase=PLAY, period=3, deck=Bag(["britain"]),
                     display=Bag(["spain"]))
    slots = RULES.chance_slots(ending, action)
    assert slot_shape(slots) == [("refill", [], True, 1)] and slots[0]["options"] == ["britain"]


def test_a_refill_past_the_last_deck_card_is_picked_card_by_card():
    # E8 variant: the pile's last card, then the discards with this turn's discard in them
    state = replace(e8_state(), phase=PLAY, deck=Bag(["britain"]), discard=Bag(["spain"] * 5),
                    display=Bag(["france"]), hands=with_item(e8_state().hands, 0,
                                                             Bag(["france"] * 13)))
    option = RULES.legal_actions(state)[-1]
    assert option["data"]["discard_country"] == ["france"]
    slots = RULES.chance_slots(state, Action.of("end_turn", 0, option["data"]))
    assert slots == [
        {"field": "refill", "path": [0], "options": ["britain"], "many": False, "count": None,
         "label": "the 1st card turned up to refill the display at the end of Player 1's turn"},
        {"field": "refill", "path": [1], "options": ["britain", "france", *["spain"] * 5],
         "many": False, "count": None, "label": "the 2nd card turned up to refill the display "
         "at the end of Player 1's turn (after the pile ran out and the discards were "
         "reshuffled)"}]
    data = thaw(option["data"])
    write(data, slots[0], "britain")
    write(data, slots[1], "france")
    assert data["refill"] == ["britain", "france"]
    assert act(state, "end_turn", 0, **data).period == 2


def test_slots_are_empty_for_actions_without_chance_or_not_possible_now():
    state = playing(3, seat=0, hand=["spain"])
    claim = Action.of("claim_noble", 0, {"portrait": "valencia_marshal",
                                         "country_cards": ["spain"]})
    assert RULES.chance_slots(state, claim) == []
    assert RULES.chance_slots(state, Action.of("setup", "table", {"colours": []})) == []
    draw = Action.of("draw_cards", 0, {"draws": [{"kind": "country", "source": "deck"}]})
    assert RULES.chance_slots(replace(state, deck=Bag(), discard=Bag()), draw) == []
    assert RULES.chance_slots(drawing(3), Action.of("end_turn", 0, {})) == []
