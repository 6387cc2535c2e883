"""Shared fixtures: a store on a temporary database, the recorder, the CLI runner."""

from __future__ import annotations

import json
import os
import uuid
from pathlib import Path
from urllib.parse import quote

import pytest
from click.testing import CliRunner
from hypothesis import settings

from events import Recorder
from events.sqlite import SQLiteStore

# Deals in tests follow from the seed a test sends, as they did before the server mixed in
# its own randomness; tests of that randomness (tests/reliability/test_fair_seeds.py) unset
# it. It reaches the servers the tests start too, since they inherit the environment.
os.environ.setdefault("CHRONICLE_UNSAFE_FIXED_ENTROPY", "chronicle-tests")

# Property tests draw the same examples on every run, so a red run is a change's and never a
# draw's (and CI repeats what a developer saw). `HYPOTHESIS_PROFILE=explore ./test` draws new
# examples and keeps the failures it finds in .hypothesis/ to replay them.
settings.register_profile("repeatable", derandomize=True, database=None)
settings.register_profile("explore", derandomize=False)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "repeatable"))

ROOT = Path(__file__).resolve().parents[1]
FIXTURES = ROOT / "fixtures"
PG_ENV = "CHRONICLE_TEST_POSTGRES"
PG_SKIP = (f"PostgreSQL tests need a server: set {PG_ENV}=postgresql://USER@HOST:PORT/DB "
           "(./test starts a throwaway one with scripts/pg-cluster.sh)")


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


def with_search_path(url: str, schema: str) -> str:
    """The URL with libpq's options set so every connection works in `schema`."""
    return f"{url}{'&' if '?' in url else '?'}options={quote(f'-csearch_path={schema}')}"


@pytest.fixture
def pg_url():
    """A PostgreSQL URL on a fresh, empty schema of its own, dropped afterwards."""
    base = os.environ.get(PG_ENV)
    if not base and os.environ.get("CHRONICLE_REQUIRE_POSTGRES"):
        pytest.fail(f"CHRONICLE_REQUIRE_POSTGRES is set (CI) but there is no server: {PG_SKIP}")
    if not base:
        pytest.skip(PG_SKIP)
    import psycopg

    schema = f"test_{uuid.uuid4().hex[:16]}"
    with psycopg.connect(base, autocommit=True) as conn:
        conn.execute(f"CREATE SCHEMA {schema}")
    yield with_search_path(base, schema)
    with psycopg.connect(base, autocommit=True) as conn:
        conn.execute(f"DROP SCHEMA {schema} CASCADE")


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def store_url(request, db_path) -> str:
    """The database URL of each backend in turn (for the contract suites)."""
    if request.param == "sqlite":
        return str(db_path)
    return request.getfixturevalue("pg_url")


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
