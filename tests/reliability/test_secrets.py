"""Secrets: tokens are stored only as hashes and never compared raw; no token, seed or
hidden card reaches a log (the app's or gunicorn's access log); a seat can neither act for
another seat nor read what is hidden from it through any endpoint.

The isolation test is generic: for every registered game and every recorded fixture, cut
mid-game and imported as a new game, "hidden from seat s" at a step means every string of
`view(state, "all")` that the rules let s see neither in `view(state, s)` nor in any event so
far as `redact` shows it to s - both computed here from the rules, never read from a served
answer (the served history was the very thing that leaked, issue #18); no response to s's
token may contain one. `test_hidden_information.py` judges the same promise by twins.
"""

from __future__ import annotations

import ast
import hashlib
import json
import logging
from pathlib import Path

import pytest
import requests

from api import create_app
from events import Recorder
from events.sqlite import SQLiteStore
from projections import GAMES
from projections.replay import META_TYPES, Folder, mode_of, state_at, to_action
from projections.rules import ALL, thaw

from .conftest import ROOT, Server, count, import_prefix, table_game

SEED = "s3cr3t-seed-do-not-show"
READS = ("", "/state", "/events", "/export", "/legal-actions", "/events/stream", "/verify")


def _strings(value, out: set[str] | None = None) -> set[str]:
    """Every string in a JSON value, keys included."""
    out = set() if out is None else out
    if isinstance(value, str):
        out.add(value)
    elif isinstance(value, dict):
        for key, item in value.items():
            out.add(str(key))
            _strings(item, out)
    elif isinstance(value, list | tuple):
        for item in value:
            _strings(item, out)
    return out


def _fixture_cuts() -> list[tuple[str, Path, int]]:
    """(slug, fixture, cut seq): up to three in-progress prefixes of every fixture game."""
    cuts = []
    for slug in sorted(GAMES):
        for path in sorted((ROOT / "fixtures" / slug).glob("*.jsonl")):
            n = len(path.read_text("utf-8").splitlines())
            points = sorted({max(1, n // 3), max(1, n // 2), max(1, (2 * n) // 3)})
            cuts += [(slug, path, k) for k in points if k < n - 1]
    return cuts


CUTS = _fixture_cuts()


@pytest.fixture
def client(db_path):
    return create_app({"TESTING": True, "DATABASE": db_path, "STREAM_SECONDS": 0.05}).test_client()


def _get(client, url: str, token: str | None = None):
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    r = client.get(url, headers=headers)
    text = r.get_data(as_text=True)
    r.close()
    return r.status_code, text


# -- tokens ----------------------------------------------------------------------------------
def test_tokens_are_stored_only_as_hashes(rec, store, db_path):
    created = rec.create_game({"game": "adaman", "players": ["Ann"], "mode": "digital",
                               "seed": SEED})
    store.conn.execute("PRAGMA wal_checkpoint(FULL)")
    raw = b"".join(p.read_bytes() for p in db_path.parent.glob(db_path.name + "*"))
    for token in [created.recorder_token, *created.seat_tokens]:
        assert token.encode() not in raw, "a raw token is in the database file"
        assert hashlib.sha256(token.encode()).hexdigest().encode() in raw
        count("secrets: tokens checked absent from the database file")


def test_a_token_is_looked_up_by_its_hash_never_by_its_raw_value(rec, store):
    created = table_game(rec)
    asked: list[str] = []
    real = store.token_role

    def spy(game_id: str, token_hash: str):
        asked.append(token_hash)
        return real(game_id, token_hash)

    store.token_role = spy
    assert rec.access(created.id, created.recorder_token).role == "recorder"
    assert asked == [hashlib.sha256(created.recorder_token.encode()).hexdigest()]


def test_no_code_compares_a_raw_token_with_eq():
    """Tokens are matched through their SHA-256 (an indexed lookup of a hash of 192 random
    bits, which leaks nothing usable); no `==`/`!=`/`in` ever touches a raw token."""
    offenders = []
    for path in [*ROOT.glob("events/*.py"), *ROOT.glob("api/*.py"), *ROOT.glob("cli/*.py")]:
        for node in ast.walk(ast.parse(path.read_text("utf-8"))):
            if not isinstance(node, ast.Compare) or all(
                    isinstance(op, ast.Is | ast.IsNot) for op in node.ops):
                continue  # `token is None` compares nothing secret
            for operand in [node.left, *node.comparators]:
                names = {n.id for n in ast.walk(operand) if isinstance(n, ast.Name)}
                names |= {n.attr for n in ast.walk(operand) if isinstance(n, ast.Attribute)}
                if any("token" in name and "hash" not in name for name in names):
                    offenders.append(f"{path.name}:{node.lineno}")
    assert offenders == []


# -- logs -------------------------------------------------------------------------------------
def test_no_token_seed_or_hidden_card_reaches_the_app_logs(client, caplog):
    caplog.set_level(logging.DEBUG)
    r = client.post("/games", json={"game": "adaman", "players": ["Ann"], "mode": "digital",
                                    "seed": SEED})
    gid, recorder_token, seat = r.json["id"], r.json["recorder_token"], r.json["seat_tokens"][0]
    secrets = [recorder_token, seat, SEED]
    for token in (seat, recorder_token, "wrong-" + seat, None):
        for path in READS:
            url = f"/games/{gid}{path}" + (f"?token={token}" if token else "")
            _get(client, url, token)
        legal = client.get(f"/games/{gid}/legal-actions",
                           headers={"Authorization": f"Bearer {seat}"}).json["actions"]
        client.post(f"/games/{gid}/events", json=legal[0] if legal else {},
                    headers={"Authorization": f"Bearer {token}"} if token else {})
        client.post(f"/games/{gid}/undo", headers={"Authorization": f"Bearer {token}"})
    text = caplog.text + "".join(str(r.exc_info) for r in caplog.records if r.exc_info)
    for secret in secrets:
        assert secret not in text
    count("secrets: log records scanned", len(caplog.records))


def test_the_gunicorn_access_log_holds_no_token(tmp_path):
    server = Server(tmp_path / "served.db", tmp_path / "server.log")
    try:
        r = requests.post(f"{server.url}/games", json={"game": "adaman", "players": ["Ann"]},
                          timeout=30).json()
        tokens = [r["recorder_token"], *r["seat_tokens"]]
        for token in tokens:
            for path in ("/state", "/events", "/legal-actions", ""):
                url = f"{server.url}/games/{r['id']}{path}?token={token}&x=1"
                requests.get(url, headers={"Authorization": f"Bearer {token}",
                                           "Referer": url}, timeout=30)
    finally:
        server.kill()
    log = (tmp_path / "server.log").read_text("utf-8")
    assert f"GET /games/{r['id']}/state" in log, "the access log is written"
    for token in tokens:
        assert token not in log
    count("secrets: access log lines scanned", log.count("\n"))


# -- isolation between seats ------------------------------------------------------------------
def _told(rules, envelopes: list[dict], seat) -> set[str]:
    """Every string the rules let `seat` be told of these events: each event's data as
    `redact` shows it to that seat given the state before it (a revealed seed shows nothing
    before the end). Computed from the fixture and the rules, never from a served answer."""
    folder = Folder(rules, mode_of(envelopes))
    told: set[str] = set()
    for env in envelopes:
        shown = env["data"]
        if env["type"] == "seed_revealed" and seat != ALL:
            shown = {}
        elif env["type"] not in META_TYPES and folder.last is not None:
            hidden = rules.redact(to_action(env), seat, folder.last.state)
            shown = thaw(hidden) if hidden is not None else shown
        _strings({"type": env["type"], "actor": str(env["actor"]), "data": shown}, told)
        folder.feed(env)
    return told


def _hidden(rules, state, seat, told: set[str]) -> set[str]:
    """What the full view holds that the rules show `seat` neither in its view nor in what
    it was told of the events."""
    return _strings(rules.view(state, ALL)) - _strings(rules.view(state, seat)) - told


def _leaks(hidden: set[str], responses: list[tuple[str, str]]) -> list[tuple[str, str]]:
    return [(where, s) for s in sorted(hidden) for where, text in responses
            if json.dumps(s) in text]


@pytest.mark.parametrize(("slug", "path", "cut"), CUTS,
                         ids=[f"{p.parent.name}/{p.stem}@{k}" for _, p, k in CUTS])
def test_a_seat_reads_nothing_hidden_from_it_and_acts_for_no_one_else(db_path, client, slug,
                                                                        path, cut):
    envelopes = [json.loads(line) for line in path.read_text("utf-8").splitlines() if line]
    store = SQLiteStore(str(db_path))
    rec = Recorder(store)
    created = import_prefix(rec, envelopes, cut, f"cut-{path.stem}-{cut}")
    gid = created.id
    rules, cursor = rec.cursor(gid)
    players = len(created.seat_tokens)
    leaks = []
    for seat, token in enumerate(created.seat_tokens):
        for at in sorted({0, cut // 2, cut}):
            state = state_at(rules, envelopes, at).state
            hidden = _hidden(rules, state, seat, _told(rules, envelopes[: at + 1], seat))
            responses = [(f"state?at={at}", _get(client, f"/games/{gid}/state?at={at}", token)[1])]
            if at == cut:
                responses += [(p or "/", _get(client, f"/games/{gid}{p}", token)[1])
                              for p in READS]
            count("isolation: seat responses checked", len(responses))
            count("isolation: hidden strings checked", len(hidden) * len(responses))
            leaks += [(seat, at, where, s) for where, s in _leaks(hidden, responses)]
        # acting for another seat or for the table is refused, and stores nothing
        last = rec.last_seq(gid)
        for actor in [*(a for a in range(players) if a != seat), "table"]:
            r = client.post(f"/games/{gid}/events", json={"type": "note", "actor": actor,
                                                          "data": {}},
                            headers={"Authorization": f"Bearer {token}"})
            assert r.status_code == 403, r.json
            count("isolation: actions for another seat refused")
        top = cursor.top
        if top is not None and store.event(gid, top)["actor"] != seat:
            r = client.post(f"/games/{gid}/undo", headers={"Authorization": f"Bearer {token}"})
            assert r.status_code in (403, 422), r.json
            count("isolation: undo of another's action refused")
        assert rec.last_seq(gid) == last
    store.close()
    count("isolation: leaks found", len(leaks))
    assert leaks == [], f"{len(leaks)} hidden strings reached a seat: {leaks[:12]}"


def test_the_isolation_check_would_catch_a_leak():
    """The oracle itself: a card in the full view, in neither the seat's view nor what it
    was told of the events, is hidden; the same string in a response is a leak."""

    class Rules:
        def view(self, state, seat):
            hands = {"0": ["ace_suns"], "1": ["the_huntress"]}
            return {"hands": hands if seat == ALL else {str(seat): hands[str(seat)]},
                    "table": ["pawn"]}

    hidden = _hidden(Rules(), None, 0, {"pawn"})
    assert hidden == {"the_huntress", "1"}
    assert _leaks(hidden, [("/x", '{"view": {"peek": "the_huntress"}}')]) == [
        ("/x", "the_huntress")]


def test_the_isolation_check_finds_what_the_table_recorder_may_see(db_path, client):
    """Planted: the same check, with the recorder's token of a table game (who sees every
    card) in place of the seat's, finds hidden strings in its answers."""
    path = ROOT / "fixtures" / "thrones" / "2_players.jsonl"
    envelopes = [json.loads(line) for line in path.read_text("utf-8").splitlines() if line]
    rec = Recorder(SQLiteStore(str(db_path)))
    cut = 12
    created = import_prefix(rec, envelopes, cut, "planted-isolation")
    rules = rec.cursor(created.id)[0]
    state = state_at(rules, envelopes, cut).state
    hidden = _hidden(rules, state, 0, _told(rules, envelopes[: cut + 1], 0))
    assert hidden, "nothing is hidden from seat 0: the check is vacuous here"
    responses = [(p or "/", _get(client, f"/games/{created.id}{p}", created.recorder_token)[1])
                 for p in ("/state", "/events?after=0")]
    found = _leaks(hidden, responses)
    count("isolation: planted leaks caught", len(found))
    assert {where for where, _ in found} == {"/state", "/events?after=0"}
    rec.store.close()
