"""Forks: "what if?" from any step of any game (issue #24).

Every fixture is forked at three steps; each fork must hold exactly the origin's effective
history up to that step (computed here from the log alone, independently of the fork
code), name its origin, play on with legal moves, and verify.
"""

from __future__ import annotations

import json
import random

import pytest

from events import Access, AccessDenied, IllegalAction, Recorder
from events.store import GameFilter
from projections.replay import META_TYPES, effective_stack
from projections.rules import Action, Dealer

from ..conftest import fixture_files
from ..reliability.conftest import import_prefix

FIXTURES = fixture_files()


def _origin(rec: Recorder, path) -> tuple[str, list[dict]]:
    envelopes = [json.loads(x) for x in path.read_text("utf-8").splitlines() if x.strip()]
    gid = import_prefix(rec, envelopes, len(envelopes) - 1,
                        f"o{abs(hash(path.name)) % 10**8}").id
    return gid, list(rec.store.events(gid))


def _expected(envelopes: list[dict], at: int) -> list[tuple[str, object, dict]]:
    """The effective actions up to `at` (undone ones out), from the log alone."""
    prefix = envelopes[: at + 1]
    effective = effective_stack(prefix)
    return [(prefix[s]["type"], prefix[s]["actor"], prefix[s]["data"]) for s in effective
            if prefix[s]["type"] not in META_TYPES]


@pytest.mark.parametrize("path", FIXTURES, ids=[f"{p.parent.name}-{p.stem}" for p in FIXTURES])
def test_a_fork_replays_the_effective_history_names_its_origin_and_plays_on(rec, path):
    gid, envelopes = _origin(rec, path)
    last = len(envelopes) - 1
    for at in sorted({1, last // 2, last}):
        fork = rec.fork(gid, at)
        copied = list(rec.store.events(fork.id))
        created = copied[0]["data"]
        assert created["mode"] == "table" and created["seed_commitment"] is None
        assert created["forked_from"] == {"game_id": gid, "seq": at,
                                          "hash": envelopes[at]["hash"]}
        assert [(e["type"], e["actor"], e["data"]) for e in copied[1:]] == \
            _expected(envelopes, at)
        assert "seed_revealed" not in [e["type"] for e in copied]
        assert rec.store.seed(fork.id) is None, "a fork never carries the seed"
        assert rec.game(fork.id)["origin"]["seq"] == at
        _play_on(rec, fork.id, random.Random(at), moves=5)
        assert rec.verify(fork.id)["ok"]


def _play_on(rec: Recorder, game_id: str, rng: random.Random, moves: int) -> None:
    """Legal moves at the table, the cards seen dealt by a seeded dealer (as typed in)."""
    for n in range(moves):
        rules, cursor = rec.cursor(game_id)
        actions = rec.legal(game_id)
        if not actions or rules.result(cursor.state) is not None:
            return
        action = rng.choice(actions)
        if rules.chance_fields.get(action["type"]):
            action = {**action, "data": rules.fill_chance(cursor.state, Action.of(
                action["type"], action["actor"], action["data"]), Dealer(f"fork{n}", n))}
        rec.record(game_id, action)


def test_only_what_the_caller_sees_can_be_forked(rec):
    made = rec.create_game({"game": "royals", "players": ["Ann", "Bo"], "mode": "digital",
                            "seed": "fork"})
    for who in (Access("spectator"), Access("seat", 0), Access("recorder")):
        with pytest.raises(AccessDenied) as err:
            rec.fork(made.id, 1, who)
        assert err.value.code == "fork_needs_full_view"
    table = rec.create_game({"game": "adaman", "players": ["Ann"], "mode": "table"})
    with pytest.raises(AccessDenied):
        rec.fork(table.id, 0, Access("seat", 0))
    assert rec.fork(table.id, 0, Access("recorder")).id
    with pytest.raises(IllegalAction) as step:
        rec.fork(table.id, 5, Access("recorder"))
    assert step.value.code == "no_such_step"


def test_a_finished_digital_game_is_public_and_its_fork_has_no_seed(rec):
    made = rec.create_game({"game": "adaman", "players": ["Ann"], "mode": "digital",
                            "seed": "fork-end"})
    while rec.state(made.id)["status"] != "finished":
        rec.record(made.id, rec.legal(made.id)[0])
    last = rec.last_seq(made.id)
    fork = rec.fork(made.id, last, Access("spectator"))
    types = [e["type"] for e in rec.store.events(fork.id)]
    assert "seed_revealed" not in types and rec.store.seed(fork.id) is None
    assert rec.state(fork.id)["status"] == "finished"
    assert rec.verify(fork.id)["ok"]


def test_statistics_and_reaudit_leave_forks_out_unless_asked(rec):
    made = rec.create_game({"game": "adaman", "players": ["Ann"], "mode": "digital",
                            "seed": "stats"})
    while rec.state(made.id)["status"] != "finished":
        rec.record(made.id, rec.legal(made.id)[0])
    rec.fork(made.id, 2)
    assert rec.statistics()["total_games"] == 1
    assert rec.statistics(forks=True)["total_games"] == 2
    assert len(rec.reaudit()) == 1 and len(rec.reaudit(forks=True)) == 2
    assert rec.list_games(GameFilter(forks=True))[1] == 1


def test_the_cli_and_the_api_fork(runner, client):
    made = client.post("/games", json={"game": "adaman", "players": ["Ann"],
                                       "mode": "table"}).json
    denied = client.post(f"/games/{made['id']}/fork", json={"at": 0})
    assert denied.status_code == 403
    forked = client.post(f"/games/{made['id']}/fork", json={"at": 0},
                         headers={"Authorization": f"Bearer {made['recorder_token']}"})
    assert forked.status_code == 201 and forked.json["id"] != made["id"]
    assert client.post(f"/games/{made['id']}/fork", json={"at": "x"}).status_code == 400
    result = runner(["fork", made["id"], "--at", "0"])
    assert result.exit_code == 0, result.output
    assert len(result.stdout.strip()) > 5
