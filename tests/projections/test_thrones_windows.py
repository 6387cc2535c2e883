"""The windows an event opens (docs/rulings/thrones.md rulings 35-38; docs/games/
thrones-abilities.md, "Windows"). Expected values come from the rulings' words and the
cards' summaries: who is asked, in which order, what a save leaves, what a forced ability
does by itself."""

from __future__ import annotations

import random
from typing import Any

import pytest

from projections.playout import created_for, play
from projections.rules import Action, IllegalAction, replace
from projections.thrones.state import Modifier, State
from tests.projections.thrones_cards.harness import RULES, Board, refused, use


def act(state: State, kind: str, seat: int | str, **data: Any) -> State:
    after: State = RULES.apply(state, Action.of(kind, seat, data))
    return after


def card(state: State, ident: str) -> Any:
    return next(c for c in state.cards if c.id == ident)


def code_of(state: State, kind: str, seat: int | str, **data: Any) -> str:
    with pytest.raises(IllegalAction) as err:
        act(state, kind, seat, **data)
    return err.value.code


# -- ruling 35: a window stops the game only when someone can answer it ----------------
def _groleo_board(groleos: tuple[int, ...]) -> tuple[Board, str, str]:
    """Three players, the first player Cy (seat 2); Anna (seat 0) marshals an attachment;
    each seat of `groleos` has Captain Groleo ("after an opponent's attachment enters
    play, 1 power on your House card")."""
    b = Board(houses=("Stark", "Targaryen", "Targaryen"), phase="marshalling",
              mode="digital", turn=0, first_player=2)
    robb = b.play(0, "core_008")
    nymeria = b.hand(0, "core_002")
    b.gold(0, 5)
    for seat in groleos:
        b.play(seat, "core_105")
    return b, robb, nymeria


def test_a_window_nobody_can_answer_asks_nobody() -> None:
    b, robb, nymeria = _groleo_board(())
    after = act(b.state, "marshal_card", 0, card=nymeria, attach_to=robb)
    assert RULES.to_act(after) == (0,)  # still Anna's marshalling turn: no prompt
    assert "window" not in RULES.view(after, "all")
    assert code_of(after, "pass_window", 0) == "nothing_to_answer"


def test_responses_are_asked_from_the_first_player_clockwise() -> None:
    b, robb, nymeria = _groleo_board((1, 2))
    after = act(b.state, "marshal_card", 0, card=nymeria, attach_to=robb)
    assert RULES.to_act(after) == (2,)  # ruling 37: Cy is the first player
    assert RULES.view(after, "all")["window"]["waiting"] == [2]
    assert code_of(after, "end_marshalling", 0) == "awaiting_answer"
    assert code_of(after, "pass_window", 1) == "nothing_to_answer"  # not Bo's turn yet
    after = act(after, "pass_window", 2)
    assert RULES.to_act(after) == (1,)  # then clockwise: Anna has no answer, so Bo
    after = use(after, 1, "p1-105", "power_on_attachment")
    assert after.players[1].house_power == 1 and after.players[2].house_power == 0
    assert RULES.to_act(after) == (0,)  # everyone answered: Anna marshals on


def test_a_seat_whose_answer_it_cannot_pay_is_not_asked() -> None:
    b = Board(houses=("Lannister", "Stark"), phase="challenges", mode="digital")
    port = b.play(0, "core_055")  # Lannisport: pay 1 gold, 1 power after an intrigue win
    tyrion = b.play(0, "core_038")
    b.challenge("intrigue", attackers=[tyrion])
    broke = act(b.state, "resolve_challenge", 0)
    assert broke.window is not None and broke.window.waiting == ()
    b.gold(0, 1)
    paid = act(b.state, "resolve_challenge", 0)
    assert paid.window is not None and paid.window.waiting == (0,)
    after = use(paid, 0, port, "house_power")
    # unopposed already gave 1 (§8.6); Lannisport 1 more
    assert after.players[0].house_power == paid.players[0].house_power + 1 == 2
    assert after.players[0].gold == 0


# -- ruling 35 at a table: no pass, the answer checked against the open trigger ---------
def test_at_a_table_a_response_needs_its_trigger_to_have_just_happened() -> None:
    b = Board(houses=("Lannister", "Stark"), phase="challenges", mode="table", gold=2)
    port = b.play(0, "core_055")
    tyrion = b.play(0, "core_038")
    hound = b.play(0, "core_042")
    b.challenge("intrigue", attackers=[tyrion])
    refused(b.state, 0, port, "house_power", code="outside_window")  # nothing won yet
    won = act(b.state, "resolve_challenge", 0)
    assert RULES.to_act(won) == RULES.to_act(replace(won, window=None))  # nobody asked
    assert code_of(won, "pass_window", 0) == "no_pass_at_table"
    assert use(won, 0, port, "house_power").players[0].house_power == \
        won.players[0].house_power + 1
    later = act(won, "declare_challenge", 0, type="military", defender=1, attackers=[hound])
    refused(later, 0, port, "house_power", code="outside_window")  # the win is past


def test_one_response_answers_one_trigger_once() -> None:
    b = Board(houses=("Lannister", "Stark"), phase="challenges", mode="table", gold=3)
    tyrion = b.play(0, "core_038")  # "after you win an intrigue challenge, pay 1: draw"
    top = b.deck(0, "core_050")
    b.challenge("intrigue", attackers=[tyrion])
    won = act(b.state, "resolve_challenge", 0)
    once = use(won, 0, tyrion, "draw_a_card", chance={"drawn": [top]})
    assert top in once.players[0].hand
    refused(once, 0, tyrion, "draw_a_card", code="outside_window")


# -- ruling 36: saves restore the card exactly; the deaths answered are those that stay --
def _ilyn_and_robb(mode: str) -> tuple[Board, str, str, str]:
    b = Board(houses=("Lannister", "Stark"), phase="marshalling", mode=mode)
    ilyn = b.play(0, "core_041")  # kneels to kill a character of STR 2 or less
    robb = b.play(1, "core_008", knelt=True, power=2)  # a Lord, STR 2
    nymeria = b.play(1, "core_002", on=robb)  # kneels to save her bearer from death
    b.play(1, "core_013")  # a card after Robb, so his place in the order shows
    b.set(modifiers=(Modifier("gain_keyword", robb, "round", value="renown"),),
          power_issued=2)
    return b, ilyn, robb, nymeria


def test_a_save_puts_the_card_back_exactly_as_it_was() -> None:
    b, ilyn, robb, nymeria = _ilyn_and_robb("table")
    before = b.state
    dead = use(before, 0, ilyn, "kill_weakling", victim=robb)
    assert robb in dead.players[1].dead and nymeria in dead.players[1].discard
    saved = use(dead, 1, nymeria, "save_bearer")
    expected = tuple(replace(c, knelt=True) if c.id in (nymeria, ilyn) else c
                     for c in before.cards)
    assert saved.cards == expected  # same records, same order, power and host kept
    assert saved.modifiers == before.modifiers and saved.power_issued == 2
    assert saved.players == before.players  # no card left in a pile
    refused(saved, 1, nymeria, "save_bearer", code="outside_window")  # saved already


def test_digital_saves_are_asked_first_and_a_saved_death_answers_nothing() -> None:
    b, ilyn, robb, nymeria = _ilyn_and_robb("digital")
    joffrey = b.play(0, "core_036")  # forced: 1 power whenever a Lord or Lady dies
    dead = use(b.state, 0, ilyn, "kill_weakling", victim=robb)
    assert RULES.to_act(dead) == (1,) and dead.window is not None
    assert dead.window.stage == "interrupt" and card(dead, joffrey).power == 0
    saved = use(dead, 1, nymeria, "save_bearer")
    assert card(saved, robb).power == 2 and card(saved, joffrey).power == 0
    assert RULES.to_act(saved) == (0,)
    passed = act(dead, "pass_window", 1)  # no save: the death stands, Joffrey answers it
    assert robb in passed.players[1].dead and card(passed, joffrey).power == 1
    assert RULES.to_act(passed) == (0,)


# -- ruling 38: forced abilities ----------------------------------------------------------
def test_a_forced_ability_that_asks_nothing_is_applied_by_the_rules_in_digital_play() -> None:
    b = Board(phase="marshalling", gold=4, mode="digital")
    ned = b.hand(0, "core_005")  # forced: 1 power on himself when he enters play
    after = act(b.state, "marshal_card", 0, card=ned)
    assert card(after, ned).power == 1 and RULES.to_act(after) == (0,)


def test_at_a_table_the_forced_ability_is_recorded_in_its_window() -> None:
    b = Board(phase="marshalling", gold=4, mode="table")
    ned = b.hand(0, "core_005")
    after = act(b.state, "marshal_card", 0, card=ned)
    assert card(after, ned).power == 0
    assert card(use(after, 0, ned, "enters_with_power"), ned).power == 1
    ended = act(after, "end_marshalling", 0)
    refused(ended, 0, ned, "enters_with_power", code="outside_window")


def test_a_forced_choice_asks_its_owner_who_may_not_pass() -> None:
    b = Board(houses=("Targaryen", "Stark"), phase="marshalling", gold=3, mode="digital")
    xaro = b.hand(0, "core_116")  # forced when marshalled: return a character you control
    after = act(b.state, "marshal_card", 0, card=xaro)
    assert RULES.to_act(after) == (0,) and after.window is not None
    assert after.window.stage == "forced"
    assert code_of(after, "pass_window", 0) == "forced_must_answer"
    assert code_of(after, "end_marshalling", 0) == "awaiting_answer"
    listed = RULES.legal_actions(after, 0)
    assert listed and all(a["type"] == "use_ability" for a in listed)
    home = use(after, 0, xaro, "send_home", returned=xaro)
    assert xaro in home.players[0].hand and home.window is not None
    assert home.window.waiting == () and RULES.to_act(home) == (0,)


# -- undo: the window is state, so undoing an event restores it -------------------------
def test_undo_restores_the_state_before_each_window_event() -> None:
    from projections.replay import Folder
    game = play(RULES, created_for(RULES, 2, "digital"), random.Random(7).randrange, "w7")
    envs = [{"seq": 0, "type": "game_created", "actor": "table", "data": game.created}]
    envs += [{"seq": i + 1, **a.to_json()} for i, a in enumerate(game.actions)]
    folder = Folder(RULES, "table")
    checked = 0
    for i, env in enumerate(envs):
        folder.feed(env)
        state = game.states[i] if i else None
        if i == 0 or state is None or (state.window is None and game.states[i - 1].window
                                       is None):
            continue
        scratch = Folder(RULES, "table", fallback=folder.lookup, event_at=folder.envelopes.get)
        scratch.resume(folder.last)
        undo = {"seq": folder.last.seq + 1, "type": "undo", "actor": "table", "data": {}}
        assert scratch.feed(undo).state == game.states[i - 1]
        checked += 1
    assert checked and any(a.type == "pass_window" for a in game.actions)
