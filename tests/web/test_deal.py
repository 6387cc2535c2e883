"""Palais Royal's setup at a table in a handful of taps (issue 33's closing note; README,
"Taps per move"): the recorder's tablet deals the court and the garden ("Deal the rest
here"), the table lays the tiles as the board shows, and the move is the rules' own. The
oracle is the spec's setup (§3: a permutation of the 9 court tiles, 36 distinct nobles in
the garden) and the server's verify, not the page."""

from __future__ import annotations

import pytest

from projections import get_rules

from .choosing import patient_tap, settle
from .conftest import new_context

pytestmark = pytest.mark.browser

TABLET = {"viewport": {"width": 768, "height": 1024}, "has_touch": True}
GOAL = 15  # README's goal for the whole setup, Record included


def _recorder(browser, server, slug: str, players: list[str]):
    made = server.post("/games", {"game": slug, "players": players, "mode": "table"}).json()
    ctx = new_context(browser, **TABLET)
    page = ctx.new_page()
    page.goto(f"{server.url}/games/{made['id']}/record?token={made['recorder_token']}")
    page.locator('#record[data-seq="0"]').wait_for(state="attached")
    settle(page)
    return ctx, page, made


def test_the_tablet_deals_a_palais_royal_layout_in_a_few_taps(browser, server) -> None:
    ctx, page, made = _recorder(browser, server, "palais_royal", ["Ann", "Bo", "Cy", "Di"])
    try:
        taps = 0
        deal = page.locator("[data-deal]")
        deal.wait_for()
        deal.click()
        taps += 1
        settle(page)
        while page.locator('#record[data-seq="0"]').count():
            tapped = patient_tap(page)  # the first option, or Record once ready
            assert tapped in ("choose", "pick", "record"), tapped
            taps += 1
            if page.locator("[data-deal]").count():  # a later layout of the same move
                page.locator("[data-deal]").click()
                taps += 1
            if tapped == "record":
                page.locator('#record[data-seq="1"]').wait_for(state="attached")
            assert taps <= GOAL, f"{taps} taps and the setup is not recorded"
        token = made["recorder_token"]
        setup = server.get(f"/games/{made['id']}/events", token)["events"][1]
        assert setup["type"] == "setup"
        court, garden = setup["data"]["court_layout"], setup["data"]["garden"]
        tiles = get_rules("palais_royal").edition
        assert sorted(court) == sorted(t["id"] for t in tiles["court"]["tiles"])
        nobles = [n for n in garden.values() if n is not None]
        assert len(nobles) == len(garden) == 36 and len(set(nobles)) == 36
        assert server.get(f"/games/{made['id']}/verify")["ok"]
        print(f"\nPalais Royal setup at the table: {taps} taps, Deal and Record included")
    finally:
        ctx.close()


def test_a_card_drawn_from_a_deck_is_never_dealt_by_the_tablet(browser, server) -> None:
    """Royals' setup and draws are what the table's deck gives: no "Deal the rest" there."""
    ctx, page, _ = _recorder(browser, server, "royals", ["Ann", "Bo"])
    try:
        for _ in range(6):
            assert page.locator("[data-deal]").count() == 0
            if patient_tap(page) == "record":
                page.wait_for_timeout(300)
        assert page.locator("[data-deal]").count() == 0
    finally:
        ctx.close()
