"""Palais Royal's actions (spec §5): one function per action type, guards first, and the
rules they share (allowances, the advantage, closing steps, placing servants).

Every number is read from the edition (`Components`). Rulings are listed in
docs/rulings/palais_royal.md.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from typing import Any, cast

from ..messages import M, Message, Mn
from ..rules import (
    Action,
    Bag,
    IllegalAction,
    Seat,
    possessive,
    replace,
    require,
    with_item,
)
from .edition import (
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
    CardType,
    Components,
    Noble,
    NobleId,
    SpaceId,
    TileId,
)
from .state import PlayerState, State, Turn, nobles_left, placing_seat
from .words import (
    PHASE_WORDS,
    label,
    labels_text,
    players_text,
    quoted,
    seal_count,
    step_text,
    the,
    the_card,
    the_noble,
    who,
    whose,
    window_text,
)

Applier = Callable[[State, Action, Components], State]


# ---------------------------------------------------------------------------
# Setup (spec §3, §5.1, §5.2)
# ---------------------------------------------------------------------------


def apply_setup(state: State, action: Action, components: Components) -> State:
    """Spec §5.1: the table lays out the court and the garden and names the start player;
    the rest of the setup (§3 steps 3-6) follows from the edition."""
    require(action.actor == "table", "not_your_turn",
            M("the table records the setup, not {actor}", actor=who(state, action.actor)))
    require(state.phase == "awaiting_setup", "game_already_set_up",
            M("setup must be the first event; the game is already set up"))
    d = action.data
    n = state.player_count
    count = d.get("player_count")
    # review ruling 5: setup must agree with game_created
    require(count == n, "player_count_mismatch",
            M("the game was created for {players} players; the setup says {given}", players=n,
              given=quoted(count)), expected=n)
    start = d.get("start_player")
    if not (isinstance(start, int) and 0 <= start < n):
        raise IllegalAction("bad_start_player", M(
            "the start player must be one of the players ({players}), not seat {given}",
            players=players_text(state), given=quoted(start)))
    layout = tuple(d.get("court_layout") or ())
    tiles = components.tile_ids
    require(sorted(layout) == sorted(tiles), "bad_court_layout",
            M("the court is laid out with each of its {count} tiles once ({tiles}); got "
              "{given}", count=len(tiles), tiles=labels_text(tiles, components),
              given=labels_text(layout, components) or M("none")))
    garden = _check_garden(d.get("garden") or {}, components)
    set_aside = _check_set_aside(d.get("set_aside"), garden, components)
    return _set_up(state, start, layout, garden, set_aside, components)


def _check_garden(garden: Mapping[str, Any], components: Components) -> tuple[NobleId, ...]:
    spaces = components.space_ids
    missing = [s for s in spaces if s not in garden]
    unknown = sorted(set(garden) - set(spaces))
    require(not missing and not unknown, "bad_garden",
            _bad_garden(len(spaces), labels_text(missing, components) if missing else None,
                        labels_text(unknown, components) if unknown else None))
    placed = tuple(garden[s] for s in spaces)
    for noble in placed:
        require(noble in components.nobles, "unknown_noble",
                M("{noble} is not a noble tile", noble=quoted(noble)), noble=noble)
    dupes = sorted(k for k, v in Counter(placed).items() if v > 1)
    require(not dupes, "bad_garden", M("each noble lies on one space only; {twice}",
                                       twice=semicolons(
        [Mn("{noble} is on {count} space", "{noble} is on {count} spaces", placed.count(k),
            noble=the_noble(k, components)) for k in dupes])))
    return placed


def _bad_garden(spaces: int, missing: str | None, unknown: str | None) -> str:
    """ "the garden holds a noble on each of its 36 spaces; no noble is named for ..."."""
    parts = [M("no noble is named for {spaces}", spaces=missing)] if missing else []
    parts += [M("{spaces} is not a garden space", spaces=unknown)] if unknown else []
    return M("the garden holds a noble on each of its {count} spaces; {problems}", count=spaces,
             problems=semicolons(parts))


def semicolons(parts: Sequence[Message]) -> str:
    """ "a; b; c": clauses of a refusal one after another (a list in no language's "and")."""
    if not parts:
        return ""
    if len(parts) == 1:
        return parts[0]
    return M("{first}; {rest}", first=parts[0], rest=semicolons(parts[1:]))


def _check_set_aside(given: Any, placed: tuple[NobleId, ...],
                     components: Components) -> tuple[NobleId, ...]:
    """The nobles not in the garden, derived; a setup that names them must agree
    (rulings #11)."""
    rest = tuple(sorted(set(components.nobles) - set(placed)))
    if given is not None:
        require(sorted(given) == list(rest), "bad_set_aside",
                M("the nobles set aside are exactly the {count} not in the garden ({nobles}); "
                  "got {given}", count=len(rest), nobles=labels_text(rest, components),
                  given=labels_text(given, components) or M("none")))
    return rest


def _set_up(state: State, start: int, layout: tuple[TileId, ...], garden: tuple[NobleId, ...],
            set_aside: tuple[NobleId, ...], components: Components) -> State:
    """Spec §3 steps 3-6: deck, servants, fixed placement, starting gold."""
    n = state.player_count
    court = [0] * len(components.tile_ids)
    for tile, k in components.fixed_initial_servants.items():
        court[components.tile_index[tile]] += k
    supply = components.personal_at_start - sum(court)
    gold_by_order = components.starting_gold[str(n)]
    players = tuple(
        PlayerState(gold=gold_by_order[(seat - start) % n], supply=supply,
                    general=components.general_supply, court=tuple(court))
        for seat in range(n))
    deck = Bag({c.id: c.count for c in components.cards.values()})
    return replace(state, phase="initial_placement", players=players, court_layout=layout,
                   garden=garden, garden_servants=(None,) * len(garden),
                   set_aside=set_aside, deck=deck, start_player=start, active=start)


def apply_initial_placement(state: State, action: Action, components: Components) -> State:
    """Spec §5.2: each player in turn places the free servants on any court tiles; the
    last placement starts round 1."""
    seat, placements = _check_initial_placement(state, action, components)
    total = sum(placements.values())
    player = state.players[seat]
    court = list(player.court)
    for tile, k in placements.items():
        court[components.tile_index[tile]] += k
    player = replace(player, supply=player.supply - total, court=tuple(court))
    state = replace(state, players=with_item(state.players, seat, player),
                    placements_done=state.placements_done + 1)
    if state.placements_done == state.player_count:
        state = replace(state, phase="play", round=1, active=state.start_player, turn=Turn())
    return state


def _check_initial_placement(state: State, action: Action,
                             components: Components) -> tuple[Seat, Mapping[TileId, int]]:
    require(state.phase == "initial_placement", "wrong_phase",
            M("initial placements happen after the setup and before round 1; {now}",
              now=PHASE_WORDS.get(state.phase, M("the game is elsewhere"))))
    need = components.free_initial_servants
    seat = _require_actor(state, action, placing_seat(state),
                          Mn("place {count} servant", "place {count} servants", need))
    placements = action.data.get("placements") or {}
    name = who(state, seat)
    for tile, k in placements.items():
        _tile(tile, components)
        require(isinstance(k, int) and k > 0, "bad_placement",
                M("each placement is a positive whole number of servants; {tile} has {given}",
                  tile=the(tile, components), given=quoted(k)))
    total = sum(placements.values())
    require(total == need, "wrong_placement_total",
            Mn("each player places exactly {count} servant at setup; {player} placed {placed}",
               "each player places exactly {count} servants at setup; {player} placed "
               "{placed}", need, player=name, placed=total), placed=total)
    supply = state.players[seat].supply
    require(supply >= total, "supply_empty",
            Mn("{player} places {count} servant but {whose} personal supply holds {supply}",
               "{player} places {count} servants but {whose} personal supply holds {supply}",
               total, player=name, whose=possessive(name), supply=supply))
    return seat, placements


# ---------------------------------------------------------------------------
# Privilege cards (spec §5.3)
# ---------------------------------------------------------------------------


def apply_play_privilege_card(state: State, action: Action, components: Components) -> State:
    """Spec §5.3: pay, take the card's effect for this turn, and lay it down or discard it."""
    seat = _require_turn(state, action, M("play a privilege card"))
    card = _check_card(state, seat, action.data.get("card"), components)
    seals = _card_seals(card, action.data.get("seals"), components)
    if "closes_steps_through" in card.effect:  # spec §5.3: seals_plus_2 closes 1-3 first
        state = close_steps(state, int(card.effect["closes_steps_through"]) + 1, components)
    player = state.players[seat]
    require(player.gold >= card.cost, "not_enough_gold",
            M("{card} costs {cost} gold; {player} has {gold}",
              card=the_card(card.id, components), cost=card.cost, player=who(state, seat),
              gold=player.gold), cost=card.cost)
    player = replace(player, gold=player.gold - card.cost + int(card.effect.get("gold", 0)),
                     hand=player.hand.take([card.id]))
    discard = state.discard
    if card.to_played_area:
        player = replace(player, played=(*player.played, card.id))
    else:
        discard = discard.add([card.id])
    return replace(state, players=with_item(state.players, seat, player), discard=discard,
                   turn=_card_effect(state.turn, card, seals))


def _check_card(state: State, seat: Seat, name: Any, components: Components) -> CardType:
    """A card the player holds, whose window is open now (spec §5.3)."""
    card = components.cards.get(name) if isinstance(name, str) else None
    if card is None:
        raise IllegalAction("unknown_card", M("{card} is not a privilege card; they are "
                                              "{cards}", card=quoted(name),
                                              cards=labels_text(components.cards, components)))
    require(state.players[seat].hand.count(card.id) > 0, "card_not_in_hand",
            M("{player} holds no {card} card", player=who(state, seat),
              card=label(card.id, components)), card=card.id)
    require(state.turn.open_step in card.window, "card_window_closed",
            M("{card} may be played only while step {steps} is open; this turn is at {now}",
              card=the_card(card.id, components), steps=window_text(card),
              now=step_text(state.turn.open_step)), card=card.id)
    return card


def _card_seals(card: CardType, seals: Any, components: Components) -> tuple[int, int]:
    """The declared split of a bonus-seal card (blue, purple); only such a card takes one
    (rulings #5)."""
    total = int(card.effect.get("bonus_seals", 0))
    if not total:
        require(seals is None, "seals_not_allowed",
                M("only a bonus-seal card takes a split of seals; {card} does not",
                  card=the_card(card.id, components)))
        return 0, 0
    blue, purple = (seals or {}).get("blue"), (seals or {}).get("purple")
    if not (isinstance(blue, int) and isinstance(purple, int) and blue >= 0 and purple >= 0
            and blue + purple == total):
        raise IllegalAction(
            "bad_seals", Mn("{card} gives {count} bonus seal: declare blue and purple seals "
                            "(each 0 or more) adding up to {count}; got {blue} blue and "
                            "{purple} purple",
                            "{card} gives {count} bonus seals: declare blue and purple seals "
                            "(each 0 or more) adding up to {count}; got {blue} blue and "
                            "{purple} purple", total, card=the_card(card.id, components),
                            blue=quoted(blue), purple=quoted(purple)))
    return blue, purple


def _card_effect(turn: Turn, card: CardType, seals: tuple[int, int]) -> Turn:
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


# ---------------------------------------------------------------------------
# Steps 1-3: the Gate, moves, the seal tiles (spec §5.4-§5.6)
# ---------------------------------------------------------------------------


def apply_place_at_gate(state: State, action: Action, components: Components) -> State:
    """Spec §5.4: step 1, up to the Gate allowance (none with the unlimited card)."""
    seat = _require_turn(state, action, M("place servants on the Gate"))
    _require_step(state, 1, M("placing servants on the Gate"))
    sources = list(action.data.get("sources") or ())
    allowance = gate_allowance(state, seat, components)
    if not state.turn.gate_unlimited:
        require(len(sources) <= allowance, "too_many_servants",
                Mn("{whose} Gate allowance is {count} servant (Parade Ground servants, "
                   "advantage, nobles and cards); {player} placed {placed}",
                   "{whose} Gate allowance is {count} servants (Parade Ground servants, "
                   "advantage, nobles and cards); {player} placed {placed}", allowance,
                   whose=whose(state, seat), player=who(state, seat), placed=len(sources)),
                allowance=allowance, placed=len(sources))
    player = _place(who(state, seat), state.players[seat], GATE, sources, components)
    return replace(state, players=with_item(state.players, seat, player),
                   turn=replace(state.turn, open_step=2))


def apply_move_servants(state: State, action: Action, components: Components) -> State:
    """Spec §5.5: step 2, each move one servant to a neighbouring tile; closing the step
    pays the Mint."""
    seat = _require_turn(state, action, M("move servants"))
    _require_step(state, 2, M("moving servants"))
    steps = list(action.data.get("steps") or ())
    allowance = move_allowance(state, seat, components)  # fixed before the first step (§5.5)
    if len(steps) > allowance:
        raise IllegalAction("too_many_moves",
                            Mn("{whose} move allowance is {count} move (Stairway servants, "
                               "advantage, nobles and cards); {player} made {made}",
                               "{whose} move allowance is {count} moves (Stairway servants, "
                               "advantage, nobles and cards); {player} made {made}", allowance,
                               whose=whose(state, seat), player=who(state, seat),
                               made=len(steps)),
                            allowance=allowance, moves=len(steps))
    court = list(state.players[seat].court)
    diagonal = owns(state.players[seat], "diagonal_move", components)
    positions = _positions(state, components)
    for number, step in enumerate(steps, 1):
        _check_step(state, court, step, positions, diagonal, number, components)
        court[components.tile_index[step["from"]]] -= 1
        court[components.tile_index[step["to"]]] += 1
    player = replace(state.players[seat], court=tuple(court))
    state = replace(state, players=with_item(state.players, seat, player))
    return close_steps(state, 3, components)


def _check_step(state: State, court: list[int], step: Mapping[str, Any],
                positions: Mapping[TileId, tuple[int, int]], diagonal: bool, number: int,
                components: Components) -> None:
    # a step the data schema would refuse (an API caller is checked by it first; the
    # rules are still called directly) is refused, never a crash
    if not isinstance(step, Mapping):  # the words only for a refusal (a hot path)
        raise IllegalAction("bad_move", M("move {number} is not a step from one court tile to "
                                          "another (it names the tile it leaves and the tile "
                                          "it reaches); got {given}", number=number,
                                          given=quoted(step)), number=number)
    src = _tile(step.get("from"), components)
    dst = _tile(step.get("to"), components)
    # spec §5.5: "from ≠ to" - a servant "moved" to the tile it stands on is no move
    # (the no-op class of issue #19.4); each sentence is built only for a refusal
    if src == dst:
        raise IllegalAction("move_to_same_tile",
                            M("move {number} goes from {tile} to {tile}; a move takes a "
                              "servant to another court tile", number=number,
                              tile=the(src, components)), number=number, tile=src)
    if court[components.tile_index[src]] <= 0:
        raise IllegalAction("no_servant_on_tile",
                            M("move {number}: {player} has no servant on {tile} to move",
                              number=number, player=who(state, state.active),
                              tile=the(src, components)), tile=src)
    if not is_adjacent(positions[src], positions[dst], diagonal):
        args = {"number": number, "dst": the(dst, components), "src": the(src, components)}
        raise IllegalAction(
            "not_adjacent",
            M("move {number}: {dst} is not next to {src} in the court", **args) if diagonal
            else M("move {number}: {dst} is not orthogonally next to {src} in the court (a "
                   "diagonal step needs a {diagonal} noble)",
                   diagonal=label("diagonal_move", components), **args),
            src=src, dst=dst)


def _positions(state: State, components: Components) -> dict[TileId, tuple[int, int]]:
    """Grid (row, col) of each court tile; the layout is row-major (spec §2.1)."""
    return {t: divmod(i, components.grid_cols) for i, t in enumerate(state.court_layout)}


def is_adjacent(a: tuple[int, int], b: tuple[int, int], diagonal: bool) -> bool:
    """Spec §2.1: orthogonal neighbours differ by 1 in one coordinate; diagonal in both."""
    dr, dc = abs(a[0] - b[0]), abs(a[1] - b[1])
    return dr + dc == 1 or (diagonal and dr == 1 and dc == 1)


def apply_court_placements(state: State, action: Action, components: Components) -> State:
    """Spec §5.6: the extra servants of the seal-tile advantages and of Seal +1 nobles."""
    seat = _require_turn(state, action, M("place servants on the seal tiles"))
    _require_step(state, 3, M("placing the extra seal-tile servants"))
    state = close_steps(state, 3, components)  # §5.6: earlier steps close first (Mint paid)
    plan = _court_plan(state, seat, action.data, components)
    player = state.players[seat]
    for tile, source in plan:
        player = _place(who(state, seat), player, tile, [source], components)
    return replace(state, players=with_item(state.players, seat, player),
                   turn=replace(state.turn, open_step=4))


def _court_plan(state: State, seat: Seat, d: Mapping[str, Any],
                components: Components) -> list[tuple[Any, Any]]:
    """The (tile, source) placements the event asks for, each one allowed (spec §5.6)."""
    # spec §5.6: both advantages are measured before any placement of this event
    adv = {t: has_advantage(state, seat, t, components) for t in (KINGS, POMPADOUR)}
    plan: list[tuple[Any, Any]] = []
    for tile, key in ((KINGS, "kings_chamber_extra"), (POMPADOUR, "pompadour_extra")):
        source = d.get(key)
        if source is not None:
            require(adv[tile], "no_advantage",
                    M("the extra servant on {tile} needs the advantage there; {player} does "
                      "not have it", tile=the(tile, components), player=who(state, seat)),
                    tile=tile)
            plan.append((tile, source))
    bonus = list(d.get("seal_bonus") or ())
    owned = privilege_count(state.players[seat], "seal_plus_1", components)
    seal = label("seal_plus_1", components)
    require(len(bonus) <= owned, "too_many_seal_bonus",
            Mn("{player} may place {count} bonus servant (one per {seal} noble owned); "
               "{player} placed {placed}",
               "{player} may place {count} bonus servants (one per {seal} noble owned); "
               "{player} placed {placed}", owned, player=who(state, seat), seal=seal,
               placed=len(bonus)), allowed=owned)
    for entry in bonus:
        if not isinstance(entry, Mapping):
            raise IllegalAction("bad_seal_bonus", M("each {seal} servant names the tile it "
                                                    "goes on and where it comes from; got "
                                                    "{given}", seal=seal, given=quoted(entry)))
        onto = entry.get("tile")
        require(onto in (KINGS, POMPADOUR), "bad_seal_bonus_tile",
                M("a {seal} servant goes on {kings} or on {pompadour}, not on {tile}", seal=seal,
                  kings=the(KINGS, components), pompadour=the(POMPADOUR, components),
                  tile=the(onto, components)))
        plan.append((onto, entry.get("source")))
    return plan


# ---------------------------------------------------------------------------
# Step 4: recruiting nobles (spec §5.7)
# ---------------------------------------------------------------------------


def apply_recruit_noble(state: State, action: Action, components: Components) -> State:
    """Spec §5.7: pay the seals and the gold, take the noble, maybe leave a servant."""
    seat = _require_turn(state, action, M("recruit a noble"))
    _require_step(state, 4, M("recruiting nobles"))
    state = close_steps(state, 4, components)  # review ruling 1: closing comes first
    space, noble_id = action.data.get("space"), action.data.get("noble")
    noble, price = check_recruit(state, seat, space, noble_id, components)
    return _recruit(state, seat, cast(SpaceId, space), noble, price, components)


def check_recruit(state: State, seat: Seat, space: Any, noble_id: Any,
                  components: Components) -> tuple[Noble, int]:
    """Spec §5.7 legality, in the listed order; returns the noble and its price."""
    rows, cols = components.garden_size
    require(space in components.space_index, "unknown_space",
            M("{space} is not a garden space (the garden has {rows} rows and {cols} columns)",
              space=quoted(space), rows=rows, cols=cols), space=space)
    require(noble_id in components.nobles, "unknown_noble",
            M("{noble} is not a noble tile", noble=quoted(noble_id)))
    here = state.garden[components.space_index[space]]
    where = label(space, components)
    require(here == noble_id, "noble_not_in_garden",
            M("{noble} is not on {space}; that space holds {other}",
              noble=the_noble(noble_id, components), space=where,
              other=the_noble(here, components)) if here else
            M("{noble} is not on {space}; that space is empty",
              noble=the_noble(noble_id, components), space=where), space=space, noble=noble_id)
    noble = components.nobles[noble_id]
    player, name = state.players[seat], who(state, seat)
    require(servants_on(player, OFFICE, components) >= 1, "no_office_servant",
            M("each recruit returns a servant from the Office; {player} has none there",
              player=name))
    for colour, tile in (("purple", POMPADOUR), ("blue", KINGS)):
        _require_seals(state.turn, player, name, noble, colour, tile, components)
    price = recruit_price(state, space, noble, components)
    off = noble.gold - price
    require(player.gold >= price, "not_enough_gold",
            _price_refusal(the_noble(noble.id, components), price, where, noble.gold, off, name,
                           player.gold), price=price)
    return noble, price


def _price_refusal(noble: str, price: int, where: str, printed: int, off: int, name: str,
                   gold: int) -> Message:
    """ "the 3-point noble costs 2 gold on row 1, column 2 (3 printed, 1 off for 1 empty
    neighbouring space); Ann has 1"."""
    if not off:
        return M("{noble} costs {price} gold on {space}; {player} has {gold}", noble=noble,
                 price=price, space=where, player=name, gold=gold)
    return Mn("{noble} costs {price} gold on {space} ({printed} printed, {count} off for {count} "
              "empty neighbouring space); {player} has {gold}",
              "{noble} costs {price} gold on {space} ({printed} printed, {count} off for {count} "
              "empty neighbouring spaces); {player} has {gold}", off, noble=noble, price=price,
              space=where, printed=printed, player=name, gold=gold)


def _require_seals(turn: Turn, player: PlayerState, name: str, noble: Noble, colour: str,
                   tile: TileId, components: Components) -> None:
    """Spec §5.7: a servant on the seal tile for each seal the bonus seals leave to pay."""
    cost, bonus = ((noble.purple, turn.bonus_purple) if colour == "purple"
                   else (noble.blue, turn.bonus_blue))
    servants = servants_on(player, tile, components)
    require(servants >= max(0, cost - bonus), f"not_enough_{colour}_seals",
            M("{noble} costs {cost}; {player} has {bonus} and {servants} on {tile}",
              noble=the_noble(noble.id, components), cost=seal_count(cost, colour),
              player=name, bonus=seal_count(bonus, colour, bonus=True),
              servants=Mn("{count} servant", "{count} servants", servants),
              tile=the(tile, components)), noble=noble.id)


def _recruit(state: State, seat: Seat, space: SpaceId, noble: Noble, price: int,
             components: Components) -> State:
    """Spec §5.7 effects (a)-(e) and the one-shot servant privileges."""
    turn = state.turn
    used_purple = min(turn.bonus_purple, noble.purple)
    used_blue = min(turn.bonus_blue, noble.blue)
    player = state.players[seat]
    player = _return(player, OFFICE, 1, components)
    player = _return(player, POMPADOUR, noble.purple - used_purple, components)
    player = _return(player, KINGS, noble.blue - used_blue, components)
    player = replace(player, gold=player.gold - price, nobles=(*player.nobles, noble.id))
    idx = components.space_index[space]
    garden_servants = state.garden_servants
    if space in components.edge_spaces:  # (e) the edge servant comes from the supply (§10.8)
        player = replace(player, supply=player.supply - 1)
        garden_servants = with_item(garden_servants, idx, seat)
    privilege = noble.privilege or ""
    gain = components.privilege_amount.get(privilege, 0) \
        if privilege.startswith("servants_plus") else 0
    gain = min(gain, player.general)  # §2.5: the general supply may run short
    player = replace(player, general=player.general - gain, supply=player.supply + gain)
    turn = replace(turn, bonus_purple=turn.bonus_purple - used_purple,
                   bonus_blue=turn.bonus_blue - used_blue)
    return replace(state, players=with_item(state.players, seat, player),
                   garden=with_item(state.garden, idx, None),
                   garden_servants=garden_servants, turn=turn)


# ---------------------------------------------------------------------------
# Step 5: the Back Door (spec §5.8, §5.9) and the end of a turn (§5.10, §6)
# ---------------------------------------------------------------------------


def apply_draw_privilege_cards(state: State, action: Action, components: Components) -> State:
    """Spec §5.8: draw up to the Back Door allowance; the cards wait to be kept."""
    seat = _require_turn(state, action, M("draw privilege cards"))
    _require_step(state, 4, M("drawing privilege cards at the Back Door"), shown=5)
    state = close_steps(state, 5, components)
    count = action.data.get("count")
    name = who(state, seat)
    if not (isinstance(count, int) and count >= 0):
        raise IllegalAction("bad_count", M("the number of cards to draw is a whole number, 0 "
                                           "or more; got {given}", given=quoted(count)))
    allowance = draw_allowance(state, seat, components)
    extra = components.privilege_amount.get("cards_plus_3", 0)
    require(count <= allowance, "too_many_cards",
            Mn("{whose} Back Door allowance is {count} card (1 per servant there, plus {extra} "
               "per {privilege} noble while a servant is there); {player} asked for {asked}",
               "{whose} Back Door allowance is {count} cards (1 per servant there, plus "
               "{extra} per {privilege} noble while a servant is there); {player} asked for "
               "{asked}", allowance, whose=possessive(name), extra=extra,
               privilege=label("cards_plus_3", components), player=name, asked=count),
            allowance=allowance, count=count)
    cards = list(action.data.get("cards") or ())
    expected = min(count, len(state.deck) + len(state.discard))
    require(len(cards) == expected, "wrong_card_count",
            M("a draw of {cards} names {expected} (draw pile {deck}, discard pile {discard}); "
              "{named}", cards=Mn("{count} card", "{count} cards", count), expected=expected,
              deck=len(state.deck), discard=len(state.discard),
              named=Mn("{count} was named", "{count} were named", len(cards))))
    deck, discard = _take_drawn(cards, state.deck, state.discard, components)
    turn = replace(state.turn, pending=tuple(cards), open_step=5 if cards else DONE)
    return replace(state, deck=deck, discard=discard, turn=turn)


def _take_drawn(cards: Sequence[Any], deck: Bag, discard: Bag,
                components: Components) -> tuple[Bag, Bag]:
    """The piles after drawing `cards` in order (spec §5.8)."""
    for card in cards:
        require(card in components.cards, "unknown_card",
                M("{card} is not a privilege card", card=quoted(card)), card=card)
        if not len(deck):  # spec §5.8: the discard pile becomes the draw pile
            deck, discard = discard, Bag()
        require(deck.count(card) > 0, "not_available",
                M("{card} is not in the draw pile", card=the_card(card, components)), card=card)
        deck = deck.take([card])
    return deck, discard


def apply_keep_privilege_cards(state: State, action: Action, components: Components) -> State:
    """Spec §5.9: each kept card returns a servant from the Back Door; the rest are
    discarded face up."""
    seat = _require_turn(state, action, M("keep privilege cards"))
    pending = Bag(state.turn.pending)
    name = who(state, seat)
    require(len(pending) > 0, "nothing_drawn",
            M("{player} has no drawn cards to keep: draw at the Back Door first (or the cards "
              "were already kept this turn)", player=name))
    kept = list(action.data.get("kept") or ())
    left = Counter(pending)
    for card in kept:
        require(left[card] > 0, "card_not_drawn",
                Mn("{player} drew {count} copy of {card}", "{player} drew {count} copies of "
                   "{card}", pending.count(card), player=name, card=the_card(card, components))
                if card in pending else
                M("{card} is not among the cards {player} drew",
                  card=the_card(card, components), player=name), card=card)
        left[card] -= 1
    rest = pending.take(kept)
    player = state.players[seat]
    on_door = servants_on(player, BACK_DOOR, components)
    require(len(kept) <= on_door, "too_many_kept",
            M("each kept card returns a servant from the Back Door; {player} has {servants} "
              "there and kept {kept}", player=name, servants=on_door, kept=len(kept)),
            kept=len(kept), servants=on_door)
    player = _return(player, BACK_DOOR, len(kept), components)
    player = replace(player, hand=player.hand.add(kept))
    return replace(state, players=with_item(state.players, seat, player),
                   discard=state.discard.add(rest),
                   turn=replace(state.turn, pending=(), open_step=DONE))


def apply_end_turn(state: State, action: Action, components: Components) -> State:
    """Spec §5.10: the next seat clockwise; before every start-player turn, the end check
    of §6 (the final round begins once the garden has few nobles left)."""
    _require_turn(state, action, M("end the turn"))
    require(not state.turn.pending, "cards_pending",
            Mn("{player} keeps or discards the {count} drawn card before ending the turn",
               "{player} keeps or discards the {count} drawn cards before ending the turn",
               len(state.turn.pending), player=who(state, state.active)))
    state = close_steps(state, DONE, components)
    nxt = (state.active + 1) % state.player_count
    state = replace(state, active=nxt, turn=Turn(), turns_played=state.turns_played + 1)
    if nxt != state.start_player:
        return state
    if state.final_round:
        return replace(state, phase="over")
    final = nobles_left(state) <= components.garden_threshold
    return replace(state, round=state.round + 1, final_round=final)


# ---------------------------------------------------------------------------
# Guards
# ---------------------------------------------------------------------------


def _require_actor(state: State, action: Action, seat: Seat, what: str) -> Seat:
    if action.actor != seat or isinstance(action.actor, bool):
        raise IllegalAction("not_your_turn", M("it is {whose} turn to {what}, not {actor}",
                                               whose=whose(state, seat), what=what,
                                               actor=whose(state, action.actor)),
                            expected=seat, actor=action.actor)
    return seat


def _require_turn(state: State, action: Action, what: str) -> Seat:
    require(state.phase == "play", "wrong_phase",
            M("nobody can {what} before the game is set up and the initial placements are "
              "done ({now})", what=what,
              now=PHASE_WORDS.get(state.phase, M("the game is elsewhere"))))
    return _require_actor(state, action, state.active, what)


def _require_step(state: State, step: int, what: str, shown: int | None = None) -> None:
    """Steps run in order and never reopen (spec §4.1)."""
    require(state.turn.open_step <= step, "step_closed",
            M("{what} is step {step}; this turn is already at {now}, and steps never go back",
              what=what, step=shown or step, now=step_text(state.turn.open_step)),
            open_step=state.turn.open_step)


def _tile(tile: Any, components: Components) -> TileId:
    """`tile` when it names a court tile, else the refusal listing them."""
    if not (isinstance(tile, str) and tile in components.tile_index):
        raise IllegalAction("unknown_tile", M("{tile} is not a court tile (they are {tiles})",
                                              tile=quoted(tile),
                                              tiles=labels_text(components.tile_ids,
                                                                components)), tile=tile)
    return tile


# ---------------------------------------------------------------------------
# The rules the actions share
# ---------------------------------------------------------------------------


def servants_on(player: PlayerState, tile: TileId, components: Components) -> int:
    """The player's servants on a court tile."""
    return player.court[components.tile_index[tile]]


def privilege_count(player: PlayerState, privilege: str, components: Components) -> int:
    """How many of the player's nobles show `privilege` (spec §2.5)."""
    return sum(1 for n in player.nobles if components.nobles[n].privilege == privilege)


def owns(player: PlayerState, privilege: str, components: Components) -> bool:
    return privilege_count(player, privilege, components) > 0


def _bonus(player: PlayerState, privilege: str, components: Components) -> int:
    return (privilege_count(player, privilege, components)
            * components.privilege_amount.get(privilege, 0))


def has_advantage(state: State, seat: Seat, tile: TileId, components: Components) -> bool:
    """Spec §4.2: majority on a court tile, the Cardinal tie-break, the cardinal card."""
    i = components.tile_index[tile]
    mine = state.players[seat].court[i]
    if seat == state.active and state.turn.cardinal_active and mine >= 1:
        return True
    if mine == 0:
        return False
    others = [p for s, p in enumerate(state.players) if s != seat]
    if any(p.court[i] > mine for p in others):
        return False
    tied = [p for p in others if p.court[i] == mine]
    c = components.tile_index[CARDINAL]
    return all(state.players[seat].court[c] > p.court[c] for p in tied)


def _adv(state: State, seat: Seat, tile: TileId, components: Components) -> int:
    return components.advantage_bonus[tile] \
        if has_advantage(state, seat, tile, components) else 0


def gate_allowance(state: State, seat: Seat, components: Components) -> int:
    """Spec §5.4 (ignores `gate_unlimited`)."""
    player = state.players[seat]
    return (servants_on(player, PARADE, components) + _adv(state, seat, PARADE, components)
            + _bonus(player, "gate_plus_2", components) + state.turn.gate_bonus)


def move_allowance(state: State, seat: Seat, components: Components) -> int:
    """Spec §5.5."""
    player = state.players[seat]
    return (servants_on(player, STAIRWAY, components) + _adv(state, seat, STAIRWAY, components)
            + _bonus(player, "move_plus_2", components) + state.turn.move_bonus)


def mint_income(state: State, seat: Seat, components: Components) -> int:
    """Spec §5.5: paid when step 2 closes."""
    player = state.players[seat]
    return (servants_on(player, MINT, components) + _adv(state, seat, MINT, components)
            + _bonus(player, "gold_plus_2", components))


def draw_allowance(state: State, seat: Seat, components: Components) -> int:
    """Spec §5.8: cards+3 counts only with a servant on the Back Door."""
    player = state.players[seat]
    on_door = servants_on(player, BACK_DOOR, components)
    return on_door + (_bonus(player, "cards_plus_3", components) if on_door else 0)


def recruit_price(state: State, space: SpaceId, noble: Noble, components: Components) -> int:
    """Spec §5.7: gold cost less one per statue-aware neighbour holding no noble."""
    empty = sum(1 for s in components.garden_neighbours[space]
                if state.garden[components.space_index[s]] is None)
    return max(0, noble.gold - empty)


def close_steps(state: State, until: int, components: Components) -> State:
    """Close every open step below `until` with its automatic effects (spec §4.1)."""
    step = state.turn.open_step
    if step >= until:
        return state
    if step <= 2 < until:  # closing step 2 pays the Mint (3a)
        seat = state.active
        player = state.players[seat]
        player = replace(player, gold=player.gold + mint_income(state, seat, components))
        state = replace(state, players=with_item(state.players, seat, player))
    turn = replace(state.turn, open_step=until)
    if step <= 4 < until:  # unspent bonus seals lapse with step 4
        turn = replace(turn, bonus_blue=0, bonus_purple=0)
    return replace(state, turn=turn)


def _place(name: str, player: PlayerState, dest: TileId, sources: Sequence[Any],
           components: Components) -> PlayerState:
    """Spec §4.2: place servants on `dest`, each from the supply, or from another tile
    only while the supply is empty. `name` names the player in refusals."""
    court, supply = list(player.court), player.supply
    for number, source in enumerate(sources, 1):
        what = M("servant {number} for {tile}", number=number, tile=the(dest, components))
        if source == SUPPLY:
            require(supply > 0, "supply_empty",
                    M("{what}: {whose} personal supply is empty; take it from another court "
                      "tile instead", what=what, whose=possessive(name)), number=number)
            supply -= 1
        else:
            _take_from_tile(name, court, supply, dest, source, number, components)
        court[components.tile_index[dest]] += 1
    return replace(player, court=tuple(court), supply=supply)


def _take_from_tile(name: str, court: list[int], supply: int, dest: TileId, source: Any,
                    number: int, components: Components) -> None:
    """One placed servant taken from another court tile (spec §4.2); `court` loses it."""
    what = M("servant {number} for {tile}", number=number, tile=the(dest, components))
    source = _tile(source, components)
    # spec §4.2: "from any other court tile (not the destination tile)" - a servant
    # "placed" where it already stands is no placement (issue #19.4)
    require(source != dest, "source_is_destination",
            M("{what} cannot come from {tile} itself: a placed servant comes from the personal "
              "supply or, once it is empty, from another court tile", what=what,
              tile=the(dest, components)), number=number, tile=dest)
    require(supply == 0, "supply_not_empty",
            Mn("{what}: a servant may be taken from a court tile ({tile}) only when {whose} "
               "personal supply is empty; it holds {count} servant",
               "{what}: a servant may be taken from a court tile ({tile}) only when {whose} "
               "personal supply is empty; it holds {count} servants", supply, what=what,
               tile=the(source, components), whose=possessive(name)),
            number=number, supply=supply)
    i = components.tile_index[source]
    require(court[i] > 0, "no_servant_on_source",
            M("{what}: {player} has no servant on {tile}", what=what, player=name,
              tile=the(source, components)))
    court[i] -= 1


def _return(player: PlayerState, tile: TileId, k: int, components: Components) -> PlayerState:
    i = components.tile_index[tile]
    return replace(player, court=with_item(player.court, i, player.court[i] - k),
                   supply=player.supply + k)
