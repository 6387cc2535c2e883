"""The rules' own checks after every event (card rulings B22, T27): what a card says
happens when a state arises, not when a player acts. Pure and deterministic: each reads
the states before and after the event.

- Stannis's Northern Cavalry: a card that watches its STR and is in play before and after
  an event of the same phase at a different STR is marked (deaths.mark_strength; an op
  that changes it marks it at once).
- Flame-Kissed: a character covered by a `killed_at_zero` constant whose STR came to 0 in
  the event (it was in play before, not then at 0 so covered) is killed by the rules; the
  kill opens its `would_be_killed` window (restored as it was just before the kill), so a
  saved bearer stays at 0 until it comes to 0 again.
"""

from __future__ import annotations

from ...rules import Action
from ..edition import CardId, Components
from ..state import State, Trigger
from .deaths import kill_forbidden, mark_strength
from .effects import remove_cards
from .restrictions import reaches, restrictions
from .triggers import SETUP_ACTIONS, emitted
from .values import play_index, strength

#: the event the rules' own kill is read from (no action's own triggers)
RULES_CHECK = Action.of("rules_check", "server")


def checked(before: State, action: Action, after: State, ed: Components
            ) -> tuple[State, tuple[Trigger, ...]]:
    """The state after the event and the rules' checks, and the triggers of both."""
    new = emitted(before, action, after, ed)
    if action.type in SETUP_ACTIONS or after.phase == "over":
        return after, new
    marked = _marked(before, after, ed)
    final = _flame_kills(before, marked, ed)
    if final is marked:
        return marked, new
    return final, (*new, *emitted(marked, RULES_CHECK, final, ed))


def _marked(before: State, after: State, ed: Components) -> State:
    if before.phase != after.phase or not ed.strength_watchers:
        return after  # the last phase's effects ending count for neither phase
    watchers = [c.id for c in after.cards if ed.card(c.id).number in ed.strength_watchers]
    for card in watchers:
        after = mark_strength(before, after, card, ed)
    return after


def _at_zero(state: State, ed: Components) -> set[CardId]:
    """The characters a `killed_at_zero` constant covers whose STR is 0 now."""
    out: set[CardId] = set()
    for source, _, op in restrictions(state, "killed_at_zero", ed):
        for card in state.cards:
            if card.host is None and ed.is_character(card.id) and \
                    reaches(op.get("filter") or {}, source, card, ed) and \
                    strength(state, card.id, ed) <= 0:
                out.add(card.id)
    return out


def _flame_kills(before: State, after: State, ed: Components) -> State:
    doomed = _at_zero(after, ed)
    if not doomed:
        return after
    doomed -= _at_zero(before, ed)
    was = play_index(before)
    victims = [c.id for c in after.cards if c.id in doomed and c.id in was
               and kill_forbidden(after, c.id, ed) is None]
    return remove_cards(after, None, victims, "dead", ed) if victims else after


__all__ = ["checked"]
