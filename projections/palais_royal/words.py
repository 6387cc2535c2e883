"""What a person reads in Palais Royal: a label for every component and the sentence for
every action (issue #20).

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

from ..rules import Action, plural, possessive, seat_name, thaw, words_list
from .edition import DONE, POMPADOUR, SUPPLY, CardType, Components
from .state import State

#: privilege-card names: the seed gives the effects, not English titles (spec §2.6); a card
#: missing here is named from its id ("x_plus_5" -> "X +5")
CARD_NAMES: Mapping[str, str] = {
    "cardinal": "Cardinal",
    "parade_unlimited": "Parade Ground without limit",
    "parade_stairway": "Parade Ground and Stairway",
    "stairway_plus_5": "Stairway +5",
    "stairway_plus_9": "Stairway +9",
    "seals_plus_2": "Seals +2",
    "mint_4_gold": "Mint: 4 gold",
    "noble_2_points": "Noble: 2 points",
    "noble_4_points": "Noble: 4 points",
}
#: privilege icons whose id does not read as "<word> +N"
PRIVILEGE_NAMES: Mapping[str, str] = {"diagonal_move": "Diagonal move"}
#: court tiles named after a person take no article ("on Madame de Pompadour")
NO_ARTICLE = frozenset({POMPADOUR})
COST_COLOURS = ("gold", "purple", "blue")

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


def noble_label(points: int, privilege: str | None, costs: Mapping[str, int]) -> str:
    """The label of a noble tile, from what is printed on it (spec §2.4)."""
    cost = ", ".join(f"{costs[c]} {c}" for c in COST_COLOURS if costs.get(c)) or "free"
    icon = f" with {privilege}" if privilege else ""
    return f"{points}-point noble{icon} ({cost})"


def noble_parts(label: str) -> NobleParts | None:
    """The points, privilege and costs a noble label shows, or None for another label."""
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
    return NobleParts(int(match.group(1)), match.group(2), costs)


def space_label(row: int, col: int) -> str:
    """A garden space as a person finds it: rows from the north, columns from the west."""
    return f"row {row + 1}, column {col + 1}"


def quoted(value: Any) -> str:
    """A value somebody sent that the rules refuse, shown as sent (never a repr)."""
    if value is None:
        return "nothing"
    if isinstance(value, str):
        return f"“{value}”"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, int | float):
        return str(value)
    return json.dumps(thaw(value), ensure_ascii=False, default=str)


def times(n: int) -> str:
    return "" if n == 1 else " twice" if n == 2 else f" {n} times"


# ---------------------------------------------------------------------------
# Labels
# ---------------------------------------------------------------------------


@lru_cache(maxsize=256)
def _table(components: Components) -> Mapping[str, str]:
    """Every component id -> its label, once per edition (see the module docstring)."""
    printed = components.printed
    out: dict[str, str] = {SUPPLY: "personal supply"}
    privileges = {p: name or PRIVILEGE_NAMES.get(p) or named_from_id(p)
                  for p, name in printed.privileges}
    out.update(privileges)
    for tile, name in printed.tiles:
        out[tile] = name or named_from_id(tile)
    cols = components.grid_cols
    for i, pos in enumerate(printed.court_positions):
        out[pos] = f"court row {i // cols + 1}, column {i % cols + 1}"
    for card, name in printed.cards:
        out[card] = name or CARD_NAMES.get(card) or named_from_id(card)
    for space, row, col in printed.spaces:
        out[space] = space_label(row, col)
    for edge in components.edges:
        out[edge] = f"{edge} edge"
    for statue in printed.statues:
        kind, _, where = statue.partition("_")
        out[statue] = "central fountain" if kind == "fountain" else f"{where} {kind}"
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
    return f"the {name}" if known and tile not in NO_ARTICLE else name


def the_noble(noble: Any, components: Components) -> str:
    known = isinstance(noble, str) and noble in _table(components)
    return f"the {label(noble, components)}" if known else label(noble, components)


def the_card(card: Any, components: Components) -> str:
    known = isinstance(card, str) and card in _table(components)
    return f"the {label(card, components)} card" if known else label(card, components)


def labels_text(ids: Iterable[Any], components: Components) -> str:
    return words_list([label(i, components) for i in ids])


# ---------------------------------------------------------------------------
# Sentences
# ---------------------------------------------------------------------------

def _sentence(action: Action, names: Sequence[str], text: str) -> str:
    """ "Ann placed 5 servants on the Office": the actor by name, then what was done."""
    sentence = f"{seat_name(names, action.actor)} {text}"
    return sentence[:1].upper() + sentence[1:]


def _say_setup(d: Mapping[str, Any], names: Sequence[str], components: Components) -> str:
    start = d.get("start_player")
    first = f"; {seat_name(names, start)} starts" if isinstance(start, int) else ""
    return f"laid out the court and the garden{first}"


def _say_initial_placement(d: Mapping[str, Any], names: Sequence[str],
                           components: Components) -> str:
    placed = {t: k for t, k in (d.get("placements") or {}).items() if isinstance(k, int)}
    total = sum(placed.values())
    if len(placed) == 1:
        return f"placed {plural(total, 'servant')} on {the(next(iter(placed)), components)}"
    return f"placed {plural(total, 'servant')}: " + words_list(
        f"{k} on {the(t, components)}" for t, k in placed.items())


def _say_play_privilege_card(d: Mapping[str, Any], names: Sequence[str],
                             components: Components) -> str:
    text = f"played {the_card(d.get('card'), components)}"
    seals = d.get("seals")
    if isinstance(seals, Mapping):
        split = [plural(int(seals.get(c) or 0), f"{c} seal") for c in ("blue", "purple")
                 if seals.get(c)]
        text += f" for {words_list(split)}" if split else ""
    return text


def _say_place_at_gate(d: Mapping[str, Any], names: Sequence[str],
                       components: Components) -> str:
    sources = list(d.get("sources") or ())
    gate = the("gate", components)
    if not sources:
        return f"put no servants on {gate}"
    moved = [s for s in sources if s != SUPPLY]
    text = f"put {plural(len(sources), 'servant')} on {gate}"
    if moved:
        text += " (" + words_list(f"{k} taken from {the(t, components)}"
                                  for t, k in _counted(moved)) + ")"
    return text


def _say_move_servants(d: Mapping[str, Any], names: Sequence[str],
                       components: Components) -> str:
    steps = [(s.get("from"), s.get("to")) for s in d.get("steps") or ()
             if isinstance(s, Mapping)]
    if not steps:
        return "made no moves"
    runs = _runs(steps)
    return f"made {plural(len(steps), 'move')}: " + words_list(
        f"from {the(a, components)} to {the(b, components)}{times(k)}" for (a, b), k in runs)


def _say_court_placements(d: Mapping[str, Any], names: Sequence[str],
                          components: Components) -> str:
    extras = (("kings_chamber", "kings_chamber_extra"), ("pompadour", "pompadour_extra"))
    placed: list[tuple[Any, str]] = [(t, "advantage") for t, key in extras
                                     if d.get(key) is not None]
    seal = label("seal_plus_1", components)
    placed += [(e.get("tile"), f"{seal} noble") for e in d.get("seal_bonus") or ()
               if isinstance(e, Mapping)]
    if not placed:
        return "put no extra servants on the seal tiles"
    return f"put {plural(len(placed), 'extra servant')} on the seal tiles: " + words_list(
        f"1 on {the(t, components)} ({why})" for t, why in placed)


def _say_recruit_noble(d: Mapping[str, Any], names: Sequence[str],
                       components: Components) -> str:
    return (f"recruited {the_noble(d.get('noble'), components)} "
            f"from {label(d.get('space'), components)}")


def _say_draw_privilege_cards(d: Mapping[str, Any], names: Sequence[str],
                              components: Components) -> str:
    cards = d.get("cards")
    n = len(cards) if isinstance(cards, list | tuple) else d.get("drawn_count")
    if not isinstance(n, int):
        n = d.get("count") if isinstance(d.get("count"), int) else 0
    return f"drew {plural(n, 'privilege card') if n else 'no privilege cards'} " \
           "at the Back Door"


def _say_keep_privilege_cards(d: Mapping[str, Any], names: Sequence[str],
                              components: Components) -> str:
    kept = d.get("kept")
    n = len(kept) if isinstance(kept, list | tuple) else int(d.get("kept_count") or 0)
    return f"kept {plural(n, 'privilege card') if n else 'none of the drawn cards'}"


def _say_end_turn(d: Mapping[str, Any], names: Sequence[str], components: Components) -> str:
    return "ended the turn"


def setup_sentence(action: Action, names: Sequence[str], components: Components) -> str:
    return _sentence(action, names, _say_setup(action.data, names, components))


def initial_placement_sentence(action: Action, names: Sequence[str], components: Components) -> str:
    return _sentence(action, names, _say_initial_placement(action.data, names, components))


def play_privilege_card_sentence(action: Action, names: Sequence[str],
                                 components: Components) -> str:
    return _sentence(action, names, _say_play_privilege_card(action.data, names, components))


def place_at_gate_sentence(action: Action, names: Sequence[str], components: Components) -> str:
    return _sentence(action, names, _say_place_at_gate(action.data, names, components))


def move_servants_sentence(action: Action, names: Sequence[str], components: Components) -> str:
    return _sentence(action, names, _say_move_servants(action.data, names, components))


def court_placements_sentence(action: Action, names: Sequence[str], components: Components) -> str:
    return _sentence(action, names, _say_court_placements(action.data, names, components))


def recruit_noble_sentence(action: Action, names: Sequence[str], components: Components) -> str:
    return _sentence(action, names, _say_recruit_noble(action.data, names, components))


def draw_privilege_cards_sentence(action: Action, names: Sequence[str],
                                  components: Components) -> str:
    """How many cards only: which ones is the drawer's secret (spec §8), and this
    sentence is shown to all; a move not yet dealt says how many are asked for."""
    return _sentence(action, names, _say_draw_privilege_cards(action.data, names, components))


def keep_privilege_cards_sentence(action: Action, names: Sequence[str],
                                  components: Components) -> str:
    """How many cards only, as for the draw (spec §8)."""
    return _sentence(action, names, _say_keep_privilege_cards(action.data, names, components))


def end_turn_sentence(action: Action, names: Sequence[str], components: Components) -> str:
    return _sentence(action, names, _say_end_turn(action.data, names, components))


# ---------------------------------------------------------------------------
# Words refusals use
# ---------------------------------------------------------------------------

#: where the game stands, for refusals that say why an action does not fit now
PHASE_WORDS = {"awaiting_setup": "the game is not set up yet",
               "initial_placement": "the initial placements are under way",
               "play": "play has begun", "over": "the game is over"}


def who(state: State, seat: Any) -> str:
    return seat_name(state.names, seat)


def whose(state: State, seat: Any) -> str:
    return possessive(who(state, seat))


def players_text(state: State) -> str:
    return words_list([who(state, s) for s in range(state.player_count)], "or")


def step_text(step: int) -> str:
    if step >= DONE:
        return "the end of the turn (all steps done)"
    return "step 5 (the cards drawn wait to be kept)" if step == 5 else f"step {step}"


def window_text(card: CardType) -> str:
    return words_list([str(s) for s in sorted(card.window) if s != DONE], "or")


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
