"""Lines of Chinese that wrap between characters, never inside a name (issue #33).

rich breaks a line only at spaces, so to it a Chinese sentence is one long word: in a
narrow cell it is folded or cut with "…" wherever the edge falls, often through a player's
name ("Dietric…"). `Breakable` wraps such text itself: between any two Chinese characters
(a closing mark, a full-width comma or parenthesis, stays with the character before it),
and at spaces,
while a run of Latin letters or digits (a name, a number) is kept whole. English text,
which has spaces, is left to rich (`breakable`).
"""

from __future__ import annotations

import re

from rich.cells import cell_len
from rich.console import Console, ConsoleOptions, RenderableType, RenderResult
from rich.measure import Measurement
from rich.text import Text

__all__ = ["Breakable", "break_offsets", "breakable"]

_CJK = "\u2e80-\u9fff\u3000-\u303f\uff00-\uffef"
#: the full-width , . ; : enumeration-comma ) and quote marks, ! ? … and · (no line opens with one)
_CLOSING = "\uff0c\u3002\uff1b\uff1a\u3001\uff09\u300d\u300f\uff01\uff1f\u2026\u00b7"
#: a unit no line may break inside: one Chinese character with the closing marks after it,
#: or a run of other non-space characters, each with the spaces that follow it
_UNIT = re.compile(rf"[{_CJK}][{_CLOSING}]*\s*|[^\s{_CJK}]+[{_CLOSING}]*\s*|\s+")


def break_offsets(plain: str, width: int) -> list[int]:
    """Where to start each new line of `plain` so every line fits `width` cells (a unit
    wider than the width stands alone on its line)."""
    offsets: list[int] = []
    used = 0
    for unit in _UNIT.finditer(plain):
        word = unit.group(0)
        if used and used + cell_len(word.rstrip()) > width:
            offsets.append(unit.start())
            used = 0
        used += cell_len(word)
    return offsets


class Breakable:
    """A Text that wraps between Chinese characters as well as at spaces."""

    def __init__(self, text: Text) -> None:
        self.text = text

    def __rich_measure__(self, console: Console, options: ConsoleOptions) -> Measurement:
        plain = self.text.plain
        longest = max((cell_len(u.group(0).rstrip()) for u in _UNIT.finditer(plain)),
                      default=0)
        return Measurement(min(longest, options.max_width),
                           min(cell_len(plain), options.max_width))

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        for line in self.text.divide(break_offsets(self.text.plain, options.max_width)):
            line.rstrip()
            yield line


def breakable(text: Text | str, lang: str) -> RenderableType:
    """`text` as a renderable that wraps in `lang`: Chinese by `Breakable`, English as rich
    wraps it (the English boards are unchanged)."""
    shown = text if isinstance(text, Text) else Text(text)
    return shown if lang == "en" else Breakable(shown)
