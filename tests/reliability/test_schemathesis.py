"""schemathesis against /openapi.json, twice.

In process (WSGI, no network, fast tier): no 500 and no response off the documented schema.

Live (slow tier, what CI runs): the schemathesis command line against `chronicle serve`
(gunicorn) on loopback, every check (`-c all`), deterministic generation, every phase with
the stateful one: no failure, no error, and the stateful phase follows the document's links
from a new game to undo, redo, compare and fork with that game and its recorder token. The
project's schemathesis.toml (passed with --config-file) allows the rules' refusals that no
schema can express. Bounded: the issue's 40 examples per operation and 4 minutes in CI (`-m
slow`), 200 examples with CHRONICLE_RELIABILITY=full.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

import pytest
import requests
import schemathesis
from hypothesis import HealthCheck, settings
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import content_type_conformance, response_schema_conformance

from api import create_app
from api.schemas import PICKS_MAX
from api.serving import REQUEST_LINE_LIMIT

from .conftest import ROOT, Server, count, fixture_games, size

# /games/import takes JSON Lines: plain text on the wire
schemathesis.serializer.alias("application/x-ndjson", "text/plain")


APP = create_app({"TESTING": True, "DATABASE": ":memory:", "STREAM_SECONDS": 0.05})
schema = schemathesis.openapi.from_wsgi("/openapi.json", APP)


@pytest.fixture(scope="module")
def target():
    """Games to aim at, made on first use: the live run (slow tier) imports none of them."""
    client = APP.test_client()
    game = client.post("/games", json={"game": "adaman", "players": ["Ann"]}).json
    ids = [game["id"]]
    for path in fixture_games():
        ids.append(client.post("/games/import", data=path.read_bytes()).json["id"])
    return {"ids": ids, "token": game["recorder_token"]}


@schema.parametrize()
@settings(max_examples=size(8, 150), deadline=None, derandomize=True,
          suppress_health_check=list(HealthCheck))
def test_the_api_never_answers_500_nor_off_its_schema(case, target):
    params = case.path_parameters or {}
    if "game_id" in params and hash(repr(case.body)) % 3:
        # most cases aim at a real game so they reach past the 404
        ids = target["ids"]
        params["game_id"] = ids[hash(repr(case.query)) % len(ids)]
        if hash(repr(case.headers)) % 2:
            case.headers = {**(case.headers or {}), "Authorization": f"Bearer {target['token']}"}
    count("schemathesis: requests")
    case.call_and_validate(checks=[not_a_server_error, response_schema_conformance,
                                   content_type_conformance])


# -- the live contract run ---------------------------------------------------------------------
#: the issue's run (40 per operation) takes about a minute on 2 cores, so CI runs it as it is
LIVE_EXAMPLES = size(40, 200)
LIVE_SECONDS = size(240, 1800)  # the whole command, at most
#: the game-scoped operations a new game's links must bring the stateful phase to
REACHED = ("POST /games/{game_id}/undo", "POST /games/{game_id}/redo",
           "GET /games/{game_id}/compare/{other_id}", "POST /games/{game_id}/fork")
ST = Path(sys.executable).with_name("st")


def live_command(url: str, report_dir: Path) -> list[str]:
    """The command RELIABILITY.md gives, bounded, with machine-readable reports."""
    return [str(ST), "--config-file", str(ROOT / "schemathesis.toml"), "run",
            f"{url}/openapi.json", "-c", "all", "--generation-deterministic",
            "-n", str(LIVE_EXAMPLES), "--no-color", "--report", "json,ndjson",
            "--report-dir", str(report_dir)]


def stateful_answers(ndjson: Path) -> dict[str, Counter[tuple[int, bool]]]:
    """Per operation, the (status, sent with a token) of every stateful-phase response."""
    out: dict[str, Counter[tuple[int, bool]]] = {}
    for line in ndjson.read_text("utf-8").splitlines():
        finished = json.loads(line).get("ScenarioFinished")
        if not finished or finished["phase"] != "stateful":
            continue
        recorder = finished["recorder"]
        for case_id, interaction in (recorder.get("interactions") or {}).items():
            if interaction.get("response") is None:
                continue
            case = recorder["cases"][case_id]["value"]
            token = "Authorization" in (case.get("headers") or {})
            label = f"{case['method']} {case['path']}"
            out.setdefault(label, Counter())[interaction["response"]["status_code"], token] += 1
    return out


def reached_with_a_game(answers: Counter[tuple[int, bool]]) -> int:
    """Answers about a real game, given as its recorder: neither unknown (404) nor refused for
    the token (401), so the operation itself (or the rules behind it) answered."""
    return sum(n for (status, token), n in answers.items() if token and status not in (401, 404))


@pytest.mark.slow
def test_a_live_schemathesis_run_over_every_operation_finds_nothing(tmp_path, monkeypatch):
    monkeypatch.setenv("CHRONICLE_STREAM_SECONDS", "0.5")  # a stream answers, then closes
    server = Server(tmp_path / "live.db", tmp_path / "server.log", workers=2)
    reports = tmp_path / "reports"
    started = time.monotonic()
    try:
        run = subprocess.run(live_command(server.url, reports), cwd=tmp_path, text=True,
                             capture_output=True, timeout=LIVE_SECONDS,
                             env={**os.environ, "NO_COLOR": "1"})
    finally:
        server.kill()
    found = {path.suffix: path for path in reports.glob("*")} if reports.exists() else {}
    assert {".json", ".ndjson"} <= set(found), run.stdout[-3000:] + run.stderr[-3000:]
    report = json.loads(found[".json"].read_text("utf-8"))
    answers = stateful_answers(found[".ndjson"])
    count("schemathesis live: operations tested", report["operations"]["tested"])
    count("schemathesis live: test cases", report["test_cases"]["generated"])
    count("schemathesis live: failures", report["test_cases"]["unique_failures"])
    count("schemathesis live: errors", len(report["errors"]))
    count("schemathesis live: seconds", round(time.monotonic() - started))
    for label in REACHED:
        count(f"schemathesis live: stateful {label.split()[1].split('/')[3]} on a new game",
              reached_with_a_game(answers.get(label, Counter())))
    tail = run.stdout[-6000:]
    assert report["operations"]["tested"] == report["operations"]["total"], tail
    assert report["test_cases"]["unique_failures"] == 0, tail
    assert report["errors"] == [], tail
    assert run.returncode == 0, tail + run.stderr[-2000:]
    unreached = [label for label in REACHED
                 if not reached_with_a_game(answers.get(label, Counter()))]
    assert not unreached, f"the stateful phase never reached {unreached} with a new game: " \
                          f"{ {k: dict(v) for k, v in answers.items()} }"


# -- what the server's own limits answer -------------------------------------------------------
def test_a_request_line_past_gunicorns_limit_is_refused_in_the_apis_json(tmp_path):
    """gunicorn refuses an over-long request line before the API sees it: 414 with the one
    error body the document describes, not gunicorn's HTML page (the live run's ST105)."""
    server = Server(tmp_path / "limit.db", tmp_path / "server.log")
    try:
        long = requests.get(f"{server.url}/games/x/choices", timeout=10,
                            params={"picks": "[" + " " * (REQUEST_LINE_LIMIT + 10) + "]"})
        fits = requests.get(f"{server.url}/games/x/choices", timeout=10,
                            params={"picks": '["' + '\\"' * ((PICKS_MAX - 4) // 2) + '"]'})
    finally:
        server.kill()
    assert long.status_code == 414
    assert long.headers["Content-Type"] == "application/json"
    assert long.json()["error"]["code"] == "uri_too_long"
    # the documented longest picks, every character 3 bytes percent-encoded, reach the API
    assert len(fits.request.url) > 3 * PICKS_MAX
    assert fits.status_code == 404, fits.text


def test_the_recorded_games_longest_picks_fit_the_documented_bound():
    """The picks the recorded games' moves take, built choice by choice as the move builder
    sends them (ASCII JSON), are within `picks`' documented maxLength, so the bound that
    keeps a request line inside gunicorn's limit refuses no real move."""
    from projections import get_rules
    from projections.choices import Walker
    from tests.projections import test_choices as tc

    longest = 0
    for slug in tc.DECLARED:
        for _, mode, state, action in tc.fixture_actions(slug):
            walker = Walker(get_rules(slug), table=mode == "table")
            seen: list[int] = []

            def walk(state, type_, actor, picks, walk=walker.walk, seen=seen):
                said = [{"choice": p.choice, **({"end": True} if p.end else {"value": p.value})}
                        for p in picks]
                seen.append(len(json.dumps(said, separators=(",", ":"))))
                return walk(state, type_, actor, picks)

            walker.walk = walk  # type: ignore[method-assign]
            assert tc.reach(walker, state, action) is None
            longest = max(longest, *seen)
    count("choices: longest picks of a recorded move (characters)", longest)
    assert 0 < longest <= PICKS_MAX
