"""The recorder service: the one write path (issue: the log, the protocol, Adaman)."""

from __future__ import annotations

import json
import random

import pytest
from freezegun import freeze_time
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from events import Access, Conflict, IllegalAction, InvalidEvent, NotFound, Recorder
from events.sqlite import SQLiteStore
from projections import get_rules
from projections.replay import state_at

EXAMPLES = {g["id"]: g for g in get_rules("adaman").edition["examples"]["games"]}


def _table_game(rec: Recorder, example: str = "win_with_cards_left", upto: int | None = None):
    created = rec.create_game({"game": "adaman", "players": ["Ann"], "mode": "table"})
    for event in EXAMPLES[example]["events"][:upto]:
        rec.record(created.id, event)
    return created.id


def _play_digital(rec: Recorder, seed: str = "s1", pick=lambda options: options[0]):
    created = rec.create_game({"game": "adaman", "players": ["Ann"], "mode": "digital",
                               "seed": seed})
    while rec.state(created.id)["status"] != "finished":
        options = [a for a in rec.legal(created.id) if a["type"] != "abandon"] or \
            rec.legal(created.id)
        rec.record(created.id, pick(options))
    return created.id


def test_game_created_holds_the_edition_rules_version_and_seed_commitment(rec):
    created = rec.create_game({"game": "adaman", "players": ["Ann"], "mode": "digital",
                               "seed": "abc"})
    data = created.events[0]["data"]
    assert data["edition"]["name"] == "default"
    assert len(data["edition"]["sha256"]) == 64
    assert data["rules_version"] == "1"
    # the client's "abc" is only extra entropy: the commitment is salted and the seed the
    # server's (README, "Deals"), so it is not sha256 of anything a client chose
    assert data["seed_scheme"] == 2
    assert data["seed_commitment"] != __import__("hashlib").sha256(b"abc").hexdigest()
    assert len(data["seed_commitment"]) == 64
    assert created.events[1]["type"] == "setup", "the server deals at once in digital mode"


def test_an_unknown_game_and_a_wrong_player_count_are_refused(rec):
    with pytest.raises(IllegalAction, match="unknown game 'chess'"):
        rec.create_game({"game": "chess", "players": ["A", "B"]})
    with pytest.raises(IllegalAction, match="played by 1 players, not 2"):
        rec.create_game({"game": "adaman", "players": ["A", "B"]})
    with pytest.raises(InvalidEvent) as err:
        rec.create_game({"game": "adaman"})
    assert "players" in err.value.details["fields"]


def test_an_illegal_control_is_refused_and_nothing_is_appended(rec):
    cases = [
        ({"target": "huntress", "spend": ["mountain", "forest"], "drawn": []},
         "spend_total_too_low", "Huntress"),
        ({"target": "diplomat", "spend": ["mill"], "drawn": []},
         "spend_card_shares_no_suit", "Mill"),
        ({"target": "sailor", "spend": ["diplomat"], "drawn": []},
         "spend_card_not_in_resources", "Diplomat"),
    ]
    game_id = rec.create_game({"game": "adaman", "players": ["Ann"]}).id
    rec.record(game_id, {"type": "setup", "actor": "table", "data": {"drawn": [
        "castle", "huntress", "ace_wyrms", "sailor", "cave", "mountain", "diplomat",
        "ace_suns", "forest", "mill", "battle"]}})
    before = rec.last_seq(game_id)
    for data, code, name in cases:
        with pytest.raises(IllegalAction) as err:
            rec.record(game_id, {"type": "control", "actor": 0, "data": data})
        assert err.value.code == code
        assert name in err.value.message
        assert rec.last_seq(game_id) == before


def test_a_malformed_action_is_refused_with_field_keyed_messages(rec):
    game_id = _table_game(rec, upto=1)
    with pytest.raises(InvalidEvent) as err:
        rec.record(game_id, {"type": "control", "actor": 0, "data": {"target": 5}})
    assert set(err.value.details["fields"]) >= {"target", "spend", "drawn"}
    with pytest.raises(InvalidEvent) as err:
        rec.record(game_id, {"type": "control", "actor": "nobody", "data": {}})
    assert "actor" in err.value.details["fields"]
    assert rec.last_seq(game_id) == 1


def test_a_stale_expected_seq_is_a_conflict(rec):
    game_id = _table_game(rec, upto=1)
    event = EXAMPLES["win_with_cards_left"]["events"][1]
    with pytest.raises(Conflict):
        rec.record(game_id, event, expected_seq=0)
    rec.record(game_id, event, expected_seq=1)
    assert rec.last_seq(game_id) == 2


def test_an_idempotency_key_makes_a_retry_store_nothing(rec):
    game_id = _table_game(rec, upto=1)
    event = EXAMPLES["win_with_cards_left"]["events"][1]
    first = rec.record(game_id, event, idempotency_key="retry-1")
    again = rec.record(game_id, event, expected_seq=1, idempotency_key="retry-1")
    assert again.replayed and again.event == first.event
    assert rec.last_seq(game_id) == 2


def test_in_table_mode_undo_then_redo_gives_back_the_same_view_and_result(rec):
    game_id = _table_game(rec)
    final = rec.state(game_id)
    rec.undo(game_id)
    undone = rec.state(game_id)
    assert undone["result"] is None
    assert undone["view"] == rec.state(game_id, at=final["seq"] - 1)["view"]
    rec.redo(game_id)
    again = rec.state(game_id)
    assert (again["view"], again["result"]) == (final["view"], final["result"])


def test_in_digital_play_undoing_a_control_that_turned_up_cards_is_refused(rec):
    created = rec.create_game({"game": "adaman", "players": ["Ann"], "mode": "digital",
                               "seed": "s2"})
    rec.record(created.id, next(a for a in rec.legal(created.id) if a["type"] == "control"))
    before = rec.last_seq(created.id)
    with pytest.raises(IllegalAction) as err:
        rec.undo(created.id, actor=0, access=Access("seat", 0))
    assert err.value.code == "undo_reveals_hidden"
    assert "digital play" in err.value.message
    assert rec.last_seq(created.id) == before


def test_a_digital_game_reveals_its_seed_and_verify_rederives_every_deal(rec):
    game_id = _play_digital(rec)
    events, _ = rec.history(game_id)
    assert events[-1]["type"] == "seed_revealed"
    report = rec.verify(game_id)
    assert report["ok"], report
    assert report["result"] == rec.state(game_id)["result"]


def test_verify_reports_a_deal_the_revealed_seed_does_not_give(rec, tmp_path):
    game_id = _play_digital(rec, seed="s3")
    lines = list(rec.export(game_id))
    envs = [json.loads(line) for line in lines]
    envs[-1]["data"]["seed"] = "another seed"
    from events.model import event_hash
    envs[-1]["hash"] = event_hash(envs[-1])
    report = rec.verify_envelopes(envs)
    assert not report["ok"]
    assert report["problems"][0]["code"] == "seed_mismatch"


def test_changing_one_byte_of_any_exported_event_fails_verify_at_that_seq(rec):
    game_id = _play_digital(rec, seed="s4")
    lines = list(rec.export(game_id))
    for seq, line in enumerate(lines):
        index = line.index('"recorded_at": "') + len('"recorded_at": "') + 3
        tampered = line[:index] + ("7" if line[index] != "7" else "8") + line[index + 1:]
        envs = [json.loads(x) for x in [*lines[:seq], tampered, *lines[seq + 1:]]]
        report = rec.verify_envelopes(envs)
        assert not report["ok"]
        assert report["first_bad_seq"] == seq


def test_state_at_every_step_matches_a_plain_fold_with_snapshots(rec, monkeypatch):
    monkeypatch.setattr("events.folding.SNAPSHOT_EVERY", 3)
    game_id = _table_game(rec)
    rec.undo(game_id)
    rec.undo(game_id)
    rec.redo(game_id)
    fresh = Recorder(rec.store)  # no in-process cache: every read resumes from a snapshot
    envelopes = list(rec.store.events(game_id))
    rules = rec.rules_for(rec.game(game_id))
    for seq in range(len(envelopes)):
        plain = state_at(rules, envelopes, seq)
        assert fresh.state(game_id, seq)["view"] == rules.view(plain.state, "all")


def test_state_at_a_step_beyond_the_log_is_not_found(rec):
    game_id = _table_game(rec, upto=1)
    with pytest.raises(NotFound):
        rec.state(game_id, 99)


@freeze_time("2026-05-01 12:00:00")
def test_export_import_export_is_byte_for_byte_identical(rec, tmp_path):
    game_id = _table_game(rec)
    first = "".join(rec.export(game_id))
    other = Recorder(SQLiteStore(str(tmp_path / "other.db")))
    imported = other.import_lines(first.splitlines())
    assert imported.id == game_id
    assert "".join(other.export(game_id)) == first


def test_import_refuses_a_file_that_does_not_verify_and_stores_nothing(rec, tmp_path):
    game_id = _table_game(rec)
    lines = list(rec.export(game_id))
    lines[3] = lines[3].replace('"actor": 0', '"actor": 1')
    other = Recorder(SQLiteStore(str(tmp_path / "other.db")))
    with pytest.raises(IllegalAction, match="does not verify"):
        other.import_lines(lines)
    assert other.list_games(__import__("events").GameFilter())[1] == 0


def test_a_seat_token_sees_only_its_seat_and_spectators_cannot_record(rec):
    created = rec.create_game({"game": "adaman", "players": ["Ann"], "mode": "digital",
                               "seed": "s5"})
    assert rec.access(created.id, created.seat_tokens[0]) == Access("seat", 0)
    assert rec.access(created.id, created.recorder_token).role == "recorder"
    with pytest.raises(Exception, match="not valid"):
        rec.access(created.id, "forged")
    with pytest.raises(Exception, match="token"):
        rec.record(created.id, rec.legal(created.id)[0], access=Access("spectator"))


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                  HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 10_000), tamper_at=st.integers(0, 40))
def test_any_single_event_tamper_is_detected(rec, seed, tamper_at):
    game_id = _play_digital(rec, seed=f"t{seed}")
    envs = [json.loads(line) for line in rec.export(game_id)]
    seq = tamper_at % len(envs)
    envs[seq]["data"] = {**envs[seq]["data"], "x": 1}
    report = rec.verify_envelopes(envs)
    assert not report["ok"] and report["first_bad_seq"] == seq


# -- digital play of the multi-seat games: each seat by its own token -----------------------

def _seat_play(rec: Recorder, slug: str, players: int, seed: str = "seats",
               max_moves: int = 4000) -> tuple[str, list[tuple]]:
    """A digital game played to its end, each move by whoever the state says is to act,
    through that actor's own access; (id, every (to_act, actor) asked)."""
    created = rec.create_game({"game": slug, "players": [f"P{i}" for i in range(players)],
                               "mode": "digital", "seed": seed})
    asked, rng = [], random.Random(seed)
    for _ in range(max_moves):
        state = rec.state(created.id, access=Access("recorder"))
        if state["status"] == "finished":
            return created.id, asked
        actor = state["to_act"][0]
        access = Access("recorder") if actor == "table" else Access("seat", actor)
        move = rng.choice([a for a in rec.legal(created.id, access=access)
                           if a["actor"] == actor and a["type"] != "concede"])
        asked.append((tuple(state["to_act"]), move["actor"], move["type"]))
        rec.record(created.id, move, access=access)
    raise AssertionError(f"{slug} did not finish in {max_moves} moves")


@pytest.mark.parametrize("slug, players", [("royals", 2), ("palais_royal", 2),
                                           ("in_the_shadow_of_the_emperor", 3),
                                           ("thrones", 2), ("thrones", 3)])
def test_a_digital_game_runs_to_its_end_on_the_seats_tokens_alone(rec, slug, players):
    """The seats never wait for a recorder, except for a choice only the table can make."""
    game_id, asked = _seat_play(rec, slug, players)
    table_moves = [move for _, actor, move in asked if actor == "table"]
    assert table_moves == (["start_game"] if slug == "thrones" else [])
    assert rec.verify(game_id)["ok"]
    assert rec.history(game_id)[0][-1]["type"] == "seed_revealed"


def test_in_digital_thrones_the_recorder_picks_the_houses_and_the_server_deals(rec):
    created = rec.create_game({"game": "thrones", "players": ["Ann", "Bo"],
                               "mode": "digital", "seed": "houses"})
    start = {"type": "start_game", "actor": "table", "data": {"players": [
        {"seat": 0, "name": "Ann", "house": "Targaryen"},
        {"seat": 1, "name": "Bo", "house": "Stark"}]}}
    with pytest.raises(Exception) as err:  # a seat cannot speak for the table
        rec.record(created.id, start, access=Access("seat", 0))
    assert err.value.code == "not_your_seat"
    dealt = {**start, "data": {**start["data"], "setup_first": 0,
                               "setup_hands": {"0": [], "1": []}}}
    with pytest.raises(IllegalAction) as err:  # nor may the recorder deal the hands
        rec.record(created.id, dealt, access=Access("recorder"))
    assert err.value.code == "server_deals"
    assert rec.last_seq(created.id) == 0
    done = rec.record(created.id, start, access=Access("recorder"))
    # the digital recorder sees what a spectator sees: not the hands it had dealt
    assert not done.event["data"].get("setup_hands") and "salt" not in done.event
    hands = rec.store.event(created.id, done.event["seq"])["data"]["setup_hands"]
    assert sorted(hands) == ["0", "1"] and all(len(h) == 7 for h in hands.values())
    assert all(card.startswith(f"p{seat}-") for seat, h in hands.items() for card in h)
    assert rec.state(created.id)["to_act"] != ["table"]


def test_in_digital_thrones_nobody_waits_on_the_forced_dominance_steps(rec):
    """resolve_dominance and end_round are the table's only moves: the server makes them
    (projections.chance.server_move), and a recorder who tries gets the digital rule."""
    game_id, asked = _seat_play(rec, "thrones", 2, seed="dominance")
    kinds = [e["type"] for e in rec.history(game_id)[0]]
    assert "resolve_dominance" in kinds and "end_round" in kinds
    assert all(actor != "table" for _, actor, move in asked if move != "start_game")
    created = rec.create_game({"game": "thrones", "players": ["Ann", "Bo"],
                               "mode": "digital", "seed": "x"})
    rec.record(created.id, rec.legal(created.id)[0], access=Access("recorder"))
    before = rec.last_seq(created.id)
    with pytest.raises(IllegalAction) as err:
        rec.record(created.id, {"type": "resolve_dominance", "actor": "table", "data": {}},
                   access=Access("recorder"))
    assert err.value.code == "server_deals" and "forced steps" in err.value.message
    assert rec.last_seq(created.id) == before


def test_in_digital_adaman_the_recorder_cannot_lay_out_the_cards_itself(rec):
    created = rec.create_game({"game": "adaman", "players": ["Ann"], "mode": "digital",
                               "seed": "s5"})
    before = rec.last_seq(created.id)
    with pytest.raises(IllegalAction) as err:
        rec.record(created.id, {"type": "setup", "actor": "table", "data": {}},
                   access=Access("recorder"))
    assert err.value.code == "server_deals"
    assert rec.last_seq(created.id) == before
