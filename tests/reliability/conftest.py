"""Helpers of the reliability tests: sizes (bounded or full), figures, servers, game cuts.

Sizes: the default is the bounded run CI does (`./test -m slow`); set
CHRONICLE_RELIABILITY=full for the long run. Every test adds its figures (kills survived,
appends acknowledged and found, hostile inputs tried, twin pairs built, observers probed,
endpoints and questions asked of both twins, leaks found, planted leaks caught) to one table
printed at the end of the run and written to $CHRONICLE_FIGURES (JSON) when that is set.
"""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
from collections import defaultdict
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import requests

from events import CreatedGame, Recorder
from events.model import GENESIS, seal

ROOT = Path(__file__).resolve().parents[2]
WRITER = Path(__file__).with_name("writer.py")
FULL = os.environ.get("CHRONICLE_RELIABILITY") == "full"

FIGURES: dict[str, int] = defaultdict(int)


def size(bounded: int, full: int) -> int:
    """The bounded figure in CI, the full one with CHRONICLE_RELIABILITY=full."""
    return full if FULL else bounded


def count(name: str, n: int = 1) -> None:
    FIGURES[name] += n


def pytest_terminal_summary(terminalreporter: Any) -> None:
    if not FIGURES:
        return
    terminalreporter.section("reliability figures" + (" (full run)" if FULL else ""))
    for name in sorted(FIGURES):
        terminalreporter.write_line(f"{name:<44} {FIGURES[name]}")
    target = os.environ.get("CHRONICLE_FIGURES")
    if target:
        Path(target).write_text(json.dumps(dict(sorted(FIGURES.items())), indent=2) + "\n")


# -- processes ---------------------------------------------------------------------------
def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def writer(*args: str) -> subprocess.Popen[str]:
    return subprocess.Popen([sys.executable, str(WRITER), *args], cwd=ROOT, text=True,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            start_new_session=True)


def acks(output: str) -> list[tuple[int, str, str]]:
    """(seq, hash, extra) of every complete `ack` line (a torn last line is ignored)."""
    out = []
    for line in output.splitlines(keepends=True):
        parts = line.split()
        if line.endswith("\n") and parts and parts[0] == "ack":
            out.append((int(parts[1]), parts[2], parts[3] if len(parts) > 3 else ""))
    return out


def kill_group(proc: subprocess.Popen[Any]) -> None:
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
    proc.wait(timeout=30)


class Server:
    """`chronicle serve` (gunicorn) on a loopback port, its output in a file."""

    def __init__(self, db: Path, log: Path, workers: int = 1) -> None:
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.log = log
        env = {**os.environ, "PYTHONPATH": str(ROOT)}
        with open(log, "ab") as out:
            self.proc = subprocess.Popen(
                [sys.executable, "-c", "from cli import main; main()", "--db", str(db),
                 "serve", "--no-samples", "--host", "127.0.0.1", "--port", str(self.port),
                 "--workers", str(workers)],
                cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT,
                start_new_session=True)
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            try:
                if requests.get(f"{self.url}/healthz", timeout=1).ok:
                    return
            except requests.RequestException:
                time.sleep(0.05)
            if self.proc.poll() is not None:
                break
        self.kill()
        raise RuntimeError(f"chronicle serve did not start: {log.read_text()[-2000:]}")

    def kill(self) -> None:
        kill_group(self.proc)


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Server]:
    srv = Server(tmp_path / "served.db", tmp_path / "server.log")
    yield srv
    srv.kill()


# -- game cuts ---------------------------------------------------------------------------
def import_prefix(rec: Recorder, envelopes: list[dict[str, Any]], upto: int,
                  game_id: str) -> CreatedGame:
    """Events 0..upto of a recorded game, re-chained as a new game, imported by the recorder."""
    prev, lines = GENESIS, []
    for env in envelopes[: upto + 1]:
        sealed = seal(game_id, env["seq"], env["type"], env["actor"], env["data"], prev,
                      recorded_at=env.get("recorded_at"))
        prev = sealed["hash"]
        lines.append(json.dumps(sealed))
    return rec.import_lines(lines)


def table_game(rec: Recorder) -> CreatedGame:
    """A table-mode Adaman game with its layout dealt: notes and undo keep it going."""
    from projections.rules import Action, Dealer

    created = rec.create_game({"game": "adaman", "players": ["Ann"], "mode": "table"})
    gid = created.id
    rules, cursor = rec.cursor(gid)
    drawn = rules.fill_chance(cursor.state, Action.of("setup", "table", {}), Dealer("t", 1))
    rec.record(gid, {"type": "setup", "actor": "table", "data": drawn})
    return created


def fixture_games() -> list[Path]:
    """One recorded game per registered game and mode (finished, digital, with undo)."""
    return sorted((ROOT / "fixtures").glob("*/*.jsonl"))
