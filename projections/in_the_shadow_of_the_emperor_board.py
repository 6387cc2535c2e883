"""In the Shadow of the Emperor: the state model and the board queries of the reducer.

Spec: shared/games/in_the_shadow_of_the_emperor.md. This module holds the frozen state
(electorates, players, the pending decision), the edition lookups, the counting rules (income,
influence, votes, descendants), the shared placement rules (entering a court, knights, tiles
on the board) and the views. The phases, handlers and legal actions are in
`in_the_shadow_of_the_emperor.py`, whose class extends `EmperorBoard`.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, replace
from functools import cached_property
from typing import Any

from .in_the_shadow_of_the_emperor_schemas import edition_problems
from .in_the_shadow_of_the_emperor_words import ACTION_WORDS, GAME_LABELS, Words, quoted, sentence
from .rules import (
    Action,
    Actor,
    Bag,
    GameRules,
    IllegalAction,
    Viewer,
    plural,
    require,
    seat_name,
    with_item,
)

Seat = int
Tile = tuple[int, str, int]  # (owner, side, age)
EMPIRE = -1  # an empire city on a city space
SINGLE, COUPLE = "single", "couple"
NO_VP = Bag()
PHASE4_CARDS = ("doctor", "move", "indulgence", "permit", "ordinance", "promotion",
                "foreign_kings_daughter")  # spec §6.3: cards the Trier privilege may copy
TURN_PRIVILEGES = ("trier", "koeln", "palatinate", "brandenburg")  # spec §3.4
VOTE_CHOICES = ("emperor", "rival")
VP_SOURCES = ("electors", "marriages", "election_votes", "indulgence", "permits", "mainz",
              "emperor")  # spec §9
Option = tuple[str, Actor, dict[str, Any]]  # (type, actor, data) of a legal action


@dataclass(frozen=True, slots=True)
class Electorate:
    id: str
    elector: Tile | None = None
    tiles: tuple[Tile, ...] = ()  # tiles on the aristocrat spaces (the court), sorted
    knights: tuple[Seat, ...] = ()  # knights on aristocrat spaces
    castles: tuple[Seat, ...] = ()  # knights on castle spaces
    cities: tuple[Seat, ...] = ()  # seats, EMPIRE for an empire city
    used: bool = False  # the privilege was used this round


@dataclass(frozen=True, slots=True)
class Player:
    thalers: int
    vp: int = 0
    tiles: int = 0  # aristocrat tiles in supply
    knights: int = 0
    cities: int = 0
    area: tuple[str, ...] = ()  # play area (cards taken this round), sorted
    passed: bool = False
    chip: int = 0  # thalers when phase IV began (the colour chip; no rules effect, §3.1)
    vp_sources: Bag = NO_VP  # VP by source (spec §9), for the result's breakdown


@dataclass(frozen=True, slots=True)
class Pending:
    kind: str
    actor: Seat
    electorate: str | None = None
    seats: tuple[Seat, ...] = ()  # tied seats / voters
    tile: Tile | None = None  # marriage target
    at: str | None = None  # marriage target's place
    other: Seat | None = None  # the proposer
    side: str | None = None  # setup aristocrat side
    age: int | None = None  # setup aristocrat age


@dataclass(frozen=True, slots=True)
class State:
    status: str  # awaiting_setup | playing | over
    n: int
    mode: str
    electorates: tuple[Electorate, ...]
    players: tuple[Player, ...]
    display: Bag
    empire_reserve: int
    round: int = 1
    phase: int = 0  # 0 = setup, then I..VIII
    cursor: int = 0  # setup step / phase III player offset / phase V electorate index
    step: str = ""  # sub-step inside phases VI and VII
    emperor: Seat = 0
    throne: Tile | None = None
    turn: Seat = 0
    rival: Seat | None = None
    ci_target: str | None = None
    ex_target: str | None = None
    ci_done: bool = False
    ex_done: bool = False
    ballots: tuple[tuple[Seat, str], ...] = ()
    last_election: tuple[tuple[Seat, str], ...] = ()
    last_totals: tuple[int, int] | None = None
    refill_throne: bool = False
    held: Tile | None = None  # a displaced elector or former Emperor waiting for a place
    pending: Pending | None = None
    # the players' names, for messages only: never in the view (it feeds the state digests)
    names: tuple[str, ...] = ()


def plus(items: tuple[Any, ...], item: Any) -> tuple[Any, ...]:
    return tuple(sorted((*items, item)))


def minus(items: tuple[Any, ...], item: Any) -> tuple[Any, ...]:
    out = list(items)
    out.remove(item)
    return tuple(out)


def ref_of(tile: Tile, at: str) -> dict[str, Any]:
    return {"owner": tile[0], "at": at, "side": tile[1], "age": tile[2]}


def who(action: Action) -> Seat:
    """The acting seat (the pending-decision check has already matched it)."""
    if not isinstance(action.actor, int):
        what = ACTION_WORDS.get(action.type, "this action")
        raise IllegalAction("not_your_turn",
                            sentence(f"{what} is a player's action, not one for "
                                     f"{seat_name((), action.actor)}"))
    return action.actor


def tile_json(tile: Tile | None) -> dict[str, Any] | None:
    return None if tile is None else {"owner": tile[0], "side": tile[1], "age": tile[2]}


class EmperorBoard(GameRules):
    """Edition lookups, counting rules, placement rules and views shared by the reducer."""

    # -- edition ---------------------------------------------------------------
    @classmethod
    def check_edition_content(cls, content: Mapping[str, Any]) -> list[str]:
        return edition_problems(content, cls.player_counts)

    @cached_property
    def eids(self) -> tuple[str, ...]:
        return tuple(self.edition["electorate_order"])

    @cached_property
    def eindex(self) -> dict[str, int]:
        return {e: i for i, e in enumerate(self.eids)}

    @cached_property
    def einfo(self) -> dict[str, Mapping[str, Any]]:
        return {e["id"]: e for e in self.edition["electorates"]}

    @cached_property
    def cards(self) -> dict[str, Mapping[str, Any]]:
        return {c["id"]: c for c in self.edition["action_cards"]}

    @cached_property
    def ages(self) -> tuple[int, ...]:
        return tuple(self.edition["ages"])

    # -- words (see `..._words.py`) ---------------------------------------------
    def labels(self) -> dict[str, str]:
        """The edition's names (electorates, cards), an `elector:<id>` label for each elector
        space (it appears in AristocratRefs), and `GAME_LABELS` for what has no printed name;
        an edition's own `labels` mapping still wins."""
        return dict(self._labels)

    @cached_property
    def _labels(self) -> dict[str, str]:
        base = super().labels()
        named = Words((), base, frozenset(self.eids))
        return {**GAME_LABELS,
                **{f"elector:{eid}": f"Elector of {named.place(eid)}" for eid in self.eids},
                **base}

    def _words(self, state: State | None = None) -> Words:
        """Phrases for messages: the players' names (when the state has them) and labels."""
        return Words(state.names if state is not None else (), self._labels, frozenset(self.eids))

    def _place(self, eid: Any) -> str:
        return self._words().place(eid)

    def _court_spaces(self, n: int, eid: str) -> int:
        info = self.einfo[eid]
        # spec §3.2 / §3.7: the 5-player board has extra secular aristocrat spaces [D]
        return int(info["aristocrat_spaces"]) + (int(info["extra_aristocrat_spaces_5p"])
                                                  if n == 5 else 0)

    def _spiritual(self, eid: str) -> bool:
        return bool(self.einfo[eid]["elector_must_be_single"])

    def _max_thalers(self) -> int:
        return int(self.edition["thalers"]["max"])

    def _vp(self, key: str) -> int:
        return int(self.edition["victory_points"][key])

    def _permit_number(self, state: State, seat: Seat) -> int:
        return int(self.edition["per_player_components"]["cities"]) - \
            state.players[seat].cities + 1

    def _permit_cost(self, number: int) -> int:
        return int(self.cards["permit"]["cost_by_city_number"].get(str(number), 0))

    def _card_cost(self, state: State, seat: Seat, card: str) -> int:
        if card == "permit":
            return self._permit_cost(self._permit_number(state, seat))
        return int(self.cards[card]["cost"])

    def _card_name(self, card: Any) -> str:
        return str(self.cards.get(card, {}).get("name", card))

    # -- counting (spec §5.1, §5.3, §5.5, §5.6) --------------------------------
    def income(self, state: State, seat: Seat) -> int:
        """Spec §5.1: base + own cities + others' cities under own electors + Saxony."""
        inc = self.edition["income"]
        own = sum(e.cities.count(seat) for e in state.electorates)
        total = int(inc["base"]) + own * int(inc["per_own_city_on_board"])
        for e in state.electorates:
            if e.elector is not None and e.elector[0] == seat:
                others = sum(1 for c in e.cities if c not in (seat, EMPIRE))
                total += others * int(inc["per_other_players_city_in_own_electorate"])
                if e.id == "saxony":
                    total += int(inc["saxony_elector_bonus"])
        return total

    # phase II

    def influence(self, state: State, eid: str) -> list[int]:
        """Spec §5.5 step 1 (the elector tile counts: §12.1)."""
        values = self.edition["influence"]
        e = state.electorates[self.eindex[eid]]
        out = [0] * state.n
        for c in e.cities:
            if c == EMPIRE:
                out[state.emperor] += int(values["empire_city_to_emperor"])
            else:
                out[c] += int(values["city"])
        for k in (*e.knights, *e.castles):
            out[k] += int(values["knight"])
        tiles = [*e.tiles, *([e.elector] if e.elector and values["elector_tile_counts"] else [])]
        for owner, side, _ in tiles:
            out[owner] += int(values[side])
        return out

    def gray_holder(self, state: State) -> Seat | None:
        for seat, p in enumerate(state.players):
            if "gray_eminence" in p.area:
                return seat
        return None

    def votes(self, state: State) -> list[int]:
        """Spec §5.6 step 2: electors (Bohemia 2), Excommunication, Pope, Church Influence."""
        out = [0] * state.n
        for e in state.electorates:
            if e.elector is not None and e.id != state.ex_target:
                out[e.elector[0]] += self._elector_votes(e.id)
        pope = int(self.cards["pope"].get("votes", 1))
        for seat, p in enumerate(state.players):
            out[seat] += pope if "pope" in p.area else 0
        if state.ci_target is not None:
            e = state.electorates[self.eindex[state.ci_target]]
            if e.elector is not None:
                owner = e.elector[0]
                out[owner] += sum(1 for t in e.tiles if t[0] == owner)
                out[owner] += (*e.knights, *e.castles).count(owner)
        return out

    def _elector_votes(self, eid: str) -> int:
        # The edition states these only in prose ("worth 2 votes"); an edition may give them as
        # numbers: privileges.<id>.votes (Bohemia's default 2, every other elector's 1).
        default = 2 if eid == "bohemia" else 1
        return int(self.edition.get("privileges", {}).get(eid, {}).get("votes", default))

    def child(self, state: State, seat: Seat) -> str | None:
        """Spec §5.3: no coloured card, a son (blue > red) or a daughter."""
        colours = [self.cards[c]["color"] for c in state.players[seat].area
                   if not self.cards[c].get("only_via_privilege")]  # review ruling 1
        blue, red = colours.count("blue"), colours.count("red")
        if blue + red == 0:
            return None
        return "son" if blue > red else "daughter"

    # phase IV

    def _appoint_candidates(self, state: State, e: Electorate, seat: Seat) -> list[Tile]:
        single_only = self._spiritual(e.id)
        return sorted({t for t in e.tiles if t[0] == seat and (t[1] == SINGLE or not single_only)})

    def _marriage_targets(self, state: State, seat: Seat) -> list[tuple[str, Tile]]:
        """Spec §5.3, §12.15: another player's single on the board, not a spiritual elector."""
        return [(at, t) for at, t in self._board_tiles(state)
                if t[0] != seat and t[1] == SINGLE
                and not (at.startswith("elector:") and self._spiritual(at[8:]))]

    # -- small state helpers ---------------------------------------------------
    def _set_e(self, state: State, i: int, **changes: Any) -> State:
        return replace(state, electorates=with_item(state.electorates, i,
                                                    replace(state.electorates[i], **changes)))

    def _set_p(self, state: State, seat: Seat, **changes: Any) -> State:
        return replace(state, players=with_item(state.players, seat,
                                                replace(state.players[seat], **changes)))

    def _supply_tiles(self, state: State, seat: Seat, k: int) -> State:
        return self._set_p(state, seat, tiles=state.players[seat].tiles + k)

    def _gain_thalers(self, state: State, seat: Seat, k: int) -> State:
        # spec §5.1 / §12.12: no gain raises thalers above the track's end
        p = state.players[seat]
        return self._set_p(state, seat, thalers=min(self._max_thalers(), p.thalers + k))

    def _pay(self, state: State, seat: Seat, cost: int, what: str) -> State:
        have = state.players[seat].thalers
        require(have >= cost, "not_enough_thalers",
                f"{what} costs {plural(cost, 'thaler')}; {self._words(state).who(seat)} has "
                f"{plural(have, 'thaler')}", cost=cost, thalers=have)
        return self._set_p(state, seat, thalers=have - cost)

    def _gain_vp(self, state: State, seat: Seat, k: int, source: str) -> State:
        p = state.players[seat]
        return self._set_p(state, seat, vp=p.vp + k, vp_sources=p.vp_sources.add([source] * k))

    def _court_free(self, state: State, e: Electorate) -> bool:
        return len(e.tiles) + len(e.knights) < self._court_spaces(state.n, e.id)

    def _electorate(self, state: State, eid: Any) -> tuple[int, Electorate]:
        if eid not in self.eindex:
            raise IllegalAction("unknown_electorate",
                                f"there is no electorate {quoted(eid)}; the electorates are "
                                f"{self._words().places(self.eids)}", electorate=eid)
        i = self.eindex[eid]
        return i, state.electorates[i]

    def _seat(self, state: State, value: Any, what: str) -> Seat:
        if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value < state.n:
            raise IllegalAction("unknown_seat",
                                f"{sentence(what)} must be one of the {state.n} seats, 0 to "
                                f"{state.n - 1}; " + ("none was named" if value is None else
                                                      f"{quoted(value)} is not one"),
                                seat=value)
        return value

    # -- entering a court and placing knights (spec §6.1, §6.3) ----------------
    def _push_options(self, state: State, e: Electorate) -> list[Seat | None]:
        if self._court_free(state, e):
            return [None]
        return [*sorted(set(e.knights))]

    def _enter_court(self, state: State, eid: Any, tile: Tile, push: Any) -> State:
        i, e = self._electorate(state, eid)
        w = self._words(state)
        where = w.place(eid)
        if self._court_free(state, e):
            # spec §6.1: a push is illegal while an empty space exists
            require(push is None, "push_not_allowed",
                    sentence(f"{where} has an empty aristocrat space, so no knight may be "
                             f"pushed ({w.whose(push)} knight stays)"), electorate=eid)
            return self._set_e(state, i, tiles=plus(e.tiles, tile))
        require(push is not None, "court_full",
                f"the aristocrat spaces of {where} are full; name whose knight to push"
                if e.knights else f"the aristocrat spaces of {where} are full and hold no "
                "knight", electorate=eid)
        require(push in e.knights, "no_such_knight",
                sentence(f"{where} has no knight of {w.who(push)} on its aristocrat spaces "
                         "(castle knights can never be pushed)"), electorate=eid, push=push)
        state = self._set_p(state, push, knights=state.players[push].knights + 1)
        return self._set_e(state, i, tiles=plus(e.tiles, tile), knights=minus(e.knights, push))

    def _enter_from_supply(self, state: State, seat: Seat, eid: Any, side: str, age: int,
                           push: Any) -> State:
        require(state.players[seat].tiles > 0, "no_tile_in_supply",
                f"{self._words(state).who(seat)} has no aristocrat tile left in supply")
        return self._enter_court(self._supply_tiles(state, seat, -1), eid, (seat, side, age), push)

    def _court_entries(self, state: State) -> Iterator[tuple[str, Seat | None]]:
        for e in state.electorates:
            for push in self._push_options(state, e):
                yield e.id, push

    def _require_city_space(self, e: Electorate) -> None:
        spaces = int(self.einfo[e.id]["city_spaces"])
        require(len(e.cities) < spaces, "no_empty_city_space",
                sentence(f"{self._place(e.id)} has no empty city space "
                         f"({plural(spaces, 'space')}, all taken)"), electorate=e.id)

    def _knight_spaces(self, state: State) -> list[dict[str, Any]]:
        out = []
        for e in state.electorates:
            if self._court_free(state, e):
                out.append({"electorate": e.id, "slot": "court"})
            if len(e.castles) < int(self.einfo[e.id]["castle_spaces"]):
                out.append({"electorate": e.id, "slot": "castle"})
        return out

    def _put_knight(self, state: State, seat: Seat, loc: Mapping[str, Any]) -> State:
        i, e = self._electorate(state, loc["electorate"])
        if loc["slot"] == "court":
            require(self._court_free(state, e), "no_empty_space",
                    sentence(f"{self._place(e.id)} has no empty aristocrat space for a knight "
                             "(knights never push)"), electorate=e.id)
            return self._set_e(state, i, knights=plus(e.knights, seat))
        require(loc["slot"] == "castle", "unknown_slot",
                f"a knight stands on an aristocrat space or a castle space, not on "
                f"{quoted(loc['slot'])}")
        spaces = int(self.einfo[e.id]["castle_spaces"])
        require(len(e.castles) < spaces, "no_empty_space",
                sentence(f"{self._place(e.id)} has no empty castle space "
                         f"({plural(spaces, 'castle space')} in all)"), electorate=e.id)
        return self._set_e(state, i, castles=plus(e.castles, seat))

    def _lift_knight(self, state: State, seat: Seat, loc: Mapping[str, Any]) -> State:
        i, e = self._electorate(state, loc["electorate"])
        slot = "knights" if loc["slot"] == "court" else "castles"
        here = getattr(e, slot) if loc["slot"] in ("court", "castle") else ()
        require(seat in here, "no_such_knight",
                f"{self._words(state).who(seat)} has no knight on {self._words().slot(loc)}")
        return self._set_e(state, i, **{slot: minus(here, seat)})

    # -- tiles on the board (spec §2) ------------------------------------------
    def _tile_at(self, state: State, ref: Mapping[str, Any]) -> Tile:
        """Find the tile an AristocratRef names (§2), or refuse: "no such aristocrat"."""
        tile = (ref["owner"], ref["side"], ref["age"])
        at = ref["at"]
        found = False
        if at == "throne":
            found = state.throne == tile
        elif isinstance(at, str) and at.startswith("elector:") and at[8:] in self.eindex:
            found = state.electorates[self.eindex[at[8:]]].elector == tile
        elif at in self.eindex:
            found = tile in state.electorates[self.eindex[at]].tiles
        if not found:
            raise IllegalAction("no_such_aristocrat",
                                f"no such aristocrat: {self._words(state).ref(ref)}",
                                aristocrat=dict(ref))
        return tile

    def _replace_tile(self, state: State, at: str, old: Tile, new: Tile | None) -> State:
        if at == "throne":
            return replace(state, throne=new)
        if at.startswith("elector:"):
            return self._set_e(state, self.eindex[at[8:]], elector=new)
        i = self.eindex[at]
        tiles = minus(state.electorates[i].tiles, old)
        return self._set_e(state, i, tiles=tiles if new is None else plus(tiles, new))

    def _board_tiles(self, state: State) -> Iterator[tuple[str, Tile]]:
        if state.throne is not None:
            yield "throne", state.throne
        for e in state.electorates:
            if e.elector is not None:
                yield f"elector:{e.id}", e.elector
            for t in sorted(set(e.tiles)):
                yield e.id, t

    def _throne_options(self, state: State, seat: Seat) -> list[dict[str, Any] | None]:
        """Spec §5.2 step 3: an own court tile, else a single aged 45 from supply."""
        refs: list[dict[str, Any] | None] = [
            ref_of(t, e.id) for e in state.electorates for t in sorted(set(e.tiles))
            if t[0] == seat]
        if not refs and state.players[seat].tiles > 0:
            refs.append(None)
        return refs

    def _seat_on_throne(self, state: State, seat: Seat, ref: Any) -> State:
        options = self._throne_options(state, seat)
        if ref is None:
            require(None in options, "court_tile_available",
                    "a single aged 45 from supply may take the throne only if you have no "
                    "tile on any aristocrat space")
            return replace(self._supply_tiles(state, seat, -1),
                           throne=(seat, SINGLE, self.ages[-1]))
        tile = self._tile_at(state, ref)
        w = self._words(state)
        require(ref["owner"] == seat and ref["at"] in self.eindex, "not_eligible_for_throne",
                f"the throne takes one of {w.whose(seat)} own tiles from an aristocrat space "
                f"(never an elector), not {w.ref(ref)}")
        return replace(self._replace_tile(state, ref["at"], tile, None), throne=tile)

    # -- views (spec §10) ------------------------------------------------------
    def view(self, state: State, seat: Viewer) -> dict[str, Any]:
        """Everything is open except sealed ballots before the reveal (spec §10)."""
        return {
            "status": state.status, "round": state.round, "phase": state.phase,
            "phase_name": self._phase_name(state.phase),
            "emperor": state.emperor, "to_act": list(self.to_act(state)),
            "throne": tile_json(state.throne),
            "electorates": [self._electorate_json(state, e) for e in state.electorates],
            "players": [self._player_json(p) for p in state.players],
            "display": state.display.counts(), "empire_city_reserve": state.empire_reserve,
            "rival": state.rival, "turn": state.turn,
            "targets": {"church_influence": state.ci_target,
                        "excommunication": state.ex_target},
            "gray_eminence_holder": self.gray_holder(state),
            "ballots": self._ballots_json(state, seat),
            "last_election": {"ballots": {str(s): c for s, c in state.last_election},
                              "totals": list(state.last_totals) if state.last_totals else None},
            "held_tile": tile_json(state.held),
            "pending": self._pending_json(state.pending),
            "scores": [p.vp for p in state.players],
            "result": self.result(state),
        }

    def _ballots_json(self, state: State, seat: Viewer) -> dict[str, str]:
        return {str(s): (c if seat in ("all", s) else "hidden") for s, c in state.ballots}

    def _electorate_json(self, state: State, e: Electorate) -> dict[str, Any]:
        return {
            "id": e.id, "elector": tile_json(e.elector),
            "court": [tile_json(t) for t in e.tiles],
            "court_knights": list(e.knights), "castle_knights": list(e.castles),
            "cities": ["empire" if c == EMPIRE else c for c in e.cities],
            "privilege_used": e.used,
            "aristocrat_spaces": self._court_spaces(state.n, e.id),
            "city_spaces": int(self.einfo[e.id]["city_spaces"]),
            "castle_spaces": int(self.einfo[e.id]["castle_spaces"]),
            "kind": self.einfo[e.id]["kind"],
            "influence": self.influence(state, e.id) if state.status != "awaiting_setup" else
            [0] * state.n,
        }

    def _player_json(self, p: Player) -> dict[str, Any]:
        return {"thalers": p.thalers, "vp": p.vp, "supply_tiles": p.tiles,
                "supply_knights": p.knights, "supply_cities": p.cities,
                "play_area": list(p.area), "passed": p.passed,
                "thalers_at_actions_start": p.chip}

    def _phase_name(self, phase: int) -> str:
        names = {int(ph["n"]): str(ph["id"]) for ph in self.edition.get("phases", ())}
        return "setup" if phase == 0 else names.get(phase, str(phase))

    def _pending_json(self, pending: Pending | None) -> dict[str, Any] | None:
        if pending is None:
            return None
        out: dict[str, Any] = {"kind": pending.kind, "actor": pending.actor}
        if pending.electorate:
            out["electorate"] = pending.electorate
        if pending.seats:
            out["seats"] = list(pending.seats)
        if pending.tile:
            out["target"] = ref_of(pending.tile, pending.at or "")
            out["proposer"] = pending.other
        if pending.side:
            out["side"], out["age"] = pending.side, pending.age
        return out
