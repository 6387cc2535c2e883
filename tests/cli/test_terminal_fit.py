"""`chronicle replay` in an 80 x 50 terminal (issue 33, item 3): every fixture's steps fit
on the screen with the step's sentence on top, so the "Step N of M: what happened" line
never scrolls away; the board is compact when the whole one is taller than the terminal.

The oracle is the terminal's own arithmetic: a step printed in 50 lines with the cursor
on the next one scrolls nothing away when it takes at most 49 lines, each at most 80
columns wide. The check is first shown to fail without the height (the whole board)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from rich.cells import cell_len

from cli import main
from projections.messages import M, render

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = sorted((ROOT / "fixtures").glob("*/*.jsonl"))
WIDTH, HEIGHT = 80, 50
#: the word of the board's title that numbers the step ("... · step 5 of 40")
STEP_WORD = {"en": "step", "zh_Hans": "步"}


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> str:
    return str(tmp_path_factory.mktemp("fit") / "fit.db")


IMPORTED: dict[tuple[str, Path], str] = {}


def _import(db: str, path: Path) -> tuple[str, int]:
    if (db, path) not in IMPORTED:
        out = CliRunner().invoke(main, ["--db", db, "import", str(path)])
        assert out.exit_code == 0, out.output
        IMPORTED[db, path] = out.output.splitlines()[0].strip()
    return IMPORTED[db, path], len(path.read_text().splitlines()) - 1


def _step(db: str, game_id: str, at: int, lines: int | None = HEIGHT, lang: str = "en"
          ) -> list[str]:
    env = {"COLUMNS": str(WIDTH), **({"LINES": str(lines)} if lines else {})}
    out = CliRunner().invoke(main, ["--db", db, "--lang", lang, "replay", game_id, "--at",
                                    str(at)], env=env)
    assert out.exit_code == 0, out.output
    return out.output.splitlines()


def _steps(last: int) -> list[int]:
    """Every step of a short game; a sample through a long one, its end included."""
    return sorted({*range(0, last + 1, max(1, last // 12)), last})


def _sentence(path: Path, at: int, lang: str = "en") -> str:
    """The opening words of the step's sentence, from the recorded event (for the order)."""
    return render(M("Step {seq} of {last}: ", seq=at,
                    last=len(path.read_text().splitlines()) - 1), lang)


def _fit_problems(db: str, path: Path, lang: str) -> list[str]:
    """What scrolls away or runs past the edge when each sampled step is printed in `lang`
    (widths in terminal cells: a Chinese character takes two)."""
    game_id, last = _import(db, path)
    problems = []
    for at in _steps(last):
        shown = _step(db, game_id, at, lang=lang)
        if len(shown) > HEIGHT - 1:
            problems.append(f"step {at}: {len(shown)} lines")
        wide = [line for line in shown if cell_len(line) > WIDTH]
        if wide:
            problems.append(f"step {at}: {len(wide)} lines wider than {WIDTH}")
        if not shown[0].startswith(_sentence(path, at, lang)):
            problems.append(f"step {at}: the first line is not the step's sentence: {shown[0]!r}")
        if not any(STEP_WORD[lang] in line and "╭" in line for line in shown[1:6]):
            problems.append(f"step {at}: the board does not follow the sentence")
    return problems


@pytest.mark.parametrize("path", FIXTURES, ids=lambda p: f"{p.parent.name}-{p.stem}")
def test_every_step_fits_an_80_by_50_terminal_with_its_sentence_on_top(db: str,
                                                                        path: Path) -> None:
    problems = _fit_problems(db, path, "en")
    assert not problems, "\n".join(problems)


ZH_FIXTURES = [p for slug in ("in_the_shadow_of_the_emperor", "palais_royal", "thrones")
               for p in sorted((ROOT / "fixtures" / slug).glob("*.jsonl"))]


@pytest.mark.parametrize("path", ZH_FIXTURES, ids=lambda p: f"zh-{p.parent.name}-{p.stem}")
def test_every_converted_step_fits_in_chinese_too(db: str, path: Path) -> None:
    """Chinese takes two cells a character: the converted boards must still fit."""
    problems = _fit_problems(db, path, "zh_Hans")
    assert not problems, "\n".join(problems)


def test_a_line_of_chinese_is_measured_in_cells() -> None:
    """Planted: 41 Chinese characters are 41 characters but 82 cells, past the edge."""
    assert len("选" * 41) <= WIDTH < cell_len("选" * 41)


def test_the_fit_check_fails_on_the_whole_board() -> None:
    """Planted: without the terminal's height, the busiest boards run far past 50 lines."""
    path = ROOT / "fixtures" / "royals" / "4_players.jsonl"
    runner_db = str(Path(pytest.importorskip("tempfile").mkdtemp()) / "whole.db")
    game_id, last = _import(runner_db, path)
    assert len(_step(runner_db, game_id, last, lines=None)) > HEIGHT


def test_a_compact_board_still_names_every_player_and_the_result(db: str) -> None:
    for slug in ("royals", "thrones", "palais_royal", "in_the_shadow_of_the_emperor"):
        path = max((ROOT / "fixtures" / slug).glob("*.jsonl"),
                   key=lambda p: len(json.loads(p.read_text().splitlines()[0])["data"]
                                     ["players"]))
        game_id, last = _import(db, path)
        players = json.loads(path.read_text().splitlines()[0])["data"]["players"]
        shown = "\n".join(_step(db, game_id, last))
        assert len(shown.splitlines()) < HEIGHT
        missing = [p for p in players if p not in shown]
        assert not missing, f"{slug}: {missing} not named"
        assert " wins" in shown or "share the win" in shown, f"{slug}: no result"
