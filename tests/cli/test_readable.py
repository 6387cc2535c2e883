"""What a person reads at the terminal (issue #20): every fixture's `state`, `replay` and
`verify` at 80 and 120 columns, with no line past the width, no Python repr, no `None` and
no snake_case; players by name, results as sentences.

The fixtures are imported once into a database of this module's own; an unfinished copy of
each (its first half) shows what a seat and a spectator may see while a game is running.
"""

from __future__ import annotations

import io
import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner
from rich.console import Console
from rich.pretty import Pretty

from events import Recorder
from events.sqlite import SQLiteStore

from ..conftest import fixture_files, load_fixture

WIDTHS = (80, 120)
FIXTURES = fixture_files()
#: games whose own sentences (`describe`, written by each game's rules) still carry
#: snake_case ids; the terminal's own words are checked for every game regardless
REPRS = ("{'", "FrozenDict(", "None", "Pretty(", "<projections", "[{", "{\"")
SNAKE = re.compile(r"\b[a-z][a-z0-9]*(?:_[a-z0-9]+)+\b")


def _id(path: Path) -> str:
    return f"{path.parent.name}/{path.stem}"


def _game_id(path: Path) -> str:
    return json.loads(path.read_text("utf-8").splitlines()[0])["game_id"]


def _import(db: Path, paths: list[Path], half: bool = False) -> None:
    store = SQLiteStore(str(db))
    rec = Recorder(store)
    for path in paths:
        lines = path.read_text("utf-8").splitlines(keepends=True)
        rec.import_lines(lines[: max(2, len(lines) // 2)] if half else lines)
    store.close()


@pytest.fixture(scope="module")
def dbs(tmp_path_factory) -> dict[str, Path]:
    """Every fixture whole ("full"), and its first half, still running ("running")."""
    root = tmp_path_factory.mktemp("readable")
    out = {"full": root / "full.db", "running": root / "running.db"}
    _import(out["full"], FIXTURES)
    _import(out["running"], FIXTURES, half=True)
    return out


def cli(db: Path, args: list[str], width: int, keys: str | None = None):
    from cli import main

    return CliRunner().invoke(main, ["--db", str(db), *args], input=keys,
                              env={"COLUMNS": str(width)})


# -- the checker, and proof that it catches each fault ------------------------------------
def unreadable(output: str, width: int, *, snake: bool = True) -> list[str]:
    """Each way `output` fails a reader at `width` columns."""
    found = [f"line {n} is {len(line)} columns wide: {line!r}"
             for n, line in enumerate(output.splitlines(), 1) if len(line) > width]
    found += [f"a repr ({bad!r}) is shown" for bad in REPRS if bad in output]
    if snake:
        found += [f"snake_case {word!r} is shown" for word in sorted(set(SNAKE.findall(output)))]
    return found


def _rendered(renderable, width: int) -> str:
    out = io.StringIO()
    Console(file=out, width=width, soft_wrap=True).print(renderable)
    return out.getvalue()


@pytest.mark.parametrize(("fault", "what"), [
    (lambda: _rendered(Pretty({"capital": ["castle"], "deck_count": 3}), 40), "repr"),
    (lambda: "Anna's score: None", "repr"),
    (lambda: "Anna placed a cube on the paris_king", "snake_case"),
    (lambda: _rendered("x" * 130, 200), "columns wide"),
])
def test_the_checker_catches_each_planted_fault(fault, what):
    assert any(what in problem for problem in unreadable(fault(), 80))


def test_the_checker_catches_a_board_that_prints_the_view_as_a_repr(dbs, monkeypatch):
    from cli import render

    monkeypatch.setattr(render, "board", lambda game, view, ctx: Pretty(view))
    out = cli(dbs["full"], ["state", "royals-3-players", "--at", "6"], 80)
    assert out.exit_code == 0, out.output
    assert unreadable(out.stdout, 80)


# -- state -------------------------------------------------------------------------------------
@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("path", FIXTURES, ids=_id)
def test_state_reads_cleanly_at_several_steps_of_a_finished_game(dbs, path, width):
    envelopes, expected = load_fixture(path)
    last = envelopes[-1]["seq"]
    for step in sorted({0, 1, last // 3, 2 * last // 3, last}):
        out = cli(dbs["full"], ["state", _game_id(path), "--at", str(step)], width)
        assert out.exit_code == 0, out.output
        assert unreadable(out.stdout, width) == [], (step, out.stdout)
        assert f"step {step} of {last}" in out.stdout
    final = cli(dbs["full"], ["state", _game_id(path)], width).stdout
    _assert_result_sentence(final, expected, every_name=True)


def _assert_result_sentence(text: str, expected: dict, every_name: bool = False) -> None:
    """The result in words, from the golden file: "Anna wins with 42 points"; with
    `every_name`, the scores table names every player too."""
    result, players = expected["result"], expected["players"]
    flat = " ".join(text.split())
    if result["winners"]:
        winner = result["winners"][0]
        assert f"{players[winner]} wins with {result['scores'][winner]} points" in flat
    else:
        assert f"{players[0]} loses with {result['scores'][0]} point" in flat
    for name in players if every_name else ():
        assert name in flat


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("path", FIXTURES, ids=_id)
def test_state_of_a_running_game_reads_cleanly_for_each_seat_and_a_spectator(dbs, path, width):
    players = load_fixture(path)[1]["players"]
    for viewer in [*map(str, range(len(players))), "spectator"]:
        out = cli(dbs["running"], ["state", _game_id(path), "--as", viewer], width)
        assert out.exit_code == 0, out.output
        assert unreadable(out.stdout, width) == [], (viewer, out.stdout)
        assert "in progress" in out.stdout
    state = cli(dbs["running"], ["state", _game_id(path)], width).stdout
    to_act = [line for line in state.splitlines() if "To act: " in line]
    assert to_act and any(name in to_act[0] for name in [*players, "the table"]), state


def test_an_empty_adaman_board_keeps_its_row_names_whole(dbs):
    """The bug of issue #20: the headers of an empty board came out a letter group a line."""
    for width in WIDTHS:
        out = cli(dbs["full"], ["state", "adaman-won", "--at", "0"], width).stdout
        lines = [line.strip("│ ") for line in out.splitlines()]
        for row in ("Court", "Capital", "Resources"):
            assert any(line.startswith(row) for line in lines), (row, out)
        assert "waiting for the deal" in out and "36 cards in the deck" in out


def test_a_wide_adaman_board_lies_across_the_screen_and_a_narrow_one_down_it(dbs):
    wide = cli(dbs["full"], ["state", "adaman-won", "--at", "6"], 120).stdout
    narrow = cli(dbs["full"], ["state", "adaman-won", "--at", "6"], 80).stdout
    # step 6 of the fixture: capital the Darkness, the Discovery, the Origin, the End,
    # the Lunatic (fixtures/adaman/won.jsonl, checked by hand against spec §3)
    assert re.search(r"the Darkness +the Discovery +the Origin +the End +the Lunatic", wide)
    assert re.search(r"the Darkness +9 +Waves, Wyrms", narrow)


# -- replay ------------------------------------------------------------------------------------
KEYS = ["n", "n", "p", "\x1b[C", "l", "p", "f", "q"]


def _expected_steps(keys: list[str], last: int) -> list[int]:
    """The steps the keys reach, by the key table of the command's help (n and → next,
    p previous, f first, l last, q quit), each counted when the step changes."""
    step, seen = 0, [0]
    for key in keys:
        if key == "q":
            break
        moved = {"n": step + 1, "\x1b[C": step + 1, "p": step - 1, "f": 0, "l": last}[key]
        moved = max(0, min(last, moved))
        if moved != step:
            seen.append(moved)
        step = moved
    return seen


def _steps_shown(output: str) -> list[int]:
    return [int(n) for n in re.findall(r"^Step (\d+) of \d+:", output, re.MULTILINE)]


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("path", FIXTURES, ids=_id)
def test_replay_driven_by_its_keys_starts_at_step_0_and_shows_each_step_once(dbs, path, width):
    last = load_fixture(path)[0][-1]["seq"]
    out = cli(dbs["full"], ["replay", _game_id(path)], width, keys="".join(KEYS))
    assert out.exit_code == 0, out.output
    # n n p → l p f: 0 1 2 1 2 last last-1 0 in a long game, each printed once as reached
    assert _steps_shown(out.stdout) == _expected_steps(KEYS, last)
    assert last < 10 or _steps_shown(out.stdout) == [0, 1, 2, 1, 2, last, last - 1, 0]
    assert "\x1b[" not in out.stdout, "no terminal codes when stdout is not a terminal"
    assert unreadable(out.stdout, width, snake=False) == [], out.stdout
    snakes = unreadable(out.stdout, width)
    assert snakes == []


def test_replay_at_prints_one_step_and_refuses_a_step_the_game_does_not_have(dbs):
    one = cli(dbs["full"], ["replay", "adaman-won", "--at", "3"], 80)
    assert one.exit_code == 0 and _steps_shown(one.stdout) == [3]
    outside = cli(dbs["full"], ["replay", "adaman-won", "--at", "99"], 80)
    assert outside.exit_code == 2 and "steps 0 to 12" in outside.output


def test_replay_on_a_terminal_clears_the_screen_before_each_step(monkeypatch):
    """Redrawing in place: one clear per step shown, none for a key that moves nowhere."""
    from cli import render, step_through

    screen = io.StringIO()
    monkeypatch.setattr(render, "console", lambda: Console(file=screen, width=80,
                                                           force_terminal=True))
    keys = iter("pnnq")  # p at step 0 goes nowhere
    seen = step_through(lambda step: f"board at step {step}", 5, lambda: next(keys),
                        redraw=True)
    assert seen == [0, 1, 2]
    assert screen.getvalue().count("\x1b[2J") == 3


def test_replay_stops_at_the_ends_and_on_an_interrupt():
    from cli import step_through

    def interrupt():
        raise KeyboardInterrupt

    keys = iter("ppnnnnnnnn")
    assert step_through(lambda s: str(s), 2, lambda: next(keys, "q"), False) == [0, 1, 2]
    assert step_through(lambda s: str(s), 2, interrupt, False) == [0]


# -- verify ------------------------------------------------------------------------------------
@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("path", FIXTURES, ids=_id)
def test_verify_is_a_report_in_sentences(dbs, path, width):
    envelopes, expected = load_fixture(path)
    out = cli(dbs["full"], ["verify", _game_id(path)], width)
    assert out.exit_code == 0, out.output
    assert unreadable(out.stdout, width) == [], out.stdout
    flat = " ".join(out.stdout.replace("│", " ").split())
    assert f"Hash chain intact: {len(envelopes)} events" in flat
    assert "Moves re-applied" in flat and "The record verifies." in flat
    if expected["mode"] == "digital":
        assert "Deals re-derived" in flat
    else:
        assert "Deals: a table game" in flat
    _assert_result_sentence(flat, expected)
    assert "Claims: no result was written down" in flat


def test_verify_json_is_the_report_document(dbs):
    out = cli(dbs["full"], ["verify", "royals-2-players", "--json"], 80)
    report = json.loads(out.stdout)
    assert set(report) >= {"ok", "first_bad_seq", "problems", "events", "checked", "result"}
    assert report["ok"] is True


def test_a_failed_verify_names_each_problem_in_a_sentence_and_exits_1(dbs, tmp_path):
    lines = (Path(__file__).parents[2] / "fixtures/adaman/won.jsonl").read_text().splitlines()
    lines[10] = lines[10].replace('"mill"', '"mil1"')
    bad = tmp_path / "bad.jsonl"
    bad.write_text("\n".join(lines) + "\n")
    out = cli(dbs["full"], ["verify", str(bad)], 80)
    assert out.exit_code == 1
    flat = " ".join(out.stdout.replace("│", " ").split())
    assert "✗ Hash chain: 1 problem." in flat and "Step 10: event 10's content" in flat
    assert "✗ Moves: 1 problem. Step 10: 'mil1' is not a Decktet card" in flat
    assert "The record does not verify: 2 problems, the first at step 10." in flat
    assert "verification failed at seq 10" in out.stderr
    assert unreadable(out.stdout, 80, snake=False) == []


def test_a_claimed_result_that_differs_is_named_by_player(tmp_path):
    from cli import main

    db = tmp_path / "claims.db"
    _import(db, [FIXTURES[0].parent / "won.jsonl"])
    runner = CliRunner()
    claim = runner.invoke(main, ["--db", str(db), "act", "adaman-won", "claim_result",
                                 "--actor", "table", "--data", '{"scores": [70]}'])
    assert claim.exit_code == 0, claim.output
    out = runner.invoke(main, ["--db", str(db), "verify", "adaman-won"],
                        env={"COLUMNS": "80"})
    assert out.exit_code == 1
    flat = " ".join(out.stdout.replace("│", " ").split())
    # the won fixture scores 79 (66 for the personalities, 13 left in resources, spec §7)
    assert "Ann's score was written as 70, the rules make it 79" in flat
    assert unreadable(out.stdout, 80) == []


# -- the other commands read as words too -----------------------------------------------------
@pytest.mark.parametrize("width", WIDTHS)
def test_games_log_legal_stats_reaudit_editions_and_compare_read_cleanly(dbs, width):
    commands = [["games"], ["log", "royals-2-players"], ["log", "adaman-with-undo"],
                ["legal", "adaman-won"], ["stats"], ["reaudit"], ["editions"],
                ["compare", "adaman-won", "adaman-with-undo"],
                ["compare", "adaman-won", "adaman-won"]]
    for args in commands:
        out = cli(dbs["full"], args, width)
        assert out.exit_code in (0, 1), (args, out.output)
        assert unreadable(out.stdout, width) == [], (args, out.stdout)
    running = cli(dbs["running"], ["legal", "adaman-won"], width)
    assert running.exit_code == 0 and unreadable(running.stdout, width) == []
    assert "Ann controlled" in running.stdout


def test_the_log_names_the_actor_not_the_seat_number(dbs):
    out = cli(dbs["full"], ["log", "royals-2-players"], 120).stdout
    rows = [line.split() for line in out.splitlines() if re.match(r"^\s{0,6}\d+\s{3}", line)]
    actors = {row[1] for row in rows}
    assert actors <= {"Player", "the"} and "Player" in actors, actors
    assert not any(re.match(r"^\s+\d+\s+\d+\s", line) for line in out.splitlines())


def test_stats_titles_stay_on_one_line_at_80_columns(dbs):
    out = cli(dbs["full"], ["stats"], 80).stdout
    for title in ("Adaman: 6 played, 6 finished", "Royals: 5 played, 5 finished"):
        assert any(line.startswith(title) for line in out.splitlines()), out


def test_a_correction_and_the_events_it_makes_illegal_read_without_rule_codes(tmp_path):
    from cli import main

    db = tmp_path / "corrected.db"
    _import(db, [FIXTURES[0].parent / "won.jsonl"])
    runner = CliRunner()
    # step 2 corrected to turn up the Sea, which step 3 turns up too (fixtures/adaman/won)
    fix = {"target_seq": 2, "action": {"type": "control", "actor": 0, "data": {
        "target": "painter", "spend": ["ace_knots", "desert"],
        "drawn": ["sailor", "ace_leaves", "sea"]}}}
    outs = [runner.invoke(main, ["--db", str(db), *args], env={"COLUMNS": "80"}) for args in (
        ["act", "adaman-won", "correction", "--actor", "table", "--data", json.dumps(fix)],
        ["log", "adaman-won"], ["verify", "adaman-won"])]
    assert [o.exit_code for o in outs] == [0, 0, 1]
    for out in outs:
        assert unreadable(out.stdout, 80) == [], out.stdout
    flat = " ".join(outs[2].stdout.replace("│", " ").split())
    assert "Step 3 is illegal after the corrections: the Sea is not in the deck" in flat
    assert "(corrected at step 13)" in " ".join(outs[1].stdout.split())
