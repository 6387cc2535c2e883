"""In the Shadow of the Emperor: who acts now and what they may do.

Spec: docs/games/in_the_shadow_of_the_emperor.md §6 (actions), §7 (decisions). The game
always waits for one decision (`Pending`); `options` lists every distinct way to take it
(ruling 15: tiles differ by place, side and age, pushes by owner), and a decision with
exactly one option is forced (`forced_option`, spec §7). The board queries here (where a
tile or a knight may go, which tiles may take the throne, what a card costs) are asked both
by the options and by the rules that check an action (apply.py), so each lives once.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from itertools import product
from typing import Any

from ..errors import IllegalAction
from ..rules import Actor
from .edition import Components
from .state import EMPIRE, SINGLE, VOTE_CHOICES, Electorate, Pending, Seat, State, Tile, ref_of
from .words import quoted, words_for

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
PHASE4_CARDS = ("doctor", "move", "indulgence", "permit", "ordinance", "promotion",
                "foreign_kings_daughter")  # spec §6.3: cards the Trier privilege may copy
TURN_PRIVILEGES = ("trier", "koeln", "palatinate", "brandenburg")  # spec §3.4

Option = tuple[str, Actor, dict[str, Any]]  # (type, actor, data) of a legal action
OptionMaker = Callable[[State, Pending, Components], list[Option]]


# ---------------------------------------------------------------------------
# Who acts and what they may do
# ---------------------------------------------------------------------------


def to_act(state: State, components: Components) -> tuple[Actor, ...]:
    """The actors the game waits for; in an election, every voter who has not voted."""
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


def legal_actions(state: State, seat: Actor | None, components: Components
                  ) -> list[dict[str, Any]]:
    """Every legal action now (`setup` listed without its chance field `emperor`).

    Complete: every distinct option of §7 is listed (tiles differ by place, side and age,
    pushes by owner); `reveal_votes` is listed in table mode only.
    """
    if state.status == "awaiting_setup":
        return [setup_proposal(state)] if seat in (None, "table") else []
    if state.status == "over":
        return []
    return [a for a in options(state, components) if seat is None or a["actor"] == seat]


def auto_action(state: State, components: Components) -> dict[str, Any] | None:
    """The setup, which the table owes before anything else (spec §4)."""
    return setup_proposal(state) if state.status == "awaiting_setup" else None


def setup_proposal(state: State) -> dict[str, Any]:
    return {"type": "setup", "actor": "table", "data": {"players": state.n}}


def options(state: State, components: Components) -> list[dict[str, Any]]:
    """Every distinct way to take the pending decision, as legal actions."""
    pending = state.pending
    if pending is None:
        return []
    maker = OPTIONS[pending.kind]
    return [{"type": t, "actor": a, "data": d} for t, a, d in maker(state, pending, components)]


def forced_option(state: State, components: Components) -> dict[str, Any] | None:
    """The one option of a decision that has exactly one (spec §7), applied without an
    event; None when the decision is a real one."""
    pending = state.pending
    if pending is None or pending.kind in NEVER_FORCED:
        return None
    listed = options(state, components)
    return listed[0] if len(listed) == 1 else None


# ---------------------------------------------------------------------------
# Board queries (spec §2, §3, §6.1, §6.3)
# ---------------------------------------------------------------------------


def court_free(state: State, e: Electorate, components: Components) -> bool:
    """An empty aristocrat space in `e` (knights and tiles share them, spec §6.1)."""
    return len(e.tiles) + len(e.knights) < components.electorates[e.id].court_spaces(state.n)


def has_city_space(e: Electorate, components: Components) -> bool:
    return len(e.cities) < components.electorates[e.id].city_spaces


def electorate(state: State, eid: Any, components: Components) -> tuple[int, Electorate]:
    """The electorate a player named, with its index, or `unknown_electorate`."""
    if eid not in components.eindex:
        raise IllegalAction("unknown_electorate",
                            f"there is no electorate {quoted(eid)}; the electorates are "
                            f"{words_for((), components).places(components.eids)}",
                            electorate=eid)
    i = components.eindex[eid]
    return i, state.electorates[i]


def push_options(state: State, e: Electorate, components: Components) -> list[Seat | None]:
    """Spec §6.1: whose knight a tile entering `e` pushes (None: an empty space, no push)."""
    if court_free(state, e, components):
        return [None]
    return [*sorted(set(e.knights))]


def court_entries(state: State, components: Components) -> Iterator[tuple[str, Seat | None]]:
    """Every (electorate, push) a tile may enter a court by."""
    for e in state.electorates:
        for push in push_options(state, e, components):
            yield e.id, push


def knight_spaces(state: State, components: Components) -> list[dict[str, Any]]:
    """Every empty space a knight may stand on (knights never push, spec §6.3)."""
    out = []
    for e in state.electorates:
        if court_free(state, e, components):
            out.append({"electorate": e.id, "slot": "court"})
        if len(e.castles) < components.electorates[e.id].castle_spaces:
            out.append({"electorate": e.id, "slot": "castle"})
    return out


def board_tiles(state: State) -> Iterator[tuple[str, Tile]]:
    """Every tile on the board with where it stands (spec §2's `at`)."""
    if state.throne is not None:
        yield "throne", state.throne
    for e in state.electorates:
        if e.elector is not None:
            yield f"elector:{e.id}", e.elector
        for t in sorted(set(e.tiles)):
            yield e.id, t


def throne_options(state: State, seat: Seat) -> list[dict[str, Any] | None]:
    """Spec §5.2 step 3: an own court tile, else a single aged 45 from supply (None)."""
    refs: list[dict[str, Any] | None] = [
        ref_of(t, e.id) for e in state.electorates for t in sorted(set(e.tiles))
        if t[0] == seat]
    if not refs and state.players[seat].tiles > 0:
        refs.append(None)
    return refs


def appoint_candidates(e: Electorate, seat: Seat, components: Components) -> list[Tile]:
    """Spec §5.5 step 5: the winner's tiles in `e`'s court (singles for an archdiocese)."""
    single_only = components.electorates[e.id].spiritual
    return sorted({t for t in e.tiles if t[0] == seat and (t[1] == SINGLE or not single_only)})


def marriage_targets(state: State, seat: Seat, components: Components
                     ) -> list[tuple[str, Tile]]:
    """Spec §5.3, §12.15: another player's single on the board, not a spiritual elector."""
    return [(at, t) for at, t in board_tiles(state)
            if t[0] != seat and t[1] == SINGLE
            and not (at.startswith("elector:") and components.electorates[at[8:]].spiritual)]


def permit_number(state: State, seat: Seat, components: Components) -> int:
    """Which of the player's cities a Permit builds (1st, 2nd, 3rd)."""
    return components.cities - state.players[seat].cities + 1


def card_cost(state: State, seat: Seat, card: str, components: Components) -> int:
    """What `card` costs `seat` now (the Permit's price goes by city number, spec §6.3)."""
    if card == "permit":
        return components.permit_cost(permit_number(state, seat, components))
    return components.cards[card].cost


# ---------------------------------------------------------------------------
# The options of each decision
# ---------------------------------------------------------------------------


def _options_start_empire_city(state: State, p: Pending, c: Components) -> list[Option]:
    return [("place_start_empire_city", p.actor, {"electorate": e.id})
            for e in state.electorates if has_city_space(e, c)]


def _options_start_elector(state: State, p: Pending, c: Components) -> list[Option]:
    return [("place_start_elector", p.actor, {"electorate": e.id})
            for e in state.electorates if e.elector is None]


def _options_start_aristocrat(state: State, p: Pending, c: Components) -> list[Option]:
    return [("place_start_aristocrat", p.actor, {"electorate": e.id})
            for e in state.electorates if court_free(state, e, c)]


def _options_start_knight(state: State, p: Pending, c: Components) -> list[Option]:
    return [("place_start_knight", p.actor, loc) for loc in knight_spaces(state, c)]


def _options_fill_throne(state: State, p: Pending, c: Components) -> list[Option]:
    return [("fill_throne", p.actor, {"aristocrat": r}) for r in throne_options(state, p.actor)]


def _options_seat_emperor(state: State, p: Pending, c: Components) -> list[Option]:
    return [("seat_emperor", p.actor, {"aristocrat": r}) for r in throne_options(state, p.actor)]


def _options_son(state: State, p: Pending, c: Components) -> list[Option]:
    out: list[Option] = [
        ("place_son", p.actor, {"electorate": None, "push_knight_owner": None})]
    out += [("place_son", p.actor, {"electorate": eid, "push_knight_owner": push})
            for eid, push in court_entries(state, c)]
    return out


def _options_daughter(state: State, p: Pending, c: Components) -> list[Option]:
    out: list[Option] = [
        ("propose_marriage", p.actor, {"target": ref_of(t, at)})
        for at, t in marriage_targets(state, p.actor, c)]
    return [*out, ("send_to_convent", p.actor, {})]


def _options_answer_proposal(state: State, p: Pending, c: Components) -> list[Option]:
    return [("answer_proposal", p.actor, {"accept": True}),
            ("answer_proposal", p.actor, {"accept": False})]


def _options_break_tie(state: State, p: Pending, c: Components) -> list[Option]:
    return [("break_tie", p.actor, {"electorate": p.electorate, "winner": s}) for s in p.seats]


def _options_appoint_elector(state: State, p: Pending, c: Components) -> list[Option]:
    _, e = electorate(state, p.electorate, c)
    return [("appoint_elector", p.actor, {"electorate": e.id, "aristocrat": ref_of(t, e.id)})
            for t in appoint_candidates(e, p.actor, c)]


def _options_place_former_elector(state: State, p: Pending, c: Components) -> list[Option]:
    _, e = electorate(state, p.electorate, c)
    out: list[Option] = [
        ("place_former_elector", p.actor, {"electorate": e.id, "to": "supply",
                                           "push_knight_owner": None})]
    out += [("place_former_elector", p.actor, {"electorate": e.id, "to": "court",
                                               "push_knight_owner": k})
            for k in sorted(set(e.knights))]
    return out


def _options_ci_target(state: State, p: Pending, c: Components) -> list[Option]:
    return [("choose_church_influence_target", p.actor, {"electorate": eid})
            for eid in (*[e for e in c.eids if c.electorates[e].spiritual], None)]


def _options_ex_target(state: State, p: Pending, c: Components) -> list[Option]:
    return [("choose_excommunication_target", p.actor, {"electorate": eid})
            for eid in (*[e for e in c.eids if not c.electorates[e].spiritual], None)]


def _options_vote(state: State, p: Pending, c: Components) -> list[Option]:
    voted = dict(state.ballots)
    out: list[Option] = [
        ("cast_vote", s, {"choice": choice}) for s in p.seats if s not in voted
        for choice in VOTE_CHOICES]
    if state.mode == "table" and not voted:
        out += [("reveal_votes", "table", {"votes": {str(s): choice for s, choice in
                                                     zip(p.seats, combo, strict=True)}})
                for combo in product(VOTE_CHOICES, repeat=len(p.seats))]
    return out


def _options_place_former_emperor(state: State, p: Pending, c: Components) -> list[Option]:
    out: list[Option] = [
        ("place_former_emperor", p.actor, {"electorate": None, "push_knight_owner": None})]
    out += [("place_former_emperor", p.actor, {"electorate": eid, "push_knight_owner": push})
            for eid, push in court_entries(state, c)]
    return out


def _options_emperor_city(state: State, p: Pending, c: Components) -> list[Option]:
    allowed = c.emperor_track[state.round].empire_city
    free = [e.id for e in state.electorates if has_city_space(e, c)]
    out: list[Option] = [
        ("emperor_city_action", p.actor, {"mode": "none", "from": None, "to": None})]
    if allowed == "place_or_move" and state.empire_reserve > 0:
        out += [("emperor_city_action", p.actor, {"mode": "place", "from": None, "to": t})
                for t in free]
    if allowed in ("place_or_move", "move"):
        out += [("emperor_city_action", p.actor, {"mode": "move", "from": e.id, "to": t})
                for e in state.electorates if EMPIRE in e.cities for t in free]
    return out


def _options_turn(state: State, p: Pending, c: Components) -> list[Option]:
    seat = p.actor
    out: list[Option] = [("pass", seat, {})]
    out += [("knight_action", seat, d) for d in _knight_moves(state, seat, c)]
    for card in c.cards:
        if card in ("knight", "gray_eminence") or state.display.count(card) == 0:
            continue
        if card == "rival" and seat == state.emperor:
            continue
        if card_cost(state, seat, card, c) > state.players[seat].thalers:
            continue
        out += [("buy_card", seat, {"card": card, **d})
                for d in _effect_options(state, seat, card, c)]
    out += [("use_privilege", seat, d) for d in _privilege_options(state, seat, c)]
    return out


def _knight_moves(state: State, seat: Seat, c: Components) -> list[dict[str, Any]]:
    if state.players[seat].thalers < c.cards["knight"].cost:
        return []
    sources: list[dict[str, Any] | None] = [None] if state.players[seat].knights else []
    for e in state.electorates:
        sources += [{"electorate": e.id, "slot": "court"}] if seat in e.knights else []
        sources += [{"electorate": e.id, "slot": "castle"}] if seat in e.castles else []
    spaces = knight_spaces(state, c)
    return [{"from": s, "to": t} for s in sources for t in spaces if s != t]


def _effect_options(state: State, seat: Seat, card: str, c: Components
                    ) -> list[dict[str, Any]]:
    player = state.players[seat]
    if card in ("doctor", "koeln"):
        return _doctor_options(state, seat, c)
    if card == "move":
        return [{"aristocrat": ref_of(t, e.id), "to": eid, "push_knight_owner": push}
                for e in state.electorates for t in sorted(set(e.tiles)) if t[0] == seat
                for eid, push in court_entries(state, c) if eid != e.id]
    if card == "permit":
        return [{"electorate": e.id} for e in state.electorates
                if player.cities and has_city_space(e, c)]
    if card in ("ordinance", "foreign_kings_daughter", "palatinate"):
        return [{"electorate": eid, "push_knight_owner": push}
                for eid, push in court_entries(state, c)] if player.tiles else []
    if card == "promotion":
        return [{"electorate": e.id} for e in state.electorates
                if seat in e.knights] if player.tiles else []
    return [{}]


def _doctor_options(state: State, seat: Seat, c: Components) -> list[dict[str, Any]]:
    out = []
    for at, tile in board_tiles(state):
        if tile[0] != seat:
            out.append({"target": ref_of(tile, at), "direction": "older"})
        elif tile[2] != c.ages[0]:
            out.append({"target": ref_of(tile, at), "direction": "younger"})
    return out


def _privilege_options(state: State, seat: Seat, c: Components) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for name in TURN_PRIVILEGES:
        e = state.electorates[c.eindex[name]]
        if e.used or e.elector is None or e.elector[0] != seat:
            continue
        if name == "trier":
            out += [{"privilege": name, "card": card, **d} for card in PHASE4_CARDS
                    if state.display.count(card) == 0
                    and card_cost(state, seat, card, c) <= state.players[seat].thalers
                    for d in _effect_options(state, seat, card, c)]
        elif name == "brandenburg":
            out += [{"privilege": name}] if state.display.count("gray_eminence") else []
        else:
            out += [{"privilege": name, **d} for d in _effect_options(state, seat, name, c)]
    return out


OPTIONS: Mapping[str, OptionMaker] = {
    "start_empire_city": _options_start_empire_city,
    "start_elector": _options_start_elector,
    "start_aristocrat": _options_start_aristocrat,
    "start_knight": _options_start_knight,
    "fill_throne": _options_fill_throne,
    "seat_emperor": _options_seat_emperor,
    "son": _options_son,
    "daughter": _options_daughter,
    "answer_proposal": _options_answer_proposal,
    "break_tie": _options_break_tie,
    "appoint_elector": _options_appoint_elector,
    "place_former_elector": _options_place_former_elector,
    "ci_target": _options_ci_target,
    "ex_target": _options_ex_target,
    "vote": _options_vote,
    "place_former_emperor": _options_place_former_emperor,
    "emperor_city": _options_emperor_city,
    "turn": _options_turn,
}
