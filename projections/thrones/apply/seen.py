"""The triggers of cards leaving play, standing, events played, claims applied and cards
revealed (docs/games/thrones-abilities.md, "Triggers"), read like triggers.py's from the
action and the states before and after it, whatever op did it: a card gone from play left
it (to the pile, hand or deck it is now in), a knelt card now standing stood (in the
standing phase when `end_round` stood it), an event card that went from its player's hand
to the discard pile by `use_ability` was played.

Revealing is the one thing the states cannot show (a card searched for and shown reaches the
hand as a drawn one does): a use reveals cards when its ability's data has a `search_deck`
with `reveal`, or its named function is declared to (`registry.reveals`: Call Their Bluff
shows the opponents' hands) — card ruling L26.
"""

from __future__ import annotations

from collections.abc import Iterator

from ...rules import Action
from ..abilities.registry import REVEALS
from ..edition import Card, CardId, Components, owner_of
from ..state import State, Trigger

#: where a card that left play went, in the order its owner's zones are read
ZONES = ("dead", "discard", "hand", "deck")


def seen(before: State, action: Action, after: State, ed: Components) -> Iterator[Trigger]:
    """Every trigger of this module the action caused, in the order they happened: the
    claim, the cards that left play, those that stood, the event played, the reveal."""
    yield from _claimed(before, action)
    yield from _left(before, after)
    yield from _stood(before, action, after)
    yield from _played(before, action, after, ed)
    yield from _revealed(before, action, after, ed)


def _claimed(before: State, action: Action) -> Iterator[Trigger]:
    """`claim_applied` after apply_claim: only the attacker wins a claim (§8.6)."""
    ch = before.challenge
    if action.type == "apply_claim" and ch is not None and ch.pending:
        yield Trigger("claim_applied", (("type", ch.type), ("winner", ch.attacker),
                                        ("loser", ch.pending[0][1])))


def _left(before: State, after: State) -> Iterator[Trigger]:
    """`leaves_play` for every card gone from play, an attachment that left with its host
    included; `to` is its owner's zone that now holds it ("out" if none does)."""
    now = {c.id for c in after.cards}
    for ip in before.cards:
        if ip.id not in now:
            yield Trigger("leaves_play", (("card", ip.id), ("seat", ip.controller),
                                          ("to", _zone_gained(before, after, ip.id))))


def _zone_gained(before: State, after: State, card: CardId) -> str:
    owner = owner_of(card)
    if not 0 <= owner < len(after.players):
        return "out"
    was, now = before.players[owner], after.players[owner]
    for zone in ZONES:
        if list(getattr(now, zone)).count(card) > list(getattr(was, zone)).count(card):
            return zone
    return "out"


def _stood(before: State, action: Action, after: State) -> Iterator[Trigger]:
    """`stands` for each knelt card in play that is standing now; `phase` is "standing"
    for the cards `end_round` stood (§7.6), else the phase it happened in."""
    knelt = {c.id for c in before.cards if c.knelt}
    phase = "standing" if action.type == "end_round" else before.phase
    for ip in after.cards:
        if ip.id in knelt and not ip.knelt:
            yield Trigger("stands", (("card", ip.id), ("seat", ip.controller),
                                     ("phase", phase)))


def _played(before: State, action: Action, after: State, ed: Components
            ) -> Iterator[Trigger]:
    """`event_played` when a use_ability took an event card from its player's hand to the
    discard pile (apply/abilities.resolve_use)."""
    card, seat = action.data.get("card"), action.actor
    if action.type != "use_ability" or not isinstance(seat, int) or \
            not isinstance(card, str) or not ed.is_known(card) or \
            ed.card(card).type != "event":
        return
    was, now = before.players[seat], after.players[seat]
    if card in was.hand and card not in now.hand and card in now.discard:
        yield Trigger("event_played", (("card", card), ("seat", seat)))


def _revealed(before: State, action: Action, after: State, ed: Components
              ) -> Iterator[Trigger]:
    """`cards_revealed` when a use whose ability reveals cards applied its ops (not while
    it waits for another seat's part: ruling 33); `seat` is the player whose effect it is."""
    ref, ident = action.data.get("card"), action.data.get("ability")
    if action.type != "use_ability" or after.pick is not None or not isinstance(ref, str):
        return
    card = _card_of(before, ref, ed)
    if card is None or not _reveals(card, str(ident)):
        return
    pick = before.pick
    seat = pick.seat if pick is not None and pick.source == ref else action.actor
    yield Trigger("cards_revealed", (("seat", seat), ("card", ref)))


def _card_of(state: State, ref: str, ed: Components) -> Card | None:
    """The printed card of a use's source: a card instance or a revealed plot."""
    if ref.startswith("plot:") and ref[5:].isdigit() and int(ref[5:]) < state.n:
        plot = state.players[int(ref[5:])].revealed_plot
        return None if plot is None else ed.card(plot)
    return ed.card(ref) if ed.is_known(ref) else None


def _reveals(card: Card, ident: str) -> bool:
    if (card.id, ident) in REVEALS:
        return True
    ability = next((a for a in card.abilities if a.id == ident), None)
    return ability is not None and any(op.get("op") == "search_deck" and op.get("reveal")
                                       for op in ability.ops)


__all__ = ["seen"]
