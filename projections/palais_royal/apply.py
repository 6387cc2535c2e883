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
from .palais_royal_words import Words, quoted
from .rules import (
    ALL,
    Action,
    Bag,
    Dealer,
    GameRules,
    IllegalAction,
    Viewer,
    plural,
    possessive,
    require,
    thaw,
    with_item,
    words_list,
)

__all__ = ["DONE", "PalaisRoyal", "PlayerState", "State", "Turn"]

#: where the game stands, for refusals that say why an action does not fit now
PHASE_WORDS = {"awaiting_setup": "the game is not set up yet",
               "initial_placement": "the initial placements are under way",
               "play": "play has begun", "over": "the game is over"}


def _fail(code: str, message: str, **details: Any) -> IllegalAction:
    return IllegalAction(code, message, **details)


class PalaisRoyal(LegalActions, ScoringAndViews, Words, GameRules):
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
    def garden_size(self) -> tuple[int, int]:
        spaces = self.edition["garden"]["spaces"]
        return (1 + max(int(s["row"]) for s in spaces), 1 + max(int(s["col"]) for s in spaces))

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
        """Before the setup event: only the players are known (their names only for the
        sentences a person reads)."""
        names = tuple(str(n) for n in created["players"])
        return State(phase="awaiting_setup", player_count=len(names), names=names)

    def apply(self, state: State, action: Action) -> State:
        """Check and apply one action (spec §5), or raise IllegalAction naming the rule."""
        handler = self._handlers.get(action.type)
        if handler is None:
            raise _fail("unknown_action", f"Palais Royal has no action {quoted(action.type)}",
                        type=action.type, known=sorted(self.action_schemas))
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
        from the garden, rulings #11); a draw is the cards in the order turned up.

        A garden slot also carries `groups` (the `GameRules.chance_slots` extension): the
        nobles by the privilege icon, or by the points of those without one, then each look
        once, so a person holding a tile finds it in two taps (rulings #20)."""
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
        groups = self.noble_groups
        slots += [{**_slot("garden", [s["id"]], nobles,
                           f"noble on garden {self.label(s['id'])}"), "groups": groups}
                  for s in self.edition["garden"]["spaces"]]
        slots.append(_slot("start_player", [], list(range(state.player_count)),
                           "start player"))
        return slots

    @property
    def noble_groups(self) -> list[dict[str, Any]]:
        """The nobles for a two-tap pick: a group per privilege icon and per crown value of
        the tiles without one (spec §2.4: what a tile shows), each group holding one item
        per look. Tiles identical in all the rules read (costs, points, privilege) and in
        their label share an item; its `values` are in id order and a pick takes the first
        one still unplaced, since which of two identical tiles lies where changes nothing
        (rulings #20). A fresh copy each time: slots are handed out as data."""
        return [{"label": label, "items": [{"label": self.label(ids[0]), "values": list(ids)}
                                           for ids in looks]}
                for label, looks in self._noble_looks]

    @cached_property
    def _noble_looks(self) -> tuple[tuple[str, tuple[tuple[NobleId, ...], ...]], ...]:
        def look(n: Noble) -> tuple[Any, ...]:
            return (n.gold, n.purple, n.blue, n.points, n.privilege, self.label(n.id))

        by_group: dict[tuple[int, Any], dict[tuple[Any, ...], list[NobleId]]] = {}
        privileges = [p["id"] for p in self.edition["noble_privileges"]]
        for noble_id in sorted(self.nobles):
            n = self.nobles[noble_id]
            key = (1, privileges.index(n.privilege)) if n.privilege in privileges \
                else (0, n.points)
            by_group.setdefault(key, {}).setdefault(look(n), []).append(noble_id)
        out = []
        for (kind, which), looks in sorted(by_group.items()):
            label = (f"nobles with {self.label(privileges[which])}" if kind
                     else f"{which}-point nobles without a privilege")
            out.append((label, tuple(tuple(ids) for ids in looks.values())))
        return tuple(out)

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

    # -- handlers: setup ----------------------------------------------------
    def _apply_setup(self, state: State, action: Action) -> State:
        require(action.actor == "table", "not_your_turn",
                f"the table records the setup, not {self.who(state, action.actor)}")
        require(state.phase == "awaiting_setup", "game_already_set_up",
                "setup must be the first event; the game is already set up")
        d = action.data
        n = state.player_count
        count = d.get("player_count")
        # review ruling 5: setup must agree with game_created
        require(count == n, "player_count_mismatch",
                f"the game was created for {n} players; the setup says {quoted(count)}",
                expected=n)
        start = d.get("start_player")
        require(isinstance(start, int) and 0 <= start < n,
                "bad_start_player", f"the start player must be one of the players "
                f"({self._players_text(state)}), not seat {quoted(start)}")
        layout = tuple(d.get("court_layout") or ())
        require(sorted(layout) == sorted(self.tile_ids), "bad_court_layout",
                f"the court is laid out with each of its {len(self.tile_ids)} tiles once "
                f"({self._labels_text(self.tile_ids)}); got "
                f"{self._labels_text(layout) or 'none'}")
        garden = self._check_garden(d.get("garden") or {})
        set_aside = self._check_set_aside(d.get("set_aside"), garden)
        return self._set_up(state, start, layout, garden, set_aside)

    def _check_garden(self, garden: Mapping[str, Any]) -> tuple[NobleId, ...]:
        missing = [s for s in self.space_ids if s not in garden]
        unknown = sorted(set(garden) - set(self.space_ids))
        require(not missing and not unknown, "bad_garden",
                f"the garden holds a noble on each of its {len(self.space_ids)} spaces; " +
                "; ".join(part for part in (
                    f"no noble is named for {self._labels_text(missing)}" if missing else "",
                    f"{self._labels_text(unknown)} is not a garden space" if unknown else "")
                    if part))
        placed = tuple(garden[s] for s in self.space_ids)
        for noble in placed:
            require(noble in self.nobles, "unknown_noble",
                    f"{quoted(noble)} is not a noble tile", noble=noble)
        dupes = sorted(k for k, v in Counter(placed).items() if v > 1)
        require(not dupes, "bad_garden", "each noble lies on one space only; " + "; ".join(
            f"{self.the_noble(k)} is on {plural(placed.count(k), 'space')}" for k in dupes))
        return placed

    def _check_set_aside(self, given: Any, placed: tuple[NobleId, ...]) -> tuple[NobleId, ...]:
        rest = tuple(sorted(set(self.nobles) - set(placed)))
        if given is not None:
            require(sorted(given) == list(rest), "bad_set_aside",
                    f"the nobles set aside are exactly the {len(rest)} not in the garden "
                    f"({self._labels_text(rest)}); got {self._labels_text(given) or 'none'}")
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
                "initial placements happen after the setup and before round 1; "
                f"{PHASE_WORDS.get(state.phase, 'the game is elsewhere')}")
        need = int(self._setup_value("free_initial_servants"))
        seat = self._require_actor(state, action, self._placing_seat(state),
                                   f"place {plural(need, 'servant')}")
        placements = action.data.get("placements") or {}
        who = self.who(state, seat)
        for tile, k in placements.items():
            self._require_tile(tile)
            require(isinstance(k, int) and k > 0, "bad_placement",
                    f"each placement is a positive whole number of servants; "
                    f"{self.the(tile)} has {quoted(k)}")
        total = sum(placements.values())
        require(total == need, "wrong_placement_total",
                f"each player places exactly {plural(need, 'servant')} at setup; {who} placed "
                f"{total}", placed=total)
        player = state.players[seat]
        require(player.supply >= total, "supply_empty",
                f"{who} places {plural(total, 'servant')} but {possessive(who)} personal "
                f"supply holds {player.supply}")
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
        who = self.who(state, seat)
        name = action.data.get("card")
        card = self.cards.get(name) if isinstance(name, str) else None
        require(card is not None, "unknown_card",
                f"{quoted(name)} is not a privilege card; they are "
                f"{self._labels_text(self.cards)}")
        assert card is not None
        require(state.players[seat].hand.count(card.id) > 0, "card_not_in_hand",
                f"{who} holds no {self.label(card.id)} card", card=card.id)
        require(state.turn.open_step in card.window, "card_window_closed",
                f"{self.the_card(card.id)} may be played only while step "
                f"{self._window_text(card)} is open; this turn is at "
                f"{self._step_text(state.turn.open_step)}", card=card.id)
        seals = self._card_seals(card, action.data.get("seals"))
        if "closes_steps_through" in card.effect:  # spec §5.3: seals_plus_2 closes 1-3 first
            state = self._close_steps(state, int(card.effect["closes_steps_through"]) + 1)
        player = state.players[seat]
        require(player.gold >= card.cost, "not_enough_gold",
                f"{self.the_card(card.id)} costs {card.cost} gold; {who} has {player.gold}",
                cost=card.cost)
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
                    f"only a bonus-seal card takes a split of seals; "
                    f"{self.the_card(card.id)} does not")
            return 0, 0
        blue, purple = (seals or {}).get("blue"), (seals or {}).get("purple")
        require(isinstance(blue, int) and isinstance(purple, int) and blue >= 0 and purple >= 0
                and blue + purple == total, "bad_seals",
                f"{self.the_card(card.id)} gives {plural(total, 'bonus seal')}: declare blue "
                f"and purple seals (each 0 or more) adding up to {total}; got {quoted(blue)} "
                f"blue and {quoted(purple)} purple")
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
                    f"{self.whose(state, seat)} Gate allowance is "
                    f"{plural(allowance, 'servant')} (Parade Ground servants, advantage, nobles "
                    f"and cards); {self.who(state, seat)} placed {len(sources)}",
                    allowance=allowance, placed=len(sources))
        player = self._place(self.who(state, seat), state.players[seat], GATE, sources)
        state = replace(state, players=with_item(state.players, seat, player))
        return replace(state, turn=replace(state.turn, open_step=2))

    def _apply_move_servants(self, state: State, action: Action) -> State:
        seat = self._require_turn(state, action, "move servants")
        self._require_step(state, 2, "moving servants")
        steps = list(action.data.get("steps") or ())
        allowance = self.move_allowance(state, seat)  # fixed before the first step (§5.5)
        require(len(steps) <= allowance, "too_many_moves",
                f"{self.whose(state, seat)} move allowance is {plural(allowance, 'move')} "
                f"(Stairway servants, advantage, nobles and cards); {self.who(state, seat)} "
                f"made {len(steps)}", allowance=allowance, moves=len(steps))
        court = list(state.players[seat].court)
        diagonal = self._owns(state.players[seat], "diagonal_move")
        positions = self._positions(state)
        for number, step in enumerate(steps, 1):
            self._check_step(state, court, step, positions, diagonal, number)
            court[self.tile_index[step["from"]]] -= 1
            court[self.tile_index[step["to"]]] += 1
        player = replace(state.players[seat], court=tuple(court))
        state = replace(state, players=with_item(state.players, seat, player))
        return self._close_steps(state, 3)

    def _check_step(self, state: State, court: list[int], step: Mapping[str, Any],
                    positions: Mapping[TileId, tuple[int, int]], diagonal: bool,
                    number: int) -> None:
        src, dst = step.get("from"), step.get("to")
        self._require_tile(src)
        self._require_tile(dst)
        # spec §5.5: "from ≠ to" - a servant "moved" to the tile it stands on is no move
        # (the no-op class of issue #19.4)
        require(src != dst, "move_to_same_tile",
                f"move {number} goes from {self.the(src)} to {self.the(src)}; a move takes a "
                "servant to another court tile", number=number, tile=src)
        require(court[self.tile_index[src]] > 0, "no_servant_on_tile",
                f"move {number}: {self.who(state, state.active)} has no servant on "
                f"{self.the(src)} to move", tile=src)
        adjacent = _is_adjacent(positions[src], positions[dst], diagonal)
        diagonal_name = self.label("diagonal_move")
        require(adjacent, "not_adjacent",
                f"move {number}: {self.the(dst)} is not "
                f"{'' if diagonal else 'orthogonally '}next to {self.the(src)} in the court" +
                ("" if diagonal else f" (a diagonal step needs a {diagonal_name} noble)"),
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
                        f"the extra servant on {self.the(tile)} needs the advantage there; "
                        f"{self.who(state, seat)} does not have it", tile=tile)
                plan.append((tile, source))
        bonus = list(d.get("seal_bonus") or ())
        owned = self._privilege_count(state.players[seat], "seal_plus_1")
        seal = self.label("seal_plus_1")
        require(len(bonus) <= owned, "too_many_seal_bonus",
                f"{self.who(state, seat)} may place {plural(owned, 'bonus servant')} (one per "
                f"{seal} noble owned); {self.who(state, seat)} placed {len(bonus)}",
                allowed=owned)
        for entry in bonus:
            tile = entry.get("tile")
            require(tile in (KINGS, POMPADOUR), "bad_seal_bonus_tile",
                    f"a {seal} servant goes on {self.the(KINGS)} or on {self.the(POMPADOUR)}, "
                    f"not on {self.the(tile)}")
            plan.append((tile, entry.get("source")))
        player = state.players[seat]
        for tile, source in plan:
            player = self._place(self.who(state, seat), player, tile, [source])
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
        rows, cols = self.garden_size
        require(space in self.space_index, "unknown_space",
                f"{quoted(space)} is not a garden space (the garden has {rows} rows and "
                f"{cols} columns)", space=space)
        require(noble_id in self.nobles, "unknown_noble",
                f"{quoted(noble_id)} is not a noble tile")
        here = state.garden[self.space_index[space]]
        where = self.label(space)
        require(here == noble_id, "noble_not_in_garden",
                f"{self.the_noble(noble_id)} is not on {where}; " +
                (f"that space holds {self.the_noble(here)}" if here else "that space is empty"),
                space=space, noble=noble_id)
        noble = self.nobles[noble_id]
        player, turn = state.players[seat], state.turn
        who = self.who(state, seat)
        require(self._count(player, OFFICE) >= 1, "no_office_servant",
                f"each recruit returns a servant from the Office; {who} has none there")
        need_purple = max(0, noble.purple - turn.bonus_purple)
        require(self._count(player, POMPADOUR) >= need_purple, "not_enough_purple_seals",
                self._seals_text(who, noble, "purple", turn.bonus_purple,
                                 self._count(player, POMPADOUR), POMPADOUR), noble=noble.id)
        need_blue = max(0, noble.blue - turn.bonus_blue)
        require(self._count(player, KINGS) >= need_blue, "not_enough_blue_seals",
                self._seals_text(who, noble, "blue", turn.bonus_blue,
                                 self._count(player, KINGS), KINGS), noble=noble.id)
        price = self.recruit_price(state, space, noble)
        off = noble.gold - price
        require(player.gold >= price, "not_enough_gold",
                f"{self.the_noble(noble.id)} costs {price} gold on {where}" +
                (f" ({noble.gold} printed, {off} off for "
                 f"{plural(off, 'empty neighbouring space')})" if off else "") +
                f"; {who} has {player.gold}", price=price)
        return noble, price

    def _seals_text(self, who: str, noble: Noble, colour: str, bonus: int, servants: int,
                    tile: TileId) -> str:
        cost = noble.purple if colour == "purple" else noble.blue
        return (f"{self.the_noble(noble.id)} costs {plural(cost, f'{colour} seal')}; {who} has "
                f"{plural(bonus, f'bonus {colour} seal')} and "
                f"{plural(servants, 'servant')} on {self.the(tile)}")

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
        who = self.who(state, seat)
        require(isinstance(count, int) and count >= 0, "bad_count",
                f"the number of cards to draw is a whole number, 0 or more; got {quoted(count)}")
        allowance = self.draw_allowance(state, seat)
        extra = self.privilege_amount.get("cards_plus_3", 0)
        require(count <= allowance, "too_many_cards",
                f"{possessive(who)} Back Door allowance is {plural(allowance, 'card')} (1 per "
                f"servant there, plus {extra} per {self.label('cards_plus_3')} noble while a "
                f"servant is there); {who} asked for {count}", allowance=allowance, count=count)
        cards = list(action.data.get("cards") or ())
        expected = min(count, len(state.deck) + len(state.discard))
        require(len(cards) == expected, "wrong_card_count",
                f"a draw of {plural(count, 'card')} names {expected} (draw pile "
                f"{len(state.deck)}, discard pile {len(state.discard)}); "
                f"{len(cards)} {'was' if len(cards) == 1 else 'were'} named")
        deck, discard = state.deck, state.discard
        for card in cards:
            require(card in self.cards, "unknown_card",
                    f"{quoted(card)} is not a privilege card", card=card)
            if not len(deck):  # spec §5.8: the discard pile becomes the draw pile
                deck, discard = discard, Bag()
            require(deck.count(card) > 0, "not_available",
                    f"{self.the_card(card)} is not in the draw pile", card=card)
            deck = deck.take([card])
        turn = replace(state.turn, pending=tuple(cards), open_step=5 if cards else DONE)
        return replace(state, deck=deck, discard=discard, turn=turn)

    def _apply_keep_privilege_cards(self, state: State, action: Action) -> State:
        seat = self._require_turn(state, action, "keep privilege cards")
        pending = Bag(state.turn.pending)
        who = self.who(state, seat)
        require(len(pending) > 0, "nothing_drawn",
                f"{who} has no drawn cards to keep: draw at the Back Door first (or the cards "
                "were already kept this turn)")
        kept = list(action.data.get("kept") or ())
        left = Counter(pending)
        for card in kept:
            require(left[card] > 0, "card_not_drawn",
                    f"{who} drew {plural(pending.count(card), 'copy', 'copies')} of "
                    f"{self.the_card(card)}" if card in pending else
                    f"{self.the_card(card)} is not among the cards {who} drew", card=card)
            left[card] -= 1
        rest = pending.take(kept)
        player = state.players[seat]
        on_door = self._count(player, BACK_DOOR)
        require(len(kept) <= on_door, "too_many_kept",
                f"each kept card returns a servant from the Back Door; {who} has {on_door} there "
                f"and kept {len(kept)}", kept=len(kept), servants=on_door)
        player = self._return(player, BACK_DOOR, len(kept))
        player = replace(player, hand=player.hand.add(kept))
        turn = replace(state.turn, pending=(), open_step=DONE)
        return replace(state, players=with_item(state.players, seat, player),
                       discard=state.discard.add(rest), turn=turn)

    def _apply_end_turn(self, state: State, action: Action) -> State:
        self._require_turn(state, action, "end the turn")
        require(not state.turn.pending, "cards_pending",
                f"{self.who(state, state.active)} keeps or discards the "
                f"{plural(len(state.turn.pending), 'drawn card')} before ending the turn")
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

    def _require_actor(self, state: State, action: Action, seat: Seat, what: str) -> Seat:
        if action.actor != seat or isinstance(action.actor, bool):
            raise _fail("not_your_turn", f"it is {self.whose(state, seat)} turn to {what}, "
                        f"not {self.whose(state, action.actor)}", expected=seat,
                        actor=action.actor)
        return seat

    def _require_turn(self, state: State, action: Action, what: str) -> Seat:
        self._require_not_over(state)
        require(state.phase == "play", "wrong_phase",
                f"nobody can {what} before the game is set up and the initial placements are "
                f"done ({PHASE_WORDS.get(state.phase, 'the game is elsewhere')})")
        return self._require_actor(state, action, state.active, what)

    def _require_step(self, state: State, step: int, what: str, shown: int | None = None) -> None:
        """Steps run in order and never reopen (spec §4.1)."""
        require(state.turn.open_step <= step, "step_closed",
                f"{what} is step {shown or step}; this turn is already at "
                f"{self._step_text(state.turn.open_step)}, and steps never go back",
                open_step=state.turn.open_step)

    def _require_tile(self, tile: Any) -> None:
        require(isinstance(tile, str) and tile in self.tile_index, "unknown_tile",
                f"{quoted(tile)} is not a court tile (they are "
                f"{self._labels_text(self.tile_ids)})", tile=tile)

    def _step_text(self, step: int) -> str:
        if step >= DONE:
            return "the end of the turn (all steps done)"
        return "step 5 (the cards drawn wait to be kept)" if step == 5 else f"step {step}"

    def _window_text(self, card: CardType) -> str:
        return words_list([str(s) for s in sorted(card.window) if s != DONE], "or")

    def _labels_text(self, ids: Any) -> str:
        return words_list([self.label(i) for i in ids])

    def _players_text(self, state: State) -> str:
        return words_list([self.who(state, s) for s in range(state.player_count)], "or")

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

    def _place(self, who: str, player: PlayerState, dest: TileId,
               sources: Sequence[Any]) -> PlayerState:
        """Spec §4.2: place servants on `dest`, each from the supply, or from another tile
        only while the supply is empty. `who` names the player in refusals."""
        court, supply = list(player.court), player.supply
        for number, source in enumerate(sources, 1):
            what = f"servant {number} for {self.the(dest)}"
            if source == SUPPLY:
                require(supply > 0, "supply_empty",
                        f"{what}: {possessive(who)} personal supply is empty; take it from "
                        "another court tile instead", number=number)
                supply -= 1
            else:
                self._require_tile(source)
                # spec §4.2: "from any other court tile (not the destination tile)" - a
                # servant "placed" where it already stands is no placement (issue #19.4)
                require(source != dest, "source_is_destination",
                        f"{what} cannot come from {self.the(dest)} itself: a placed servant "
                        "comes from the personal supply or, once it is empty, from another "
                        "court tile", number=number, tile=dest)
                require(supply == 0, "supply_not_empty",
                        f"{what}: a servant may be taken from a court tile "
                        f"({self.the(source)}) only when {possessive(who)} personal supply is "
                        f"empty; it holds {plural(supply, 'servant')}",
                        number=number, supply=supply)
                i = self.tile_index[source]
                require(court[i] > 0, "no_servant_on_source",
                        f"{what}: {who} has no servant on {self.the(source)}")
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
