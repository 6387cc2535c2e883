"""The terminal's wording faults of issue 33, each against what the rules or the game say:
a resolved Thrones challenge that nobody defended, whole-number score bins, the `--seed`
help, Palais Royal players named in full, Royals' noble house discs said to be unclaimed."""

from __future__ import annotations

import io
import itertools

from click.testing import CliRunner
from rich.console import Console

from cli import main
from cli.boards import BoardContext
from cli.boards import palais_royal as pr_board
from cli.boards import thrones as th_board
from events.audit import _histogram


def _text(renderable, width: int = 80) -> str:
    out = io.StringIO()
    Console(file=out, width=width, highlight=False, color_system=None).print(renderable)
    return out.getvalue()


def _challenge(step: str) -> dict:
    return {"players": [{"house": "stark"}, {"house": "lannister"}], "in_play": [],
            "challenge": {"type": "military", "attacker": 0, "defender": 1, "step": step,
                          "attackers": ["c1"], "defenders": [], "strength": [3, 0],
                          "winner": 0 if step == "resolved" else None}}


def test_a_resolved_challenge_nobody_defended_says_nobody_not_nobody_yet() -> None:
    ctx = BoardContext(names=("Ann", "Bo"), labels={"c1": "Eddard Stark"})
    open_one = _text(th_board._challenge(_challenge("attackers_declared"), th_board.Words(
        _challenge("attackers_declared"), ctx)))
    assert "Defending: nobody yet" in open_one
    done = _challenge("resolved")
    shown = _text(th_board._challenge(done, th_board.Words(done, ctx)))
    assert "Defending: nobody —" in shown and "nobody yet" not in shown
    assert "Ann won 3 to 0" in shown


def test_whole_number_scores_are_binned_in_whole_numbers() -> None:
    scores = [14, 15, 15, 16, 20, 22, 27, 30, 31, 40]
    bins = _histogram(scores)
    assert all(isinstance(b["from"], int) and isinstance(b["to"], int) for b in bins)
    # every score falls in exactly one bin, the bins tile [14, 40] without a gap
    assert sum(b["count"] for b in bins) == len(scores)
    for b, nxt in itertools.pairwise(bins):
        assert nxt["from"] == b["to"] + 1
    assert bins[0]["from"] == 14 and bins[-1]["to"] == 40
    for b in bins:
        assert b["count"] == sum(1 for s in scores if b["from"] <= s <= b["to"])
    # fractional values (average lengths, say) keep fractional bins
    assert any(not float(b["from"]).is_integer() for b in _histogram([0.5, 1.25, 9.75]))


def test_new_help_says_the_seed_only_adds_entropy() -> None:
    shown = CliRunner().invoke(main, ["new", "--help"], env={"COLUMNS": "100"}).output
    assert "dealing seed" not in shown
    assert "entropy" in shown and "never chooses the cards" in " ".join(shown.split())


def test_palais_royal_names_players_in_full_in_the_court_and_the_garden() -> None:
    names = ("Annabel", "Anne", "Bastien")
    view = {"phase": "play", "players": [{"court": {"gate": 2}}, {"court": {"gate": 1}},
                                         {"court": {}}],
            "court_layout": ["gate"], "garden": {"r0c0": None, "r0c1": None},
            "garden_servants": {"r0c0": 0, "r0c1": 1}}
    shown = _text(pr_board.board(view, BoardContext(names=names)))
    assert "Annabel 2" in shown and "Anne 1" in shown
    assert "● Annabel" in shown and "● Anne" in shown
    assert "Ann " not in shown.replace("Anne", "").replace("Annabel", "")


def test_royals_says_the_noble_house_discs_are_nobodys_yet(tmp_path) -> None:
    db = str(tmp_path / "r.db")
    runner = CliRunner()
    gid = runner.invoke(main, ["--db", db, "import", "fixtures/royals/4_players.jsonl"]
                        ).output.splitlines()[0]
    shown = runner.invoke(main, ["--db", db, "state", gid, "--at", "10"],
                          env={"COLUMNS": "100"}).output
    assert "Noble house discs not yet won (for a cube on every title tile): 16, 12, 8" in \
        " ".join(shown.split()).replace("│ ", "")
