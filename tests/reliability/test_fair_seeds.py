"""Fair digital deals: nobody can guess or choose the seed, and nothing a seat does moves a deal.

The oracle is the documented algorithm itself (README, "Deals"), re-implemented here in a
few lines from the text, not imported from chronicle: an auditor in another language would
do the same.
"""

from __future__ import annotations

import hashlib
import hmac
import json

import pytest

from events import Recorder
from projections import get_rules
from projections.replay import fold
from projections.rules import Action, Dealer

from .conftest import ROOT, count


@pytest.fixture
def real_entropy(monkeypatch):
    """The server's randomness as in production (tests otherwise fix it)."""
    monkeypatch.delenv("CHRONICLE_UNSAFE_FIXED_ENTROPY", raising=False)


# -- the README's algorithm, written again from its text ---------------------------------------
def _stream(seed: str, index: int):
    counter = 0
    while True:
        yield from hmac.new(seed.encode(), f"{index}:{counter}".encode(), hashlib.sha256
                            ).digest()
        counter += 1


def _below(stream, n: int) -> int:
    limit = 2**64 - (2**64 % n)
    while True:
        x = int.from_bytes(bytes(next(stream) for _ in range(8)), "big")
        if x < limit:
            return x % n


def _shuffled(seed: str, index: int, items: list[str]) -> list[str]:
    out, stream = sorted(items), _stream(seed, index)
    for i in range(len(out) - 1):
        j = i + _below(stream, len(out) - i)
        out[i], out[j] = out[j], out[i]
    return out


def _commitment(seed: str, salt: str) -> str:
    return hashlib.sha256(f"{salt}:{seed}".encode()).hexdigest()


# -- the tests ------------------------------------------------------------------------------------
def _finish(rec: Recorder, game_id: str) -> list[dict]:
    while rec.state(game_id)["status"] != "finished":
        rec.record(game_id, rec.legal(game_id)[0])
    return list(rec.store.events(game_id))


def test_a_chosen_seed_does_not_choose_the_deal(rec, real_entropy):
    """Two games made with the same client "seed" are dealt differently, and neither
    commitment is a hash of what the client sent: the server's 256 bits come first."""
    made = [rec.create_game({"game": "palais_royal", "players": ["A", "B"], "mode": "digital",
                             "seed": "4242"}) for _ in range(2)]
    created = [rec.store.event(m.id, 0)["data"] for m in made]
    deals = [rec.store.event(m.id, 1)["data"]["garden"] for m in made]
    assert created[0]["seed_commitment"] != created[1]["seed_commitment"]
    assert deals[0] != deals[1]
    for data in created:
        assert data["seed_scheme"] == 2
        assert data["seed_commitment"] not in {hashlib.sha256(b"4242").hexdigest(),
                                               _commitment("4242", "")}
    count("fair seeds: games created with one chosen seed, all dealt apart", 2)


def test_the_revealed_seed_and_salt_open_the_commitment_and_re_derive_the_deal(rec,
                                                                                real_entropy):
    made = rec.create_game({"game": "adaman", "players": ["Ann"], "mode": "digital"})
    envelopes = _finish(rec, made.id)
    created, revealed = envelopes[0]["data"], envelopes[-1]
    assert revealed["type"] == "seed_revealed"
    seed, salt = revealed["data"]["seed"], revealed["data"]["salt"]
    assert len(seed) == 64 and len(salt) == 32
    assert _commitment(seed, salt) == created["seed_commitment"]
    # the first chance event of the log (k = 0) is the layout: the deck, shuffled, dealt
    # from the front
    deck = list(get_rules("adaman").initial_state(created).deck)
    setup = envelopes[1]
    assert setup["type"] == "setup" and len(setup["data"]["drawn"]) >= 5
    assert setup["data"]["drawn"] == _shuffled(seed, 0, deck)[:len(setup["data"]["drawn"])]
    assert rec.verify(made.id)["ok"]


def test_a_note_cannot_move_a_deal(rec):
    """Deals are keyed by the count of chance events, not the seq: a seat that adds notes
    before a draw still turns up the same cards. (Under scheme 1, keyed by seq, it would
    not: the planted fault below shows the probe can tell.)"""
    def played(notes: int) -> tuple[list, str]:
        made = rec.create_game({"game": "adaman", "players": ["Ann"], "mode": "digital",
                                "seed": "same-secret"})  # tests fix the server's entropy
        for _ in range(notes):
            rec.record(made.id, {"type": "note", "actor": 0, "data": {"text": "hm"}})
        control = next(a for a in rec.legal(made.id) if a["type"] == "control")
        done = rec.record(made.id, control)
        return rec.store.event(made.id, done.event["seq"])["data"]["drawn"], made.id

    plain, _ = played(0)
    noted, game_id = played(3)
    assert plain == noted and noted, "a note moved the cards dealt"
    # the planted fault: had the deal been keyed by seq (3 later), the cards would differ
    rules, seed, last = get_rules("adaman"), rec.store.seed(game_id), rec.last_seq(game_id)
    before = rec.cursor(game_id, last - 1)[1]
    control = rec.store.event(game_id, last)
    probe = Action.of("control", 0, rules.strip_chance(Action.of("control", 0,
                                                                  control["data"])))
    assert rules.fill_chance(before.state, probe, Dealer(seed, before.draws))["drawn"] == noted
    assert rules.fill_chance(before.state, probe, Dealer(seed, last))["drawn"] != noted, \
        "the probe cannot tell a seq-keyed deal apart"
    count("fair seeds: deals checked unmoved by notes")


@pytest.mark.parametrize("path", sorted((ROOT / "fixtures").glob("*/digital*.jsonl")))
def test_games_recorded_under_scheme_1_still_verify(rec, path):
    """Old digital records (plain sha256 commitment, deals keyed by seq) keep verifying, and
    a wrong reveal in one is still caught."""
    lines = path.read_text("utf-8").splitlines()
    created = json.loads(lines[0])["data"]
    assert "seed_scheme" not in created, "this fixture is a scheme 1 record"
    assert rec.verify_envelopes([json.loads(x) for x in lines])["ok"]
    forged = [json.loads(x) for x in lines]
    forged[-1]["data"]["seed"] = "another seed"
    problems = {p["code"] for p in rec.verify_envelopes(forged)["problems"]}
    assert "seed_mismatch" in problems


def test_a_tampered_deal_under_scheme_2_is_named(rec):
    made = rec.create_game({"game": "adaman", "players": ["Ann"], "mode": "digital",
                            "seed": "tamper"})
    envelopes = _finish(rec, made.id)
    rules = get_rules("adaman")
    assert fold(rules, envelopes).state is not None
    setup = envelopes[1]["data"]["drawn"]
    swapped = [*envelopes]
    swapped[1] = {**swapped[1], "data": {**swapped[1]["data"],
                                         "drawn": [setup[1], setup[0], *setup[2:]]}}
    codes = {p["code"] for p in rec.verify_envelopes(swapped)["problems"]}
    assert "deal_mismatch" in codes
