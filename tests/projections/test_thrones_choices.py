"""Thrones' choices against brute forces written from the spec (issue #29), each comparing
the set of moves the choices reach (`Walker.moves`) with every move the spec allows,
counted, and checking the reducer accepts each one.

- §2.3, §6.1: every House pairing of the starter decks (the four Houses with a deck, one
  each when no custom deck is given): 12 for two players, 24 for three and for four; any
  of them in at most four taps.
- §5.3, §6.3: every set of setup cards of a hand (characters and locations, at most 5
  gold with the out-of-house surcharge, at most one limited card, no unique name twice,
  House only for its House, a Chambers or Tent location also onto the House card).
- §8.2, §8.5: every declaration of a challenge (type, defender, attackers) and every
  declaration of defenders, on two-player states of random playouts without attachments
  or effects, nor a constant ability that gives an icon or keyword or restricts defenders
  (so the current icons are the printed ones).

The brute forces read the edition's card data as printed (projections/data/thrones.json),
not the rules' components or checks.
"""

from __future__ import annotations

import json
import random
from itertools import combinations, permutations
from pathlib import Path
from typing import Any

from projections import get_rules
from projections.choices import Made, Pick, Walker
from projections.playout import created_for, play
from projections.rules import Action, Dealer
from tests.projections.thrones_helpers import Table

#: §2.3: the Houses with a starter deck in the core set (Greyjoy and Martell have none)
STARTER_HOUSES = ("Stark", "Lannister", "Baratheon", "Targaryen")
SETUP_GOLD, SURCHARGE, MAX_LIMITED = 5, 2, 1  # §5.3, §3
TYPES = ("military", "intrigue", "power")
EDITION = json.loads((Path(__file__).resolve().parents[2] / "projections" / "data"
                      / "thrones.json").read_text("utf-8"))
PRINTED = {card["number"]: card for card in EDITION["cards"]}


def printed(instance: str) -> dict[str, Any]:
    """The printed card of an instance id `p<seat>-NNN[-k]` (§3)."""
    return PRINTED[int(instance.split("-")[1])]


def _accepted(rules, state, move: dict[str, Any], number: int) -> None:
    action = Action.of(move["type"], move["actor"], move["data"])
    if rules.chance_fields.get(move["type"]):
        action = Action.of(move["type"], move["actor"],
                           rules.fill_chance(state, action, Dealer("brute", number)))
    rules.apply(state, action)  # raises IllegalAction if the reducer refuses it


# -- House pairings ----------------------------------------------------------------------
def test_every_house_pairing_is_reached_once_and_in_at_most_four_taps():
    rules = get_rules("thrones")
    walker = Walker(rules, table=False)
    counts = {}
    for players in (2, 3, 4):
        state = rules.initial_state(created_for(rules, players))
        expected = set(permutations(STARTER_HOUSES, players))
        reached = [tuple(p["house"] for p in sorted(m["data"]["players"],
                                                     key=lambda p: p["seat"]))
                   for m in walker.moves(state, "start_game", "table")]
        assert len(reached) == len(set(reached)), "a pairing is reached twice"
        assert set(reached) == expected
        counts[players] = len(reached)
        for number, houses in enumerate(expected):
            picks = [Pick("players", {"seat": s, "name": state.names[s], "house": h})
                     for s, h in enumerate(houses)]
            walk = walker.walk(state, "start_game", "table", picks)
            assert walk.complete and len(picks) <= 4
            _accepted(rules, state, walk.move, number)
    assert counts == {2: 12, 3: 24, 4: 24}


def test_a_house_is_offered_by_its_house_card_name():
    rules = get_rules("thrones")
    state = rules.initial_state(created_for(rules, 2))
    walk = Walker(rules, table=False).walk(state, "start_game", "table", [])
    labels = [o.label for o in walk.choice.options]
    assert labels == [PRINTED[h["house_card"]]["name"] for h in EDITION["houses"]
                      if h["id"] in STARTER_HOUSES]
    assert walk.choice.prompt == "House of Player 1"


# -- setup cards -------------------------------------------------------------------------
def brute_force_setups(hand: list[str], house: str) -> set[frozenset[tuple[str, Any]]]:
    """Every legal set of setup entries (card, attach_to) of `hand` for `house` (§5.3)."""
    out = set()
    for size in range(len(hand) + 1):
        for cards in combinations(sorted(hand), size):
            if not _setup_legal(cards, house):
                continue
            variants: list[list[tuple[str, Any]]] = [[]]
            for card in cards:
                ways = [None, "house"] if printed(card).get("may_attach_to_own_house_card") \
                    else [None]
                variants = [[*v, (card, w)] for v in variants for w in ways]
            out.update(frozenset(v) for v in variants)
    return out


def _setup_legal(cards: tuple[str, ...], house: str) -> bool:
    data = [printed(c) for c in cards]
    if any(d["type"] not in ("character", "location") for d in data):
        return False
    if any(d.get("house_only") not in (None, house) for d in data):
        return False
    gold = sum(d["cost"] + (SURCHARGE if d["houses"] and house not in d["houses"] else 0)
               for d in data)
    limited = sum("limited" in d["keywords"] for d in data)
    uniques = [d["name"] for d in data if d["unique"]]
    return gold <= SETUP_GOLD and limited <= MAX_LIMITED and len(uniques) == len(set(uniques))


def _setup_states():
    """Setup turns of random playouts (varied hands), and crafted hands: a Chambers
    location, two copies of one unique card, out-of-house cards, limited locations."""
    rules = get_rules("thrones")
    for seed in range(12):
        game = play(rules, created_for(rules, 2 + seed % 3), random.Random(seed).randrange,
                    f"setup-{seed}", max_steps=12)
        yield from (s for s in game.states if s.phase == "setup")
    stark = list(EDITION["starter_decks"]["Stark"]["draw_deck"])
    custom = {"house_card": 209, "plots": list(range(195, 202)),
              "draw_deck": [5, 5, 28, 135, 136, 62, 100, 11, *stark]}
    table = Table(2, decks={"0": custom},
                  hands={0: ["p0-005", "p0-005-2", "p0-028", "p0-135", "p0-136", "p0-062",
                             "p0-100"]})
    yield table.state


def test_every_setup_card_set_is_reached_once_and_accepted():
    rules = get_rules("thrones")
    walker = Walker(rules, table=False)
    compared = crafted = 0
    for number, state in enumerate(_setup_states()):
        seat = state.turn
        hand = sorted(state.players[seat].hand)
        reached = [frozenset((e["card"], e.get("attach_to")) for e in m["data"]["cards"])
                   for m in walker.moves(state, "setup_cards", seat)]
        assert len(reached) == len(set(reached)), "a setup is reached twice"
        assert set(reached) == brute_force_setups(hand, state.players[seat].house), hand
        for move in walker.moves(state, "setup_cards", seat):
            _accepted(rules, state, move, number)
        compared += len(reached)
        crafted += "p0-005-2" in hand
    assert crafted == 1 and compared > 500


# -- challenges ----------------------------------------------------------------------------
def _challenge_states():
    """Two-player states of random playouts at a declaration where no attachment in play
    grants an icon (the playouts record no effects), so printed icons are the current
    ones."""
    rules = get_rules("thrones")
    for seed in range(10):
        game = play(rules, created_for(rules, 2), random.Random(seed).randrange,
                    f"challenge-{seed}", max_steps=300)
        for state in game.states:
            grants = [g for c in state.cards if c.host is not None
                      for g in printed(c.id).get("grants") or () if g.get("icons")]
            if state.phase == "challenges" and not grants and not _constants_change(state):
                yield state


#: the ops of a constant ability that change what a character may do in a challenge: an
#: icon or keyword gained, or a restriction on defenders (docs/games/thrones-abilities.md)
def _changes_challenges(op: dict[str, Any]) -> bool:
    return op.get("op") == "cannot_defend" or (
        op.get("op") == "continuous" and bool(op.get("icons") or op.get("keywords")))


def _constants_change(state) -> bool:
    """Whether a card in play or a revealed plot carries a constant that may change the
    current icons, keywords or eligible defenders from the printed ones (the brute forces
    read the printed card only)."""
    carriers = [c.id for c in state.cards] + [p.revealed_plot for p in state.players
                                              if p.revealed_plot is not None]
    return any(_changes_challenges(op) for card in carriers
               for ability in printed(card).get("abilities") or ()
               if ability.get("kind") == "constant" for op in ability.get("ops") or ())


def brute_force_declarations(state) -> set[tuple[str, int, frozenset[str], frozenset[str]]]:
    """§8.1, §8.2 in a joust: each type once a round, against the opponent, any nonempty set
    of the actor's standing characters with the icon; any of them with a kneel exemption
    for the type may stay standing."""
    seat = state.turn
    out = set()
    for i, kind in enumerate(TYPES):
        if state.players[seat].used[i] >= 1:
            continue
        # §9 forbid_challenge (a plot the rules resolved: ruling 32): no such challenge
        # between the two this round
        if any(k == kind and {a, b} == {seat, 1 - seat} for a, b, k in state.forbids):
            continue
        ready = [c.id for c in state.cards if c.controller == seat and not c.knelt
                 and printed(c.id)["type"] == "character" and kind in printed(c.id)["icons"]
                 and not printed(c.id).get("cannot_attack")]
        for size in range(1, len(ready) + 1):
            for attackers in combinations(ready, size):
                exempt = [a for a in attackers if kind in
                          (printed(a).get("kneel_exempt") or {}).get("attack", ())]
                for k in range(len(exempt) + 1):
                    for standing in combinations(exempt, k):
                        out.add((kind, 1 - seat, frozenset(attackers), frozenset(standing)))
    return out


def test_every_challenge_declaration_is_reached_once_and_accepted():
    rules = get_rules("thrones")
    walker = Walker(rules, table=False)
    compared = 0
    for number, state in enumerate(_challenge_states()):
        waiting = state.window is not None and state.window.waiting  # ruling 35: answer first
        if state.challenge is not None or state.pending_winner or waiting:
            continue
        reached = [(m["data"]["type"], m["data"]["defender"],
                    frozenset(m["data"]["attackers"]),
                    frozenset(m["data"].get("not_kneeling") or ()))
                   for m in walker.moves(state, "declare_challenge", state.turn)]
        assert len(reached) == len(set(reached)), "a declaration is reached twice"
        assert set(reached) == brute_force_declarations(state)
        for move in walker.moves(state, "declare_challenge", state.turn):
            _accepted(rules, state, move, number)
        compared += len(reached)
    assert compared > 100


def brute_force_defences(state) -> set[tuple[frozenset[str], frozenset[str]]]:
    """§8.5 with compulsory defence (the seed): any set of the defender's standing
    characters with the icon, not bypassed, nonempty when one exists."""
    ch = state.challenge
    bypassed = {t for _, t in ch.stealth}
    eligible = [c.id for c in state.cards if c.controller == ch.defender and not c.knelt
                and printed(c.id)["type"] == "character" and ch.type in printed(c.id)["icons"]
                and c.id not in bypassed]
    out = set()
    for size in range(1 if eligible else 0, len(eligible) + 1):
        for defenders in combinations(eligible, size):
            exempt = [d for d in defenders if ch.type in
                      (printed(d).get("kneel_exempt") or {}).get("defend", ())]
            for k in range(len(exempt) + 1):
                for standing in combinations(exempt, k):
                    out.add((frozenset(defenders), frozenset(standing)))
    return out


def test_every_defence_is_reached_once_and_accepted():
    rules = get_rules("thrones")
    walker = Walker(rules, table=False)
    compared = 0
    for number, state in enumerate(_challenge_states()):
        ch = state.challenge
        if ch is None or ch.step != "attackers_declared" or state.pending_winner:
            continue
        reached = [(frozenset(m["data"]["defenders"]),
                    frozenset(m["data"].get("not_kneeling") or ()))
                   for m in walker.moves(state, "declare_defenders", ch.defender)]
        assert len(reached) == len(set(reached)), "a defence is reached twice"
        assert set(reached) == brute_force_defences(state)
        for move in walker.moves(state, "declare_defenders", ch.defender):
            _accepted(rules, state, move, number)
        compared += len(reached)
    assert compared > 30


def test_an_effect_offers_no_choices_until_abilities_are_declared():
    """Issue #30 declares the cards' abilities; until then an effect is sent whole."""
    rules = get_rules("thrones")
    walker = Walker(rules, table=False)
    state = Table(2).setup().state
    assert rules.action_type("effect").steps(state, 0, Made(), rules.components()) is None
    assert "effect" not in [r.name for r in walker.opening(state, 0)]


def _before(fixture: str, seq: int):
    """The state of a sample game just before its event `seq`."""
    from projections.replay import Folder, mode_of
    from tests.conftest import FIXTURES, load_fixture

    envelopes, _ = load_fixture(FIXTURES / "thrones" / fixture)
    folder = Folder(get_rules("thrones"), mode_of(envelopes))
    cursor = None
    for env in envelopes:
        if env["seq"] == seq:
            return cursor.state, env
        cursor = folder.feed(env)
    raise AssertionError(seq)


def test_a_chambers_location_asks_where_it_goes_and_both_places_are_legal():
    """Ruling 25 (§6.10): Lord Eddard's Chambers may go onto the House card; the choices
    ask, and the sample game's plain marshal is one of the two answers."""
    rules = get_rules("thrones")
    state, env = _before("2_players_worked_example.jsonl", 77)
    assert env["data"] == {"card": "p0-028"}
    walker = Walker(rules, table=True)
    walk = walker.walk(state, "marshal_card", env["actor"], [Pick("card", "p0-028")])
    assert walk.choice.id == "attach_to"
    assert [o.label for o in walk.choice.options] == ["In front of you", "Your House card"]
    moves = list(walker.moves(state, "marshal_card", env["actor"]))
    chambers = [m["data"] for m in moves if m["data"]["card"] == "p0-028"]
    assert chambers == [{"card": "p0-028", "attach_to": None},
                        {"card": "p0-028", "attach_to": "house"}]
    for number, move in enumerate(moves):
        _accepted(rules, state, move, number)


def test_stealth_is_offered_only_with_a_stealth_attacker_and_whole():
    """Ruling 25 (§8.3): the bypass is one choice of the whole assignment, the empty one
    first; without a stealth attacker nothing is offered."""
    rules = get_rules("thrones")
    walker = Walker(rules, table=False)
    offered = silent = 0
    for state in _challenge_states():
        ch = state.challenge
        if ch is None or ch.step != "attackers_declared" or state.pending_winner or \
                any(c.host in ch.attackers for c in state.cards):  # a granted keyword
            continue
        sneaks = [a for a in ch.attackers if "stealth" in printed(a)["keywords"]]
        names = [r.name for r in walker.opening(state, ch.attacker)]
        assert ("assign_stealth" in names) == bool(sneaks)
        if sneaks:
            moves = [m["data"]["bypass"] for m in walker.moves(state, "assign_stealth",
                                                                ch.attacker)]
            assert moves[0] == {} and len(moves) == len({json.dumps(m) for m in moves})
            offered += 1
        else:
            silent += 1
    assert offered and silent


def test_the_sentence_of_a_move_before_its_chance_is_dealt_reads_right():
    """A digital preview has no chance fields yet: its sentence still says what happens
    (no "recorded the action", no "nobody drew", no military wording for an intrigue
    claim)."""
    rules = get_rules("thrones")
    walker = Walker(rules, table=False)
    said: dict[str, str] = {}
    for seed in range(3):
        game = play(rules, created_for(rules, 3), random.Random(seed).randrange,
                    f"preview-{seed}", max_steps=250)
        for state in game.states:
            for actor in rules.to_act(state):
                for record in walker.opening(state, actor):
                    _, move = walker.random_move(state, record.name, actor,
                                                 random.Random(seed).randrange)
                    text = rules.describe(Action.of(move["type"], actor, move["data"]),
                                          list(state.names))
                    assert "recorded the action" not in text and "nobody drew" not in text
                    assert "_" not in text and "None" not in text, text
                    if record.name == "apply_claim" and state.challenge.type == "intrigue":
                        assert text.endswith("discarded cards at random for the intrigue "
                                             "claim"), text
                    said.setdefault(record.name, text)
    assert {"start_game", "setup_draw", "draw_phase", "apply_claim"} <= set(said)
