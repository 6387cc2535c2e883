"""Palais Royal legal actions: a finite, representative subset that keeps random play
productive (see `LegalActions.legal_actions`)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import cached_property, lru_cache
from itertools import combinations
from typing import Any

from .palais_royal_state import (
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
    NobleId,
    PlayerState,
    Seat,
    SpaceId,
    State,
    TileId,
)
from .rules import Action, IllegalAction


class LegalActions:
    """Mixin of PalaisRoyal: `legal_actions` and its helpers."""

    # -- legal actions ------------------------------------------------------
    def legal_actions(self, state: State, seat: Any = None) -> list[dict[str, Any]]:
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
        actors = self.to_act(state)
        if seat is not None and (isinstance(seat, bool) or seat not in actors):
            return []
        if state.phase == "awaiting_setup":
            return [self.auto_action(state)]  # type: ignore[list-item]
        if state.phase == "initial_placement":
            return self._legal_initial(state)
        if state.phase != "play":
            return []
        return self._legal_turn(state)

    @cached_property
    def _useful_tiles(self) -> tuple[TileId, ...]:
        return (OFFICE, MINT, POMPADOUR, KINGS, BACK_DOOR, PARADE, STAIRWAY)

    @cached_property
    def _spare_tiles(self) -> tuple[TileId, ...]:
        """Tiles listed moves and placements take servants from first."""
        return (GATE, CARDINAL, BACK_DOOR, MINT)

    @cached_property
    def _reserve(self) -> dict[TileId, int]:
        """Servants listed moves always leave in place, so random play keeps its engines."""
        return {PARADE: 1, STAIRWAY: 1}

    def _legal_initial(self, state: State) -> list[dict[str, Any]]:
        seat = self._placing_seat(state)
        need = int(self._setup_value("free_initial_servants"))
        options: list[dict[str, int]] = [{t: need} for t in self.tile_ids]
        width = min(need, len(self._useful_tiles))
        for combo in combinations(self._useful_tiles, width):
            spread = dict.fromkeys(combo, 1)
            spread[combo[0]] += need - width
            options.append(spread)
        return [{"type": "initial_placement", "actor": seat, "data": {"placements": o}}
                for o in options]

    def _legal_turn(self, state: State) -> list[dict[str, Any]]:
        seat, turn = state.active, state.turn
        found = [("play_privilege_card", d) for d in self._card_options(state, seat)]
        if turn.pending:
            found += [("keep_privilege_cards", d) for d in self._keep_options(state, seat)]
        else:
            found += self._step_options(state, seat)
        return [{"type": t, "actor": seat, "data": d} for t, d in found]

    def _step_options(self, state: State, seat: Seat) -> list[tuple[str, dict[str, Any]]]:
        """The listed actions of the earliest open step that has any (skipping is implied)."""
        step = state.turn.open_step
        groups = [
            (1, lambda: self._gate_options(state, seat)),
            (2, lambda: [("move_servants", d) for d in self._move_options(state, seat)]),
            (3, lambda: self._court_options(state, seat)),
        ]
        for number, options in groups:
            found = options() if step <= number else []
            if found:
                return found
        found = self._recruit_options(state, seat) if step <= 4 else []
        found += self._draw_options(state, seat) if step <= 4 else []
        return [*found, ("end_turn", {})]

    def _is_legal(self, state: State, type_: str, seat: Seat, data: Mapping[str, Any]) -> bool:
        try:
            self.apply(state, Action.of(type_, seat, data))
        except IllegalAction:
            return False
        return True

    def _card_options(self, state: State, seat: Seat) -> list[dict[str, Any]]:
        out: list[dict[str, Any]] = []
        for name in state.players[seat].hand.counts():
            total = int(self.cards[name].effect.get("bonus_seals", 0))
            datas = [{"card": name, "seals": {"blue": b, "purple": total - b}}
                     for b in range(total + 1)] if total else [{"card": name}]
            out += [d for d in datas if self._is_legal(state, "play_privilege_card", seat, d)]
        return out

    def _keep_options(self, state: State, seat: Seat) -> list[dict[str, Any]]:
        pending = list(state.turn.pending)
        room = self._count(state.players[seat], BACK_DOOR)
        keeps: list[list[CardId]] = [[]]
        if room:
            keeps += [[c] for c in sorted(set(pending))]
            keeps.append(pending[:room])
        unique = {tuple(sorted(k)): k for k in keeps}
        return [{"kept": k} for k in unique.values()]

    def _gate_options(self, state: State, seat: Seat) -> list[tuple[str, dict[str, Any]]]:
        supply = state.players[seat].supply
        k = supply if state.turn.gate_unlimited else min(supply,
                                                         self.gate_allowance(state, seat))
        return [("place_at_gate", {"sources": [SUPPLY] * k})] if k else []

    def _move_options(self, state: State, seat: Seat) -> list[dict[str, Any]]:
        allowance = self.move_allowance(state, seat)
        if not allowance:
            return []
        plans: dict[tuple[tuple[str, str], ...], None] = {}
        for target in self._useful_tiles:
            plan = self._walk_to(state, seat, target, allowance)
            if plan:
                plans[tuple(plan)] = None
        return [{"steps": [{"from": a, "to": b} for a, b in plan]} for plan in plans]

    def _walk_to(self, state: State, seat: Seat, target: TileId,
                 allowance: int) -> list[tuple[str, str]]:
        """Moves that bring the nearest spare servants to `target` along shortest paths."""
        diagonal = self._owns(state.players[seat], "diagonal_move")
        queue, towards, distance = _paths_to(state.court_layout, self.grid_cols, diagonal,
                                             target)
        court = list(state.players[seat].court)
        steps: list[tuple[str, str]] = []
        while True:
            left = allowance - len(steps)
            movable = [t for t in queue[1:] if court[self.tile_index[t]] > self._reserve.get(t, 0)
                       and (distance[t] <= left or not steps)]
            if not movable or not left:
                break
            # spare tiles first, then the fullest tile, then the nearest
            src = min(movable, key=lambda t: (t not in self._spare_tiles,
                                              -court[self.tile_index[t]], distance[t]))
            court[self.tile_index[src]] -= 1
            here = src
            while here != target and len(steps) < allowance:  # partly only if none fits
                steps.append((here, towards[here]))
                here = towards[here]
            court[self.tile_index[here]] += 1
        return steps

    def _court_options(self, state: State, seat: Seat) -> list[tuple[str, dict[str, Any]]]:
        player = state.players[seat]
        extras = [t for t in (KINGS, POMPADOUR) if self.has_advantage(state, seat, t)]
        bonus = self._privilege_count(player, "seal_plus_1")
        if not extras and not bonus:
            return []
        out = []
        for bonus_tile in ((KINGS, POMPADOUR) if bonus else (KINGS,)):
            wanted = extras + [bonus_tile] * bonus
            sources = self._spare_sources(player, wanted)
            data: dict[str, Any] = {"kings_chamber_extra": None, "pompadour_extra": None,
                                    "seal_bonus": []}
            for (tile, source), is_extra in zip(sources, [True] * len(extras) + [False] * bonus,
                                                strict=False):
                if is_extra:
                    data["kings_chamber_extra" if tile == KINGS else "pompadour_extra"] = source
                else:
                    data["seal_bonus"].append({"tile": tile, "source": source})
            if sources and self._is_legal(state, "court_placements", seat, data):
                out.append(("court_placements", data))
        return out

    def _spare_sources(self, player: PlayerState,
                       dests: Sequence[TileId]) -> list[tuple[TileId, str]]:
        """Sources for placing on each of `dests` in turn: the supply, then spare tiles."""
        supply, court, out = player.supply, list(player.court), []
        for dest in dests:
            if supply:
                supply -= 1
                out.append((dest, SUPPLY))
                continue
            src = next((t for t in (GATE, CARDINAL)
                        if t != dest and court[self.tile_index[t]] > 0), None)
            if src is None:
                break
            court[self.tile_index[src]] -= 1
            out.append((dest, src))
        return out

    def _recruit_options(self, state: State, seat: Seat) -> list[tuple[str, dict[str, Any]]]:
        closed = self._close_steps(state, 4)
        out = []
        for space, noble in zip(self.space_ids, closed.garden, strict=True):
            if noble is None or not self._can_afford(closed, seat, space, noble):
                continue
            try:
                self._check_recruit(closed, seat, space, noble)
            except IllegalAction:
                continue
            out.append(("recruit_noble", {"space": space, "noble": noble}))
        return out

    def _can_afford(self, state: State, seat: Seat, space: SpaceId, noble_id: NobleId) -> bool:
        """A quick screen of §5.7 for legal_actions (apply re-checks everything)."""
        noble, player, turn = self.nobles[noble_id], state.players[seat], state.turn
        return (self._count(player, OFFICE) >= 1
                and self._count(player, POMPADOUR) >= noble.purple - turn.bonus_purple
                and self._count(player, KINGS) >= noble.blue - turn.bonus_blue
                and player.gold >= self.recruit_price(state, space, noble))

    def _draw_options(self, state: State, seat: Seat) -> list[tuple[str, dict[str, Any]]]:
        allowance = self.draw_allowance(state, seat)
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
            if other not in towards and _is_adjacent(positions[tile], positions[other],
                                                     diagonal):
                towards[other] = tile
                distance[other] = distance[tile] + 1
                queue.append(other)
    return queue, towards, distance


def _is_adjacent(a: tuple[int, int], b: tuple[int, int], diagonal: bool) -> bool:
    """Spec §2.1: orthogonal neighbours differ by 1 in one coordinate; diagonal in both."""
    dr, dc = abs(a[0] - b[0]), abs(a[1] - b[1])
    return dr + dc == 1 or (diagonal and dr == 1 and dc == 1)
