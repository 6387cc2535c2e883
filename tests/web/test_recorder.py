"""The table recorder's words and taps: chance outcomes offered by their labels, each
distinct card once with the copies left; Record offered only for a complete move, saying in
the rules' words what is still missing; a layout entered one tap per space."""

from __future__ import annotations

from collections import Counter

import pytest

from projections import get_rules

from .choosing import declared, settle
from .conftest import new_context
from .readable import raw_words

pytestmark = pytest.mark.browser

#: these tests drive the old chance-slot screen, for a game not declared yet (its moves
#: built from choices are tested in test_choices_recorder)
OLD_SCREEN = "the game builds its moves from choices (test_choices_recorder)"
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


@pytest.mark.skipif(declared("royals"), reason=OLD_SCREEN)
def test_outcomes_are_offered_by_label_once_each_with_the_copies_left(tablet, server) -> None:
    page, _, legal = _open(tablet, server, "royals", ["Ann", "Bo"])
    labels = get_rules("royals").labels()
    display = next(s for s in legal["chance_slots"]["0"] if s["field"] == "display")
    copies = Counter(display["options"])
    group = page.locator('[data-type="setup"]')
    group.locator('[data-slot="display"]').click()  # open the display's slot
    buttons = group.locator('[data-pick="display"] button')
    shown = {buttons.nth(i).get_attribute("data-card"): buttons.nth(i).inner_text()
             for i in range(buttons.count())}
    assert sorted(shown) == sorted(copies), "each distinct card once"
    for card, text in shown.items():
        left = f"{TIMES}{copies[card]}" if copies[card] > 1 else ""
        assert text.replace("\n", "") == f"{labels[card]}{left}", (card, text)
    first = sorted(copies)[0]
    group.locator(f'[data-pick="display"] button[data-card="{first}"]').click()
    after = group.locator(f'[data-pick="display"] button[data-card="{first}"]').inner_text()
    assert after.replace("\n", "") == labels[first] + (
        f"{TIMES}{copies[first] - 1}" if copies[first] > 2 else ""), "one copy used up"
    assert page.js_errors == []


@pytest.mark.skipif(declared("royals"), reason=OLD_SCREEN)
def test_record_waits_for_a_complete_move_and_says_what_is_missing(tablet, server) -> None:
    page, _, legal = _open(tablet, server, "royals", ["Ann", "Bo"])
    slots = legal["chance_slots"]["0"]
    record = page.locator('[data-type="setup"] .record-action')
    assert record.is_disabled()
    said = record.inner_text()
    assert said.startswith("Still to tap: ")
    for slot in slots:
        assert slot["label"] in said, (slot["label"], said)
    assert raw_words("royals", said) == [], said
    # tap everything the setup needs, in order: Record comes on with the last outcome
    taps = 0
    while record.is_disabled():
        page.locator('[data-type="setup"] .choices[data-pick]:not([data-complete]) button')\
            .first.click()
        taps += 1
        assert taps <= 10
    assert taps == sum(s["count"] if s["many"] else 1 for s in slots)
    assert record.inner_text() == "Record: setup"
    record.click()
    page.locator('#record[data-seq="1"]').wait_for(state="attached")
    page.locator("#flash").filter(has_text="Recorded: ").wait_for()
    assert page.locator("#flash").inner_text().startswith("Recorded: ")
    assert page.js_errors == []


@pytest.mark.skipif(declared("palais_royal"), reason=OLD_SCREEN)
def test_a_palais_royal_layout_is_one_tap_per_space_and_a_fix_is_two(tablet, server) -> None:
    page, _, legal = _open(tablet, server, "palais_royal", ["Ann", "Bo"])
    slots = legal["chance_slots"]["0"]
    group = page.locator('[data-type="setup"]')
    record = group.locator(".record-action")
    taps = 0
    while record.is_disabled():
        group.locator(".choices[data-pick]:not([data-complete]) button").first.click()
        taps += 1
        assert taps <= len(slots)
    assert taps == len(slots), "one tap per space, the next space opens by itself"
    # a space entered wrong: tap it, tap the right tile
    space = next(s for s in slots if s["field"] == "garden")
    key = ".".join([space["field"], *map(str, space["path"])])
    before = group.locator(f'[data-slot="{key}"]').inner_text()
    group.locator(f'[data-slot="{key}"]').click()
    group.locator(f'[data-pick="{key}"] button:not(.on)').first.click()
    assert group.locator(f'[data-slot="{key}"]').inner_text() != before
    assert not record.is_disabled(), "still complete after the fix"
    assert page.js_errors == []


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
    if not declared("adaman"):
        pytest.skip("adaman's moves are not built from choices on this branch")
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
