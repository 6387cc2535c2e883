"""The replay viewer in a real browser: every registered game, every fixture."""

from __future__ import annotations

from pathlib import Path

import pytest

from projections import GAMES

from .boardcheck import check_board
from .conftest import ROOT, snap

pytestmark = pytest.mark.browser

# every game's first fixture by default; all the others with `pytest -m slow` (each costs a
# few seconds of browser time on a small machine)
FIXTURES = [pytest.param(slug, path, id=f"{slug}-{path.stem}",
                         marks=() if i == 0 else (pytest.mark.slow,))
            for slug in sorted(GAMES)
            for i, path in enumerate(sorted((ROOT / "fixtures" / slug).glob("*.jsonl")))]


def _open(page, server, game_id: str, query: str = "") -> None:
    page.goto(f"{server.url}/games/{game_id}/replay{query}")


@pytest.mark.parametrize(("slug", "path"), FIXTURES)
def test_step_through_a_fixture(page, server, slug: str, path: Path) -> None:
    game_id = server.import_fixture(path)
    last = server.get(f"/games/{game_id}")["last_seq"]
    state = {n: server.get(f"/games/{game_id}/state?at={n}") for n in
             {0, 1, max(0, last - 1), last, last // 2}}
    _open(page, server, game_id)
    page.locator("#board[data-renderer]").wait_for()
    check_board(page, state[last])
    assert page.locator("#slider").input_value() == str(last)
    snap(page, f"replay-{slug}-{path.stem}-last")
    # keys
    page.keyboard.press("ArrowLeft")
    check_board(page, state[max(0, last - 1)])
    page.keyboard.press("Home")
    check_board(page, state[0])
    page.keyboard.press("ArrowRight")
    check_board(page, state[min(1, last)])
    assert page.locator("#events li.current").get_attribute("data-seq") == str(min(1, last))
    # the slider
    page.locator("#slider").evaluate(
        "(el, n) => { el.value = n; el.dispatchEvent(new Event('input')); }", last // 2)
    check_board(page, state[last // 2])
    assert f"at={last // 2}" in page.url
    # the permalink, opened afresh
    href = page.locator("#permalink").get_attribute("href")
    page.goto(server.url + href)
    check_board(page, state[last // 2])
    assert page.locator("#events li.current").get_attribute("data-seq") == str(last // 2)
    # the current step's words are the events endpoint's description
    events = server.get(f"/games/{game_id}/events")
    note = events["annotations"].get(str(last // 2), {})
    if note.get("description"):  # verbatim, but for a capital at the start of the sentence
        said = note["description"]
        assert said[0].upper() + said[1:] in page.locator("#current").inner_text()
    assert page.js_errors == []


def _games(n: int) -> str:
    return "1 game" if n == 1 else f"{n} games"


def test_the_index_lists_and_filters_games(page, server) -> None:
    for path in sorted((ROOT / "fixtures" / "adaman").glob("*.jsonl"))[:2]:
        server.import_fixture(path)
    page.goto(f"{server.url}/")
    everything = server.get("/games?limit=500")
    total = everything["total"]
    shown = min(50, total)
    page.locator("#count").filter(
        has_text=_games(total) if shown == total else f"{shown} of {_games(total)}").wait_for()
    # the game column names the game, as the filter does
    first = everything["games"][0]
    assert page.locator("#games tbody tr td").first.inner_text() == GAMES[first["game"]].title
    assert "Adaman" in page.locator("select[name=game]").inner_text()
    page.locator("select[name=status]").select_option("finished")
    finished = server.get("/games?status=finished&limit=500")
    want = min(50, finished["total"])
    page.locator("#count").filter(has_text=_games(finished["total"]) if want == finished["total"]
                                  else f"{want} of {_games(finished['total'])}").wait_for()
    rows = page.locator("#games tbody tr")
    assert rows.count() == want
    assert "status=finished" in page.url
    page.locator("input[name=player]").fill("nobody-plays-here")
    page.locator("#filters button[type=submit]").click()
    page.locator("#count").filter(has_text="0 games").wait_for()
    assert page.locator("#more").is_hidden(), "nothing more to show: no button"
    page.locator("input[name=player]").fill("")
    page.locator("#filters button[type=submit]").click()
    page.locator("#games tbody tr .replay-link").first.click()
    page.locator("#board[data-loaded]").wait_for()
    assert "/replay" in page.url


def test_the_index_shows_more_games_a_page_at_a_time(page, server) -> None:
    for path in sorted(ROOT.glob("fixtures/*/*.jsonl")):
        server.import_fixture(path)
    total = server.get("/games?limit=500")["total"]
    assert total > 10
    # a small page size, so the API's own paging (next) runs as a long archive's would
    page.goto(f"{server.url}/?limit=7")
    rows = page.locator("#games tbody tr")

    def count_says(text: str) -> None:
        page.wait_for_function("(t) => document.getElementById('count').textContent === t",
                               arg=text)

    count_says(f"7 of {total} games")
    clicks = 0
    while page.locator("#more").is_visible():
        page.locator("#more").click()
        clicks += 1
        count_says(f"{7 * (clicks + 1)} of {total} games" if 7 * (clicks + 1) < total
                   else f"{total} games")
    assert clicks == (total - 1) // 7
    assert rows.count() == total
    ids = [rows.nth(i).get_attribute("data-game-id") for i in range(total)]
    assert len(set(ids)) == total, "every game once"
    assert page.locator("#more").is_hidden()


def test_explore_from_here_forks_a_finished_game_and_the_fork_links_back(page, server) -> None:
    """Issue #24: "what if?" from the step on screen. The fork opens at the table, its own
    replay says where it comes from and marks the first move of its own."""
    game_id = server.import_fixture(ROOT / "fixtures" / "adaman" / "won.jsonl")
    _open(page, server, game_id, "?at=4")
    page.locator('#board[data-loaded="4"]').wait_for()
    page.locator("#explore").click()
    page.wait_for_url("**/record?token=*")
    fork_id = page.url.split("/games/")[1].split("/")[0]
    fork = server.get(f"/games/{fork_id}")
    assert fork["origin"]["game_id"] == game_id and fork["origin"]["seq"] == 4
    assert fork["mode"] == "table"
    _open(page, server, fork_id)
    origin = page.locator("#origin")
    origin.wait_for()
    assert "step 4" in origin.inner_text()
    assert origin.locator("a").get_attribute("href") == f"/games/{game_id}/replay?at=4"
    snap(page, "replay-fork")


def test_explore_from_here_is_not_offered_on_a_digital_game_in_progress(page, server) -> None:
    """Issue #31: a digital game in progress hides its deals, so its fork can only be
    refused (events/forking.py): the button is not offered. The server refuses it still."""
    made = server.post("/games", {"game": "royals", "players": ["Ann", "Bo"],
                                  "mode": "digital", "seed": "no-fork"}).json()
    assert server.post(f"/games/{made['id']}/fork", {"at": 0}).status_code == 403
    _open(page, server, made["id"])
    page.locator("#board[data-renderer]").wait_for()
    page.locator("#events li").first.wait_for()
    assert page.locator("#explore").is_hidden()
