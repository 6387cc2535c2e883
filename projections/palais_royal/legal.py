"""Who acts now in Palais Royal and what they may do: each action's choices, exactly the
legal moves, built pick by pick (the `<type>_steps` functions, projections/choices.py),
and, for random playouts only, a finite, representative subset of the legal actions that
keeps random play productive (see `legal_actions`)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterator, Mapping, Sequence
from functools import lru_cache
from itertools import combinations
from typing import Any, cast

from ..choices import DONE, Choice, Done, Made, Option, Step
from ..messages import M, Mn, Seq
from ..rules import Action, Actor, IllegalAction, Seat
from .apply import (
    apply_court_placements,
    apply_play_privilege_card,
    check_recruit,
    close_steps,
    draw_allowance,
    gate_allowance,
    has_advantage,
    is_adjacent,
    move_allowance,
    owns,
    privilege_count,
    recruit_price,
    servants_on,
)
from .chance import noble_groups
from .edition import (
    BACK_DOOR,
    CARDINAL,
    GATE,
    KINGS,
    MINT,
    OFFICE,
    PARADE,
    POMPADOUR,
    STAIRWAY,
    SUPPLY,
    CardId,
    Components,
    NobleId,
    SpaceId,
    TileId,
)
from .state import PlayerState, State, placing_seat
from .words import label, opened, seal_count, the, who

Proposal = tuple[str, dict[str, Any]]

#: tiles listed initial placements and moves aim at
USEFUL_TILES: tuple[TileId, ...] = (OFFICE, MINT, POMPADOUR, KINGS, BACK_DOOR, PARADE, STAIRWAY)
#: tiles listed moves and placements take servants from first
SPARE_TILES: tuple[TileId, ...] = (GATE, CARDINAL, BACK_DOOR, MINT)
#: servants listed moves always leave in place, so random play keeps its engines
RESERVE: Mapping[TileId, int] = {PARADE: 1, STAIRWAY: 1}


def to_act(state: State, components: Components) -> tuple[Actor, ...]:
    """The table before the setup, each placing seat in turn, then the active seat."""
    if state.phase == "awaiting_setup":
        return ("table",)
    if state.phase == "initial_placement":
        return (placing_seat(state),)
    if state.phase == "play":
        return (state.active,)
    return ()


def auto_action(state: State, components: Components) -> dict[str, Any] | None:
    """The setup deal, which the table owes before anything else (spec §5.1)."""
    if state.phase == "awaiting_setup":
        return {"type": "setup", "actor": "table", "data": {"player_count": state.player_count}}
    return None


def legal_actions(state: State, seat: Actor | None,
                  components: Components) -> list[dict[str, Any]]:
    """A finite, representative subset of the legal actions, for random playouts only;
    every one applies. Interfaces build every legal move from the choices instead (the
    `<type>_steps` below, rulings #23-#25).

    The true action space is huge (any sequence of moves, any split of 5 servants), so
    this lists: setup; initial placements of all 5 on one tile or spread over 5 useful
    tiles; each playable privilege card (each seal split); then only the actions of the
    earliest open step that offers any: the full Gate allowance from the supply; for
    each useful tile the moves that walk whole servants there (from the Gate, Cardinal,
    Back Door or Mint first, then the fullest tile, always leaving one on the Parade
    Ground and one on the Stairway; one servant part-way when none can arrive); the
    step-3 extras from the supply (or the Gate/Cardinal); and finally every
    affordable recruit, the full Back Door draw and end_turn. While cards are pending:
    keeping none, one of each drawn type, or as many as the Back Door allows. Offering
    one step at a time and every recruit keeps random play productive, so games end
    (docs/rulings/palais_royal.md #18).
    """
    actors = to_act(state, components)
    if seat is not None and (isinstance(seat, bool) or seat not in actors):
        return []
    setup = auto_action(state, components)
    if setup is not None:
        return [setup]
    if state.phase == "initial_placement":
        return _legal_initial(state, components)
    if state.phase != "play":
        return []
    return _legal_turn(state, components)


def _legal_initial(state: State, components: Components) -> list[dict[str, Any]]:
    seat = placing_seat(state)
    need = components.free_initial_servants
    options: list[dict[str, int]] = [{t: need} for t in components.tile_ids]
    width = min(need, len(USEFUL_TILES))
    for combo in combinations(USEFUL_TILES, width):
        spread = dict.fromkeys(combo, 1)
        spread[combo[0]] += need - width
        options.append(spread)
    return [{"type": "initial_placement", "actor": seat, "data": {"placements": o}}
            for o in options]


def _legal_turn(state: State, components: Components) -> list[dict[str, Any]]:
    seat, turn = state.active, state.turn
    found = [("play_privilege_card", d) for d in _card_options(state, seat, components)]
    if turn.pending:
        found += [("keep_privilege_cards", d) for d in _keep_options(state, seat, components)]
    else:
        found += _step_options(state, seat, components)
    return [{"type": t, "actor": seat, "data": d} for t, d in found]


def _step_options(state: State, seat: Seat, components: Components) -> list[Proposal]:
    """The listed actions of the earliest open step that has any (skipping is implied)."""
    step = state.turn.open_step
    groups: list[tuple[int, Callable[[], list[Proposal]]]] = [
        (1, lambda: _gate_options(state, seat, components)),
        (2, lambda: [("move_servants", d) for d in _move_options(state, seat, components)]),
        (3, lambda: _court_options(state, seat, components)),
    ]
    for number, options in groups:
        found = options() if step <= number else []
        if found:
            return found
    found = _recruit_options(state, seat, components) if step <= 4 else []
    found += _draw_options(state, seat, components) if step <= 4 else []
    return [*found, ("end_turn", {})]


#: the rules `_is_legal` asks (apply.py: the one place each rule lives)
APPLIERS: Mapping[str, Callable[[State, Action, Components], State]] = {
    "play_privilege_card": apply_play_privilege_card,
    "court_placements": apply_court_placements,
}


def _is_legal(state: State, type_: str, seat: Seat, data: Mapping[str, Any],
              components: Components) -> bool:
    try:
        APPLIERS[type_](state, Action.of(type_, seat, data), components)
    except IllegalAction:
        return False
    return True


def _card_options(state: State, seat: Seat, components: Components) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for name in state.players[seat].hand.counts():
        total = int(components.cards[name].effect.get("bonus_seals", 0))
        datas: list[dict[str, Any]] = [{"card": name, "seals": {"blue": b, "purple": total - b}}
                                       for b in range(total + 1)] if total else [{"card": name}]
        out += [d for d in datas
                if _is_legal(state, "play_privilege_card", seat, d, components)]
    return out


def _keep_options(state: State, seat: Seat, components: Components) -> list[dict[str, Any]]:
    pending = list(state.turn.pending)
    room = servants_on(state.players[seat], BACK_DOOR, components)
    keeps: list[list[CardId]] = [[]]
    if room:
        keeps += [[c] for c in sorted(set(pending))]
        keeps.append(pending[:room])
    unique = {tuple(sorted(k)): k for k in keeps}
    return [{"kept": k} for k in unique.values()]


def _gate_options(state: State, seat: Seat, components: Components) -> list[Proposal]:
    supply = state.players[seat].supply
    k = supply if state.turn.gate_unlimited \
        else min(supply, gate_allowance(state, seat, components))
    return [("place_at_gate", {"sources": [SUPPLY] * k})] if k else []


def _move_options(state: State, seat: Seat, components: Components) -> list[dict[str, Any]]:
    allowance = move_allowance(state, seat, components)
    if not allowance:
        return []
    plans: dict[tuple[tuple[str, str], ...], None] = {}
    for target in USEFUL_TILES:
        plan = _walk_to(state, seat, target, allowance, components)
        if plan:
            plans[tuple(plan)] = None
    return [{"steps": [{"from": a, "to": b} for a, b in plan]} for plan in plans]


def _walk_to(state: State, seat: Seat, target: TileId, allowance: int,
             components: Components) -> list[tuple[str, str]]:
    """Moves that bring the nearest spare servants to `target` along shortest paths."""
    diagonal = owns(state.players[seat], "diagonal_move", components)
    queue, towards, distance = _paths_to(state.court_layout, components.grid_cols, diagonal,
                                         target)
    index = components.tile_index
    court = list(state.players[seat].court)
    steps: list[tuple[str, str]] = []
    while True:
        left = allowance - len(steps)
        movable = [t for t in queue[1:] if court[index[t]] > RESERVE.get(t, 0)
                   and (distance[t] <= left or not steps)]
        if not movable or not left:
            break
        # spare tiles first, then the fullest tile, then the nearest
        src = min(movable, key=lambda t: (t not in SPARE_TILES, -court[index[t]], distance[t]))
        court[index[src]] -= 1
        here = src
        while here != target and len(steps) < allowance:  # partly only if none fits
            steps.append((here, towards[here]))
            here = towards[here]
        court[index[here]] += 1
    return steps


def _court_options(state: State, seat: Seat, components: Components) -> list[Proposal]:
    player = state.players[seat]
    extras = [t for t in (KINGS, POMPADOUR) if has_advantage(state, seat, t, components)]
    bonus = privilege_count(player, "seal_plus_1", components)
    if not extras and not bonus:
        return []
    out: list[Proposal] = []
    for bonus_tile in ((KINGS, POMPADOUR) if bonus else (KINGS,)):
        sources = _spare_sources(player, extras + [bonus_tile] * bonus, components)
        data: dict[str, Any] = {"kings_chamber_extra": None, "pompadour_extra": None,
                                "seal_bonus": []}
        for (tile, source), is_extra in zip(sources, [True] * len(extras) + [False] * bonus,
                                            strict=False):
            if is_extra:
                data["kings_chamber_extra" if tile == KINGS else "pompadour_extra"] = source
            else:
                data["seal_bonus"].append({"tile": tile, "source": source})
        if sources and _is_legal(state, "court_placements", seat, data, components):
            out.append(("court_placements", data))
    return out


def _spare_sources(player: PlayerState, dests: Sequence[TileId],
                   components: Components) -> list[tuple[TileId, str]]:
    """Sources for placing on each of `dests` in turn: the supply, then spare tiles."""
    supply, court = player.supply, list(player.court)
    out: list[tuple[TileId, str]] = []
    for dest in dests:
        if supply:
            supply -= 1
            out.append((dest, SUPPLY))
            continue
        src = next((t for t in (GATE, CARDINAL)
                    if t != dest and court[components.tile_index[t]] > 0), None)
        if src is None:
            break
        court[components.tile_index[src]] -= 1
        out.append((dest, src))
    return out


def _recruit_options(state: State, seat: Seat, components: Components) -> list[Proposal]:
    closed = close_steps(state, 4, components)
    out: list[Proposal] = []
    for space, noble in zip(components.space_ids, closed.garden, strict=True):
        if noble is None or not _can_afford(closed, seat, space, noble, components):
            continue
        try:
            check_recruit(closed, seat, space, noble, components)
        except IllegalAction:
            continue
        out.append(("recruit_noble", {"space": space, "noble": noble}))
    return out


def _can_afford(state: State, seat: Seat, space: SpaceId, noble_id: NobleId,
                components: Components) -> bool:
    """A quick screen of §5.7 for legal_actions (apply re-checks everything)."""
    noble, player, turn = components.nobles[noble_id], state.players[seat], state.turn
    return (servants_on(player, OFFICE, components) >= 1
            and servants_on(player, POMPADOUR, components) >= noble.purple - turn.bonus_purple
            and servants_on(player, KINGS, components) >= noble.blue - turn.bonus_blue
            and player.gold >= recruit_price(state, space, noble, components))


def _draw_options(state: State, seat: Seat, components: Components) -> list[Proposal]:
    allowance = draw_allowance(state, seat, components)
    if allowance and len(state.deck) + len(state.discard):
        return [("draw_privilege_cards", {"count": allowance})]
    return []


@lru_cache(maxsize=4096)
def _paths_to(layout: tuple[TileId, ...], cols: int, diagonal: bool, target: TileId
              ) -> tuple[list[TileId], dict[TileId, TileId], dict[TileId, int]]:
    """Breadth-first from `target`: tiles nearest first, next hop towards it, distance."""
    positions = {t: divmod(i, cols) for i, t in enumerate(layout)}
    towards, distance, queue = {target: target}, {target: 0}, [target]
    for tile in queue:
        for other in layout:
            if other not in towards and is_adjacent(positions[tile], positions[other],
                                                    diagonal):
                towards[other] = tile
                distance[other] = distance[tile] + 1
                queue.append(other)
    return queue, towards, distance


# ---------------------------------------------------------------------------
# The choices of each action (projections/choices.py): what a person picks, in the order
# a player thinks, each option exactly one that can still complete a legal move
# ---------------------------------------------------------------------------


def _is_active(state: State, actor: Actor) -> bool:
    """The actor is the seat whose turn it is (spec §5: every turn event)."""
    return state.phase == "play" and isinstance(actor, int) and \
        not isinstance(actor, bool) and actor == state.active


def setup_steps(state: State, actor: Actor, made: Made, components: Components) -> Step:
    """The table lays out the court and the garden: chance only (spec §5.1, §9), tapped at
    a table from `chance_slots`, dealt by the server in digital play. The six nobles set
    aside are no tap: once the garden is tapped in they are the nobles left (rulings #11,
    #19), so the move a table records carries them as the digital deal does."""
    if state.phase != "awaiting_setup" or actor != "table":
        return None
    fixed: dict[str, Any] = {"player_count": state.player_count}
    placed = [made.outcomes.get(("garden", s)) for s in components.space_ids]
    if all(isinstance(n, str) for n in placed):
        fixed["set_aside"] = sorted(set(components.nobles) - set(cast(list[str], placed)))
    return Done(fixed)


def initial_placement_steps(state: State, actor: Actor, made: Made,
                            components: Components) -> Step:
    """Spec §5.2: the placing seat puts exactly its free servants on any court tiles, every
    tile allowed. The data is one mapping tile -> count, built as a tally: one tap of a tile
    per servant (docs/rulings/palais_royal.md 23), the court in its reading order."""
    if state.phase != "initial_placement" or actor != placing_seat(state) or \
            isinstance(actor, bool):
        return None
    need = components.free_initial_servants
    if state.players[actor].supply < need:
        return None
    placed = made.tally("placements")
    done = sum(placed.values())
    if done >= need:
        return DONE
    return Choice(("placements",), Mn("Where {player} places {count} servant ({done} of "
                                      "{count} placed)",
                                      "Where {player} places {count} servants ({done} of "
                                      "{count} placed)", need, player=who(state, actor),
                                      done=done),
                  tuple(_tile_option(tile, placed.get(tile, 0), components)
                        for tile in state.court_layout),
                  kind="tally", fewest=need, most=need)


def _tile_option(tile: TileId, placed: int, components: Components) -> Option:
    return Option(tile, opened(the(tile, components)),
                  detail=Mn("{count} servant placed", "{count} servants placed", placed)
                  if placed else "")


def play_privilege_card_steps(state: State, actor: Actor, made: Made,
                              components: Components) -> Step:
    """Spec §5.3: a card of the hand whose window is open and whose cost can be paid (the
    rules themselves judge each), then, for a bonus-seal card, how its seals split."""
    if not _is_active(state, actor):
        return None
    seat = cast(Seat, actor)
    playable = [c for c in state.players[seat].hand.counts() if _playable(state, seat, c,
                                                                           components)]
    if not playable:
        return None
    if not made.has("card"):
        hand = state.players[seat].hand
        return Choice(("card",), M("Which privilege card to play"), tuple(
            Option(c, label(c, components), detail=_card_detail(c, hand.count(c),
                                                                 components))
            for c in playable))
    total = int(components.cards[made.get("card")].effect.get("bonus_seals", 0))
    if not total or made.has("seals"):
        return DONE
    return Choice(("seals",), Mn("How the {count} bonus seal split",
                                 "How the {count} bonus seals split", total),
                  tuple(Option({"blue": b, "purple": total - b}, _seals_words(b, total - b))
                        for b in range(total, -1, -1)))


def _playable(state: State, seat: Seat, card: CardId, components: Components) -> bool:
    total = int(components.cards[card].effect.get("bonus_seals", 0))
    data: dict[str, Any] = {"card": card}
    if total:
        data["seals"] = {"blue": total, "purple": 0}  # every split is judged alike
    return _is_legal(state, "play_privilege_card", seat, data, components)


def _card_detail(card: CardId, held: int, components: Components) -> str:
    cost = components.cards[card].cost
    text = M("costs {cost} gold", cost=cost) if cost else M("free")
    return text if held == 1 else M("{price} · {held} held", price=text, held=held)


def _seals_words(blue: int, purple: int) -> str:
    parts = [seal_count(k, colour) for k, colour in ((blue, "blue"), (purple, "purple")) if k]
    return opened(Seq(parts)) if len(parts) > 1 else opened(parts[0]) if parts else ""


def _source_options(supply: int, court: Sequence[int], dest: TileId, state: State,
                    components: Components) -> list[tuple[str, str, int]]:
    """Spec §4.2: where the next placed servant may come from: the personal supply while
    it holds any, else each other court tile holding one of the player's servants, in the
    court's reading order. (value, words, servants there)."""
    if supply > 0:
        return [(SUPPLY, M("the personal supply"), supply)]
    index = components.tile_index
    return [(t, the(t, components), court[index[t]]) for t in state.court_layout
            if t != dest and court[index[t]] > 0]


def _after_sources(state: State, seat: Seat, placed: Sequence[tuple[TileId, Any]],
                   components: Components) -> tuple[int, list[int]]:
    """The supply and the court once the (destination, source) placements `placed`
    (offered, so valid) are made: a later one may take from an earlier one's tile."""
    supply, court = state.players[seat].supply, list(state.players[seat].court)
    index = components.tile_index
    for dest, source in placed:
        if source == SUPPLY:
            supply -= 1
        else:
            court[index[source]] -= 1
        court[index[dest]] += 1
    return supply, court


def place_at_gate_steps(state: State, actor: Actor, made: Made,
                        components: Components) -> Step:
    """Spec §5.4: step 1, the servants put on the Gate one at a time, each from where §4.2
    allows at that moment, up to the Gate allowance (measured before the first)."""
    if not _is_active(state, actor) or state.turn.open_step > 1:
        return None
    seat = cast(Seat, actor)
    sources = made.picked("sources")
    allowance = None if state.turn.gate_unlimited else gate_allowance(state, seat, components)
    full = allowance is not None and len(sources) >= allowance
    if not made.is_open("sources") or full:
        return Done({"sources": []})
    supply, court = _after_sources(state, seat, [(GATE, s) for s in sources], components)
    options = tuple(Option(value, M("A servant from {source}", source=words),
                           detail=M("{count} there", count=held))
                    for value, words, held in _source_options(supply, court, GATE, state,
                                                              components))
    if not options:
        return Done({"sources": []})
    args = {"gate": the(GATE, components), "done": len(sources)}
    prompt = M("Servants to put on {gate} (as many as you like; {done} so far)", **args) \
        if allowance is None else \
        M("Servants to put on {gate} (up to {most}; {done} so far)", most=allowance, **args)
    return Choice(("sources",), prompt, options, kind="sequence", can_end=True,
                  most=allowance)


def move_servants_steps(state: State, actor: Actor, made: Made,
                        components: Components) -> Step:
    """Spec §5.5: step 2, the moves one at a time, each a servant to a neighbouring tile
    (diagonal with a Diagonal move noble), up to the allowance fixed before the first."""
    if not _is_active(state, actor) or state.turn.open_step > 2:
        return None
    seat = cast(Seat, actor)
    steps = made.picked("steps")
    allowance = move_allowance(state, seat, components)
    if not made.is_open("steps") or len(steps) >= allowance:
        return Done({"steps": []})
    court = list(state.players[seat].court)
    index = components.tile_index
    for step in steps:
        court[index[step["from"]]] -= 1
        court[index[step["to"]]] += 1
    options = tuple(_step_choices(state, seat, court, components))
    if not options:
        return Done({"steps": []})
    return Choice(("steps",), M("Moves ({done} of up to {most} made)", done=len(steps),
                                most=allowance), options,
                  kind="sequence", can_end=True, most=allowance)


def _step_choices(state: State, seat: Seat, court: Sequence[int], components: Components
                  ) -> Iterator[Option]:
    diagonal = owns(state.players[seat], "diagonal_move", components)
    cols = components.grid_cols
    positions = {t: divmod(i, cols) for i, t in enumerate(state.court_layout)}
    index = components.tile_index
    for src in state.court_layout:
        held = court[index[src]]
        if held <= 0:
            continue
        group = Mn("From {tile} ({count} servant)", "From {tile} ({count} servants)", held,
                   tile=the(src, components))
        for dst in state.court_layout:
            if dst != src and is_adjacent(positions[src], positions[dst], diagonal):
                yield Option({"from": src, "to": dst},
                             M("From {src} to {dst}", src=the(src, components),
                               dst=the(dst, components)),
                             group=opened(group))


#: court_placements' data when nothing is placed (spec §5.6)
NO_COURT_PLACEMENTS: Mapping[str, Any] = {"kings_chamber_extra": None,
                                          "pompadour_extra": None, "seal_bonus": []}


def court_placements_steps(state: State, actor: Actor, made: Made,
                           components: Components) -> Step:
    """Spec §5.6, after closing steps 1-2: the King's Chamber extra (with the advantage
    there), the Pompadour extra (likewise; both measured before any placement), then the
    Seal +1 servants one at a time, each with its source under §4.2 in that order.
    Placing none is a legal move too (it closes step 3)."""
    if not _is_active(state, actor) or state.turn.open_step > 3:
        return None
    seat = cast(Seat, actor)
    closed = close_steps(state, 3, components)
    for tile, key in ((KINGS, "kings_chamber_extra"), (POMPADOUR, "pompadour_extra")):
        if not made.has(key) and has_advantage(closed, seat, tile, components):
            return _extra_choice(closed, seat, made, tile, key, components)
    owned = privilege_count(closed.players[seat], "seal_plus_1", components)
    bonus = made.picked("seal_bonus")
    if not owned or not made.is_open("seal_bonus") or len(bonus) >= owned:
        return Done(NO_COURT_PLACEMENTS)
    supply, court = _court_taken(closed, seat, made, components)
    options = tuple(
        Option({"tile": tile, "source": value},
               M("On {tile}, from {source}", tile=the(tile, components), source=words),
               detail=M("{count} there", count=held),
               group=M("On {tile}", tile=the(tile, components)))
        for tile in (KINGS, POMPADOUR)
        for value, words, held in _source_options(supply, court, tile, closed, components))
    if not options:
        return Done(NO_COURT_PLACEMENTS)
    seal = label("seal_plus_1", components)
    return Choice(("seal_bonus",), M("Servants of the {seal} nobles ({done} of up to {most} "
                                     "placed)", seal=seal, done=len(bonus), most=owned),
                  options, kind="sequence", can_end=True, most=owned)


def _extra_choice(closed: State, seat: Seat, made: Made, tile: TileId, key: str,
                  components: Components) -> Choice:
    """The advantage's extra servant on `tile`: none, or one from where §4.2 allows."""
    supply, court = _court_taken(closed, seat, made, components)
    options = [Option(None, M("No extra servant"))] + [
        Option(value, M("One from {source}", source=words), detail=M("{count} there",
                                                                    count=held))
        for value, words, held in _source_options(supply, court, tile, closed, components)]
    return Choice((key,), M("The extra servant on {tile} (advantage)",
                            tile=the(tile, components)),
                  tuple(options))


def _court_taken(closed: State, seat: Seat, made: Made, components: Components
                 ) -> tuple[int, list[int]]:
    """The supply and court once the placements picked so far are made (each source
    offered, so valid)."""
    extras = [(tile, made.get(key)) for tile, key in ((KINGS, "kings_chamber_extra"),
                                                      (POMPADOUR, "pompadour_extra"))]
    placed = [(t, s) for t, s in extras if s is not None] + [
        (e["tile"], e["source"]) for e in made.picked("seal_bonus")]
    return _after_sources(closed, seat, placed, components)


def recruit_noble_steps(state: State, actor: Actor, made: Made,
                        components: Components) -> Step:
    """Spec §5.7, after closing steps 1-3: a noble of the garden the player can recruit
    now (the rule itself judges each), under the heading of what its tile shows; its
    space follows from it, since each noble lies on one space."""
    if not _is_active(state, actor) or state.turn.open_step > 4:
        return None
    seat = cast(Seat, actor)
    closed = close_steps(state, 4, components)
    if made.has("noble"):
        noble = made.get("noble")
        return Done({"space": components.space_ids[closed.garden.index(noble)]})
    options = tuple(_recruit_options_in_words(closed, seat, components))
    if not options:
        return None
    return Choice(("noble",), M("Which noble to recruit"), options)


def _recruit_options_in_words(closed: State, seat: Seat, components: Components
                              ) -> Iterator[Option]:
    where = dict(zip(closed.garden, components.space_ids, strict=True))
    for group, noble in _nobles_by_look(components):
        space = where.get(noble)
        if space is None:
            continue
        try:
            _, price = check_recruit(closed, seat, space, noble, components)
        except IllegalAction:
            continue
        yield Option(noble, label(noble, components),
                     detail=M("{space} · {price} gold here", space=label(space, components),
                              price=price), group=group)


@lru_cache(maxsize=16)
def _nobles_by_look(components: Components) -> tuple[tuple[str, NobleId], ...]:
    """Every noble with its heading, in the order of the setup's groups (chance.py: by
    privilege icon, or by the points of a tile without one)."""
    return tuple((opened(g["label"]), str(noble))
                 for g in noble_groups(components) for item in g["items"]
                 for noble in item["values"])


def draw_privilege_cards_steps(state: State, actor: Actor, made: Made,
                               components: Components) -> Step:
    """Spec §5.8: how many cards to draw, from none up to the Back Door allowance (the
    cards themselves are chance: tapped at a table, dealt in digital play)."""
    if not _is_active(state, actor) or state.turn.open_step > 4:
        return None
    if made.has("count"):
        return DONE
    allowance = draw_allowance(state, cast(Seat, actor), components)
    pile = len(state.deck) + len(state.discard)
    return Choice(("count",), M("How many privilege cards to draw (up to {most})",
                                most=allowance),
                  tuple(Option(k, Mn("{count} card", "{count} cards", k) if k
                               else M("No cards"),
                               detail="" if k <= pile else M("{count} left to draw", count=pile))
                        for k in range(allowance, -1, -1)))


def keep_privilege_cards_steps(state: State, actor: Actor, made: Made,
                               components: Components) -> Step:
    """Spec §5.9: the drawn cards kept, one pick at a time, each returning a servant from
    the Back Door; keeping none is allowed."""
    if not _is_active(state, actor) or not state.turn.pending:
        return None
    seat = cast(Seat, actor)
    room = min(servants_on(state.players[seat], BACK_DOOR, components),
               len(state.turn.pending))
    kept = made.picked("kept")
    if not made.is_open("kept") or len(kept) >= room:
        return Done({"kept": []})
    left = Counter(state.turn.pending)
    left.subtract(kept)
    order = list(components.cards)
    options = tuple(Option(c, label(c, components),
                           detail="" if left[c] == 1 else M("{count} drawn", count=left[c]))
                    for c in sorted(left, key=order.index) if left[c] > 0)
    return Choice(("kept",), M("Privilege cards to keep ({done} of up to {most})",
                               done=len(kept), most=room),
                  options, kind="subset", can_end=True, most=room)


def end_turn_steps(state: State, actor: Actor, made: Made, components: Components) -> Step:
    """Spec §5.10: once no drawn card waits to be kept."""
    return DONE if _is_active(state, actor) and not state.turn.pending else None
