"""Adaman's table in the terminal: the court, the capital, the resource row, the deck.

Spec docs/games/adaman.md §3 (the layout) and §8 (what is visible: everything but the
order of the deck). Each card shows its printed name, its rank and its suits, so a move can
be checked against the rule "every spent card shares a suit, ranks add up" at a glance.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from rich import box
from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from projections.messages import M, Mn

from . import BoardContext

ROWS = (("court", M("Court")), ("capital", M("Capital")), ("resources", M("Resources")))
#: the layout's rows hold five cards (spec §3); a sixth in the court ends the game (§6)
ROW_CARDS = 5
#: from this many columns the rows are drawn across, as they lie on the table
WIDE = 100


def _cards(ctx: BoardContext) -> dict[str, Mapping[str, Any]]:
    return {c["id"]: c for c in ctx.edition.get("cards", ()) if isinstance(c, Mapping)}


def _detail(card_id: str, ctx: BoardContext) -> tuple[str, str, str]:
    """(printed name, rank, suits) of a card; the style marks a personality."""
    card = _cards(ctx).get(card_id, {})
    return (ctx.label(card_id), str(card.get("rank", "")),
            ", ".join(ctx.label(s) for s in card.get("suits", ())))


def _style(card_id: str, ctx: BoardContext) -> str:
    return "bold magenta" if _cards(ctx).get(card_id, {}).get("personality") else "bold"


def _rows(view: Mapping[str, Any]) -> dict[str, list[str]]:
    return {key: [str(c) for c in view.get(key) or ()] for key, _ in ROWS}


def _across(view: Mapping[str, Any], ctx: BoardContext) -> Table:
    """Wide terminals: each row of the layout across the screen, as on the table."""
    rows = _rows(view)
    columns = max(ROW_CARDS, *(len(cards) for cards in rows.values()))
    table = Table(box=box.SIMPLE, show_header=False, pad_edge=False, padding=(0, 1))
    table.add_column("row", no_wrap=True, style="bold")
    for _ in range(columns):
        table.add_column(ratio=1, max_width=20)
    for key, title in ROWS:
        cells: list[RenderableType] = []
        for card in rows[key]:
            name, rank, suits = _detail(card, ctx)
            cell = Text(name, style=_style(card, ctx))
            cell.append(f"\n{rank} · {suits}" if rank else "", style="dim")
            cells.append(cell)
        cells = cells or [Text(ctx.say(M("empty")), style="dim italic")]
        cells += [Text("")] * (columns - len(cells))
        table.add_row(Text(ctx.say(M("{row}\n{count} of {most}", row=title,
                                     count=len(rows[key]), most=ROW_CARDS))), *cells,
                      end_section=True)
    return table


def _down(view: Mapping[str, Any], ctx: BoardContext) -> Table:
    """Narrow terminals: one card a line, its rank and suits in columns of their own."""
    table = Table(box=box.SIMPLE_HEAD, pad_edge=False, padding=(0, 1))
    for header, justify in ((M("row"), "left"), (M("card"), "left"), (M("rank"), "right"),
                            (M("suits"), "left")):
        table.add_column(ctx.say(header), justify=justify)  # type: ignore[arg-type]
    rows = _rows(view)
    for key, title in ROWS:
        where = Text(ctx.say(M("{row} ({count} of {most})", row=title, count=len(rows[key]),
                               most=ROW_CARDS)), style="bold")
        if not rows[key]:
            table.add_row(where, Text(ctx.say(M("empty")), style="dim italic"), "", "",
                          end_section=True)
        for i, card in enumerate(rows[key]):
            name, rank, suits = _detail(card, ctx)
            table.add_row(where if i == 0 else "", Text(name, style=_style(card, ctx)), rank,
                          suits, end_section=i == len(rows[key]) - 1)
    return table


def _names(title: Any, cards: Sequence[str], ctx: BoardContext, style: str = "") -> Text:
    line = Text(ctx.say(M("{title} ({count}): ", title=title, count=len(cards))), style="bold")
    line.append(", ".join(ctx.label(c) for c in cards) if cards else ctx.say(M("none")),
                style=style)
    return line


def board(view: dict[str, Any], ctx: BoardContext) -> RenderableType:
    status = ctx.label(view["status"])
    head = Text(ctx.say(M("{player} · {status} · {controls} · {cards}", player=ctx.name(0),
                          status=status,
                          controls=Mn("{count} control made", "{count} controls made",
                                      int(view.get("plays", 0))),
                          cards=Mn("{count} card in the deck", "{count} cards in the deck",
                                   int(view["deck_count"])))), style="bold")
    if view.get("score") is not None:
        head.append(ctx.say(M(" · score {score}", score=view["score"])))
    return Group(
        head,
        _across(view, ctx) if ctx.width >= WIDE else _down(view, ctx),
        _names(M("Controlled personalities"), view.get("controlled") or (), ctx, "magenta"),
        _names(M("Discard"), view.get("discard") or (), ctx, "dim"),
        _names(M("Still in the deck, in no known order"), view.get("unseen") or (), ctx, "dim"),
    )
