"""Adaman's choices against a brute force written from the spec (§5: a control pays for a
card of the capital or court with resources that each share a suit with it, whose ranks add
up to at least its rank): on states of random playouts, the moves the choices reach are
exactly every such (target, spend) pair, each once."""

from __future__ import annotations

import random
from itertools import combinations

from projections import get_rules
from projections.choices import Walker
from projections.playout import created_for, play


def brute_force_controls(state, cards) -> set[tuple[str, frozenset[str]]]:
    out = set()
    for target in (*state.capital, *state.court):
        goal = cards[target]
        for size in range(1, len(state.resources) + 1):
            for spend in combinations(state.resources, size):
                shares = all(cards[c].suits & goal.suits for c in spend)
                if shares and sum(cards[c].rank for c in spend) >= goal.rank:
                    out.add((target, frozenset(spend)))
    return out


def test_the_controls_the_choices_reach_are_every_payment_the_spec_allows():
    rules = get_rules("adaman")
    walker = Walker(rules, table=False)
    compared = 0
    for seed in range(6):
        game = play(rules, created_for(rules, 1), random.Random(seed).randrange, f"b{seed}")
        for state in game.states[1:]:
            if state.status != "in_progress":
                continue
            reached = [(m["data"]["target"], m["data"]["spend"])
                       for m in walker.moves(state, "control", 0)]
            as_sets = {(t, frozenset(s)) for t, s in reached}
            assert len(as_sets) == len(reached), "a payment is reached twice"
            assert as_sets == brute_force_controls(state, rules.cards)
            compared += len(reached)
    assert compared > 50
