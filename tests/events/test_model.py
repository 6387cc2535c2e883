"""The envelope, canonical JSON and the hash chain."""

from __future__ import annotations

import hashlib
import json

from events.model import GENESIS, canonical_json, chain_problems, event_hash, seal


def _chain(n: int) -> list[dict]:
    envs, prev = [], GENESIS
    for seq in range(n):
        env = seal("g1", seq, "game_created" if seq == 0 else "control", 0, {"i": seq}, prev,
                   recorded_at="2026-01-01T00:00:00.000000Z", salt="00" * 16)
        envs.append(env)
        prev = env["hash"]
    return envs


def test_canonical_json_sorts_keys_and_drops_whitespace():
    assert canonical_json({"b": 1, "a": [1, "é"]}) == '{"a":[1,"é"],"b":1}'


def test_the_hash_is_reproducible_with_a_few_lines_of_plain_code():
    env = _chain(1)[0]
    body = {k: v for k, v in env.items() if k != "hash"}
    text = GENESIS + json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    assert env["hash"] == hashlib.sha256(text.encode()).hexdigest() == event_hash(env)


def test_an_intact_chain_has_no_problems():
    assert chain_problems(_chain(5)) == []


def test_changing_any_field_breaks_the_hash_of_that_event():
    for field, value in [("data", {"i": 99}), ("actor", 1), ("type", "x"), ("salt", "11" * 16),
                         ("recorded_at", "2027-01-01T00:00:00.000000Z")]:
        envs = _chain(4)
        envs[2][field] = value
        problems = chain_problems(envs)
        assert problems[0]["seq"] == 2
        assert problems[0]["code"] == "hash_mismatch"


def test_a_missing_event_is_a_gap():
    envs = _chain(4)
    del envs[1]
    assert {p["code"] for p in chain_problems(envs)} >= {"seq_gap", "broken_chain"}
