"""Adaman's table in the terminal: the court, the capital, the resources and the deck."""

from __future__ import annotations

from typing import Any

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from . import BoardContext


def _row(title: str, cards: list[str], ctx: BoardContext) -> Table:
    table = Table(title=title, show_header=False, box=None, title_justify="left")
    table.add_row(*([ctx.label(c) for c in cards] or ["—"]))
    return table


def board(view: dict[str, Any], ctx: BoardContext) -> RenderableType:
    return Group(
        _row(f"Court ({len(view['court'])})", view["court"], ctx),
        _row(f"Capital ({len(view['capital'])})", view["capital"], ctx),
        _row(f"Resources ({len(view['resources'])})", view["resources"], ctx),
        Text(f"Deck: {view['deck_count']} cards   Controlled: "
             f"{', '.join(ctx.label(c) for c in view['controlled']) or '—'}   "
             f"Status: {view['status']}"),
    )
