"""In the Shadow of the Emperor: who acts now and what they may do.

Spec: docs/games/in_the_shadow_of_the_emperor.md §6 (actions), §7 (decisions). The game
always waits for one decision (`Pending`); `options` lists every distinct way to take it
(ruling 15: tiles differ by place, side and age, pushes by owner), and a decision with
exactly one option is forced (`forced_option`, spec §7). The choices of each action type
(`<type>_steps`, projections/choices.py) narrow that same list one field at a time, so what
a person is offered, what a playout draws and what is forced cannot disagree. The board
queries here (where a tile or a knight may go, which tiles may take the throne, what a card
costs) are asked both by the options and by the rules that check an action (apply.py), so
each lives once.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, replace
from itertools import product
from typing import Any

from ..choices import DONE, Choice, Done, Made, Step
from ..choices import Option as ChoiceOption
from ..errors import IllegalAction
from ..messages import M, Mn, Ordinal, Seq, capitalised
from ..rules import Actor
from .edition import Components
from .scoring import influence
from .state import EMPIRE, SINGLE, VOTE_CHOICES, Electorate, Pending, Seat, State, Tile, ref_of
from .words import Words, quoted, words_for

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
    """Every legal action now (`setup` listed without its chance field `emperor`): the
    list random playouts draw from. Interfaces build moves from the choices instead (the
    `<type>_steps` below, narrowed from the same options).

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
                            M("there is no electorate {value}; the electorates are {places}",
                              value=quoted(eid),
                              places=words_for((), components).places(components.eids)),
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


# ---------------------------------------------------------------------------
# The choices of each action type (projections/choices.py)
# ---------------------------------------------------------------------------
# A move is built from the options above (`OPTIONS`, every distinct legal way to take the
# decision, spec §7), one field at a time in the order a player thinks: the card, then where
# its effect goes, then whose knight it pushes. Each choice offers exactly the values some
# remaining option holds, so every pick can still complete a legal move, and every option
# is reached. A field every remaining option agrees on is asked only where a player would
# want to see it (`Ask.always`); otherwise it is filled in (a Doctor's direction follows
# from whose tile it is; a push from the only knight there).

Prompt = str | Callable[[State, Actor, Made, Components], str]
Labeller = Callable[[State, Actor, Any, Components], ChoiceOption]


@dataclass(frozen=True, slots=True)
class Ask:
    """One field of an action's data, asked as one choice."""

    field: str
    prompt: Prompt
    option: Labeller
    #: asked even when only one value remains (the player should see what they do)
    always: bool = True
    #: ...unless that one value is None (no destination: nothing to show)
    skip_none: bool = False


def _candidates(state: State, type_: str, actor: Actor, c: Components) -> list[Mapping[str, Any]]:
    """The data of every distinct legal action of `type_` by `actor` now (spec §7)."""
    pending = state.pending
    if state.status != "playing" or pending is None or type_ not in ACCEPTS[pending.kind]:
        return []
    return [d for t, a, d in OPTIONS[pending.kind](state, pending, c)
            if t == type_ and a == actor]


def _distinct(values: list[Any]) -> list[Any]:
    out: list[Any] = []
    for value in values:
        if not any(value == v and type(value) is type(v) for v in out):
            out.append(value)
    return out


def _narrowed(state: State, actor: Actor, made: Made, c: Components, type_: str,
              asks: tuple[Ask, ...]) -> Step:
    """The next field of `asks` the remaining options disagree on (or always asked), its
    values as options; once every field is chosen, the one option left."""
    candidates = _candidates(state, type_, actor, c)
    for ask in asks:
        if not candidates:
            break
        present = [d for d in candidates if ask.field in d]
        if not present:
            continue
        if made.has(ask.field):
            chosen = made.get(ask.field)
            candidates = [d for d in candidates if d.get(ask.field) == chosen
                          and type(d.get(ask.field)) is type(chosen)]
            continue
        values = _distinct([d[ask.field] for d in present])
        if len(values) == 1 and (not ask.always or (ask.skip_none and values[0] is None)):
            continue
        prompt = ask.prompt if isinstance(ask.prompt, str) else ask.prompt(state, actor,
                                                                            made, c)
        return Choice((ask.field,), prompt, tuple(ask.option(state, actor, v, c)
                                                  for v in values))
    if not candidates:
        return None
    if any(d != candidates[0] for d in candidates[1:]):  # a field missing from `asks`
        raise AssertionError(f"{type_}: the choices leave {len(candidates)} moves apart")
    return Done(dict(candidates[0]))


# -- the words of options ----------------------------------------------------------------
def _w(state: State, c: Components) -> Words:
    return words_for(state.names, c)


def _kind_group(eid: str, c: Components) -> str:
    """Electorates are grouped as the board prints them: archdioceses, secular ones."""
    return M("Archdioceses") if c.electorates[eid].spiritual else M("Secular electorates")


def _electorate_option(eid: Any, c: Components, detail: str = "") -> ChoiceOption:
    return ChoiceOption(eid, c.labels.get(eid, str(eid)), detail, _kind_group(eid, c))


def _court_option(none: str) -> Labeller:
    """An electorate a tile enters (with how many aristocrat spaces are empty), or None
    in the words `none` ("Decline the son")."""
    def option(state: State, actor: Actor, eid: Any, c: Components) -> ChoiceOption:
        if eid is None:
            return ChoiceOption(None, none)
        e = state.electorates[c.eindex[eid]]
        free = c.electorates[eid].court_spaces(state.n) - len(e.tiles) - len(e.knights)
        return _electorate_option(eid, c, Mn("{count} empty aristocrat space",
                                             "{count} empty aristocrat spaces", free) if free
                                  else M("full: a knight there goes back to supply"))
    return option


def _city_option(state: State, actor: Actor, eid: Any, c: Components) -> ChoiceOption:
    e = state.electorates[c.eindex[eid]]
    free = c.electorates[eid].city_spaces - len(e.cities)
    return _electorate_option(eid, c, Mn("{count} empty city space", "{count} empty city spaces",
                                         free))


def _elector_option(state: State, actor: Actor, eid: Any, c: Components) -> ChoiceOption:
    return _electorate_option(eid, c, M("elector space empty"))


def _target_option(none: str) -> Labeller:
    def option(state: State, actor: Actor, eid: Any, c: Components) -> ChoiceOption:
        return ChoiceOption(None, none) if eid is None else _electorate_option(eid, c)
    return option


def _push_option(state: State, actor: Actor, owner: Any, c: Components) -> ChoiceOption:
    if owner is None:
        return ChoiceOption(None, M("An empty aristocrat space"))
    w = _w(state, c)
    return ChoiceOption(owner, M("{whose} knight", whose=w.whose(owner)),
                        M("goes back to supply"))


def _place_group(at: str, c: Components) -> str:
    if at == "throne":
        return M("Throne")
    if at.startswith("elector:"):
        return M("Elector spaces")
    return c.labels.get(at, at)


def _tile_option(none: str = M("A single aged 45 from supply")) -> Labeller:
    """A tile on the board (an AristocratRef, spec §2) by owner, side and age, under the
    place it stands; None in the words `none`."""
    def option(state: State, actor: Actor, ref: Any, c: Components) -> ChoiceOption:
        if ref is None:
            return ChoiceOption(None, none, Mn("{count} tile in supply", "{count} tiles in supply",
                                               state.players[actor].tiles)
                                if isinstance(actor, int) else "")
        w = _w(state, c)
        return ChoiceOption(ref, M("{whose} {kind}", whose=w.whose(ref["owner"]),
                                   kind=w.kind(ref["side"], ref["age"])),
                            w.spot(ref["at"]), _place_group(str(ref["at"]), c))
    return option


def _patient_option(state: State, actor: Actor, ref: Any, c: Components) -> ChoiceOption:
    """A Doctor's target, with what the Doctor does to it (spec §3.6)."""
    plain = _tile_option()(state, actor, ref, c)
    index = c.ages.index(ref["age"])
    if ref["owner"] == actor:
        effect = M("younger, to {age}", age=c.ages[index - 1])
    elif index + 1 < len(c.ages):
        effect = M("older, to {age}", age=c.ages[index + 1])
    else:
        effect = M("older: back to supply")
    return replace(plain, detail=M("{detail} · {effect}", detail=plain.detail, effect=effect))


def _direction_option(state: State, actor: Actor, value: Any, c: Components) -> ChoiceOption:
    return ChoiceOption(value, c.labels.get(value, str(value)))


def _card_option(state: State, actor: Actor, card: Any, c: Components) -> ChoiceOption:
    """A card by its printed name, with its cost for this player, colour and stack."""
    assert isinstance(actor, int)
    cost = card_cost(state, actor, card, c)
    info = c.cards[card]
    left = state.display.count(card)
    price = Mn("{count} thaler", "{count} thalers", cost)
    if card == "permit":
        price = M("{price} (the {nth} city)", price=price,
                  nth=Ordinal(permit_number(state, actor, c)))
    parts: list[str] = [price]
    if info.color in ("blue", "red"):
        parts.append(COLOUR_WORDS[info.color])
    parts.append(M("{count} left", count=left) if left else M("stack empty"))
    # grouped by the colour that decides a descendant (spec §3.6, §5.3)
    group = COLOUR_GROUPS.get(info.color, "")
    return ChoiceOption(card, c.card_name(card), Seq(parts, "·"), group)


COLOUR_WORDS: Mapping[str, str] = {"blue": M("blue"), "red": M("red")}  # spec §3.6
COLOUR_GROUPS: Mapping[str, str] = {"blue": M("Blue cards"), "red": M("Red cards")}


PRIVILEGE_WORDS: Mapping[str, str] = {  # what each phase-IV privilege does (spec §3.4)
    "trier": M("an exhausted action card's effect, at its cost"),
    "koeln": M("a free Doctor"),
    "palatinate": M("a free single aged 15"),
    "brandenburg": M("take the Gray Eminence"),
}


def _privilege_option(state: State, actor: Actor, name: Any, c: Components) -> ChoiceOption:
    return ChoiceOption(name, M("Privilege of {place}", place=_w(state, c).place(name)),
                        PRIVILEGE_WORDS.get(name, ""))


def _knight_from_option(state: State, actor: Actor, loc: Any, c: Components) -> ChoiceOption:
    if loc is None:
        knights = state.players[actor].knights if isinstance(actor, int) else 0
        return ChoiceOption(None, M("A knight from supply"),
                            Mn("{count} knight there", "{count} knights there", knights))
    return ChoiceOption(loc, M("The knight on {space}", space=_w(state, c).slot(loc)), "",
                        c.labels.get(loc["electorate"], loc["electorate"]))


def _knight_to_option(state: State, actor: Actor, loc: Any, c: Components) -> ChoiceOption:
    text = _w(state, c).slot(loc)
    return ChoiceOption(loc, capitalised(text), "",
                        c.labels.get(loc["electorate"], loc["electorate"]))


def _knight_place_option(state: State, actor: Actor, eid: Any, c: Components
                         ) -> ChoiceOption:
    """An electorate a knight may stand in, with the kinds of empty space it has."""
    kinds = tuple(slot for slot in ("court", "castle")
                  if {"electorate": eid, "slot": slot} in knight_spaces(state, c))
    return _electorate_option(eid, c, SPACE_KINDS.get(kinds, M("space")))


#: the kinds of empty space an electorate offers a knight, in words (spec §6.3)
SPACE_KINDS: Mapping[tuple[str, ...], str] = {
    ("court", "castle"): M("aristocrat or castle space"), ("court",): M("aristocrat space"),
    ("castle",): M("castle space")}


def _slot_option(state: State, actor: Actor, slot: Any, c: Components) -> ChoiceOption:
    return ChoiceOption(slot, c.labels.get(slot, str(slot)))


def _seat_option(state: State, actor: Actor, seat: Any, c: Components) -> ChoiceOption:
    """A tied player, with the influence that tied them (spec §5.5 step 1)."""
    pending = state.pending
    detail = ""
    if pending is not None and pending.electorate:
        detail = Mn("{count} influence point", "{count} influence points",
                    influence(state, pending.electorate, c)[seat])
    return ChoiceOption(seat, _w(state, c).who(seat), detail)


def _answer_option(state: State, actor: Actor, accept: Any, c: Components) -> ChoiceOption:
    return ChoiceOption(accept, M("Accept") if accept else M("Refuse"),
                        M("the single becomes a couple") if accept
                        else M("the daughter becomes a nun"))


def _ballot_option(state: State, actor: Actor, choice: Any, c: Components) -> ChoiceOption:
    seat = state.emperor if choice == "emperor" else state.rival
    who = _w(state, c).who(seat)
    return ChoiceOption(choice, M("{player}, the Emperor", player=who) if choice == "emperor"
                        else M("{player}, the Rival", player=who))


def _former_option(state: State, actor: Actor, to: Any, c: Components) -> ChoiceOption:
    return ChoiceOption(to, M("Back to supply") if to == "supply"
                        else M("Its aristocrat spaces, pushing a knight"))


MODE_WORDS: Mapping[str, str] = {  # spec §5.7, §6.4
    "none": M("Leave the empire cities where they are"),
    "place": M("Place an empire city from the reserve"),
    "move": M("Move an empire city"),
}


def _mode_option(state: State, actor: Actor, mode: Any, c: Components) -> ChoiceOption:
    detail = Mn("{count} empire city in the reserve", "{count} empire cities in the reserve",
                state.empire_reserve) if mode == "place" else ""
    return ChoiceOption(mode, MODE_WORDS.get(mode, str(mode)), detail)


def _city_from_option(state: State, actor: Actor, eid: Any, c: Components) -> ChoiceOption:
    return ChoiceOption(None, M("Nothing to take")) if eid is None else \
        _electorate_option(eid, c, M("holds an empire city"))


def _city_to_option(state: State, actor: Actor, eid: Any, c: Components) -> ChoiceOption:
    return ChoiceOption(None, M("Nowhere")) if eid is None else _city_option(state, actor, eid, c)


def _push_prompt(state: State, actor: Actor, made: Made, c: Components) -> str:
    """Where the tile enters: the electorate chosen (`to` of a Move, else `electorate`),
    or the one the decision is about (a former elector)."""
    where = next((made.get(f) for f in ("to", "electorate") if made.get(f) in c.eindex),
                 state.pending.electorate if state.pending else None)
    return M("Whose knight to push off {place}", place=_w(state, c).place(where))


def _ballot_prompt(state: State, actor: Actor, made: Made, c: Components) -> str:
    return M("{player}'s sealed ballot", player=_w(state, c).who(actor))


def _promotion_option(state: State, actor: Actor, eid: Any, c: Components) -> ChoiceOption:
    return _electorate_option(eid, c, M("your knight there becomes a single aged 25"))


PUSH = Ask("push_knight_owner", _push_prompt, _push_option, always=False)
DOCTOR_ASKS = (Ask("target", M("Which aristocrat the Doctor treats"), _patient_option),
               Ask("direction", M("Younger or older"), _direction_option, always=False))


def _effect_asks(card: Any) -> tuple[Ask, ...]:
    """The effect fields of a phase-IV card or privilege, in the order a player thinks
    (spec §6.3): the tile, then where it goes, then whose knight it pushes."""
    if card in ("doctor", "koeln"):
        return DOCTOR_ASKS
    if card == "move":
        return (Ask("aristocrat", M("Which of your aristocrats to move"), _tile_option()),
                Ask("to", M("To which electorate"), _court_option(M("Nowhere"))), PUSH)
    if card == "permit":
        return (Ask("electorate", M("Where to build the city"), _city_option),)
    if card == "promotion":
        return (Ask("electorate", M("Which knight on an aristocrat space to promote"),
                    _promotion_option),)
    return (Ask("electorate", M("Where the aristocrat enters"), _court_option(M("Nowhere"))), PUSH)


# -- the steps of each action type (actions.ACTIONS) --------------------------------------
def setup_steps(state: State, actor: Actor, made: Made, c: Components) -> Step:
    """The table's first entry: the player count is the game's; the first Emperor is its
    chance field (tapped at a table, dealt in digital play, spec §4, §11)."""
    if state.status != "awaiting_setup" or actor != "table":
        return None
    return Done({"players": state.n})


def place_start_empire_city_steps(state: State, actor: Actor, made: Made, c: Components
                                  ) -> Step:
    return _narrowed(state, actor, made, c, "place_start_empire_city", (
        Ask("electorate", M("Where the first empire city goes"), _city_option),))


def place_start_elector_steps(state: State, actor: Actor, made: Made, c: Components) -> Step:
    return _narrowed(state, actor, made, c, "place_start_elector", (
        Ask("electorate", M("Which elector space the single aged 45 takes"), _elector_option),))


def _start_tile_prompt(state: State, actor: Actor, made: Made, c: Components) -> str:
    pending = state.pending
    assert pending is not None
    return M("Where the {kind} goes", kind=_w(state, c).kind(pending.side, pending.age))


def place_start_aristocrat_steps(state: State, actor: Actor, made: Made, c: Components
                                 ) -> Step:
    return _narrowed(state, actor, made, c, "place_start_aristocrat", (
        Ask("electorate", _start_tile_prompt, _court_option(M("Nowhere"))),))


def place_start_knight_steps(state: State, actor: Actor, made: Made, c: Components) -> Step:
    return _narrowed(state, actor, made, c, "place_start_knight", (
        Ask("electorate", M("Where the knight goes"), _knight_place_option),
        Ask("slot", M("Which kind of space"), _slot_option, always=False)))


def fill_throne_steps(state: State, actor: Actor, made: Made, c: Components) -> Step:
    return _narrowed(state, actor, made, c, "fill_throne", (
        Ask("aristocrat", M("Which tile takes the empty throne"), _tile_option()),))


def seat_emperor_steps(state: State, actor: Actor, made: Made, c: Components) -> Step:
    return _narrowed(state, actor, made, c, "seat_emperor", (
        Ask("aristocrat", M("Which tile the new Emperor seats on the throne"), _tile_option()),))


def place_son_steps(state: State, actor: Actor, made: Made, c: Components) -> Step:
    return _narrowed(state, actor, made, c, "place_son", (
        Ask("electorate", M("Where the son (a single aged 15) goes"),
            _court_option(M("Decline the son"))), PUSH))


def propose_marriage_steps(state: State, actor: Actor, made: Made, c: Components) -> Step:
    return _narrowed(state, actor, made, c, "propose_marriage", (
        Ask("target", M("Which single the daughter marries"), _tile_option()),))


def send_to_convent_steps(state: State, actor: Actor, made: Made, c: Components) -> Step:
    return _narrowed(state, actor, made, c, "send_to_convent", ())


def _proposal_prompt(state: State, actor: Actor, made: Made, c: Components) -> str:
    pending = state.pending
    assert pending is not None and pending.tile is not None
    w = _w(state, c)
    return M("{whose} daughter proposes to {tile}", whose=w.whose(pending.other),
             tile=w.ref(ref_of(pending.tile, pending.at or "")))


def answer_proposal_steps(state: State, actor: Actor, made: Made, c: Components) -> Step:
    return _narrowed(state, actor, made, c, "answer_proposal", (
        Ask("accept", _proposal_prompt, _answer_option),))


CARD_ASK = Ask("card", M("Which card to buy"), _card_option)


def buy_card_steps(state: State, actor: Actor, made: Made, c: Components) -> Step:
    """The card first (with its cost and what is left), then where its effect goes."""
    return _narrowed(state, actor, made, c, "buy_card",
                     (CARD_ASK, *_effect_asks(made.get("card"))))


def use_privilege_steps(state: State, actor: Actor, made: Made, c: Components) -> Step:
    """The privilege, then (Trier) the exhausted card it plays, then the effect."""
    name = made.get("privilege")
    effect = made.get("card") if name == "trier" else name
    return _narrowed(state, actor, made, c, "use_privilege", (
        Ask("privilege", M("Which privilege to use"), _privilege_option),
        Ask("card", M("Which exhausted card the privilege of Trier plays"), _card_option),
        *_effect_asks(effect)))


def knight_action_steps(state: State, actor: Actor, made: Made, c: Components) -> Step:
    """The knight (from supply or the board), then its empty space (spec §6.3)."""
    return _narrowed(state, actor, made, c, "knight_action", (
        Ask("from", M("Which knight"), _knight_from_option),
        Ask("to", M("To which empty space"), _knight_to_option)))


def pass_steps(state: State, actor: Actor, made: Made, c: Components) -> Step:
    return _narrowed(state, actor, made, c, "pass", ())


def _tie_prompt(state: State, actor: Actor, made: Made, c: Components) -> str:
    pending = state.pending
    return M("Who wins the tie in {place}",
             place=_w(state, c).place(pending.electorate if pending else None))


def break_tie_steps(state: State, actor: Actor, made: Made, c: Components) -> Step:
    return _narrowed(state, actor, made, c, "break_tie", (
        Ask("winner", _tie_prompt, _seat_option),))


def appoint_elector_steps(state: State, actor: Actor, made: Made, c: Components) -> Step:
    return _narrowed(state, actor, made, c, "appoint_elector", (
        Ask("aristocrat", M("Which of your tiles becomes the elector"), _tile_option()),))


def place_former_elector_steps(state: State, actor: Actor, made: Made, c: Components) -> Step:
    return _narrowed(state, actor, made, c, "place_former_elector", (
        Ask("to", M("Where the former elector goes"), _former_option), PUSH))


def choose_church_influence_target_steps(state: State, actor: Actor, made: Made,
                                         c: Components) -> Step:
    return _narrowed(state, actor, made, c, "choose_church_influence_target", (
        Ask("electorate", M("Which archdiocese Church Influence names"),
            _target_option(M("No archdiocese"))),))


def choose_excommunication_target_steps(state: State, actor: Actor, made: Made,
                                        c: Components) -> Step:
    return _narrowed(state, actor, made, c, "choose_excommunication_target", (
        Ask("electorate", M("Which secular electorate to excommunicate"),
            _target_option(M("No electorate"))),))


def cast_vote_steps(state: State, actor: Actor, made: Made, c: Components) -> Step:
    return _narrowed(state, actor, made, c, "cast_vote", (
        Ask("choice", _ballot_prompt, _ballot_option),))


def reveal_votes_steps(state: State, actor: Actor, made: Made, c: Components) -> Step:
    """At a table, every voter's election card as it was turned over, voter by voter in
    seat order (spec §8): each may show either side, so every combination is legal."""
    if not _candidates(state, "reveal_votes", actor, c):
        return None
    pending = state.pending
    assert pending is not None
    shown = made.get("votes") or {}
    w = _w(state, c)
    for seat in pending.seats:
        if str(seat) not in shown:
            return Choice(("votes", str(seat)), M("{whose} election card", whose=w.whose(seat)),
                          tuple(_ballot_option(state, actor, v, c) for v in VOTE_CHOICES))
    return DONE


def place_former_emperor_steps(state: State, actor: Actor, made: Made, c: Components) -> Step:
    return _narrowed(state, actor, made, c, "place_former_emperor", (
        Ask("electorate", M("Where the former Emperor's tile goes"),
            _court_option(M("Return it to supply"))), PUSH))


def emperor_city_action_steps(state: State, actor: Actor, made: Made, c: Components) -> Step:
    return _narrowed(state, actor, made, c, "emperor_city_action", (
        Ask("mode", M("What the Emperor does with the empire cities"), _mode_option),
        Ask("from", M("Which empire city to move"), _city_from_option, always=False),
        Ask("to", M("To which electorate's empty city space"), _city_to_option,
            skip_none=True)))
