"""The generic `effect` event (spec §9): card abilities are not coded, players record what
an ability does as a list of changes (ops), each checked here; and cards removed from play
(killed, discarded) with their saves (§8.6)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ...rules import Action, IllegalAction, replace, require
from ..edition import CardId, Components
from ..state import State
from . import card_ops, lasting_ops
from .fields import Op, ids
from .guards import thing, who
from .values import check_house_only
from .victory import rule
from .zones import in_play, leave_play, to_pile, update_card

OpHandler = Callable[[State, Any, Op, Components], State]


@rule
def apply_effect(state: State, action: Action, ed: Components) -> State:
    """§9: a card ability as recorded by a player or the table: its costs, then its changes,
    each checked."""
    require(state.phase not in ("start", "setup", "setup_draw"), "wrong_phase",
            "effects are recorded after the setup reveal")
    actor = action.actor
    require(actor == "table" or (isinstance(actor, int) and 0 <= actor < state.n
                                 and not state.players[actor].conceded),
            "not_your_turn", "an effect is recorded by a player in the game or the "
            f"table, not {who(state, actor)}")
    event_card = _event_source(state, actor, action.data.get("source"), ed)
    for op in action.data.get("costs") or ():
        state = apply_op(state, actor, op, ed)
    for op in action.data.get("ops") or ():
        state = apply_op(state, actor, op, ed)
    if event_card and isinstance(actor, int) and event_card in state.players[actor].hand:
        player = state.players[actor]
        state = state.with_player(actor, hand=player.hand.take([event_card]),
                                  discard=(*player.discard, event_card))
    return state


def _event_source(state: State, actor: object, source: Any, ed: Components) -> CardId | None:
    """The event card played from the hand, which goes to the discard pile afterwards."""
    if source is None:
        return None
    if source.startswith(("plot:", "title:", "house:")):
        return None
    require(ed.is_known(source), "unknown_source",
            f'the effect\'s source "{source}" is not a card, a plot ("plot:<seat>") or a '
            'title ("title:<id>")')
    if (isinstance(actor, int) and ed.card(source).type == "event"
            and source in state.players[actor].hand):
        check_house_only(state, actor, source, ed)
        return str(source)
    return None


def apply_op(state: State, actor: object, op: Any, ed: Components) -> State:
    """One change of an effect, by its `op` name."""
    require(hasattr(op, "get") and isinstance(op.get("op"), str), "bad_op",
            'each change of an effect is an object with an "op" field naming it')
    handler = OPS.get(op["op"])
    if handler is None:
        raise IllegalAction("unknown_op", f'there is no effect op "{op["op"]}" (§9)',
                            op=op["op"])
    return handler(state, actor, op, ed)


# ---------------------------------------------------------------------------
# Leaving play, with saves (§7.8, §8.6)
# ---------------------------------------------------------------------------


def _apply_saves(state: State, actor: object, cards: list[CardId], saves: Any,
                 ed: Components) -> tuple[State, set[CardId]]:
    """§8.6 saves: a duplicate is discarded, or a recorded ability's costs are paid."""
    saved: set[CardId] = set()
    for entry in saves or ():
        card, by = entry.get("card"), entry.get("by")
        require(card in cards and card not in saved, "bad_save",
                f"a save must name a card being removed, once; {thing(state, card, ed)} "
                "is not one")
        if by == "duplicate":
            ip = in_play(state, card, ed)
            require(bool(ip.duplicates), "no_duplicate",
                    f"{ed.name(card)} has no duplicate to discard")
            state = update_card(state, replace(ip, duplicates=ip.duplicates[:-1]))
            state = to_pile(state, ip.duplicates[-1], "discard")
        elif by == "effect":
            for op in entry.get("costs") or ():
                state = apply_op(state, actor, op, ed)
        else:
            raise IllegalAction("bad_save", f'a save is by "duplicate" or "effect", not "{by}"')
        saved.add(card)
    return state, saved


def remove_cards(state: State, actor: object, cards: list[CardId], dest: str, ed: Components,
                 saves: Any = (), redirect: Any = None) -> State:
    """Cards leave play for `dest` unless saved, or for the hand or discard pile where a
    recorded ability redirects them."""
    state, saved = _apply_saves(state, actor, cards, saves, ed)
    redirect = redirect or {}
    for card in redirect:
        require(card in cards and redirect[card] in ("discard", "hand"), "bad_redirect",
                "a redirect sends a removed card to the discard pile or the hand; "
                f"{thing(state, card, ed)} cannot go there")
    for card in cards:
        if card not in saved:
            state = leave_play(state, card, redirect.get(card, dest), ed)
    return state


def _kill(state: State, actor: object, op: Op, ed: Components) -> State:
    cards = ids(op, "cards")
    for card in cards:
        ip = in_play(state, card, ed)
        require(ed.is_character(card) and ip.host is None, "not_a_character",
                f"only characters can be killed; {ed.name(card)} is not one", card=card)
    return remove_cards(state, actor, cards, "dead", ed, op.get("saves"), op.get("redirect"))


def _discard_from_play(state: State, actor: object, op: Op, ed: Components) -> State:
    cards = ids(op, "cards")
    for card in cards:
        in_play(state, card, ed)
    return remove_cards(state, actor, cards, "discard", ed, op.get("saves"))


#: every op of §9 by name
OPS: dict[str, OpHandler] = {
    "kill": _kill, "discard_from_play": _discard_from_play, **card_ops.OPS, **lasting_ops.OPS,
}
