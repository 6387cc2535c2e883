"""Every page of every sample game of a converted game reads Chinese in a browser set to
zh-Hans (issue #33, "Oracles"): the replay at its first, middle and last steps, the games
and the statistics: the text the page's JS writes (the board, the step's sentence, the
events, the audit, the final scores) as well as the template's. No ASCII word of the
interface may remain but the players' names and proper names. English stays the default
(the other browser tests). Shown failing with a blanked translation (the cathedral's).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from ..api.test_i18n_web import OWN
from ..projections.test_i18n_catalog import CONVERTED
from ..projections.test_i18n_render import english_words
from .conftest import ROOT, new_context

pytestmark = pytest.mark.browser

FIXTURES = [pytest.param(path, id=f"{slug}-{path.stem}") for slug in CONVERTED
            for path in sorted((ROOT / "fixtures" / slug).glob("*.jsonl"))[:1]]


def _left(page, names: list[str]) -> list[str]:
    text = page.evaluate("() => document.body.innerText")
    return sorted({w for w in english_words(text, names) if w not in OWN})


@pytest.fixture
def zh_page(browser):
    context = new_context(browser, locale="zh-CN", extra_http_headers={
        "Accept-Language": "zh-CN,zh;q=0.9"})
    page = context.new_page()
    yield page
    context.close()


@pytest.mark.parametrize("path", FIXTURES)
def test_replay_games_and_statistics_read_chinese(zh_page, server, path: Path) -> None:
    game_id = server.import_fixture(path)
    game = server.get(f"/games/{game_id}")
    names = list(game["players"])
    last = game["last_seq"]
    for at in sorted({1, last // 2, last}):
        zh_page.goto(f"{server.url}/games/{game_id}/replay?at={at}")
        zh_page.locator(f"#board[data-loaded='{at}']").wait_for()
        zh_page.locator("#verify").wait_for()
        assert _left(zh_page, names) == [], at
    zh_page.goto(f"{server.url}/")
    zh_page.locator("#games tbody tr").first.wait_for()
    zh_page.wait_for_load_state("networkidle")
    everyone = [n for g in server.get("/games?limit=500")["games"] for n in g["players"]]
    assert _left(zh_page, everyone) == []
    zh_page.goto(f"{server.url}/statistics")
    zh_page.locator("#charts[data-ready]").wait_for()
    assert _left(zh_page, everyone) == []


@pytest.mark.parametrize("path", FIXTURES)
def test_the_recorder_reads_chinese(zh_page, server, path: Path) -> None:
    """A running table game at its recorder: the turn, the moves open, a move's choices."""
    game_id, token = server.import_prefix(path, 3, f"zh-{path.parent.name}-{path.stem}")
    names = list(server.get(f"/games/{game_id}")["players"])
    zh_page.goto(f"{server.url}/games/{game_id}/record?token={token}")
    zh_page.locator("#actions .move-menu, #actions .move-builder").first.wait_for()
    zh_page.wait_for_timeout(1500)  # the live stream keeps the network busy
    assert _left(zh_page, names) == []
    first = zh_page.locator("#actions button").first
    first.click()
    zh_page.wait_for_timeout(1500)  # the live stream keeps the network busy
    assert _left(zh_page, names) == []


def test_the_new_game_form_offers_an_options_values_by_their_chinese_labels(zh_page, server):
    """Thrones' military claim scope (GameRules.option_values): the form offers its values
    by their labels in the page's language, never the typed value, and sends the value."""
    page = zh_page
    page.goto(f"{server.url}/games/new")
    page.locator("#game").select_option("thrones")
    choice = page.locator('select[data-option="military_claim_scope"]')
    choice.wait_for()
    assert sorted(choice.locator("option").all_inner_texts()) == sorted(["参与挑战的角色",
                                                                         "任何角色"])
    assert choice.input_value() == "participating"
    choice.select_option("any")
    names = page.locator("input[name=player]")
    for i, name in enumerate(("Ann", "Bo")):
        names.nth(i).fill(name)
    page.locator("#create").click()
    page.locator("#created").wait_for()
    gid = page.locator("#created").get_attribute("data-game-id")
    created = server.get(f"/games/{gid}/events")["events"][0]["data"]
    assert created["options"]["military_claim_scope"] == "any"
    form = page.evaluate("() => document.body.innerText")
    assert "participating" not in form
