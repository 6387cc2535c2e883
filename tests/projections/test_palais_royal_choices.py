"""Palais Royal's choices against brute forces written from the spec, never from the
choices code (issue #29, "Exact on small states"): on each state, the set of moves the
choices reach (`Walker.moves`) equals, counted, the set the spec allows, and the reducer
accepts every one of them.

- §5.2 every initial placement: any court tiles, positive counts adding up to 5;
- §5.5 every servant move sequence within a small allowance: each step from a tile holding
  one of the mover's servants at that moment to an orthogonally adjacent tile (diagonal
  too with a Diagonal move noble), from ≠ to;
- §5.4 every list of Gate sources: the supply while it holds any, then other court tiles;
- §5.7 every recruit: the noble on its space, a servant on the Office, the seals, the gold
  price less one per empty statue-aware neighbour;
- §5.9 every keep: a sub-multiset of the cards drawn, at most one per Back Door servant;
- §5.6 every set of seal-tile placements, against everything the reducer accepts among all
  combinations of sources (a superset written without the rules).
"""

from __future__ import annotations

import json
import math
import random
from collections import Counter
from dataclasses import replace
from itertools import combinations, product

import pytest

from projections import get_rules
from projections.choices import Walker
from projections.playout import created_for, play
from projections.rules import Action, Bag, IllegalAction

RULES = get_rules("palais_royal")
WALKER = Walker(RULES, table=False)
TILES = list(RULES.tile_ids)
SUPPLY = "supply"


def key(data) -> str:
    """A move's data as one comparable value (JSON with sorted keys)."""
    return json.dumps(data, sort_keys=True)


def reached(state, type_, actor) -> list[str]:
    return [key(m["data"]) for m in WALKER.moves(state, type_, actor)]


def accepted(state, type_, actor, data) -> bool:
    try:
        RULES.apply(state, Action.of(type_, actor, data))
    except IllegalAction:
        return False
    return True


def assert_exact(state, type_, actor, expected: list[dict]) -> int:
    """The choices reach exactly `expected`, each once, and the reducer accepts each."""
    got = reached(state, type_, actor)
    assert len(got) == len(set(got)), f"{type_}: a move is reached twice"
    want = {key(d) for d in expected}
    assert len(want) == len(expected), "the brute force lists a move twice"
    missing, extra = want - set(got), set(got) - want
    assert not missing and not extra, (f"{type_}: {len(missing)} missing, e.g. "
                                       f"{sorted(missing)[:3]}; {len(extra)} extra, e.g. "
                                       f"{sorted(extra)[:3]}")
    for data in expected:
        assert accepted(state, type_, actor, data), data
    return len(got)


def games(players_seeds, max_steps=400):
    for players, seed in players_seeds:
        yield play(RULES, created_for(RULES, players), random.Random(seed).randrange,
                   f"exact-{seed}", max_steps=max_steps)


def with_player(state, seat, **changes):
    players = list(state.players)
    players[seat] = replace(players[seat], **changes)
    return replace(state, players=tuple(players))


def court_of(**counts: int) -> tuple[int, ...]:
    return tuple(counts.get(t, 0) for t in TILES)


def grid(layout) -> dict[str, tuple[int, int]]:
    """Spec §2.1: row-major positions on the 3x3 grid."""
    return {t: divmod(i, 3) for i, t in enumerate(layout)}


def adjacent(a, b, diagonal: bool) -> bool:
    """Spec §2.1: orthogonal = differ by 1 in exactly one coordinate; diagonal = by 1 in
    both."""
    dr, dc = abs(a[0] - b[0]), abs(a[1] - b[1])
    return (dr, dc) in ((0, 1), (1, 0)) or (diagonal and (dr, dc) == (1, 1))


# -- §5.2 every initial placement ------------------------------------------------------------
def every_initial_placement() -> list[dict]:
    """Spec §5.2: keys court tile ids, values positive integers summing to exactly 5."""
    out = []
    for counts in product(range(6), repeat=len(TILES)):
        if sum(counts) == 5:
            out.append({"placements": {t: k for t, k in zip(TILES, counts, strict=True)
                                       if k}})
    return out


def test_every_initial_placement_is_reached_once_and_accepted():
    placements = every_initial_placement()
    assert len(placements) == math.comb(len(TILES) + 5 - 1, 5) == 1287
    compared = 0
    for game in games([(2, 0), (3, 1), (4, 2)], max_steps=8):
        for state in game.states:
            if state.phase == "initial_placement":
                seat = (state.start_player + state.placements_done) % state.player_count
                compared += assert_exact(state, "initial_placement", seat, placements)
                for other in range(state.player_count):  # nobody else may place now
                    if other != seat:
                        assert not list(WALKER.moves(state, "initial_placement", other))
    assert compared == 1287 * (2 + 3 + 4)


# -- §5.5 every move sequence within a small allowance -------------------------------------
def every_move_sequence(state, seat, allowance: int, diagonal: bool) -> list[dict]:
    positions = grid(state.court_layout)
    out = []

    def extend(court, steps):
        out.append({"steps": list(steps)})
        if len(steps) == allowance:
            return
        for src, dst in product(TILES, TILES):
            if src != dst and court[TILES.index(src)] >= 1 and \
                    adjacent(positions[src], positions[dst], diagonal):
                after = list(court)
                after[TILES.index(src)] -= 1
                after[TILES.index(dst)] += 1
                extend(after, [*steps, {"from": src, "to": dst}])

    extend(list(state.players[seat].court), [])
    return out


def small_move_states():
    """States at step 1 or 2 where the mover has k servants on the Stairway and another
    seat more, owns no Move +2 noble and played no card: the allowance is k (spec §5.5);
    with a Diagonal move noble in every other case."""
    diagonal_noble = next(n for n, v in RULES.nobles.items()
                          if v.privilege == "diagonal_move")
    number = 0
    for game in games([(2, 3), (3, 4), (4, 5)]):
        for state in game.states[::7]:
            if state.phase != "play" or state.turn.open_step > 2 or state.turn.move_bonus \
                    or state.turn.cardinal_active:
                continue
            seat = state.active
            number += 1
            k = 1 + number % 2
            player = state.players[seat]
            stair = TILES.index("stairway")
            court = list(player.court)
            court[stair] = k
            nobles = tuple(n for n in player.nobles
                           if RULES.nobles[n].privilege not in ("move_plus_2",
                                                                 "diagonal_move"))
            diagonal = number % 3 == 0
            state = with_player(state, seat, court=tuple(court),
                                nobles=nobles + ((diagonal_noble,) if diagonal else ()))
            other = (seat + 1) % state.player_count
            other_court = list(state.players[other].court)
            other_court[stair] = k + 1
            state = with_player(state, other, court=tuple(other_court))
            yield state, seat, k, diagonal


def test_every_servant_move_sequence_of_a_small_allowance_is_reached_once_and_accepted():
    compared = diagonal_seen = 0
    for state, seat, k, diagonal in small_move_states():
        assert RULES.move_allowance(state, seat) == k  # the state is as the spec reads it
        expected = every_move_sequence(state, seat, k, diagonal)
        compared += assert_exact(state, "move_servants", seat, expected)
        diagonal_seen += diagonal
    assert compared > 500 and diagonal_seen


def test_a_move_past_the_allowance_or_to_a_far_tile_is_in_no_choice():
    """The reducer refuses every sequence of length <= 2 over all 72 tile pairs that the
    spec's brute force does not list, for an allowance of 1: the choices offer none."""
    state, seat = next((s, a) for s, a, k, d in small_move_states() if k == 1 and not d)
    pairs = [{"from": a, "to": b} for a, b in product(TILES, TILES) if a != b]
    everything = [[]] + [[p] for p in pairs] + [[p, q] for p in pairs for q in pairs]
    legal = [{"steps": s} for s in everything if accepted(state, "move_servants", seat,
                                                          {"steps": s})]
    assert {key(d) for d in legal} == {key(d) for d in every_move_sequence(state, seat, 1,
                                                                            False)}
    assert sorted(reached(state, "move_servants", seat)) == sorted(key(d) for d in legal)


# -- §5.4 every list of Gate sources ---------------------------------------------------------
def every_gate_list(state, seat, allowance: int) -> list[dict]:
    """Spec §4.2, §5.4: each servant from the supply while it holds any, else from another
    court tile (not the Gate) holding one of the player's servants at that moment."""
    out = []

    def extend(supply, court, sources):
        out.append({"sources": list(sources)})
        if len(sources) == allowance:
            return
        if supply:
            extend(supply - 1, court, [*sources, SUPPLY])
            return
        for tile in TILES:
            if tile != "gate" and court[TILES.index(tile)] >= 1:
                after = list(court)
                after[TILES.index(tile)] -= 1
                extend(supply, after, [*sources, tile])

    player = state.players[seat]
    extend(player.supply, list(player.court), [])
    return out


def test_every_list_of_gate_sources_is_reached_once_and_accepted():
    """Worked example E9's shape: a small supply, 2 on the Parade Ground, no advantage
    (another seat has 3 there), no Gate +2 noble: the allowance is 2."""
    compared = 0
    for game in games([(2, 6), (3, 7)]):
        for state in game.states[::9]:
            if state.phase != "play" or state.turn.open_step != 1 or state.turn.gate_bonus \
                    or state.turn.gate_unlimited or state.turn.cardinal_active:
                continue
            seat = state.active
            player = state.players[seat]
            nobles = tuple(n for n in player.nobles
                           if RULES.nobles[n].privilege != "gate_plus_2")
            court = list(player.court)
            court[TILES.index("parade_ground")] = 2
            state = with_player(state, seat, court=tuple(court), nobles=nobles,
                                supply=compared % 3)
            other = (seat + 1) % state.player_count
            other_court = list(state.players[other].court)
            other_court[TILES.index("parade_ground")] = 3
            state = with_player(state, other, court=tuple(other_court))
            assert RULES.gate_allowance(state, seat) == 2
            compared += assert_exact(state, "place_at_gate", seat,
                                     every_gate_list(state, seat, 2))
    assert compared > 100


# -- §5.7 every recruit ----------------------------------------------------------------------
def spec_price(state, space, noble) -> int:
    """Spec §5.7: the printed gold less one per statue-aware neighbour (§2.3's table, the
    edition's adjacency) holding no noble, never below 0."""
    garden = dict(zip(RULES.space_ids, state.garden, strict=True))
    neighbours = RULES.edition["garden"]["adjacency"][space]
    return max(0, RULES.nobles[noble].gold - sum(1 for s in neighbours if garden[s] is None))


def every_recruit(state, seat) -> list[dict]:
    """Spec §5.7 at step 4 (no bonus seals in these states): every noble on its space that
    the player's Office, seal tiles and gold can pay for."""
    player = state.players[seat]
    on = dict(zip(TILES, player.court, strict=True))
    out = []
    for space, noble in zip(RULES.space_ids, state.garden, strict=True):
        if noble is None:
            continue
        n = RULES.nobles[noble]
        if on["office"] >= 1 and on["pompadour"] >= n.purple and \
                on["kings_chamber"] >= n.blue and player.gold >= spec_price(state, space,
                                                                            noble):
            out.append({"noble": noble, "space": space})
    return out


def test_every_recruit_is_reached_once_and_accepted():
    compared = 0
    for game in games([(2, 8), (3, 9), (4, 10)]):
        for state in game.states[::5]:
            if state.phase != "play" or state.turn.open_step != 4 or state.turn.pending \
                    or state.turn.bonus_blue or state.turn.bonus_purple:
                continue
            seat = state.active
            gold = (compared * 7) % 9  # vary the purse so some prices bite
            state = with_player(state, seat, gold=gold)
            expected = every_recruit(state, seat)
            got = reached(state, "recruit_noble", seat)
            assert sorted(got) == sorted(key(d) for d in expected)
            for data in expected:
                assert accepted(state, "recruit_noble", seat, data)
            compared += len(got)
    assert compared > 30


# -- §5.9 every keep -------------------------------------------------------------------------
def test_every_keep_of_drawn_cards_is_reached_once_and_accepted():
    """Every sub-multiset of the drawn cards of size <= the Back Door servants, once."""
    cards = sorted(RULES.cards)
    base = next(s for g in games([(2, 11)]) for s in g.states
                if s.phase == "play" and s.turn.open_step == 1)
    seat = base.active
    compared = 0
    for door, pending in ((0, ("cardinal",)), (1, ("cardinal", "cardinal", "mint_4_gold")),
                          (2, ("cardinal", "cardinal", "mint_4_gold", "seals_plus_2")),
                          (5, tuple(cards[:3]) * 2)):
        court = list(base.players[seat].court)
        court[TILES.index("back_door")] = door
        state = with_player(base, seat, court=tuple(court))
        state = replace(state, turn=replace(state.turn, open_step=5, pending=pending))
        subs = {tuple(sorted(c)) for size in range(min(door, len(pending)) + 1)
                for c in combinations(pending, size)}
        got = [json.loads(k)["kept"] for k in reached(state, "keep_privilege_cards", seat)]
        assert len(got) == len(subs)
        assert {tuple(sorted(k)) for k in got} == subs
        for kept in got:
            assert accepted(state, "keep_privilege_cards", seat, {"kept": kept})
        compared += len(got)
    # sizes 0..5 of {a, a, b, b, c, c}: the coefficients of (1 + x + x²)³ but the last
    assert compared == 1 + (1 + 2) + (1 + 3 + 4) + (1 + 3 + 6 + 7 + 6 + 3)


# -- §5.6 every set of seal-tile placements --------------------------------------------------
def test_every_seal_tile_placement_the_reducer_accepts_is_reached_once():
    """All combinations of sources for the two extras and up to one Seal +1 servant
    (None, the supply or any tile; either seal tile), filtered by the reducer, against the
    choices; with the supply empty so tiles are sources too."""
    seal_noble = next(n for n, v in RULES.nobles.items() if v.privilege == "seal_plus_1")
    sources = [None, SUPPLY, *TILES]
    compared = extras = 0
    for game in games([(2, 12), (3, 13)]):
        for state in game.states[::11]:
            if state.phase != "play" or state.turn.open_step > 3:
                continue
            seat = state.active
            player = state.players[seat]
            nobles = tuple(n for n in player.nobles
                           if RULES.nobles[n].privilege != "seal_plus_1")
            state = with_player(state, seat, supply=compared % 2,
                                nobles=(*nobles, seal_noble))  # exactly one Seal +1
            bonus_lists = [[]] + [[{"tile": t, "source": s}] for t in ("kings_chamber",
                                                                       "pompadour")
                                  for s in sources if s is not None]
            legal = [key(d) for d in (
                {"kings_chamber_extra": k, "pompadour_extra": p, "seal_bonus": b}
                for k in sources for p in sources for b in bonus_lists)
                if accepted(state, "court_placements", seat, d)]
            got = reached(state, "court_placements", seat)
            assert len(got) == len(set(got))
            assert Counter(got) == Counter(legal)
            compared += len(got)
            extras += sum(1 for k in got if '"kings_chamber_extra": null' not in k
                          or '"pompadour_extra": null' not in k)
            if compared > 400:
                break
    assert compared > 100 and extras  # some states have a seal-tile advantage


@pytest.mark.parametrize("seat_bag", [("noble_4_points", 1), ("seals_plus_2", 2)])
def test_a_card_and_its_seal_split_are_reached_exactly_as_the_reducer_accepts(seat_bag):
    """Spec §5.3: each card held whose window is open and cost is paid; a bonus-seal card
    with each split blue + purple = 2."""
    card, held = seat_bag
    base = next(s for g in games([(2, 14)]) for s in g.states
                if s.phase == "play" and s.turn.open_step == 1)
    seat = base.active
    for gold in (0, 2, 6):
        state = with_player(base, seat, gold=gold, hand=Bag({card: held}))
        candidates = [{"card": card}] + [{"card": card, "seals": {"blue": b, "purple": p}}
                                         for b in range(3) for p in range(3)]
        legal = sorted(key(d) for d in candidates
                       if accepted(state, "play_privilege_card", seat, d))
        assert sorted(reached(state, "play_privilege_card", seat)) == legal


# -- rulings #24: the table's setup ----------------------------------------------------------
def test_a_setup_tapped_at_the_table_carries_the_six_nobles_left_and_is_accepted():
    """46 taps (9 court positions, 36 garden spaces, the start player), no tap for the
    set-aside nobles: the move names the six not placed, and the reducer accepts it."""
    walker = Walker(RULES, table=True)
    state = RULES.initial_state(created_for(RULES, 3, mode="table"))
    picks, move = walker.random_move(state, "setup", "table", random.Random(3).randrange)
    assert len(picks) == 9 + 36 + 1
    data = move["data"]
    placed = set(data["garden"].values())
    assert len(placed) == 36 and data["set_aside"] == sorted(set(RULES.nobles) - placed)
    assert sorted(data["court_layout"]) == sorted(TILES)
    assert accepted(state, "setup", "table", data)
    assert "set_aside" not in WALKER.walk(state, "setup", "table", []).move["data"]


# -- §5.8 a draw tapped across the reshuffle -------------------------------------------------
def test_a_draw_across_the_reshuffle_is_tapped_pile_first_and_every_order_is_accepted():
    """Spec §5.8 / E5: the pile holds a Mint card and a Cardinal, the discard pile 3
    Cardinals, 4 Seals +2 and 3 Noble cards: a 5-card draw names the two pile cards first
    (2 orders), then any 3 of the discards in order (3³ sequences, each type has 3)."""
    base = next(s for g in games([(2, 5)], max_steps=60) for s in g.states
                if s.phase == "play" and s.turn.open_step <= 4 and not s.turn.pending)
    seat = base.active
    court = list(base.players[seat].court)
    court[TILES.index("back_door")] = 5
    state = with_player(base, seat, court=tuple(court), nobles=())
    state = replace(state, deck=Bag({"mint_4_gold": 1, "cardinal": 1}),
                    discard=Bag({"cardinal": 3, "seals_plus_2": 4, "noble_2_points": 3}))
    table = Walker(RULES, table=True)
    fives = [m["data"]["cards"] for m in table.moves(state, "draw_privilege_cards", seat)
             if m["data"]["count"] == 5]
    discards = ("cardinal", "seals_plus_2", "noble_2_points")
    expected = {(*first, *rest) for first in (("mint_4_gold", "cardinal"),
                                              ("cardinal", "mint_4_gold"))
                for rest in product(discards, repeat=3)}
    assert len(fives) == len(expected) == 54 and set(map(tuple, fives)) == expected
    for cards in fives:
        assert accepted(state, "draw_privilege_cards", seat, {"count": 5, "cards": cards})
