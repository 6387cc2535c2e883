"""What four cards' uses leave in the state beyond §9's ops (registry `lasting`; docs/games/
thrones-abilities.md, "Lasting effects"): a blank text (Renly's Courtier), a toll (Magister
Illyrio), the mark of how a card entered play (Khal Drogo), an event that stays as an
attachment (I'm You Writ Small). §9 has no op for these; each function adds exactly the
one lasting effect its card describes, which the rules then read where it applies
(apply/text.py, apply/tolls.py, Drogo's forced return below, the boon's constant +2 STR).
"""

from __future__ import annotations

from typing import Any

from ...messages import M
from ...rules import IllegalAction, replace
from ..apply.text import blank_effect
from ..apply.tolls import toll_effect
from ..state import InPlay, Modifier, State
from .registry import Use, ability, lasting

Ops = list[dict[str, Any]]
#: the mark on a card put into play by its own ability, its value the phase it entered in
ENTERED_BY_ITSELF = "entered_by_itself"


@lasting("core_086", "blank_text")
def courtier_blank(use: Use, state: State) -> State:
    """Renly's Courtier: the chosen non-unique character's text is blank until the end of
    the phase (its traits, icons and STR stay; card ruling B18)."""
    return replace(state, modifiers=(*state.modifiers, blank_effect(use.choices["character"])))


@lasting("core_152", "toll")
def illyrio_toll(use: Use, state: State) -> State:
    """Magister Illyrio: this phase the named opponent pays his user 1 gold for each
    challenge of the named type it declares (apply/tolls.py, card ruling T18)."""
    mod = toll_effect(int(use.choices["payer"]), use.seat, str(use.choices["kind"]))
    return replace(state, modifiers=(*state.modifiers, mod))


@lasting("core_107", "ride_in")
def drogo_rides_in(use: Use, state: State) -> State:
    """Khal Drogo, put into play by his own response: the mark says so, with the phase he
    entered in; it leaves play with him (zones.leave_play drops a card's modifiers) and
    ends with the round (card ruling T4)."""
    mark = Modifier(ENTERED_BY_ITSELF, use.source, "round", value=state.phase)
    return replace(state, modifiers=(*state.modifiers, mark))


@ability("core_107", "back_to_hand")
def drogo_back_to_hand(use: Use) -> Ops:
    """Khal Drogo goes back to his owner's hand when the phase he was put into play in by
    his own response ends (forced, answering the next phase's beginning); a Drogo
    marshalled or put into play otherwise stays (card ruling T4)."""
    marks = [m for m in use.state.modifiers
             if m.kind == ENTERED_BY_ITSELF and m.card == use.source]
    if not any(m.value != use.state.phase for m in marks):
        raise IllegalAction("outside_window", M(
            "{card} returns to hand only when the phase he was put into play in by his own "
            "response ends", card=use.card_name))
    return [{"op": "return_to_hand", "cards": [use.source]}]


@lasting("core_165", "deadly_boon")
def writ_small_stays(use: Use, state: State) -> State:
    """I'm You Writ Small: after its deadly, the event card goes from its player's hand
    onto the chosen Lannister character, as an attachment whose constant gives its bearer
    +2 STR (card ruling L22); if that character is no longer in play, it is discarded as
    any event (the engine's step after the ops)."""
    host = use.choices["host"]
    player = state.players[use.seat]
    if use.source not in player.hand or not any(c.id == host for c in state.cards):
        return state
    state = state.with_player(use.seat, hand=player.hand.take([use.source]))
    return replace(state, cards=(*state.cards, InPlay(use.source, use.seat, host=host)))
