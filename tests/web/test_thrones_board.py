"""The Thrones web board (issue #20), drawn from real fixture views at the start, the middle
and the end of each game, for a seat and for a spectator, at 1280, 768 and 390 px: every
marked value matches the view, nothing reads as an id, `null` or snake_case, nothing
overflows sideways, and the move just made is highlighted."""

from __future__ import annotations

import re
from typing import Any

import pytest

from projections import get_rules
from tests.projections.thrones_helpers import CARD_NAMES, Step, fixture_steps

from .boardcheck import check_board
from .conftest import snap
from .test_boards import RENDER_JS

pytestmark = pytest.mark.browser

RULES = get_rules("thrones")
WIDTHS = (1280, 768, 390)
ID = re.compile(r"\bp\d-\d{3}(?:-\d+)?\b|\bcore_\d{3}\b|\bhouse:\d\b")


def _moments() -> list[tuple[str, Step]]:
    """(name, step): start, middle and end of each fixture, and a step of each kind that
    the board draws differently (a challenge open, a card just marshalled)."""
    by_fixture: dict[str, list[Step]] = {}
    for step in fixture_steps():
        by_fixture.setdefault(step.fixture, []).append(step)
    out = []
    for name, steps in by_fixture.items():
        out += [(f"{name}-start", steps[1]), (f"{name}-middle", steps[len(steps) // 2]),
                (f"{name}-end", steps[-1])]
    melee = by_fixture["3_players_effects"]
    later = melee[len(melee) // 3:]
    fought = (s for s in later if s.after.challenge is not None and s.after.challenge.defenders)
    out.append(("challenge", next(fought)))
    out.append(("marshalled", next(s for s in later if s.action.type == "marshal_card")))
    return out


MOMENTS = _moments()


def _doc(step: Step, state: Any, seat: Any, seq: int) -> dict[str, Any]:
    view = RULES.view(state, seat)
    return {"game_id": step.fixture, "game": "thrones", "seq": seq, "status": "in_progress",
            "view": view, "result": None, "to_act": view["to_act"], "players": list(step.names)}


def _draw(page, step: Step, seat: Any) -> dict[str, Any]:
    prev = _doc(step, step.before, seat, step.seq - 1)
    doc = _doc(step, step.after, seat, step.seq)
    assert page.evaluate(RENDER_JS, ["thrones", doc, prev]) == "thrones"
    return doc


def _problems(page) -> list[str]:
    text = page.locator("#board").inner_text()
    problems = [f"shows {w!r}" for w in ("null", "undefined", "NaN", "[object") if w in text]
    problems += [f"id {m!r}" for m in ID.findall(text)]
    problems += [f"snake_case {m!r}" for m in re.findall(r"\b[a-z]+_[a-z_]+\b", text)]
    wide = page.evaluate("""() => {
      const b = document.getElementById('board');
      const rights = [...b.querySelectorAll('*')].map((e) => e.getBoundingClientRect().right);
      return [b.scrollWidth, b.clientWidth, Math.round(Math.max(...rights)),
              Math.round(b.getBoundingClientRect().right)];
    }""")
    if wide[0] > wide[1] + 1 or wide[2] > wide[3] + 1:
        problems.append(f"overflows sideways {wide}")
    return problems


@pytest.mark.parametrize("width", WIDTHS)
def test_the_board_reads_as_words_and_fits_at_every_width(page, server, width):
    page.set_viewport_size({"width": width, "height": 900})
    page.goto(f"{server.url}/")
    problems = []
    for name, step in MOMENTS:
        for seat, who in ((0, "seat0"), (None, "spectator")):
            doc = _draw(page, step, seat)
            assert check_board(page, doc) >= 10
            problems += [(name, who, p) for p in _problems(page)]
            if "3_players" in name or name in ("challenge", "marshalled"):
                snap(page, f"thrones-{name}-{who}-{width}")
    assert problems == []
    assert page.js_errors == []


def test_the_card_just_marshalled_is_highlighted_and_named(page, server):
    page.goto(f"{server.url}/")
    step = dict(MOMENTS)["marshalled"]
    _draw(page, step, None)
    card = step.action.data["card"]
    face = page.locator(f'#board [data-card="{card}"]').first
    assert "changed" in (face.get_attribute("class") or "")
    assert CARD_NAMES[int(card[3:6])] in face.inner_text()


def test_the_challenge_reads_as_a_sentence_and_titles_name_their_holders(page, server):
    page.goto(f"{server.url}/")
    step = dict(MOMENTS)["challenge"]
    _draw(page, step, None)
    ch = step.after.challenge
    sentence = page.locator("#board .th-sentence").inner_text()
    assert sentence.startswith(f"{step.names[ch.attacker]} attacks {step.names[ch.defender]} "
                               f"with a")
    titles = page.locator("#board .th-titles").inner_text()
    for seat, title in enumerate(step.after.titles):
        if title:
            assert f"{step.names[seat]}: {RULES.components().titles[title].name}" in titles


def test_a_seat_sees_its_hand_as_card_faces_and_a_spectator_a_count(page, server):
    page.goto(f"{server.url}/")
    step = dict(MOMENTS)["marshalled"]
    _draw(page, step, 0)
    hand = step.after.players[0].hand
    faces = page.locator('#board [data-path="players.0.hand"] .th-handcard')
    assert faces.count() == len(hand)
    _draw(page, step, None)
    assert page.locator('#board [data-path="players.0.hand"]').count() == 0
    assert f"Hand · {len(hand)} card" in page.locator('#board [data-seat="0"]').inner_text()
