"""The replay shows a game's rulings (issue #30): the audit under the board counts the
changes recorded outside card text and lists each, in the page's language, each a link to
its step. Expected steps are read from the sample log."""

from __future__ import annotations

import json

import pytest

from .conftest import ROOT

pytestmark = pytest.mark.browser
SAMPLE = ROOT / "fixtures" / "thrones" / "2_players_worked_example.jsonl"


def _ruled_steps() -> list[int]:
    events = [json.loads(line) for line in SAMPLE.read_text("utf-8").splitlines()]
    return [e["seq"] for e in events if e["type"] == "effect"]


@pytest.mark.parametrize(("lang", "words"), [("en", "a ruling by the table"),
                                             ("zh-Hans", "牌桌的裁定")])
def test_the_replay_lists_each_ruling_and_jumps_to_its_step(page, server, lang, words):
    game_id = server.import_fixture(SAMPLE)
    page.goto(f"{server.url}/games/{game_id}/replay?lang={lang}")
    page.locator("#rulings").wait_for()
    items = page.locator("ul.rulings li")
    steps = _ruled_steps()
    assert items.count() == len(steps)
    assert all(words in text for text in items.all_inner_texts())
    items.nth(1).locator("a").click()
    page.wait_for_function("(n) => document.getElementById('slider').value === String(n)",
                           arg=steps[1])
