"""The triggers of docs/games/thrones-abilities.md ("Triggers") that apply/seen.py reads
from the states: `claim_applied`, `leaves_play`, `stands`, `event_played` and
`cards_revealed`. Each is seen whatever did it, with the fields the contract's table names;
the expected values come from that table and the rules of the event (§7.6, §8.6)."""

from __future__ import annotations

from typing import Any

from projections.rules import Action, replace
from projections.thrones.apply.triggers import EMITTED
from projections.thrones.state import State
from tests.projections.thrones_cards.harness import RULES, Board, use

RULING = {"reason": "test ruling"}


def act(state: State, kind: str, seat: int | str, **data: Any) -> State:
    after: State = RULES.apply(state, Action.of(kind, seat, data))
    return after


def fired(state: State, name: str) -> list[dict[str, object]]:
    """The fields of each open trigger named `name`."""
    window = state.window
    return [dict(t.fields) for t in (window.triggers if window is not None else ())
            if t.name == name]


def test_the_contract_triggers_are_all_emitted() -> None:
    for name in ("claim_applied", "leaves_play", "event_played", "stands",
                 "cards_revealed"):
        assert name in EMITTED


def test_claim_applied_follows_the_claim_with_its_type_winner_and_loser() -> None:
    b = Board(phase="challenges", mode="table")
    jaime = b.play(0, "core_037")
    b.revealed_plot(0, "core_190")  # claim 1
    b.revealed_plot(1, "core_184")
    gone = b.hand(1, "core_005")
    b.challenge("intrigue", attackers=[jaime], winner=0, step="resolved")
    ch = b.state.challenge
    assert ch is not None
    b.set(challenge=replace(ch, pending=(("claim", 1),)))
    after = act(b.state, "apply_claim", 1, discards=[gone])
    assert fired(after, "claim_applied") == [{"type": "intrigue", "winner": 0, "loser": 1}]


def test_leaves_play_names_where_each_card_went() -> None:
    b = Board(phase="marshalling", mode="table")
    robb = b.play(0, "core_008")
    nymeria = b.play(0, "core_002", on=robb)
    castle = b.play(1, "core_025")
    killed = act(b.state, "effect", "table", **RULING, ops=[{"op": "kill", "cards": [robb]}])
    left = {f["card"]: f["to"] for f in fired(killed, "leaves_play")}
    assert left == {robb: "dead", nymeria: "discard"}  # the attachment goes with its host
    back = act(b.state, "effect", "table", **RULING,
               ops=[{"op": "return_to_hand", "cards": [castle]}])
    assert fired(back, "leaves_play") == [{"card": castle, "seat": 1, "to": "hand"}]


def test_stands_in_the_standing_phase_and_by_an_op() -> None:
    b = Board(phase="dominance", mode="table")
    b.set(dominance_done=True)
    eddard = b.play(0, "core_005", knelt=True)
    b.play(1, "core_037")  # standing: it does not stand again
    stood = act(b.state, "end_round", "table")
    assert fired(stood, "stands") == [{"card": eddard, "seat": 0, "phase": "standing"}]
    b.set(phase="marshalling")
    by_op = act(b.state, "effect", "table", **RULING, ops=[{"op": "stand", "card": eddard}])
    assert fired(by_op, "stands") == [{"card": eddard, "seat": 0, "phase": "marshalling"}]


def test_event_played_when_an_event_goes_from_hand_to_discard() -> None:
    b = Board(("Stark", "Lannister"), phase="marshalling", mode="table", turn=1)
    distraction = b.hand(1, "core_155")
    jaime = b.play(1, "core_037")
    after = use(b.state, 1, distraction, "kneel_military", victim=jaime)
    assert fired(after, "event_played") == [{"card": distraction, "seat": 1}]
    kennels = b.play(0, "core_024")  # a location's ability is no event
    b.deck(0, "core_019")
    b.gold(0, 1)
    wolf = next(iter(b.state.players[0].deck))
    fetched = use(b.state, 0, kennels, "fetch_direwolf", wolf=wolf)
    assert fired(fetched, "event_played") == []


def test_an_event_used_from_the_discard_pile_is_not_played_again() -> None:
    b = Board(("Lannister", "Stark"), phase="challenges", mode="table")
    ways = b.hand(0, "core_163")  # Insidious Ways: its draw is used from the discard pile
    jaime = b.play(0, "core_037")
    b.deck(0, "core_053")
    b.deck(0, "core_041")
    b.revealed_plot(0, "core_190")
    b.revealed_plot(1, "core_184")
    b.challenge("intrigue", attackers=[jaime], defenders=[])
    played = use(b.state, 0, ways, "attacker_strength", attacker=jaime)
    assert fired(played, "event_played") == [{"card": ways, "seat": 0}]
    won = act(played, "resolve_challenge", 0)
    drew = use(won, 0, ways, "draw_on_win", chance={"drawn": sorted(won.players[0].deck)})
    assert fired(drew, "event_played") == []


def test_cards_revealed_by_a_search_shown_not_by_a_draw() -> None:
    b = Board(("Stark", "Lannister"), phase="marshalling", mode="table")
    kennels = b.play(0, "core_024")
    wolf = b.deck(0, "core_019")
    b.gold(0, 1)
    shown = use(b.state, 0, kennels, "fetch_direwolf", wolf=wolf)
    assert fired(shown, "cards_revealed") == [{"seat": 0, "card": kennels}]
    drawn = act(b.state, "effect", "table", **RULING,
                ops=[{"op": "draw", "seat": 0, "cards": [wolf]}])
    assert fired(drawn, "cards_revealed") == []
