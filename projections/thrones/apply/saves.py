"""Saves (rulings S1, L17, B12, T17; ruling 36): a kill or a discard from play applies at
once, and its `would_be_killed` / `would_be_discarded` trigger carries the state's cards,
modifiers and challenge from before it. An interrupt answering it is used on the state with
the card put back exactly as it was (knelt or standing, its power, attachments, duplicates,
modifiers and place in the challenge), so the answer is the save: a card its ops leave in
play was saved, one they send to the hand (Kennel Master, Viserys, Retreat) went there
instead. Pure: the restoring reads only the trigger and the state it is given.
"""

from __future__ import annotations

from ...rules import replace
from ..edition import CardId, owner_of
from ..state import Challenge, Modifier, State, Trigger


def still_gone(state: State, trigger: Trigger) -> bool:
    """Whether the card of a death or discard is still in the pile it went to: a saved
    card's `killed` and `would_be_...` triggers are answered no more."""
    card = trigger.get("card")
    pile = str(trigger.get("pile") or (  # a death elsewhere carries its pile (The Hound)
        "dead" if trigger.name in ("killed", "would_be_killed") else "discard"))
    if not isinstance(card, str) or trigger.name not in (
            "killed", "would_be_killed", "would_be_discarded"):
        return True
    owner = owner_of(card)
    return owner < len(state.players) and card in getattr(state.players[owner], pile)


def restored(state: State, trigger: Trigger) -> State:
    """The state with the trigger's card back in play as it was before the event."""
    back = trigger.restore
    card = trigger.get("card")
    if back is None or not isinstance(card, str) or not still_gone(state, trigger):
        return state
    ids = {card} | {c.id for c in back.cards if c.host == card}
    before = next(c for c in back.cards if c.id == card)
    state = _out_of_pile(state, card, back.pile)
    found = {card}
    for other in ids - {card}:
        if other in state.players[owner_of(other)].discard:
            state = _out_of_pile(state, other, "discard")
            found.add(other)
    for dup in before.duplicates:
        if dup in state.players[owner_of(dup)].discard:
            state = _out_of_pile(state, dup, "discard")
    now = {c.id: c for c in state.cards}
    was = {c.id for c in back.cards}
    cards = tuple(now.get(c.id, c) for c in back.cards if c.id in now or c.id in found)
    cards = (*cards, *(c for c in state.cards if c.id not in was))
    power = sum(c.power for c in back.cards if c.id in found)
    return replace(state, cards=cards, power_issued=state.power_issued + power,
                   modifiers=_modifiers(back.modifiers, state.modifiers, found),
                   challenge=_challenge(back.challenge, state.challenge, found))


def _out_of_pile(state: State, card: CardId, pile: str) -> State:
    owner = owner_of(card)
    cards = list(getattr(state.players[owner], pile))
    cards.reverse()
    cards.remove(card)  # the copy that went there last
    cards.reverse()
    return state.with_player(owner, **{pile: tuple(cards)})


def _modifiers(before: tuple[Modifier, ...], now: tuple[Modifier, ...], found: set[CardId]
               ) -> tuple[Modifier, ...]:
    kept = [m for m in before if m.card in found or m in now]
    return (*kept, *(m for m in now if m not in before))


def _challenge(before: Challenge | None, now: Challenge | None, found: set[CardId]
               ) -> Challenge | None:
    """The card's place in the challenge back, in its order (§7.8 took it out)."""
    if before is None or now is None or (before.type, before.attacker) != \
            (now.type, now.attacker):
        return now
    return replace(now, attackers=tuple(a for a in before.attackers
                                        if a in now.attackers or a in found),
                   defenders=tuple(d for d in before.defenders
                                   if d in now.defenders or d in found),
                   stealth=tuple(p for p in before.stealth
                                 if p in now.stealth or set(p) & found))


__all__ = ["restored", "still_gone"]
