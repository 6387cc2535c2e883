"""How the CLI shows things to people: rich tables and panels, a board per game.

Everything here turns documents the recorder returns into words: players by name (seats stay
numbers only in `--json`), components by the edition's labels, results as sentences and
scores as a table by player. No Python repr, `None` or snake_case reaches the screen; each
renderable fits the console's width (80 and 120 columns are tested).
"""

from __future__ import annotations

import io
import json
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from rich import box
from rich.console import Console, ConsoleOptions, Group, RenderableType, RenderResult
from rich.panel import Panel
from rich.segment import Segment
from rich.table import Table
from rich.text import Text

from projections.messages import M, Mn, Seq, render

from .boards import BoardContext, board_for, generic
from .wrap import breakable

#: the reader's language for this run (`chronicle --lang`, else LC_ALL / LC_MESSAGES / LANG)
_READER = {"lang": "en"}


def set_language(lang: str) -> None:
    _READER["lang"] = lang


def language() -> str:
    return _READER["lang"]


def say(value: Any) -> str:
    """A message (or a legacy English string) in the reader's language."""
    return render(value, _READER["lang"])


#: action -> the sentence a player would say for it (the game's `describe`)
Describe = Callable[[str, Any, Mapping[str, Any]], str]
PANEL_MARGIN = 4  # a panel's two borders and two padding columns


def console() -> Console:
    """stdout console; plain text when not a terminal, so scripts and tests read clean text.

    Its width is the terminal's, or `COLUMNS`, or 80 when neither is known.
    """
    return Console(highlight=False, soft_wrap=False, emoji=False)


@dataclass(frozen=True, slots=True)
class GameWords:
    """How one game is put into words: its title, its players and labels, its sentences."""

    title: str
    ctx: BoardContext
    describe: Describe
    mode: str = "table"

    def sentence(self, action: Mapping[str, Any]) -> str:
        """The action as a sentence in the reader's language; an action the game cannot
        describe still reads."""
        try:
            return self.ctx.say(self.describe(action["type"], action.get("actor"),
                                              action.get("data") or {}))
        except Exception:  # a listed action without its chance fields, an odd shape
            return f"{self.ctx.name(action.get('actor'))}: {words(action['type'])}"

    def at_width(self, width: int, to_act: Sequence[Any] = ()) -> GameWords:
        return replace(self, ctx=replace(self.ctx, width=width, to_act=tuple(to_act)))


#: a rule's machine code in parentheses, "(card_not_in_deck)", inside a service message
RULE_CODE = re.compile(r"\s?\([a-z]+(?:_[a-z0-9]+)+\)")


def without_codes(message: Any) -> str:
    """A service message as a person reads it: the rule's code is for scripts (`--json`)."""
    return RULE_CODE.sub("", str(message)).strip()


def words(code: Any) -> str:
    """A machine code ("claim_result") as words ("claim result")."""
    return str(code).replace("_", " ")


def sentence_case(text: str) -> str:
    return text[:1].upper() + text[1:]


# -- boards and state ---------------------------------------------------------------------------
def board(game: str, view: Any, ctx: BoardContext) -> RenderableType:
    """The game's board, or the generic tree of the view for a game without one (or for a
    view its board does not know)."""
    draw = board_for(game)
    if draw is not None and isinstance(view, dict):
        try:
            return draw(view, ctx)
        except (KeyError, TypeError, ValueError, AttributeError, IndexError):
            pass
    return generic(view, ctx)


def result_sentence(result: Mapping[str, Any], ctx: BoardContext) -> str:
    """ "Anna wins with 42 points (period 3 scored)": who won, with what, and why it ended."""
    scores = list(result.get("scores") or [])
    winners = [w for w in result.get("winners") or [] if isinstance(w, int)]
    won = {scores[w] for w in winners if w < len(scores)}
    if winners:
        who = Seq(ctx.name(w) for w in winners)
        if len(won) == 1:
            text = Mn("{players} wins with {points}", "{players} share the win with {points}",
                      len(winners), players=who, points=_points(won.pop()))
        else:
            text = Mn("{players} wins", "{players} share the win", len(winners), players=who)
    elif len(scores) == 1:
        text = M("{player} loses with {points}", player=ctx.name(0), points=_points(scores[0]))
    else:
        text = M("Nobody wins")
    reason = result.get("reason")
    if reason:
        text = M("{result} ({reason})", result=text, reason=ctx.label(reason))
    return ctx.say(text)


def _points(score: Any) -> Any:
    if isinstance(score, int):
        return Mn("{count} point", "{count} points", score)
    return M("{score} points", score=str(score))


def _cell(value: Any, ctx: BoardContext) -> str:
    if value is None or value in ({}, [], ""):
        return "—"
    if isinstance(value, bool):
        return ctx.say(M("yes") if value else M("no"))
    if isinstance(value, int | float):
        return str(value)
    if isinstance(value, str):
        return ctx.label(value)
    if isinstance(value, Mapping):
        return ", ".join(f"{ctx.label(k)} {_cell(v, ctx)}" for k, v in value.items())
    return ", ".join(_cell(v, ctx) for v in value) if isinstance(value, list) else "—"


def _breakdown_rows(result: Mapping[str, Any], seats: int) -> list[tuple[str, list[Any]]]:
    """(category, one value per seat) from the result's breakdown, whatever its shape."""
    breakdown = result.get("breakdown")
    per_seat = breakdown.get("per_seat") if isinstance(breakdown, Mapping) else breakdown
    if isinstance(per_seat, list) and all(isinstance(s, Mapping) for s in per_seat):
        keys: list[str] = []
        for entry in per_seat:
            keys += [k for k in entry if k not in keys and not isinstance(entry[k], list)]
        return [(k, [entry.get(k) for entry in per_seat]) for k in keys]
    if isinstance(breakdown, Mapping) and seats == 1:
        return [(k, [v]) for k, v in breakdown.items() if isinstance(v, int | float)]
    return []


def scores_table(result: Mapping[str, Any], ctx: BoardContext) -> Table:
    """Scores by player: one column per player (a ★ for each winner), one row per category."""
    scores = list(result.get("scores") or [])
    winners = set(result.get("winners") or [])
    table = Table(box=box.SIMPLE_HEAD, title=None, pad_edge=False)
    table.add_column("")
    for seat in range(len(scores)):
        table.add_column(Text(ctx.name(seat) + (" ★" if seat in winners else "")),
                         justify="right")
    for category, values in _breakdown_rows(result, len(scores)):
        table.add_row(Text(ctx.label(category)), *(Text(_cell(v, ctx)) for v in values))
    table.add_row(Text(ctx.say(M("score")), style="bold"),
                  *(Text(_cell(s, ctx), style="bold") for s in scores))
    return table


def state_panel(doc: Mapping[str, Any], game: GameWords, width: int,
                compact: bool = False) -> Panel:
    """The board at one step, who is to act or how it ended, titled with the game and step.

    `compact`: the board summed up for a short terminal, and the result without its table.
    """
    inner = width - PANEL_MARGIN
    g = game.at_width(inner, doc.get("to_act") or ())
    if compact:
        g = replace(g, ctx=replace(g.ctx, compact=True))
    parts: list[RenderableType] = [board(doc["game"], doc.get("view"), g.ctx)]
    result = doc.get("result")
    if result:
        parts += [Text(""), Text(sentence_case(result_sentence(result, g.ctx)), style="bold")]
        if not compact:
            parts.append(scores_table(result, g.ctx))
    elif doc.get("to_act"):
        parts += [Text(""), Text(g.ctx.say(M("To act: {players}", players=Seq(
            g.ctx.name(a) for a in doc["to_act"]))), style="bold")]
    if doc.get("audit") == "failed":
        parts.append(Text(g.ctx.say(M("This game failed its audit: `chronicle verify` says "
                                      "where.")), style="bold red"))
    status = M("finished") if doc.get("status") == "finished" else M("in progress")
    title = Text(g.ctx.say(M("{game} · step {seq} of {last}", game=game.title, seq=doc["seq"],
                             last=doc.get("last_seq", doc["seq"]))))
    subtitle = Text(g.ctx.say(M("{game_id} · {mode} · {status}", game_id=doc["game_id"],
                                mode=_mode(doc.get("mode", game.mode)), status=status)))
    return Panel(Group(*parts), title=title, subtitle=subtitle, width=width)


# -- events -------------------------------------------------------------------------------------
def event_sentence(event: Mapping[str, Any], note: Mapping[str, Any], game: GameWords) -> str:
    """What happened at one event, in a sentence naming who did it."""
    ctx, data = game.ctx, event.get("data") or {}
    who = ctx.name(event.get("actor"))
    kind = event.get("type")
    text: Any
    if kind == "game_created":
        players = data.get("players") or list(ctx.names)
        text = M("{game} set up for {players} ({mode})", game=game.title,
                 players=Seq(str(p) for p in players), mode=_mode(data.get("mode", game.mode)))
    elif kind in ("undo", "redo"):
        text = (M("{player} undid step {seq}", player=who, seq=str(data.get("target_seq")))
                if kind == "undo" else
                M("{player} redid step {seq}", player=who, seq=str(data.get("target_seq"))))
    elif kind == "seed_revealed":
        text = M("The server revealed the seed it dealt from")
    elif kind == "note":
        text = M("{player} noted: {text}", player=who, text=str(data.get("text", ""))) \
            if data.get("text") else M("{player} noted", player=who)
    elif kind == "claim_result":
        claimed = ", ".join(f"{ctx.name(i)} {s}" for i, s in enumerate(data.get("scores") or [])
                            if s is not None)
        text = M("{player} wrote down the result: {claimed}", player=who, claimed=claimed) \
            if claimed else M("{player} wrote down the result", player=who)
    elif kind == "correction":
        fix = data.get("action") or {}
        text = M("{player} corrected step {seq}: {what}", player=who,
                 seq=str(data.get("target_seq")),
                 what=game.sentence(fix) if fix.get("type") else M("an action with no type"))
    else:
        text = note.get("description") or game.sentence(event)
    return sentence_case(ctx.say(text))


def _mode(mode: Any) -> Any:
    """ "table game" / "digital game": a game's mode in words."""
    return {"table": M("table game"), "digital": M("digital game")}.get(str(mode), str(mode))


def event_text(event: Mapping[str, Any], note: Mapping[str, Any], game: GameWords) -> Text:
    text = Text(event_sentence(event, note, game))
    say = game.ctx.say
    if note.get("undone"):
        text.stylize("strike dim")
        text.append(say(M(" (undone)")), style="dim")
    if note.get("corrected_by") is not None:
        text.append(say(M(" (corrected at step {seq})", seq=str(note["corrected_by"]))),
                    style="italic")
    if note.get("invalid"):
        text.append(say(M(" — no longer legal: {reason}",
                          reason=without_codes(say(note["invalid"])))), style="red")
    if note.get("redacted"):
        text.append(say(M(" (hidden details withheld)")), style="dim")
    return text


def log_table(events: list[dict[str, Any]], notes: Mapping[int, Mapping[str, Any]],
              game: GameWords) -> Table:
    say = game.ctx.say
    table = Table(title=Text(say(M("{game}: {events}", game=game.title, events=Mn(
        "{count} event", "{count} events", len(events))))), box=box.SIMPLE_HEAD)
    table.add_column(say(M("step")), justify="right")
    table.add_column(say(M("who")))
    table.add_column(say(M("what happened")), ratio=1)
    table.add_column(say(M("recorded")), no_wrap=True)
    for event in events:
        table.add_row(str(event["seq"]), Text(game.ctx.name(event.get("actor"))),
                      breakable(event_text(event, notes.get(event["seq"], {}), game),
                                game.ctx.lang),
                      _when(event.get("recorded_at")))
    return table


def _when(stamp: Any) -> str:
    return str(stamp or "")[:16].replace("T", " ")


def step_view(event: Mapping[str, Any], note: Mapping[str, Any], doc: Mapping[str, Any],
              game: GameWords, width: int, height: int | None = None) -> Group:
    """One step of a replay: what happened, the board after it, the keys.

    With a `height` (a terminal's lines), the whole step fits in it with the sentence on
    top: the full board when it fits, else the compact board, else the compact board cut
    at the screen's foot with a line saying so. One line is left for the cursor, so the
    sentence never scrolls away.
    """
    say = game.ctx.say
    head = Text(say(M("Step {seq} of {last}: ", seq=event["seq"],
                      last=doc.get("last_seq", event["seq"]))), style="bold")
    head.append_text(event_text(event, note, game))
    keys = Text(say(M("n or → next · p or ← previous · f first · l last · q quit")),
                style="dim")
    full = Group(head, state_panel(doc, game, width), keys)
    if height is None or lines_of(full, width) < height:
        return full
    panel = state_panel(doc, game, width, compact=True)
    room = height - 1 - lines_of(head, width) - lines_of(keys, width)
    if lines_of(panel, width) <= room:
        return Group(head, panel, keys)
    return Group(head, Cropped(panel, room, say), keys)


def lines_of(renderable: RenderableType, width: int) -> int:
    """How many terminal lines a renderable takes at this width."""
    probe = Console(width=width, file=io.StringIO(), color_system=None, legacy_windows=False)
    return len(probe.render_lines(renderable, probe.options, pad=False))


class Cropped:
    """The first lines of a renderable that would not fit, and a last line saying what
    was left out and where to read it whole."""

    def __init__(self, renderable: RenderableType, lines: int,
                 say: Callable[[Any], str]) -> None:
        self.renderable, self.lines, self.say = renderable, max(2, lines), say

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        rendered = console.render_lines(self.renderable, options, pad=False)
        kept = rendered[: self.lines - 1]
        for line in kept:
            yield from line
            yield Segment.line()
        left = len(rendered) - len(kept)
        yield Text(self.say(Mn("… {count} more line of the board: `chronicle state` shows it "
                               "whole", "… {count} more lines of the board: `chronicle state` "
                               "shows it whole", left, count=left)),
                   style="dim", no_wrap=True, overflow="ellipsis")


def recorded_line(event: Mapping[str, Any], game: GameWords) -> Text:
    """ "Step 3 recorded: Ann controlled the Sailor with the Mill"."""
    line = Text(game.ctx.say(M("Step {seq} recorded: ", seq=event["seq"])), style="bold")
    line.append(event_sentence(event, {}, game))
    return line


# -- legal actions ------------------------------------------------------------------------------
def actions_table(actions: list[dict[str, Any]], game: GameWords,
                  finished: bool = False) -> RenderableType:
    say = game.ctx.say
    if not actions:
        return Text(say(M("No legal action now: the game is over.") if finished else
                        M("No legal action now: it is someone else's turn.")))
    table = Table(title=Text(say(Mn("{count} legal action now", "{count} legal actions now",
                                    len(actions)))),
                  box=box.SIMPLE_HEAD,
                  caption=Text(say(M("`--json` lists them ready to pass to `act`"))))
    table.add_column("#", justify="right")
    table.add_column(say(M("who")))
    table.add_column(say(M("the action, as it would be recorded")), ratio=1)
    for number, action in enumerate(actions, 1):
        table.add_row(str(number), Text(game.ctx.name(action.get("actor"))),
                      Text(sentence_case(game.sentence(action))))
    return table


def correction_table(report: list[dict[str, Any]], ctx: BoardContext) -> Table:
    """What a correction did to each later event (`act` of a correction), in the reader's
    language: now illegal (with the rule's refusal) or changed (what of the game)."""
    table = Table(title=Text(say(M("What the correction did to the later events"))),
                  box=box.SIMPLE_HEAD)
    table.add_column(say(M("step")), justify="right")
    table.add_column(say(M("now")))
    table.add_column(say(M("what")), ratio=1)
    for row in report:
        if row.get("status") == "illegal":
            table.add_row(str(row["seq"]), say(M("illegal")),
                          Text(without_codes(say(row.get("message", "")))))
        else:
            changed = Seq([ctx.labels.get(str(k)) or words(k) for k in row.get("changed", [])])
            table.add_row(str(row["seq"]), say(M("changed")),
                          Text(say(M("changes {parts}", parts=changed))))
    if not report:
        table.add_row("—", say(M("unchanged")), say(M("no later event changed")))
    return table


# -- lists of games and editions ----------------------------------------------------------------
def games_table(rows: list[dict[str, Any]], total: int,
                titles: Mapping[str, str]) -> RenderableType:
    """One row per game: its id (what the other commands take), then what it is in words."""
    if not rows:
        return Text(say(M("No games match.") if total else M("No games yet.")))
    count = Mn("{count} game", "{count} games", total)
    title = M("{games}, {shown} shown", games=count, shown=len(rows)) if len(rows) < total \
        else count
    table = Table(title=Text(say(title)), box=box.SIMPLE_HEAD)
    table.add_column(say(M("id")), no_wrap=True)
    table.add_column(say(M("game")), ratio=1)
    for row in rows:
        status = M("finished") if row.get("status") == "finished" else M("in progress")
        about = Text(say(titles.get(row["game"], words(row["game"]))), style="bold")
        about.append(f"\n{say(Seq(str(p) for p in row['players']))}")
        about.append("\n" + say(M("{status} · {mode} · created {date}", status=status,
                                   mode=_mode(row.get("mode", "table")),
                                   date=str(row.get("created_at", ""))[:10])), style="dim")
        table.add_row(Text(row["id"]), about)
    return table


def editions_table(rows: list[dict[str, Any]], titles: Mapping[str, str]) -> RenderableType:
    """The editions (component data) known, one row each: the game in the reader's
    language, the edition's name as it was registered, its sha256."""
    if not rows:
        return Text(say(M("No editions yet.")))
    table = Table(title=Text(say(Mn("{count} edition", "{count} editions", len(rows)))),
                  box=box.SIMPLE_HEAD)
    table.add_column(say(M("game")), ratio=1)
    table.add_column(say(M("name")), ratio=1)
    table.add_column("sha256", overflow="fold", ratio=2)
    for row in rows:
        table.add_row(Text(say(titles.get(row["slug"], words(row["slug"])))), Text(row["name"]),
                      row["sha256"])
    return table


def _with_values(label: Any, values: Mapping[str, Any] | None) -> Any:
    """An option's label and, for one with named values, what each value typed means:
    "…: "participating" (participating characters) or "any" (any character)"."""
    if not values:
        return label
    named = Seq([M("“{value}” ({label})", value=v, label=said) for v, said in values.items()],
                "or")
    return M("{label}: {values}", label=label, values=named)


def option_rows(games: Mapping[str, Any]) -> list[tuple[str, list[tuple[str, str]]]]:
    """Per game with options, its title and one (KEY=VALUE as typed, with the default
    value; what the option means) row per option, a nested option's keys one row each."""
    out = []
    for cls in games.values():
        rows = []
        for key, value in cls.default_options.items():
            inner = value.items() if isinstance(value, Mapping) else [(None, value)]
            for sub, default in inner:
                typed = json.dumps(default if sub is None else {sub: default})
                label = cls.option_labels.get(sub or key, words(sub or key))
                rows.append((f"{key}={typed}", say(_with_values(label, cls.option_values.get(
                    key) if sub is None else None))))
        if rows:
            out.append((str(cls.title), rows))
    return out


def indented(text: str, indent: int, width: int) -> str:
    """`text` wrapped to `width` terminal cells (a Chinese character is two), each line
    after `indent` spaces, for help text that click would wrap by characters."""
    probe = Console(width=width - indent, file=io.StringIO(), color_system=None,
                    legacy_windows=False)
    lines = Text(text).wrap(probe, width - indent)
    return "".join(" " * indent + line.plain.rstrip() + "\n" for line in lines)
