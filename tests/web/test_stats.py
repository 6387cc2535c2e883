"""The statistics page, on an archive of exactly the sample fixtures: its numbers are the
fixtures' golden results (`*.expected.json`) and their logs, counted here in Python."""

from __future__ import annotations

import json
from collections import defaultdict
from statistics import median

import pytest

from projections import GAMES
from projections.replay import META_TYPES, effective_stack

from .conftest import ROOT, Server, new_context, snap
from .readable import raw_words
from .test_pages import overflow

pytestmark = pytest.mark.browser

FIXTURES = sorted(ROOT.glob("fixtures/*/*.jsonl"))


@pytest.fixture(scope="module")
def archive(tmp_path_factory: pytest.TempPathFactory):
    """A server whose archive is the fixtures and nothing else."""
    srv = Server(tmp_path_factory.mktemp("stats") / "stats.db")
    for path in FIXTURES:
        srv.import_fixture(path)
    yield srv
    srv.close()


def _expected(player: str | None = None) -> dict[str, dict]:
    """Per game, from the golden files: finished games, win rate by seat, scores, lengths."""
    out: dict[str, dict] = defaultdict(lambda: {"finished": 0, "sat": defaultdict(int),
                                                "won": defaultdict(int), "scores": [],
                                                "lengths": []})
    for path in FIXTURES:
        golden = json.loads(path.with_name(f"{path.stem}.expected.json").read_text())
        # the index's filter: a player whose name contains these letters, in any case
        if player and not any(player.lower() in p.lower() for p in golden["players"]):
            continue
        if golden["status"] != "finished":
            continue
        g = out[golden["game"]]
        g["finished"] += 1
        for seat in range(len(golden["players"])):
            g["sat"][seat] += 1
        for seat in golden["result"]["winners"]:
            g["won"][seat] += 1
        g["scores"] += golden["result"]["scores"]
        envs = [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
        g["lengths"].append(len([s for s in effective_stack(envs)
                                 if envs[s]["type"] not in META_TYPES]))
    return out


def _check_page(page, expected: dict[str, dict]) -> None:
    page.locator("#charts[data-ready]").wait_for(timeout=30_000)
    sections = page.locator("#charts .game-stats")
    shown = [sections.nth(i).get_attribute("data-game") for i in range(sections.count())]
    assert set(shown) == set(expected)
    for slug, g in expected.items():
        section = page.locator(f'#charts .game-stats[data-game="{slug}"]')
        assert section.locator("h2").inner_text() == GAMES[slug].title
        for seat, n in g["sat"].items():
            rate = page.locator(f'#charts .game-stats[data-game="{slug}"] '
                                f'.win-rates tr[data-seat="{seat}"] td[data-rate]')
            assert rate.get_attribute("data-rate") == f"{g['won'][seat] / n:.3f}", (slug, seat)
        text = section.inner_text()
        scores = g["scores"]
        assert f"lowest {min(scores)}, median {median(scores):g}, highest {max(scores)}" in text
        lens = g["lengths"]
        assert f"shortest {min(lens)}, median {median(lens):g}, longest {max(lens)}" in text
        assert section.locator("svg").count() == 3, "three charts"
        bars = section.locator("svg").nth(0).locator("[data-bar]")
        assert bars.count() == len(g["sat"]), "one bar per seat"
    assert raw_words("royals", page.locator("#charts").inner_text()) == []


@pytest.mark.parametrize("width", [1280, 390])
def test_the_statistics_page_charts_the_archive(browser, archive, width: int) -> None:
    ctx = new_context(browser, viewport={"width": width, "height": 900})
    try:
        page = ctx.new_page()
        page.goto(f"{archive.url}/statistics")
        _check_page(page, _expected())
        assert overflow(page) == []
        snap(page, f"stats-all-{width}")
        # filtered like the index: a player's games only
        page.locator("input[name=player]").fill("Anna")
        page.locator("#filters button[type=submit]").click()
        page.wait_for_function("document.getElementById('charts').dataset.ready !== 'yes'"
                               " || location.search.includes('player=Anna')")
        _check_page(page, _expected("Anna"))
        assert "player=Anna" in page.url
        snap(page, f"stats-anna-{width}")
    finally:
        ctx.close()
