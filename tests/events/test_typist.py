"""Who types a chance outcome at a table (engine ruling 16, issue #32).

A seat's own token records that seat's choices; a card turned up unseen is the recorder's to
type. A seat's token sending one is refused before the rules look at the cards, in the same
words whichever cards it names (a card another seat holds, one still in the pile, one that
does not exist), so the refusal answers nothing about the hidden piles. Oracle: the fixtures'
own moves and the spec's visibility tables (Royals §7, Thrones §11, Palais Royal §8), not
chronicle's answers.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from events import Access, Recorder
from events.errors import AccessDenied
from projections.errors import IllegalAction

ROOT = Path(__file__).resolve().parents[2]
RECORDER = Access("recorder")


def _table_game(rec: Recorder, slug: str, fixture: str, upto: int) -> tuple[str, list[Any]]:
    """A table game of `fixture`'s players, its moves 1..upto recorded by the recorder."""
    lines = (ROOT / "fixtures" / slug / f"{fixture}.jsonl").read_text("utf-8").splitlines()
    envs = [json.loads(line) for line in lines]
    created = envs[0]["data"]
    game = rec.create_game({"game": slug, "players": created["players"], "mode": "table",
                            "options": created.get("options") or {}})
    for env in envs[1: upto + 1]:
        rec.record(game.id, {k: env[k] for k in ("type", "actor", "data")}, access=RECORDER)
    return game.id, envs


def _refusal(rec: Recorder, gid: str, action: dict[str, Any], seat: int) -> tuple[str, str]:
    with pytest.raises(AccessDenied) as err:
        rec.record(gid, action, access=Access("seat", seat))
    return err.value.code, err.value.message


def test_a_seats_typed_deck_draw_is_the_recorders_and_the_refusal_names_no_card(rec):
    """Royals §7: a card drawn from the deck is hidden from the others and the deck is
    hidden from all. Seat 1 typing its own deck draw is refused alike for a card it could
    draw and for one it could not; the recorder records the same move; a draw from the
    face-up display (nothing unseen) is the seat's own to record."""
    gid, envs = _table_game(rec, "royals", "2_players", 8)
    move = {k: envs[9][k] for k in ("type", "actor", "data")}
    other = json.loads(json.dumps(move))
    other["data"]["draws"][0]["card"] = "no_such_country"
    first, second = _refusal(rec, gid, move, 1), _refusal(rec, gid, other, 1)
    assert first == second and first[0] == "recorded_by_the_table"
    assert "Player 2" in first[1] and "no_such" not in first[1] and "britain" not in first[1]
    assert rec.last_seq(gid) == 8, "a refusal stores nothing"
    assert rec.record(gid, move, access=RECORDER).event["seq"] == 9
    gid2, envs = _table_game(rec, "royals", "2_players", 1)
    display = {k: envs[2][k] for k in ("type", "actor", "data")}  # from the face-up display
    assert rec.record(gid2, display, access=Access("seat", 1)).event["seq"] == 2


def test_a_seat_types_its_own_privilege_draw_no_more(rec):
    """Palais Royal §8: the draw pile and the others' privilege cards are "count only"."""
    gid, envs = _table_game(rec, "palais_royal", "2_players", 33)
    move = {k: envs[34][k] for k in ("type", "actor", "data")}
    code, message = _refusal(rec, gid, move, 1)
    assert code == "recorded_by_the_table" and "draw privilege cards" in message
    assert rec.record(gid, move, access=RECORDER).event["seq"] == 34
    keep = {k: envs[35][k] for k in ("type", "actor", "data")}  # a choice: the seat's own
    assert rec.record(gid, keep, access=Access("seat", 1)).event["seq"] == 35


def test_a_thrones_effect_naming_another_seats_hand_is_the_recorders(rec):
    """Thrones §11: a hand is its owner's. An effect typed by seat 1 that discards from
    seat 0's hand is refused alike whether seat 0 holds the card or not; one that draws from
    seat 1's own deck (in seat 1's own view) passes that check and meets the rules, which
    since issue #30 leave a free-form effect to the table's recorder (ruling 29)."""
    gid, _ = _table_game(rec, "thrones", "2_players", 11)
    state = rec.cursor(gid)[1].state
    held = sorted(state.players[0].hand)[0]
    absent = sorted(state.players[0].deck)[0]
    refusals = {_refusal(rec, gid, {"type": "effect", "actor": 1, "data": {
        "costs": [], "source": None,
        "ops": [{"op": "discard_from_hand", "seat": 0, "cards": [card]}]}}, 1)
        for card in (held, absent)}
    assert len(refusals) == 1 and next(iter(refusals))[0] == "recorded_by_the_table"
    own = sorted(state.players[1].deck)[0]
    with pytest.raises(IllegalAction) as err:
        rec.record(gid, {"type": "effect", "actor": 1, "data": {
            "costs": [], "source": None, "ops": [{"op": "draw", "seat": 1, "cards": [own]}]}},
            access=Access("seat", 1))
    assert err.value.code == "effect_not_allowed"


def test_a_patience_player_types_their_own_draws(rec):
    """Adaman is played alone: its one seat sees the whole table, so its typed draw is
    checked against nothing hidden from it and stays its own to record."""
    gid, envs = _table_game(rec, "adaman", "won", 1)
    move = {k: envs[2][k] for k in ("type", "actor", "data")}
    assert rec.record(gid, move, access=Access("seat", 0)).event["seq"] == 2


def test_a_ballot_a_seat_casts_with_its_own_token_is_sealed_from_the_recorder_too(rec):
    """In the Shadow of the Emperor §8 (ruling 21): seat 2 casts its ballot from its own
    phone; until the last ballot is in, the table's recorder sees of it what seat 1 sees
    ("hidden", in the state and in the event), and a ballot the recorder typed itself it
    sees. With the last ballot all are revealed, to everyone."""
    gid, envs = _table_game(rec, "in_the_shadow_of_the_emperor", "4_players", 51)
    seat2 = {k: envs[52][k] for k in ("type", "actor", "data")}
    done = rec.record(gid, seat2, access=Access("seat", 2))
    assert done.event["data"] == {"choice": "emperor", "sealed": True}  # chronicle's mark
    for who in (RECORDER, Access("seat", 1), Access("spectator")):
        assert rec.state(gid, access=who)["view"]["ballots"] == {"2": "hidden"}, who
        events, _ = rec.history(gid, after=51, access=who)
        assert events[0]["data"] == {"choice": "hidden"} and "salt" not in events[0], who
    assert rec.state(gid, access=Access("seat", 2))["view"]["ballots"] == {"2": "emperor"}
    assert rec.state(gid)["view"]["ballots"] == {"2": "emperor"}  # the local CLI: all
    rec.undo(gid, access=RECORDER)  # the recorder types seat 2's ballot: it saw the card
    rec.record(gid, {**seat2, "data": {"choice": "emperor", "sealed": True}}, access=RECORDER)
    assert rec.state(gid, access=RECORDER)["view"]["ballots"] == {"2": "emperor"}
    assert rec.state(gid, access=Access("seat", 1))["view"]["ballots"] == {"2": "hidden"}
    last = {k: envs[53][k] for k in ("type", "actor", "data")}
    rec.record(gid, last, access=Access("seat", 1))
    shown = rec.state(gid, access=RECORDER)["view"]["last_election"]["ballots"]
    assert shown == {"1": "emperor", "2": "emperor"}
