"""In the Shadow of the Emperor in the terminal: the round and the Emperor, what the game
waits for, the seven electorates (elector, aristocrat spaces, castle, cities, influence), the
players' supplies and cards, and the card display.

Sentences come from `projections.in_the_shadow_of_the_emperor.words`, so the terminal, the web
page and the event list say the same thing; names and labels come from the context.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from rich.columns import Columns
from rich.console import Console, ConsoleOptions, Group, RenderableType, RenderResult
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from projections import get_rules
from projections.in_the_shadow_of_the_emperor.words import (
    Words,
    decision_sentence,
    election_sentence,
    last_election_sentence,
    phase_numeral,
    vp_sentence,
)
from projections.messages import M, Mn, Name, Seq
from projections.rules import possessive

from ..wrap import breakable
from . import BoardContext

SLUG = "in_the_shadow_of_the_emperor"
EMPIRE_STYLE = "bold white on purple"


def _labels(ctx: BoardContext) -> Mapping[str, str]:
    """The context's labels, or the default edition's when a caller passed none."""
    return ctx.labels or get_rules(SLUG).labels()


def _seat(seat: Any, ctx: BoardContext) -> Text:
    if isinstance(seat, int) and not isinstance(seat, bool):
        return Text(ctx.name(seat), style=ctx.seat_style(seat))
    return Text(ctx.name(seat))


def _tile(tile: Any, w: Words, ctx: BoardContext) -> Text:
    """ "Anna's couple 35" in Anna's colour; "empty" for no tile."""
    if not isinstance(tile, Mapping):
        return Text(ctx.say(M("empty")), style="dim")
    text = _whose(tile.get("owner"), ctx)
    side, age = tile.get("side"), tile.get("age")
    shown = M(" single {age}", age=age) if side == "single" else \
        M(" couple {age}", age=age) if side == "couple" else \
        M(" {side} {age}", side=str(w.label(side)).lower(), age=age)
    text.append(ctx.say(shown))
    return text


def _whose(seat: Any, ctx: BoardContext) -> Text:
    style = ctx.seat_style(seat) if isinstance(seat, int) and not isinstance(seat, bool) else ""
    return Text(ctx.say(possessive(ctx.name(seat))), style=style)


def _joined(parts: Sequence[Text], ctx: BoardContext, empty: str = M("none")) -> Text:
    if not parts:
        return Text(ctx.say(empty), style="dim")
    out = Text()
    comma = ctx.say(M(", "))
    for i, part in enumerate(parts):
        if i:
            out.append(comma)
        out.append_text(part)
    return out


def _knight(seat: Any, ctx: BoardContext) -> Text:
    return _owned(seat, ctx, M("{whose} knight", whose=possessive(ctx.name(seat))))


def _city(owner: Any, ctx: BoardContext) -> Text:
    if owner == "empire":
        return Text(ctx.say(M("empire city")), style=EMPIRE_STYLE)
    return _owned(owner, ctx, M("{whose} city", whose=possessive(ctx.name(owner))))


def _owned(seat: Any, ctx: BoardContext, words: str) -> Text:
    """ "Anna's knight" in Anna's colour."""
    style = ctx.seat_style(seat) if isinstance(seat, int) and not isinstance(seat, bool) else ""
    return Text(ctx.say(words), style=style)


def _line(head: str, body: Text, ctx: BoardContext) -> Text:
    return Text(ctx.say(M("{head}: ", head=head)), style="bold").append_text(body)


def _spaces(head: str, used: int, total: Any) -> str:
    return M("{head} {used} of {total}", head=head, used=used, total=total) \
        if isinstance(total, int) else head


def _electorate(e: Mapping[str, Any], w: Words, ctx: BoardContext, width: int) -> Panel:
    court = [_tile(t, w, ctx) for t in e.get("court") or []]
    court += [_knight(k, ctx) for k in e.get("court_knights") or []]
    castles = [_knight(k, ctx) for k in e.get("castle_knights") or []]
    cities = [_city(c, ctx) for c in e.get("cities") or []]
    influence = [_seat(s, ctx).append(f" {v}") for s, v in enumerate(e.get("influence") or [])
                 if v]
    say = ctx.say
    lines = [
        _line(M("Elector"), _tile(e.get("elector"), w, ctx), ctx),
        _line(_spaces(M("Aristocrats"), len(court), e.get("aristocrat_spaces")),
              _joined(court, ctx), ctx),
        _line(_spaces(M("Castle"), len(castles), e.get("castle_spaces")), _joined(castles, ctx),
              ctx)
        if e.get("castle_spaces") else Text(say(M("No castle space")), style="dim"),
        _line(_spaces(M("Cities"), len(cities), e.get("city_spaces")), _joined(cities, ctx),
              ctx),
        _line(M("Influence"), _joined(influence, ctx, M("nobody yet")), ctx),
    ]
    if e.get("privilege_used"):
        lines.append(Text(say(M("Privilege used this round")), style="italic"))
    kind = M("archdiocese") if e.get("kind") == "spiritual" else M("secular")
    return Panel(Group(*(breakable(line, ctx.lang) for line in lines)),
                 title=Text(say(w.label(e.get("id"))), style="bold"),
                 subtitle=say(kind), title_align="left", width=width)


def _electorate_line(e: Mapping[str, Any], w: Words, ctx: BoardContext) -> Text:
    """An electorate in a line (the compact board): its elector, who has influence there,
    and how full its spaces are."""
    court = len(e.get("court") or []) + len(e.get("court_knights") or [])
    influence = [_seat(s, ctx).append(f" {v}") for s, v in enumerate(e.get("influence") or [])
                 if v]
    say = ctx.say
    line = Text(say(M("{head}: ", head=w.label(e.get("id")))), style="bold")
    line.append(say(M("elector "))).append_text(_tile(e.get("elector"), w, ctx))
    line.append(say(M(" · influence "))).append_text(_joined(influence, ctx, M("nobody yet")))
    aristocrats = _spaces(M("aristocrats"), court, e.get("aristocrat_spaces"))
    cities = _spaces(M("cities"), len(e.get("cities") or []), e.get("city_spaces"))
    line.append(say(M(" · {aristocrats} · {cities}", aristocrats=aristocrats, cities=cities)))
    return line


def _head(view: Mapping[str, Any], w: Words, ctx: BoardContext) -> Text:
    phase = view.get("phase")
    numeral = phase_numeral(phase)
    say = ctx.say
    text = Text(say(M("Round {round} of {rounds}", round=view.get("round"),
                      rounds=get_rules(SLUG).edition["rounds"])), style="bold")
    # the track prints the phase in Roman numerals; Chinese counts phases in digits (第4阶段)
    shown = Name(numeral, {"zh_Hans": str(phase)})
    text.append(say(M(" · Phase {numeral}: ", numeral=shown)) if numeral else " · ")
    text.append(say(w.label(view.get("phase_name"))))
    if view.get("status") == "awaiting_setup":
        return text
    text.append(say(M(" · Emperor: ")))
    text.append_text(_seat(view.get("emperor"), ctx))
    throne = view.get("throne")
    text.append(say(M(" · Throne: ")))
    text.append(say(w.kind(throne.get("side"), throne.get("age")) if isinstance(throne, Mapping)
                    else M("empty")))
    return text


def _players(view: Mapping[str, Any], w: Words, ctx: BoardContext) -> Table:
    acting = set(view.get("to_act") or [])
    say = ctx.say
    table = Table(title=say(M("Players")), title_justify="left", expand=False, show_lines=False)
    for col, justify in ((M("Player"), "left"), (M("VP"), "right"), (M("Thalers"), "right"),
                         (M("In supply"), "left"), (M("Play area"), "left")):
        table.add_column(say(col), justify=justify)  # type: ignore[arg-type]
    for seat, p in enumerate(view.get("players") or []):
        name = _seat(seat, ctx)
        if seat == view.get("emperor"):
            name.append(say(M(" (Emperor)")))
        if seat in acting:
            name = Text("▶ ").append_text(name)
        if p.get("passed"):
            name.append(say(M(" passed")), style="dim")
        cards = say(_cards(p.get("play_area") or [], w))
        table.add_row(name, str(p.get("vp")), str(p.get("thalers")),
                      breakable(say(_supply(p)), ctx.lang), breakable(cards, ctx.lang))
    return table


def _supply(p: Mapping[str, Any]) -> str:
    """ "3 aristocrats, 1 knight, 2 cities": what a player has left to place."""
    return Seq((Mn("{count} aristocrat", "{count} aristocrats", p.get("supply_tiles", 0)),
                Mn("{count} knight", "{count} knights", p.get("supply_knights", 0)),
                Mn("{count} city", "{count} cities", p.get("supply_cities", 0))), ",")


def _cards(area: Sequence[str], w: Words) -> str:
    """ "Doctor, Ordinance (2) and Move": a play area, copies counted."""
    counts = Counter(area)
    return Seq([M("{card} ({count})", card=w.label(c), count=n) if n > 1 else w.label(c)
                for c, n in counts.items()]) or M("no cards")


def _display(view: Mapping[str, Any], w: Words, ctx: BoardContext) -> Text:
    counts = view.get("display") or {}
    parts = [M("{card} ({count})", card=w.label(c), count=n) for c, n in counts.items()
             if n and c not in ("knight",)]
    text = Text(ctx.say(M("Action cards in the display: ")), style="bold")
    text.append(ctx.say(Seq(parts, ",") if parts else M("none")))
    reserve = view.get("empire_city_reserve")
    if isinstance(reserve, int):
        text.append(ctx.say(M(". Empire cities in reserve: {count}.", count=reserve)))
    return text


def _result(view: Mapping[str, Any], w: Words, ctx: BoardContext) -> list[Text]:
    result = view.get("result")
    if not isinstance(result, Mapping):
        return []
    winners = result.get("winners") or []
    scores = result.get("scores") or []
    best = max(scores) if scores else 0
    points = Mn("{count} victory point", "{count} victory points", best)
    headline = M("Game over: {players} wins with {points}.", players=w.seats(winners),
                 points=points) if len(winners) == 1 else \
        M("Game over: {players} share the win with {points}.", players=w.seats(winners),
          points=points)
    out: list[Text] = [Text(ctx.say(headline), style="bold")]
    per_seat = (result.get("breakdown") or {}).get("per_seat") or []
    for seat, row in enumerate(per_seat):
        out.append(_seat(seat, ctx).append(ctx.say(M(
            ": {points} ({sources}), {thalers} left",
            points=Mn("{count} victory point", "{count} victory points", row.get("vp", 0)),
            sources=vp_sentence(row),
            thalers=Mn("{count} thaler", "{count} thalers", row.get("thalers", 0))))))
    return out


def _panel_width(width: int) -> int:
    """Electorate panels per row: 1 below 76 columns, 2 up to 113, else 3."""
    per_row = max(1, min(3, width // 38))
    return width // per_row - 1


class _Board:
    """The board, laid out for the width it is actually given (inside a panel, a narrow
    terminal), so it never depends on the caller guessing the width right."""

    def __init__(self, view: Mapping[str, Any], ctx: BoardContext) -> None:
        self.view, self.ctx = view, ctx

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        yield _group(self.view, self.ctx, min(options.max_width, self.ctx.width))


def board(view: dict[str, Any], ctx: BoardContext) -> RenderableType:
    return _Board(view, ctx)


def _group(view: Mapping[str, Any], ctx: BoardContext, width: int) -> Group:
    w = Words(ctx.names, _labels(ctx))
    parts: list[RenderableType] = [breakable(_head(view, w, ctx), ctx.lang),
                                   *(breakable(line, ctx.lang) for line in _result(view, w, ctx))]
    decision = "" if view.get("result") else decision_sentence(view, w)
    if decision:
        parts.append(breakable(Text(ctx.say(decision), style="bold yellow"), ctx.lang))
    if view.get("rival") is not None and (view.get("pending") or {}).get("kind") != "vote":
        parts.append(breakable(ctx.say(election_sentence(view, w)), ctx.lang))
    last = last_election_sentence(view, w)
    if last:
        parts.append(breakable(Text(ctx.say(last), style="dim"), ctx.lang))
    if ctx.compact:
        parts += [breakable(_electorate_line(e, w, ctx), ctx.lang)
                  for e in view.get("electorates") or []]
        parts.append(_players(view, w, ctx))
        return Group(*parts)
    panel = _panel_width(width)
    parts.append(Columns([_electorate(e, w, ctx, panel) for e in view.get("electorates") or []],
                         width=panel - 1))
    parts.append(_players(view, w, ctx))
    parts.append(_display(view, w, ctx))
    return Group(*parts)
