"""Conceding (§6.17): a player leaves the game with their cards; the game goes on without
them, or ends when one player is left."""

from __future__ import annotations

from ...messages import M
from ...rules import Action, replace, require
from ..edition import Components, Seat, owner_of
from ..state import State, next_after, order
from .claims import advance_pending, close_challenge
from .guards import seat_of
from .rounds import (
    begin_draw_phase,
    begin_marshal_turn,
    reveal_plots,
    set_phase,
    settle_initiative,
)
from .setup import reveal_setup
from .values import total_power
from .victory import rule
from .zones import add_power, leave_play


@rule
def apply_concede(state: State, action: Action, ed: Components) -> State:
    """§6.17: the player leaves the game with every card they own or control."""
    seat = seat_of(state, action)
    require(state.phase != "start", "wrong_phase", M("the game has not started"))
    power = total_power(state, seat)
    for card in [c.id for c in state.cards if c.controller == seat or owner_of(c.id) == seat]:
        if any(c.id == card for c in state.cards):
            state = leave_play(state, card, "removed", ed)
    player = state.players[seat]
    # §6.17 removes them from the game, it does not reveal them: the cards nobody saw stay
    # unseen by the others until the game is over (ruling 25)
    unseen = (*player.hand, *player.deck, *player.plot_deck, *(c for c, _ in player.setup_cards))
    removed = [*player.removed, *unseen]
    if player.revealed_plot:
        removed.append(player.revealed_plot)
    state = add_power(state, f"house:{seat}", -player.house_power, ed)
    state = state.with_player(seat, conceded=True, final_power=power,
                              removed=tuple(removed), hand=type(player.hand)(),
                              removed_unseen=(*player.removed_unseen, *unseen),
                              deck=type(player.deck)(), plot_deck=type(player.deck)(),
                              setup_cards=(), revealed_plot=None, chosen_plot=None, gold=0)
    titles = (*state.titles[:seat], None, *state.titles[seat + 1:]) if state.titles else ()
    state = replace(state, titles=titles)
    if len(state.active) == 1:
        return replace(state, winner=state.active[0], end_reason="concession",
                       phase="over", challenge=None)
    return _after_concede(state, seat, ed)


def _after_concede(state: State, seat: Seat, ed: Components) -> State:
    ch = state.challenge
    if ch is not None:
        if seat in (ch.attacker, ch.defender):
            state = close_challenge(state)
        elif ch.pending:
            state = advance_pending(replace(state, challenge=replace(
                ch, pending=tuple(p for p in ch.pending if p[1] != seat))), ed)
    if state.pending_winner:
        left = tuple(s for s in state.pending_winner if s != seat)
        return replace(state, pending_winner=left) if len(left) > 1 else replace(
            state, pending_winner=(), winner=left[0], end_reason="power", phase="over")
    if state.turn == seat or (state.phase == "plot" and state.step != "titles"):
        return _skip_conceded(state, seat, ed)
    return state


def _skip_in_plot_phase(state: State, seat: Seat, ed: Components) -> State | None:
    """The plot phase without the conceded player: None where the turn simply moves on."""
    if state.step == "choose":
        done = all(state.players[s].chosen_plot for s in state.active)
        return reveal_plots(state, ed) if done else state
    if state.step == "tie":
        tied = tuple(s for s in state.tied if s != seat)
        return replace(state, tied=tied) if len(tied) > 1 else replace(
            state, tied=(), step="first_player", initiative_winner=tied[0])
    if state.step == "first_player":
        return settle_initiative(state, ed) if state.initiative_winner == seat else state
    if state.step == "when_revealed":
        return state  # the plots still to resolve drop it (apply/revealed.py)
    return None


def _skip_conceded(state: State, seat: Seat, ed: Components) -> State:
    """The game goes on past a player who conceded on their turn (or in the plot phase)."""
    phase = state.phase
    if phase == "plot":
        skipped = _skip_in_plot_phase(state, seat, ed)
        if skipped is not None:
            return skipped
    nxt = next_after(state, seat, state.setup_first if phase == "setup" else None)
    if nxt is not None:
        return replace(state, turn=nxt) if phase != "marshalling" else \
            begin_marshal_turn(state, nxt, ed)
    if phase == "setup":
        return reveal_setup(state)
    if phase == "plot":
        return begin_draw_phase(state)
    if phase == "marshalling":
        return replace(set_phase(state, "challenges"), turn=order(state)[0])
    if phase == "challenges":
        return replace(set_phase(state, "dominance"), turn=None)
    return state
