"""Royals' table in the terminal: the map of Europe country by country (each city's bonus
token, its portrait spaces with the cube of whoever holds them, its cathedral), the
country tokens still on the board, the title tiles, the display and each player's holdings.

Drawn from the JSON view only; the geography (which city lies in which country, which title
a portrait space carries) is read from the default edition, and an id that edition does not
know is still shown, by its label, under "Other cities".
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import cache
from typing import Any

from rich import box
from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from projections import get_rules
from projections.messages import M, Message

from . import BoardContext

#: the cube colours of the edition, as a terminal can show them on a dark or light background
CUBE_STYLES = {"black": "bold grey0 on grey70", "white": "bold bright_white on grey35",
               "grey": "bold grey58", "purple": "bold medium_purple2", "orange": "bold orange1"}
#: the map colours of the countries (royals.json `countries[].map_colour`)
MAP_STYLES = {"blue": "blue", "green": "green", "red": "red", "yellow": "yellow3"}
CUBE = "■"
TIMES = "\N{MULTIPLICATION SIGN}"
PHASES = {"awaiting_setup": M("waiting for the setup"), "draw": M("to draw"),
          "play": M("to claim, usurp or end the turn"), "over": M("game over")}


@cache
def _geography() -> tuple[dict[str, list[str]], dict[str, str], dict[str, str], dict[int, str]]:
    """(country -> cities, country -> map colour, portrait -> title, period -> year)."""
    edition = get_rules("royals").edition
    cities: dict[str, list[str]] = {k["id"]: [] for k in edition["countries"]}
    for city in edition["cities"]:
        cities.setdefault(city["country"], []).append(city["id"])
    colours = {k["id"]: str(k.get("map_colour", "")) for k in edition["countries"]}
    titles = {p["id"]: p["title"] for c in edition["cities"] for p in c["portraits"]}
    years = {int(p["number"]): str(p.get("year") or M("period {period}", period=p["number"]))
             for p in edition["period_scoring"]["periods"]}
    return cities, colours, titles, years


class _Seats:
    """Names and cube colours of the seats, as the view records them."""

    def __init__(self, view: Mapping[str, Any], ctx: BoardContext) -> None:
        self.ctx = ctx
        self.colours = [str(c) for c in view.get("colours") or ()]

    def cube(self, seat: int, count: int | None = None) -> Text:
        colour = self.colours[seat] if 0 <= seat < len(self.colours) else ""
        text = Text(CUBE, style=CUBE_STYLES.get(colour, self.ctx.seat_style(seat)))
        text.append(f" {self.ctx.name(seat)}")
        if count is not None and count > 1:
            text.append(f" {TIMES}{count}")
        return text


def board(view: dict[str, Any], ctx: BoardContext) -> RenderableType:
    if not isinstance(view.get("portraits"), Mapping):
        # not a Royals view (an older shape, a bad file): cli.render shows it as data
        raise KeyError("portraits")
    seats = _Seats(view, ctx)
    parts: list[RenderableType] = [_header(view, ctx, seats), _display(view, ctx)]
    if ctx.compact:
        parts += [_map_lines(view, ctx, seats), _players(view, ctx, seats)]
        return Group(*parts)
    parts += _map(view, ctx, seats)
    parts += [_titles(view, ctx, seats), _players(view, ctx, seats)]
    return Group(*parts)


def _map_lines(view: Mapping[str, Any], ctx: BoardContext, seats: _Seats) -> Text:
    """The map in a line per country (the compact board): whose cubes hold its portraits."""
    cities_of, colours, titles, _ = _geography()
    portraits = view.get("portraits") or {}
    every_city = {c: None for cs in cities_of.values() for c in cs}
    text = Text()
    for country, members in cities_of.items():
        spaces = [p for p in portraits if _city_of(p, titles, every_city) in members]
        held: dict[int, int] = {}
        for p in spaces:
            if isinstance(portraits[p], int):
                held[portraits[p]] = held.get(portraits[p], 0) + 1
        if text:
            text.append("\n")
        text.append(f"{ctx.label(country)}: ", style=_map_style(colours, country) + " bold")
        text.append(f"{sum(held.values())} of {len(spaces)} portraits held")
        for seat, n in sorted(held.items()):
            text.append(" · ")
            text.append_text(seats.cube(seat, n))
    return text


# ---------------------------------------------------------------------------
# Header and display
# ---------------------------------------------------------------------------


def _header(view: Mapping[str, Any], ctx: BoardContext, seats: _Seats) -> Text:
    period, year = view.get("period"), view.get("year")
    say = ctx.say
    text = Text(say(M("Period {period} ({year})", period=period, year=year) if year
                    else M("Period {period}", period=period)), style="bold")
    text.append(say(M(" · round {round} · turn {turn}", round=view.get("round", "—"),
                      turn=view.get("turn", "—"))))
    phase = str(view.get("phase", ""))
    if phase == "over":
        text.append(say(M(" · the game is over")), style="bold")
    elif phase == "awaiting_setup":
        text.append(say(M(" · waiting for the setup")))
    elif isinstance(view.get("current"), int):
        text.append(" · ")
        text.append_text(seats.cube(view["current"]))
        text.append(f" {say(PHASES.get(phase, ''))}")
    if view.get("period_ended_this_turn"):
        text.append(say(M(" · the draw pile ran out: the period is scored at the end of this "
                          "turn")))
    if view.get("final_round"):
        text.append(say(M(" · period 3 is over: the round is being finished")))
    text.append("\n")
    text.append(say(M("Draw pile {deck} · discards {discards} · intrigue pile {intrigues} · "
                      "intrigue discards {intrigue_discards}",
                      deck=_cards(view.get("deck_count")),
                      discards=_cards(view.get("discard_count")),
                      intrigues=_cards(view.get("intrigue_deck_count")),
                      intrigue_discards=_cards(len(view.get("intrigue_discard") or ())))),
                style="dim")
    return text


def _display(view: Mapping[str, Any], ctx: BoardContext) -> Text:
    _, colours, _, _ = _geography()
    text = Text(ctx.say(M("Display: ")), style="bold")
    cards = list(view.get("display") or ())
    if not cards:
        text.append(ctx.say(M("empty")), style="dim")
    for i, card in enumerate(cards):
        text.append(" " if i else "")
        text.append(f" {ctx.label(card)} ", style=f"reverse {_map_style(colours, card)}")
    return text


# ---------------------------------------------------------------------------
# The map
# ---------------------------------------------------------------------------


def _map(view: Mapping[str, Any], ctx: BoardContext, seats: _Seats) -> list[RenderableType]:
    cities_of, _, titles, _ = _geography()
    portraits = view.get("portraits") or {}
    cathedrals = view.get("cathedrals") or {}
    by_city: dict[str, list[str]] = {}
    for portrait in portraits:
        by_city.setdefault(_city_of(portrait, titles, cathedrals), []).append(portrait)
    known = [c for cs in cities_of.values() for c in cs]
    others = sorted({*by_city, *cathedrals} - set(known))
    groups = [(k, [c for c in cs if c in by_city or c in cathedrals])
              for k, cs in cities_of.items()] + [("", others)]
    markers = view.get("board_markers") or {}
    panels: list[RenderableType] = [_country(view, ctx, seats, k, cities, by_city, markers)
                                    for k, cities in groups if cities]
    if ctx.width >= 110 and len(panels) > 1:
        grid = Table.grid(expand=True, padding=(0, 1))
        grid.add_column(ratio=1)
        grid.add_column(ratio=1)
        for i in range(0, len(panels), 2):
            grid.add_row(*panels[i:i + 2], *([""] if i + 1 == len(panels) else []))
        return [grid]
    return panels


def _city_of(portrait: str, titles: Mapping[str, str], cities: Mapping[str, Any]) -> str:
    """The city of a portrait space: `<city>_<title>` (spec §2)."""
    title = titles.get(portrait)
    if title and portrait.endswith("_" + title):
        return portrait[: -len(title) - 1]
    return next((c for c in cities if portrait.startswith(c + "_")), "")


def _country(view: Mapping[str, Any], ctx: BoardContext, seats: _Seats, country: str,
             cities: Sequence[str], by_city: Mapping[str, list[str]],
             markers: Mapping[str, Any]) -> Panel:
    _, colours, titles, _ = _geography()
    portraits = view.get("portraits") or {}
    cathedrals = view.get("cathedrals") or {}
    city_bonus = {m.get("key"): m.get("value") for m in markers.get("city") or ()
                  if isinstance(m, Mapping)}
    table = Table(box=box.SIMPLE_HEAD, expand=True, pad_edge=False, show_edge=False)
    table.add_column(ctx.say(M("City")), ratio=3)
    table.add_column(ctx.say(M("Bonus")), justify="right", min_width=5, no_wrap=True)
    table.add_column(ctx.say(M("Portraits")), ratio=6)
    table.add_column(ctx.say(M("Cathedral")), ratio=3)
    for city in cities:
        spaces = Text()
        for i, portrait in enumerate(by_city.get(city, ())):
            if i:
                spaces.append("\n")
            title = titles.get(portrait)
            spaces.append(f"{ctx.label(title) if title else ctx.label(portrait)} ", style="bold")
            holder = portraits.get(portrait)
            spaces.append_text(seats.cube(holder) if isinstance(holder, int)
                               else Text(ctx.say(M("vacant")), style="dim"))
        buried = Text()
        for seat, count in enumerate(cathedrals.get(city) or ()):
            if count:
                buried.append("\n" if buried else "")
                buried.append_text(seats.cube(seat, count))
        bonus = city_bonus.get(city)
        table.add_row(ctx.label(city), str(bonus) if bonus is not None else
                      Text(ctx.say(M("taken")), style="dim"),
                      spaces, buried or Text("—", style="dim"))
    style = _map_style(colours, country)
    name = ctx.label(country) if country else ctx.say(M("Other cities"))
    return Panel(Group(table, _country_tokens(view, ctx, country, markers)),
                 title=Text(name, style=f"bold {style}"), title_align="left",
                 border_style=style, padding=(0, 1))


def _year(period: Any, years: Mapping[int, str]) -> str:
    """The year a period token shows ("period" for one this edition does not number)."""
    return years.get(period, M("period")) if isinstance(period, int) else M("period")


def _country_tokens(view: Mapping[str, Any], ctx: BoardContext, country: str,
                    markers: Mapping[str, Any]) -> Text:
    """The shields and period tokens of a country still on the board (spec §2 "Markers")."""
    shields = [str(m.get("value")) for m in markers.get("shield") or ()
               if isinstance(m, Mapping) and str(m.get("key", "")).startswith(country + ":")]
    years = _geography()[3]
    periods = [f"{ctx.say(_year(p.get('period'), years))} {p.get('high')}/{p.get('low')}"
               for p in markers.get("period") or ()
               if isinstance(p, Mapping) and p.get("country") == country]
    text = Text(ctx.say(M("Shields ")), style="dim")
    text.append(" · ".join(shields) or ctx.say(M("all taken")))
    text.append(ctx.say(M("   Period tokens (high/low) ")), style="dim")
    text.append(", ".join(periods) or ctx.say(M("none left")))
    return text


# ---------------------------------------------------------------------------
# Title tiles and players
# ---------------------------------------------------------------------------


def _titles(view: Mapping[str, Any], ctx: BoardContext, seats: _Seats) -> RenderableType:
    tiles = view.get("title_tiles") or {}
    values = {t.get("title"): t for t in (view.get("board_markers") or {}).get("title") or ()
              if isinstance(t, Mapping)}
    table = Table(title=ctx.say(M("Title tiles")), title_justify="left", box=box.SIMPLE_HEAD,
                  expand=True, show_edge=False, pad_edge=False)
    table.add_column(ctx.say(M("Title")), ratio=2)
    table.add_column(ctx.say(M("Worth")), ratio=2)
    table.add_column(ctx.say(M("Cubes on the tile")), ratio=7)
    for title, row in tiles.items():
        cubes = Text()
        for seat, count in enumerate(row or ()):
            if count:
                cubes.append("  " if cubes else "")
                cubes.append_text(seats.cube(seat))
                cubes.append(f" {count}")
        tile = values.get(title)
        worth = ctx.say(M("{full}, half {half}", full=tile.get("full"), half=tile.get("half"))
                        if tile else M("scored"))
        table.add_row(ctx.label(title), worth, cubes or Text(ctx.say(M("no cube")), style="dim"))
    discs = [str(m.get("value")) for m in (view.get("board_markers") or {}).get("noble_house")
             or () if isinstance(m, Mapping)]
    # not anyone's yet: each goes to the next player with a cube on every title tile
    note = Text(ctx.say(M("Noble house discs not yet won (for a cube on every title tile): ")),
                style="dim")
    note.append(", ".join(discs) or ctx.say(M("none")))
    return Group(table, note)


def _players(view: Mapping[str, Any], ctx: BoardContext, seats: _Seats) -> RenderableType:
    hands = view.get("hands") or []
    scores = view.get("scores") or []
    supply = view.get("supply") or []
    holdings = view.get("holdings") or []
    winners = set((view.get("result") or {}).get("winners") or ())
    say = ctx.say
    table = Table(title=say(M("Players")), title_justify="left", box=box.SIMPLE_HEAD,
                  expand=True, show_edge=False, pad_edge=False)
    table.add_column(say(M("Player")), ratio=2)
    table.add_column(say(M("Score")), justify="right", min_width=5, no_wrap=True)
    table.add_column(say(M("Cubes")), justify="right", min_width=5, no_wrap=True)
    table.add_column(say(M("Hand")), ratio=5)
    won = []
    for seat in range(len(hands)):
        who = seats.cube(seat)
        if seat in winners:
            who.append(say(M(" ★ wins")), style="bold")
        hand = hands[seat] if isinstance(hands[seat], Mapping) else {}
        table.add_row(who, _at(scores, seat), _at(supply, seat), _hand(hand, ctx))
        line = Text.assemble(seats.cube(seat), (say(M(" has won ")), "dim"))
        line.append_text(_tokens(holdings[seat] if seat < len(holdings) else (), ctx))
        won.append(line)
    if ctx.compact:
        return table
    return Group(table, Text(say(M("Tokens won")), style="bold"), *won)


def _hand(hand: Mapping[str, Any], ctx: BoardContext) -> Text:
    country, intrigue = hand.get("country"), hand.get("intrigue")
    if not isinstance(country, Mapping):
        return Text(ctx.say(M("{country} and {intrigue}, face down",
                              country=_cards(hand.get("country_count"), "country"),
                              intrigue=_cards(hand.get("intrigue_count"), "intrigue"))))
    cards = ", ".join(f"{ctx.label(c)} {TIMES}{n}" for c, n in sorted(country.items())) or \
        ctx.say(M("no country card"))
    text = Text(cards)
    pairs = ["/".join(ctx.label(c) for c in pair) for pair in intrigue or ()]
    text.append(ctx.say(M(" · intrigue: ")), style="dim")
    text.append(", ".join(pairs) or ctx.say(M("none")))
    return text


def _tokens(markers: Sequence[Any], ctx: BoardContext) -> Text:
    """A player's tokens by kind, each named by where it lay (spec §2 "Markers"):
    "city bonuses Lyon 2, Paris 5; 1648 tokens France 6 (high); shields Britain 6"."""
    groups: dict[str, list[str]] = {}
    for marker in markers:
        if not isinstance(marker, Mapping):
            continue
        kind, key, value = str(marker.get("kind")), str(marker.get("key")), marker.get("value")
        if kind == "period":
            period, country, _ = ([*key.split(":"), "", "", ""])[:3]
            year = _geography()[3].get(int(period)) if period.isdigit() else None
            group = ctx.say(M("{year} tokens", year=year or M("period")))
            entry = f"{ctx.label(country)} {value}"
        elif kind == "shield":
            group, entry = ctx.say(M("shields")), f"{ctx.label(key.split(':')[0])} {value}"
        elif kind == "noble_house":
            group, entry = ctx.say(M("noble house disc")), str(value)
        else:
            group = ctx.say({"city": M("city bonuses"), "title": M("title tiles"),
                             "title_half": M("half title tiles")}.get(kind, M("tokens")))
            entry = f"{ctx.label(key)} {value}"
        groups.setdefault(group, []).append(entry)
    if not groups:
        return Text(ctx.say(M("no token yet")), style="dim")
    text = Text()
    for group, entries in groups.items():
        text.append("; " if text else "")
        text.append(f"{group} ", style="dim")
        text.append(", ".join(entries))
    return text


def _cards(count: Any, what: str = "card") -> Message:
    """ "3 cards", "no intrigue card": a pile's count in words (`what`: card, country,
    intrigue)."""
    kinds = {"card": (M("no card"), "{count} card", "{count} cards"),
             "country": (M("no country card"), "{count} country card", "{count} country cards"),
             "intrigue": (M("no intrigue card"), "{count} intrigue card",
                          "{count} intrigue cards")}
    none, one, many = kinds[what]
    if not isinstance(count, int):
        return none
    return Message(one, {"count": count}, plural=many)


def _at(values: Sequence[Any], seat: int) -> str:
    return str(values[seat]) if seat < len(values) and values[seat] is not None else "—"


def _map_style(colours: Mapping[str, str], country: str) -> str:
    return MAP_STYLES.get(colours.get(country, ""), "white")
