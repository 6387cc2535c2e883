"""Terminal boards, one module per game (`cli/boards/<slug>.py`), each drawing a view.

A module defines `board(view, ctx) -> RenderableType`: the game's table as a player of it
would recognise it (map, tableau, garden or court), from the JSON view a seat may see.
Everything a person reads uses `ctx.name(seat)` and `ctx.label(component id)` (and
`ctx.edition` for what a label does not say, a card's rank or a city's value); a board
never prints an id, a snake_case key, `None` or a Python repr. It must fit `ctx.width`
columns (80 and 120 are tested).

A game without a module, or a view a board does not know, is drawn by `generic`: a tree of
the view's fields in words, which a board may also use for the parts it has no drawing for.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from rich.console import RenderableType
from rich.text import Text
from rich.tree import Tree

from projections.messages import render
from projections.rules import ordinal, plural, seat_name

#: pawn colours of the seats, as the web viewer draws them (a game may pass its own)
SEAT_STYLES = ("bold red", "bold blue", "bold green", "bold yellow", "bold magenta",
               "bold cyan")


@dataclass(frozen=True, slots=True)
class BoardContext:
    """What a board needs besides the view: who sits where, what ids are called, how wide."""

    names: Sequence[str]
    labels: Mapping[str, str] = field(default_factory=dict)
    width: int = 100
    to_act: Sequence[Any] = ()
    #: the edition's component data (cards, tiles, tables), for what a label does not say:
    #: a card's rank and suits, a city's value
    edition: Mapping[str, Any] = field(default_factory=dict)
    #: a terminal too short for the whole board (a replay in 50 lines): each board keeps
    #: what a step changes (whose turn, scores, the contested parts) and sums up the rest
    compact: bool = False
    #: the reader's language (projections.messages.LANGUAGES): names, labels and the
    #: rules' sentences are rendered in it
    lang: str = "en"

    def name(self, seat: Any) -> str:
        """The player's name for a seat ("the table", "the server" for those actors)."""
        return render(seat_name(self.names, seat), self.lang)

    def label(self, component: Any) -> str:
        """What a person reads for a component id; an unknown id is shown as itself,
        words separated, so a gap in the labels shows rather than hides."""
        text = self.labels.get(str(component))
        return render(text, self.lang) if text is not None else \
            str(component).replace("_", " ")

    def say(self, value: Any) -> str:
        """A sentence of the rules (a message, or a game's legacy English) in `lang`."""
        return render(value, self.lang)

    def seat_style(self, seat: int) -> str:
        return SEAT_STYLES[seat % len(SEAT_STYLES)]


Draw = Callable[[dict[str, Any], BoardContext], RenderableType]


def listed(view: Mapping[str, Any], key: str) -> list[Any]:
    """`view[key]` when it is a list, else an empty one: a view a board does not know (an
    older rules version, a redacted field) is drawn with what it has, never a crash."""
    value = view.get(key)
    return value if isinstance(value, list) else []


def board_for(game: str) -> Draw | None:
    """The game's board function, or None when it has no module here."""
    try:
        module = importlib.import_module(f"{__name__}.{game}")
    except ModuleNotFoundError:
        return None
    draw: Draw | None = getattr(module, "board", None)
    return draw


# -- the generic board: any view as a tree of words ------------------------------------------
#: keys whose integer value (or list of integers) is a seat: shown as the player's name
SEAT_KEYS = frozenset({
    "seat", "actor", "owner", "controller", "current", "active", "start_player",
    "first_player", "setup_first", "emperor", "winner", "winners", "initiative_winner",
    "to_act", "tied", "pending_winner", "holder", "leader", "dealer",
})
SEAT_SUFFIXES = ("_player", "_holder", "_owner", "_winner", "_seat")
#: a view's fields the state panel already says in a sentence of its own
SHOWN_ELSEWHERE = frozenset({"to_act", "result", "game"})
#: how many items of one list the tree names before it says how many more there are
LIST_LIMIT = 24


def generic(view: Any, ctx: BoardContext) -> RenderableType:
    """The view as a tree: each field in words, ids by their labels, seats by player names.

    Fields with nothing in them (null) are left out; a list as long as the table has seats
    whose items are not ids is read as one entry per player.
    """
    if not isinstance(view, Mapping):
        return Text(_scalar(view, ctx, None))
    tree = Tree(Text("the table", style="bold"), hide_root=True, guide_style="dim")
    for key, value in view.items():
        if key not in SHOWN_ELSEWHERE:
            _branch(tree, str(key), value, ctx)
    return tree


def _is_seat_key(key: str | None) -> bool:
    return key is not None and (key in SEAT_KEYS or key.endswith(SEAT_SUFFIXES))


def _scalar(value: Any, ctx: BoardContext, key: str | None) -> str:
    if value is None or value == "":
        return "—"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, int) and _is_seat_key(key):
        return ctx.name(value)
    if isinstance(value, int | float):
        return str(value)
    return ctx.label(value)


def _is_scalar(value: Any) -> bool:
    return value is None or isinstance(value, str | int | float | bool)


def _per_seat(value: Sequence[Any], ctx: BoardContext) -> bool:
    seats = len(ctx.names)
    return seats > 1 and len(value) == seats and not any(isinstance(v, str) for v in value)


def _inline_list(items: Sequence[Any], ctx: BoardContext, key: str | None) -> str:
    if not items:
        return "none"
    shown = [_scalar(v, ctx, key) for v in items[:LIST_LIMIT]]
    more = len(items) - len(shown)
    return ", ".join(shown) + (f" and {more} more" if more else "")


def _inline_mapping(value: Mapping[str, Any], ctx: BoardContext) -> str:
    parts = [f"{ctx.label(k)} {_scalar(v, ctx, str(k))}" for k, v in value.items()
             if v is not None]
    return " · ".join(parts) if parts else "none"


def _line(key: str | None, text: str) -> Text:
    if key is None:
        return Text(text)
    line = Text(key, style="bold")
    line.append(f": {text}")
    return line


def _item_title(item: Any, index: int, ctx: BoardContext,
                by_seat: bool) -> tuple[str | None, set[str]]:
    """A list entry's heading (its player, its name, its label; None for a plain entry),
    and the fields it came from, which the entry then need not repeat."""
    if isinstance(item, Mapping):
        seat = item.get("seat")
        seat_said = {"seat"} if isinstance(seat, int) and not isinstance(seat, bool) else set()
        if isinstance(item.get("name"), str):
            name = str(item["name"])
            return name, {"name"} | (seat_said if seat_said and ctx.name(seat) == name
                                     else set())
        if seat_said:
            return ctx.name(seat), seat_said
        if isinstance(item.get("id"), str):
            return ctx.label(item["id"]), {"id"}
    return (ctx.name(index) if by_seat else None), set()


def _branch(parent: Tree, key: str, value: Any, ctx: BoardContext) -> None:
    """Add `key: value` under `parent`: one line when it fits in words, else a subtree."""
    words = ctx.label(key)
    if value is None:
        return
    if _is_scalar(value):
        parent.add(_line(words, _scalar(value, ctx, key)))
    elif isinstance(value, Mapping):
        if all(_is_scalar(v) for v in value.values()):
            parent.add(_line(words, _inline_mapping(value, ctx)))
            return
        node = parent.add(Text(words, style="bold"))
        for k, v in value.items():
            _branch(node, str(k), v, ctx)
    elif isinstance(value, Sequence):
        _list_branch(parent, words, key, value, ctx)


def _list_item(node: Tree, index: int, item: Any, key: str, ctx: BoardContext,
               by_seat: Any) -> None:
    """One entry of a list: a line when it is a value, a branch when it holds more."""
    title, said = _item_title(item, index, ctx, by_seat)
    if isinstance(item, Mapping):
        item = {k: v for k, v in item.items() if k not in said}
    if _is_scalar(item):
        node.add(_line(title, _scalar(item, ctx, key)))
    elif isinstance(item, Mapping) and all(_is_scalar(v) for v in item.values()):
        node.add(_line(title, _inline_mapping(item, ctx)))
    elif isinstance(item, Mapping):
        sub = node.add(Text(title or ordinal(index + 1), style="bold"))
        for k, v in item.items():
            _branch(sub, str(k), v, ctx)
    elif isinstance(item, Sequence) and all(_is_scalar(v) for v in item):
        node.add(_line(title, _inline_list(item, ctx, key)))
    elif isinstance(item, Sequence):
        _list_branch(node, title or ordinal(index + 1), key, item, ctx)


def _list_branch(parent: Tree, words: str, key: str, value: Sequence[Any],
                 ctx: BoardContext) -> None:
    by_seat = _per_seat(value, ctx)
    if all(_is_scalar(v) for v in value) and not by_seat:
        parent.add(_line(words, _inline_list(value, ctx, key)))
        return
    if all(_is_scalar(v) for v in value):  # one number per player
        parent.add(_line(words, " · ".join(f"{ctx.name(i)} {_scalar(v, ctx, key)}"
                                          for i, v in enumerate(value))))
        return
    node = parent.add(Text(f"{words} ({plural(len(value), 'entry', 'entries')})"
                           if not by_seat else words, style="bold"))
    for index, item in enumerate(value[:LIST_LIMIT]):
        _list_item(node, index, item, key, ctx, by_seat)
    if len(value) > LIST_LIMIT:
        node.add(Text(f"and {len(value) - LIST_LIMIT} more", style="dim"))
