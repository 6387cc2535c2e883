"""In the Shadow of the Emperor: one rule per action type, and the round's own procedure.

Spec: docs/games/in_the_shadow_of_the_emperor.md (data: data/in_the_shadow_of_the_emperor.json;
seed: seeds/003_4990f66342a4f8fd.txt). Rulings: docs/rulings/in_the_shadow_of_the_emperor.md.

Every `apply_<type>` first checks that its decision is the one awaited (`_awaited`, spec §7),
then the action's own guards, then builds the next state and hands it to `settle`: the
reducer walks the five rounds of eight phases by itself (round 1 starts at phase IV, §4) and
stops only at a pending decision; a decision with exactly one distinct option is applied
here without an event (§7, ruling 6). The placement rules every action shares (entering a
court, placing knights, tiles on the board) are the helpers below the phases.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..errors import IllegalAction
from ..messages import M, Mn, Ordinal, Seq
from ..rules import Action, Applier, replace, require, seat_name, with_item
from .edition import Components
from .legal import (
    ACCEPTS,
    PHASE4_CARDS,
    TURN_PRIVILEGES,
    appoint_candidates,
    card_cost,
    court_free,
    electorate,
    forced_option,
    permit_number,
    throne_options,
)
from .scoring import child, gray_holder, income, influence, votes
from .state import (
    COUPLE,
    EMPIRE,
    SINGLE,
    VOTE_CHOICES,
    Electorate,
    Pending,
    Seat,
    State,
    Tile,
    minus,
    plus,
)
from .words import ACTION_WORDS, FIELD_WORDS, Words, quoted, sentence, words_for

# ---------------------------------------------------------------------------
# Guards every action shares
# ---------------------------------------------------------------------------


def _awaited(state: State, action: Action, c: Components) -> None:
    """Spec §7: an action answers the decision the game waits for, by the seat it waits for
    (in an election, any voter)."""
    require(state.status == "playing", "game_not_started",
            M("the game has not been set up yet (setup comes first)"))
    pending = state.pending
    assert pending is not None  # a running game always waits for someone
    w = _words(state, c)
    if action.type not in ACCEPTS[pending.kind]:
        raise IllegalAction(
            "no_decision_pending",
            M("no decision pending: {action} is not awaited now (the game waits for {player}: "
              "{decision}); a step with one possible choice was forced",
              action=ACTION_WORDS[action.type], player=w.who(pending.actor),
              decision=w.label(pending.kind)), waiting_for=pending.kind)
    if pending.kind == "vote":
        return
    if action.actor != pending.actor:
        raise IllegalAction("not_your_turn",
                            M("not your turn ({player} is to act, not {actor})",
                              player=w.who(pending.actor), actor=w.who(action.actor)),
                            expected=pending.actor)


def who(action: Action) -> Seat:
    """The acting seat (the pending-decision check has already matched it)."""
    if not isinstance(action.actor, int):
        what = ACTION_WORDS.get(action.type, M("this action"))
        raise IllegalAction("not_your_turn",
                            sentence(M("{action} is a player's action, not one for {actor}",
                                       action=what, actor=seat_name((), action.actor))))
    return action.actor


def _words(state: State, c: Components) -> Words:
    """Phrases for messages: the players' names and the edition's labels."""
    return words_for(state.names, c)


def _place(eid: Any, c: Components) -> str:
    return words_for((), c).place(eid)


def _named(eid: Any, c: Components) -> str:
    """An electorate the player named: its label, or the unknown value quoted."""
    return _place(eid, c) if eid in c.eindex else quoted(eid)


def _seat(state: State, value: Any, what: str) -> Seat:
    if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value < state.n:
        raise IllegalAction("unknown_seat",
                            M("{what} must be one of the {count} seats, 0 to {last}; "
                              "none was named", what=sentence(what), count=state.n,
                              last=state.n - 1) if value is None else
                            M("{what} must be one of the {count} seats, 0 to {last}; "
                              "{value} is not one", what=sentence(what), count=state.n,
                              last=state.n - 1, value=quoted(value)),
                            seat=value)
    return value


# ---------------------------------------------------------------------------
# Small state changes
# ---------------------------------------------------------------------------


def _set_e(state: State, i: int, **changes: Any) -> State:
    return replace(state, electorates=with_item(state.electorates, i,
                                                replace(state.electorates[i], **changes)))


def _set_p(state: State, seat: Seat, **changes: Any) -> State:
    return replace(state, players=with_item(state.players, seat,
                                            replace(state.players[seat], **changes)))


def _supply_tiles(state: State, seat: Seat, k: int) -> State:
    return _set_p(state, seat, tiles=state.players[seat].tiles + k)


def _gain_thalers(state: State, seat: Seat, k: int, c: Components) -> State:
    # spec §5.1 / §12.12: no gain raises thalers above the track's end
    p = state.players[seat]
    return _set_p(state, seat, thalers=min(c.thalers_max, p.thalers + k))


def _pay(state: State, seat: Seat, cost: int, what: str, c: Components) -> State:
    have = state.players[seat].thalers
    require(have >= cost, "not_enough_thalers",
            M("{what} costs {cost}; {player} has {have}", what=what,
              cost=Mn("{count} thaler", "{count} thalers", cost), player=_words(state, c).who(seat),
              have=Mn("{count} thaler", "{count} thalers", have)), cost=cost, thalers=have)
    return _set_p(state, seat, thalers=have - cost)


def _gain_vp(state: State, seat: Seat, k: int, source: str) -> State:
    p = state.players[seat]
    return _set_p(state, seat, vp=p.vp + k, vp_sources=p.vp_sources.add([source] * k))


# ---------------------------------------------------------------------------
# The automatic procedure (spec §5, §7)
# ---------------------------------------------------------------------------


def settle(state: State, components: Components) -> State:
    """Run the automatic procedure up to the next real decision: a forced decision (one
    option, spec §7) is applied as its own action, which settles in turn (by its rule
    apply_<type> here, the one its record in actions.py declares)."""
    while state.status == "playing":
        if state.pending is None:
            state = _step(state, components)
            continue
        forced = forced_option(state, components)
        if forced is None:
            return state
        rule: Applier = globals()[f"apply_{forced['type']}"]
        after: State = rule(state, Action.of(forced["type"], forced["actor"], forced["data"]),
                            components)
        return after
    return state


def _step(state: State, c: Components) -> State:
    if state.refill_throne:
        return _start_refill(state)
    return PHASES[state.phase](state, c)


def _goto(state: State, phase: int, **changes: Any) -> State:
    return replace(state, phase=phase, cursor=0, step="", pending=None, **changes)


# setup (spec §4)


def _setup_plan(n: int, c: Components) -> list[tuple[str, int, str | None, int | None]]:
    old, ages = c.ages[-1], c.ages
    plan: list[tuple[str, int, str | None, int | None]] = [
        ("start_empire_city", 0, None, None), ("throne", 0, SINGLE, old)]
    plan += [("start_elector", k, SINGLE, old) for k in range(1, n)]
    for side, age in ((COUPLE, ages[-2]), (SINGLE, ages[1]), (COUPLE, ages[0])):
        plan += [("start_aristocrat", k, side, age) for k in range(n)]
    plan += [("start_knight", k, None, None) for k in range(n)]
    return plan


def _step_setup(state: State, c: Components) -> State:
    plan = _setup_plan(state.n, c)
    if state.cursor >= len(plan):
        return _goto(_chips(state), c.first_phase, turn=state.emperor)
    kind, offset, side, age = plan[state.cursor]
    seat = (state.emperor + offset) % state.n
    if kind == "throne":
        state = _supply_tiles(state, seat, -1)
        return replace(state, throne=(seat, SINGLE, c.ages[-1]), cursor=state.cursor + 1)
    return replace(state, pending=Pending(kind, seat, side=side, age=age))


# phase I


def _phase_income(state: State, c: Components) -> State:
    electorates = tuple(replace(e, used=False) for e in state.electorates)
    state = replace(state, electorates=electorates)
    for seat in range(state.n):
        state = _gain_thalers(state, seat, income(state, seat, c), c)
    return _goto(state, 2)


# phase II


def _phase_aging(state: State, c: Components) -> State:
    oldest = c.ages[-1]
    supply = [0] * state.n

    def survive(tile: Tile | None) -> Tile | None:
        if tile is None:
            return None
        if tile[2] == oldest:
            supply[tile[0]] += 1
            return None
        return (tile[0], tile[1], c.ages[c.ages.index(tile[2]) + 1])

    electorates = tuple(replace(e, elector=survive(e.elector), tiles=tuple(sorted(
        t for t in (survive(x) for x in e.tiles) if t is not None)))
        for e in state.electorates)
    throne = survive(state.throne)
    for seat, k in enumerate(supply):
        state = _supply_tiles(state, seat, k)
    # spec §5.2 step 3 and §12.11: an empty throne is refilled now
    return _goto(replace(state, electorates=electorates, throne=throne), 3,
                 refill_throne=throne is None)


def _start_refill(state: State) -> State:
    state = replace(state, refill_throne=False)
    if not throne_options(state, state.emperor):
        return state  # spec §12.11: the throne stays empty
    return replace(state, pending=Pending("fill_throne", state.emperor))


# phase III


def _phase_descendants(state: State, c: Components) -> State:
    if state.cursor >= state.n:
        returned = [card for p in state.players for card in p.area]
        players = tuple(replace(p, area=()) for p in state.players)
        return _goto(_chips(replace(state, players=players,
                                    display=state.display.add(returned))), 4,
                     turn=state.emperor)
    seat = (state.emperor + state.cursor) % state.n
    born = child(state, seat, c)
    if born is None or (born == "son" and state.players[seat].tiles == 0):
        return replace(state, cursor=state.cursor + 1)
    return replace(state, pending=Pending(born, seat))


def _chips(state: State) -> State:
    """Spec §3.1: the colour chip records each player's thalers as phase IV begins."""
    return replace(state, players=tuple(replace(p, chip=p.thalers) for p in state.players))


# phase IV


def _phase_actions(state: State, c: Components) -> State:
    if all(p.passed for p in state.players):
        players = tuple(replace(p, passed=False) for p in state.players)
        return _goto(replace(state, players=players), 5)
    return replace(state, pending=Pending("turn", state.turn))


def _end_turn(state: State, seat: Seat) -> State:
    for k in range(1, state.n + 1):
        nxt = (seat + k) % state.n
        if not state.players[nxt].passed:
            return replace(state, turn=nxt, pending=None)
    return replace(state, pending=None)


# phase V


def _phase_new_electors(state: State, c: Components) -> State:
    if state.cursor >= len(c.eids):
        mainz = state.electorates[c.eindex["mainz"]].elector
        if mainz is not None:  # spec §5.5 step 7, §12.6
            state = _gain_vp(state, mainz[0], c.victory_points.mainz, "mainz")
        return _goto(state, 6)
    counts = influence(state, c.eids[state.cursor], c)
    best = max(counts)
    if best == 0:
        return replace(state, cursor=state.cursor + 1)
    tied = tuple(s for s in range(state.n) if counts[s] == best)
    if len(tied) > 1:
        decider = gray_holder(state)
        decider = state.emperor if decider is None else decider
        return replace(state, pending=Pending("break_tie", decider,
                                              electorate=c.eids[state.cursor], seats=tied))
    return _win_electorate(state, tied[0], c)


def _win_electorate(state: State, winner: Seat, c: Components) -> State:
    i = state.cursor
    e = state.electorates[i]
    if e.elector is not None and e.elector[0] == winner:
        return replace(state, cursor=i + 1, pending=None)  # spec §5.5 step 4
    if not appoint_candidates(e, winner, c):
        # spec §5.5 step 5: no eligible tile, the elector space becomes empty
        return _displace(_set_e(state, i, elector=None), e.elector, c)
    return replace(state, pending=Pending("appoint_elector", winner, electorate=e.id))


def _displace(state: State, former: Tile | None, c: Components) -> State:
    """Spec §5.5 step 6: the former elector returns to its court, or to supply."""
    i = state.cursor
    if former is None:
        return replace(state, cursor=i + 1, pending=None)
    e = state.electorates[i]
    if court_free(state, e, c):
        return replace(_set_e(state, i, tiles=plus(e.tiles, former)),
                       cursor=i + 1, pending=None)
    if e.knights:
        return replace(state, held=former,
                       pending=Pending("place_former_elector", former[0], electorate=e.id))
    return replace(_supply_tiles(state, former[0], 1), cursor=i + 1, pending=None)


# phase VI


def _phase_election(state: State, c: Components) -> State:
    if state.rival is None:
        return _goto(state, 7)
    return ELECTION_STEPS[state.step](state, c)


def _election_targets(state: State, c: Components) -> State:
    for k in range(state.n):  # spec §5.6 step 1: clockwise from the Emperor
        seat = (state.emperor + k) % state.n
        area = state.players[seat].area
        if "church_influence" in area and not state.ci_done:
            return replace(state, pending=Pending("ci_target", seat))
        if "excommunication" in area and not state.ex_done:
            return replace(state, pending=Pending("ex_target", seat))
    counts = votes(state, c)
    voters = tuple(s for s in range(state.n)
                   if s not in (state.emperor, state.rival) and counts[s] > 0)
    if not voters:
        return _tally(state, c)
    return replace(state, pending=Pending("vote", state.emperor, seats=voters))


def _tally(state: State, c: Components) -> State:
    counts = votes(state, c)
    chosen = dict(state.ballots)
    totals = [counts[state.emperor], counts[state.rival or 0]]
    for seat, choice in chosen.items():
        totals[VOTE_CHOICES.index(choice)] += counts[seat]
    rival_wins = totals[1] > totals[0]  # spec §5.6 step 5: a tie keeps the Emperor
    winning = VOTE_CHOICES[1 if rival_wins else 0]
    for seat, choice in sorted(chosen.items()):
        if choice == winning:
            state = _gain_vp(state, seat, c.victory_points.voted_for_winner, "election_votes")
    state = replace(state, ballots=(), sealed=(), last_election=tuple(sorted(chosen.items())),
                    last_totals=(totals[0], totals[1]), pending=None)
    if not rival_wins:
        return replace(state, step="done")
    assert state.rival is not None
    return replace(state, held=state.throne, throne=None, emperor=state.rival, step="seat")


def _election_seat(state: State, c: Components) -> State:
    if not throne_options(state, state.emperor):
        return replace(state, step="former")  # spec §12.11
    return replace(state, pending=Pending("seat_emperor", state.emperor))


def _election_former(state: State, c: Components) -> State:
    if state.held is None:
        return replace(state, step="done")
    return replace(state, pending=Pending("place_former_emperor", state.held[0]))


def _election_done(state: State, c: Components) -> State:
    return _goto(state, 7, rival=None, ci_target=None, ex_target=None,
                 ci_done=False, ex_done=False)


# phase VII


def _phase_emperor(state: State, c: Components) -> State:
    track = c.emperor_track[state.round]
    if state.step == "":
        state = _gain_vp(state, state.emperor, track.vp, "emperor")
        state = _gain_thalers(state, state.emperor, track.thalers, c)
        return replace(state, step="city", pending=Pending("emperor_city", state.emperor))
    return _goto(state, 8)


# phase VIII


def _phase_end(state: State, c: Components) -> State:
    if state.round >= c.rounds:
        return replace(state, status="over", pending=None)
    return _goto(replace(state, round=state.round + 1), 1)


PHASES = {0: _step_setup, 1: _phase_income, 2: _phase_aging, 3: _phase_descendants,
          4: _phase_actions, 5: _phase_new_electors, 6: _phase_election, 7: _phase_emperor,
          8: _phase_end}
ELECTION_STEPS = {"": _election_targets, "seat": _election_seat,
                  "former": _election_former, "done": _election_done}


# ---------------------------------------------------------------------------
# Entering a court and placing knights (spec §6.1, §6.3)
# ---------------------------------------------------------------------------


def _enter_court(state: State, eid: Any, tile: Tile, push: Any, c: Components) -> State:
    i, e = electorate(state, eid, c)
    w = _words(state, c)
    where = w.place(eid)
    if court_free(state, e, c):
        # spec §6.1: a push is illegal while an empty space exists
        require(push is None, "push_not_allowed",
                sentence(M("{place} has an empty aristocrat space, so no knight may be pushed "
                           "({whose} knight stays)", place=where, whose=w.whose(push))),
                electorate=eid)
        return _set_e(state, i, tiles=plus(e.tiles, tile))
    require(push is not None, "court_full",
            M("the aristocrat spaces of {place} are full; name whose knight to push", place=where)
            if e.knights else M("the aristocrat spaces of {place} are full and hold no knight",
                                place=where), electorate=eid)
    require(push in e.knights, "no_such_knight",
            sentence(M("{place} has no knight of {player} on its aristocrat spaces (castle "
                       "knights can never be pushed)", place=where, player=w.who(push))),
            electorate=eid, push=push)
    state = _set_p(state, push, knights=state.players[push].knights + 1)
    return _set_e(state, i, tiles=plus(e.tiles, tile), knights=minus(e.knights, push))


def _enter_from_supply(state: State, seat: Seat, eid: Any, side: str, age: int, push: Any,
                       c: Components) -> State:
    require(state.players[seat].tiles > 0, "no_tile_in_supply",
            M("{player} has no aristocrat tile left in supply", player=_words(state, c).who(seat)))
    return _enter_court(_supply_tiles(state, seat, -1), eid, (seat, side, age), push, c)


def _require_city_space(e: Electorate, c: Components) -> None:
    spaces = c.electorates[e.id].city_spaces
    require(len(e.cities) < spaces, "no_empty_city_space",
            sentence(Mn("{place} has no empty city space ({count} space, all taken)",
                        "{place} has no empty city space ({count} spaces, all taken)", spaces,
                        place=_place(e.id, c))), electorate=e.id)


def _put_knight(state: State, seat: Seat, loc: Mapping[str, Any], c: Components) -> State:
    i, e = electorate(state, loc["electorate"], c)
    if loc["slot"] == "court":
        require(court_free(state, e, c), "no_empty_space",
                sentence(M("{place} has no empty aristocrat space for a knight (knights never "
                           "push)", place=_place(e.id, c))), electorate=e.id)
        return _set_e(state, i, knights=plus(e.knights, seat))
    require(loc["slot"] == "castle", "unknown_slot",
            M("a knight stands on an aristocrat space or a castle space, not on {value}",
              value=quoted(loc["slot"])))
    spaces = c.electorates[e.id].castle_spaces
    require(len(e.castles) < spaces, "no_empty_space",
            sentence(Mn("{place} has no empty castle space ({count} castle space in all)",
                        "{place} has no empty castle space ({count} castle spaces in all)",
                        spaces, place=_place(e.id, c))), electorate=e.id)
    return _set_e(state, i, castles=plus(e.castles, seat))


def _lift_knight(state: State, seat: Seat, loc: Mapping[str, Any], c: Components) -> State:
    i, e = electorate(state, loc["electorate"], c)
    slot = "knights" if loc["slot"] == "court" else "castles"
    here: tuple[Seat, ...] = getattr(e, slot) if loc["slot"] in ("court", "castle") else ()
    require(seat in here, "no_such_knight",
            M("{player} has no knight on {space}", player=_words(state, c).who(seat),
              space=words_for((), c).slot(loc)))
    return _set_e(state, i, **{slot: minus(here, seat)})


# ---------------------------------------------------------------------------
# Tiles on the board (spec §2)
# ---------------------------------------------------------------------------


def _tile_at(state: State, ref: Mapping[str, Any], c: Components) -> Tile:
    """Find the tile an AristocratRef names (§2), or refuse: "no such aristocrat"."""
    tile = (ref["owner"], ref["side"], ref["age"])
    at = ref["at"]
    found = False
    if at == "throne":
        found = state.throne == tile
    elif isinstance(at, str) and at.startswith("elector:") and at[8:] in c.eindex:
        found = state.electorates[c.eindex[at[8:]]].elector == tile
    elif at in c.eindex:
        found = tile in state.electorates[c.eindex[at]].tiles
    if not found:
        raise IllegalAction("no_such_aristocrat",
                            M("no such aristocrat: {tile}", tile=_words(state, c).ref(ref)),
                            aristocrat=dict(ref))
    return tile


def _replace_tile(state: State, at: str, old: Tile, new: Tile | None, c: Components) -> State:
    if at == "throne":
        return replace(state, throne=new)
    if at.startswith("elector:"):
        return _set_e(state, c.eindex[at[8:]], elector=new)
    i = c.eindex[at]
    tiles = minus(state.electorates[i].tiles, old)
    return _set_e(state, i, tiles=tiles if new is None else plus(tiles, new))


def _seat_on_throne(state: State, seat: Seat, ref: Any, c: Components) -> State:
    options = throne_options(state, seat)
    if ref is None:
        require(None in options, "court_tile_available",
                M("a single aged 45 from supply may take the throne only if you have no tile on "
                  "any aristocrat space"))
        return replace(_supply_tiles(state, seat, -1), throne=(seat, SINGLE, c.ages[-1]))
    tile = _tile_at(state, ref, c)
    w = _words(state, c)
    require(ref["owner"] == seat and ref["at"] in c.eindex, "not_eligible_for_throne",
            M("the throne takes one of {whose} own tiles from an aristocrat space (never an "
              "elector), not {tile}", whose=w.whose(seat), tile=w.ref(ref)))
    return replace(_replace_tile(state, ref["at"], tile, None, c), throne=tile)


# ---------------------------------------------------------------------------
# The setup (spec §4)
# ---------------------------------------------------------------------------


def apply_setup(state: State, action: Action, components: Components) -> State:
    """The table names the player count and the first Emperor; the placements follow."""
    require(action.actor == "table", "not_your_turn", M("setup is the table's action"))
    require(state.status == "awaiting_setup", "already_set_up", M("the game is already set up"))
    players = action.data.get("players")
    require(players == state.n, "player_count_mismatch",
            M("setup names no player count but the game was created with {count}",
              count=state.n)
            if players is None else
            M("setup names {players} players but the game was created with {count}",
              players=players, count=state.n),
            players=players)
    emperor = _seat(state, action.data.get("emperor"), M("the first Emperor"))
    return settle(replace(state, status="playing", emperor=emperor, phase=0, cursor=0),
                  components)


def apply_place_start_empire_city(state: State, action: Action, components: Components
                                  ) -> State:
    """Spec §4 step 2: the Emperor's first empire city, on an empty city space."""
    _awaited(state, action, components)
    i, e = electorate(state, action.data["electorate"], components)
    _require_city_space(e, components)
    state = _set_e(state, i, cities=plus(e.cities, EMPIRE))
    return settle(replace(state, empire_reserve=state.empire_reserve - 1,
                          cursor=state.cursor + 1, pending=None), components)


def apply_place_start_elector(state: State, action: Action, components: Components) -> State:
    """Spec §4 step 4: a single aged 45 from supply on an empty elector space."""
    _awaited(state, action, components)
    i, e = electorate(state, action.data["electorate"], components)
    require(e.elector is None, "elector_space_taken",
            M("the elector space of {place} is already taken", place=_place(e.id, components)),
            electorate=e.id)
    seat = who(action)
    state = _set_e(_supply_tiles(state, seat, -1), i,
                   elector=(seat, SINGLE, components.ages[-1]))
    return settle(replace(state, cursor=state.cursor + 1, pending=None), components)


def apply_place_start_aristocrat(state: State, action: Action, components: Components
                                 ) -> State:
    """Spec §4 steps 5-7: the tile the setup step names, on an empty aristocrat space."""
    _awaited(state, action, components)
    pending = state.pending
    assert pending is not None and pending.side is not None and pending.age is not None
    _, e = electorate(state, action.data["electorate"], components)
    require(court_free(state, e, components), "court_full",
            sentence(M("{place} has no empty aristocrat space", place=_place(e.id, components))),
            electorate=e.id)
    state = _enter_from_supply(state, who(action), e.id, pending.side, pending.age, None,
                               components)
    return settle(replace(state, cursor=state.cursor + 1, pending=None), components)


def apply_place_start_knight(state: State, action: Action, components: Components) -> State:
    """Spec §4 step 8: a knight from supply on an empty aristocrat or castle space."""
    _awaited(state, action, components)
    loc = {"electorate": action.data["electorate"], "slot": action.data["slot"]}
    state = _put_knight(state, who(action), loc, components)
    state = _set_p(state, who(action), knights=state.players[who(action)].knights - 1)
    return settle(replace(state, cursor=state.cursor + 1, pending=None), components)


# ---------------------------------------------------------------------------
# Phases II-III: the throne, descendants (spec §5.2, §5.3)
# ---------------------------------------------------------------------------


def apply_fill_throne(state: State, action: Action, components: Components) -> State:
    """Spec §5.2 step 3: the Emperor refills the empty throne (§12.10 after a Doctor too)."""
    _awaited(state, action, components)
    state = _seat_on_throne(state, who(action), action.data["aristocrat"], components)
    return settle(replace(state, pending=None), components)


def apply_place_son(state: State, action: Action, components: Components) -> State:
    """Spec §5.3: a son, a single aged 15 from supply, enters a court, or is declined."""
    _awaited(state, action, components)
    eid = action.data["electorate"]
    if eid is not None:
        state = _enter_from_supply(state, who(action), eid, SINGLE, components.ages[0],
                                   action.data.get("push_knight_owner"), components)
    return settle(replace(state, cursor=state.cursor + 1, pending=None), components)


def apply_propose_marriage(state: State, action: Action, components: Components) -> State:
    """Spec §5.3: a daughter is offered to another player's single; its owner answers."""
    _awaited(state, action, components)
    ref = action.data["target"]
    tile = _tile_at(state, ref, components)
    at, w = str(ref["at"]), _words(state, components)
    # spec §5.3: the daughter marries another player's single, never the proposer's own
    require(tile[0] != who(action), "own_aristocrat",
            M("a daughter marries another player's single, not one of {whose} own ({tile})",
              whose=w.whose(who(action)), tile=w.ref(ref)))
    require(tile[1] == SINGLE, "not_single",
            M("{tile} is a couple, not a single", tile=w.ref(ref)))
    require(not (at.startswith("elector:") and components.electorates[at[8:]].spiritual),
            "archdiocese_elector",
            M("archdiocese electors cannot marry ({tile})", tile=w.ref(ref)))
    return settle(replace(state, pending=Pending("answer_proposal", tile[0], tile=tile, at=at,
                                                 other=who(action))), components)


def apply_answer_proposal(state: State, action: Action, components: Components) -> State:
    """Spec §5.3: accepted, the single becomes a couple and the proposer scores;
    refused, the daughter becomes a nun and brings the proposer a thaler."""
    _awaited(state, action, components)
    pending = state.pending
    assert pending is not None and pending.tile is not None and pending.at is not None
    proposer = pending.other if pending.other is not None else 0
    if action.data["accept"]:
        owner, _, age = pending.tile
        state = _replace_tile(state, pending.at, pending.tile, (owner, COUPLE, age), components)
        state = _gain_vp(state, proposer, components.victory_points.daughter_married,
                         "marriages")
    else:
        state = _gain_thalers(state, proposer, components.nun_thalers, components)
    return settle(replace(state, cursor=state.cursor + 1, pending=None), components)


def apply_send_to_convent(state: State, action: Action, components: Components) -> State:
    """Spec §5.3: the daughter becomes a nun and brings the player a thaler."""
    _awaited(state, action, components)
    state = _gain_thalers(state, who(action), components.nun_thalers, components)
    return settle(replace(state, cursor=state.cursor + 1, pending=None), components)


# ---------------------------------------------------------------------------
# Phase IV: actions (spec §5.4, §6.3)
# ---------------------------------------------------------------------------


def apply_pass(state: State, action: Action, components: Components) -> State:
    """Spec §5.4 d: a pass is final for this phase IV."""
    _awaited(state, action, components)
    return settle(_end_turn(_set_p(state, who(action), passed=True), who(action)), components)


def apply_knight_action(state: State, action: Action, components: Components) -> State:
    """Spec §5.4 c, §6.3: for the Knight card's cost, a knight from supply or from the
    board to another empty aristocrat or castle space."""
    _awaited(state, action, components)
    c = components
    seat, src, dst = who(action), action.data.get("from"), action.data["to"]
    # spec §6.3: `to` must differ from `from`; a knight never "moves" to its own space
    require(src is None or (src["electorate"], src["slot"]) !=
            (dst["electorate"], dst["slot"]), "same_space",
            M("a knight must move to another space, not back to {space} where it stands (§6.3)",
              space=words_for((), c).slot(dst)))
    state = _pay(state, seat, c.cards["knight"].cost, M("The knight action"), c)
    if src is None:
        require(state.players[seat].knights > 0, "no_knight_in_supply",
                M("{player} has no knight left in supply", player=_words(state, c).who(seat)))
        state = _set_p(state, seat, knights=state.players[seat].knights - 1)
    else:
        state = _lift_knight(state, seat, src, c)
    return settle(_end_turn(_put_knight(state, seat, dst, c), seat), c)


def apply_buy_card(state: State, action: Action, components: Components) -> State:
    """Spec §5.4 a, §6.3: pay, carry out the effect, take the card; Rival also ends the
    taker's phase IV."""
    _awaited(state, action, components)
    c = components
    seat, card = who(action), action.data["card"]
    require(card in c.cards, "unknown_card",
            M("there is no action card {value}", value=quoted(card)))
    require(card not in ("knight", "gray_eminence"), "card_not_buyable",
            M("{card} cannot be bought: it is a reference card; use the knight action",
              card=c.card_name(card)) if card == "knight" else
            M("{card} cannot be bought: only the privilege of {place} takes it",
              card=c.card_name(card), place=_place("brandenburg", c)),
            card=card)
    require(state.display.count(card) > 0, "card_not_available",
            M("{card}: none is left in the display this round", card=c.card_name(card)),
            card=card)
    require(not (card == "rival" and seat == state.emperor), "emperor_cannot_take_rival",
            M("{player} is the Emperor and may not take {card}",
              player=_words(state, c).who(seat), card=c.card_name("rival")))
    state = _pay(state, seat, card_cost(state, seat, card, c),
                 _cost_text(state, seat, card, c), c)
    state = _effect(state, seat, card, action.data, c)
    state = replace(state, display=state.display.take([card]))
    state = _set_p(state, seat, area=plus(state.players[seat].area, card))
    if card == "rival":  # spec §5.4: taking Rival ends the taker's phase IV
        state = _set_p(replace(state, rival=seat), seat, passed=True)
    return settle(_end_turn(state, seat), c)


def _cost_text(state: State, seat: Seat, card: str, c: Components) -> str:
    if card == "permit":
        return M("{card} for {whose} {nth} city", card=c.card_name(card),
                 whose=_words(state, c).whose(seat), nth=Ordinal(permit_number(state, seat, c)))
    return c.card_name(card)


#: the effect fields each phase-IV card needs (spec §6.3)
EFFECT_FIELDS: Mapping[str, tuple[str, ...]] = {
    "doctor": ("target", "direction"), "move": ("aristocrat", "to"),
    "permit": ("electorate",), "ordinance": ("electorate",), "promotion": ("electorate",),
    "foreign_kings_daughter": ("electorate",)}


def _effect(state: State, seat: Seat, card: str, data: Mapping[str, Any],
            c: Components) -> State:
    """Carry out a phase-IV card effect (spec §6.3); phase-VI cards only wait."""
    for name in EFFECT_FIELDS.get(card, ()):
        require(data.get(name) is not None, "missing_field",
                M("{card} needs {field}", card=c.card_name(card), field=FIELD_WORDS[name]),
                field=name)
    young = c.ages[1]
    push = data.get("push_knight_owner")
    if card == "doctor":
        return _doctor(state, seat, data["target"], data["direction"], c)
    if card == "move":
        return _move(state, seat, data["aristocrat"], data["to"], push, c)
    if card == "indulgence":
        return _gain_vp(state, seat, c.victory_points.indulgence, "indulgence")
    if card == "permit":
        return _permit(state, seat, data["electorate"], c)
    if card == "ordinance":
        return _enter_from_supply(state, seat, data["electorate"], SINGLE, young, push, c)
    if card == "foreign_kings_daughter":
        return _enter_from_supply(state, seat, data["electorate"], COUPLE, young, push, c)
    if card == "promotion":
        return _promotion(state, seat, data["electorate"], c)
    return state


def _doctor(state: State, seat: Seat, ref: Mapping[str, Any], direction: Any,
            c: Components) -> State:
    tile = _tile_at(state, ref, c)
    at, index = str(ref["at"]), c.ages.index(tile[2])
    if direction == "younger":
        require(tile[0] == seat, "doctor_wrong_direction",
                M("{card} can only make your own aristocrats younger",
                  card=c.card_name("doctor")), direction=direction)
        require(index > 0, "already_youngest",
                M("{tile} is already {age}, the youngest age", tile=_words(state, c).ref(ref),
                  age=tile[2]))
        return _replace_tile(state, at, tile, (tile[0], tile[1], c.ages[index - 1]), c)
    require(direction == "older", "unknown_direction",
            M("the {card} makes an aristocrat younger or older, not {value}",
              card=c.card_name("doctor"), value=quoted(direction)))
    require(tile[0] != seat, "doctor_wrong_direction",
            M("{card} can only make other players' aristocrats older",
              card=c.card_name("doctor")), direction=direction)
    if index + 1 < len(c.ages):
        return _replace_tile(state, at, tile, (tile[0], tile[1], c.ages[index + 1]), c)
    state = _supply_tiles(_replace_tile(state, at, tile, None, c), tile[0], 1)
    # spec §12.10: the Emperor's tile removed: the throne is refilled at once
    return replace(state, refill_throne=at == "throne")


def _move(state: State, seat: Seat, ref: Mapping[str, Any], to: Any, push: Any,
          c: Components) -> State:
    tile = _tile_at(state, ref, c)
    w = _words(state, c)
    require(tile[0] == seat and ref["at"] in c.eindex, "not_movable",
            M("{card} takes one of {whose} own tiles from an aristocrat space (never an "
              "elector or the Emperor), not {tile}", card=c.card_name("move"),
              whose=w.whose(seat), tile=w.ref(ref)))
    # spec §3.6: to an aristocrat space of a *different* electorate, never where it stands
    require(to != ref["at"], "same_electorate",
            M("{card} takes a tile to a different electorate, not back to {place} where it "
              "stands (§3.6)", card=c.card_name("move"), place=w.place(ref["at"])))
    electorate(state, to, c)
    return _enter_court(_replace_tile(state, ref["at"], tile, None, c), to, tile, push, c)


def _permit(state: State, seat: Seat, eid: Any, c: Components) -> State:
    i, e = electorate(state, eid, c)
    require(state.players[seat].cities > 0, "no_city_in_supply",
            M("{player} has built every city already", player=_words(state, c).who(seat)))
    _require_city_space(e, c)
    number = permit_number(state, seat, c)
    vp = c.cards["permit"].vp_by_city.get(str(number), 0)
    state = _set_e(state, i, cities=plus(e.cities, seat))
    state = _set_p(state, seat, cities=state.players[seat].cities - 1)
    return _gain_vp(state, seat, vp, "permits")


def _promotion(state: State, seat: Seat, eid: Any, c: Components) -> State:
    i, e = electorate(state, eid, c)
    w = _words(state, c)
    require(seat in e.knights, "no_such_knight",
            M("{player} has no knight on an aristocrat space of {place}", player=w.who(seat),
              place=w.place(eid)))
    require(state.players[seat].tiles > 0, "no_tile_in_supply",
            M("{player} has no aristocrat tile left in supply", player=w.who(seat)))
    state = _set_e(state, i, knights=minus(e.knights, seat),
                   tiles=plus(e.tiles, (seat, SINGLE, c.ages[1])))
    state = _set_p(state, seat, knights=state.players[seat].knights + 1)
    return _supply_tiles(state, seat, -1)


def apply_use_privilege(state: State, action: Action, components: Components) -> State:
    """Spec §3.4, §5.4 b: the elector of Trier, Koeln, the Palatinate or Brandenburg uses
    its privilege as a turn, once a round."""
    _awaited(state, action, components)
    c = components
    seat, name = who(action), action.data["privilege"]
    w = _words(state, c)
    require(name in TURN_PRIVILEGES, "not_a_turn_privilege",
            M("the privilege of {place} is not used as a phase IV turn (those are the "
              "privileges of {places})", place=_named(name, c),
              places=w.places(TURN_PRIVILEGES)), privilege=name)
    i, e = electorate(state, name, c)
    require(e.elector is not None and e.elector[0] == seat, "not_the_elector",
            M("{player} does not hold the elector of {place}", player=w.who(seat),
              place=w.place(name)))
    require(not e.used, "privilege_used",
            M("the privilege of {place} was already used this round", place=w.place(name)))
    state = PRIVILEGES[name](_set_e(state, i, used=True), seat, action.data, c)
    return settle(_end_turn(state, seat), c)


def _trier(state: State, seat: Seat, data: Mapping[str, Any], c: Components) -> State:
    card = str(data.get("card"))
    require(card in PHASE4_CARDS, "not_a_phase4_card",
            M("the privilege of {place} copies a phase IV action card ({cards}), not {card}",
              place=_place("trier", c), cards=Seq((c.card_name(x) for x in PHASE4_CARDS), ","),
              card=c.card_name(card) if card in c.cards else quoted(card)), card=card)
    require(state.display.count(card) == 0, "stack_not_empty",
            M("the {card} stack still holds cards; Trier only copies an exhausted action",
              card=c.card_name(card)), card=card)
    state = _pay(state, seat, card_cost(state, seat, card, c),
                 _cost_text(state, seat, card, c), c)
    return _effect(state, seat, card, data, c)


def _koeln(state: State, seat: Seat, data: Mapping[str, Any], c: Components) -> State:
    for field_name in ("target", "direction"):
        require(data.get(field_name) is not None, "missing_field",
                M("the privilege of {place} needs {field}", place=_place("koeln", c),
                  field=FIELD_WORDS[field_name]))
    return _doctor(state, seat, data["target"], data["direction"], c)


def _palatinate(state: State, seat: Seat, data: Mapping[str, Any], c: Components) -> State:
    require(data.get("electorate") is not None, "missing_field",
            M("the privilege of {place} needs {field}", place=_place("palatinate", c),
              field=FIELD_WORDS["electorate"]))
    return _enter_from_supply(state, seat, data["electorate"], SINGLE, c.ages[0],
                              data.get("push_knight_owner"), c)


def _brandenburg(state: State, seat: Seat, data: Mapping[str, Any], c: Components) -> State:
    require(state.display.count("gray_eminence") > 0, "card_not_available",
            M("the {card} is not in the display", card=c.card_name("gray_eminence")))
    state = replace(state, display=state.display.take(["gray_eminence"]))
    return _set_p(state, seat, area=plus(state.players[seat].area, "gray_eminence"))


PRIVILEGES = {"trier": _trier, "koeln": _koeln, "palatinate": _palatinate,
              "brandenburg": _brandenburg}


# ---------------------------------------------------------------------------
# Phase V: new electors (spec §5.5)
# ---------------------------------------------------------------------------


def _require_electorate(pending: Pending, action: Action, c: Components) -> None:
    require(action.data["electorate"] == pending.electorate, "wrong_electorate",
            M("the decision is about {place}, not {other}", place=_place(pending.electorate, c),
              other=_named(action.data["electorate"], c)))


def apply_break_tie(state: State, action: Action, components: Components) -> State:
    """Spec §5.5 step 3: the Gray Eminence's holder, else the Emperor, picks the winner."""
    _awaited(state, action, components)
    pending = state.pending
    assert pending is not None
    _require_electorate(pending, action, components)
    winner = action.data["winner"]
    w = _words(state, components)
    require(winner in pending.seats, "not_tied",
            M("{player} is not among the tied players ({players})", player=w.who(winner),
              players=w.seats(pending.seats)),
            winner=winner)
    return settle(_win_electorate(replace(state, pending=None), winner, components),
                  components)


def apply_appoint_elector(state: State, action: Action, components: Components) -> State:
    """Spec §5.5 step 5: the winner seats an own tile from the court (+2 VP); the
    former elector is placed next (step 6)."""
    _awaited(state, action, components)
    c, pending = components, state.pending
    assert pending is not None
    _require_electorate(pending, action, c)
    ref = action.data["aristocrat"]
    tile = _tile_at(state, ref, c)
    i, e = electorate(state, pending.electorate, c)
    w = _words(state, c)
    # spec §5.5 step 5: from E's aristocrat spaces, so never the tile already seated there
    require(ref["at"] == e.id and tile in appoint_candidates(e, who(action), c),
            "not_eligible_elector",
            M("the elector of {place} comes from {whose} own tiles on its aristocrat spaces and "
              "must be a single, not {tile}", place=w.place(e.id), whose=w.whose(who(action)),
              tile=w.ref(ref)) if c.electorates[e.id].spiritual else
            M("the elector of {place} comes from {whose} own tiles on its aristocrat spaces, "
              "not {tile}", place=w.place(e.id), whose=w.whose(who(action)), tile=w.ref(ref)))
    former = e.elector
    state = _set_e(state, i, elector=tile, tiles=minus(e.tiles, tile))
    state = _gain_vp(state, who(action), c.victory_points.new_elector, "electors")
    return settle(_displace(state, former, c), c)


def apply_place_former_elector(state: State, action: Action, components: Components) -> State:
    """Spec §5.5 step 6: the former elector pushes a knight off its full court, or
    goes to supply."""
    _awaited(state, action, components)
    pending = state.pending
    assert pending is not None and state.held is not None
    _require_electorate(pending, action, components)
    held = state.held
    state = replace(state, held=None)
    if action.data["to"] == "supply":
        state = _supply_tiles(state, held[0], 1)
    else:
        state = _enter_court(state, pending.electorate, held,
                             action.data.get("push_knight_owner"), components)
    return settle(replace(state, cursor=state.cursor + 1, pending=None), components)


# ---------------------------------------------------------------------------
# Phase VI: the election (spec §5.6, §8)
# ---------------------------------------------------------------------------


def apply_choose_church_influence_target(state: State, action: Action,
                                         components: Components) -> State:
    """Spec §5.6 step 1: Church Influence names an archdiocese, or none."""
    _awaited(state, action, components)
    eid = action.data["electorate"]
    require(eid is None or (eid in components.eindex and components.electorates[eid].spiritual),
            "not_an_archdiocese",
            M("{card} names an archdiocese, not {other}",
              card=components.card_name("church_influence"), other=_named(eid, components)))
    return settle(replace(state, ci_target=eid, ci_done=True, pending=None), components)


def apply_choose_excommunication_target(state: State, action: Action,
                                        components: Components) -> State:
    """Spec §5.6 step 1: Excommunication names a secular electorate, or none."""
    _awaited(state, action, components)
    eid = action.data["electorate"]
    require(eid is None
            or (eid in components.eindex and not components.electorates[eid].spiritual),
            "not_secular",
            M("{card} names a secular electorate, not {other}",
              card=components.card_name("excommunication"), other=_named(eid, components)))
    return settle(replace(state, ex_target=eid, ex_done=True, pending=None), components)


def apply_cast_vote(state: State, action: Action, components: Components) -> State:
    """Spec §5.6 step 4, §8: a voter's sealed ballot; with the last one the votes are counted."""
    _awaited(state, action, components)
    pending = state.pending
    assert pending is not None
    seat, choice = action.actor, action.data["choice"]
    w = _words(state, components)
    require(isinstance(seat, int) and seat in pending.seats, "not_a_voter",
            M("{player} does not vote (the voters are {players}; the candidates vote for "
              "themselves)", player=w.who(seat), players=w.seats(pending.seats)), seat=seat)
    require(seat not in dict(state.ballots), "already_voted",
            M("{player} has already cast a ballot", player=w.who(seat)))
    require(choice in VOTE_CHOICES, "unknown_choice",
            M("a ballot is for the Emperor or the Rival, not {value}", value=quoted(choice)))
    state = replace(state, ballots=(*state.ballots, (who(action), str(choice))),
                    sealed=(*state.sealed, seat) if action.data.get("sealed") is True
                    else state.sealed)
    if len(state.ballots) < len(pending.seats):
        return settle(state, components)
    return settle(_tally(state, components), components)


def apply_reveal_votes(state: State, action: Action, components: Components) -> State:
    """Spec §8: at a table, every voter's election card at once instead of sealed ballots."""
    _awaited(state, action, components)
    pending = state.pending
    assert pending is not None
    w = _words(state, components)
    require(action.actor == "table", "not_your_turn",
            M("revealing the election cards is the table's entry, not {player}'s",
              player=w.who(action.actor)))
    require(not state.ballots, "ballots_already_cast",
            M("sealed ballots were already cast in this election; the others vote with sealed "
              "ballots too"))
    cast = dict(action.data["votes"])
    expected = {str(s) for s in pending.seats}
    require(set(cast) == expected, "wrong_voters",
            M("the reveal must list exactly the voters ({players}), not {listed}",
              players=w.seats(pending.seats),
              listed=w.seats([int(k) if k.isdigit() else k for k in sorted(cast)])
              or M("nobody")))
    bad = [v for v in cast.values() if v not in VOTE_CHOICES]
    require(not bad, "unknown_choice",
            M("a ballot is for the Emperor or the Rival, not {value}",
              value=quoted(bad[0] if bad else "")))
    ballots = tuple((int(k), v) for k, v in sorted(cast.items()))
    return settle(_tally(replace(state, ballots=ballots), components), components)


def apply_seat_emperor(state: State, action: Action, components: Components) -> State:
    """Spec §5.6 step 7: the new Emperor takes the throne with an own court tile, or a
    single aged 45 from supply."""
    _awaited(state, action, components)
    state = _seat_on_throne(state, who(action), action.data["aristocrat"], components)
    return settle(replace(state, step="former", pending=None), components)


def apply_place_former_emperor(state: State, action: Action, components: Components) -> State:
    """Spec §5.6 step 7: the former Emperor's tile enters a court, or goes to supply."""
    _awaited(state, action, components)
    assert state.held is not None
    held, eid = state.held, action.data["electorate"]
    state = replace(state, held=None, step="done", pending=None)
    if eid is None:
        return settle(_supply_tiles(state, held[0], 1), components)
    return settle(_enter_court(state, eid, held, action.data.get("push_knight_owner"),
                               components), components)


# ---------------------------------------------------------------------------
# Phase VII: the Emperor's empire city (spec §5.7, §6.4)
# ---------------------------------------------------------------------------


def apply_emperor_city_action(state: State, action: Action, components: Components) -> State:
    """Spec §5.7, §6.4: as the round allows, the Emperor places or moves an empire city,
    or leaves them."""
    _awaited(state, action, components)
    c = components
    mode, src, dst = action.data["mode"], action.data.get("from"), action.data.get("to")
    allowed = c.emperor_track[state.round].empire_city
    if mode == "none":
        return settle(replace(state, pending=None), c)
    require(mode in ("place", "move"), "unknown_mode",
            M("the Emperor places or moves an empire city, or leaves them; not {value}",
              value=quoted(mode)))
    require(mode in {"place_or_move": ("place", "move"), "move": ("move",)}.get(allowed, ()),
            "city_action_not_allowed",
            M("round {round} does not allow the Emperor to place an empire city",
              round=state.round) if mode == "place" else
            M("round {round} does not allow the Emperor to move an empire city",
              round=state.round))
    # spec §6.4: the city goes to an *empty* city space of `to`. Checked before a moved
    # city leaves its own space, so a city "moved" onto the space it stands on (the same
    # electorate with no other empty city space) is refused.
    j, target = electorate(state, dst, c)
    _require_empty_city_space_for_move(target, src if mode == "move" else None, c)
    state = _take_empire_city(state, mode, src, c)
    target = state.electorates[j]
    return settle(replace(_set_e(state, j, cities=plus(target.cities, EMPIRE)), pending=None),
                  c)


def _take_empire_city(state: State, mode: str, src: Any, c: Components) -> State:
    """The empire city the Emperor places (from the reserve) or moves (from `src`)."""
    if mode == "place":
        require(state.empire_reserve > 0, "no_empire_city",
                M("no empire city is left in the reserve"))
        return replace(state, empire_reserve=state.empire_reserve - 1)
    i, e = electorate(state, src, c)
    require(EMPIRE in e.cities, "no_empire_city",
            sentence(M("{place} holds no empire city", place=_place(src, c))))
    return _set_e(state, i, cities=minus(e.cities, EMPIRE))


def _require_empty_city_space_for_move(target: Electorate, src: Any, c: Components) -> None:
    if src != target.id:
        _require_city_space(target, c)
        return
    spaces = c.electorates[target.id].city_spaces
    require(len(target.cities) < spaces, "no_empty_city_space",
            Mn("an empire city moves only to an empty city space (§6.4): {place} has no empty "
               "city space besides the one the city stands on ({count} space, all taken)",
               "an empire city moves only to an empty city space (§6.4): {place} has no empty "
               "city space besides the one the city stands on ({count} spaces, all taken)",
               spaces, place=_place(target.id, c)), electorate=target.id)
