"""Palais Royal's terminal board: every recorded game, at several steps, for each seat and a
spectator, fits 80 and 120 columns and reads in names and labels (no id, repr or None)."""

from __future__ import annotations

import pytest
from rich.console import Console
from rich.pretty import Pretty

from cli import render
from cli.boards import BoardContext
from cli.boards.palais_royal import board
from projections import get_rules
from tests.projections.palais_royal_readable import fixture_steps, id_problems

RULES = get_rules("palais_royal")
LABELS = RULES.labels()
REPRS = ("{'", "FrozenDict(", "Bag(", "None", "null", "[]", "{}")


def _sampled_steps():
    """Per fixture: just after the setup, during the initial placements, every 40th event,
    the last turns and the end."""
    by_game: dict[str, list] = {}
    for name, seq, state, env in fixture_steps(RULES):
        if env["type"] == "game_created":
            names = env["data"]["players"]
        if state.phase != "awaiting_setup":
            by_game.setdefault(name, []).append((seq, state, names))
    for name, steps in by_game.items():
        picked = steps[:3] + steps[::40] + steps[-3:]
        for seq, state, names in picked:
            yield name, seq, state, names


SAMPLES = list(_sampled_steps())


def _text(view: dict, names: list[str], width: int, labels=None, to_act=()) -> str:
    console = Console(width=width, record=True, color_system=None)
    ctx = BoardContext(names=names, labels=LABELS if labels is None else labels,
                       width=width, to_act=to_act)
    console.print(board(view, ctx))
    return console.export_text()


@pytest.mark.parametrize("width", [80, 120])
def test_every_sample_step_fits_and_reads_in_names_and_labels(width):
    checked = 0
    for name, seq, state, names in SAMPLES:
        viewers = [*range(state.player_count), None]
        for viewer in viewers:
            text = _text(RULES.view(state, viewer), names, width, to_act=RULES.to_act(state))
            where = f"{name}@{seq} seen by {viewer} at {width}"
            lines = text.splitlines()
            assert max(len(line) for line in lines) <= width, where
            assert not any(r in text for r in REPRS), where
            assert not id_problems(text), (where, id_problems(text))
            for player in names:
                assert player in text, (where, player)
            checked += 1
    assert checked > 80


def test_the_board_check_fails_when_a_label_is_missing():
    """Planted fault: the same board with one noble's label replaced by its id."""
    _name, _seq, state, names = SAMPLES[0]
    view = RULES.view(state, None)
    noble = next(n for n in view["garden"].values() if n)
    assert not id_problems(_text(view, names, 80))
    planted = {**LABELS, noble: noble}
    assert noble in id_problems(_text(view, names, 80, labels=planted))


def test_the_board_shows_each_garden_noble_by_its_points_and_cost():
    _name, _seq, state, names = SAMPLES[0]
    view = RULES.view(state, 0)
    text = _text(view, names, 120)
    # spec §2.4 n21: 6 gold, 2 purple, 2 blue, 7 points; wherever it lies, it reads so
    if "n21" in view["garden"].values():
        assert "7 pts" in text and "6g 2p 2b" in text
    assert "Court" in text and "Garden" in text and "Players" in text
    assert "Madame de Pompadour" in text and "King's Chamber" in text


def test_the_cli_renders_palais_royal_with_its_board_not_a_python_tree():
    _name, _seq, state, names = SAMPLES[-1]
    drawn = render.board("palais_royal", RULES.view(state, "all"), BoardContext(names=names))
    assert not isinstance(drawn, Pretty)


def test_without_labels_in_the_context_the_board_uses_the_default_editions():
    _name, _seq, state, names = SAMPLES[1]
    text = _text(RULES.view(state, None), names, 100, labels={})
    assert not id_problems(text), id_problems(text)
