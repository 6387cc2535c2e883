"""What a kill does instead, read where kills move a card to a dead pile (`kill`, called by
effects.remove_cards for every kill: the kill op, a claim, deadly, a rule's kill), and the
mark of a changed STR (docs/games/thrones-abilities.md, "Deaths"; card rulings L13, L23,
B22):

- a `cannot_be_killed` constant covering the card (Stannis's Northern Cavalry, while its
  STR was changed this phase) forbids the kill: the kill op refuses it naming the card, a
  claim or deadly never chooses it (`kill_forbidden`, `killable`);
- a death guard on it (Bronn's lasting effect) whose guardian is in play and knelt
  replaces the kill: the guardian stands and the card stays (`guard_effect`);
- a `killed_to` constant covering it (The Hound) sends it to that pile instead of the dead
  pile, marked so the triggers still read a death (`died_elsewhere`).

Pure: each reads the state and the edition it is given.
"""

from __future__ import annotations

from ...rules import replace
from ..edition import CardId, Components
from ..state import InPlay, Modifier, State
from .restrictions import reaches, restrictions
from .values import STRENGTH_CHANGED, play_index, strength
from .zones import leave_play, update_card

#: a lasting effect (a Modifier kind, until the phase ends) on a character: if it would be
#: killed while its guardian (`value`) is knelt, the guardian stands instead (Bronn)
DEATH_GUARD = "death_guard"
#: the mark on a card a `killed_to` constant sent elsewhere than its dead pile when it was
#: killed (`value`: that pile), so the triggers read its going there as a death
KILLED = "killed"


def _covering(state: State, kind: str, card: CardId, ed: Components
              ) -> tuple[InPlay, str, object] | None:
    """(source, ability label, op) of the first `kind` constant that covers `card` (in
    play) now; None if none does."""
    target = play_index(state).get(card) if ed.restriction_cards else None
    if target is None:
        return None
    for source, ability, op in restrictions(state, kind, ed):
        if reaches(op.get("filter") or {}, source, target, ed):
            return source, ability.label, op.get("pile")
    return None


def kill_forbidden(state: State, card: CardId, ed: Components) -> tuple[str, str] | None:
    """(card name, ability label) of the constant by which `card` cannot be killed now;
    None if it may be."""
    found = _covering(state, "cannot_be_killed", card, ed)
    return None if found is None else (ed.card(found[0].id).name, found[1])


def killable(state: State, cards: list[CardId], ed: Components) -> list[CardId]:
    """The cards of `cards` that may be killed now (a claim or deadly chooses only them)."""
    return [c for c in cards if kill_forbidden(state, c, ed) is None]


def guard_effect(card: CardId, guardian: CardId) -> Modifier:
    """Bronn's lasting effect: this phase, `card` is guarded by `guardian`."""
    return Modifier(DEATH_GUARD, card, "phase", value=guardian)


def _guardian(state: State, card: CardId) -> InPlay | None:
    """The knelt guardian in play of a death guard on `card`, if any (the first)."""
    index = play_index(state)
    for mod in state.modifiers:
        if mod.kind == DEATH_GUARD and mod.card == card:
            guard = index.get(mod.value)
            if guard is not None and guard.knelt:
                return guard
    return None


def kill(state: State, card: CardId, ed: Components) -> State:
    """One character killed, with what replaces it: a knelt guardian stands instead (the
    card stays), or it leaves play for its dead pile or the pile a `killed_to` constant
    names (marked as killed there)."""
    guard = _guardian(state, card)
    if guard is not None:
        return update_card(state, replace(guard, knelt=False))
    found = _covering(state, "killed_to", card, ed)
    pile = "dead" if found is None else str(found[2])
    state = leave_play(state, card, pile, ed)
    if pile == "dead":
        return state
    return replace(state, modifiers=(*state.modifiers, Modifier(KILLED, card, "phase",
                                                                value=pile)))


def died_elsewhere(state: State, card: CardId, pile: str) -> bool:
    """Whether `card`, just gone to `pile`, went there killed (a `killed_to` constant):
    the mark is added after leave_play drops its modifiers, so it is its last leaving."""
    return any(m.kind == KILLED and m.card == card and m.value == pile
               for m in state.modifiers)


def watches_strength(card: CardId, ed: Components) -> bool:
    """Whether a card carries a constant that reads whether its STR changed this phase."""
    return ed.card(card).number in ed.strength_watchers


def mark_strength(before: State, after: State, card: CardId, ed: Components) -> State:
    """`after` with the mark that `card`'s STR changed this phase (ruling B22), when a card
    that watches it is in play in both states at a different STR; else `after` as is."""
    if not watches_strength(card, ed) or any(m.kind == STRENGTH_CHANGED and m.card == card
                                             for m in after.modifiers):
        return after
    index = play_index(before)
    if card not in index or card not in play_index(after) or \
            strength(before, card, ed, index) == strength(after, card, ed):
        return after
    return replace(after, modifiers=(*after.modifiers, Modifier(STRENGTH_CHANGED, card,
                                                                "phase")))


__all__ = ["guard_effect", "kill", "kill_forbidden", "killable", "mark_strength"]
