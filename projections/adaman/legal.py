"""Who acts in Adaman and what they may do: the table deals, then seat 0 controls cards
(spec §5) until the game ends (§7)."""

from __future__ import annotations

from collections.abc import Iterator
from itertools import combinations
from typing import Any

from ..choices import DONE, Choice, Made, Option, Step
from ..messages import M
from ..rules import Actor, CardId
from .edition import Components
from .state import State
from .words import card_name, suits_text


def to_act(state: State, components: Components) -> tuple[Actor, ...]:
    if state.status == "awaiting_setup":
        return ("table",)
    return () if state.is_over else (0,)


def legal_controls(state: State, components: Components
                   ) -> Iterator[tuple[CardId, tuple[CardId, ...]]]:
    """Every (target, spend) pair legal now (spec §12: each qualifying subset is a move)."""
    if state.status != "in_progress":
        return
    cards = components.cards
    for target in (*state.capital, *state.court):
        goal = cards[target]
        matching = [c for c in state.resources if cards[c].suits & goal.suits]
        if sum(cards[c].rank for c in matching) < goal.rank:
            continue
        for size in range(1, len(matching) + 1):
            for spend in combinations(matching, size):
                if sum(cards[c].rank for c in spend) >= goal.rank:
                    yield target, spend


def legal_actions(state: State, seat: Actor | None, components: Components
                  ) -> list[dict[str, Any]]:
    """The deal before setup; then every legal control and, while the game runs, abandon
    (a ruling: docs/rulings/adaman.md 1)."""
    if state.status == "awaiting_setup":
        return [{"type": "setup", "actor": "table", "data": {}}] if seat in (None, "table") \
            else []
    if state.is_over or seat not in (None, 0):
        return []
    controls = [{"type": "control", "actor": 0,
                 "data": {"target": target, "spend": list(spend)}}
                for target, spend in legal_controls(state, components)]
    return [*controls, {"type": "abandon", "actor": 0, "data": {}}]


def auto_action(state: State, components: Components) -> dict[str, Any] | None:
    """The setup deal, which the rules call for before anything else (spec §3)."""
    if state.status == "awaiting_setup":
        return {"type": "setup", "actor": "table", "data": {}}
    return None


# -- the choices of each action (projections/choices.py) -----------------------------------
def setup_steps(state: State, actor: Actor, made: Made, components: Components) -> Step:
    """The table deals before anything else; the cards are its only choice (chance)."""
    return DONE if state.status == "awaiting_setup" and actor == "table" else None


def abandon_steps(state: State, actor: Actor, made: Made, components: Components) -> Step:
    return DONE if state.status == "in_progress" and actor == 0 else None


def control_steps(state: State, actor: Actor, made: Made, components: Components) -> Step:
    """A card of the capital or court that some spend can pay for, then the resources
    spent one by one: every resource sharing a suit with it may be added (overpaying is
    allowed, spec §5 check 5), and the spend may end once the ranks reach the target's."""
    if state.status != "in_progress" or actor != 0:
        return None
    payable = _payable_targets(state, components)
    if not payable:
        return None
    if not made.has("target"):
        return Choice(("target",), M("Which card of the capital or court to control"),
                      tuple(_card_option(c, state, components) for c in payable))
    if not made.is_open("spend"):
        return DONE
    target = components.cards[made.get("target")]
    spent = made.picked("spend")
    matching = [c for c in state.resources if c not in spent
                and components.cards[c].suits & target.suits]
    total = sum(components.cards[c].rank for c in spent)
    done = total >= target.rank
    if not matching and done:
        return DONE
    return Choice(("spend",), M("Resources to spend on {card} (ranks {total} of {rank})",
                                card=target.name, total=total, rank=target.rank),
                  tuple(_card_option(c, state, components)
                                           for c in matching),
                  kind="subset", can_end=done, fewest=1)


def _payable_targets(state: State, components: Components) -> list[CardId]:
    """The cards of the capital and court whose suit-sharing resources reach their rank."""
    cards = components.cards
    out = []
    for target in (*state.capital, *state.court):
        goal = cards[target]
        matching = [c for c in state.resources if cards[c].suits & goal.suits]
        if sum(cards[c].rank for c in matching) >= goal.rank:
            out.append(target)
    return out


def _card_option(card: CardId, state: State, components: Components) -> Option:
    """A card by its printed name, with the rank and suits a player looks for, under the
    row it lies in."""
    row = M("Capital") if card in state.capital else M("Court") if card in state.court \
        else M("Resources")
    return Option(card, card_name(card, components),
                  detail=M("rank {rank} · {suits}", rank=components.cards[card].rank,
                           suits=suits_text(card, components)), group=row)
