"""The page checks of test_pages catch what they look for: each is shown failing on a planted
fault (a raw id on the board, a board wider than the screen, a step that scrolls the window,
the final scores shown early, a seat left unnamed) before it is trusted to pass."""

from __future__ import annotations

import pytest

from projections import GAMES, get_rules

from .boardcheck import check_board
from .conftest import ROOT
from .readable import ENGLISH, component_ids, raw_words
from .test_pages import _seats_named, leaks, overflow


@pytest.mark.parametrize("slug", sorted(GAMES))
def test_every_raw_id_of_the_edition_is_caught_and_its_label_is_not(slug: str) -> None:
    labels = get_rules(slug).labels()
    ids = component_ids(slug)
    assert ids, f"{slug}: no component id to look for"
    for raw in ids:
        assert raw_words(slug, f"Anna took {raw} from the deck"), raw
        label = labels.get(raw)
        if label and label not in ENGLISH[slug]:
            assert not [m for m in raw_words(slug, f"Anna took {label} from the deck")
                        if m[0] == "a component id"], (raw, label)


@pytest.mark.parametrize("text", [
    "score: None", "hand: null", "undefined", "NaN", "[object Object]", '{"card": 1}',
    "in_progress", "Seat 2 ended the turn", "seat 0", "p1-063-2", "1:france:high", "true"])
def test_the_generic_leaks_are_caught(text: str) -> None:
    assert raw_words("royals", text), text


def test_readable_sentences_pass() -> None:
    for text in ("Anna drew 2 cards from the deck", "The table undid \u201cBo took Paris\u201d",
                 "Bo won with 21. The game ended: five rounds played.", "1st seat 40%"):
        assert raw_words("royals", text) == [], text


@pytest.mark.browser
def test_the_page_checks_fail_on_planted_faults(page, server) -> None:
    path = ROOT / "fixtures" / "royals" / "2_players.jsonl"
    gid = server.import_fixture(path)
    summary = server.get(f"/games/{gid}")
    last, players = summary["last_seq"], summary["players"]
    mid = last // 2
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(f"{server.url}/games/{gid}/replay?at={mid}")
    check_board(page, server.get(f"/games/{gid}/state?at={mid}"))
    assert not [w for w in leaks(page, "royals", "#title, #who, #final") if w], "clean to start"
    # a raw id on the board
    page.evaluate("() => document.getElementById('board').append(Object.assign("
                  "document.createElement('span'), {textContent: 'german_states paris'}))")
    found = {w for _, w in leaks(page, "royals", "#board")}
    assert {"german_states", "paris"} <= found
    # a board wider than the phone, not shrunk to fit
    page.evaluate("() => { const d = document.createElement('div'); d.style.width = '1400px';"
                  " d.textContent = 'wide'; document.getElementById('board').append(d); }")
    assert overflow(page), "a 1400 px board on a 390 px screen is caught"
    # a seat the board does not name
    assert _seats_named(page, [*players, "Zelda"]) == ["Zelda"]
    # the final scores, shown before the end
    finals = page.locator("#final [data-final-score]:visible, #final .breakdown-list:visible")
    assert finals.count() == 0
    page.locator("#show-final").click()
    assert finals.count() > 0, "the scores, once shown, are seen by the check"
    # a step that scrolls the window to the event list (the old scrollIntoView)
    page.goto(f"{server.url}/games/{gid}/replay?at={mid}")
    page.locator(f'#board[data-loaded="{mid}"]').wait_for()
    page.evaluate("() => document.getElementById('board').addEventListener('stepped', () => "
                  "document.querySelector('#events .current').scrollIntoView())")
    before = page.evaluate("() => scrollY")
    page.locator("#next").click()
    page.locator(f'#board[data-loaded="{mid + 1}"]').wait_for()
    assert page.evaluate("() => scrollY") != before, "a step that scrolls the window is caught"


GENERIC_JS = """([doc, prev]) => {
  const board = document.createElement('section');
  document.body.append(board);
  CH.renderBoard(board, doc, prev, {cards: {}});
  return [...board.querySelectorAll('.changed')].map((el) => el.dataset.path);
}"""


@pytest.mark.browser
def test_the_generic_view_marks_what_the_step_changed_and_nothing_else(page, server) -> None:
    page.goto(f"{server.url}/")
    view = {"phase": "play", "deck": 30, "hands": [["a", "b"], ["c"]], "score": [1, 2]}
    later = {**view, "deck": 29, "hands": [["a", "b", "d"], ["c"]]}
    doc = {"game": "no_such_game", "seq": 2, "view": later, "players": ["A", "B"]}
    prev = {"game": "no_such_game", "seq": 1, "view": view, "players": ["A", "B"]}
    marked = set(page.evaluate(GENERIC_JS, [doc, prev]))
    assert {"deck", "hands.0"} <= marked
    assert not marked & {"phase", "score", "hands.1"}, marked
    assert page.evaluate(GENERIC_JS, [doc, None]) == [], "the first step marks nothing"
