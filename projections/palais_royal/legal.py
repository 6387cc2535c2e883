"""Who acts now in Palais Royal and what they may do: a finite, representative subset of
the legal actions that keeps random play productive (see `legal_actions`)."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from functools import lru_cache
from itertools import combinations
from typing import Any

from ..rules import Action, Actor, IllegalAction, Seat
from .apply import (
    APPLY,
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
    """A finite, representative subset of the legal actions; every one applies.

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


def _is_legal(state: State, type_: str, seat: Seat, data: Mapping[str, Any],
              components: Components) -> bool:
    try:
        APPLY[type_](state, Action.of(type_, seat, data), components)
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
