"""Palais Royal's web board in the replay viewer: every recorded game at its start, middle and
end fits 1280, 768 and 390 px without sideways scrolling, shows the state faithfully, names
players and pieces (no ids), and marks what the last move changed."""

from __future__ import annotations

import json

import pytest

from tests.projections.palais_royal_readable import FIXTURES, id_problems

from .boardcheck import check_board
from .conftest import _watch, new_context, snap

pytestmark = pytest.mark.browser

WIDTHS = (1280, 768, 390)
OVERFLOW_JS = "() => [document.documentElement.scrollWidth, window.innerWidth]"
# the board's box scrolls sideways rather than widen the page: its content must fit it too
BOARD_FITS_JS = "() => { const b = document.getElementById('board'); " \
    "return [b.scrollWidth, b.clientWidth]; }"


def _events(path):
    return [json.loads(line) for line in path.read_text("utf-8").splitlines() if line]


@pytest.fixture(scope="module", params=WIDTHS, ids=[f"{w}px" for w in WIDTHS])
def sized(browser, request):
    ctx = new_context(browser, viewport={"width": request.param, "height": 900})
    yield request.param, ctx
    ctx.close()


@pytest.mark.parametrize("path", FIXTURES, ids=[p.stem for p in FIXTURES])
def test_the_board_fits_the_screen_and_reads_in_words(server, sized, path):
    width, ctx = sized
    gid = server.import_fixture(path)
    events = _events(path)
    last = events[-1]["seq"]
    names = events[0]["data"]["players"]
    page = _watch(ctx.new_page())
    try:
        for at in (2, last // 2, last):
            page.goto(f"{server.url}/games/{gid}/replay?at={at}")
            doc = server.get(f"/games/{gid}/state?at={at}")
            assert check_board(page, doc) > 50  # the 36 garden spaces and more
            scroll, inner = page.evaluate(OVERFLOW_JS)
            assert scroll <= inner, f"{path.stem} step {at} is {scroll} px wide at {inner} px"
            content, box = page.evaluate(BOARD_FITS_JS)
            assert content <= box, f"{path.stem} step {at}: the board scrolls sideways"
            text = page.locator("#board").inner_text()
            assert not id_problems(text), (at, id_problems(text))
            for name in names:
                assert name in text
            snap(page, f"palais-royal-{path.stem}-{width}-{at}")
        assert page.js_errors == []
    finally:
        page.close()


def test_a_recruit_marks_its_garden_space_and_the_players_new_noble(server, sized):
    _width, ctx = sized
    path = FIXTURES[0]
    events = _events(path)
    recruit = next(e for e in events if e["type"] == "recruit_noble" and e["seq"] > 20)
    gid = server.import_fixture(path)
    page = _watch(ctx.new_page())
    try:
        page.goto(f"{server.url}/games/{gid}/replay?at={recruit['seq']}")
        page.locator(f'#board[data-loaded="{recruit["seq"]}"]').wait_for()
        space = page.locator(f'[data-space="{recruit["data"]["space"]}"]')
        assert "changed" in space.get_attribute("class")
        seat = recruit["actor"]
        item = json.dumps(recruit["data"]["noble"])
        new = page.locator(f'[data-seat="{seat}"] [data-item=\'{item}\']')
        assert "changed" in new.get_attribute("class")
        assert page.locator(".changed").count() < 20  # the move, not the whole board
    finally:
        page.close()


RENDER_JS = """async ([doc]) => {
  await CH.loadBoard('palais_royal');
  await CH.catalog();
  document.getElementById('board')?.remove();
  const board = document.createElement('section');
  board.id = 'board'; document.body.append(board);
  CH.renderBoard(board, doc, null, null);
  return board.innerText;
}"""


def test_the_word_check_fails_on_a_piece_without_a_label(server, browser):
    """Planted fault: a garden noble the labels do not know shows as its id, and the check
    above reports it."""
    ctx = new_context(browser)
    page = _watch(ctx.new_page())
    try:
        page.goto(f"{server.url}/")
        view = {"phase": "play", "court_layout": ["gate"], "garden": {"r0c0": "n21",
                                                                      "r0c1": "n99"},
                "players": [{"gold": 1}, {"gold": 2}]}
        doc = {"game_id": "x", "game": "palais_royal", "seq": 1, "view": view,
               "players": ["Anne", "Bastien"], "to_act": [0]}
        text = page.evaluate(RENDER_JS, [doc])
        assert "7 pts" in text  # n21 drawn from its label
        assert "n99" in id_problems(text)
    finally:
        ctx.close()
