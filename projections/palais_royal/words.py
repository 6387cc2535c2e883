"""What a person reads in Palais Royal: a label for every component and the sentence for
every action (issue #20), each a message rendered in the reader's language (issue #33,
docs/design.md, "Sentences as data"); the Chinese uses the seed's own terms (僕人, 宫廷板块,
皇家花园, 贵族板块, 特权牌, 印章).

The designed nobles have no printed name, so a noble's label says what a player sees on the
tile: its crown points, its privilege icon and its cost column (spec §2.4), e.g.
"3-point noble (2 gold, 1 purple, 1 blue)" or "2-point noble with Gold +2 (2 gold,
1 purple, 1 blue)". `noble_parts` reads that shape back for boards that lay the tile out
in a small cell; a label an edition names otherwise simply does not parse, and a board then
shows it as it stands.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping, Sequence
from functools import lru_cache
from typing import Any, NamedTuple

from ..messages import M, Message, Mn, Name, Seq, capitalised
from ..rules import Action, possessive, seat_name, thaw
from .edition import DONE, POMPADOUR, SUPPLY, CardType, Components
from .state import State

#: privilege-card names: the seed gives the effects, not English titles (spec §2.6); a card
#: missing here is named from its id ("x_plus_5" -> "X +5")
CARD_NAMES: Mapping[str, str] = {
    "cardinal": M("Cardinal"),
    "parade_unlimited": M("Parade Ground without limit"),
    "parade_stairway": M("Parade Ground and Stairway"),
    "stairway_plus_5": M("Stairway +5"),
    "stairway_plus_9": M("Stairway +9"),
    "seals_plus_2": M("Seals +2"),
    "mint_4_gold": M("Mint: 4 gold"),
    "noble_2_points": M("Noble: 2 points"),
    "noble_4_points": M("Noble: 4 points"),
}
#: privilege icons whose id does not read as "<word> +N"
PRIVILEGE_NAMES: Mapping[str, str] = {"diagonal_move": "Diagonal move"}
#: court tiles named after a person take no article ("on Madame de Pompadour")
NO_ARTICLE = frozenset({POMPADOUR})
COST_COLOURS = ("gold", "purple", "blue")
#: a cost on a noble tile (spec §2.4: gold, purple seals, blue seals)
COST_WORDS = {"gold": lambda n: M("{count} gold", count=n),
              "purple": lambda n: M("{count} purple", count=n),
              "blue": lambda n: M("{count} blue", count=n)}
#: the garden's sides (spec §2.3) and the statues named after them
SIDES = {"north": M("north"), "east": M("east"), "south": M("south"), "west": M("west")}

_NOBLE = re.compile(r"^(\d+)-point noble(?: with (.+?))? \((.+)\)$")


class NobleParts(NamedTuple):
    points: int
    privilege: str | None
    costs: dict[str, int]  # colour -> amount, only the colours printed on the tile


def named_from_id(ident: str) -> str:
    """ "stairway_plus_5" -> "Stairway +5", "back_door" -> "Back door": a fallback name."""
    words = ident.split("_")
    text = " ".join("+" if w == "plus" else w for w in words).replace("+ ", "+")
    return text[:1].upper() + text[1:]


def _cost(costs: Mapping[str, int]) -> Message:
    """ "2 gold, 1 purple, 1 blue" / "2金币、1紫色印章、1蓝色印章": a tile's cost column."""
    parts = [COST_WORDS[c](costs[c]) for c in COST_COLOURS if costs.get(c)]
    if not parts:
        return M("free")
    if len(parts) == 1:
        return parts[0]
    if len(parts) == 2:
        return M("{first}, {second}", first=parts[0], second=parts[1])
    return M("{first}, {second}, {third}", first=parts[0], second=parts[1], third=parts[2])


def noble_label(points: int, privilege: str | None, costs: Mapping[str, int]) -> str:
    """The label of a noble tile, from what is printed on it (spec §2.4)."""
    if privilege:
        return M("{points}-point noble with {privilege} ({cost})", points=points,
                 privilege=privilege, cost=_cost(costs))
    return M("{points}-point noble ({cost})", points=points, cost=_cost(costs))


def noble_parts(label: str) -> NobleParts | None:
    """The points, privilege and costs a noble label shows, or None for another label. The
    English text is read; a noble's label as a message keeps its privilege as it was given
    (a name a board renders in the reader's language)."""
    match = _NOBLE.match(label)
    if not match:
        return None
    costs: dict[str, int] = {}
    if match.group(3) != "free":
        for part in match.group(3).split(", "):
            amount, _, colour = part.partition(" ")
            if not amount.isdigit() or colour not in COST_COLOURS:
                return None
            costs[colour] = int(amount)
    privilege = match.group(2)
    if privilege and isinstance(label, Message) and "privilege" in label.args:
        privilege = label.args["privilege"]
    return NobleParts(int(match.group(1)), privilege, costs)


def space_label(row: int, col: int) -> str:
    """A garden space as a person finds it: rows from the north, columns from the west."""
    return M("row {row}, column {col}", row=row + 1, col=col + 1)


def quoted(value: Any) -> str:
    """A value somebody sent that the rules refuse, shown as sent (never a repr)."""
    if value is None:
        return M("nothing")
    if isinstance(value, str):
        return f"“{value}”"
    if isinstance(value, bool):
        return M("yes") if value else M("no")
    if isinstance(value, int | float):
        return str(value)
    return json.dumps(thaw(value), ensure_ascii=False, default=str)


def opened(text: str) -> str:
    """A phrase opening a line with a capital, staying a message (or a name) when it is one:
    "The Mint", "Madame de Pompadour"."""
    if isinstance(text, Seq) and text.items:
        return Seq((opened(text.items[0]), *text.items[1:]), text.conjunction)
    if isinstance(text, Name) and text[:1].isupper():
        return text
    shown: str = capitalised(text)
    return shown


# ---------------------------------------------------------------------------
# Labels
# ---------------------------------------------------------------------------


def _own(names: Mapping[str, str], ident: str, english: str) -> Name:
    """A printed name with its Chinese from the edition (`name_zh`, a privilege's `zh`)."""
    zh = names.get(ident)
    return Name(english, {"zh_Hans": zh} if zh else {})


def _statue(statue: str) -> str:
    kind, _, where = statue.partition("_")
    if kind == "fountain":
        return M("central fountain")
    if kind == "statue" and where in SIDES:
        return M("{side} statue", side=SIDES[where])
    return f"{where} {kind}"


def _edge(edge: str) -> str:
    return M("{side} edge", side=SIDES[edge]) if edge in SIDES else f"{edge} edge"


@lru_cache(maxsize=256)
def _table(components: Components) -> Mapping[str, str]:
    """Every component id -> its label, once per edition (see the module docstring)."""
    printed = components.printed
    out: dict[str, str] = {**VOCABULARY, SUPPLY: M("personal supply")}
    privileges = {p: _own(printed.zh, p, name or PRIVILEGE_NAMES.get(p) or named_from_id(p))
                  for p, name in printed.privileges}
    out.update(privileges)
    for tile, name in printed.tiles:
        out[tile] = _own(printed.zh, tile, name or named_from_id(tile))
    cols = components.grid_cols
    for i, pos in enumerate(printed.court_positions):
        out[pos] = M("court row {row}, column {col}", row=i // cols + 1, col=i % cols + 1)
    for card, name in printed.cards:
        out[card] = name or CARD_NAMES.get(card) or named_from_id(card)
    for space, row, col in printed.spaces:
        out[space] = space_label(row, col)
    for edge in components.edges:
        out[edge] = _edge(edge)
    for statue in printed.statues:
        out[statue] = _statue(statue)
    for n in components.nobles.values():
        privilege = privileges.get(n.privilege) if n.privilege else None
        out[n.id] = noble_label(n.points, privilege,
                                {"gold": n.gold, "purple": n.purple, "blue": n.blue})
    out.update(printed.labels)  # printed names win
    return out


def labels(components: Components) -> dict[str, str]:
    """Every component id -> what a person reads (see the module docstring)."""
    return dict(_table(components))


def label(ident: Any, components: Components) -> str:
    text = _table(components).get(ident) if isinstance(ident, str) else None
    return text if text is not None else quoted(ident)


def the(tile: Any, components: Components) -> str:
    """A court tile in a sentence: "the Mint", "Madame de Pompadour"."""
    name = label(tile, components)
    known = isinstance(tile, str) and tile in _table(components)
    return M("the {tile}", tile=name) if known and tile not in NO_ARTICLE else name


def the_noble(noble: Any, components: Components) -> str:
    known = isinstance(noble, str) and noble in _table(components)
    return M("the {noble}", noble=label(noble, components)) if known \
        else label(noble, components)


def the_card(card: Any, components: Components) -> str:
    known = isinstance(card, str) and card in _table(components)
    return M("the {card} card", card=label(card, components)) if known \
        else label(card, components)


def labels_text(ids: Iterable[Any], components: Components) -> str:
    return Seq([label(i, components) for i in ids])


# ---------------------------------------------------------------------------
# Sentences
# ---------------------------------------------------------------------------

def _sentence(action: Action, names: Sequence[str], say: Any, components: Components) -> str:
    """ "Ann placed 5 servants on the Office": the actor by name, then what was done."""
    data = action.data if isinstance(action.data, Mapping) else {}
    sentence: str = capitalised(say(seat_name(names, action.actor), data, names, components))
    return sentence


def _say_setup(who: str, d: Mapping[str, Any], names: Sequence[str],
               components: Components) -> str:
    start = d.get("start_player")
    if isinstance(start, int):
        return M("{player} laid out the court and the garden; {start} starts", player=who,
                 start=seat_name(names, start))
    return M("{player} laid out the court and the garden", player=who)


def _say_initial_placement(who: str, d: Mapping[str, Any], names: Sequence[str],
                           components: Components) -> str:
    placed = {t: k for t, k in (d.get("placements") or {}).items() if isinstance(k, int)}
    total = sum(placed.values())
    if len(placed) == 1:
        return Mn("{player} placed {count} servant on {tile}",
                  "{player} placed {count} servants on {tile}", total, player=who,
                  tile=the(next(iter(placed)), components))
    parts = Seq(M("{count} on {tile}", count=k, tile=the(t, components))
                for t, k in placed.items())
    return Mn("{player} placed {count} servant: {parts}",
              "{player} placed {count} servants: {parts}", total, player=who, parts=parts)


def _say_play_privilege_card(who: str, d: Mapping[str, Any], names: Sequence[str],
                             components: Components) -> str:
    card = the_card(d.get("card"), components)
    seals = d.get("seals")
    if isinstance(seals, Mapping):
        split = [seal_count(int(seals.get(c) or 0), c) for c in ("blue", "purple")
                 if seals.get(c)]
        if split:
            return M("{player} played {card} for {seals}", player=who, card=card,
                     seals=Seq(split))
    return M("{player} played {card}", player=who, card=card)


def seal_count(n: int, colour: str, bonus: bool = False) -> str:
    """ "2 blue seals", "1 bonus purple seal": seals by colour and count."""
    if bonus:
        return Mn("{count} bonus blue seal", "{count} bonus blue seals", n) if colour == "blue" \
            else Mn("{count} bonus purple seal", "{count} bonus purple seals", n)
    return Mn("{count} blue seal", "{count} blue seals", n) if colour == "blue" \
        else Mn("{count} purple seal", "{count} purple seals", n)


def _say_place_at_gate(who: str, d: Mapping[str, Any], names: Sequence[str],
                       components: Components) -> str:
    sources = list(d.get("sources") or ())
    gate = the("gate", components)
    if not sources:
        return M("{player} put no servants on {gate}", player=who, gate=gate)
    moved = [s for s in sources if s != SUPPLY]
    if not moved:
        return Mn("{player} put {count} servant on {gate}", "{player} put {count} servants on "
                  "{gate}", len(sources), player=who, gate=gate)
    taken = Seq(M("{count} taken from {tile}", count=k, tile=the(t, components))
                for t, k in _counted(moved))
    return Mn("{player} put {count} servant on {gate} ({taken})",
              "{player} put {count} servants on {gate} ({taken})", len(sources), player=who,
              gate=gate, taken=taken)


def _move_words(src: str, dst: str, k: int) -> str:
    if k == 1:
        return M("from {src} to {dst}", src=src, dst=dst)
    if k == 2:
        return M("from {src} to {dst} twice", src=src, dst=dst)
    return M("from {src} to {dst} {count} times", src=src, dst=dst, count=k)


def _say_move_servants(who: str, d: Mapping[str, Any], names: Sequence[str],
                       components: Components) -> str:
    steps = [(s.get("from"), s.get("to")) for s in d.get("steps") or ()
             if isinstance(s, Mapping)]
    if not steps:
        return M("{player} made no moves", player=who)
    moves = Seq(_move_words(the(a, components), the(b, components), k)
                for (a, b), k in _runs(steps))
    return Mn("{player} made {count} move: {moves}", "{player} made {count} moves: {moves}",
              len(steps), player=who, moves=moves)


def _say_court_placements(who: str, d: Mapping[str, Any], names: Sequence[str],
                          components: Components) -> str:
    extras = (("kings_chamber", "kings_chamber_extra"), ("pompadour", "pompadour_extra"))
    placed: list[tuple[Any, str]] = [(t, M("advantage")) for t, key in extras
                                     if d.get(key) is not None]
    seal = label("seal_plus_1", components)
    placed += [(e.get("tile"), M("{seal} noble", seal=seal)) for e in d.get("seal_bonus") or ()
               if isinstance(e, Mapping)]
    if not placed:
        return M("{player} put no extra servants on the seal tiles", player=who)
    parts = Seq(M("1 on {tile} ({why})", tile=the(t, components), why=why) for t, why in placed)
    return Mn("{player} put {count} extra servant on the seal tiles: {parts}",
              "{player} put {count} extra servants on the seal tiles: {parts}", len(placed),
              player=who, parts=parts)


def _say_recruit_noble(who: str, d: Mapping[str, Any], names: Sequence[str],
                       components: Components) -> str:
    return M("{player} recruited {noble} from {space}", player=who,
             noble=the_noble(d.get("noble"), components), space=label(d.get("space"), components))


def _say_draw_privilege_cards(who: str, d: Mapping[str, Any], names: Sequence[str],
                              components: Components) -> str:
    cards = d.get("cards")
    n = len(cards) if isinstance(cards, list | tuple) else d.get("drawn_count")
    if not isinstance(n, int):
        n = d.get("count") if isinstance(d.get("count"), int) else 0
    if not n:
        return M("{player} drew no privilege cards at the Back Door", player=who)
    return Mn("{player} drew {count} privilege card at the Back Door",
              "{player} drew {count} privilege cards at the Back Door", n, player=who)


def _say_keep_privilege_cards(who: str, d: Mapping[str, Any], names: Sequence[str],
                              components: Components) -> str:
    kept = d.get("kept")
    n = len(kept) if isinstance(kept, list | tuple) else int(d.get("kept_count") or 0)
    if not n:
        return M("{player} kept none of the drawn cards", player=who)
    return Mn("{player} kept {count} privilege card", "{player} kept {count} privilege cards",
              n, player=who)


def _say_end_turn(who: str, d: Mapping[str, Any], names: Sequence[str],
                  components: Components) -> str:
    return M("{player} ended the turn", player=who)


def setup_sentence(action: Action, names: Sequence[str], components: Components) -> str:
    return _sentence(action, names, _say_setup, components)


def initial_placement_sentence(action: Action, names: Sequence[str], components: Components) -> str:
    return _sentence(action, names, _say_initial_placement, components)


def play_privilege_card_sentence(action: Action, names: Sequence[str],
                                 components: Components) -> str:
    return _sentence(action, names, _say_play_privilege_card, components)


def place_at_gate_sentence(action: Action, names: Sequence[str], components: Components) -> str:
    return _sentence(action, names, _say_place_at_gate, components)


def move_servants_sentence(action: Action, names: Sequence[str], components: Components) -> str:
    return _sentence(action, names, _say_move_servants, components)


def court_placements_sentence(action: Action, names: Sequence[str], components: Components) -> str:
    return _sentence(action, names, _say_court_placements, components)


def recruit_noble_sentence(action: Action, names: Sequence[str], components: Components) -> str:
    return _sentence(action, names, _say_recruit_noble, components)


def draw_privilege_cards_sentence(action: Action, names: Sequence[str],
                                  components: Components) -> str:
    """How many cards only: which ones is the drawer's secret (spec §8), and this
    sentence is shown to all; a move not yet dealt says how many are asked for."""
    return _sentence(action, names, _say_draw_privilege_cards, components)


def keep_privilege_cards_sentence(action: Action, names: Sequence[str],
                                  components: Components) -> str:
    """How many cards only, as for the draw (spec §8)."""
    return _sentence(action, names, _say_keep_privilege_cards, components)


def end_turn_sentence(action: Action, names: Sequence[str], components: Components) -> str:
    return _sentence(action, names, _say_end_turn, components)


# ---------------------------------------------------------------------------
# Words refusals use
# ---------------------------------------------------------------------------

#: where the game stands, for refusals that say why an action does not fit now
PHASE_WORDS = {"awaiting_setup": M("the game is not set up yet"),
               "initial_placement": M("the initial placements are under way"),
               "play": M("play has begun"), "over": M("the game is over")}
#: the result's reason and breakdown rows (scoring.py), as the score tables name them
VOCABULARY = {"garden_has_few_nobles": M("garden has few nobles"),
              "nobles": M("nobles"), "played_cards": M("played cards"),
              "held_cards": M("held cards"), "garden": M("garden"), "total": M("total"),
              "gold": M("gold"), "garden_edges": M("garden edges")}


def who(state: State, seat: Any) -> str:
    return seat_name(state.names, seat)


def whose(state: State, seat: Any) -> str:
    return possessive(who(state, seat))


def players_text(state: State) -> str:
    return Seq([who(state, s) for s in range(state.player_count)], "or")


def step_text(step: int) -> str:
    if step >= DONE:
        return M("the end of the turn (all steps done)")
    return M("step 5 (the cards drawn wait to be kept)") if step == 5 else \
        M("step {step}", step=step)


def window_text(card: CardType) -> str:
    return Seq([str(s) for s in sorted(card.window) if s != DONE], "or")


def _counted(items: Sequence[Any]) -> list[tuple[Any, int]]:
    out: dict[Any, int] = {}
    for item in items:
        out[item] = out.get(item, 0) + 1
    return list(out.items())


def _runs(steps: Sequence[tuple[Any, Any]]) -> list[tuple[tuple[Any, Any], int]]:
    """Consecutive equal steps as one step and a count ("from the Gate to the Office
    twice")."""
    runs: list[tuple[tuple[Any, Any], int]] = []
    for step in steps:
        if runs and runs[-1][0] == step:
            runs[-1] = (step, runs[-1][1] + 1)
        else:
            runs.append((step, 1))
    return runs
