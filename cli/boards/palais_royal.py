"""Palais Royal's table in the terminal: the court as its 3 by 3 tiles with each player's
servants, the garden as its grid of nobles (points, privilege, cost) with the servants on its
edges, and each player's gold, servants, nobles and privilege cards."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from functools import cache
from typing import Any

from rich import box
from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from projections import get_rules
from projections.palais_royal.words import noble_parts

from . import BoardContext, listed

PHASES = {"awaiting_setup": "waiting for the setup", "initial_placement": "initial placements",
          "play": "play", "over": "game over"}
COST_STYLE = {"gold": "bold yellow", "purple": "bold magenta", "blue": "bold blue"}


@cache
def _default_labels() -> dict[str, str]:
    return get_rules("palais_royal").labels()


class Words:
    """The board's context with the edition's labels (the default edition's when the caller
    passed none). Players are named in full everywhere, cramped cells too: "Ann" for
    Anne and Annabel would make a reader guess."""

    def __init__(self, ctx: BoardContext, seats: int) -> None:
        self.ctx = ctx
        self.labels = dict(ctx.labels) or _default_labels()

    def label(self, ident: Any) -> str:
        text = self.labels.get(str(ident))
        return text if text is not None else str(ident).replace("_", " ")

    def name(self, seat: Any) -> Text:
        style = self.ctx.seat_style(seat) if isinstance(seat, int) else ""
        return Text(self.ctx.name(seat), style=style)



def board(view: dict[str, Any], ctx: BoardContext) -> RenderableType:
    players = listed(view, "players")
    words = Words(ctx, len(players))
    parts: list[RenderableType] = [_heading(view, words)]
    if view.get("court_layout"):
        parts += [Text("Court", style="bold underline"), _court(view, players, words)]
    if view.get("garden"):
        parts += [Text("Garden", style="bold underline"), _garden(view, words),
                  _garden_key(words)]
    if ctx.compact:
        parts += [Text("Players", style="bold underline"), *_player_lines(view, players, words)]
        return Group(*parts)
    parts += [Text("Players", style="bold underline"), *_players(view, players, words)]
    return Group(*parts)


def _player_lines(view: Mapping[str, Any], players: list[Any], words: Words) -> list[Text]:
    """Each player in a line (the compact board): score, gold, servants, nobles."""
    scores = listed(view, "scores")
    out = []
    for seat, p in enumerate(players):
        if not isinstance(p, dict):
            continue
        line = words.name(seat)
        if seat < len(scores):
            line.append(f" · score {scores[seat]}", style="bold")
        down = p.get("nobles_face_down")
        count = len(down) if isinstance(down, list) else p.get("nobles_face_down_count", 0)
        line.append(f" · {p.get('gold', 0)} gold · {_count(p.get('supply'), 'servant')} to place"
                    f" · nobles {count} face down, {len(p.get('nobles_face_up') or ())} face up"
                    f" · {_count(p.get('hand_count'), 'privilege card')}")
        out.append(line)
    return out


# -- heading ------------------------------------------------------------------------
def _heading(view: Mapping[str, Any], words: Words) -> Text:
    phase = str(view.get("phase", ""))
    text = Text(PHASES.get(phase, phase.replace("_", " ")).capitalize(), style="bold")
    if phase == "play":
        text.append(f" · round {view.get('round')}")
        if view.get("final_round"):
            text.append(" (the last)", style="bold red")
        active = view.get("active")
        if isinstance(active, int):
            text.append(" · ")
            text.append_text(words.name(active))
            text.append(f" to play, {_step_words(view.get('turn') or {})}")
    elif phase == "initial_placement":
        acting = [a for a in view.get("to_act") or () if isinstance(a, int)]
        for seat in acting:
            text.append(" · ")
            text.append_text(words.name(seat))
            text.append(" places 5 servants")
    text.append(f" · {_count(view.get('nobles_left'), 'noble')} in the garden · draw pile "
                f"{_count(view.get('deck_count'), 'card')}, discard pile "
                f"{_count(view.get('discard_count'), 'card')}")
    return text


def _step_words(turn: Mapping[str, Any]) -> str:
    step = turn.get("open_step")
    now = "all steps done" if step == "done" else f"step {step} open"
    extras = []
    if turn.get("cardinal_active"):
        extras.append("Cardinal card in play")
    if turn.get("gate_unlimited"):
        extras.append("no Gate limit")
    if turn.get("gate_bonus"):
        extras.append(f"+{turn['gate_bonus']} Gate servants")
    if turn.get("move_bonus"):
        extras.append(f"+{turn['move_bonus']} moves")
    seals = turn.get("bonus_seals") or {}
    for colour in ("blue", "purple"):
        if seals.get(colour):
            extras.append(_count(seals[colour], f"bonus {colour} seal"))
    if turn.get("pending_drawn_count"):
        extras.append(f"{_count(turn['pending_drawn_count'], 'drawn card')} to keep or discard")
    return now + "".join(f"; {e}" for e in extras)


def _count(n: Any, one: str) -> str:
    n = n if isinstance(n, int) else 0
    return f"{n} {one if n == 1 else one + 's'}"


# -- court --------------------------------------------------------------------------
def _court_lines(view: Mapping[str, Any], players: list[Any], words: Words) -> Text:
    """The court in a line per tile (the compact board): who has servants there."""
    text = Text()
    for tile in [str(t) for t in view.get("court_layout") or ()]:
        if text:
            text.append("\n")
        text.append(f"{words.label(tile)}: ", style="bold")
        there = [(seat, (p.get("court") or {}).get(tile)) for seat, p in enumerate(players)
                 if isinstance(p, dict)]
        there = [(seat, n) for seat, n in there if n]
        for i, (seat, n) in enumerate(there):
            text.append(", " if i else "")
            text.append_text(words.name(seat)).append(f" {n}")
        if not there:
            text.append("nobody", style="dim")
    return text


def _court(view: Mapping[str, Any], players: list[Any], words: Words) -> RenderableType:
    if words.ctx.compact:
        return _court_lines(view, players, words)
    layout = [str(t) for t in view.get("court_layout") or ()]
    table = Table(show_header=False, box=box.SQUARE, show_lines=not words.ctx.compact,
                  padding=(0, 1))
    for _ in range(3):
        table.add_column(ratio=1)
    cells = []
    for tile in layout:
        cell = Text(words.label(tile), style="bold")
        for seat, p in enumerate(players):
            n = (p.get("court") or {}).get(tile) if isinstance(p, dict) else None
            if n:
                cell.append("\n")
                cell.append_text(words.name(seat))
                cell.append(f" {n}")
        cells.append(cell)
    for row in range(0, len(cells), 3):
        table.add_row(*cells[row:row + 3])
    return table


# -- garden -------------------------------------------------------------------------
def _garden(view: Mapping[str, Any], words: Words) -> Table:
    garden = view.get("garden") or {}
    servants = view.get("garden_servants") or {}
    size = _grid_size(garden)
    table = Table(box=box.SQUARE, show_lines=not words.ctx.compact, padding=(0, 0),
                  header_style="bold", expand=True)
    table.add_column("", justify="right", no_wrap=True)
    for c in range(size[1]):
        table.add_column(f"column {c + 1}" if words.ctx.width >= 110 else str(c + 1),
                         justify="center", ratio=1)
    for r in range(size[0]):
        cells: list[RenderableType] = [Text(f"row {r + 1}" if words.ctx.width >= 110
                                            else str(r + 1), style="bold")]
        for c in range(size[1]):
            space = f"r{r}c{c}"
            cells.append(_space_cell(garden.get(space), servants.get(space), words))
        table.add_row(*cells)
    return table


def _grid_size(garden: Mapping[str, Any]) -> tuple[int, int]:
    rows = cols = 0
    for key in garden:
        r, _, c = str(key)[1:].partition("c")
        if r.isdigit() and c.isdigit():
            rows, cols = max(rows, int(r) + 1), max(cols, int(c) + 1)
    return rows, cols


def _space_cell(noble: Any, servant: Any, words: Words) -> Text:
    cell = Text()
    if noble is not None:
        cell.append_text(_noble_text(words.label(noble), words.ctx.width, words.ctx.compact))
    else:
        cell.append("·", style="dim")
    if isinstance(servant, int):
        cell.append("\n● ")
        cell.append_text(words.name(servant))
    return cell


def _noble_text(label: str, width: int, compact: bool = False) -> Text:
    """Points, privilege and cost on their own lines; a label of another shape as is."""
    parts = noble_parts(label)
    if parts is None:
        return Text(label)
    text = Text(f"{parts.points} pt" + ("" if parts.points == 1 else "s"), style="bold")
    if parts.privilege and not compact:
        text.append(f"\n{parts.privilege}", style="italic")
    text.append("\n")
    for i, (colour, n) in enumerate(parts.costs.items()):
        text.append(" " if i else "")
        text.append(f"{n}{colour[0]}", style=COST_STYLE[colour])
    if not parts.costs:
        text.append("free")
    return text


def _garden_key(words: Words) -> Text:
    key = Text("Costs: ", style="dim")
    for i, colour in enumerate(COST_STYLE):
        key.append(", " if i else "")
        key.append(f"{colour[0]} {colour}", style=COST_STYLE[colour])
    key.append(" · ", style="dim")
    key.append("a noble's cost falls by 1 gold per empty neighbouring space; ● a servant "
               "on an edge space", style="dim")
    return key


# -- players ------------------------------------------------------------------------
def _players(view: Mapping[str, Any], players: list[Any],
             words: Words) -> list[RenderableType]:
    scores = listed(view, "scores")
    public = listed(view, "public_scores")
    acting = set(a for a in view.get("to_act") or () if isinstance(a, int))
    out: list[RenderableType] = []
    for seat, p in enumerate(players):
        if not isinstance(p, dict):
            continue
        head = Text("▶ " if seat in acting else "  ")
        head.append_text(words.name(seat))
        if seat < len(scores):
            head.append(f" · score {scores[seat]}", style="bold")
        elif seat < len(public):
            head.append(f" · {public[seat]} points showing")
        details = Table.grid(padding=(0, 1))
        details.add_column(justify="right", no_wrap=True, style="dim", min_width=11)
        details.add_column()
        details.add_row("has", f"{p.get('gold', 0)} gold · {_count(p.get('supply'), 'servant')} "
                        f"in the supply, {p.get('general_supply', 0)} in reserve · "
                        f"{_count(p.get('hand_count'), 'privilege card')} in hand")
        down = p.get("nobles_face_down")
        if isinstance(down, list):
            details.add_row("face down", _grouped([words.label(n) for n in down]) or "none")
        else:
            details.add_row("face down", _count(p.get("nobles_face_down_count"), "noble"))
        details.add_row("face up", _grouped([words.label(n) for n in
                                             p.get("nobles_face_up") or ()]) or "none")
        played = [words.label(c) for c in p.get("played_cards") or ()]
        if played:
            details.add_row("played", _grouped(played))
        hand = p.get("hand")
        if isinstance(hand, dict):
            details.add_row("hand", _grouped(
                [words.label(c) for c, k in hand.items() for _ in range(k)]) or "empty")
        out += [head, details]
    if isinstance(view.get("my_score"), int):
        out.append(Text(f"Your score, with your face-down nobles: {view['my_score']}",
                        style="bold"))
    return out


def _grouped(labels: Sequence[str]) -> str:
    return ", ".join(f"{t} (×{k})" if k > 1 else t  # noqa: RUF001
                     for t, k in Counter(labels).items())
