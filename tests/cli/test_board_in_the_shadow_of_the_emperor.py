"""The terminal board of In the Shadow of the Emperor: every fixture at several steps, seat
and spectator views, fits 80 and 120 columns and shows names and labels, never ids, None or
a repr (issue #20). The readability check is first shown to catch planted faults."""

from __future__ import annotations

from typing import Any

import pytest
from rich.console import Console

from cli.boards import BoardContext, board_for
from cli.render import board as render_board
from projections import get_rules

from ..projections.test_in_the_shadow_of_the_emperor_words import (
    FIXTURES,
    fixture,
    states,
    unreadable,
)

SLUG = "in_the_shadow_of_the_emperor"
R = get_rules(SLUG)
WIDTHS = (80, 120)


def rendered(view: dict[str, Any], names: list[str], width: int,
             labels: dict[str, str] | None = None) -> list[str]:
    console = Console(width=width, record=True, color_system=None)
    ctx = BoardContext(names=names, labels=R.labels() if labels is None else labels,
                       width=width, to_act=view.get("to_act", []))
    draw = board_for(SLUG)
    assert draw is not None
    console.print(draw(view, ctx))
    return console.export_text().splitlines()


def sample_steps(count: int) -> list[int]:
    """The first, three middle and the last step of a game of `count` states."""
    return sorted({0, 1, count // 4, count // 2, (3 * count) // 4, count - 1})


def problems(lines: list[str], width: int, players: int) -> list[str]:
    out = [f"line {i} has {len(line)} columns" for i, line in enumerate(lines)
           if len(line) > width]
    text = "\n".join(lines)
    out += unreadable(text.replace("\n", " "), players)
    return out


@pytest.mark.parametrize("path", FIXTURES, ids=[p.stem for p in FIXTURES])
def test_the_board_of_every_fixture_fits_and_reads_as_words(path):
    created, actions = fixture(path.stem)
    names = list(created["players"])
    every = list(states(created, actions))
    checked = 0
    for step in sample_steps(len(every)):
        state = every[step]
        for viewer in (None, 0, len(names) - 1):
            view = R.view(state, viewer)
            for width in WIDTHS:
                lines = rendered(view, names, width)
                assert problems(lines, width, len(names)) == [], (step, viewer, width)
                text = "\n".join(lines)
                assert "Archdiocese of Mainz" in text and "Players" in text
                if state.status != "awaiting_setup":
                    assert names[state.emperor] in lines[0]
                checked += 1
    assert checked >= 30


def test_the_check_catches_a_missing_label_and_missing_names():
    created, actions = fixture("4_players")
    state = list(states(created, actions[:60]))[-1]
    view = R.view(state, None)
    labels = {k: v for k, v in R.labels().items() if k not in ("saxony", "court")}
    found = problems(rendered(view, list(created["players"]), 80, labels), 80, 4)
    assert "saxony" in found
    nameless = problems(rendered(view, [], 80), 80, 4)
    assert any(p.startswith("seat ") for p in nameless)


def test_the_board_says_what_the_game_waits_for_and_who_holds_each_elector():
    created, actions = fixture("4_players")
    names = list(created["players"])
    state = next(s for s in states(created, actions)
                 if s.pending is not None and s.pending.kind == "turn" and s.round == 2)
    text = "\n".join(rendered(R.view(state, None), names, 120))
    assert f"{names[state.pending.actor]} takes a phase IV turn" in text
    for e in state.electorates:
        if e.elector is not None:
            owner, side, age = e.elector
            assert f"Elector: {names[owner]}'s {side} {age}" in text


def test_the_cli_renderer_uses_this_board_and_not_the_raw_view():
    created, actions = fixture("3_players")
    view = R.view(list(states(created, actions[:30]))[-1], None)
    console = Console(width=100, record=True, color_system=None)
    console.print(render_board(SLUG, view, BoardContext(names=created["players"])))
    text = console.export_text()
    assert "{'" not in text and "Players" in text and "Duchy of Saxony" in text


def test_inside_a_panel_the_board_uses_the_width_it_is_given_not_the_context_s():
    from rich.panel import Panel

    created, actions = fixture("5_players")
    view = R.view(list(states(created, actions[:80]))[-1], None)
    console = Console(width=80, record=True, color_system=None)
    draw = board_for(SLUG)
    assert draw is not None
    console.print(Panel(draw(view, BoardContext(names=created["players"], width=100))))
    lines = console.export_text().splitlines()
    assert max(len(line) for line in lines) <= 80
    assert any("╮ ╭" in line for line in lines), "two electorates side by side"
