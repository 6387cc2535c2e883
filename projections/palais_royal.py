"""Palais Royal (Xavier Georges, Hans im Glück 2008; English edition Royal Palace).

Spec: shared/games/palais_royal.md (data: data/palais_royal.json; seed text
seeds/004_3341a1aacc65eba1.txt). Players: 2-4, seats 0..n-1 clockwise.
Actions: `setup` (actor "table"; chance: court_layout, garden, set_aside, start_player),
`initial_placement`, `play_privilege_card`, `place_at_gate`, `move_servants`,
`court_placements`, `recruit_noble`, `draw_privilege_cards` (chance: cards),
`keep_privilege_cards`, `end_turn`.

Every number (costs, points, allowances, setup counts, scoring values, the garden
geometry) is read from the edition. Rulings are listed in docs/rulings/palais_royal.md.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import replace
from functools import cached_property
from typing import Any, ClassVar

from marshmallow import Schema, ValidationError

from .palais_royal_legal import LegalActions, _is_adjacent
from .palais_royal_schemas import (
    CourtPlacementsData,
    DrawPrivilegeCardsData,
    EndTurnData,
    InitialPlacementData,
    KeepPrivilegeCardsData,
    MoveServantsData,
    PlaceAtGateData,
    PlayPrivilegeCardData,
    RecruitNobleData,
    SetupData,
    _Edition,
)
from .palais_royal_scoring import ScoringAndViews
from .palais_royal_state import (
    BACK_DOOR,
    CARDINAL,
    DONE,
    GATE,
    KINGS,
    MINT,
    OFFICE,
    PARADE,
    POMPADOUR,
    STAIRWAY,
    SUPPLY,
    CardId,
    CardType,
    Noble,
    NobleId,
    PlayerState,
    Seat,
    SpaceId,
    State,
    TileId,
    Turn,
)
from .rules import (
    ALL,
    Action,
    Bag,
    Dealer,
    GameRules,
    IllegalAction,
    Viewer,
    require,
    thaw,
    with_item,
)

__all__ = ["DONE", "PalaisRoyal", "PlayerState", "State", "Turn"]


def _fail(code: str, message: str, **details: Any) -> IllegalAction:
    return IllegalAction(code, message, **details)


class PalaisRoyal(LegalActions, ScoringAndViews, GameRules):
    slug: ClassVar[str] = "palais_royal"
    title: ClassVar[str] = "Palais Royal"
    player_counts: ClassVar[tuple[int, ...]] = (2, 3, 4)
    rules_version: ClassVar[str] = "1"
    action_schemas: ClassVar[Mapping[str, type[Schema]]] = {
        "setup": SetupData,
        "initial_placement": InitialPlacementData,
        "play_privilege_card": PlayPrivilegeCardData,
        "place_at_gate": PlaceAtGateData,
        "move_servants": MoveServantsData,
        "court_placements": CourtPlacementsData,
        "recruit_noble": RecruitNobleData,
        "draw_privilege_cards": DrawPrivilegeCardsData,
        "keep_privilege_cards": KeepPrivilegeCardsData,
        "end_turn": EndTurnData,
    }
    chance_fields: ClassVar[Mapping[str, tuple[str, ...]]] = {
        "setup": ("court_layout", "garden", "set_aside", "start_player"),
        "draw_privilege_cards": ("cards",),
    }
    default_options: ClassVar[Mapping[str, Any]] = {}
    # keeping turns the unkept cards face up on the discard pile (spec §5.9): undoing it
    # would hide again what every seat has seen
    never_undoable: ClassVar[frozenset[str]] = frozenset({"keep_privilege_cards"})

    # -- edition ------------------------------------------------------------
    @classmethod
    def check_edition_content(cls, content: Mapping[str, Any]) -> list[str]:
        try:
            _Edition().load(dict(content))
        except ValidationError as err:
            return [f"{key}: {msg}" for key, msg in sorted(err.normalized_messages().items())]
        problems = []
        tiles = {t["id"] for t in content["court"]["tiles"]}
        missing = {GATE, PARADE, STAIRWAY, MINT, KINGS, POMPADOUR, OFFICE, BACK_DOOR,
                   CARDINAL} - tiles
        if missing:
            problems.append(f"court.tiles lacks {sorted(missing)}")
        grid = content["court"]["grid"]
        if grid["rows"] * grid["cols"] != len(tiles):
            problems.append("court.grid rows x cols must equal the number of tiles")
        if content["nobles_placed"] != len(content["garden"]["spaces"]):
            problems.append("nobles_placed must equal the number of garden spaces")
        if content["nobles_placed"] > len(content["nobles"]):
            problems.append("fewer nobles than garden spaces")
        return problems

    @cached_property
    def tile_ids(self) -> tuple[TileId, ...]:
        return tuple(t["id"] for t in self.edition["court"]["tiles"])

    @cached_property
    def tile_index(self) -> dict[TileId, int]:
        return {t: i for i, t in enumerate(self.tile_ids)}

    @cached_property
    def grid_cols(self) -> int:
        return int(self.edition["court"]["grid"]["cols"])

    @cached_property
    def advantage_bonus(self) -> dict[TileId, int]:
        """Extra gate servants / moves / gold / servants for the advantage (spec §2.1).

        Read from `advantage_bonus` when the edition gives it, else from the number printed
        in the tile's advantage text ("+1 gold", "1 extra servant"); no text: no bonus.
        (docs/rulings/palais_royal.md #4)
        """
        out = {}
        for tile in self.edition["court"]["tiles"]:
            if "advantage_bonus" in tile:
                out[tile["id"]] = int(tile["advantage_bonus"])
                continue
            match = re.search(r"\+(\d+)|(\d+) extra", tile.get("advantage") or "")
            out[tile["id"]] = int(match.group(1) or match.group(2)) if match else 0
        return out

    @cached_property
    def privilege_amount(self) -> dict[str, int]:
        """How much each noble privilege gives: `amount`, else the `_plus_N` of its id
        (rulings #4)."""
        out = {}
        for priv in self.edition["noble_privileges"]:
            match = re.search(r"_(\d+)$", priv["id"])
            out[priv["id"]] = int(priv.get("amount", match.group(1) if match else 1))
        return out

    @cached_property
    def nobles(self) -> dict[NobleId, Noble]:
        return {n["id"]: Noble(n["id"], int(n["gold"]), int(n["purple"]), int(n["blue"]),
                               int(n["points"]), n.get("privilege"))
                for n in self.edition["nobles"]}

    @cached_property
    def cards(self) -> dict[CardId, CardType]:
        out = {}
        for c in self.edition["privilege_cards"]:
            window = frozenset(DONE if s == "done" else int(s) for s in c["window_open_steps"])
            out[c["id"]] = CardType(c["id"], int(c["count"]), int(c["cost"]), window,
                                    dict(c["effect_data"]), c["goes_to"] == "played_area")
        return out

    @cached_property
    def space_ids(self) -> tuple[SpaceId, ...]:
        return tuple(s["id"] for s in self.edition["garden"]["spaces"])

    @cached_property
    def space_index(self) -> dict[SpaceId, int]:
        return {s: i for i, s in enumerate(self.space_ids)}

    @cached_property
    def space_weight(self) -> dict[SpaceId, int]:
        return {s["id"]: int(s["edge_weight"]) for s in self.edition["garden"]["spaces"]}

    @cached_property
    def edge_spaces(self) -> frozenset[SpaceId]:
        """Corners, edge and protruding spaces: a recruit there leaves a servant (§5.7e)."""
        return frozenset(s["id"] for s in self.edition["garden"]["spaces"] if s["edges"])

    @cached_property
    def garden_neighbours(self) -> dict[SpaceId, tuple[SpaceId, ...]]:
        return {k: tuple(v) for k, v in self.edition["garden"]["adjacency"].items()}

    @cached_property
    def edges(self) -> dict[str, tuple[SpaceId, ...]]:
        return {k: tuple(v) for k, v in self.edition["garden"]["edges"].items()}

    def _setup_value(self, key: str) -> Any:
        return self.edition["setup"][key]

    @cached_property
    def per_colour(self) -> int:
        return int(self.edition["servants"]["per_colour"])

    # -- protocol -----------------------------------------------------------
    def initial_state(self, created: Mapping[str, Any]) -> State:
        """Before the setup event: only the player count is known."""
        return State(phase="awaiting_setup", player_count=len(created["players"]))

    def apply(self, state: State, action: Action) -> State:
        """Check and apply one action (spec §5), or raise IllegalAction naming the rule."""
        handler = self._handlers.get(action.type)
        if handler is None:
            raise _fail("unknown_action", f"palais_royal has no action {action.type!r}; it "
                        f"knows {', '.join(self.action_schemas)}", type=action.type)
        return handler(state, action)

    @cached_property
    def _handlers(self) -> dict[str, Any]:
        return {name: getattr(self, f"_apply_{name}") for name in self.action_schemas}

    def to_act(self, state: State) -> tuple[Any, ...]:
        if state.phase == "awaiting_setup":
            return ("table",)
        if state.phase == "initial_placement":
            return (self._placing_seat(state),)
        if state.phase == "play":
            return (state.active,)
        return ()

    def auto_action(self, state: State) -> dict[str, Any] | None:
        if state.phase == "awaiting_setup":
            return {"type": "setup", "actor": "table",
                    "data": {"player_count": state.player_count}}
        return None

    def fill_chance(self, state: State, action: Action, dealer: Dealer) -> dict[str, Any]:
        data = _plain(action.data)
        if action.type == "setup":
            order = dealer.shuffled(self.nobles)
            placed = len(self.space_ids)
            data["garden"] = dict(zip(self.space_ids, order[:placed], strict=True))
            data["set_aside"] = sorted(order[placed:])
            data["court_layout"] = dealer.shuffled(self.tile_ids)
            data["start_player"] = dealer.below(state.player_count)
        elif action.type == "draw_privilege_cards":
            wanted = min(max(0, _as_int(data.get("count", 0))),
                         len(state.deck) + len(state.discard))
            cards = dealer.shuffled(state.deck)[:wanted]
            if wanted > len(cards):  # the discard pile becomes the new draw pile (§5.8)
                cards += dealer.shuffled(state.discard)[: wanted - len(cards)]
            data["cards"] = cards
        return data

    def chance_slots(self, state: State, action: Action) -> list[dict[str, Any]]:
        """Table mode: the setup is picked position by position (each court position, each
        garden space, then the start player; `set_aside` is left out, the reducer derives it
        from the garden, rulings #11); a draw is the cards in the order turned up."""
        if action.type == "setup":
            return self._setup_slots(state)
        if action.type == "draw_privilege_cards":
            return self._draw_slots(state, action.data.get("count"))
        return []

    def _setup_slots(self, state: State) -> list[dict[str, Any]]:
        # one pool per field: the 9 court tiles, the 42 nobles, the seats (no value is in
        # two of them, so the client's shared subtraction never mixes them)
        tiles, nobles = sorted(self.tile_ids), sorted(self.nobles)
        cols = self.grid_cols  # the layout is row-major (spec §2.1)
        slots = [_slot("court_layout", [i], tiles,
                       f"court tile in row {i // cols + 1}, column {i % cols + 1}")
                 for i in range(len(self.tile_ids))]
        slots += [_slot("garden", [s["id"]], nobles,
                        f"noble on garden row {int(s['row']) + 1}, column {int(s['col']) + 1}")
                  for s in self.edition["garden"]["spaces"]]
        slots.append(_slot("start_player", [], list(range(state.player_count)),
                           "start player (seat number)"))
        return slots

    def _draw_slots(self, state: State, count: Any) -> list[dict[str, Any]]:
        """Spec §5.8: the cards come off the draw pile; when it runs out the discard pile
        becomes the draw pile, so a draw across the reshuffle takes all of the pile first.

        Within the pile (or within the discard) a single ordered pick; across the reshuffle
        one slot per card, pile cards first. The client subtracts picks across all slots,
        and a card type may lie in both piles, so the discard-part slots offer the pile's
        cards too: once the pile's slots are filled, exactly the discard pile is left."""
        if not isinstance(count, int) or isinstance(count, bool) or count < 0:
            return []
        deck, discard = sorted(state.deck), sorted(state.discard)
        wanted = min(count, len(deck) + len(discard))
        if wanted <= len(deck) or not deck:
            return [_slot("cards", [], deck if deck else discard,
                          "privilege cards drawn, in the order turned up", many=True,
                          count=wanted)]
        both = sorted(deck + discard)
        return [_slot("cards", [i], deck if i < len(deck) else both,
                      f"privilege card {i + 1} of {wanted}, " + (
                          "from the draw pile" if i < len(deck)
                          else "from the reshuffled discard pile"))
                for i in range(wanted)]

    def redact(self, action: Action, seat: Viewer, state_before: State) -> dict[str, Any] | None:
        # spec §8: drawn and kept privilege cards are the drawer's secret (rulings #13);
        # the setup's set_aside is the complement of the public garden (rulings #11)
        if seat == ALL or seat == action.actor:
            return None
        if action.type == "draw_privilege_cards":
            return {"count": action.data.get("count"),
                    "drawn_count": len(action.data.get("cards", ()))}
        if action.type == "keep_privilege_cards":
            return {"kept_count": len(action.data.get("kept", ()))}
        return None

    def describe(self, action: Action, names: Sequence[str] = ()) -> str:
        d = action.data
        texts = {
            "setup": lambda: "laid out the court and the garden",
            "initial_placement": lambda: "placed " + ", ".join(
                f"{n} on {t}" for t, n in sorted(d.get("placements", {}).items())),
            "play_privilege_card": lambda: f"played the privilege card {d.get('card')}",
            "place_at_gate": lambda: f"put {len(d.get('sources', ()))} servants on the Gate",
            "move_servants": lambda: f"made {len(d.get('steps', ()))} moves",
            "court_placements": lambda: "placed extra servants on the seal tiles",
            "recruit_noble": lambda: f"recruited noble {d.get('noble')} from {d.get('space')}",
            "draw_privilege_cards": lambda: f"drew {len(d.get('cards', ()))} privilege cards",
            "keep_privilege_cards": lambda: f"kept {len(d.get('kept', ()))} privilege cards",
            "end_turn": lambda: "ended the turn",
        }
        text = texts.get(action.type, lambda: action.type.replace("_", " "))()
        who = f"seat {action.actor}" if isinstance(action.actor, int) else str(action.actor)
        return f"{who} {text}"

    # -- handlers: setup ----------------------------------------------------
    def _apply_setup(self, state: State, action: Action) -> State:
        require(action.actor == "table", "not_your_turn",
                f"the setup is the table's action, not {action.actor!r}'s")
        require(state.phase == "awaiting_setup", "game_already_set_up",
                "setup must be the first event; the game is already set up")
        d = action.data
        n = state.player_count
        count = d.get("player_count")
        # review ruling 5: setup must agree with game_created
        require(count == n, "player_count_mismatch",
                f"the game was created for {n} players; setup says {count!r}", expected=n)
        start = d.get("start_player")
        require(isinstance(start, int) and 0 <= start < n, "bad_start_player",
                f"start_player must be a seat from 0 to {n - 1}, not {start!r}")
        layout = tuple(d.get("court_layout") or ())
        require(sorted(layout) == sorted(self.tile_ids), "bad_court_layout",
                f"court_layout must be a permutation of the {len(self.tile_ids)} court tiles "
                f"({', '.join(self.tile_ids)}); got {list(layout)}")
        garden = self._check_garden(d.get("garden") or {})
        set_aside = self._check_set_aside(d.get("set_aside"), garden)
        return self._set_up(state, start, layout, garden, set_aside)

    def _check_garden(self, garden: Mapping[str, Any]) -> tuple[NobleId, ...]:
        require(set(garden) == set(self.space_ids), "bad_garden",
                f"the garden must name a noble for each of its {len(self.space_ids)} spaces; "
                f"missing {sorted(set(self.space_ids) - set(garden))}, "
                f"unknown {sorted(set(garden) - set(self.space_ids))}")
        placed = tuple(garden[s] for s in self.space_ids)
        for noble in placed:
            require(noble in self.nobles, "unknown_noble", f"{noble!r} is not a noble tile",
                    noble=noble)
        dupes = sorted(k for k, v in Counter(placed).items() if v > 1)
        require(not dupes, "bad_garden", f"each noble lies on one space only; {dupes} repeat")
        return placed

    def _check_set_aside(self, given: Any, placed: tuple[NobleId, ...]) -> tuple[NobleId, ...]:
        rest = tuple(sorted(set(self.nobles) - set(placed)))
        if given is not None:
            require(sorted(given) == list(rest), "bad_set_aside",
                    f"set_aside must be exactly the nobles not placed ({', '.join(rest)}); "
                    f"got {list(given)}")
        return rest

    def _set_up(self, state: State, start: int, layout: tuple[TileId, ...],
                garden: tuple[NobleId, ...], set_aside: tuple[NobleId, ...]) -> State:
        """Spec §3 steps 3-6: deck, servants, fixed placement, starting gold."""
        n = state.player_count
        fixed = self._setup_value("fixed_initial_servants")
        court = [0] * len(self.tile_ids)
        for tile, k in fixed.items():
            court[self.tile_index[tile]] += int(k)
        supply = int(self.edition["servants"]["personal_at_start"]) - sum(court)
        gold_by_order = self._setup_value("starting_gold_by_player_count")[str(n)]
        players = tuple(
            PlayerState(gold=int(gold_by_order[(seat - start) % n]), supply=supply,
                        general=int(self.edition["servants"]["general_supply_per_colour"]),
                        court=tuple(court))
            for seat in range(n))
        deck = Bag({c.id: c.count for c in self.cards.values()})
        return replace(state, phase="initial_placement", players=players, court_layout=layout,
                       garden=garden, garden_servants=(None,) * len(garden),
                       set_aside=set_aside, deck=deck, start_player=start, active=start)

    def _placing_seat(self, state: State) -> Seat:
        return (state.start_player + state.placements_done) % state.player_count

    def _apply_initial_placement(self, state: State, action: Action) -> State:
        self._require_not_over(state)
        require(state.phase == "initial_placement", "wrong_phase",
                f"initial placements happen after setup and before round 1; phase is "
                f"{state.phase}")
        seat = self._require_actor(action, self._placing_seat(state), "place 5 servants")
        placements = action.data.get("placements") or {}
        need = int(self._setup_value("free_initial_servants"))
        for tile, k in placements.items():
            self._require_tile(tile)
            require(isinstance(k, int) and k > 0, "bad_placement",
                    f"each placement count must be a positive whole number; {tile} has {k!r}")
        total = sum(placements.values())
        require(total == need, "wrong_placement_total",
                f"each player places exactly {need} servants at setup; you placed {total}",
                placed=total)
        player = state.players[seat]
        require(player.supply >= total, "supply_empty",
                f"you place {total} servants but your supply holds {player.supply}")
        court = list(player.court)
        for tile, k in placements.items():
            court[self.tile_index[tile]] += k
        player = replace(player, supply=player.supply - total, court=tuple(court))
        state = replace(state, players=with_item(state.players, seat, player),
                        placements_done=state.placements_done + 1)
        if state.placements_done == state.player_count:
            state = replace(state, phase="play", round=1, active=state.start_player,
                            turn=Turn())
        return state

    # -- handlers: the turn -------------------------------------------------
    def _apply_play_privilege_card(self, state: State, action: Action) -> State:
        seat = self._require_turn(state, action, "play a privilege card")
        name = action.data.get("card")
        card = self.cards.get(name)  # type: ignore[arg-type]
        require(card is not None, "unknown_card",
                f"{name!r} is not a privilege card; they are {', '.join(self.cards)}")
        assert card is not None
        require(state.players[seat].hand.count(card.id) > 0, "card_not_in_hand",
                f"you hold no {card.id} card", card=card.id)
        require(state.turn.open_step in card.window, "card_window_closed",
                f"{card.id} may be played only while step {self._window_text(card)} is open; "
                f"now {self._step_text(state.turn.open_step)}", card=card.id)
        seals = self._card_seals(card, action.data.get("seals"))
        if "closes_steps_through" in card.effect:  # spec §5.3: seals_plus_2 closes 1-3 first
            state = self._close_steps(state, int(card.effect["closes_steps_through"]) + 1)
        player = state.players[seat]
        require(player.gold >= card.cost, "not_enough_gold",
                f"{card.id} costs {card.cost} gold; you have {player.gold}", cost=card.cost)
        player = replace(player, gold=player.gold - card.cost + int(card.effect.get("gold", 0)),
                         hand=player.hand.take([card.id]))
        discard = state.discard
        if card.to_played_area:
            player = replace(player, played=(*player.played, card.id))
        else:
            discard = discard.add([card.id])
        state = replace(state, players=with_item(state.players, seat, player), discard=discard)
        return replace(state, turn=self._card_effect(state.turn, card, seals))

    def _card_seals(self, card: CardType, seals: Any) -> tuple[int, int]:
        total = int(card.effect.get("bonus_seals", 0))
        if not total:
            require(seals is None, "seals_not_allowed",  # rulings #5
                    f"only a bonus-seal card takes a seals split; {card.id} does not")
            return 0, 0
        blue, purple = (seals or {}).get("blue"), (seals or {}).get("purple")
        require(isinstance(blue, int) and isinstance(purple, int) and blue >= 0 and purple >= 0
                and blue + purple == total, "bad_seals",
                f"{card.id} gives {total} bonus seals: declare blue and purple (each 0 or more) "
                f"adding up to {total}; got blue={blue!r}, purple={purple!r}")
        return blue, purple  # type: ignore[return-value]

    def _card_effect(self, turn: Turn, card: CardType, seals: tuple[int, int]) -> Turn:
        e = card.effect
        return replace(
            turn,
            cardinal_active=turn.cardinal_active or bool(e.get("cardinal_active")),
            gate_unlimited=turn.gate_unlimited or bool(e.get("gate_unlimited")),
            gate_bonus=turn.gate_bonus + int(e.get("gate_bonus", 0)),
            move_bonus=turn.move_bonus + int(e.get("move_bonus", 0)),
            bonus_blue=turn.bonus_blue + seals[0],
            bonus_purple=turn.bonus_purple + seals[1],
        )

    def _apply_place_at_gate(self, state: State, action: Action) -> State:
        seat = self._require_turn(state, action, "place servants on the Gate")
        self._require_step(state, 1, "placing servants on the Gate")
        sources = list(action.data.get("sources") or ())
        allowance = self.gate_allowance(state, seat)
        if not state.turn.gate_unlimited:
            require(len(sources) <= allowance, "too_many_servants",
                    f"your Gate allowance is {allowance} (Parade Ground servants, advantage, "
                    f"nobles and cards); you placed {len(sources)}",
                    allowance=allowance, placed=len(sources))
        player = self._place(state.players[seat], GATE, sources)
        state = replace(state, players=with_item(state.players, seat, player))
        return replace(state, turn=replace(state.turn, open_step=2))

    def _apply_move_servants(self, state: State, action: Action) -> State:
        seat = self._require_turn(state, action, "move servants")
        self._require_step(state, 2, "moving servants")
        steps = list(action.data.get("steps") or ())
        allowance = self.move_allowance(state, seat)  # fixed before the first step (§5.5)
        require(len(steps) <= allowance, "too_many_moves",
                f"your move allowance is {allowance} (Stairway servants, advantage, nobles and "
                f"cards); you made {len(steps)} moves", allowance=allowance, moves=len(steps))
        court = list(state.players[seat].court)
        diagonal = self._owns(state.players[seat], "diagonal_move")
        positions = self._positions(state)
        for number, step in enumerate(steps, 1):
            self._check_step(court, step, positions, diagonal, number)
            court[self.tile_index[step["from"]]] -= 1
            court[self.tile_index[step["to"]]] += 1
        player = replace(state.players[seat], court=tuple(court))
        state = replace(state, players=with_item(state.players, seat, player))
        return self._close_steps(state, 3)

    def _check_step(self, court: list[int], step: Mapping[str, Any],
                    positions: Mapping[TileId, tuple[int, int]], diagonal: bool,
                    number: int) -> None:
        src, dst = step.get("from"), step.get("to")
        self._require_tile(src)
        self._require_tile(dst)
        require(src != dst, "move_to_same_tile",
                f"move {number} goes from {src} to {src}; a move must change tile")
        require(court[self.tile_index[src]] > 0, "no_servant_on_tile",
                f"move {number}: you have no servant on {src} to move", tile=src)
        adjacent = _is_adjacent(positions[src], positions[dst], diagonal)
        require(adjacent, "not_adjacent",
                f"move {number}: {dst} is not {'' if diagonal else 'orthogonally '}adjacent to "
                f"{src} in the court" + ("" if diagonal else
                                         " (diagonal steps need a diagonal-move noble)"),
                src=src, dst=dst)

    def _positions(self, state: State) -> dict[TileId, tuple[int, int]]:
        """Grid (row, col) of each court tile; the layout is row-major (spec §2.1)."""
        return {t: divmod(i, self.grid_cols) for i, t in enumerate(state.court_layout)}

    def _apply_court_placements(self, state: State, action: Action) -> State:
        seat = self._require_turn(state, action, "place servants on the seal tiles")
        self._require_step(state, 3, "placing the extra seal-tile servants")
        state = self._close_steps(state, 3)  # §5.6: earlier steps close first (Mint paid)
        d = action.data
        # spec §5.6: both advantages are measured before any placement of this event
        adv = {t: self.has_advantage(state, seat, t) for t in (KINGS, POMPADOUR)}
        plan: list[tuple[TileId, str]] = []
        for tile, key in ((KINGS, "kings_chamber_extra"), (POMPADOUR, "pompadour_extra")):
            source = d.get(key)
            if source is not None:
                require(adv[tile], "no_advantage",
                        f"the extra servant on {tile} needs the advantage there; you do not "
                        "have it", tile=tile)
                plan.append((tile, source))
        bonus = list(d.get("seal_bonus") or ())
        owned = self._privilege_count(state.players[seat], "seal_plus_1")
        require(len(bonus) <= owned, "too_many_seal_bonus",
                f"you own {owned} seal+1 nobles, so at most {owned} bonus servants; you "
                f"placed {len(bonus)}", allowed=owned)
        for entry in bonus:
            tile = entry.get("tile")
            require(tile in (KINGS, POMPADOUR), "bad_seal_bonus_tile",
                    f"a seal+1 servant goes on {KINGS} or {POMPADOUR}, not {tile!r}")
            plan.append((tile, entry.get("source")))
        player = state.players[seat]
        for tile, source in plan:
            player = self._place(player, tile, [source])
        state = replace(state, players=with_item(state.players, seat, player))
        return replace(state, turn=replace(state.turn, open_step=4))

    def _apply_recruit_noble(self, state: State, action: Action) -> State:
        seat = self._require_turn(state, action, "recruit a noble")
        self._require_step(state, 4, "recruiting nobles")
        state = self._close_steps(state, 4)  # review ruling 1: closing comes first
        space, noble_id = action.data.get("space"), action.data.get("noble")
        noble, price = self._check_recruit(state, seat, space, noble_id)
        return self._recruit(state, seat, space, noble, price)  # type: ignore[arg-type]

    def _check_recruit(self, state: State, seat: Seat, space: Any,
                       noble_id: Any) -> tuple[Noble, int]:
        """Spec §5.7 legality, in the listed order; returns the noble and its price."""
        require(space in self.space_index, "unknown_space",
                f"{space!r} is not a garden space (r0c0 ... )", space=space)
        require(noble_id in self.nobles, "unknown_noble", f"{noble_id!r} is not a noble tile")
        here = state.garden[self.space_index[space]]
        require(here == noble_id, "noble_not_in_garden",
                f"{noble_id} is not in the garden on {space}" +
                (f" ({space} holds {here})" if here else f" ({space} is empty)"),
                space=space, noble=noble_id)
        noble = self.nobles[noble_id]
        player, turn = state.players[seat], state.turn
        require(self._count(player, OFFICE) >= 1, "no_office_servant",
                "each recruit returns a servant from the Office; you have none there")
        need_purple = max(0, noble.purple - turn.bonus_purple)
        require(self._count(player, POMPADOUR) >= need_purple, "not_enough_purple_seals",
                f"{noble.id} costs {noble.purple} purple seals; you have "
                f"{turn.bonus_purple} bonus + {self._count(player, POMPADOUR)} on Madame de "
                "Pompadour", noble=noble.id)
        need_blue = max(0, noble.blue - turn.bonus_blue)
        require(self._count(player, KINGS) >= need_blue, "not_enough_blue_seals",
                f"{noble.id} costs {noble.blue} blue seals; you have {turn.bonus_blue} bonus + "
                f"{self._count(player, KINGS)} on the King's Chamber", noble=noble.id)
        price = self.recruit_price(state, space, noble)
        require(player.gold >= price, "not_enough_gold",
                f"{noble.id} costs {price} gold here ({noble.gold} less {noble.gold - price} "
                f"for empty neighbours); you have {player.gold}", price=price)
        return noble, price

    def _recruit(self, state: State, seat: Seat, space: SpaceId, noble: Noble,
                 price: int) -> State:
        """Spec §5.7 effects (a)-(e) and the one-shot servant privileges."""
        turn = state.turn
        used_purple = min(turn.bonus_purple, noble.purple)
        used_blue = min(turn.bonus_blue, noble.blue)
        player = state.players[seat]
        player = self._return(player, OFFICE, 1)
        player = self._return(player, POMPADOUR, noble.purple - used_purple)
        player = self._return(player, KINGS, noble.blue - used_blue)
        player = replace(player, gold=player.gold - price, nobles=(*player.nobles, noble.id))
        idx = self.space_index[space]
        garden_servants = state.garden_servants
        if space in self.edge_spaces:  # (e) the edge servant comes from the supply (§10.8)
            player = replace(player, supply=player.supply - 1)
            garden_servants = with_item(garden_servants, idx, seat)
        gain = self.privilege_amount.get(noble.privilege or "", 0) \
            if (noble.privilege or "").startswith("servants_plus") else 0
        gain = min(gain, player.general)  # §2.5: the general supply may run short
        player = replace(player, general=player.general - gain, supply=player.supply + gain)
        turn = replace(turn, bonus_purple=turn.bonus_purple - used_purple,
                       bonus_blue=turn.bonus_blue - used_blue)
        return replace(state, players=with_item(state.players, seat, player),
                       garden=with_item(state.garden, idx, None),
                       garden_servants=garden_servants, turn=turn)

    def _apply_draw_privilege_cards(self, state: State, action: Action) -> State:
        seat = self._require_turn(state, action, "draw privilege cards")
        self._require_step(state, 4, "drawing privilege cards at the Back Door", shown=5)
        state = self._close_steps(state, 5)
        count = action.data.get("count")
        require(isinstance(count, int) and count >= 0, "bad_count",
                f"count must be a whole number of cards, 0 or more; got {count!r}")
        allowance = self.draw_allowance(state, seat)
        require(count <= allowance, "too_many_cards",
                f"your Back Door allowance is {allowance} cards (servants there, plus the "
                f"cards+3 nobles if you have one there); you asked for {count}",
                allowance=allowance, count=count)
        cards = list(action.data.get("cards") or ())
        expected = min(count, len(state.deck) + len(state.discard))
        require(len(cards) == expected, "wrong_card_count",
                f"a draw of {count} must name {expected} cards (draw pile {len(state.deck)}, "
                f"discard {len(state.discard)}); {len(cards)} were named")
        deck, discard = state.deck, state.discard
        for card in cards:
            require(card in self.cards, "unknown_card", f"{card!r} is not a privilege card")
            if not len(deck):  # spec §5.8: the discard pile becomes the draw pile
                deck, discard = discard, Bag()
            deck = deck.take([card], code="not_available", where="the draw pile")
        turn = replace(state.turn, pending=tuple(cards), open_step=5 if cards else DONE)
        return replace(state, deck=deck, discard=discard, turn=turn)

    def _apply_keep_privilege_cards(self, state: State, action: Action) -> State:
        seat = self._require_turn(state, action, "keep privilege cards")
        pending = Bag(state.turn.pending)
        require(len(pending) > 0, "nothing_drawn",
                "there are no drawn cards to keep: draw at the Back Door first "
                "(or you already kept this turn)")
        kept = list(action.data.get("kept") or ())
        rest = pending.take(kept, code="card_not_drawn", where="the cards you drew")
        player = state.players[seat]
        on_door = self._count(player, BACK_DOOR)
        require(len(kept) <= on_door, "too_many_kept",
                f"each kept card returns a servant from the Back Door; you have {on_door} "
                f"there and kept {len(kept)}", kept=len(kept), servants=on_door)
        player = self._return(player, BACK_DOOR, len(kept))
        player = replace(player, hand=player.hand.add(kept))
        turn = replace(state.turn, pending=(), open_step=DONE)
        return replace(state, players=with_item(state.players, seat, player),
                       discard=state.discard.add(rest), turn=turn)

    def _apply_end_turn(self, state: State, action: Action) -> State:
        self._require_turn(state, action, "end the turn")
        require(not state.turn.pending, "cards_pending",
                f"keep or discard the {len(state.turn.pending)} drawn cards before ending the "
                "turn (keep_privilege_cards)")
        state = self._close_steps(state, DONE)
        nxt = (state.active + 1) % state.player_count
        state = replace(state, active=nxt, turn=Turn(), turns_played=state.turns_played + 1)
        if nxt != state.start_player:
            return state
        # spec §6 end check, before every start-player turn
        if state.final_round:
            return replace(state, phase="over")
        final = self.nobles_left(state) <= int(self.edition["end"]["garden_threshold"])
        return replace(state, round=state.round + 1, final_round=final)

    # -- guards -------------------------------------------------------------
    def _require_not_over(self, state: State) -> None:
        require(state.phase != "over", "game_over", "the game is over")

    def _require_actor(self, action: Action, seat: Seat, what: str) -> Seat:
        if action.actor != seat or isinstance(action.actor, bool):
            raise _fail("not_your_turn", f"it is seat {seat}'s turn to {what}, not "
                        f"{action.actor!r}'s", expected=seat, actor=action.actor)
        return seat

    def _require_turn(self, state: State, action: Action, what: str) -> Seat:
        self._require_not_over(state)
        require(state.phase == "play", "wrong_phase",
                f"you cannot {what} before the game is set up and the initial placements are "
                f"done (phase: {state.phase})")
        return self._require_actor(action, state.active, what)

    def _require_step(self, state: State, step: int, what: str, shown: int | None = None) -> None:
        """Steps run in order and never reopen (spec §4.1)."""
        require(state.turn.open_step <= step, "step_closed",
                f"{what} is step {shown or step}; this turn is already at "
                f"{self._step_text(state.turn.open_step)}, and steps never go back",
                open_step=state.turn.open_step)

    def _require_tile(self, tile: Any) -> None:
        require(tile in self.tile_index, "unknown_tile",
                f"{tile!r} is not a court tile ({', '.join(self.tile_ids)})", tile=tile)

    def _step_text(self, step: int) -> str:
        return "the end of the turn (all steps done)" if step >= DONE else f"step {step}"

    def _window_text(self, card: CardType) -> str:
        return " or ".join("done" if s == DONE else str(s) for s in sorted(card.window))

    # -- rule helpers -------------------------------------------------------
    def _count(self, player: PlayerState, tile: TileId) -> int:
        return player.court[self.tile_index[tile]]

    def _privilege_count(self, player: PlayerState, privilege: str) -> int:
        return sum(1 for n in player.nobles if self.nobles[n].privilege == privilege)

    def _owns(self, player: PlayerState, privilege: str) -> bool:
        return self._privilege_count(player, privilege) > 0

    def _bonus(self, player: PlayerState, privilege: str) -> int:
        return self._privilege_count(player, privilege) * self.privilege_amount.get(privilege, 0)

    def has_advantage(self, state: State, seat: Seat, tile: TileId) -> bool:
        """Spec §4.2: majority on a court tile, the Cardinal tie-break, the cardinal card."""
        i = self.tile_index[tile]
        mine = state.players[seat].court[i]
        if seat == state.active and state.turn.cardinal_active and mine >= 1:
            return True
        if mine == 0:
            return False
        others = [p for s, p in enumerate(state.players) if s != seat]
        if any(p.court[i] > mine for p in others):
            return False
        tied = [p for p in others if p.court[i] == mine]
        c = self.tile_index[CARDINAL]
        return all(state.players[seat].court[c] > p.court[c] for p in tied)

    def _adv(self, state: State, seat: Seat, tile: TileId) -> int:
        return self.advantage_bonus[tile] if self.has_advantage(state, seat, tile) else 0

    def gate_allowance(self, state: State, seat: Seat) -> int:
        """Spec §5.4 (ignores `gate_unlimited`)."""
        player = state.players[seat]
        return (self._count(player, PARADE) + self._adv(state, seat, PARADE)
                + self._bonus(player, "gate_plus_2") + state.turn.gate_bonus)

    def move_allowance(self, state: State, seat: Seat) -> int:
        """Spec §5.5."""
        player = state.players[seat]
        return (self._count(player, STAIRWAY) + self._adv(state, seat, STAIRWAY)
                + self._bonus(player, "move_plus_2") + state.turn.move_bonus)

    def mint_income(self, state: State, seat: Seat) -> int:
        """Spec §5.5: paid when step 2 closes."""
        player = state.players[seat]
        return (self._count(player, MINT) + self._adv(state, seat, MINT)
                + self._bonus(player, "gold_plus_2"))

    def draw_allowance(self, state: State, seat: Seat) -> int:
        """Spec §5.8: cards+3 counts only with a servant on the Back Door."""
        on_door = self._count(state.players[seat], BACK_DOOR)
        return on_door + (self._bonus(state.players[seat], "cards_plus_3") if on_door else 0)

    def recruit_price(self, state: State, space: SpaceId, noble: Noble) -> int:
        """Spec §5.7: gold cost less one per statue-aware neighbour holding no noble."""
        empty = sum(1 for s in self.garden_neighbours[space]
                    if state.garden[self.space_index[s]] is None)
        return max(0, noble.gold - empty)

    def nobles_left(self, state: State) -> int:
        return sum(1 for n in state.garden if n is not None)

    def _close_steps(self, state: State, until: int) -> State:
        """Close every open step below `until` with its automatic effects (spec §4.1)."""
        step = state.turn.open_step
        if step >= until:
            return state
        if step <= 2 < until:  # closing step 2 pays the Mint (3a)
            seat = state.active
            player = state.players[seat]
            player = replace(player, gold=player.gold + self.mint_income(state, seat))
            state = replace(state, players=with_item(state.players, seat, player))
        turn = replace(state.turn, open_step=until)
        if step <= 4 < until:  # unspent bonus seals lapse with step 4
            turn = replace(turn, bonus_blue=0, bonus_purple=0)
        return replace(state, turn=turn)

    def _place(self, player: PlayerState, dest: TileId, sources: Sequence[Any]) -> PlayerState:
        """Spec §4.2: place servants on `dest`, each from the supply, or from another tile
        only while the supply is empty."""
        court, supply = list(player.court), player.supply
        for number, source in enumerate(sources, 1):
            if source == SUPPLY:
                require(supply > 0, "supply_empty",
                        f"servant {number} for {dest}: your personal supply is empty; take it "
                        "from another court tile instead", number=number)
                supply -= 1
            else:
                self._require_tile(source)
                require(source != dest, "source_is_destination",
                        f"servant {number} for {dest} cannot come from {dest} itself")
                require(supply == 0, "supply_not_empty",
                        f"servant {number} for {dest}: a servant may be taken from a court tile "
                        f"({source}) only when your supply is empty; it holds {supply}",
                        number=number, supply=supply)
                i = self.tile_index[source]
                require(court[i] > 0, "no_servant_on_source",
                        f"servant {number} for {dest}: you have no servant on {source}")
                court[i] -= 1
            court[self.tile_index[dest]] += 1
        return replace(player, court=tuple(court), supply=supply)

    def _return(self, player: PlayerState, tile: TileId, k: int) -> PlayerState:
        i = self.tile_index[tile]
        return replace(player, court=with_item(player.court, i, player.court[i] - k),
                       supply=player.supply + k)


def _plain(data: Mapping[str, Any]) -> dict[str, Any]:
    return dict(thaw(data))


def _as_int(value: Any) -> int:
    return value if isinstance(value, int) else 0


def _slot(field: str, path: list[Any], options: list[Any], label: str, *, many: bool = False,
          count: int | None = None) -> dict[str, Any]:
    """One table-mode chance slot (`GameRules.chance_slots`); `options` is copied."""
    return {"field": field, "path": path, "options": list(options), "many": many,
            "count": count, "label": label}
