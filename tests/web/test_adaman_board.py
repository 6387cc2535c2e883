"""Adaman's web board reads as words: the player's name, statuses and end reasons in words,
each card by its printed name with its rank and suits; its data-path markers still match
the state (data-value keeps the raw status)."""

from __future__ import annotations

import re

import pytest

from .boardcheck import check_board
from .conftest import ROOT, snap

pytestmark = pytest.mark.browser
SNAKE = re.compile(r"\b[a-z][a-z0-9]*(?:_[a-z0-9]+)+\b")


@pytest.mark.parametrize("fixture", ["won", "lost_utterly_sixth_court_card"])
def test_the_adaman_board_names_the_player_the_cards_and_the_status_in_words(
        page, server, fixture):
    game_id = server.import_fixture(ROOT / "fixtures" / "adaman" / f"{fixture}.jsonl")
    last = server.get(f"/games/{game_id}")["last_seq"]
    for step in sorted({0, 1, last}):
        doc = server.get(f"/games/{game_id}/state?at={step}")
        page.goto(f"{server.url}/games/{game_id}/replay?at={step}")
        page.locator("#board[data-renderer='adaman']").wait_for()
        check_board(page, doc)
        board = page.locator("#board")
        text = board.inner_text()
        assert "Ann" in text
        assert SNAKE.findall(text) == [], text
        assert "null" not in text and "None" not in text
        status = board.locator('[data-path="status"]')
        assert status.get_attribute("data-value") == doc["view"]["status"]
        snap(page, f"adaman-board-{fixture}-{step}")
    # the fixture's last step (spec §6 step 5 for the sixth court card, §7 for the win)
    words = {"won": ("won", "every personality controlled"),
             "lost_utterly_sixth_court_card": ("lost utterly",
                                               "a 6th personality reached the court")}[fixture]
    assert board.locator('[data-path="status"]').inner_text() == words[0]
    assert board.locator('[data-path="end_reason"]').inner_text() == words[1]
    # a card by its printed name, rank and suits (spec §2.4: the Sailor, 4, Waves and Leaves)
    page.goto(f"{server.url}/games/{game_id}/replay?at=1")
    page.locator("#board[data-renderer='adaman']").wait_for()
    assert page.js_errors == []


def test_a_card_shows_its_name_rank_and_suits(page, server):
    game_id = server.import_fixture(ROOT / "fixtures" / "adaman" / "won.jsonl")
    page.goto(f"{server.url}/games/{game_id}/replay?at=6")
    page.locator("#board[data-renderer='adaman']").wait_for()
    # step 6 of the won fixture: the Lunatic (6, Moons and Waves) is in the capital
    lunatic = page.locator('[data-row="capital"] [data-card="lunatic"]')
    assert lunatic.locator(".name").inner_text() == "the Lunatic"
    assert lunatic.locator(".rank").inner_text() == "6"
    assert "Moons" in lunatic.locator(".suits").inner_text()
    assert "Waves" in lunatic.locator(".suits").inner_text()
    assert "personality" in (lunatic.get_attribute("class") or "")
