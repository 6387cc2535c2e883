"""Terminal boards, one module per game (`cli/boards/<slug>.py`), each drawing a view.

A module defines `board(view, ctx) -> RenderableType`: the game's table as a player of it
would recognise it (map, tableau, garden or court), from the JSON view a seat may see.
Everything a person reads uses `ctx.name(seat)` and `ctx.label(component id)`; a board
never prints an id, a snake_case key, `None` or a Python repr. It must fit `ctx.width`
columns (80 and 120 are tested).
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from rich.console import RenderableType

from projections.rules import seat_name

#: pawn colours of the seats, as the web viewer draws them (a game may pass its own)
SEAT_STYLES = ("bold red", "bold blue", "bold green", "bold yellow", "bold magenta",
               "bold cyan")


@dataclass(frozen=True, slots=True)
class BoardContext:
    """What a board needs besides the view: who sits where, what ids are called, how wide."""

    names: Sequence[str]
    labels: Mapping[str, str] = field(default_factory=dict)
    width: int = 100
    to_act: Sequence[Any] = ()

    def name(self, seat: Any) -> str:
        """The player's name for a seat ("the table", "the server" for those actors)."""
        return seat_name(self.names, seat)

    def label(self, component: Any) -> str:
        """What a person reads for a component id; an unknown id is shown as itself,
        words separated, so a gap in the labels shows rather than hides."""
        text = self.labels.get(str(component))
        return text if text is not None else str(component).replace("_", " ")

    def seat_style(self, seat: int) -> str:
        return SEAT_STYLES[seat % len(SEAT_STYLES)]


Draw = Callable[[dict[str, Any], BoardContext], RenderableType]


def board_for(game: str) -> Draw | None:
    """The game's board function, or None when it has no module here."""
    try:
        module = importlib.import_module(f"{__name__}.{game}")
    except ModuleNotFoundError:
        return None
    draw: Draw | None = getattr(module, "board", None)
    return draw
