"""Each board renderer draws the view shapes of its game faithfully, and survives shapes it
does not know (missing fields, other types) by falling back to the generic view."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from .boardcheck import check_board
from .conftest import ROOT, snap

pytestmark = pytest.mark.browser

BOARDS = sorted(p.stem for p in (ROOT / "api" / "static" / "boards").glob("*.js"))
VIEWS = Path(__file__).parent / "views"
SAMPLES = sorted(p.stem for p in VIEWS.glob("*.json"))

RENDER_JS = """async ([slug, doc, prev]) => {
  await CH.loadBoard(slug);
  const cat = (await CH.catalog())[slug] || {cards: {}};
  const board = document.createElement('section');
  document.getElementById('board')?.remove();
  board.id = 'board'; document.body.append(board);
  CH.renderBoard(board, doc, prev, cat);
  board.dataset.loaded = String(doc.seq);
  return board.dataset.renderer;
}"""


def _doc(slug: str, view: dict, players: list[str], seq: int = 5) -> dict:
    return {"game_id": "x", "game": slug, "seq": seq, "status": "in_progress", "view": view,
            "result": None, "to_act": view.get("to_act", []) if isinstance(view, dict) else [],
            "players": players}


@pytest.fixture
def blank(page, server):
    page.goto(f"{server.url}/")
    return page


@pytest.mark.parametrize("slug", SAMPLES)
def test_renderer_draws_the_sample_views(blank, slug: str) -> None:
    sample = json.loads((VIEWS / f"{slug}.json").read_text())
    prev = None
    for seq, which in enumerate(("seat0", "spectator", "final")):
        doc = _doc(slug, sample[which], sample["players"], seq)
        renderer = blank.evaluate(RENDER_JS, [slug, doc, prev])
        assert renderer == slug
        assert check_board(blank, doc) >= 5
        snap(blank, f"board-{slug}-{which}")
        prev = doc
    assert blank.js_errors == []


ODD_VIEWS = [{}, {"players": "odd", "capital": None, "electorates": 3, "garden": 7},
             {"status": "x", "unexpected": [1, {"a": None}], "portraits": [], "hands": None},
             {"players": [None, {}], "in_play": [None], "court_layout": ["gate"]}]


@pytest.mark.parametrize("slug", BOARDS)
def test_renderer_survives_unknown_shapes(blank, slug: str) -> None:
    for view in ODD_VIEWS:
        doc = _doc(slug, view, ["A", "B"])
        blank.evaluate(RENDER_JS, [slug, doc, doc])
        blank.locator("#board[data-renderer]").wait_for(state="attached")
    assert blank.js_errors == []


def test_unknown_game_gets_the_generic_view(blank) -> None:
    doc = _doc("no_such_game", {"phase": "play", "hands": [["a", "b"], None]}, ["A", "B"])
    assert blank.evaluate(RENDER_JS, ["no_such_game", doc, None]) == "generic"
    assert check_board(blank, doc) >= 2
