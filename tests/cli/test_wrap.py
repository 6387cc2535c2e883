"""Chinese lines wrap between characters, never inside a player's name (cli/wrap.py).

The oracle is the sentence itself: every line fits the width in terminal cells, the lines
put back together are the sentence, and each name of the sentence stands whole on one
line. rich alone, which breaks only at spaces, is shown to cut a name (the fault the
wrapper exists for)."""

from __future__ import annotations

from rich.console import Console
from rich.text import Text

from cli.wrap import Breakable, break_offsets, breakable

SENTENCE = ("Bernd购买了敕令\uff0c在波希米亚王国放置了一名25岁独身贵族\uff0c"  # full-width commas
            "Dietrich的骑士退回手中")
NAMES = ("Bernd", "Dietrich", "25")


def _lines(renderable: object, width: int) -> list[str]:
    console = Console(width=width, record=True, color_system=None)
    console.print(renderable)
    return console.export_text().splitlines()


def test_every_width_keeps_each_name_whole_on_one_line() -> None:
    for width in range(12, 60):
        lines = _lines(Breakable(Text(SENTENCE)), width)
        assert "".join(lines) == SENTENCE
        assert all(Console().measure(Text(line)).maximum <= width for line in lines)
        assert all(any(name in line for line in lines) for name in NAMES), (width, lines)


def test_a_closing_mark_never_opens_a_line() -> None:
    for width in range(12, 60):
        assert not any(SENTENCE[i] in "\uff0c\u3002" for i in break_offsets(SENTENCE, width))


def test_rich_alone_cuts_a_name_somewhere() -> None:
    """Planted: the plain Text, folded by rich, breaks "Dietrich" at some width."""
    cut = [w for w in range(12, 60)
           if not any("Dietrich" in line for line in _lines(Text(SENTENCE), w))]
    assert cut


def test_english_is_left_to_rich() -> None:
    text = Text("Anna bought Doctor")
    assert breakable(text, "en") is text
    assert isinstance(breakable(text, "zh_Hans"), Breakable)
