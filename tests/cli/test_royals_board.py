"""Royals' terminal board (`cli/boards/royals.py`) as a person reads it: every fixture at
several steps, as a seat and as a spectator sees it, at 80 and 120 columns, fits the width
and shows names and labels, never a repr, `None` or an id of the edition.

The ids come from the edition JSON (`royals_readable`), not from the labels the board uses;
the checks are first shown to fire on a board given no names and no labels.
"""

from __future__ import annotations

import pytest
from rich.console import Console

from cli.boards import BoardContext
from cli.boards.royals import board
from cli.render import board as render_board
from projections import get_rules

from ..projections.royals_readable import FIXTURES, folded, unreadable

RULES = get_rules("royals")
LABELS = RULES.labels()
WIDTHS = (80, 120)


def render(view: dict, ctx: BoardContext) -> str:
    console = Console(width=ctx.width, record=True, color_system=None, file=_Null())
    console.print(board(view, ctx))
    return console.export_text()


class _Null:
    def write(self, _: str) -> int:
        return 0

    def flush(self) -> None:
        pass


def problems(text: str, width: int) -> list[str]:
    too_long = [line for line in text.splitlines() if len(line) > width]
    return [f"line longer than {width}: {line!r}" for line in too_long] + unreadable(text)


def sample_steps(path):
    names, states = folded(path)
    picks = sorted({0, 1, 2, len(states) // 3, len(states) // 2, 2 * len(states) // 3,
                    len(states) - 2, len(states) - 1})
    return names, [states[i] for i in picks]


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("path", FIXTURES, ids=[p.stem for p in FIXTURES])
def test_every_fixture_renders_readably_within_the_width(path, width):
    names, states = sample_steps(path)
    for state in states:
        for seat in (state.current, None):
            view = RULES.view(state, seat)
            ctx = BoardContext(names=names, labels=LABELS, width=width, to_act=view["to_act"])
            text = render(view, ctx)
            assert problems(text, width) == [], (path.stem, seat, text)
            for name in names:
                assert name in text


def test_the_checks_fire_on_a_board_given_no_names_and_no_labels():
    _, states = sample_steps(FIXTURES[0])
    view = RULES.view(states[-3], 0)
    text = render(view, BoardContext(names=(), labels={}, width=80))
    found = " ".join(problems(text, 80))
    assert "seat number" in found and "raw id 'paris'" in found


def test_a_seat_sees_its_own_hand_and_only_counts_of_the_others():
    names, states = sample_steps(FIXTURES[1])
    state = states[4]
    me = state.current
    view = RULES.view(state, me)
    text = render(view, BoardContext(names=names, labels=LABELS, width=120))
    hidden = [line for line in text.splitlines() if "face down" in line]
    assert len(hidden) == state.players - 1
    times = "\N{MULTIPLICATION SIGN}"
    own = next(line for line in text.splitlines() if names[me] in line and times in line)
    assert any(LABELS[c] in own for c in view["hands"][me]["country"])


def test_the_board_draws_each_cube_where_the_view_puts_it():
    names, states = sample_steps(FIXTURES[2])
    state = states[-1]
    view = RULES.view(state, None)
    text = render(view, BoardContext(names=names, labels=LABELS, width=120))
    for portrait, holder in view["portraits"].items():
        title = LABELS[portrait].split(" — ")[1]
        expected = f"{title} ■ {names[holder]}" if holder is not None else f"{title} vacant"
        assert expected in text, (portrait, expected)


def test_a_view_of_another_shape_falls_back_to_the_generic_view():
    # the board refuses a view without portraits; cli.render then shows the data as it is
    with pytest.raises(KeyError):
        board({"phase": "draw"}, BoardContext(names=("A", "B")))
    out = render_board("royals", {"phase": "draw"}, BoardContext(names=("A", "B")))
    console = Console(width=80, record=True, file=_Null())
    console.print(out)
    assert "Display:" not in console.export_text()
