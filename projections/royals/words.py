"""Royals: what a person reads for each component and the phrases sentences are made of.

Every label comes from the edition (`Board`): printed names where the game prints one, and
for the pieces that carry only a number (scoring tokens) what a player sees on them. The
rules' refusals, `describe()` sentences and chance-slot labels are built from the same
phrases, so a piece is called the same everywhere.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from ..rules import ordinal, plural, words_list
from .edition import Board
from .model import Marker, Portrait, intrigue_pair

#: words of the spec's event and view vocabulary (spec §5.1 kinds and sources, §7 phases,
#: marker kinds), for the places that show such a value
VOCABULARY = {
    "country": "country card", "intrigue": "intrigue card",
    "display": "the display", "deck": "the deck",
    "awaiting_setup": "waiting for the setup", "draw": "drawing", "play": "playing",
    "over": "game over", "period_3_scored": "the third period was scored",
    "city": "city bonus", "shield": "country shield", "noble_house": "noble house disc",
    "period": "period token", "title": "title tile", "title_half": "half title tile",
    "period3_finish_round": "finish the round after period 3",
    "edition_arcane_wonders_deck": "the Arcane Wonders deck",
}


def marker_id(kind: str, key: str) -> str:
    """One id per scoring token, whatever its kind: "city:paris", "noble_house:0"."""
    return f"{kind}:{key}"


def edition_labels(board: Board) -> dict[str, str]:
    """Component id -> label for everything a Royals view, legal action or slot names."""
    countries, titles = board.country_names, board.title_info
    out: dict[str, str] = dict(VOCABULARY)
    out["royals"] = str(board.edition.get("title", "Royals"))
    out.update(countries)
    out.update({t: str(info["name"]) for t, info in titles.items()})
    out.update({c: str(info["name"]) for c, info in board.city_info.items()})
    out.update({p.id: portrait_label(board, p) for p in board.portraits})
    out.update({card: intrigue_label(board, card) for card in board.intrigue_cards})
    out.update({colour: colour.capitalize() for colour in board.cube_counts})
    for period in board.periods:
        year = board.period_years.get(period)
        out[f"period:{period}"] = str(year) if year else f"Period {period}"  # as printed
    for marker in every_marker(board):
        text = marker_label(board, marker)
        out[marker_id(marker.kind, marker.key)] = text
        if marker.kind in ("shield", "period"):
            out[marker.key] = text  # their keys name no other piece: the bare key as well
    return out


def every_marker(board: Board) -> list[Marker]:
    """Every scoring token any player count puts on the board (spec §2 "Markers")."""
    markers = [board.city_marker(c) for c in board.cities]
    markers += [m for k in board.countries for m in board.shields(k)]
    counts = board.edition["noble_house_bonus"]["in_play_by_player_count"]
    widest = max(counts, key=lambda n: len(counts[n]))
    markers += list(board.discs(int(widest)))
    for period in board.periods:
        for country in board.countries:
            high, low = board.period_markers(period, country)
            markers += [Marker("period", f"{period}:{country}:high", high),
                        Marker("period", f"{period}:{country}:low", low)]
    for title in board.titles:
        full, half = board.tile_values(title)
        markers += [Marker("title", title, full), Marker("title_half", title, half)]
    return markers


def portrait_label(board: Board, portrait: Portrait) -> str:
    """ "Paris — King": the city and the title printed on the space."""
    return f"{board.city_info[portrait.city]['name']} — {title_name(board, portrait.title)}"


def portrait_phrase(board: Board, portrait: Portrait) -> str:
    """ "the King in Paris": the portrait in a sentence."""
    return f"the {title_name(board, portrait.title)} in {board.city_info[portrait.city]['name']}"


def title_name(board: Board, title: str) -> str:
    return str(board.title_info.get(title, {}).get("name", title.replace("_", " ")))


def country_name(board: Board, country: str) -> str:
    return board.country_names.get(country, country.replace("_", " "))


def intrigue_label(board: Board, card: str) -> str:
    """ "Britain/Spain": an intrigue card shows its two countries."""
    return "/".join(country_name(board, c) for c in intrigue_pair(card))


def marker_label(board: Board, marker: Marker) -> str:
    """What a player sees on a scoring token: where it lies and the number printed on it.

    A noble house disc's number depends on the player count (spec §2: 16/12/8 in play by
    count), so its label names the disc and a board shows its value beside it.
    """
    kind, key, value = marker.kind, marker.key, marker.value
    if kind == "city":
        return f"{board.city_info[key]['name']} city bonus: {value}"
    if kind == "shield":
        country, index = key.rsplit(":", 1)
        rank = "higher" if index == "0" else "lower"
        return f"{country_name(board, country)} shield ({rank}): {value}"
    if kind == "noble_house":
        return "Noble house disc"
    if kind == "period":
        period, country, level = key.split(":")
        year = board.period_years.get(int(period)) or f"period {period}"
        return f"{country_name(board, country)} ({level}) token for {year}: {value}"
    if kind == "title":
        return f"{title_name(board, key)} tile: {value}"
    return f"Half of the {title_name(board, key)} tile: {value}"


# ---------------------------------------------------------------------------
# Phrases for sentences
# ---------------------------------------------------------------------------


def cards_phrase(board: Board, cards: Iterable[str], what: str = "card") -> str:
    """ "2 Spain and 3 France cards", "1 Spain card", "no card": country cards by country."""
    counts = Counter(cards)
    total = sum(counts.values())
    if not total:
        return f"no {what}"
    parts = [f"{n} {country_name(board, c)}" for c, n in _by_count(counts)]
    return f"{words_list(parts)} {what if total == 1 else what + 's'}"


def intrigues_phrase(board: Board, cards: Iterable[str]) -> str:
    """ "1 intrigue card (Britain/Spain)", "2 intrigue cards (Britain/Spain and France/Spain)"."""
    cards = list(cards)
    if not cards:
        return "no intrigue card"
    counts = Counter(cards)
    parts = [intrigue_label(board, c) if n == 1 else f"{n} {intrigue_label(board, c)}"
             for c, n in _by_count(counts)]
    return f"{plural(len(cards), 'intrigue card')} ({words_list(parts)})"


def country_list(board: Board, cards: Iterable[str]) -> str:
    """ "France, France and Spain": cards in the order turned up."""
    return words_list(country_name(board, c) for c in cards)


def _by_count(counts: Mapping[str, int]) -> list[tuple[str, int]]:
    return sorted(counts.items(), key=lambda item: (-item[1], item[0]))


def nth(n: int, several: bool) -> str:
    """ "1st " when there are several of a kind, "" for the only one."""
    return f"{ordinal(n)} " if several else ""


def shown(value: Any) -> str:
    """A value someone sent, for a refusal that quotes it: words, never a Python repr."""
    if isinstance(value, str):
        return f"“{value.replace('_', ' ')}”"
    if isinstance(value, Sequence) and not isinstance(value, str | bytes):
        return "“" + " and ".join(str(v).replace("_", " ") for v in value) + "”"
    if value is None:
        return "nothing"
    return f"“{value}”"
