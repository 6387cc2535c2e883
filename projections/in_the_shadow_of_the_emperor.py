"""In the Shadow of the Emperor (Ralf Burkert, Hans im Glück 2004), for 3, 4 and 5 players.

Spec: shared/games/in_the_shadow_of_the_emperor.md (data: data/in_the_shadow_of_the_emperor.json;
seed: shared/seeds/003_4990f66342a4f8fd.txt). Rulings: docs/rulings/in_the_shadow_of_the_emperor.md.

Actions (spec §6): `setup` (table; `emperor` is the only chance-like field, §11),
`place_start_empire_city`, `place_start_elector`, `place_start_aristocrat`, `place_start_knight`,
`fill_throne`, `place_son`, `propose_marriage`, `answer_proposal`, `send_to_convent`,
`buy_card`, `use_privilege`, `knight_action`, `pass`, `break_tie`, `appoint_elector`,
`place_former_elector`, `choose_church_influence_target`, `choose_excommunication_target`,
`cast_vote` (sealed), `reveal_votes` (table), `seat_emperor`, `place_former_emperor`,
`emperor_city_action`.

The reducer walks the five rounds of eight phases by itself (round 1 starts at phase IV) and
stops only at a pending decision (§7); a decision with exactly one distinct option is applied
here without an event. The state model, counting and placement rules and the views are in
`in_the_shadow_of_the_emperor_board.py`; the data schemas in `..._schemas.py`.
"""


from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from itertools import product
from typing import Any, ClassVar

from marshmallow import Schema

from .in_the_shadow_of_the_emperor_board import (
    COUPLE,
    EMPIRE,
    PHASE4_CARDS,
    SINGLE,
    TURN_PRIVILEGES,
    VOTE_CHOICES,
    VP_SOURCES,
    Electorate,
    EmperorBoard,
    Option,
    Pending,
    Player,
    Seat,
    State,
    Tile,
    minus,
    plus,
    ref_of,
    who,
)
from .in_the_shadow_of_the_emperor_schemas import ACTION_SCHEMAS
from .in_the_shadow_of_the_emperor_words import (
    ACTION_WORDS,
    FIELD_WORDS,
    Words,
    action_sentence,
    quoted,
    sentence,
)
from .rules import Action, Actor, Bag, Dealer, IllegalAction, Viewer, ordinal, plural, require

__all__ = ["EMPIRE", "Electorate", "InTheShadowOfTheEmperor", "Pending", "Player", "State"]


# What each pending kind accepts (spec §6, §7).
ACCEPTS: Mapping[str, tuple[str, ...]] = {
    "start_empire_city": ("place_start_empire_city",),
    "start_elector": ("place_start_elector",),
    "start_aristocrat": ("place_start_aristocrat",),
    "start_knight": ("place_start_knight",),
    "fill_throne": ("fill_throne",),
    "son": ("place_son",),
    "daughter": ("propose_marriage", "send_to_convent"),
    "answer_proposal": ("answer_proposal",),
    "turn": ("buy_card", "use_privilege", "knight_action", "pass"),
    "break_tie": ("break_tie",),
    "appoint_elector": ("appoint_elector",),
    "place_former_elector": ("place_former_elector",),
    "ci_target": ("choose_church_influence_target",),
    "ex_target": ("choose_excommunication_target",),
    "vote": ("cast_vote", "reveal_votes"),
    "seat_emperor": ("seat_emperor",),
    "place_former_emperor": ("place_former_emperor",),
    "emperor_city": ("emperor_city_action",),
}
# Spec §7: never forced, even with a single option.
NEVER_FORCED = frozenset({"turn", "break_tie", "answer_proposal", "vote",
                          "place_former_emperor", "ci_target", "ex_target"})


class InTheShadowOfTheEmperor(EmperorBoard):
    slug: ClassVar[str] = "in_the_shadow_of_the_emperor"
    title: ClassVar[str] = "In the Shadow of the Emperor"
    player_counts: ClassVar[tuple[int, ...]] = (3, 4, 5)
    rules_version: ClassVar[str] = "1"
    action_schemas: ClassVar[Mapping[str, type[Schema]]] = ACTION_SCHEMAS
    # spec §11: no randomness; the digital server may pick the starting Emperor
    chance_fields: ClassVar[Mapping[str, tuple[str, ...]]] = {"setup": ("emperor",)}
    default_options: ClassVar[Mapping[str, Any]] = {}
    # spec §8: a ballot is sealed and then revealed; neither can be taken back in digital play
    never_undoable: ClassVar[frozenset[str]] = frozenset({"cast_vote", "reveal_votes"})

    # -- protocol -----------------------------------------------------------
    def initial_state(self, created: Mapping[str, Any]) -> State:
        """Every piece in its owner's supply, the display built; setup names the Emperor."""
        n = len(created["players"])
        comp = self.edition["per_player_components"]
        player = Player(thalers=int(self.edition["thalers"]["start"]),
                        tiles=int(comp["aristocrat_tiles"]), knights=int(comp["knights"]),
                        cities=int(comp["cities"]))
        return State(status="awaiting_setup", n=n, mode=str(created.get("mode", "table")),
                     electorates=tuple(Electorate(e) for e in self.eids),
                     players=(player,) * n, display=Bag(self.edition["card_counts"][str(n)]),
                     empire_reserve=int(self.edition["common_components"]["empire_cities"]),
                     names=tuple(str(name) for name in created["players"]))

    def apply(self, state: State, action: Action) -> State:
        """Check and apply one action, then run every automatic consequence (spec §5, §7)."""
        handler = getattr(self, f"_apply_{action.type}", None)
        if action.type not in ACTION_SCHEMAS or handler is None:
            raise IllegalAction("unknown_action",
                                f"{self.title} has no action {quoted(action.type)}")
        require(state.status != "over", "game_over",
                f"the game is over ({self.edition['rounds']} rounds played); "
                f"{ACTION_WORDS[action.type]} is no longer possible")
        if action.type != "setup":
            self._check_pending(state, action)
        return self._settle(handler(state, action))

    def _check_pending(self, state: State, action: Action) -> None:
        require(state.status == "playing", "game_not_started",
                "the game has not been set up yet (setup comes first)")
        pending = state.pending
        assert pending is not None  # a running game always waits for someone
        w = self._words(state)
        if action.type not in ACCEPTS[pending.kind]:
            raise IllegalAction(
                "no_decision_pending",
                f"no decision pending: {ACTION_WORDS[action.type]} is not awaited now (the game "
                f"waits for {w.who(pending.actor)}: {w.label(pending.kind)}); a step with one "
                "possible choice was forced", waiting_for=pending.kind)
        if pending.kind == "vote":
            return
        if action.actor != pending.actor:
            raise IllegalAction("not_your_turn",
                                f"not your turn ({w.who(pending.actor)} is to act, "
                                f"not {w.who(action.actor)})", expected=pending.actor)

    def to_act(self, state: State) -> tuple[Actor, ...]:
        if state.status == "awaiting_setup":
            return ("table",)
        if state.status == "over" or state.pending is None:
            return ()
        if state.pending.kind == "vote":
            voted = {s for s, _ in state.ballots}
            seats: tuple[Actor, ...] = tuple(s for s in state.pending.seats if s not in voted)
            # spec §8: at a physical table the recorder may enter all ballots at once
            return seats + (("table",) if state.mode == "table" and not voted else ())
        return (state.pending.actor,)

    def legal_actions(self, state: State, seat: Actor | None = None) -> list[dict[str, Any]]:
        """Every legal action now (`setup` listed without its chance field `emperor`).

        Complete: every distinct option of §7 is listed (tiles differ by place, side and age,
        pushes by owner); `reveal_votes` is listed in table mode only.
        """
        if state.status == "awaiting_setup":
            return [self._setup_proposal(state)] if seat in (None, "table") else []
        if state.status == "over":
            return []
        return [a for a in self._options(state) if seat is None or a["actor"] == seat]

    def result(self, state: State) -> dict[str, Any] | None:
        if state.status != "over":
            return None
        scores = [p.vp for p in state.players]
        best = max(scores)
        # spec §9 [D]: most VP, then most thalers left, else a shared win
        tied = [s for s in range(state.n) if scores[s] == best]
        cash = max(state.players[s].thalers for s in tied)
        winners = [s for s in tied if state.players[s].thalers == cash]
        return {"scores": scores, "winners": winners, "reason": "five_rounds_played",
                "breakdown": {"per_seat": [self._breakdown(p) for p in state.players]}}

    def _breakdown(self, p: Player) -> dict[str, int]:
        sources = p.vp_sources.counts()
        return {"vp": p.vp, "thalers": p.thalers,
                **{k: sources.get(k, 0) for k in VP_SOURCES}}

    def auto_action(self, state: State) -> dict[str, Any] | None:
        return self._setup_proposal(state) if state.status == "awaiting_setup" else None

    def _setup_proposal(self, state: State) -> dict[str, Any]:
        return {"type": "setup", "actor": "table", "data": {"players": state.n}}

    def fill_chance(self, state: State, action: Action, dealer: Dealer) -> dict[str, Any]:
        data = {k: v for k, v in action.data.items()}
        if action.type == "setup" and data.get("emperor") is None:
            data["emperor"] = dealer.below(state.n)
        return data

    def chance_slots(self, state: State, action: Action) -> list[dict[str, Any]]:
        """Table mode: a setup still without its Emperor offers every seat (§4, §11); the
        reducer accepts exactly a seat index 0..n-1. Nothing else has a chance outcome."""
        if action.type != "setup" or action.data.get("emperor") is not None:
            return []
        return [{"field": "emperor", "path": [], "options": list(range(state.n)),
                 "many": False, "count": None, "label": "seat that starts as Emperor"}]

    def redact(self, action: Action, seat: Viewer, state_before: State) -> dict[str, Any] | None:
        """Spec §8: another seat's sealed ballot shows as "hidden" until the reveal."""
        if action.type != "cast_vote" or seat == "all" or seat == action.actor:
            return None
        pending = state_before.pending
        if pending is not None and pending.kind == "vote" and \
                len(state_before.ballots) + 1 >= len(pending.seats):
            return None  # the last ballot: all are revealed together with it
        return {"choice": "hidden"}

    def describe(self, action: Action, names: Sequence[str] = ()) -> str:
        """One sentence naming the actor, the players and the pieces; a sealed ballot never
        names its choice (spec §8)."""
        return action_sentence(Words(names, self._labels, frozenset(self.eids)), action.type,
                               action.actor,
                               action.data)

    # -- the automatic procedure (spec §5, §7) -------------------------------
    def settle(self, state: State) -> State:
        """Run the automatic procedure up to the next real decision (used by tests too)."""
        return self._settle(state)

    def _settle(self, state: State) -> State:
        while state.status == "playing":
            if state.pending is not None:
                forced = self._forced(state)
                if forced is None:
                    return state
                state = getattr(self, f"_apply_{forced['type']}")(
                    state, Action.of(forced["type"], forced["actor"], forced["data"]))
                continue
            state = self._step(state)
        return state

    def _forced(self, state: State) -> dict[str, Any] | None:
        pending = state.pending
        if pending is None or pending.kind in NEVER_FORCED:
            return None
        options = self._options(state)
        return options[0] if len(options) == 1 else None

    def _step(self, state: State) -> State:
        if state.refill_throne:
            return self._start_refill(state)
        return {0: self._step_setup, 1: self._phase_income, 2: self._phase_aging,
                3: self._phase_descendants, 4: self._phase_actions,
                5: self._phase_new_electors, 6: self._phase_election,
                7: self._phase_emperor, 8: self._phase_end}[state.phase](state)

    def _goto(self, state: State, phase: int, **changes: Any) -> State:
        return replace(state, phase=phase, cursor=0, step="", pending=None, **changes)

    # setup (spec §4)

    def _setup_plan(self, n: int) -> list[tuple[str, int, str | None, int | None]]:
        old, ages = self.ages[-1], self.ages
        plan: list[tuple[str, int, str | None, int | None]] = [
            ("start_empire_city", 0, None, None), ("throne", 0, SINGLE, old)]
        plan += [("start_elector", k, SINGLE, old) for k in range(1, n)]
        for side, age in ((COUPLE, ages[-2]), (SINGLE, ages[1]), (COUPLE, ages[0])):
            plan += [("start_aristocrat", k, side, age) for k in range(n)]
        plan += [("start_knight", k, None, None) for k in range(n)]
        return plan

    def _step_setup(self, state: State) -> State:
        plan = self._setup_plan(state.n)
        if state.cursor >= len(plan):
            first = int(self.edition["first_round_starts_at_phase"])
            return self._goto(self._chips(state), first, turn=state.emperor)
        kind, offset, side, age = plan[state.cursor]
        seat = (state.emperor + offset) % state.n
        if kind == "throne":
            state = self._supply_tiles(state, seat, -1)
            return replace(state, throne=(seat, SINGLE, self.ages[-1]), cursor=state.cursor + 1)
        return replace(state, pending=Pending(kind, seat, side=side, age=age))

    # phase I

    def _phase_income(self, state: State) -> State:
        electorates = tuple(replace(e, used=False) for e in state.electorates)
        state = replace(state, electorates=electorates)
        for seat in range(state.n):
            state = self._gain_thalers(state, seat, self.income(state, seat))
        return self._goto(state, 2)

    def _phase_aging(self, state: State) -> State:
        oldest = self.ages[-1]
        supply = [0] * state.n

        def survive(tile: Tile | None) -> Tile | None:
            if tile is None:
                return None
            if tile[2] == oldest:
                supply[tile[0]] += 1
                return None
            return (tile[0], tile[1], self.ages[self.ages.index(tile[2]) + 1])

        electorates = tuple(replace(e, elector=survive(e.elector), tiles=tuple(sorted(
            t for t in (survive(x) for x in e.tiles) if t is not None)))
            for e in state.electorates)
        throne = survive(state.throne)
        for seat, k in enumerate(supply):
            state = self._supply_tiles(state, seat, k)
        # spec §5.2 step 3 and §12.11: an empty throne is refilled now
        return self._goto(replace(state, electorates=electorates, throne=throne), 3,
                          refill_throne=throne is None)

    def _start_refill(self, state: State) -> State:
        state = replace(state, refill_throne=False)
        if not self._throne_options(state, state.emperor):
            return state  # spec §12.11: the throne stays empty
        return replace(state, pending=Pending("fill_throne", state.emperor))

    # phase III

    def _phase_descendants(self, state: State) -> State:
        if state.cursor >= state.n:
            returned = [c for p in state.players for c in p.area]
            players = tuple(replace(p, area=()) for p in state.players)
            return self._goto(self._chips(replace(state, players=players,
                                                  display=state.display.add(returned))), 4,
                              turn=state.emperor)
        seat = (state.emperor + state.cursor) % state.n
        child = self.child(state, seat)
        if child is None or (child == "son" and state.players[seat].tiles == 0):
            return replace(state, cursor=state.cursor + 1)
        return replace(state, pending=Pending(child, seat))

    def _chips(self, state: State) -> State:
        """Spec §3.1: the colour chip records each player's thalers as phase IV begins."""
        return replace(state, players=tuple(replace(p, chip=p.thalers) for p in state.players))

    def _phase_actions(self, state: State) -> State:
        if all(p.passed for p in state.players):
            players = tuple(replace(p, passed=False) for p in state.players)
            return self._goto(replace(state, players=players), 5)
        return replace(state, pending=Pending("turn", state.turn))

    def _end_turn(self, state: State, seat: Seat) -> State:
        for k in range(1, state.n + 1):
            nxt = (seat + k) % state.n
            if not state.players[nxt].passed:
                return replace(state, turn=nxt, pending=None)
        return replace(state, pending=None)

    # phase V

    def _phase_new_electors(self, state: State) -> State:
        if state.cursor >= len(self.eids):
            mainz = state.electorates[self.eindex["mainz"]].elector
            if mainz is not None:  # spec §5.5 step 7, §12.6
                state = self._gain_vp(state, mainz[0], self._vp("mainz_privilege"), "mainz")
            return self._goto(state, 6)
        influence = self.influence(state, self.eids[state.cursor])
        best = max(influence)
        if best == 0:
            return replace(state, cursor=state.cursor + 1)
        tied = tuple(s for s in range(state.n) if influence[s] == best)
        if len(tied) > 1:
            decider = self.gray_holder(state)
            decider = state.emperor if decider is None else decider
            return replace(state, pending=Pending("break_tie", decider,
                                                  electorate=self.eids[state.cursor],
                                                  seats=tied))
        return self._win_electorate(state, tied[0])

    def _win_electorate(self, state: State, winner: Seat) -> State:
        i = state.cursor
        e = state.electorates[i]
        if e.elector is not None and e.elector[0] == winner:
            return replace(state, cursor=i + 1, pending=None)  # spec §5.5 step 4
        if not self._appoint_candidates(state, e, winner):
            # spec §5.5 step 5: no eligible tile, the elector space becomes empty
            return self._displace(self._set_e(state, i, elector=None), e.elector)
        return replace(state, pending=Pending("appoint_elector", winner, electorate=e.id))

    def _displace(self, state: State, former: Tile | None) -> State:
        """Spec §5.5 step 6: the former elector returns to its court, or to supply."""
        i = state.cursor
        if former is None:
            return replace(state, cursor=i + 1, pending=None)
        e = state.electorates[i]
        if self._court_free(state, e):
            return replace(self._set_e(state, i, tiles=plus(e.tiles, former)),
                           cursor=i + 1, pending=None)
        if e.knights:
            return replace(state, held=former,
                           pending=Pending("place_former_elector", former[0], electorate=e.id))
        return replace(self._supply_tiles(state, former[0], 1), cursor=i + 1, pending=None)

    # phase VI

    def _phase_election(self, state: State) -> State:
        if state.rival is None:
            return self._goto(state, 7)
        handler = {"": self._election_targets, "seat": self._election_seat,
                   "former": self._election_former, "done": self._election_done}[state.step]
        return handler(state)

    def _election_targets(self, state: State) -> State:
        for k in range(state.n):  # spec §5.6 step 1: clockwise from the Emperor
            seat = (state.emperor + k) % state.n
            area = state.players[seat].area
            if "church_influence" in area and not state.ci_done:
                return replace(state, pending=Pending("ci_target", seat))
            if "excommunication" in area and not state.ex_done:
                return replace(state, pending=Pending("ex_target", seat))
        votes = self.votes(state)
        voters = tuple(s for s in range(state.n)
                       if s not in (state.emperor, state.rival) and votes[s] > 0)
        if not voters:
            return self._tally(state)
        return replace(state, pending=Pending("vote", state.emperor, seats=voters))

    def _tally(self, state: State) -> State:
        votes = self.votes(state)
        chosen = dict(state.ballots)
        totals = [votes[state.emperor], votes[state.rival or 0]]
        for seat, choice in chosen.items():
            totals[VOTE_CHOICES.index(choice)] += votes[seat]
        rival_wins = totals[1] > totals[0]  # spec §5.6 step 5: a tie keeps the Emperor
        winning = VOTE_CHOICES[1 if rival_wins else 0]
        for seat, choice in sorted(chosen.items()):
            if choice == winning:
                state = self._gain_vp(state, seat, self._vp("voted_for_election_winner"),
                                      "election_votes")
        state = replace(state, ballots=(), last_election=tuple(sorted(chosen.items())),
                        last_totals=(totals[0], totals[1]), pending=None)
        if not rival_wins:
            return replace(state, step="done")
        assert state.rival is not None
        return replace(state, held=state.throne, throne=None, emperor=state.rival, step="seat")

    def _election_seat(self, state: State) -> State:
        if not self._throne_options(state, state.emperor):
            return replace(state, step="former")  # spec §12.11
        return replace(state, pending=Pending("seat_emperor", state.emperor))

    def _election_former(self, state: State) -> State:
        if state.held is None:
            return replace(state, step="done")
        return replace(state, pending=Pending("place_former_emperor", state.held[0]))

    def _election_done(self, state: State) -> State:
        return self._goto(state, 7, rival=None, ci_target=None, ex_target=None,
                          ci_done=False, ex_done=False)

    # phase VII

    def _phase_emperor(self, state: State) -> State:
        track = self.edition["emperor_track"][str(state.round)]
        if state.step == "":
            state = self._gain_vp(state, state.emperor, int(track["vp"]), "emperor")
            state = self._gain_thalers(state, state.emperor, int(track["thalers"]))
            return replace(state, step="city", pending=Pending("emperor_city", state.emperor))
        return self._goto(state, 8)

    # phase VIII

    def _phase_end(self, state: State) -> State:
        if state.round >= int(self.edition["rounds"]):
            return replace(state, status="over", pending=None)
        return self._goto(replace(state, round=state.round + 1), 1)

    # -- handlers: setup ------------------------------------------------------
    def _apply_setup(self, state: State, action: Action) -> State:
        require(action.actor == "table", "not_your_turn", "setup is the table's action")
        require(state.status == "awaiting_setup", "already_set_up", "the game is already set up")
        players = action.data.get("players")
        require(players == state.n, "player_count_mismatch",
                f"setup names {players} players but the game was created with {state.n}",
                players=players)
        emperor = self._seat(state, action.data.get("emperor"), "the first Emperor")
        return replace(state, status="playing", emperor=emperor, phase=0, cursor=0)

    def _apply_place_start_empire_city(self, state: State, action: Action) -> State:
        i, e = self._electorate(state, action.data["electorate"])
        self._require_city_space(e)
        state = self._set_e(state, i, cities=plus(e.cities, EMPIRE))
        return replace(state, empire_reserve=state.empire_reserve - 1,
                       cursor=state.cursor + 1, pending=None)

    def _apply_place_start_elector(self, state: State, action: Action) -> State:
        i, e = self._electorate(state, action.data["electorate"])
        require(e.elector is None, "elector_space_taken",
                f"the elector space of {self._place(e.id)} is already taken", electorate=e.id)
        seat = who(action)
        state = self._set_e(self._supply_tiles(state, seat, -1), i,
                            elector=(seat, SINGLE, self.ages[-1]))
        return replace(state, cursor=state.cursor + 1, pending=None)

    def _apply_place_start_aristocrat(self, state: State, action: Action) -> State:
        pending = state.pending
        assert pending is not None and pending.side is not None and pending.age is not None
        _, e = self._electorate(state, action.data["electorate"])
        require(self._court_free(state, e), "court_full",
                sentence(f"{self._place(e.id)} has no empty aristocrat space"), electorate=e.id)
        state = self._enter_from_supply(state, who(action), e.id, pending.side, pending.age, None)
        return replace(state, cursor=state.cursor + 1, pending=None)

    def _apply_place_start_knight(self, state: State, action: Action) -> State:
        loc = {"electorate": action.data["electorate"], "slot": action.data["slot"]}
        state = self._put_knight(state, who(action), loc)
        state = self._set_p(state, who(action), knights=state.players[who(action)].knights - 1)
        return replace(state, cursor=state.cursor + 1, pending=None)

    # -- handlers: phases II-III ----------------------------------------------
    def _apply_fill_throne(self, state: State, action: Action) -> State:
        return replace(self._seat_on_throne(state, who(action), action.data["aristocrat"]),
                       pending=None)

    def _apply_place_son(self, state: State, action: Action) -> State:
        eid = action.data["electorate"]
        if eid is not None:
            state = self._enter_from_supply(state, who(action), eid, SINGLE, self.ages[0],
                                            action.data.get("push_knight_owner"))
        return replace(state, cursor=state.cursor + 1, pending=None)

    def _apply_propose_marriage(self, state: State, action: Action) -> State:
        ref = action.data["target"]
        tile = self._tile_at(state, ref)
        at, w = str(ref["at"]), self._words(state)
        # spec §5.3: the daughter marries another player's single, never the proposer's own
        require(tile[0] != who(action), "own_aristocrat",
                f"a daughter marries another player's single, not one of "
                f"{w.whose(who(action))} own ({w.ref(ref)})")
        require(tile[1] == SINGLE, "not_single", f"{w.ref(ref)} is a couple, not a single")
        require(not (at.startswith("elector:") and self._spiritual(at[8:])),
                "archdiocese_elector", f"archdiocese electors cannot marry ({w.ref(ref)})")
        return replace(state, pending=Pending("answer_proposal", tile[0], tile=tile, at=at,
                                              other=who(action)))

    def _apply_answer_proposal(self, state: State, action: Action) -> State:
        pending = state.pending
        assert pending is not None and pending.tile is not None and pending.at is not None
        proposer = pending.other if pending.other is not None else 0
        if action.data["accept"]:
            owner, _, age = pending.tile
            state = self._replace_tile(state, pending.at, pending.tile, (owner, COUPLE, age))
            state = self._gain_vp(state, proposer, self._vp("daughter_married"), "marriages")
        else:
            state = self._gain_thalers(state, proposer, int(self.edition["nun_thalers"]))
        return replace(state, cursor=state.cursor + 1, pending=None)

    def _apply_send_to_convent(self, state: State, action: Action) -> State:
        state = self._gain_thalers(state, who(action), int(self.edition["nun_thalers"]))
        return replace(state, cursor=state.cursor + 1, pending=None)

    # -- handlers: phase IV -----------------------------------------------------
    def _apply_pass(self, state: State, action: Action) -> State:
        return self._end_turn(self._set_p(state, who(action), passed=True), who(action))

    def _apply_knight_action(self, state: State, action: Action) -> State:
        seat, src, dst = who(action), action.data.get("from"), action.data["to"]
        # spec §6.3: `to` must differ from `from`; a knight never "moves" to its own space
        require(src is None or (src["electorate"], src["slot"]) !=
                (dst["electorate"], dst["slot"]), "same_space",
                f"a knight must move to another space, not back to "
                f"{self._words().slot(dst)} where it stands (§6.3)")
        state = self._pay(state, seat, int(self.cards["knight"]["cost"]), "The knight action")
        if src is None:
            require(state.players[seat].knights > 0, "no_knight_in_supply",
                    f"{self._words(state).who(seat)} has no knight left in supply")
            state = self._set_p(state, seat, knights=state.players[seat].knights - 1)
        else:
            state = self._lift_knight(state, seat, src)
        return self._end_turn(self._put_knight(state, seat, dst), seat)

    def _apply_buy_card(self, state: State, action: Action) -> State:
        seat, card = who(action), action.data["card"]
        require(card in self.cards, "unknown_card", f"there is no action card {quoted(card)}")
        require(card not in ("knight", "gray_eminence"), "card_not_buyable",
                f"{self._card_name(card)} cannot be bought: "
                + ("it is a reference card; use the knight action" if card == "knight"
                   else f"only the privilege of {self._place('brandenburg')} takes it"),
                card=card)
        require(state.display.count(card) > 0, "card_not_available",
                f"{self._card_name(card)}: none is left in the display this round", card=card)
        require(not (card == "rival" and seat == state.emperor), "emperor_cannot_take_rival",
                f"{self._words(state).who(seat)} is the Emperor and may not take Rival")
        state = self._pay(state, seat, self._card_cost(state, seat, card), self._cost_text(
            state, seat, card))
        state = self._effect(state, seat, card, action.data)
        state = replace(state, display=state.display.take([card]))
        state = self._set_p(state, seat, area=plus(state.players[seat].area, card))
        if card == "rival":  # spec §5.4: taking Rival ends the taker's phase IV
            state = self._set_p(replace(state, rival=seat), seat, passed=True)
        return self._end_turn(state, seat)

    def _cost_text(self, state: State, seat: Seat, card: str) -> str:
        if card == "permit":
            return (f"Permit for {self._words(state).whose(seat)} "
                    f"{ordinal(self._permit_number(state, seat))} city")
        return self._card_name(card)

    def _effect(self, state: State, seat: Seat, card: str, data: Mapping[str, Any]) -> State:
        """Carry out a phase-IV card effect (spec §6.3); phase-VI cards only wait."""
        field_sets = {"doctor": ("target", "direction"), "move": ("aristocrat", "to"),
                      "permit": ("electorate",), "ordinance": ("electorate",),
                      "promotion": ("electorate",), "foreign_kings_daughter": ("electorate",)}
        for name in field_sets.get(card, ()):
            require(data.get(name) is not None, "missing_field",
                    f"{self._card_name(card)} needs {FIELD_WORDS[name]}", field=name)
        young = self.ages[1]
        push = data.get("push_knight_owner")
        if card == "doctor":
            return self._doctor(state, seat, data["target"], data["direction"])
        if card == "move":
            return self._move(state, seat, data["aristocrat"], data["to"], push)
        if card == "indulgence":
            return self._gain_vp(state, seat, self._vp("indulgence"), "indulgence")
        if card == "permit":
            return self._permit(state, seat, data["electorate"])
        if card == "ordinance":
            return self._enter_from_supply(state, seat, data["electorate"], SINGLE, young, push)
        if card == "foreign_kings_daughter":
            return self._enter_from_supply(state, seat, data["electorate"], COUPLE, young, push)
        if card == "promotion":
            return self._promotion(state, seat, data["electorate"])
        return state

    def _doctor(self, state: State, seat: Seat, ref: Mapping[str, Any], direction: Any) -> State:
        tile = self._tile_at(state, ref)
        at, index = str(ref["at"]), self.ages.index(tile[2])
        if direction == "younger":
            require(tile[0] == seat, "doctor_wrong_direction",
                    "Doctor can only make your own aristocrats younger", direction=direction)
            require(index > 0, "already_youngest",
                    f"{self._words(state).ref(ref)} is already {tile[2]}, the youngest age")
            return self._replace_tile(state, at, tile, (tile[0], tile[1], self.ages[index - 1]))
        require(direction == "older", "unknown_direction",
                f"the Doctor makes an aristocrat younger or older, not {quoted(direction)}")
        require(tile[0] != seat, "doctor_wrong_direction",
                "Doctor can only make other players' aristocrats older", direction=direction)
        if index + 1 < len(self.ages):
            return self._replace_tile(state, at, tile, (tile[0], tile[1], self.ages[index + 1]))
        state = self._supply_tiles(self._replace_tile(state, at, tile, None), tile[0], 1)
        # spec §12.10: the Emperor's tile removed: the throne is refilled at once
        return replace(state, refill_throne=at == "throne")

    def _move(self, state: State, seat: Seat, ref: Mapping[str, Any], to: Any, push: Any) -> State:
        tile = self._tile_at(state, ref)
        w = self._words(state)
        require(tile[0] == seat and ref["at"] in self.eindex, "not_movable",
                f"Move takes one of {w.whose(seat)} own tiles from an aristocrat space (never "
                f"an elector or the Emperor), not {w.ref(ref)}")
        # spec §3.6: to an aristocrat space of a *different* electorate, never where it stands
        require(to != ref["at"], "same_electorate",
                f"Move takes a tile to a different electorate, not back to "
                f"{w.place(ref['at'])} where it stands (§3.6)")
        self._electorate(state, to)
        return self._enter_court(self._replace_tile(state, ref["at"], tile, None), to, tile, push)

    def _permit(self, state: State, seat: Seat, eid: Any) -> State:
        i, e = self._electorate(state, eid)
        require(state.players[seat].cities > 0, "no_city_in_supply",
                f"{self._words(state).who(seat)} has built every city already")
        self._require_city_space(e)
        number = self._permit_number(state, seat)
        vp = int(self.cards["permit"]["vp_by_city_number"].get(str(number), 0))
        state = self._set_e(state, i, cities=plus(e.cities, seat))
        state = self._set_p(state, seat, cities=state.players[seat].cities - 1)
        return self._gain_vp(state, seat, vp, "permits")

    def _promotion(self, state: State, seat: Seat, eid: Any) -> State:
        i, e = self._electorate(state, eid)
        w = self._words(state)
        require(seat in e.knights, "no_such_knight",
                f"{w.who(seat)} has no knight on an aristocrat space of {w.place(eid)}")
        require(state.players[seat].tiles > 0, "no_tile_in_supply",
                f"{w.who(seat)} has no aristocrat tile left in supply")
        state = self._set_e(state, i, knights=minus(e.knights, seat),
                            tiles=plus(e.tiles, (seat, SINGLE, self.ages[1])))
        state = self._set_p(state, seat, knights=state.players[seat].knights + 1)
        return self._supply_tiles(state, seat, -1)

    def _apply_use_privilege(self, state: State, action: Action) -> State:
        seat, name = who(action), action.data["privilege"]
        w = self._words(state)
        require(name in TURN_PRIVILEGES, "not_a_turn_privilege",
                f"the privilege of {self._named(name)} is not used as a phase IV turn (those are "
                f"the privileges of {w.places(TURN_PRIVILEGES)})", privilege=name)
        i, e = self._electorate(state, name)
        require(e.elector is not None and e.elector[0] == seat, "not_the_elector",
                f"{w.who(seat)} does not hold the elector of {w.place(name)}")
        require(not e.used, "privilege_used",
                f"the privilege of {w.place(name)} was already used this round")
        state = self._set_e(state, i, used=True)
        data = action.data
        if name == "trier":
            return self._end_turn(self._trier(state, seat, data), seat)
        if name == "koeln":
            for field_name in ("target", "direction"):
                require(data.get(field_name) is not None, "missing_field",
                        f"the privilege of {w.place(name)} needs {FIELD_WORDS[field_name]}")
            return self._end_turn(self._doctor(state, seat, data["target"], data["direction"]),
                                  seat)
        if name == "palatinate":
            require(data.get("electorate") is not None, "missing_field",
                    f"the privilege of {w.place(name)} needs {FIELD_WORDS['electorate']}")
            return self._end_turn(self._enter_from_supply(
                state, seat, data["electorate"], SINGLE, self.ages[0],
                data.get("push_knight_owner")), seat)
        require(state.display.count("gray_eminence") > 0, "card_not_available",
                "the Gray Eminence is not in the display")
        state = replace(state, display=state.display.take(["gray_eminence"]))
        return self._end_turn(self._set_p(state, seat, area=plus(
            state.players[seat].area, "gray_eminence")), seat)

    def _trier(self, state: State, seat: Seat, data: Mapping[str, Any]) -> State:
        card = str(data.get("card"))
        require(card in PHASE4_CARDS, "not_a_phase4_card",
                f"the privilege of {self._place('trier')} copies a phase IV action card ("
                f"{', '.join(self._card_name(c) for c in PHASE4_CARDS)}), not "
                f"{self._card_name(card) if card in self.cards else quoted(card)}", card=card)
        require(state.display.count(card) == 0, "stack_not_empty",
                f"the {self._card_name(card)} stack still holds cards; Trier only copies an "
                "exhausted action", card=card)
        state = self._pay(state, seat, self._card_cost(state, seat, card),
                          self._cost_text(state, seat, card))
        return self._effect(state, seat, card, data)

    # -- handlers: phase V ----------------------------------------------------
    def _apply_break_tie(self, state: State, action: Action) -> State:
        pending = state.pending
        assert pending is not None
        self._require_electorate(pending, action)
        winner = action.data["winner"]
        w = self._words(state)
        require(winner in pending.seats, "not_tied",
                f"{w.who(winner)} is not among the tied players ({w.seats(pending.seats)})",
                winner=winner)
        return self._win_electorate(replace(state, pending=None), winner)

    def _require_electorate(self, pending: Pending, action: Action) -> None:
        require(action.data["electorate"] == pending.electorate, "wrong_electorate",
                f"the decision is about {self._place(pending.electorate)}, not "
                f"{self._named(action.data['electorate'])}")

    def _apply_appoint_elector(self, state: State, action: Action) -> State:
        pending = state.pending
        assert pending is not None
        self._require_electorate(pending, action)
        ref = action.data["aristocrat"]
        tile = self._tile_at(state, ref)
        i, e = self._electorate(state, pending.electorate)
        w = self._words(state)
        # spec §5.5 step 5: from E's aristocrat spaces, so never the tile already seated there
        require(ref["at"] == e.id and tile in self._appoint_candidates(state, e, who(action)),
                "not_eligible_elector",
                f"the elector of {w.place(e.id)} comes from {w.whose(who(action))} own tiles "
                "on its aristocrat spaces" + (" and must be a single" if self._spiritual(e.id)
                                              else "") + f", not {w.ref(ref)}")
        former = e.elector
        state = self._set_e(state, i, elector=tile, tiles=minus(e.tiles, tile))
        state = self._gain_vp(state, who(action), self._vp("new_elector_appointed"),
                             "electors")
        return self._displace(state, former)

    def _apply_place_former_elector(self, state: State, action: Action) -> State:
        pending = state.pending
        assert pending is not None and state.held is not None
        self._require_electorate(pending, action)
        held = state.held
        state = replace(state, held=None)
        if action.data["to"] == "supply":
            state = self._supply_tiles(state, held[0], 1)
        else:
            state = self._enter_court(state, pending.electorate, held,
                                      action.data.get("push_knight_owner"))
        return replace(state, cursor=state.cursor + 1, pending=None)

    # -- handlers: phase VI ---------------------------------------------------
    def _apply_choose_church_influence_target(self, state: State, action: Action) -> State:
        eid = action.data["electorate"]
        require(eid is None or (eid in self.eindex and self._spiritual(eid)),
                "not_an_archdiocese",
                f"Church Influence names an archdiocese, not {self._named(eid)}")
        return replace(state, ci_target=eid, ci_done=True, pending=None)

    def _apply_choose_excommunication_target(self, state: State, action: Action) -> State:
        eid = action.data["electorate"]
        require(eid is None or (eid in self.eindex and not self._spiritual(eid)),
                "not_secular",
                f"Excommunication names a secular electorate, not {self._named(eid)}")
        return replace(state, ex_target=eid, ex_done=True, pending=None)

    def _apply_cast_vote(self, state: State, action: Action) -> State:
        pending = state.pending
        assert pending is not None
        seat, choice = action.actor, action.data["choice"]
        w = self._words(state)
        require(isinstance(seat, int) and seat in pending.seats, "not_a_voter",
                f"{w.who(seat)} does not vote (the voters are {w.seats(pending.seats)}; "
                "the candidates vote for themselves)", seat=seat)
        require(seat not in dict(state.ballots), "already_voted",
                f"{w.who(seat)} has already cast a ballot")
        require(choice in VOTE_CHOICES, "unknown_choice",
                f"a ballot is for the Emperor or the Rival, not {quoted(choice)}")
        state = replace(state, ballots=(*state.ballots, (who(action), str(choice))))
        if len(state.ballots) < len(pending.seats):
            return state
        return self._tally(state)

    def _apply_reveal_votes(self, state: State, action: Action) -> State:
        pending = state.pending
        assert pending is not None
        w = self._words(state)
        require(action.actor == "table", "not_your_turn",
                f"revealing the election cards is the table's entry, not {w.who(action.actor)}'s")
        require(not state.ballots, "ballots_already_cast",
                "sealed ballots were already cast in this election; the others vote with "
                "sealed ballots too")
        votes = dict(action.data["votes"])
        expected = {str(s) for s in pending.seats}
        require(set(votes) == expected, "wrong_voters",
                f"the reveal must list exactly the voters ({w.seats(pending.seats)}), not "
                f"{w.seats([int(k) if k.isdigit() else k for k in sorted(votes)]) or 'nobody'}")
        bad = [v for v in votes.values() if v not in VOTE_CHOICES]
        require(not bad, "unknown_choice",
                f"a ballot is for the Emperor or the Rival, not {quoted(bad[0] if bad else '')}")
        return self._tally(replace(state, ballots=tuple((int(k), v) for k, v in
                                                        sorted(votes.items()))))

    def _apply_seat_emperor(self, state: State, action: Action) -> State:
        state = self._seat_on_throne(state, who(action), action.data["aristocrat"])
        return replace(state, step="former", pending=None)

    def _apply_place_former_emperor(self, state: State, action: Action) -> State:
        assert state.held is not None
        held, eid = state.held, action.data["electorate"]
        state = replace(state, held=None, step="done", pending=None)
        if eid is None:
            return self._supply_tiles(state, held[0], 1)
        return self._enter_court(state, eid, held, action.data.get("push_knight_owner"))

    # -- handlers: phase VII ----------------------------------------------------
    def _apply_emperor_city_action(self, state: State, action: Action) -> State:
        mode, src, dst = action.data["mode"], action.data.get("from"), action.data.get("to")
        allowed = self.edition["emperor_track"][str(state.round)]["empire_city"]
        if mode == "none":
            return replace(state, pending=None)
        require(mode in ("place", "move"), "unknown_mode",
                f"the Emperor places or moves an empire city, or leaves them; not {quoted(mode)}")
        require(mode in {"place_or_move": ("place", "move"), "move": ("move",)}.get(allowed, ()),
                "city_action_not_allowed",
                f"round {state.round} does not allow the Emperor to {mode} an empire city")
        # spec §6.4: the city goes to an *empty* city space of `to`. Checked before a moved
        # city leaves its own space, so a city "moved" onto the space it stands on (the same
        # electorate with no other empty city space) is refused.
        j, target = self._electorate(state, dst)
        self._require_empty_city_space_for_move(target, src if mode == "move" else None)
        if mode == "place":
            require(state.empire_reserve > 0, "no_empire_city", "no empire city is left in the "
                    "reserve")
            state = replace(state, empire_reserve=state.empire_reserve - 1)
        else:
            i, e = self._electorate(state, src)
            require(EMPIRE in e.cities, "no_empire_city",
                    sentence(f"{self._place(src)} holds no empire city"))
            state = self._set_e(state, i, cities=minus(e.cities, EMPIRE))
        target = state.electorates[j]
        return replace(self._set_e(state, j, cities=plus(target.cities, EMPIRE)), pending=None)

    def _named(self, eid: Any) -> str:
        """An electorate the player named: its label, or the unknown value quoted."""
        return self._place(eid) if eid in self.eindex else quoted(eid)

    def _require_empty_city_space_for_move(self, target: Electorate, src: Any) -> None:
        if src != target.id:
            self._require_city_space(target)
            return
        spaces = int(self.einfo[target.id]["city_spaces"])
        require(len(target.cities) < spaces, "no_empty_city_space",
                f"an empire city moves only to an empty city space (§6.4): "
                f"{self._place(target.id)} has no empty city space besides the one the city "
                f"stands on ({plural(spaces, 'space')}, all taken)", electorate=target.id)

    # -- legal options --------------------------------------------------------
    def _options(self, state: State) -> list[dict[str, Any]]:
        pending = state.pending
        if pending is None:
            return []
        maker = getattr(self, f"_options_{pending.kind}")
        return [{"type": t, "actor": a, "data": d} for t, a, d in maker(state, pending)]

    def _options_start_empire_city(self, state: State, p: Pending) -> list[Option]:
        return [("place_start_empire_city", p.actor, {"electorate": e.id})
                for e in state.electorates
                if len(e.cities) < int(self.einfo[e.id]["city_spaces"])]

    def _options_start_elector(self, state: State, p: Pending) -> list[Option]:
        return [("place_start_elector", p.actor, {"electorate": e.id})
                for e in state.electorates if e.elector is None]

    def _options_start_aristocrat(self, state: State, p: Pending) -> list[Option]:
        return [("place_start_aristocrat", p.actor, {"electorate": e.id})
                for e in state.electorates if self._court_free(state, e)]

    def _options_start_knight(self, state: State, p: Pending) -> list[Option]:
        return [("place_start_knight", p.actor, loc) for loc in self._knight_spaces(state)]

    def _options_fill_throne(self, state: State, p: Pending) -> list[Option]:
        return [("fill_throne", p.actor, {"aristocrat": r})
                for r in self._throne_options(state, p.actor)]

    def _options_seat_emperor(self, state: State, p: Pending) -> list[Option]:
        return [("seat_emperor", p.actor, {"aristocrat": r})
                for r in self._throne_options(state, p.actor)]

    def _options_son(self, state: State, p: Pending) -> list[Option]:
        out: list[Option] = [
            ("place_son", p.actor, {"electorate": None, "push_knight_owner": None})]
        out += [("place_son", p.actor, {"electorate": eid, "push_knight_owner": push})
                for eid, push in self._court_entries(state)]
        return out

    def _options_daughter(self, state: State, p: Pending) -> list[Option]:
        out: list[Option] = [
            ("propose_marriage", p.actor, {"target": ref_of(t, at)})
            for at, t in self._marriage_targets(state, p.actor)]
        return [*out, ("send_to_convent", p.actor, {})]

    def _options_answer_proposal(self, state: State, p: Pending) -> list[Option]:
        return [("answer_proposal", p.actor, {"accept": True}),
                ("answer_proposal", p.actor, {"accept": False})]

    def _options_break_tie(self, state: State, p: Pending) -> list[Option]:
        return [("break_tie", p.actor, {"electorate": p.electorate, "winner": s})
                for s in p.seats]

    def _options_appoint_elector(self, state: State, p: Pending) -> list[Option]:
        _, e = self._electorate(state, p.electorate)
        return [("appoint_elector", p.actor, {"electorate": e.id, "aristocrat": ref_of(t, e.id)})
                for t in self._appoint_candidates(state, e, p.actor)]

    def _options_place_former_elector(self, state: State, p: Pending) -> list[Option]:
        _, e = self._electorate(state, p.electorate)
        out: list[Option] = [
            ("place_former_elector", p.actor, {"electorate": e.id, "to": "supply",
                                               "push_knight_owner": None})]
        out += [("place_former_elector", p.actor, {"electorate": e.id, "to": "court",
                                                   "push_knight_owner": k})
                for k in sorted(set(e.knights))]
        return out

    def _options_ci_target(self, state: State, p: Pending) -> list[Option]:
        return [("choose_church_influence_target", p.actor, {"electorate": eid})
                for eid in (*[e for e in self.eids if self._spiritual(e)], None)]

    def _options_ex_target(self, state: State, p: Pending) -> list[Option]:
        return [("choose_excommunication_target", p.actor, {"electorate": eid})
                for eid in (*[e for e in self.eids if not self._spiritual(e)], None)]

    def _options_vote(self, state: State, p: Pending) -> list[Option]:
        voted = dict(state.ballots)
        out: list[Option] = [
            ("cast_vote", s, {"choice": c}) for s in p.seats if s not in voted
            for c in VOTE_CHOICES]
        if state.mode == "table" and not voted:
            out += [("reveal_votes", "table", {"votes": {str(s): c for s, c in
                                                         zip(p.seats, combo, strict=True)}})
                    for combo in product(VOTE_CHOICES, repeat=len(p.seats))]
        return out

    def _options_place_former_emperor(self, state: State, p: Pending) -> list[Option]:
        out: list[Option] = [
            ("place_former_emperor", p.actor, {"electorate": None, "push_knight_owner": None})]
        out += [("place_former_emperor", p.actor, {"electorate": eid, "push_knight_owner": push})
                for eid, push in self._court_entries(state)]
        return out

    def _options_emperor_city(self, state: State, p: Pending) -> list[Option]:
        allowed = self.edition["emperor_track"][str(state.round)]["empire_city"]
        free = [e.id for e in state.electorates
                if len(e.cities) < int(self.einfo[e.id]["city_spaces"])]
        out: list[Option] = [
            ("emperor_city_action", p.actor, {"mode": "none", "from": None, "to": None})]
        if allowed == "place_or_move" and state.empire_reserve > 0:
            out += [("emperor_city_action", p.actor, {"mode": "place", "from": None, "to": t})
                    for t in free]
        if allowed in ("place_or_move", "move"):
            out += [("emperor_city_action", p.actor, {"mode": "move", "from": e.id, "to": t})
                    for e in state.electorates if EMPIRE in e.cities for t in free]
        return out

    def _options_turn(self, state: State, p: Pending) -> list[Option]:
        seat = p.actor
        out: list[Option] = [("pass", seat, {})]
        out += [("knight_action", seat, d) for d in self._knight_moves(state, seat)]
        for card in self.cards:
            if card in ("knight", "gray_eminence") or state.display.count(card) == 0:
                continue
            if card == "rival" and seat == state.emperor:
                continue
            if self._card_cost(state, seat, card) > state.players[seat].thalers:
                continue
            out += [("buy_card", seat, {"card": card, **d})
                    for d in self._effect_options(state, seat, card)]
        out += [("use_privilege", seat, d) for d in self._privilege_options(state, seat)]
        return out

    def _knight_moves(self, state: State, seat: Seat) -> list[dict[str, Any]]:
        if state.players[seat].thalers < int(self.cards["knight"]["cost"]):
            return []
        sources: list[dict[str, Any] | None] = [None] if state.players[seat].knights else []
        for e in state.electorates:
            sources += [{"electorate": e.id, "slot": "court"}] if seat in e.knights else []
            sources += [{"electorate": e.id, "slot": "castle"}] if seat in e.castles else []
        spaces = self._knight_spaces(state)
        return [{"from": s, "to": t} for s in sources for t in spaces if s != t]

    def _effect_options(self, state: State, seat: Seat, card: str) -> list[dict[str, Any]]:
        player = state.players[seat]
        if card in ("doctor", "koeln"):
            return self._doctor_options(state, seat)
        if card == "move":
            return [{"aristocrat": ref_of(t, e.id), "to": eid, "push_knight_owner": push}
                    for e in state.electorates for t in sorted(set(e.tiles)) if t[0] == seat
                    for eid, push in self._court_entries(state) if eid != e.id]
        if card == "permit":
            return [{"electorate": e.id} for e in state.electorates
                    if player.cities and len(e.cities) < int(self.einfo[e.id]["city_spaces"])]
        if card in ("ordinance", "foreign_kings_daughter", "palatinate"):
            return [{"electorate": eid, "push_knight_owner": push}
                    for eid, push in self._court_entries(state)] if player.tiles else []
        if card == "promotion":
            return [{"electorate": e.id} for e in state.electorates
                    if seat in e.knights] if player.tiles else []
        return [{}]

    def _doctor_options(self, state: State, seat: Seat) -> list[dict[str, Any]]:
        out = []
        for at, tile in self._board_tiles(state):
            if tile[0] != seat:
                out.append({"target": ref_of(tile, at), "direction": "older"})
            elif tile[2] != self.ages[0]:
                out.append({"target": ref_of(tile, at), "direction": "younger"})
        return out

    def _privilege_options(self, state: State, seat: Seat) -> list[dict[str, Any]]:
        out: list[dict[str, Any]] = []
        for name in TURN_PRIVILEGES:
            e = state.electorates[self.eindex[name]]
            if e.used or e.elector is None or e.elector[0] != seat:
                continue
            if name == "trier":
                out += [{"privilege": name, "card": card, **d} for card in PHASE4_CARDS
                        if state.display.count(card) == 0
                        and self._card_cost(state, seat, card) <= state.players[seat].thalers
                        for d in self._effect_options(state, seat, card)]
            elif name == "brandenburg":
                out += [{"privilege": name}] if state.display.count("gray_eminence") else []
            else:
                out += [{"privilege": name, **d} for d in self._effect_options(state, seat, name)]
        return out
