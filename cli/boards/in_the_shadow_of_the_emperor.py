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
from projections.rules import plural, possessive, words_list

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
        return Text("empty", style="dim")
    text = _whose(tile.get("owner"), ctx)
    text.append(f" {w.label(tile.get('side')).lower()} {tile.get('age')}")
    return text


def _whose(seat: Any, ctx: BoardContext) -> Text:
    style = ctx.seat_style(seat) if isinstance(seat, int) and not isinstance(seat, bool) else ""
    return Text(possessive(ctx.name(seat)), style=style)


def _joined(parts: Sequence[Text], empty: str = "none") -> Text:
    if not parts:
        return Text(empty, style="dim")
    out = Text()
    for i, part in enumerate(parts):
        if i:
            out.append(", ")
        out.append_text(part)
    return out


def _knight(seat: Any, ctx: BoardContext) -> Text:
    return _whose(seat, ctx).append(" knight")


def _city(owner: Any, ctx: BoardContext) -> Text:
    if owner == "empire":
        return Text("empire city", style=EMPIRE_STYLE)
    return _whose(owner, ctx).append(" city")


def _line(head: str, body: Text) -> Text:
    return Text(f"{head}: ", style="bold").append_text(body)


def _spaces(head: str, used: int, total: Any) -> str:
    return f"{head} {used} of {total}" if isinstance(total, int) else head


def _electorate(e: Mapping[str, Any], w: Words, ctx: BoardContext, width: int) -> Panel:
    court = [_tile(t, w, ctx) for t in e.get("court") or []]
    court += [_knight(k, ctx) for k in e.get("court_knights") or []]
    castles = [_knight(k, ctx) for k in e.get("castle_knights") or []]
    cities = [_city(c, ctx) for c in e.get("cities") or []]
    influence = [_seat(s, ctx).append(f" {v}") for s, v in enumerate(e.get("influence") or [])
                 if v]
    lines = [
        _line("Elector", _tile(e.get("elector"), w, ctx)),
        _line(_spaces("Aristocrats", len(court), e.get("aristocrat_spaces")), _joined(court)),
        _line(_spaces("Castle", len(castles), e.get("castle_spaces")), _joined(castles))
        if e.get("castle_spaces") else Text("No castle space", style="dim"),
        _line(_spaces("Cities", len(cities), e.get("city_spaces")), _joined(cities)),
        _line("Influence", _joined(influence, "nobody yet")),
    ]
    if e.get("privilege_used"):
        lines.append(Text("Privilege used this round", style="italic"))
    kind = "archdiocese" if e.get("kind") == "spiritual" else "secular"
    return Panel(Group(*lines), title=Text(w.label(e.get("id")), style="bold"),
                 subtitle=kind, title_align="left", width=width)


def _electorate_line(e: Mapping[str, Any], w: Words, ctx: BoardContext) -> Text:
    """An electorate in a line (the compact board): its elector, who has influence there,
    and how full its spaces are."""
    court = len(e.get("court") or []) + len(e.get("court_knights") or [])
    influence = [_seat(s, ctx).append(f" {v}") for s, v in enumerate(e.get("influence") or [])
                 if v]
    line = Text(f"{w.label(e.get('id'))}: ", style="bold")
    line.append("elector ").append_text(_tile(e.get("elector"), w, ctx))
    line.append(" · influence ").append_text(_joined(influence, "nobody yet"))
    line.append(f" · {_spaces('aristocrats', court, e.get('aristocrat_spaces'))}"
                f" · {_spaces('cities', len(e.get('cities') or []), e.get('city_spaces'))}")
    return line


def _head(view: Mapping[str, Any], w: Words, ctx: BoardContext) -> Text:
    phase = view.get("phase")
    numeral = phase_numeral(phase)
    text = Text(f"Round {view.get('round')} of {get_rules(SLUG).edition['rounds']}", style="bold")
    text.append(f" · Phase {numeral}: " if numeral else " · ")
    text.append(w.label(view.get("phase_name")))
    if view.get("status") == "awaiting_setup":
        return text
    text.append(" · Emperor: ")
    text.append_text(_seat(view.get("emperor"), ctx))
    throne = view.get("throne")
    text.append(" · Throne: ")
    text.append(w.kind(throne.get("side"), throne.get("age")) if isinstance(throne, Mapping)
                else "empty")
    return text


def _players(view: Mapping[str, Any], w: Words, ctx: BoardContext) -> Table:
    acting = set(view.get("to_act") or [])
    table = Table(title="Players", title_justify="left", expand=False, show_lines=False)
    for col, justify in (("Player", "left"), ("VP", "right"), ("Thalers", "right"),
                         ("In supply", "left"), ("Play area", "left")):
        table.add_column(col, justify=justify)  # type: ignore[arg-type]
    for seat, p in enumerate(view.get("players") or []):
        name = _seat(seat, ctx)
        if seat == view.get("emperor"):
            name.append(" (Emperor)")
        if seat in acting:
            name = Text("▶ ").append_text(name)
        if p.get("passed"):
            name.append(" passed", style="dim")
        supply = (f"{plural(p.get('supply_tiles', 0), 'aristocrat')}, "
                  f"{plural(p.get('supply_knights', 0), 'knight')}, "
                  f"{plural(p.get('supply_cities', 0), 'city', 'cities')}")
        cards = _cards(p.get("play_area") or [], w)
        table.add_row(name, str(p.get("vp")), str(p.get("thalers")), supply, cards)
    return table


def _cards(area: Sequence[str], w: Words) -> str:
    """ "Doctor, Ordinance (2) and Move": a play area, copies counted."""
    counts = Counter(area)
    return words_list([w.label(c) + (f" ({n})" if n > 1 else "") for c, n in counts.items()]) \
        or "no cards"


def _display(view: Mapping[str, Any], w: Words) -> Text:
    counts = view.get("display") or {}
    parts = [f"{w.label(c)} ({n})" for c, n in counts.items()
             if n and c not in ("knight",)]
    text = Text("Action cards in the display: ", style="bold")
    text.append(", ".join(parts) if parts else "none")
    reserve = view.get("empire_city_reserve")
    if isinstance(reserve, int):
        text.append(f". Empire cities in reserve: {reserve}.")
    return text


def _result(view: Mapping[str, Any], w: Words, ctx: BoardContext) -> list[RenderableType]:
    result = view.get("result")
    if not isinstance(result, Mapping):
        return []
    winners = result.get("winners") or []
    scores = result.get("scores") or []
    best = max(scores) if scores else 0
    verb = "wins" if len(winners) == 1 else "share the win"
    out: list[RenderableType] = [Text(f"Game over: {w.seats(winners)} {verb} with "
                                      f"{plural(best, 'victory point')}.", style="bold")]
    per_seat = (result.get("breakdown") or {}).get("per_seat") or []
    for seat, row in enumerate(per_seat):
        out.append(_seat(seat, ctx).append(f": {plural(row.get('vp', 0), 'victory point')} "
                                           f"({vp_sentence(row)}), "
                                           f"{plural(row.get('thalers', 0), 'thaler')} left"))
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
    parts: list[RenderableType] = [_head(view, w, ctx), *_result(view, w, ctx)]
    decision = "" if view.get("result") else decision_sentence(view, w)
    if decision:
        parts.append(Text(decision, style="bold yellow"))
    if view.get("rival") is not None and (view.get("pending") or {}).get("kind") != "vote":
        parts.append(Text(election_sentence(view, w)))
    last = last_election_sentence(view, w)
    if last:
        parts.append(Text(last, style="dim"))
    if ctx.compact:
        parts += [_electorate_line(e, w, ctx) for e in view.get("electorates") or []]
        parts.append(_players(view, w, ctx))
        return Group(*parts)
    panel = _panel_width(width)
    parts.append(Columns([_electorate(e, w, ctx, panel) for e in view.get("electorates") or []],
                         width=panel - 1))
    parts.append(_players(view, w, ctx))
    parts.append(_display(view, w))
    return Group(*parts)
