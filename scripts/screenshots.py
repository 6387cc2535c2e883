"""Regenerate the README's screenshots (issue #33): one replay page in English and the same
step in Simplified Chinese, 1280 px wide, from a sample game.

    .venv/bin/python scripts/screenshots.py [--fixture royals/3_players] [--at 40]

Imports the sample into a throwaway SQLite store, serves the app on loopback (werkzeug, its
own process), opens the replay in the system Chromium (`/usr/bin/chromium`, headless,
Playwright) and writes docs/screenshots/replay-en.png and replay-zh-Hans.png; each must stay
under 200 KB (it says so and exits 1 when one does not).
"""

from __future__ import annotations

import argparse
import os
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from playwright.sync_api import sync_playwright

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # run as a script from anywhere: the project's own packages

from events import Recorder, open_store  # noqa: E402

CHROMIUM = "/usr/bin/chromium"
OUT = ROOT / "docs" / "screenshots"
WIDTH, HEIGHT = 1280, 720
LIMIT = 200 * 1024
#: the page's language -> the file it is saved as
LANGUAGES = {"en": "replay-en.png", "zh-Hans": "replay-zh-Hans.png"}


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def _imported(db: Path, fixture: Path) -> str:
    """The sample stored in a fresh database (verified on the way in); its game id."""
    store = open_store(str(db))
    try:
        return Recorder(store).import_lines(fixture.read_text("utf-8").splitlines()).id
    finally:
        store.close()


@contextmanager
def serving(db: Path) -> Iterator[str]:
    """The app on 127.0.0.1 over `db`, until the block ends; its base URL."""
    port = _free_port()
    code = ("from api import create_app; from werkzeug.serving import run_simple; "
            f"run_simple('127.0.0.1', {port}, create_app(), threaded=True)")
    env = {**os.environ, "CHRONICLE_DB": str(db), "PYTHONPATH": str(ROOT)}
    proc = subprocess.Popen([sys.executable, "-c", code], env=env, cwd=str(ROOT),
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    url = f"http://127.0.0.1:{port}"
    try:
        _wait_up(url, proc)
        yield url
    finally:
        proc.terminate()
        proc.wait(timeout=10)


def _wait_up(url: str, proc: subprocess.Popen[bytes]) -> None:
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline and proc.poll() is None:
        try:
            with urllib.request.urlopen(f"{url}/healthz", timeout=1) as answer:
                if answer.status == 200:
                    return
        except OSError:
            time.sleep(0.1)
    raise SystemExit("the app did not start")


def shoot(url: str, game_id: str, at: int) -> list[Path]:
    """One PNG per language of the replay at step `at`, once its board is drawn."""
    OUT.mkdir(parents=True, exist_ok=True)
    written = []
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, headless=True,
                                     args=["--no-sandbox", "--disable-gpu"])
        for lang, name in LANGUAGES.items():
            page = browser.new_page(viewport={"width": WIDTH, "height": HEIGHT},
                                    locale="zh-CN" if lang != "en" else "en-GB")
            page.goto(f"{url}/games/{game_id}/replay?at={at}&lang={lang}")
            page.locator("#board[data-renderer]").wait_for()
            page.wait_for_load_state("networkidle")
            path = OUT / name
            page.screenshot(path=str(path), full_page=False)
            written.append(path)
            page.close()
        browser.close()
    return written


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--fixture", default="royals/3_players",
                        help="a sample game under fixtures/ (default: royals/3_players)")
    parser.add_argument("--at", type=int, default=40, help="the step shown (default: 40)")
    args = parser.parse_args(argv)
    fixture = ROOT / "fixtures" / f"{args.fixture}.jsonl"
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "screenshots.db"
        game_id = _imported(db, fixture)
        with serving(db) as url:
            written = shoot(url, game_id, args.at)
    too_big = [p for p in written if p.stat().st_size >= LIMIT]
    for path in written:
        sys.stdout.write(f"{path.relative_to(ROOT)}: {path.stat().st_size // 1024} KB\n")
    if too_big:
        sys.stderr.write(f"over {LIMIT // 1024} KB: {', '.join(p.name for p in too_big)}\n")
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
