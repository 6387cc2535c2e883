"""The Thrones terminal board (issue #20): every fixture drawn at several steps, for a seat
and for a spectator, at 80 and 120 columns, reads as words: no line wider than the
terminal, no repr, no `None`, no id, no snake_case; names come from the edition file."""

from __future__ import annotations

import io
import re
from typing import Any

import pytest
from rich.console import Console, RenderableType
from rich.pretty import Pretty

from cli.boards import BoardContext
from cli.boards.thrones import board
from projections import get_rules
from tests.projections.thrones_helpers import CARD_NAMES, FIXTURES, Step, fixture_steps

RULES = get_rules("thrones")
LABELS = RULES.labels()
ID = re.compile(r"\bp\d-\d{3}(?:-\d+)?\b|\bcore_\d{3}\b|\bhouse:\d\b")


def _picked() -> list[Step]:
    """Start, a quarter, the middle, three quarters and the end of every fixture, and
    each first step of an open challenge at each of its steps."""
    by_fixture: dict[str, list[Step]] = {}
    for step in fixture_steps():
        by_fixture.setdefault(step.fixture, []).append(step)
    picked = []
    for steps in by_fixture.values():
        n = len(steps)
        picked += [steps[i] for i in sorted({0, 1, n // 4, n // 2, 3 * n // 4, n - 1})]
        seen = set()
        for step in steps:
            ch = step.after.challenge
            key = None if ch is None else (ch.step, bool(ch.pending))
            if key is not None and key not in seen:
                seen.add(key)
                picked.append(step)
    return picked


PICKED = _picked()


def text_of(renderable: RenderableType, width: int) -> str:
    console = Console(width=width, record=True, color_system=None, file=io.StringIO())
    console.print(renderable)
    return console.export_text()


def flat(text: str) -> str:
    """The words of a drawing on one line, without the panels' borders."""
    return " ".join(re.sub(r"[│╭╮╰╯─]", " ", text).split())


def board_problems(text: str, width: int) -> list[str]:
    problems = [f"line of {len(line)} columns" for line in text.splitlines()
                if len(line) > width]
    for bad in ("{'", "FrozenDict(", "None", "null", "['", "True", "False"):
        if bad in text:
            problems.append(f"shows {bad!r}")
    problems += [f"id {m!r}" for m in ID.findall(text)]
    problems += [f"snake_case {m!r}" for m in re.findall(r"\b[a-z]+_[a-z_]+\b", text)]
    return problems


def _context(step: Step, view: dict[str, Any], width: int, names: bool = True
             ) -> BoardContext:
    return BoardContext(names=step.names if names else (), labels=LABELS, width=width,
                        to_act=view.get("to_act") or ())


@pytest.mark.parametrize("width", [80, 120])
@pytest.mark.parametrize("seat", [0, 1, None], ids=["seat0", "seat1", "spectator"])
def test_every_fixture_board_fits_the_terminal_and_reads_as_words(width, seat):
    problems = []
    for step in PICKED:
        view = RULES.view(step.after, seat)
        text = text_of(board(view, _context(step, view, width)), width)
        problems += [(step.fixture, step.seq, p) for p in board_problems(text, width)]
    assert problems == []


def test_the_board_check_catches_the_old_pretty_printed_view_and_missing_labels():
    step = PICKED[len(PICKED) // 2]
    view = RULES.view(step.after, 0)
    assert board_problems(text_of(Pretty(view, max_length=12), 80), 80)
    no_cards = BoardContext(names=step.names, labels={"marshalling": "marshalling phase"})
    assert any(p.startswith("id ") for p in board_problems(text_of(board(view, no_cards), 80),
                                                           80))
    assert board_problems("x" * 81, 80) == ["line of 81 columns"]


def test_every_card_in_play_reads_as_its_edition_name_and_the_challenge_as_a_sentence():
    shown = 0
    for step in PICKED:
        view = RULES.view(step.after, None)
        text = flat(text_of(board(view, _context(step, view, 120)), 120))
        for card in view["in_play"]:
            assert CARD_NAMES[int(card["id"][3:6])] in text
            shown += 1
        ch = view["challenge"]
        if ch is not None:
            head = (f"{step.names[ch['attacker']]} attacks {step.names[ch['defender']]} with "
                    f"a{'n' if ch['type'] == 'intrigue' else ''} {ch['type']} challenge")
            assert head in text
    assert shown > 50


def test_a_context_without_names_or_labels_still_names_players_and_cards():
    step = PICKED[-1]
    view = RULES.view(step.after, None)
    text = text_of(board(view, BoardContext(names=())), 100)
    assert all(name in text for name in step.names)
    assert board_problems(text, 100) == []


def test_a_seat_reads_its_own_hand_and_a_spectator_only_counts():
    step = next(s for s in fixture_steps(every=5) if s.after.phase == "marshalling")
    mine = RULES.view(step.after, 0)
    hand = [CARD_NAMES[int(c[3:6])] for c in mine["players"][0]["hand"]]
    assert hand
    seat_text = flat(text_of(board(mine, _context(step, mine, 120)), 120))
    assert all(name in seat_text for name in hand)
    spectator = RULES.view(step.after, None)
    text = flat(text_of(board(spectator, _context(step, spectator, 120)), 120))
    assert f"Hand {len(hand)} cards" in text and f"Hand {len(hand)} cards:" not in text


def test_the_fixtures_are_all_drawn():
    assert {s.fixture for s in PICKED} == {p.stem for p in FIXTURES}
