"""Every game's replay (start, middle, end) and recorder, at 1280, 768 and 390 px: a
screenshot of each in artifacts/, and what a reader needs of them: no sideways scrolling,
no raw id or machine word on screen, every seat named, the final scores kept for the end,
and a step that never moves the window."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from projections import GAMES

from .boardcheck import check_board
from .conftest import ROOT, new_context, snap
from .readable import raw_words

pytestmark = pytest.mark.browser

SIZES = {"1280": {"width": 1280, "height": 800}, "768": {"width": 768, "height": 1024},
         "390": {"width": 390, "height": 844}}
TABLETS = {"portrait": {"width": 768, "height": 1024}, "landscape": {"width": 1024, "height": 768}}


def _widest(slug: str) -> Path:
    """The fixture with the most players (the widest board and score table)."""
    paths = sorted((ROOT / "fixtures" / slug).glob("*.jsonl"))
    return max(paths, key=lambda p: len(json.loads(p.read_text().splitlines()[0])["data"]
                                        ["players"]))


FIXTURES = {slug: _widest(slug) for slug in sorted(GAMES)}

#: what the page shows a reader (rendered text only: innerText skips what is hidden)
SHOWN_JS = """(sel) => [...document.querySelectorAll(sel)].map((el) => el.innerText).join('\\n')"""
READ = "#board, #events, #current, #final, #actions, #turn, #flash, #result-box, #title, #who"

OVERFLOW_JS = """() => {
  // the window scrolls sideways, or a box on it does (a board or table cut off at its edge)
  const out = [];
  const doc = document.documentElement;
  if (doc.scrollWidth > innerWidth) out.push(`page ${doc.scrollWidth} > ${innerWidth}`);
  const boxes = '#board, .table-wrap, .events, .pane, .controls, main, .actions';
  for (const el of document.querySelectorAll(boxes)) {
    if (!el.offsetParent && el !== document.body) continue;  // not shown
    if (el.scrollWidth > el.clientWidth + 1)
      out.push(`${el.id || el.className} ${el.scrollWidth} > ${el.clientWidth}`);
  }
  return out;
}"""


def overflow(page) -> list[str]:
    return page.evaluate(OVERFLOW_JS)


def leaks(page, slug: str, selector: str = READ) -> list[tuple[str, str]]:
    return raw_words(slug, page.evaluate(SHOWN_JS, selector))


def _seats_named(page, players: list[str]) -> list[str]:
    board = page.locator("#board").inner_text()
    return [name for name in players if name not in board]


@pytest.fixture(scope="module", params=list(SIZES))
def sized(request, browser):
    ctx = new_context(browser, viewport=SIZES[request.param])
    yield request.param, ctx
    ctx.close()


def _page(ctx):
    pg = ctx.new_page()
    errors: list[str] = []
    pg.on("pageerror", lambda exc: errors.append(str(exc)))
    pg.js_errors = errors
    return pg


def _check(page, slug: str, players: list[str], what: str, problems: list[str]) -> None:
    for p in overflow(page):
        problems.append(f"{what}: overflows sideways: {p}")
    found = sorted(set(leaks(page, slug)))
    if found:
        problems.append(f"{what}: raw words on screen: {found[:12]}")
    missing = _seats_named(page, players)
    if missing:
        problems.append(f"{what}: the board does not name {missing}")


@pytest.mark.parametrize("slug", sorted(GAMES))
def test_replay_and_recorder_read_well_at_every_width(sized, server, slug: str) -> None:
    size, ctx = sized
    path = FIXTURES[slug]
    game_id = server.import_fixture(path)
    summary = server.get(f"/games/{game_id}")
    players, last = summary["players"], summary["last_seq"]
    mid = last // 2
    page = _page(ctx)
    problems: list[str] = []
    page.goto(f"{server.url}/games/{game_id}/replay?at=0")
    page.locator("#audit-body #verify").wait_for()
    for name, step in (("start", 0), ("middle", mid), ("end", last)):
        page.locator("#slider").evaluate(
            "(el, n) => { el.value = n; el.dispatchEvent(new Event('input')); }", step)
        check_board(page, server.get(f"/games/{game_id}/state?at={step}"))
        snap(page, f"page-{slug}-replay-{name}-{size}")
        _check(page, slug, players, f"replay {name} at {size} px", problems)
        # the final scores are the end's: not shown before the last step
        finals = page.locator("#final [data-final-score]:visible, #final .breakdown-list:visible")
        if step < last:
            assert finals.count() == 0, f"the final scores show at step {step} of {last}"
        else:
            assert page.locator("#final-body").is_visible(), "the last step shows the scores"
    # stepping keeps the board where the reader put it; the list scrolls itself
    page.goto(f"{server.url}/games/{game_id}/replay?at={mid}")
    page.locator(f'#board[data-loaded="{mid}"]').wait_for()
    page.evaluate("() => scrollTo(0, document.getElementById('board').getBoundingClientRect().top"
                  " + scrollY - 120)")
    before = page.evaluate("() => [scrollY, document.getElementById('board')"
                           ".getBoundingClientRect().top]")
    for n, how in enumerate(("click", "key", "click", "key"), 1):
        if how == "click":
            page.locator("#next").click()
        else:
            page.keyboard.press("ArrowRight")
        page.locator(f'#board[data-loaded="{mid + n}"]').wait_for()
        after = page.evaluate("() => [scrollY, document.getElementById('board')"
                              ".getBoundingClientRect().top]")
        assert after == before, f"step {mid + n} moved the window: {before} -> {after}"
        inside = page.evaluate("""() => { const l = document.getElementById('events');
          const c = l.querySelector('.current').getBoundingClientRect();
          const b = l.getBoundingClientRect();
          return c.top >= b.top - 1 && c.bottom <= b.bottom + 1; }""")
        assert inside, "the event list shows the current step"
    # the final scores on request, before the end
    page.locator("#show-final").click()
    assert page.locator("#final-body").is_visible()
    # the recorder, mid-game at the table
    rec_id, token = server.import_prefix(path, mid, f"mid-{game_id}")
    page.goto(f"{server.url}/games/{rec_id}/record?token={token}")
    page.locator(f'#record[data-seq="{mid}"]').wait_for(state="attached")
    page.locator("#actions .action-group, #actions .note").first.wait_for()
    snap(page, f"page-{slug}-record-{size}")
    _check(page, slug, players, f"recorder at {size} px", problems)
    assert page.js_errors == []
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("slug", sorted(GAMES))
@pytest.mark.parametrize("turn", list(TABLETS))
def test_a_tablet_shows_the_actions_with_the_board_without_scrolling(browser, server, slug: str,
                                                                      turn: str) -> None:
    path = FIXTURES[slug]
    game_id = server.import_fixture(path)
    mid = server.get(f"/games/{game_id}")["last_seq"] // 2
    rec_id, token = server.import_prefix(path, mid, f"mid-{game_id}")
    ctx = new_context(browser, viewport=TABLETS[turn], has_touch=True)
    try:
        page = _page(ctx)
        page.goto(f"{server.url}/games/{rec_id}/record?token={token}")
        page.locator(f'#record[data-seq="{mid}"]').wait_for(state="attached")
        first = page.locator("#actions .action-group button").first
        first.wait_for()
        geometry = page.evaluate("""() => {
          const box = (sel) => { const r = document.querySelector(sel).getBoundingClientRect();
            return [r.top, r.bottom, r.left, r.right]; };
          return {page: document.documentElement.scrollHeight, view: innerHeight, width: innerWidth,
            board: box('.board-pane'), actions: box('.actions-pane'),
            button: box('#actions .action-group button')};
        }""")
        view, width = geometry["view"], geometry["width"]
        assert geometry["page"] <= view + 1, f"the page scrolls: {geometry['page']} > {view}"
        for part in ("board", "actions", "button"):
            top, bottom, left, right = geometry[part]
            assert top >= 0 and bottom <= view, (part, geometry)
            assert left >= 0 and right <= width, (part, geometry)
        top, bottom, _, _ = geometry["board"]
        assert bottom - top >= view * 0.3, "the board has a fair share of the screen"
        snap(page, f"tablet-{slug}-record-{turn}")
        assert page.js_errors == []
    finally:
        ctx.close()


def test_an_unknown_game_is_a_404_page(page, server) -> None:
    for where in ("replay", "record"):
        r = server.http.get(f"{server.url}/games/no-such-game/{where}")
        assert r.status_code == 404
        page.goto(f"{server.url}/games/no-such-game/{where}")
        assert "No such game" in page.locator("h1").inner_text()
        assert page.locator("#missing").inner_text() == "no-such-game"
        assert "checking" not in page.content()
