"""Royals: the sentence a player would say for each recorded action (`Royals.describe`).

Shown to every viewer of the log, so a sentence tells only what the table saw (spec §7): the
cards taken from the display, paid, discarded and turned up are public; the cards drawn from
the deck or the intrigue pile are counted, never named. Stored events are well formed, but a
correction may carry anything, so every field is read defensively.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ..rules import Action, plural, seat_name, words_list
from . import words
from .edition import Board
from .model import intrigue_id


def describe(board: Board, action: Action, names: Sequence[str]) -> str:
    who = seat_name(names, action.actor)
    data = action.data if isinstance(action.data, Mapping) else {}
    speak = {"setup": _setup, "draw_cards": _draw, "claim_noble": _claim,
             "usurp_noble": _usurp, "end_turn": _end_turn}.get(action.type)
    if speak is None:
        return f"{_capital(who)} made a move Royals does not know " \
               f"({str(action.type).replace('_', ' ')})"
    return _capital(speak(board, who, data, names))


def _setup(board: Board, who: str, data: Mapping[str, Any], names: Sequence[str]) -> str:
    colours = _strings(data.get("colours"))
    parts = [f"{seat_name(names, seat)} plays {colour}" if seat == 0
             else f"{seat_name(names, seat)} {colour}" for seat, colour in enumerate(colours)]
    text = f"{who} set up the game"
    if parts:
        text += f": {words_list(parts)}"
    start = data.get("start_player")
    if isinstance(start, int) and not isinstance(start, bool):
        text += f"; {seat_name(names, start)} starts"
    display = [c for c in _strings(data.get("display")) if c in board.country_names]
    if display:
        text += f"; the display shows {words.country_list(board, display)}"
    return text


def _draw(board: Board, who: str, data: Mapping[str, Any], names: Sequence[str]) -> str:
    draws = [d for d in _items(data.get("draws")) if isinstance(d, Mapping)]
    country = [d for d in draws if d.get("kind") == "country"]
    intrigue = len(draws) - len(country)
    shown = [str(d.get("card")) for d in country if d.get("source") == "display"
             and d.get("card") in board.country_names]
    hidden = len(country) - len(shown)
    cards = plural(len(country), "country card")
    if not country:
        text = f"{who} drew " + (plural(intrigue, "intrigue card") if intrigue else "no card")
        return text
    if not hidden:
        text = f"{who} drew {cards} from the display ({words.country_list(board, shown)})"
    elif not shown:
        text = f"{who} drew {cards} from the deck"
    else:
        text = (f"{who} drew {cards}: {words.country_list(board, shown)} from the display and "
                f"{hidden} from the deck")
    if intrigue:
        text += f"{',' if shown and hidden else ''} and {plural(intrigue, 'intrigue card')}"
    return text


def _claim(board: Board, who: str, data: Mapping[str, Any], names: Sequence[str]) -> str:
    cards = words.cards_phrase(board, _strings(data.get("country_cards")))
    return f"{who} claimed {_portrait(board, data.get('portrait'))}, paying {cards}"


def _usurp(board: Board, who: str, data: Mapping[str, Any], names: Sequence[str]) -> str:
    cards = words.cards_phrase(board, _strings(data.get("country_cards")))
    intrigues = _intrigues(board, data.get("intrigue_cards"))
    return (f"{who} usurped {_portrait(board, data.get('portrait'))}, paying {cards} and "
            f"{words.intrigues_phrase(board, intrigues)}")


def _end_turn(board: Board, who: str, data: Mapping[str, Any], names: Sequence[str]) -> str:
    country = [c for c in _strings(data.get("discard_country")) if c in board.country_names]
    intrigues = _intrigues(board, data.get("discard_intrigue"))
    gone = [words.cards_phrase(board, country)] if country else []
    gone += [words.intrigues_phrase(board, intrigues)] if intrigues else []
    text = f"{who} ended the turn"
    if gone:
        text += f", discarding {words_list(gone)}"
    refill = [c for c in _strings(data.get("refill")) if c in board.country_names]
    if refill:
        text += (f"; {words.country_list(board, refill)} "
                 f"{'was' if len(refill) == 1 else 'were'} turned face up for the display")
    return text


def _portrait(board: Board, portrait: Any) -> str:
    if isinstance(portrait, str) and portrait in board.portrait_index:
        return words.portrait_phrase(board, board.portrait(portrait))
    return "a portrait that is not on the board"


def _intrigues(board: Board, cards: Any) -> list[str]:
    ids = [intrigue_id(c) for c in _items(cards)]
    return [c for c in ids if c is not None and c in board.intrigue_cards]


def _items(value: Any) -> list[Any]:
    return list(value) if isinstance(value, list | tuple) else []


def _strings(value: Any) -> list[str]:
    return [v for v in _items(value) if isinstance(v, str)]


def _capital(text: str) -> str:
    """ "The table set up...": a sentence opening with "the table" starts with a capital;
    a player's name stays as the player wrote it."""
    return "T" + text[1:] if text.startswith("the ") else text
