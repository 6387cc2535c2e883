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
from projections.messages import M, Mn
from projections.palais_royal.words import noble_parts

from . import BoardContext, listed

PHASES = {"awaiting_setup": M("Waiting for the setup"),
          "initial_placement": M("Initial placements"), "play": M("Play"),
          "over": M("Game over")}
COST_STYLE = {"gold": "bold yellow", "purple": "bold magenta", "blue": "bold blue"}
#: a cost in a garden cell ("2g 1p 1b") and the key that explains the letters
COST_SHORT = {"gold": lambda n: M("{count}g", count=n), "purple": lambda n: M("{count}p", count=n),
              "blue": lambda n: M("{count}b", count=n)}
COST_KEY = {"gold": M("g gold"), "purple": M("p purple"), "blue": M("b blue")}


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
        return self.ctx.say(self.raw(ident))

    def raw(self, ident: Any) -> str:
        """The label as the rules give it (a message), for a board that reads its parts."""
        text = self.labels.get(str(ident))
        return text if text is not None else str(ident).replace("_", " ")

    def say(self, message: Any) -> str:
        return self.ctx.say(message)

    @property
    def comma(self) -> str:
        """What separates the items of a list: "、" in Chinese."""
        return "、" if self.ctx.lang == "zh_Hans" else ", "

    def name(self, seat: Any) -> Text:
        style = self.ctx.seat_style(seat) if isinstance(seat, int) else ""
        return Text(self.ctx.name(seat), style=style)



def board(view: dict[str, Any], ctx: BoardContext) -> RenderableType:
    players = listed(view, "players")
    words = Words(ctx, len(players))
    parts: list[RenderableType] = [_heading(view, words)]
    if view.get("court_layout"):
        parts += [Text(words.say(M("Court")), style="bold underline"),
                  _court(view, players, words)]
    if view.get("garden"):
        parts += [Text(words.say(M("Garden")), style="bold underline"), _garden(view, words),
                  _garden_key(words)]
    heading = Text(words.say(M("Players")), style="bold underline")
    if ctx.compact:
        parts += [heading, *_player_lines(view, players, words)]
        return Group(*parts)
    parts += [heading, *_players(view, players, words)]
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
            line.append(words.say(M(" · score {score}", score=scores[seat])), style="bold")
        down = p.get("nobles_face_down")
        count = len(down) if isinstance(down, list) else p.get("nobles_face_down_count", 0)
        line.append(words.say(M(
            " · {gold} gold · {servants} to place · nobles {down} face down, {up} face up · "
            "{cards}", gold=p.get("gold", 0),
            servants=_count(p.get("supply"), "servant"), down=count,
            up=len(p.get("nobles_face_up") or ()),
            cards=_count(p.get("hand_count"), "privilege card"))))
        out.append(line)
    return out


# -- heading ------------------------------------------------------------------------
def _heading(view: Mapping[str, Any], words: Words) -> Text:
    phase = str(view.get("phase", ""))
    say = words.say
    text = Text(say(PHASES.get(phase, phase.replace("_", " ").capitalize())), style="bold")
    if phase == "play":
        text.append(say(M(" · round {round}", round=view.get("round"))))
        if view.get("final_round"):
            text.append(say(M(" (the last)")), style="bold red")
        active = view.get("active")
        if isinstance(active, int):
            text.append(" · ")
            text.append_text(words.name(active))
            text.append(say(M(" to play, {step}", step=_step_words(view.get("turn") or {}))))
    elif phase == "initial_placement":
        acting = [a for a in view.get("to_act") or () if isinstance(a, int)]
        for seat in acting:
            text.append(" · ")
            text.append_text(words.name(seat))
            text.append(say(M(" places 5 servants")))
    text.append(say(M(" · {nobles} in the garden · draw pile {deck}, discard pile {discard}",
                      nobles=_count(view.get("nobles_left"), "noble"),
                      deck=_count(view.get("deck_count"), "card"),
                      discard=_count(view.get("discard_count"), "card"))))
    return text


def _step_words(turn: Mapping[str, Any]) -> str:
    step = turn.get("open_step")
    now = M("all steps done") if step == "done" else M("step {step} open", step=step)
    extras: list[str] = []
    if turn.get("cardinal_active"):
        extras.append(M("Cardinal card in play"))
    if turn.get("gate_unlimited"):
        extras.append(M("no Gate limit"))
    if turn.get("gate_bonus"):
        extras.append(M("+{count} Gate servants", count=turn["gate_bonus"]))
    if turn.get("move_bonus"):
        extras.append(M("+{count} moves", count=turn["move_bonus"]))
    seals = turn.get("bonus_seals") or {}
    for colour in ("blue", "purple"):
        if seals.get(colour):
            extras.append(_count(seals[colour], f"bonus {colour} seal"))
    if turn.get("pending_drawn_count"):
        extras.append(M("{cards} to keep or discard",
                        cards=_count(turn["pending_drawn_count"], "drawn card")))
    for extra in extras:
        now = M("{text}; {more}", text=now, more=extra)
    return now


#: the things the board counts, by count ("1 servant", "3 servants")
COUNTED = {
    "servant": lambda n: Mn("{count} servant", "{count} servants", n),
    "privilege card": lambda n: Mn("{count} privilege card", "{count} privilege cards", n),
    "noble": lambda n: Mn("{count} noble", "{count} nobles", n),
    "card": lambda n: Mn("{count} card", "{count} cards", n),
    "drawn card": lambda n: Mn("{count} drawn card", "{count} drawn cards", n),
    "bonus blue seal": lambda n: Mn("{count} bonus blue seal", "{count} bonus blue seals", n),
    "bonus purple seal": lambda n: Mn("{count} bonus purple seal", "{count} bonus purple seals",
                                      n),
}


def _count(n: Any, one: str) -> str:
    return COUNTED[one](n if isinstance(n, int) else 0)


# -- court --------------------------------------------------------------------------
def _court_lines(view: Mapping[str, Any], players: list[Any], words: Words) -> Text:
    """The court in a line per tile (the compact board): who has servants there."""
    text = Text()
    for tile in [str(t) for t in view.get("court_layout") or ()]:
        if text:
            text.append("\n")
        text.append(words.say(M("{tile}: ", tile=words.label(tile))), style="bold")
        there = [(seat, (p.get("court") or {}).get(tile)) for seat, p in enumerate(players)
                 if isinstance(p, dict)]
        there = [(seat, n) for seat, n in there if n]
        for i, (seat, n) in enumerate(there):
            text.append(words.comma if i else "")
            text.append_text(words.name(seat)).append(f" {n}")
        if not there:
            text.append(words.say(M("nobody")), style="dim")
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
        table.add_column(words.say(M("column {number}", number=c + 1))
                         if words.ctx.width >= 110 else str(c + 1), justify="center", ratio=1)
    for r in range(size[0]):
        cells: list[RenderableType] = [Text(words.say(M("row {number}", number=r + 1))
                                            if words.ctx.width >= 110 else str(r + 1),
                                            style="bold")]
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
        cell.append_text(_noble_text(words.raw(noble), words, words.ctx.compact))
    else:
        cell.append("·", style="dim")
    if isinstance(servant, int):
        cell.append("\n● ")
        cell.append_text(words.name(servant))
    return cell


def _noble_text(label: str, words: Words, compact: bool = False) -> Text:
    """Points, privilege and cost on their own lines; a label of another shape as is."""
    parts = noble_parts(label)
    if parts is None:
        return Text(words.say(label))
    text = Text(words.say(Mn("{count} pt", "{count} pts", parts.points)), style="bold")
    if parts.privilege and not compact:
        text.append(f"\n{words.say(parts.privilege)}", style="italic")
    text.append("\n")
    for i, (colour, n) in enumerate(parts.costs.items()):
        text.append(" " if i else "")
        text.append(words.say(COST_SHORT[colour](n)), style=COST_STYLE[colour])
    if not parts.costs:
        text.append(words.say(M("free")))
    return text


def _garden_key(words: Words) -> Text:
    key = Text(words.say(M("Costs: ")), style="dim")
    for i, colour in enumerate(COST_STYLE):
        key.append(words.comma if i else "")
        key.append(words.say(COST_KEY[colour]), style=COST_STYLE[colour])
    key.append(" · ", style="dim")
    key.append(words.say(M("a noble's cost falls by 1 gold per empty neighbouring space; ● a "
                           "servant on an edge space")), style="dim")
    return key


# -- players ------------------------------------------------------------------------
def _players(view: Mapping[str, Any], players: list[Any],
             words: Words) -> list[RenderableType]:
    scores = listed(view, "scores")
    public = listed(view, "public_scores")
    acting = set(a for a in view.get("to_act") or () if isinstance(a, int))
    say = words.say
    out: list[RenderableType] = []
    for seat, p in enumerate(players):
        if not isinstance(p, dict):
            continue
        head = Text("▶ " if seat in acting else "  ")
        head.append_text(words.name(seat))
        if seat < len(scores):
            head.append(say(M(" · score {score}", score=scores[seat])), style="bold")
        elif seat < len(public):
            head.append(say(M(" · {points} points showing", points=public[seat])))
        details = Table.grid(padding=(0, 1))
        details.add_column(justify="right", no_wrap=True, style="dim", min_width=11)
        details.add_column()
        details.add_row(say(M("has")), say(M(
            "{gold} gold · {servants} in the supply, {reserve} in reserve · {cards} in hand",
            gold=p.get("gold", 0), servants=_count(p.get("supply"), "servant"),
            reserve=p.get("general_supply", 0),
            cards=_count(p.get("hand_count"), "privilege card"))))
        _player_rows(details, p, words)
        out += [head, details]
    if isinstance(view.get("my_score"), int):
        out.append(Text(say(M("Your score, with your face-down nobles: {score}",
                              score=view["my_score"])), style="bold"))
    return out


def _player_rows(details: Table, p: Mapping[str, Any], words: Words) -> None:
    """The nobles face down and face up, the played cards and the hand of one player."""
    say, none = words.say, words.say(M("none"))
    down = p.get("nobles_face_down")
    if isinstance(down, list):
        details.add_row(say(M("face down")),
                        _grouped([words.label(n) for n in down], words.comma) or none)
    else:
        details.add_row(say(M("face down")), say(_count(p.get("nobles_face_down_count"),
                                                        "noble")))
    details.add_row(say(M("face up")), _grouped([words.label(n) for n in p.get("nobles_face_up")
                                                 or ()], words.comma) or none)
    played = [words.label(c) for c in p.get("played_cards") or ()]
    if played:
        details.add_row(say(M("played")), _grouped(played, words.comma))
    hand = p.get("hand")
    if isinstance(hand, dict):
        details.add_row(say(M("hand")), _grouped(
            [words.label(c) for c, k in hand.items() for _ in range(k)], words.comma)
            or say(M("empty")))


def _grouped(labels: Sequence[str], comma: str = ", ") -> str:
    return comma.join(f"{t} (×{k})" if k > 1 else t  # noqa: RUF001
                     for t, k in Counter(labels).items())
