"""Shared fixtures: a store on a temporary database, the recorder, the CLI runner."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from events import Recorder
from events.sqlite import SQLiteStore

ROOT = Path(__file__).resolve().parents[1]
FIXTURES = ROOT / "fixtures"


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--update-goldens", action="store_true",
                     help="rewrite fixtures/*/*.expected.json from the current reducers")


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "chronicle.db"


@pytest.fixture
def store(db_path: Path):
    s = SQLiteStore(str(db_path))
    yield s
    s.close()


@pytest.fixture
def rec(store) -> Recorder:
    return Recorder(store)


@pytest.fixture
def runner(db_path: Path):
    """Invoke the CLI against the test database: runner(["games"]) -> Result."""
    from cli import main

    cli_runner = CliRunner()

    def invoke(args: list[str], **kwargs):
        return cli_runner.invoke(main, ["--db", str(db_path), *args], **kwargs)

    return invoke


@pytest.fixture
def app(db_path):
    from api import create_app

    return create_app({"TESTING": True, "DATABASE": db_path, "STREAM_SECONDS": 0.5})


@pytest.fixture
def client(app):
    return app.test_client()


def fixture_files(slug: str | None = None) -> list[Path]:
    pattern = f"{slug}/*.jsonl" if slug else "*/*.jsonl"
    return sorted(FIXTURES.glob(pattern))


def load_fixture(path: Path) -> tuple[list[dict], dict]:
    envelopes = [json.loads(line) for line in path.read_text("utf-8").splitlines() if line]
    expected = json.loads(path.with_suffix("").with_suffix(".expected.json").read_text("utf-8"))
    return envelopes, expected
