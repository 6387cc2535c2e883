"""`chronicle move`: a move built choice by choice at the terminal (issue #29).

The service walks the choices (events/choosing.py); this module only asks a person, or
reads a script's `--pick` answers, and prints. A `--pick` names an option by its label
("the Huntress"), its value ("huntress") or its number in the list shown; `done` ends a
list that may end.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from rich import box
from rich.table import Table
from rich.text import Text

from projections.messages import M

from .render import say

END_WORDS = frozenset({"done", "end", "."})


class NotAnOption(ValueError):
    """A typed answer matches no option of the choice asked."""


def answer(choice: dict[str, Any], typed: str) -> dict[str, Any]:
    """The pick a typed answer means for `choice` (NotAnOption names what is offered)."""
    text = typed.strip()
    options = choice["options"]
    if text.lower() in END_WORDS and choice.get("can_end"):
        return {"choice": choice["id"], "end": True}
    for option in options:
        if _value_text(option["value"]) == text:
            return {"choice": choice["id"], "value": option["value"]}
    # a label in English or in the reader's language
    folded = [o for o in options if text.casefold() in (str(o["label"]).casefold(),
                                                        say(o["label"]).casefold())]
    if len(folded) == 1:
        return {"choice": choice["id"], "value": folded[0]["value"]}
    if text.isdigit() and 1 <= int(text) <= len(options):
        return {"choice": choice["id"], "value": options[int(text) - 1]["value"]}
    if choice.get("can_end"):
        raise NotAnOption(say(M("“{text}” is not one of the options of “{prompt}”: give a "
                                "number from 1 to {count}, a label or “done”", text=text,
                                prompt=choice["prompt"], count=len(options))))
    raise NotAnOption(say(M("“{text}” is not one of the options of “{prompt}”: give a number "
                            "from 1 to {count}, a label", text=text, prompt=choice["prompt"],
                            count=len(options))))


def _value_text(value: Any) -> str:
    return value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)


def choice_table(walk: dict[str, Any]) -> Table:
    """What is asked now, with its options numbered under their groups."""
    choice = walk["choice"]
    table = Table(title=Text(say(choice["prompt"])), box=box.SIMPLE_HEAD, title_justify="left",
                  caption=Text(_caption(choice)))
    table.add_column("#", justify="right")
    table.add_column(say(M("option")))
    table.add_column("", ratio=1)
    group = None
    for number, option in enumerate(choice["options"], 1):
        if option.get("group") and option["group"] != group:
            group = option["group"]
            table.add_row("", Text(say(group), style="bold"), "")
        table.add_row(str(number), Text(say(option["label"])),
                      Text(say(option.get("detail", ""))))
    return table


def _caption(choice: dict[str, Any]) -> str:
    if choice["kind"] == "one":
        return say(M("pick one (a number or a label)"))
    if choice.get("can_end"):
        return say(M("one at a time; “done” ends the list"))
    return say(M("one at a time"))


def menu_table(actions: list[dict[str, Any]], name: Callable[[Any], str]) -> Table:
    table = Table(title=Text(say(M("Moves open now"))), box=box.SIMPLE_HEAD,
                  title_justify="left",
                  caption=Text(say(M("`chronicle move ID TYPE` builds one choice by choice"))))
    table.add_column("#", justify="right")
    table.add_column(say(M("who")))
    table.add_column(say(M("move")))
    table.add_column("TYPE")
    for number, action in enumerate(actions, 1):
        table.add_row(str(number), Text(name(action["actor"])), Text(say(action["label"])),
                      Text(action["type"], style="dim"))
    return table
