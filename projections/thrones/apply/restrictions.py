"""The constant abilities that restrict what the rules allow (issue #30 item 2; contract
docs/games/thrones-abilities.md, "Constant abilities"): immunity to events or to character
abilities (the targets of `use_ability`), characters that cannot be declared as defenders
(`declare_defenders`) and cards that cannot be discarded from play (`discard_from_play`).

Each is checked where the rule it restricts applies, from the cards in play and the revealed
plots that carry one (`Components.restriction_cards`), while its `while` holds.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from ...messages import M, Seq
from ...rules import require
from ..abilities.schema import Ability
from ..edition import CardId, Components, Seat
from ..state import InPlay, State
from .guards import who
from .text import blanked, text_of
from .values import PRINTED, constant_holds


def _sources(state: State, numbers: frozenset[int], ed: Components) -> list[InPlay]:
    """The cards in play and the revealed plots (a source its player controls) whose
    printed constants carry a restriction of the edition's cards `numbers`."""
    out = [card for card in state.cards if ed.card(card.id).number in numbers]
    for seat, player in enumerate(state.players):
        plot = player.revealed_plot
        if plot is not None and ed.card(plot).number in numbers:
            out.append(InPlay(plot, seat))
    return out


def restrictions(state: State, kind: str, ed: Components
                 ) -> Iterator[tuple[InPlay, Ability, Mapping[str, Any]]]:
    """(source, ability, op) of every `kind` restriction that applies now; a blank card's
    constants apply not (text.py). Only a card that prints a `kind` constant can hold one
    (a card's text is its printed text or nothing), so the others are not read."""
    numbers = ed.restriction_kinds.get(kind)
    sources = _sources(state, numbers, ed) if numbers else []
    if not sources:
        return
    blanks = blanked(state, ed)
    for source in sources:
        for ability in text_of(state, source.id, ed, blanks).constants:
            for op in ability.ops:
                if op.get("op") == kind and constant_holds(op.get("while") or {}, source,
                                                           state, ed):
                    yield source, ability, op


def reaches(flt: Mapping[str, Any], source: InPlay, card: InPlay, ed: Components) -> bool:
    """Whether a restriction's filter covers `card`: printed keys, `controller` (`self` is
    the source's controller), `bearer` (its host) and `itself` (the source)."""
    data = ed.card(card.id)
    for key, want in flt.items():
        if key == "controller":
            ok = (card.controller == source.controller) == (want == "self")
        elif key == "bearer":
            ok = (source.host == card.id) == bool(want)
        elif key == "itself":
            ok = (source.id == card.id) == bool(want)
        else:
            ok = PRINTED[key](data, want)
        if not ok:
            return False
    return True


def _in_play(state: State, card: CardId) -> InPlay | None:
    return next((c for c in state.cards if c.id == card), None)


def immune_by(state: State, card: CardId, user: Seat, source_type: str,
              ed: Components) -> str | None:
    """The name of the card that makes `card` (in play) immune to an ability of a
    `source_type` card (an event, or a character's ability) used by `user`; None if not."""
    wanted = {"event": "events", "character": "character_abilities"}.get(source_type)
    target = _in_play(state, card) if wanted and ed.restriction_cards else None
    if target is None:
        return None
    for source, _, op in restrictions(state, "immune", ed):
        to = op.get("to") or ()
        if wanted not in (to if isinstance(to, tuple | list) else (to,)):
            continue
        if op.get("from") == "opponents" and user == source.controller:
            continue
        if reaches(op.get("filter") or {}, source, target, ed):
            return ed.card(source.id).name
    return None


def discard_forbidden(state: State, card: CardId, ed: Components) -> tuple[str, str] | None:
    """(card name, ability label) of the constant by which `card` cannot be discarded from
    play; None if none."""
    target = _in_play(state, card) if ed.restriction_cards else None
    if target is None:
        return None
    for source, ability, op in restrictions(state, "cannot_be_discarded", ed):
        if reaches(op.get("filter") or {}, source, target, ed):
            return ed.card(source.id).name, ability.label
    return None


def discardable(state: State, cards: list[CardId], ed: Components) -> list[CardId]:
    """The cards of `cards` that may be discarded from play now: an effect that discards
    every card of a kind leaves the others where they are (card ruling B23)."""
    return [c for c in cards if discard_forbidden(state, c, ed) is None]


def defend_forbidden(state: State, card: InPlay, ed: Components) -> tuple[str, str] | None:
    """(card name, ability label) of the constant by which `card` may not be declared as a
    defender of the open challenge now; None if none forbids it."""
    for source, ability, op in restrictions(state, "cannot_defend", ed):
        if reaches(op.get("filter") or {}, source, card, ed):
            return ed.card(source.id).name, ability.label
    return None


def event_tax(state: State, seat: Seat, ed: Components) -> list[dict[str, Any]]:
    """The gold a player pays to play an event now (Calm Over Westeros, card ruling S20):
    each revealed plot with an `event_tax` takes its amount, given to the plot's owner, or,
    when the plot's owner plays the event, to the next opponent clockwise. `give_gold` ops,
    paid as a cost before the event's own."""
    out: list[dict[str, Any]] = []
    plots: list[str] = []
    for source, _, op in restrictions(state, "event_tax", ed):
        to = source.controller if source.controller != seat else _next_opponent(state, seat)
        if to is not None:
            out.append({"op": "give_gold", "from": seat, "to": to,
                        "amount": int(op.get("amount") or 1)})
            plots.append(ed.card(source.id).name)
    due = sum(int(o["amount"]) for o in out)
    require(due <= state.players[seat].gold, "cannot_pay",
            M("playing an event costs {player} {amount} gold more, paid to an opponent, "
              "while {plots} is revealed, and {player} has {gold}",
              player=who(state, seat), amount=due, plots=Seq(plots), gold=
              state.players[seat].gold))
    return out


def _next_opponent(state: State, seat: Seat) -> Seat | None:
    """The first opponent still in the game clockwise from `seat`."""
    return next((s % state.n for s in range(seat + 1, seat + state.n)
                 if not state.players[s % state.n].conceded), None)
