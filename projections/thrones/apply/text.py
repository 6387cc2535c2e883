"""A card's text box, and the one check that blanks it (issue #30; card rulings B16, B18).

A card's printed text is read in many places: its abilities (used, offered, answered), its
constants (values and restrictions), its keywords, the `grants` an attachment gives and
the printed rules of its data (`kneel_exempt`, `cannot_attack`, `stealth_immune`). Every
reader of a card in play goes through `text_of`, which answers the empty text (`BLANK`)
for a blank card, so one check (`blank`) blanks all of them. What is not in the text box
is not blanked (as in the published game): traits, icons, crests, STR, cost and the
printed gold, influence and initiative bonuses. Effects of other cards that give it a
keyword, an icon or STR still apply: blanking takes the card's own text away.

This module reads only the state and the edition, below values.py and restrictions.py,
which route their readers through it.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from ..abilities.schema import Ability
from ..edition import Card, CardId, Components, Grant
from ..state import InPlay, Modifier, State

#: the lasting effect that blanks one card's text (Renly's Courtier), until its `until`
BLANK_TEXT = "blank_text"
#: the constant op that blanks the text of the cards its filter covers (Milk of the Poppy)
BLANK_OP = "blank_text"


@dataclass(frozen=True, slots=True)
class Text:
    """What a card's text box says, as the rules read it."""

    abilities: tuple[Ability, ...] = ()
    keywords: tuple[str, ...] = ()
    grants: tuple[Grant, ...] = ()
    kneel_exempt_attack: tuple[str, ...] = ()
    kneel_exempt_defend: tuple[str, ...] = ()
    cannot_attack: bool = False
    stealth_immune: bool = False

    @property
    def constants(self) -> tuple[Ability, ...]:
        """Its constant abilities, which apply by themselves while it is in play."""
        return tuple(a for a in self.abilities if a.kind == "constant")

    def kneel_exempt(self, side: str) -> tuple[str, ...]:
        """The challenge types in which it need not kneel to `side` ("attack", "defend")."""
        return self.kneel_exempt_attack if side == "attack" else self.kneel_exempt_defend


#: the text of a blank card: nothing
BLANK = Text()
_PRINTED: dict[tuple[int, int], Text] = {}


def printed_text(card: Card) -> Text:
    """The text box of a printed card (memoised per card object)."""
    key = (id(card), card.number)
    found = _PRINTED.get(key)
    if found is None:
        found = Text(card.abilities, card.keywords, card.grants, card.kneel_exempt_attack,
                     card.kneel_exempt_defend, card.cannot_attack, card.stealth_immune)
        if len(_PRINTED) > 4096:
            _PRINTED.clear()
        _PRINTED[key] = found
    return found


def marked_blank(state: State, card: CardId) -> bool:
    """Whether a lasting effect blanks `card` now (Renly's Courtier's, until phase end)."""
    return any(m.kind == BLANK_TEXT and m.card == card for m in state.modifiers)


def _blankers(state: State, ed: Components) -> Iterator[tuple[InPlay, Mapping[str, Any]]]:
    """(source, op) of each constant `blank_text` in play. A source blanked itself by a
    lasting effect blanks nothing; whether a constant blanks it is not asked (no recursion,
    as ruling 3: no attachment carries another)."""
    numbers = ed.restriction_cards
    if not numbers:
        return
    for source in state.cards:
        data = ed.card(source.id)
        if data.number not in numbers:
            continue
        ops = [op for a in data.constants for op in a.ops if op.get("op") == BLANK_OP]
        if ops and not marked_blank(state, source.id):
            yield from ((source, op) for op in ops)


def _covers(flt: Mapping[str, Any], source: InPlay, card: CardId) -> bool:
    """Whether a `blank_text` filter covers `card`: `bearer` (the source's host) and
    `itself` (the source), the keys the schema allows it."""
    for key, want in flt.items():
        value = source.host == card if key == "bearer" else source.id == card
        if value != bool(want):
            return False
    return True


def blank(state: State, card: CardId, ed: Components) -> bool:
    """Whether the text box of `card` (in play) is blank now: a lasting `blank_text` effect
    on it (until its end), or a constant `blank_text` that covers it (Milk of the Poppy on
    its bearer)."""
    if marked_blank(state, card):
        return True
    return any(_covers(op.get("filter") or {}, source, card)
               for source, op in _blankers(state, ed))


def blanked(state: State, ed: Components) -> frozenset[CardId]:
    """Every card in play whose text is blank now (one pass, for the hot path)."""
    out = {m.card for m in state.modifiers if m.kind == BLANK_TEXT}
    blankers = list(_blankers(state, ed))
    if blankers:
        out.update(c.id for c in state.cards
                   if any(_covers(op.get("filter") or {}, s, c.id) for s, op in blankers))
    return frozenset(out)


def text_of(state: State, card: CardId, ed: Components,
            blanks: frozenset[CardId] | None = None) -> Text:
    """The text of a card in play as the rules read it: nothing while it is blank, else
    its printed text. `blanks` is `blanked(state, ed)` when the caller has it."""
    is_blank = card in blanks if blanks is not None else blank(state, card, ed)
    return BLANK if is_blank else printed_text(ed.card(card))


def blank_effect(card: CardId, until: str = "phase") -> Modifier:
    """The lasting effect that blanks `card` until the end of `until`."""
    return Modifier(BLANK_TEXT, card, until)
