"""One complete game of each of the five games recorded at a table on a tablet, by tapping
only: every choice, every card turned up and every Record is a tap on the recorder's screen.
The players' choices and the cards that turn up are a seeded whim among what the screen
offers (always the first would loop for ever in Palais Royal: servants back and forth).
The taps per game are reported at the end of the run (and in artifacts/taps.json)."""

from __future__ import annotations

import json
import random

import pytest

from projections import GAMES

from .boardcheck import check_board
from .choosing import patient_tap
from .conftest import ARTIFACTS, TAPS, new_context, snap

pytestmark = [pytest.mark.browser, pytest.mark.slow]

TABLET = {"viewport": {"width": 768, "height": 1024}, "has_touch": True}
PLAYERS = ["Anna", "Bruno", "Chiara", "Dmitri", "Emma"]

#: with "table-adaman" the layout dealt leaves no move: a complete game of one deal
SEEDS = {"adaman": "table-adaman-a"}

def _create(page, server, slug: str) -> tuple[str, str]:
    seats = min(GAMES[slug].player_counts)
    page.goto(f"{server.url}/games/new?game={slug}")
    page.locator("#game").select_option(slug)
    names = page.locator("input[name=player]")
    names.first.wait_for()
    while names.count() < seats:
        page.locator("#add-player").click()
    for i in range(seats):
        names.nth(i).fill(PLAYERS[i])
    page.locator("input[name=mode][value=table]").check()
    page.locator("#create").click()
    page.locator("#created").wait_for()
    gid = page.locator("#created").get_attribute("data-game-id")
    href = page.locator(".recorder-link a").get_attribute("href")
    return gid, href.split("token=")[1]


@pytest.mark.parametrize("slug", sorted(GAMES))
def test_record_a_complete_table_game_by_tapping_only(browser, server, slug: str) -> None:
    ctx = new_context(browser, **TABLET)
    try:
        page = ctx.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        gid, token = _create(page, server, slug)
        page.goto(f"{server.url}/games/{gid}/record?token={token}")
        taps, kinds = 0, {"choose": 0, "pick": 0, "record": 0}
        whim = random.Random(SEEDS.get(slug, f"table-{slug}"))  # the same game every run
        for _ in range(40_000):
            game = server.get(f"/games/{gid}")
            seq = game["last_seq"]
            page.locator(f'#record[data-seq="{seq}"]').wait_for(state="attached")
            if game["status"] == "finished":
                break
            tapped = patient_tap(page, whim.random())  # a whim among the builder's buttons
            assert tapped in kinds, tapped
            taps += 1
            kinds[tapped] += 1
            if tapped == "record":
                page.wait_for_function(
                    f"document.getElementById('record').dataset.seq !== '{seq}' "
                    "|| !document.getElementById('error').hidden")
                assert page.locator("#error").is_hidden(), page.locator("#error").inner_text()
        final = server.get(f"/games/{gid}/state")
        assert final["status"] == "finished", f"not finished after {taps} taps"
        assert server.get(f"/games/{gid}/verify")["ok"]
        check_board(page, server.get(f"/games/{gid}/state", token))
        snap(page, f"table-game-{slug}-finished")
        moves = len([e for e in server.get(f"/games/{gid}/events?limit=5000")["events"]
                     if e["type"] != "game_created"])
        TAPS[slug] = {"taps": taps, **kinds, "moves": moves,
                      "players": len(server.get(f"/games/{gid}")["players"])}
        ARTIFACTS.mkdir(exist_ok=True)
        (ARTIFACTS / "taps.json").write_text(json.dumps(TAPS, indent=2, sort_keys=True))
        assert errors == []
    finally:
        ctx.close()
