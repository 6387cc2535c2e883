"""The table recorder's words and taps: the new-game page names the players, and an
open-ended deal waits for the fewest cards the rules accept (the chance outcomes of every
game's move builder are tested in test_choices_recorder)."""

from __future__ import annotations

import pytest

from .choosing import settle
from .conftest import new_context
from .readable import raw_words

pytestmark = pytest.mark.browser

TIMES = "\u00d7"  # the multiplication sign before the copies left, as in "Britain x15"
TABLET = {"viewport": {"width": 768, "height": 1024}, "has_touch": True}


@pytest.fixture
def tablet(browser):
    ctx = new_context(browser, **TABLET)
    yield ctx
    ctx.close()


def _open(tablet, server, slug: str, players: list[str]):
    made = server.post("/games", {"game": slug, "players": players, "mode": "table"}).json()
    page = tablet.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.js_errors = errors
    page.goto(f"{server.url}/games/{made['id']}/record?token={made['recorder_token']}")
    page.locator('#record[data-seq="0"]').wait_for(state="attached")
    slots = server.get(f"/games/{made['id']}/legal-actions", made["recorder_token"])
    return page, made, slots


def test_the_new_game_page_names_the_players_not_their_seats(tablet, server) -> None:
    page = tablet.new_page()
    page.goto(f"{server.url}/games/new?game=adaman")
    page.locator("#counts").filter(has_text="player").wait_for()
    assert page.locator("#counts").inner_text() == "for 1 player"
    page.locator("#game").select_option("palais_royal")
    assert page.locator("#counts").inner_text() == "for 2, 3 or 4 players"
    names = page.locator("input[name=player]")
    for i, name in enumerate(["Zoe", "Max"]):
        names.nth(i).fill(name)
    page.locator("#create").click()
    page.locator("#created").wait_for()
    links = page.locator(".seat-link b").all_inner_texts()
    assert [t.split(" — ")[0] for t in links] == ["Zoe", "Max"]
    words = " ".join([*page.locator("#created b").all_inner_texts(),
                      page.locator("#created .note").inner_text()])
    assert raw_words("palais_royal", words) == [], words  # the links' tokens aside


def test_an_open_ended_deal_waits_for_the_fewest_cards_the_rules_accept(tablet, server) -> None:
    """Adaman's deal turns up cards until its rows are full, so how many is the rules' to say;
    Record waits for at least the fewest cards such a deal can be, then for the rules."""
    page, made, _ = _open(tablet, server, "adaman", ["Ann"])
    settle(page)
    choice = page.locator('[data-type="setup"] .choice[data-choice="drawn"]')
    assert choice.get_attribute("data-outcome") == "yes", "the deal is tapped as seen"
    answer = server.get(f"/games/{made['id']}/choices?type=setup", made["recorder_token"])
    fewest = answer["choice"]["fewest"]
    assert fewest and answer["choice"]["can_end"] is False
    record = page.locator('[data-type="setup"] .record-action')
    assert f"at least {fewest}" in choice.inner_text()
    for _ in range(fewest):
        assert record.is_disabled()
        page.locator('.choice[data-choice="drawn"] button.option').first.click()
        settle(page)
    taps = fewest
    while record.is_disabled():
        page.locator('.choice[data-choice="drawn"] button.option').first.click()
        settle(page)
        taps += 1
        assert taps <= 40
    assert page.locator(".move-sentence[data-sentence]").count() == 1
    assert page.js_errors == []
