"""What a person reads of Adaman: cards by their printed names, the sentence of each move,
the words for the statuses and the ways a game ends (spec §2.4, §7)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from ..messages import M, Message, Mn, Ordinal, Seq
from ..rules import Action, CardId, seat_name
from .edition import Components
from .state import State


def card_name(card: CardId, components: Components) -> str:
    """The card's printed name ("the Sailor", a `Name` rendered per language); an id no
    edition knows stays quoted."""
    known = components.cards.get(card)
    if known is not None:
        return known.name
    return components.excluded.get(card, repr(card))


def card_names(cards: Iterable[CardId], components: Components) -> Seq:
    """ "the Mill and the Forest": cards in a sentence."""
    return Seq(card_name(c, components) for c in cards)


def suits_text(card: CardId, components: Components) -> Seq:
    """ "Moons and Suns": a card's suits by their printed names."""
    names = components.suit_names
    return Seq(names.get(s, s) for s in sorted(components.cards[card].suits))


def _control_sentence(who: str, data: Mapping[str, Any], components: Components) -> Message:
    target = card_name(data["target"], components)
    spend, drawn = data.get("spend") or (), data.get("drawn") or ()
    if spend and drawn:
        return M("{player} controlled {card} with {spent}, then turned up {drawn}", player=who,
                 card=target, spent=card_names(spend, components),
                 drawn=card_names(drawn, components))
    if spend:
        return M("{player} controlled {card} with {spent}", player=who, card=target,
                 spent=card_names(spend, components))
    if drawn:
        return M("{player} controlled {card}, then turned up {drawn}", player=who, card=target,
                 drawn=card_names(drawn, components))
    return M("{player} controlled {card}", player=who, card=target)


def setup_sentence(action: Action, names: Sequence[str], components: Components) -> Message:
    """"The table dealt the layout (11 cards)"."""
    drawn = action.data.get("drawn") or ()
    who = seat_name(names, action.actor)
    if drawn:
        return Mn("{player} dealt the layout ({count} card)",
                  "{player} dealt the layout ({count} cards)", len(drawn),
                  player=who).capitalised()
    return M("{player} dealt the layout", player=who).capitalised()


def control_sentence(action: Action, names: Sequence[str], components: Components) -> Message:
    """"Ann controlled the Sailor with the Mill, then turned up the Bard and the Pact"."""
    who = seat_name(names, action.actor)
    if not isinstance(action.data.get("target"), str):
        return M("{player} controlled a card", player=who).capitalised()
    return _control_sentence(who, action.data, components).capitalised()


def abandon_sentence(action: Action, names: Sequence[str], components: Components) -> Message:
    return M("{player} abandoned the game", player=seat_name(names, action.actor)).capitalised()


def labels(components: Components) -> dict[str, str]:
    """Words for the statuses and the ways a game ends, which the boards and results show
    (spec §7); the cards' and suits' printed names come from the edition itself."""
    loses = components.court_count_that_loses
    return {
        "awaiting_setup": M("waiting for the deal"), "in_progress": M("in progress"),
        "won": M("won"), "lost": M("lost"), "lost_utterly": M("lost utterly"),
        "all_personalities_controlled": M("every personality controlled"),
        "no_legal_move": M("no legal move left"), "abandoned": M("abandoned"),
        "court_overflow": M("a {nth} personality reached the court", nth=Ordinal(loses)),
        # the result's breakdown (scoring.py), as the score tables name its rows
        "status": M("status"), "controlled_personalities": M("controlled personalities"),
        "all_personalities": M("all personalities"), "resources_left": M("resources left"),
    }


def game_over(state: State, components: Components) -> Message:
    """The refusal of any move once the game is over, saying how the player fared."""
    words = labels(components)
    return M("the game is over: {player} {outcome}", player=seat_name(state.names, 0),
             outcome=words.get(state.status, state.status))
