"""The web board of In the Shadow of the Emperor on the replay page: at 1280, 768 and 390 px
the page never scrolls sideways, the board still shows the state faithfully (boardcheck), and
its text names players and labels pieces, never ids (issue #20). Screenshots of the start,
middle and end of every fixture go to artifacts/.

The readability check on the page text is first shown to fail on planted faults (a board
drawn without names, and one drawn without labels)."""

from __future__ import annotations

import json
import re

import pytest

from projections import get_rules

from ..projections.test_in_the_shadow_of_the_emperor_words import (
    FIXTURES,
    fixture,
    states,
    unreadable,
)
from .boardcheck import check_board
from .conftest import new_context, snap

pytestmark = pytest.mark.browser

SLUG = "in_the_shadow_of_the_emperor"
R = get_rules(SLUG)
WIDTHS = (1280, 768, 390)

WIDTH_JS = """() => ({page: document.documentElement.scrollWidth, window: window.innerWidth,
  board: document.getElementById('board').scrollWidth,
  boardBox: document.getElementById('board').clientWidth})"""

RENDER_JS = """async ([slug, doc, alias]) => {
  if (alias && !CH.registerBoard.aliased) {  // the same renderer under a slug with no labels
    const orig = CH.registerBoard;
    CH.registerBoard = (s, fn) => { orig(s, fn); orig(alias, fn); };
    CH.registerBoard.aliased = true;
  }
  await CH.loadBoard(slug);
  const cat = alias ? {cards: {}} : (await CH.catalog())[slug];
  document.getElementById('board')?.remove();
  const board = document.createElement('section');
  board.id = 'board'; board.className = 'board'; document.body.append(board);
  CH.renderBoard(board, alias ? {...doc, game: alias} : doc, null, cat);
  board.dataset.loaded = String(doc.seq);
  return board.innerText;
}"""


def _text_problems(text: str, players: int) -> list[str]:
    """`unreadable`, and the pages' fallback for a seat without a name ("the 2nd player")."""
    flat = " ".join(text.split())
    return unreadable(flat, players) + re.findall(r"\bthe \d+(?:st|nd|rd|th) player\b", flat)


@pytest.fixture(scope="module")
def wide_pages(browser):
    pages = {}
    contexts = []
    for width in WIDTHS:
        ctx = new_context(browser, viewport={"width": width, "height": 900})
        contexts.append(ctx)
        page = ctx.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda exc, errors=errors: errors.append(str(exc)))
        page.js_errors = errors
        pages[width] = page
    yield pages
    for ctx in contexts:
        ctx.close()


@pytest.mark.parametrize("path", FIXTURES, ids=[p.stem for p in FIXTURES])
def test_the_replay_page_fits_every_width_and_reads_as_words(wide_pages, server, path):
    game_id = server.import_fixture(path)
    last = server.get(f"/games/{game_id}")["last_seq"]
    players = len(server.get(f"/games/{game_id}")["players"])
    for at in (0, last // 2, last):
        doc = server.get(f"/games/{game_id}/state?at={at}")
        for width, page in wide_pages.items():
            page.goto(f"{server.url}/games/{game_id}/replay?at={at}")
            check_board(page, doc)
            page.locator("#audit-body #verify").wait_for()
            sizes = page.evaluate(WIDTH_JS)
            assert sizes["page"] <= sizes["window"], (at, width, sizes)
            assert sizes["board"] <= sizes["boardBox"], (at, width, sizes)
            text = page.locator("#board").inner_text()
            assert _text_problems(text, players) == [], (at, width)
            snap(page, f"emperor-{path.stem}-{width}-at{at}")
            assert page.js_errors == []


def test_a_seat_s_view_and_a_vote_in_progress_read_as_words_on_a_phone(wide_pages, server):
    created, actions = fixture("4_players")
    names = list(created["players"])
    every = list(states(created, actions))
    voting = next(i for i, s in enumerate(every)
                  if s.pending is not None and s.pending.kind == "vote" and s.ballots)
    page = wide_pages[390]
    page.goto(f"{server.url}/")
    for seq in (voting, len(every) // 3):
        view = R.view(every[seq], 1)
        doc = {"game_id": "x", "game": SLUG, "seq": seq, "status": "in_progress",
               "view": json.loads(json.dumps(view)), "result": None,
               "to_act": view["to_act"], "players": names}
        text = page.evaluate(RENDER_JS, [SLUG, doc, None])
        check_board(page, doc)
        assert _text_problems(text, len(names)) == [], seq
        # the board itself fits the phone (the host page here is the index, not this board's)
        assert page.evaluate("""() => { const b = document.getElementById('board');
          return b.getBoundingClientRect().right <= window.innerWidth
            && b.scrollWidth <= b.clientWidth; }""")
        if seq == voting:
            assert "Election:" in text and "vote in secret" in text
    assert page.js_errors == []


def test_the_page_text_check_fails_on_a_board_without_names_or_labels(wide_pages, server):
    created, actions = fixture("3_players")
    state = list(states(created, actions[:40]))[-1]
    view = json.loads(json.dumps(R.view(state, None)))
    page = wide_pages[1280]
    page.goto(f"{server.url}/")
    doc = {"game_id": "x", "game": SLUG, "seq": 40, "status": "in_progress", "view": view,
           "result": None, "to_act": view["to_act"], "players": []}
    nameless = page.evaluate(RENDER_JS, [SLUG, doc, None])
    assert any(p.startswith(("seat ", "the 1st player")) for p in _text_problems(nameless, 3))
    doc = {**doc, "seq": 41, "players": list(created["players"])}
    page.goto(f"{server.url}/")  # a fresh page, so the board script loads with the alias
    unlabelled = page.evaluate(RENDER_JS, [SLUG, doc, f"{SLUG}_unlabelled"])
    assert "saxony" in _text_problems(unlabelled, 3)
    assert page.js_errors == []
