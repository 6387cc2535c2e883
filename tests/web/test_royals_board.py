"""Royals' web board as a person sees it: each fixture at its start, middle and end, in the
replay page, shows the state faithfully (check_board), draws every cube in the colour its
player chose at setup, reads in names and labels (no id of the edition), and fits 1280, 768
and 390 px without scrolling sideways; in a live game a seat sees its own hand as card faces
and the others' as face-down counts.

Colours are judged by the nearest CSS colour name of what is drawn, ids by the edition JSON
(`royals_readable`): neither comes from the board's own tables.
"""

from __future__ import annotations

import pytest

from ..projections.royals_readable import FIXTURES, unreadable
from .boardcheck import check_board
from .conftest import new_context, snap

pytestmark = pytest.mark.browser

CSS_COLOURS = {"black": (0, 0, 0), "white": (255, 255, 255), "grey": (128, 128, 128),
               "purple": (128, 0, 128), "orange": (255, 165, 0), "red": (255, 0, 0),
               "blue": (0, 0, 255), "green": (0, 128, 0), "yellow": (255, 255, 0)}

PROBE_JS = """() => {
  const board = document.getElementById('board');
  const colour = (el) => el ? getComputedStyle(el).backgroundColor : null;
  const seats = [...board.querySelectorAll('.seat h3 .pawn')].map(colour);
  const cubes = {};
  for (const el of board.querySelectorAll('.rl-europe .cube, .rl-court .cube')) {
    const seat = [...el.classList].find((c) => /^s\\d$/.test(c));
    (cubes[seat] ||= new Set()).add(colour(el));
  }
  return {text: board.innerText, seats,
          cubes: Object.fromEntries(Object.entries(cubes).map(([k, v]) => [k, [...v]]))};
}"""


def nearest_colour(css: str) -> str:
    rgb = tuple(int(x) for x in css[css.index("(") + 1:css.index(")")].split(",")[:3])
    return min(CSS_COLOURS, key=lambda name: sum((a - b) ** 2 for a, b in
                                                 zip(CSS_COLOURS[name], rgb, strict=True)))


def open_step(page, server, game_id: str, step: int, token: str | None = None) -> dict:
    query = f"?at={step}" + (f"&token={token}" if token else "")
    page.goto(f"{server.url}/games/{game_id}/replay{query}")
    page.locator(f'#board[data-loaded="{step}"]').wait_for()
    return server.get(f"/games/{game_id}/state?at={step}", token)


def steps_of(server, game_id: str) -> list[int]:
    last = server.get(f"/games/{game_id}")["last_seq"]
    return [2, last // 2, last]


@pytest.fixture
def page(browser):
    ctx = new_context(browser)
    pg = ctx.new_page()
    pg.js_errors = []
    pg.on("pageerror", lambda exc: pg.js_errors.append(str(exc)))
    yield pg
    ctx.close()


@pytest.mark.parametrize("path", FIXTURES, ids=[p.stem for p in FIXTURES])
def test_each_fixture_is_drawn_faithfully_in_the_players_colours_and_words(page, server, path):
    game_id = server.import_fixture(path)
    for step in steps_of(server, game_id):
        doc = {**open_step(page, server, game_id, step), "seq": step}
        assert check_board(page, doc) > 100
        probe = page.evaluate(PROBE_JS)
        colours = doc["view"]["colours"]
        assert [nearest_colour(c) for c in probe["seats"]] == colours, probe["seats"]
        for seat, drawn in probe["cubes"].items():
            assert {nearest_colour(c) for c in drawn} == {colours[int(seat[1:])]}, seat
        assert unreadable(probe["text"]) == [], step
        for name in doc["players"]:
            assert name in probe["text"]
    assert page.js_errors == []


def test_the_checks_see_a_planted_raw_id_and_a_wrong_colour(page, server):
    game_id = server.import_fixture(FIXTURES[1])
    open_step(page, server, game_id, 40)
    page.evaluate("""() => {
      const board = document.getElementById('board');
      board.querySelector('.rl-city b').textContent = 'paris_king';
      board.querySelector('.royals').style.setProperty('--seat0', '#d33');
    }""")
    probe = page.evaluate(PROBE_JS)
    assert "raw id 'paris_king'" in " ".join(unreadable(probe["text"]))
    assert nearest_colour(probe["seats"][0]) == "red"


@pytest.mark.parametrize("width", [1280, 768, 390])
def test_the_board_fits_the_width_without_scrolling_sideways(browser, server, width):
    """On a page of its own (the board tests' blank page), so that only the board is
    measured; then in the replay page of the 3-player game, whose side panel fits too."""
    ctx = new_context(browser, viewport={"width": width, "height": 900})
    try:
        page = ctx.new_page()
        page.goto(f"{server.url}/")
        for path in (FIXTURES[0], FIXTURES[-1]):  # 2 and 5 players
            game_id = server.import_fixture(path)
            for step in steps_of(server, game_id):
                doc = server.get(f"/games/{game_id}/state?at={step}")
                assert page.evaluate(RENDER_JS, ["royals", {**doc, "seq": step}, None]) == \
                    "royals"
                fit = page.evaluate(FIT_JS)
                assert fit["page"][0] <= fit["page"][1], (path.stem, step, fit)
                assert fit["board"][0] <= fit["board"][1], (path.stem, step, fit)
        game_id = server.import_fixture(FIXTURES[1])
        for step in steps_of(server, game_id):
            open_step(page, server, game_id, step)
            fit = page.evaluate(FIT_JS)
            assert fit["page"][0] <= fit["page"][1], ("replay", step, fit)
            snap(page, f"royals-replay-{width}-{step}")
    finally:
        ctx.close()


RENDER_JS = """async ([slug, doc, prev]) => {
  await CH.loadBoard(slug);
  const cat = (await CH.catalog())[slug] || {cards: {}};
  document.getElementById('board')?.remove();
  for (const el of document.body.children) el.hidden = true;  // only the board is measured
  const board = document.createElement('section');
  board.id = 'board'; document.body.append(board);
  CH.renderBoard(board, doc, prev, cat);
  await new Promise((r) => requestAnimationFrame(() => r()));
  return board.dataset.renderer;
}"""

FIT_JS = """() => {
  const board = document.getElementById('board');
  return {page: [document.documentElement.scrollWidth, window.innerWidth],
          board: [board.scrollWidth, board.clientWidth]};
}"""


def test_a_seat_sees_its_own_hand_as_cards_and_the_others_face_down(page, server):
    created = server.post("/games", {"game": "royals", "players": ["Ann", "Bo", "Cy"],
                                     "mode": "digital", "seed": "royals-board"}).json()
    game_id, tokens = created["id"], created["seat_tokens"]
    for _ in range(14):  # a few turns: draws, claims, ends
        to_act = server.get(f"/games/{game_id}/state")["to_act"]
        seat = to_act[0]
        options = server.get(f"/games/{game_id}/legal-actions", tokens[seat])["actions"]
        choice = next((a for a in options if a["type"] in ("claim_noble", "usurp_noble")),
                      options[0])
        assert server.post(f"/games/{game_id}/events", choice, tokens[seat]).status_code == 201
    last = server.get(f"/games/{game_id}")["last_seq"]
    doc = open_step(page, server, game_id, last, tokens[0])
    hands = doc["view"]["hands"]
    own = page.locator('#board .seat[data-seat="0"] .rl-hand .rl-card')
    assert own.count() == len(hands[0]["country"]) + len(hands[0]["intrigue"])
    for other in (1, 2):
        panel = page.locator(f'#board .seat[data-seat="{other}"] .rl-hand')
        assert panel.locator(".rl-card").count() == 0
        if hands[other]["country_count"]:
            assert "face down" in panel.inner_text()
    assert check_board(page, {**doc, "seq": last}) > 100
    snap(page, "royals-live-seat0")
    assert page.js_errors == []
