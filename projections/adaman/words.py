"""What a person reads of Adaman: cards by their printed names, the sentence of each move,
the words for the statuses and the ways a game ends (spec §2.4, §7)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from ..rules import Action, CardId, ordinal, plural, seat_name, words_list
from .edition import Components
from .state import State


def card_name(card: CardId, components: Components) -> str:
    """The card's printed name ("the Sailor"); an id no edition knows stays quoted."""
    known = components.cards.get(card)
    if known is not None:
        return known.name
    return components.excluded.get(card, repr(card))


def card_names(cards: Iterable[CardId], components: Components) -> str:
    """ "the Mill and the Forest": cards in a sentence."""
    return words_list(card_name(c, components) for c in cards)


def suits_text(card: CardId, components: Components) -> str:
    """ "Moons and Suns": a card's suits by their printed names."""
    names = components.suit_names
    return words_list(names.get(s, s) for s in sorted(components.cards[card].suits))


def _control_sentence(who: str, data: Mapping[str, Any], components: Components) -> str:
    text = f"{who} controlled {card_name(data['target'], components)}"
    spend, drawn = data.get("spend") or (), data.get("drawn") or ()
    text += f" with {card_names(spend, components)}" if spend else ""
    text += f", then turned up {card_names(drawn, components)}" if drawn else ""
    return text


def _capitalised(text: str) -> str:
    return text[:1].upper() + text[1:]


def setup_sentence(action: Action, names: Sequence[str], components: Components) -> str:
    """"The table dealt the layout (11 cards)"."""
    drawn = action.data.get("drawn") or ()
    return _capitalised(f"{seat_name(names, action.actor)} dealt the layout"
                        + (f" ({plural(len(drawn), 'card')})" if drawn else ""))


def control_sentence(action: Action, names: Sequence[str], components: Components) -> str:
    """"Ann controlled the Sailor with the Mill, then turned up the Bard and the Pact"."""
    who = seat_name(names, action.actor)
    if not isinstance(action.data.get("target"), str):
        return _capitalised(f"{who} controlled a card")
    return _capitalised(_control_sentence(who, action.data, components))


def abandon_sentence(action: Action, names: Sequence[str], components: Components) -> str:
    return _capitalised(f"{seat_name(names, action.actor)} abandoned the game")


def labels(components: Components) -> dict[str, str]:
    """Words for the statuses and the ways a game ends, which the boards and results show
    (spec §7); the cards' and suits' printed names come from the edition itself."""
    loses = components.court_count_that_loses
    return {
        "awaiting_setup": "waiting for the deal", "in_progress": "in progress",
        "won": "won", "lost": "lost", "lost_utterly": "lost utterly",
        "all_personalities_controlled": "every personality controlled",
        "no_legal_move": "no legal move left", "abandoned": "abandoned",
        "court_overflow": f"a {ordinal(loses)} personality reached the court",
    }


def game_over(state: State, components: Components) -> str:
    """The refusal of any move once the game is over, saying how the player fared."""
    words = labels(components)
    return (f"the game is over: {seat_name(state.names, 0)} "
            f"{words.get(state.status, state.status)}")
