"""Royals' choices against brute forces written from the spec (docs/games/royals.md),
never from projections/royals/legal.py: on states of random playouts and on hands built by
hand, the moves `Walker.moves` reaches are exactly the moves the spec allows, each once, and
the reducer accepts every one.

- §5.2/§5.3 payments: every sub-multiset of the hand that pays a portrait exactly (k
  matching cards and N - k groups of any 3; for a usurp also i intrigue cards showing the
  country and R - i groups of any 2, R = 2 for a King), for every portrait the seat may
  claim or usurp with 2 cubes to spend (after the recycling of review ruling 1).
- §5.4 hand-limit discards: every multiset of exactly the excess cards of each hand.
- §3 colours: every assignment of distinct colours to the seats, black and white with 2.
- §5.1 draws: every ordered list of display cards, deck draws and intrigue draws of the
  allowed counts.
The numbers are read from the edition's JSON as the spec says (its §2 keys), not from the
typed components the rules use.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from dataclasses import replace
from itertools import permutations, product

import pytest

from projections import get_rules
from projections.choices import Made, Pick, Walker
from projections.playout import created_for, play
from projections.royals.state import DRAW, PLAY
from projections.rules import Action, Bag, Dealer, with_item

RULES = get_rules("royals")
EDITION = RULES.edition
COUNTRIES = [c["id"] for c in EDITION["countries"]]
PAIRS = sorted("+".join(sorted(c["countries"])) for c in EDITION["intrigue_cards"]["cards"])
WILD_COUNTRY = EDITION["wild"]["country_cards_for_one"]
WILD_INTRIGUE = EDITION["wild"]["intrigue_cards_for_one"]
NEEDED = EDITION["intrigue_needed_to_usurp"]
CUBES = EDITION["cubes_per_claim"]
LIMITS = EDITION["hand_limits"]
PORTRAITS = [(p["id"], city["id"], city["country"], p["title"], p["cards_required"])
             for city in EDITION["cities"] for p in city["portraits"]]
DIGITAL = Walker(RULES, table=False)


# -- the brute forces, from the spec -----------------------------------------------------------
def sub_multisets(counts: dict[str, int]) -> list[tuple[str, ...]]:
    """Every sub-multiset of a hand, as a sorted tuple of its cards."""
    keys = sorted(k for k, n in counts.items() if n)
    out = []
    for takes in product(*(range(counts[k] + 1) for k in keys)):
        out.append(tuple(sorted(k for k, n in zip(keys, takes, strict=True) for _ in range(n))))
    return out


def exact(need: int, wild: int, offered: int, matching: int) -> bool:
    """Spec §5.2 (and §5.3 with 2): T = k + wild·(N - k) for some 0 ≤ k ≤ min(m, N)."""
    return any(offered == k + wild * (need - k) for k in range(min(matching, need) + 1))


def cubes_to_spend(state, seat) -> int:
    """§5.2 and review ruling 1: the supply, plus the redundant cathedral cubes when the
    supply is short (every one in a city where the seat holds a portrait, all but one in
    the others)."""
    supply = state.supply[seat]
    if supply >= CUBES:
        return supply
    for number, city in enumerate(c["id"] for c in EDITION["cities"]):
        count = state.cathedrals[number][seat]
        holds = any(state.board[i] == seat for i, p in enumerate(PORTRAITS) if p[1] == city)
        supply += count if holds else max(0, count - 1)
    return supply


def brute_payments(state, usurp: bool) -> set:
    seat = state.current
    if cubes_to_spend(state, seat) < CUBES:
        return set()
    hand = state.hands[seat].counts()
    intrigues = state.intrigues[seat].counts()
    hands = sub_multisets(hand)
    intrigue_sets = sub_multisets(intrigues) if usurp else [()]
    out = set()
    for index, (portrait, _, country, title, cost) in enumerate(PORTRAITS):
        holder = state.board[index]
        if (holder is None) == usurp or holder == seat:
            continue
        paid = [h for h in hands if h and exact(cost, WILD_COUNTRY, len(h), h.count(country))]
        need = NEEDED.get(title, NEEDED["default"])
        shown = [i for i in intrigue_sets if not usurp or (i and exact(
            need, WILD_INTRIGUE, len(i), sum(1 for c in i if country in c.split("+"))))]
        out |= {(portrait, h, i) for h in paid for i in shown}
    return out


def brute_discards(state) -> set:
    seat = state.current
    country = len(state.hands[seat]) - LIMITS["country"]
    intrigue = len(state.intrigues[seat]) - LIMITS["intrigue"]
    countries = [h for h in sub_multisets(state.hands[seat].counts())
                 if len(h) == max(0, country)]
    pairs = [i for i in sub_multisets(state.intrigues[seat].counts())
             if len(i) == max(0, intrigue)]
    return {(h, i) for h in countries for i in pairs}


def brute_colours(players: int) -> set:
    colours = list(EDITION["cubes"]["per_colour"])
    two = EDITION["cubes"]["two_player_colours"]
    return {c for c in permutations(colours, players) if players != 2 or set(c) == set(two)}


def brute_draws(state) -> set:
    """§5.1: round 1 the position's count of country cards only; later 3 country cards or
    1 country and 1 intrigue card, in any order; a display draw names a face-up card."""
    players = state.players
    if state.turn_no < players:
        shapes = [(EDITION["first_round_draws"]["by_player_count"][str(players)][state.turn_no],
                   0)]
    else:
        shapes = [(o["country"], o["intrigue"]) for o in EDITION["draw_options"].values()]
    face_up = sorted(state.display.counts())
    entries = [("display", c) for c in face_up] + [("deck",), ("intrigue",)]
    out = set()
    for country, intrigue in shapes:
        for order in product(entries, repeat=country + intrigue):
            kinds = Counter("intrigue" if e == ("intrigue",) else "country" for e in order)
            shown = Counter(e[1] for e in order if e[0] == "display")
            if kinds["country"] == country and kinds["intrigue"] == intrigue and all(
                    shown[c] <= state.display.count(c) for c in shown):
                out.add(order)
    return out


# -- what the choices reach -------------------------------------------------------------------
def reached_payments(state, type_: str) -> list:
    out = []
    for move in DIGITAL.moves(state, type_, state.current, limit=2_000_000):
        data = move["data"]
        out.append((data["portrait"], tuple(sorted(data["country_cards"])),
                    tuple(sorted("+".join(sorted(p)) for p in data.get("intrigue_cards", ())))))
        RULES.apply(state, Action.of(type_, state.current, data))  # the reducer accepts it
    return out


def reached_discards(state) -> list:
    out = []
    for move in DIGITAL.moves(state, "end_turn", state.current):
        data = move["data"]
        out.append((tuple(sorted(data["discard_country"])),
                    tuple(sorted("+".join(sorted(p)) for p in data["discard_intrigue"]))))
        action = Action.of("end_turn", state.current, data)
        RULES.apply(state, Action.of("end_turn", state.current,
                                     RULES.fill_chance(state, action, Dealer("d", 1))))
    return out


def entry_key(draw: dict) -> tuple:
    if draw["kind"] == "intrigue":
        return ("intrigue",)
    return ("display", draw["card"]) if draw["source"] == "display" else ("deck",)


def states(seeds=range(4), players=(2, 3, 4, 5)):
    for seed in seeds:
        for n in players:
            game = play(RULES, created_for(RULES, n), random.Random(seed).randrange,
                        f"brute-{seed}", max_steps=600)
            yield from game.states


def assert_same(reached: list, expected: set) -> None:
    assert len(set(reached)) == len(reached), "a move is reached twice"
    assert set(reached) == expected, (sorted(set(reached) - expected)[:5],
                                      sorted(expected - set(reached))[:5])


# -- the tests ----------------------------------------------------------------------------------
def test_every_claim_and_usurp_payment_of_random_playouts_is_offered_and_only_those():
    counted = Counter()
    for number, state in enumerate(states(range(2))):
        if state.phase != PLAY or number % 11:
            continue
        for type_, usurp in (("claim_noble", False), ("usurp_noble", True)):
            reached = reached_payments(state, type_)
            assert_same(reached, brute_payments(state, usurp))
            counted[type_] += len(reached)
    assert counted["claim_noble"] > 500 and counted["usurp_noble"] > 500, counted


def hand_built(hand: dict, intrigues=(), held_by=None, supply=None):
    """Seat 0 of 3 in the play step holding these cards; `held_by` maps portraits to the
    seat holding them."""
    state = play(RULES, created_for(RULES, 3), random.Random(1).randrange, "h",
                 max_steps=12).states[-1]
    state = replace(state, phase=PLAY, current=0, turn_no=3,
                    hands=with_item(state.hands, 0, Bag(hand)),
                    intrigues=with_item(state.intrigues, 0, Bag(intrigues)),
                    board=(None,) * len(PORTRAITS))
    for portrait, seat in (held_by or {}).items():
        index = [p[0] for p in PORTRAITS].index(portrait)
        state = replace(state, board=with_item(state.board, index, seat))
    if supply is not None:
        state = replace(state, supply=with_item(state.supply, 0, supply))
    return state


@pytest.mark.parametrize(("hand", "intrigues", "held_by"), [
    # spec E1: 2 Spain, 3 France, 3 Britain pays the Duke in Valencia with two wild groups
    ({"spain": 5, "france": 3, "britain": 3}, (), {}),
    ({"france": 8, "german_states": 4, "britain": 2, "spain": 1},
     ("britain+spain", "france+german_states", "britain+france"), {"madrid_king": 1}),
    ({"spain": 8}, ("britain+spain", "britain+spain", "france+german_states"),
     {"madrid_king": 2, "valencia_duke": 1, "seville_baron": 2}),
    ({"britain": 3}, ("britain+france",) * 4, {"london_king": 1, "dublin_baron": 2}),
    ({}, (), {}),
])
def test_every_payment_of_a_hand_built_hand_is_offered_and_only_those(hand, intrigues, held_by):
    state = hand_built(hand, intrigues, held_by)
    for type_, usurp in (("claim_noble", False), ("usurp_noble", True)):
        assert_same(reached_payments(state, type_), brute_payments(state, usurp))


def test_the_worked_example_e1_payments():
    """Spec §10 E1: (a) is offered, (b) and (c) overpay and are not; 4 Spain is."""
    state = hand_built({"spain": 5, "france": 3, "britain": 3})
    duke = {h for p, h, _ in reached_payments(state, "claim_noble") if p == "valencia_duke"}
    assert tuple(sorted(["spain"] * 2 + ["france"] * 3 + ["britain"] * 3)) in duke
    assert tuple(sorted(["spain"] * 3 + ["france"] * 2)) not in duke
    assert ("spain",) * 5 not in duke and ("spain",) * 4 in duke


def test_no_claim_is_offered_without_two_cubes_to_spend():
    state = hand_built({"spain": 8}, supply=1)
    assert cubes_to_spend(state, 0) < CUBES
    assert DIGITAL.opening(state, 0) and not list(DIGITAL.moves(state, "claim_noble", 0))
    assert "claim_noble" not in [r.name for r in DIGITAL.opening(state, 0)]


def test_a_claim_with_any_payment_takes_the_portrait_then_one_pick_per_card():
    """The issue's goal: a claim in at most portrait + cards paid + Record (the move is
    ready to record after the last card: no pick in between, no end pick needed)."""
    state = hand_built({"spain": 4, "france": 3, "britain": 2, "german_states": 1})
    for move in DIGITAL.moves(state, "claim_noble", 0):
        data = move["data"]
        picks = [Pick("portrait", data["portrait"])]
        picks += [Pick("country_cards", c) for c in sorted(
            data["country_cards"], key=COUNTRIES.index)]
        walk = DIGITAL.walk(state, "claim_noble", 0, picks)
        assert walk.move == move, (picks, walk.choice)


def test_every_hand_limit_discard_is_offered_and_only_those():
    compared = 0
    over = [hand_built({"france": 6, "spain": 5, "britain": 3}, ("britain+spain",) * 2 +
                       ("france+spain", "britain+france", "france+german_states")),
            hand_built({"german_states": 13}, ("britain+spain",) * 5)]
    playouts = [s for s in states(range(3)) if s.phase == PLAY]
    for state in over + playouts[::5]:
        reached = reached_discards(state)
        assert_same(reached, brute_discards(state))
        compared += len(reached)
    assert compared > 100


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_every_colour_assignment_is_offered_and_only_those(players):
    state = RULES.initial_state(created_for(RULES, players))
    reached = [tuple(m["data"]["colours"]) for m in DIGITAL.moves(state, "setup", "table")]
    assert_same(reached, brute_colours(players))
    for colours in reached[:10]:
        RULES.apply(state, Action.of("setup", "table", {
            "colours": list(colours), "start_player": 0,
            "display": sorted(state.deck.counts())[:1] * 3}))


def test_every_draw_is_offered_and_only_those():
    compared = 0
    for number, state in enumerate(states(range(2))):
        if state.phase != DRAW or number % 4:
            continue
        reached = []
        for move in DIGITAL.moves(state, "draw_cards", state.current):
            reached.append(tuple(entry_key(d) for d in move["data"]["draws"]))
            action = Action.of("draw_cards", state.current, move["data"])
            RULES.apply(state, Action.of("draw_cards", state.current, RULES.fill_chance(
                state, action, Dealer("d", number))))
        assert_same(reached, brute_draws(state))
        compared += len(reached)
    assert compared > 1000


# -- engine fixes found on the way (projections/choices.py) ------------------------------------
def test_a_choice_inside_a_list_of_entries_makes_its_entry():
    """The first pick of a draw names `draws.0.kind`: the list and its entry are made."""
    made = Made().picking(DIGITAL.walk(
        RULES.apply(RULES.initial_state(created_for(RULES, 2)), Action.of("setup", "table", {
            "colours": ["black", "white"], "start_player": 0,
            "display": ["france"] * 3})), "draw_cards", 0, []).choice, "country")
    assert made.data == {"draws": [{"kind": "country"}]}


def test_an_intrigue_card_tapped_at_the_table_uses_up_that_card_not_its_countries():
    """An intrigue card is one outcome holding a pair: after it, a deck draw still offers a
    German States card although the pair shows German States (it used to be subtracted)."""
    state = next(s for s in states(range(1), (3,)) if s.phase == DRAW and s.turn_no > 3)
    state = replace(state, deck=Bag({"german_states": 1}), discard=Bag({"spain": 4}))
    table = Walker(RULES, table=True)
    picks = [Pick("draws.0.kind", "intrigue"), Pick("draws.1.kind", "country"),
             Pick("draws.1.source", "deck")]
    pair = next(o.value for o in table.walk(state, "draw_cards", state.current, picks)
                .choice.options if "german_states" in o.value)
    walk = table.walk(state, "draw_cards", state.current,
                      [*picks, Pick("draws.0.card", pair)])
    assert [o.value for o in walk.choice.options] == ["german_states"]


def test_a_refill_tapped_card_by_card_after_a_run_out_makes_its_list():
    """When the pile runs out during a refill, the refill is tapped card by card
    (`refill.0`, `refill.1`): the walk makes the `refill` list for them."""
    state = next(s for s in states(range(1), (3,)) if s.phase == PLAY and s.turn_no > 3)
    state = replace(state, deck=Bag({"spain": 1}), discard=Bag({"france": 5}),
                    display=Bag({"britain": 1}),
                    hands=with_item(state.hands, state.current, Bag({"spain": 1})),
                    intrigues=with_item(state.intrigues, state.current, Bag()))
    table = Walker(RULES, table=True)
    picks = []
    walk = table.walk(state, "end_turn", state.current, picks)
    while walk.choice is not None:
        picks.append(Pick(walk.choice.id, walk.choice.options[0].value))
        walk = table.walk(state, "end_turn", state.current, picks)
    assert walk.move["data"]["refill"] == ["spain", "france"]
    RULES.apply(state, Action.of("end_turn", state.current, walk.move["data"]))
    json.dumps(walk.move)


def test_no_draw_option_is_the_start_of_another_with_these_components():
    """Ruling R21: a draw ends once its cards make one of the allowed counts. That is exact
    because a shorter count (ruling R4) never arises: more intrigue cards exist than all
    hands may keep at a draw, and more country cards than the hands hold plus 3."""
    most_players = max(EDITION["players"]["supported"])
    intrigue = sum(c["count"] for c in EDITION["intrigue_cards"]["cards"])
    assert intrigue > most_players * LIMITS["intrigue"]
    per_country = EDITION["country_cards"]["per_country"]
    for players in EDITION["players"]["supported"]:
        removed = EDITION["country_cards"]["removed_by_player_count"][str(players)]
        in_play = sum(per_country.values()) - sum(removed.values())
        assert in_play - players * LIMITS["country"] >= 3
