"""Browser tests: the real app on loopback (a werkzeug server process) and one headless
system Chromium per session, driven by Playwright's sync API."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
import requests

from events.model import GENESIS, seal

CHROMIUM = "/usr/bin/chromium"
NO_CHROMIUM = (f"the browser tests did not run: they need the system Chromium at {CHROMIUM} "
               "(./test installs it from Debian's packages when run as root)")
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]
ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "artifacts"


#: taps per game of the complete table games (test_table_games), reported after the run
TAPS: dict[str, dict[str, int]] = {}


def pytest_terminal_summary(terminalreporter) -> None:
    if not TAPS:
        return
    terminalreporter.section("taps per complete table game")
    for slug, n in sorted(TAPS.items()):
        terminalreporter.write_line(
            f"{slug}: {n['taps']} taps ({n['choose']} choices, {n['pick']} outcomes, "
            f"{n['record']} records) for {n['moves']} moves in the log, "
            f"{n['players']} {'player' if n['players'] == 1 else 'players'}")


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    if os.path.exists(CHROMIUM):
        return
    skip = pytest.mark.skip(reason=NO_CHROMIUM)
    for item in items:
        if "browser" in item.keywords:
            item.add_marker(skip)


class Server:
    """The chronicle app served on 127.0.0.1 by a werkzeug server in its own process (so
    the browser, the server and the test do not queue on one GIL)."""

    def __init__(self, db: Path) -> None:
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            port = probe.getsockname()[1]
        self.url = f"http://127.0.0.1:{port}"
        env = {**os.environ, "CHRONICLE_DB": str(db), "CHRONICLE_STREAM_SECONDS": "3",
               "PYTHONPATH": str(ROOT)}
        code = ("from api import create_app; from werkzeug.serving import run_simple; "
                f"run_simple('127.0.0.1', {port}, create_app(), threaded=True)")
        self.proc = subprocess.Popen([sys.executable, "-c", code], env=env, cwd=str(ROOT),
                                     stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        self.http = requests.Session()
        self.imported: dict[str, str] = {}
        deadline = time.monotonic() + 30
        while True:
            try:
                if self.http.get(f"{self.url}/healthz", timeout=1).status_code == 200:
                    break
            except requests.ConnectionError:
                pass
            if time.monotonic() > deadline or self.proc.poll() is not None:
                raise RuntimeError("the test server did not start")
            time.sleep(0.05)

    def import_fixture(self, path: Path) -> str:
        """Import a fixture log once per session; its game id."""
        key = str(path)
        if key not in self.imported:
            r = self.http.post(f"{self.url}/games/import", data=path.read_bytes(),
                               headers={"Content-Type": "application/x-ndjson"})
            assert r.status_code == 201, r.text
            self.imported[key] = r.json()["id"]
        return self.imported[key]

    def import_prefix(self, path: Path, upto: int, name: str) -> tuple[str, str]:
        """The first `upto` steps of a fixture as a new table game `name`, still running (a
        digital log's dealt outcomes become the cards turned up at the table); (id, the
        recorder's token)."""
        if name in self.imported:
            return self.imported[name], self.imported[name + ":token"]
        lines = [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
        envs, prev = [], GENESIS
        for env in lines[:upto + 1]:
            data = dict(env["data"])
            if env["type"] == "game_created":
                data.update(mode="table", seed_commitment=None)
            actor = "table" if env["actor"] == "server" else env["actor"]
            sealed = seal(name, env["seq"], env["type"], actor, data, prev,
                          recorded_at=env["recorded_at"])
            envs.append(json.dumps(sealed))
            prev = sealed["hash"]
        r = self.http.post(f"{self.url}/games/import", data="\n".join(envs),
                           headers={"Content-Type": "application/x-ndjson"})
        assert r.status_code == 201, r.text
        self.imported[name], self.imported[name + ":token"] = r.json()["id"], \
            r.json()["recorder_token"]
        return self.imported[name], self.imported[name + ":token"]

    def get(self, path: str, token: str | None = None) -> dict:
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        r = self.http.get(self.url + path, headers=headers)
        assert r.status_code == 200, r.text
        return r.json()

    def post(self, path: str, body: dict, token: str | None = None) -> requests.Response:
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        return self.http.post(self.url + path, json=body, headers=headers)

    def close(self) -> None:
        self.proc.terminate()
        self.proc.wait(timeout=10)


@pytest.fixture(scope="session")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    srv = Server(tmp_path_factory.mktemp("web") / "web.db")
    yield srv
    srv.close()


@pytest.fixture(scope="session")
def browser():
    if not os.path.exists(CHROMIUM):
        pytest.skip(NO_CHROMIUM)
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
        yield b
        b.close()


def snap(page, name: str) -> None:
    """Save a screenshot as a test artefact (artifacts/, gitignored)."""
    ARTIFACTS.mkdir(exist_ok=True)
    safe = "".join(c if c.isalnum() or c in "-_" else "_" for c in name)[:120]
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    # an artefact, not a check: a loaded 2-core machine can take over 10 s to paint a
    # 2,000-row page whole, so it gets longer, and a slow paint never fails the test
    try:
        page.screenshot(path=str(ARTIFACTS / f"{safe}.png"), full_page=True, timeout=60_000)
    except PlaywrightTimeout:
        page.screenshot(path=str(ARTIFACTS / f"{safe}.png"), timeout=60_000)


def _watch(pg):
    errors: list[str] = []
    pg.on("pageerror", lambda exc: errors.append(str(exc)))
    pg.js_errors = errors
    return pg


def new_context(browser, **kwargs):
    ctx = browser.new_context(**{"viewport": {"width": 1024, "height": 900}, **kwargs})
    ctx.set_default_timeout(10_000)
    return ctx


@pytest.fixture
def context(browser):
    """A fresh browser context, for tests that need their own (tokens, two devices)."""
    ctx = new_context(browser)
    yield ctx
    ctx.close()


@pytest.fixture(scope="module")
def shared_context(browser):
    """One context for a whole module: new contexts cost most of a second here."""
    ctx = new_context(browser)
    yield ctx
    ctx.close()


@pytest.fixture
def page(shared_context):
    pg = _watch(shared_context.new_page())
    yield pg
    pg.close()
