"""Issue #30, "Done when": all 214 cards declared, each with its test. The card engineers
declared the cards deck by deck; this test lists any card that lacks `abilities` or a test
naming it."""

from __future__ import annotations

import re
from pathlib import Path

from tests.projections.thrones_cards.harness import ED

HERE = Path(__file__).parent


def named_in_tests() -> set[str]:
    """Every card id ("core_024") a card test names."""
    found: set[str] = set()
    for path in HERE.glob("test_*.py"):
        if path.name == "test_coverage.py":
            continue
        found.update(re.findall(r"core_\d{3}", path.read_text("utf-8")))
    return found


def test_every_declared_card_is_well_formed() -> None:
    """A card with no ability beyond its keywords says so (`plain`), and a card that says
    it is plain declares no ability."""
    for card in ED.cards:
        if card.declared and not card.abilities:
            assert card.plain, f"{card.name} ({card.id}): empty abilities without plain"
        if card.plain:
            assert not card.abilities, f"{card.name} ({card.id}) is plain with abilities"


def test_all_214_cards_are_declared_and_tested() -> None:
    tested = named_in_tests()
    undeclared = [c.id for c in ED.cards if not c.declared]
    untested = [c.id for c in ED.cards if c.id not in tested]
    assert len(ED.cards) == 214
    assert not undeclared, f"{len(undeclared)} cards without abilities: {undeclared}"
    assert not untested, f"{len(untested)} cards without a test: {untested}"


def left_to_the_table(cards) -> list[str]:
    """The abilities declared but not applied by the rules (`automated: false`, a note)."""
    return [f"{c.id} {a.id}" for c in cards for a in c.abilities
            if not a.automated or any(op.get("op") == "note" for op in a.ops)]


def test_every_ability_is_applied_by_the_rules_none_left_to_the_table() -> None:
    """Issue #30: what a card may do comes from the card, in digital play too, so no
    ability is a note the table applies."""
    assert left_to_the_table(ED.cards) == []


def test_the_table_list_finds_a_planted_note() -> None:
    from dataclasses import replace

    card = ED.cards[0]
    noted = replace(card, abilities=(*card.abilities, replace(
        next(a for c in ED.cards for a in c.abilities), automated=False)))
    assert len(left_to_the_table([noted])) == 1
