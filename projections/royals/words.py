"""Royals: everything a person reads: the labels of components, the phrases refusals are
made of, and the sentence a player would say for each recorded action (`<type>_sentence`).

Every label comes from the edition (`Components`): printed names where the game prints one,
and for the pieces that carry only a number (scoring tokens) what a player sees on them. The
rules' refusals, the sentences of the log and chance-slot labels are built from the same
phrases, so a piece is called the same everywhere.

A sentence is shown to every viewer of the log, so it tells only what the table saw (spec
§7): the cards taken from the display, paid, discarded and turned up are public; the cards
drawn from the deck or the intrigue pile are counted, never named. Stored events are well
formed, but a correction may carry anything, so every field is read defensively.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from ..messages import M, Message, Mn, Seq, capitalised
from ..rules import Action, seat_name
from .edition import Components, Marker, Portrait, intrigue_id, intrigue_pair

#: words of the spec's event and view vocabulary (spec §5.1 kinds and sources, §7 phases,
#: marker kinds), for the places that show such a value
VOCABULARY = {
    "country": M("country card"), "intrigue": M("intrigue card"),
    "display": M("the display"), "deck": M("the deck"),
    "awaiting_setup": M("waiting for the setup"), "draw": M("drawing"), "play": M("playing"),
    "over": M("game over"), "period_3_scored": M("the third period was scored"),
    "city": M("city bonus"), "shield": M("country shield"), "noble_house": M("noble house disc"),
    "period": M("period token"), "title": M("title tile"), "title_half": M("half title tile"),
    "period3_finish_round": M("finish the round after period 3"),
    "edition_arcane_wonders_deck": M("the Arcane Wonders deck"),
    # the result's breakdown (scoring.py), as the score tables name its rows
    "titles": M("titles"), "total": M("total"), "largest_marker": M("largest marker"),
}
#: what a person reads for the options of game_created (spec §9 ruling 5, §2): the form
#: that creates a game and `chronicle new --help`
OPTION_LABELS = {"variants": M("variants"),
                 **{k: VOCABULARY[k] for k in ("period3_finish_round",
                                               "edition_arcane_wonders_deck")}}
#: the cube colours (spec §2), as a sentence names them ("Ann plays black")
COLOURS = {"black": M("black"), "white": M("white"), "grey": M("grey"), "purple": M("purple"),
           "orange": M("orange")}


def colour_word(colour: str) -> str:
    return COLOURS.get(colour, colour)


def marker_id(kind: str, key: str) -> str:
    """One id per scoring token, whatever its kind: "city:paris", "noble_house:0"."""
    return f"{kind}:{key}"


def labels(components: Components) -> dict[str, str]:
    """Component id -> label for everything a Royals view, legal action or slot names (the
    rules object adds the edition's own `labels`, which win)."""
    out: dict[str, str] = dict(VOCABULARY)
    out["royals"] = components.name
    out.update(components.country_names)
    out.update({t: str(name) for t, name in components.title_names.items()})
    out.update({c: str(name) for c, name in components.city_names.items()})
    out.update({p.id: portrait_label(components, p) for p in components.portraits})
    out.update({card: intrigue_label(components, card) for card in components.intrigue_cards})
    out.update({colour: capitalised(colour_word(colour)) for colour in components.cube_counts})
    for period in components.periods:
        year = components.period_years.get(period)
        out[f"period:{period}"] = str(year) if year else M("Period {period}", period=period)
    for marker in every_marker(components):
        text = marker_label(components, marker)
        out[marker_id(marker.kind, marker.key)] = text
        if marker.kind in ("shield", "period"):
            out[marker.key] = text  # their keys name no other piece: the bare key as well
    return out


def every_marker(components: Components) -> list[Marker]:
    """Every scoring token any player count puts on the board (spec §2 "Markers")."""
    markers = [components.city_marker(c) for c in components.cities]
    markers += [m for k in components.countries for m in components.shields(k)]
    counts = components.disc_values
    widest = max(counts, key=lambda n: len(counts[n]))
    markers += list(components.discs(int(widest)))
    for period in components.periods:
        for country in components.countries:
            high, low = components.period_markers(period, country)
            markers += [Marker("period", f"{period}:{country}:high", high),
                        Marker("period", f"{period}:{country}:low", low)]
    for title in components.titles:
        full, half = components.tile_values(title)
        markers += [Marker("title", title, full), Marker("title_half", title, half)]
    return markers


def portrait_label(components: Components, portrait: Portrait) -> str:
    """ "Paris — King": the city and the title printed on the space."""
    return M("{city} — {title}", city=components.city_names[portrait.city],
             title=title_name(components, portrait.title))


def portrait_phrase(components: Components, portrait: Portrait) -> str:
    """ "the King in Paris": the portrait in a sentence."""
    return M("the {title} in {city}", title=title_name(components, portrait.title),
             city=components.city_names[portrait.city])


def title_name(components: Components, title: str) -> str:
    return components.title_names.get(title, title.replace("_", " "))


def country_name(components: Components, country: str) -> str:
    return components.country_names.get(country, country.replace("_", " "))


def intrigue_label(components: Components, card: str) -> str:
    """ "Britain/Spain": an intrigue card shows its two countries."""
    return Seq((country_name(components, c) for c in intrigue_pair(card)), "slash")


def marker_label(components: Components, marker: Marker) -> str:
    """What a player sees on a scoring token: where it lies and the number printed on it.

    A noble house disc's number depends on the player count (spec §2: 16/12/8 in play by
    count), so its label names the disc and a board shows its value beside it.
    """
    kind, key, value = marker.kind, marker.key, marker.value
    if kind == "city":
        return M("{city} city bonus: {value}", city=components.city_names[key], value=value)
    if kind == "shield":
        country, index = key.rsplit(":", 1)
        shield = M("{country} shield (higher): {value}") if index == "0" else \
            M("{country} shield (lower): {value}")
        return Message(shield.key, {"country": country_name(components, country),
                                    "value": value})
    if kind == "noble_house":
        return M("Noble house disc")
    if kind == "period":
        period, country, level = key.split(":")
        year = components.period_years.get(int(period)) or M("period {period}", period=period)
        token = M("{country} (high) token for {year}: {value}") if level == "high" else \
            M("{country} (low) token for {year}: {value}")
        return Message(token.key, {"country": country_name(components, country),
                                   "year": str(year) if isinstance(year, int) else year,
                                   "value": value})
    if kind == "title":
        return M("{title} tile: {value}", title=title_name(components, key), value=value)
    return M("Half of the {title} tile: {value}", title=title_name(components, key), value=value)


# ---------------------------------------------------------------------------
# Phrases for sentences
# ---------------------------------------------------------------------------


def cards_phrase(components: Components, cards: Iterable[str]) -> str:
    """ "2 Spain and 3 France cards", "1 Spain card", "no card": country cards by country."""
    counts = Counter(cards)
    total = sum(counts.values())
    if not total:
        return M("no card")
    parts = Seq(M("{count} {country}", count=n, country=country_name(components, c))
                for c, n in _by_count(counts))
    return Mn("{cards} card", "{cards} cards", total, cards=parts)


def intrigues_phrase(components: Components, cards: Iterable[str]) -> str:
    """ "1 intrigue card (Britain/Spain)", "2 intrigue cards (Britain/Spain and France/Spain)"."""
    cards = list(cards)
    if not cards:
        return M("no intrigue card")
    counts = Counter(cards)
    parts = Seq(intrigue_label(components, c) if n == 1 else
                M("{count} {intrigue}", count=n, intrigue=intrigue_label(components, c))
                for c, n in _by_count(counts))
    return Mn("{count} intrigue card ({cards})", "{count} intrigue cards ({cards})", len(cards),
              cards=parts)


def country_list(components: Components, cards: Iterable[str]) -> str:
    """ "France, France and Spain": cards in the order turned up."""
    return Seq(country_name(components, c) for c in cards)


def _by_count(counts: Mapping[str, int]) -> list[tuple[str, int]]:
    return sorted(counts.items(), key=lambda item: (-item[1], item[0]))


def shown(value: Any) -> str:
    """A value someone sent, for a refusal that quotes it: words, never a Python repr."""
    if isinstance(value, str):
        return f"“{value.replace('_', ' ')}”"
    if isinstance(value, Sequence) and not isinstance(value, str | bytes):
        return "“" + " and ".join(str(v).replace("_", " ") for v in value) + "”"
    if value is None:
        return M("nothing")
    return f"“{value}”"


def capital(text: str) -> str:
    """The text with its first letter a capital, to open a refusal."""
    opened: str = capitalised(text)
    return opened


def draw_counts(country: int, intrigue: int) -> str:
    """ "3 country cards and no intrigue card": the two counts of a draw in words."""
    return M("{country} and {intrigue}",
             country=Mn("{count} country card", "{count} country cards", country) if country
             else M("no country card"),
             intrigue=Mn("{count} intrigue card", "{count} intrigue cards", intrigue) if intrigue
             else M("no intrigue card"))


def intrigue_offer(offered: int, showing: int, country: str) -> str:
    """ "1 card, none showing Spain" (the spec's words), "no intrigue card"."""
    if not offered:
        return M("no intrigue card")
    return M("{cards}, {showing} showing {country}",
             cards=Mn("{count} card", "{count} cards", offered),
             showing=showing or M("none"), country=country)


def country_offer(offered: int, matching: int, country: str) -> str:
    """ "5 cards, 3 of them Spain", "1 card (not a Spain card)": what a payment held."""
    if offered == 0:
        return M("no card")
    if offered == 1:
        return M("1 card (a {country} card)", country=country) if matching else \
            M("1 card (not a {country} card)", country=country)
    if not matching:
        return M("{count} cards, none of them {country}", count=offered, country=country)
    if matching == offered:
        return M("{count} cards, all of them {country}", count=offered, country=country)
    return M("{count} cards, {share} of them {country}", count=offered, share=matching,
             country=country)


# ---------------------------------------------------------------------------
# The sentence of each action
# ---------------------------------------------------------------------------


def _said(action: Action, names: Sequence[str],
          speak: Callable[[Components, str, Mapping[str, Any], Sequence[str]], str],
          components: Components) -> str:
    """The sentence a player would say for `action`: naming the actor and every piece by its
    label, and telling only what the table saw (spec §7)."""
    who = seat_name(names, action.actor)
    data = action.data if isinstance(action.data, Mapping) else {}
    return _sentence_start(speak(components, who, data, names))


def setup_sentence(action: Action, names: Sequence[str], components: Components) -> str:
    """ "The table set up the game: Ann plays black and Bo white; Bo starts; ..."."""
    return _said(action, names, _setup, components)


def draw_cards_sentence(action: Action, names: Sequence[str], components: Components) -> str:
    """ "Ann drew 3 country cards: Spain from the display and 2 from the deck"."""
    return _said(action, names, _draw, components)


def claim_noble_sentence(action: Action, names: Sequence[str], components: Components) -> str:
    """ "Ann claimed the Duke in Valencia, paying 4 Spain cards"."""
    return _said(action, names, _claim, components)


def usurp_noble_sentence(action: Action, names: Sequence[str], components: Components) -> str:
    """ "Ann usurped the King in Madrid, paying 8 Spain cards and 2 intrigue cards (...)"."""
    return _said(action, names, _usurp, components)


def end_turn_sentence(action: Action, names: Sequence[str], components: Components) -> str:
    """ "Ann ended the turn, discarding 1 France card; Spain was turned face up ..."."""
    return _said(action, names, _end_turn, components)


def _setup(components: Components, who: str, data: Mapping[str, Any],
           names: Sequence[str]) -> str:
    colours = _strings(data.get("colours"))
    parts = [M("{player} plays {colour}", player=seat_name(names, seat),
               colour=colour_word(colour)) if seat == 0
             else M("{player} {colour}", player=seat_name(names, seat), colour=colour_word(colour))
             for seat, colour in enumerate(colours)]
    text = M("{player} set up the game", player=who)
    if parts:
        text = M("{text}: {parts}", text=text, parts=Seq(parts))
    start = data.get("start_player")
    if isinstance(start, int) and not isinstance(start, bool):
        text = M("{text}; {player} starts", text=text, player=seat_name(names, start))
    display = [c for c in _strings(data.get("display")) if c in components.country_names]
    if display:
        text = M("{text}; the display shows {cards}", text=text,
                 cards=country_list(components, display))
    return text


def _draw(components: Components, who: str, data: Mapping[str, Any],
          names: Sequence[str]) -> str:
    draws = [d for d in _items(data.get("draws")) if isinstance(d, Mapping)]
    country = [d for d in draws if d.get("kind") == "country"]
    intrigue = len(draws) - len(country)
    face_up = [str(d.get("card")) for d in country if d.get("source") == "display"
             and d.get("card") in components.country_names]
    hidden = len(country) - len(face_up)
    cards = Mn("{count} country card", "{count} country cards", len(country))
    intrigues = Mn("{count} intrigue card", "{count} intrigue cards", intrigue)
    if not country:
        return M("{player} drew {cards}", player=who,
                 cards=intrigues if intrigue else M("no card"))
    if not hidden:
        text = M("{player} drew {cards} from the display ({shown})", player=who, cards=cards,
                 shown=country_list(components, face_up))
    elif not face_up:
        text = M("{player} drew {cards} from the deck", player=who, cards=cards)
    else:
        text = M("{player} drew {cards}: {shown} from the display and {hidden} from the deck",
                 player=who, cards=cards, shown=country_list(components, face_up), hidden=hidden)
    if intrigue and face_up and hidden:
        return M("{text}, and {intrigues}", text=text, intrigues=intrigues)
    if intrigue:
        return M("{text} and {intrigues}", text=text, intrigues=intrigues)
    return text


def _claim(components: Components, who: str, data: Mapping[str, Any],
           names: Sequence[str]) -> str:
    cards = cards_phrase(components, _strings(data.get("country_cards")))
    return M("{player} claimed {portrait}, paying {cards}", player=who,
             portrait=_portrait(components, data.get("portrait")), cards=cards)


def _usurp(components: Components, who: str, data: Mapping[str, Any],
           names: Sequence[str]) -> str:
    cards = cards_phrase(components, _strings(data.get("country_cards")))
    intrigues = _intrigues(components, data.get("intrigue_cards"))
    return M("{player} usurped {portrait}, paying {cards} and {intrigues}", player=who,
             portrait=_portrait(components, data.get("portrait")), cards=cards,
             intrigues=intrigues_phrase(components, intrigues))


def _end_turn(components: Components, who: str, data: Mapping[str, Any],
              names: Sequence[str]) -> str:
    country = [c for c in _strings(data.get("discard_country")) if c in components.country_names]
    intrigues = _intrigues(components, data.get("discard_intrigue"))
    gone = [cards_phrase(components, country)] if country else []
    gone += [intrigues_phrase(components, intrigues)] if intrigues else []
    text = M("{player} ended the turn", player=who)
    if gone:
        text = M("{text}, discarding {cards}", text=text, cards=Seq(gone))
    refill = [c for c in _strings(data.get("refill")) if c in components.country_names]
    if refill:
        text = Mn("{text}; {cards} was turned face up for the display",
                  "{text}; {cards} were turned face up for the display", len(refill), text=text,
                  cards=country_list(components, refill))
    return text


def _portrait(components: Components, portrait: Any) -> str:
    if isinstance(portrait, str) and portrait in components.portrait_index:
        return portrait_phrase(components, components.portrait(portrait))
    return M("a portrait that is not on the components")


def _intrigues(components: Components, cards: Any) -> list[str]:
    ids = [intrigue_id(c) for c in _items(cards)]
    return [c for c in ids if c is not None and c in components.intrigue_cards]


def _items(value: Any) -> list[Any]:
    return list(value) if isinstance(value, list | tuple) else []


def _strings(value: Any) -> list[str]:
    return [v for v in _items(value) if isinstance(v, str)]


def _sentence_start(text: str) -> str:
    """ "The table set up...": a sentence opening with "the table" starts with a capital;
    a player's name stays as the player wrote it."""
    return capitalised(text) if text.startswith("the ") else text
