"""How the CLI shows things to people: rich tables and panels, a board per game.

Everything here turns documents the recorder returns into words: players by name (seats stay
numbers only in `--json`), components by the edition's labels, results as sentences and
scores as a table by player. No Python repr, `None` or snake_case reaches the screen; each
renderable fits the console's width (80 and 120 columns are tested).
"""

from __future__ import annotations

import io
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
from projections.rules import ordinal, plural, possessive, words_list

from .boards import BoardContext, board_for, generic

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
                      event_text(event, notes.get(event["seq"], {}), game),
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
    table = Table(title=Text("What the correction did to the later events"), box=box.SIMPLE_HEAD)
    table.add_column("step", justify="right")
    table.add_column("now")
    table.add_column("what", ratio=1)
    for row in report:
        if row.get("status") == "illegal":
            table.add_row(str(row["seq"]), "illegal",
                          Text(without_codes(row.get("message", ""))))
        else:
            changed = words_list(ctx.label(k) for k in row.get("changed", []))
            table.add_row(str(row["seq"]), "changed", Text(f"changes {changed}"))
    if not report:
        table.add_row("—", "unchanged", "no later event changed")
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
    if not rows:
        return Text("No editions yet.")
    table = Table(title=Text(plural(len(rows), "edition")), box=box.SIMPLE_HEAD)
    table.add_column("game", ratio=1)
    table.add_column("name", ratio=1)
    table.add_column("sha256", overflow="fold", ratio=2)
    for row in rows:
        table.add_row(Text(say(titles.get(row["slug"], words(row["slug"])))), Text(row["name"]),
                      row["sha256"])
    return table


# -- audits --------------------------------------------------------------------------------------
CHAIN_CODES = frozenset({"missing_fields", "seq_gap", "wrong_game", "broken_chain",
                         "hash_mismatch", "no_game_created", "empty_log"})
DEAL_CODES = frozenset({"deal_mismatch", "seed_mismatch", "seed_not_revealed"})
CLAIM_CODES = frozenset({"claimed_result_differs"})
PASS, FAIL, SKIP = "✓", "✗", "·"


@dataclass(frozen=True, slots=True)
class AuditedLog:
    """What `verify` needs to know of a log besides the report: whose game, which kind."""

    game: GameWords
    events: int
    claims: int
    seed_revealed: bool
    finished: bool


def _problem_sentence(problem: Mapping[str, Any], ctx: BoardContext) -> str:
    seq, code = problem.get("seq"), problem.get("code")
    at = f"Step {seq}: " if isinstance(seq, int) else ""
    if code == "deal_mismatch":
        return f"{at}the cards recorded are not the ones the revealed seed deals"
    if code == "seed_mismatch":
        return f"{at}the revealed seed is not the one committed to when the game was created"
    if code == "seed_not_revealed":
        return "The game is over, but the seed it was dealt from was never revealed"
    if code == "claimed_result_differs":
        diffs = [_claim_difference(d, ctx) for d in problem.get("differences") or []]
        return f"{at}the result written at the table differs: " + "; ".join(diffs)
    message = without_codes(problem.get("message", ""))
    prefix = f"event {seq} is illegal: "  # the audit's sentence for an illegal event
    if message.startswith(prefix):
        return at + message[len(prefix):]
    if message.startswith(f"event {seq} "):  # "event 3 is illegal after the corrections: .."
        return f"Step {seq} {message[len(f'event {seq} '):]}"
    return at + message


def _claim_difference(diff: Mapping[str, Any], ctx: BoardContext) -> str:
    category, claimed, computed = diff.get("category"), diff.get("claimed"), diff.get("computed")
    if category == "result":
        return f"a result was written down, but {computed}"
    if category == "winners":
        return (f"the winners were written as {_seats(claimed, ctx)}, the rules make it "
                f"{_seats(computed, ctx)}")
    whose = possessive(ctx.name(diff["seat"])) + " " if diff.get("seat") is not None else ""
    what = "score" if category == "total" else ctx.label(category)
    return f"{whose}{what} was written as {_cell(claimed, ctx)}, the rules make it " \
           f"{_cell(computed, ctx)}"


def _seats(value: Any, ctx: BoardContext) -> str:
    if isinstance(value, list):
        return words_list(ctx.name(s) for s in value) or "nobody"
    return _cell(value, ctx)


def verify_report(report: Mapping[str, Any], log: AuditedLog, width: int) -> Panel:
    """chain, moves, deals, result, claims: one line each, then every problem in words."""
    ctx = log.game.ctx
    problems = list(report.get("problems") or [])
    kinds = {"chain": [p for p in problems if p.get("code") in CHAIN_CODES],
             "deals": [p for p in problems if p.get("code") in DEAL_CODES],
             "claims": [p for p in problems if p.get("code") in CLAIM_CODES]}
    kinds["moves"] = [p for p in problems if not any(p in v for v in kinds.values())]
    lines = [
        _check(M("Hash chain"), kinds["chain"], ctx,
               Mn("Hash chain intact: {count} event, each linked to the one before.",
                  "Hash chain intact: {count} events, each linked to the one before.",
                  log.events)),
        _check(M("Moves"), kinds["moves"], ctx,
               Mn("Moves re-applied: all {count} event replay under the rules.",
                  "Moves re-applied: all {count} events replay under the rules.",
                  report.get("checked", 0))),
        _deals_line(kinds["deals"], log, ctx),
        _result_line(report, kinds["moves"], log, ctx),
        _claims_line(kinds["claims"], log, ctx),
    ]
    first = report.get("first_bad_seq")
    failing = Mn("{count} problem", "{count} problems", len(problems))
    verdict = Text(say(M("The record verifies.") if report.get("ok") else
                       M("The record does not verify: {problems}, the first at step {seq}.",
                         problems=failing, seq=first) if first is not None else
                       M("The record does not verify: {problems}.", problems=failing)),
                   style="bold green" if report.get("ok") else "bold red")
    checks = Table.grid(padding=(0, 1))
    checks.add_column(no_wrap=True)
    checks.add_column(ratio=1)
    for sign, text in lines:
        checks.add_row(Text(sign, style={PASS: "green", FAIL: "bold red", SKIP: "dim"}[sign]),
                       text)
    return Panel(Group(checks, Text(""), verdict), width=width,
                 title=Text(f"verify · {say(log.game.title)}"))


Check = tuple[str, Text]


def _check(name: str, problems: list[Mapping[str, Any]], ctx: BoardContext,
           fine: str) -> Check:
    if not problems:
        return _mark(PASS, fine)
    sign, text = _mark(FAIL, Mn("{check}: {count} problem.", "{check}: {count} problems.",
                                len(problems), check=name))
    for problem in problems:
        text.append(f"\n{say(_problem_sentence(problem, ctx))}")
    return sign, text


def _mark(sign: str, sentence: str) -> Check:
    return sign, Text(say(sentence))


def _deals_line(problems: list[Mapping[str, Any]], log: AuditedLog,
                ctx: BoardContext) -> Check:
    if log.game.mode != "digital":
        return _mark(SKIP, M("Deals: a table game; the cards were entered at the table, "
                             "so there is no seed to re-derive them from."))
    if problems:
        return _check(M("Deals"), problems, ctx, "")
    if not log.seed_revealed:
        return _mark(SKIP, M("Deals: the seed stays secret until the game ends; every deal "
                             "is re-derived from it then."))
    return _mark(PASS, M("Deals re-derived: every deal is the one the revealed seed gives."))


def _result_line(report: Mapping[str, Any], moves: list[Any], log: AuditedLog,
                 ctx: BoardContext) -> Check:
    result = report.get("result")
    if result:
        return _mark(PASS, M("Result recomputed: {result}.",
                             result=result_sentence(result, ctx)))
    if moves:
        return _mark(FAIL, M("Result: not recomputed, since the moves do not replay."))
    return _mark(SKIP, M("Result: the game is not over yet."))


def _claims_line(problems: list[Mapping[str, Any]], log: AuditedLog,
                 ctx: BoardContext) -> Check:
    if problems:
        return _check(M("Claims"), problems, ctx, "")
    if not log.claims:
        return _mark(SKIP, M("Claims: no result was written down at the table."))
    return _mark(PASS, Mn("Claims compared: the {count} result written down at the table "
                          "match the rules.",
                          "Claims compared: the {count} results written down at the table "
                          "match the rules.", log.claims))


def compare_panel(report: Mapping[str, Any], ids: tuple[str, str], game: GameWords,
                  width: int) -> Panel:
    if report.get("agree"):
        return Panel(Text(sentence_case(str(report["message"])) + ".", style="green"),
                     title=Text("compare"), width=width)
    index = report.get("index")
    lines: list[RenderableType] = [Text(
        f"The records differ at the {ordinal(index + 1)} action:" if index is not None
        else "The records differ:", style="bold")]
    for side, game_id in zip(("a", "b"), ids, strict=True):
        entry = report.get(side)
        line = Text(f"{game_id}: ", style="bold")
        if entry:
            line.append(f"step {entry['seq']}: {sentence_case(game.sentence(entry['action']))}")
        else:
            line.append("ends before it")
        lines.append(line)
    return Panel(Group(*lines), title=Text("compare"), width=width)


def verify_summary(reports: list[dict[str, Any]]) -> RenderableType:
    """Several records audited: a line each, the first problem of a record that fails."""
    failed = sum(not r["ok"] for r in reports)
    title = Text(f"Verified {plural(len(reports), 'record')}: "
                 + ("every one verifies" if not failed else f"{failed} do not verify"))
    if not reports:
        return title
    table = Table(title=title, box=box.SIMPLE_HEAD)
    table.add_column("record", no_wrap=True)
    table.add_column("", no_wrap=True)
    table.add_column("events", justify="right")
    table.add_column("first problem", ratio=1)
    for r in reports:
        problem = (r.get("problems") or [{}])[0].get("message", "") if not r["ok"] else ""
        table.add_row(Text(r["game_id"]), Text("✓" if r["ok"] else "✗"),
                      str(r.get("events", "")), Text(without_codes(problem)))
    return table


def reaudit_table(reports: list[dict[str, Any]], titles: Mapping[str, str]) -> RenderableType:
    changed = sum(bool(r["changed"]) for r in reports)
    title = Text(f"Re-audit under today's rules: {plural(len(reports), 'game')}, "
                 f"{changed} changed")
    if not reports:
        return title
    table = Table(title=title, box=box.SIMPLE_HEAD)
    table.add_column("id", no_wrap=True)
    table.add_column("game", ratio=1)
    table.add_column("what changed", ratio=2)
    for r in reports:
        pinned, current = r["pinned_rules_version"], r["current_rules_version"]
        rules = "" if pinned == current else f"rules {pinned} → {current}: "
        table.add_row(Text(r["game_id"]), Text(titles.get(r["game"], words(r["game"]))),
                      Text(rules + _reaudit_change(r)))
    return table


def _reaudit_change(r: Mapping[str, Any]) -> str:
    if r.get("legality_changed") and r.get("first_illegal"):
        bad = r["first_illegal"]
        return f"step {bad['seq']} is now illegal: {without_codes(bad['message'])}"
    if r.get("result_changed"):
        return "the result changed"
    if r.get("first_differing_seq") is not None:
        return f"the state differs from step {r['first_differing_seq']}"
    return "nothing"


def stats_view(report: Mapping[str, Any], titles: Mapping[str, str]) -> Group:
    parts: list[RenderableType] = [Text(f"{plural(report['total_games'], 'game')} in the "
                                        "archive", style="bold")]
    for game, stats in report["games"].items():
        length = stats.get("average_length")
        parts += [Text(""), Text(
            f"{titles.get(game, words(game))}: {stats['played']} played, "
            f"{stats['finished']} finished, "
            + (f"{length} actions on average" if length is not None else "none finished yet"),
            style="bold")]
        if stats["win_rate_by_seat"]:
            table = Table(box=box.SIMPLE_HEAD, pad_edge=False)
            table.add_column("seat")
            table.add_column("wins", justify="right")
            for seat, rate in stats["win_rate_by_seat"].items():
                table.add_row(f"{ordinal(int(seat) + 1)} seat", f"{rate:.0%}")
            parts.append(table)
        if stats.get("scores"):
            s = stats["scores"]
            parts.append(Text(f"scores: lowest {s['min']}, median {s['median']}, "
                              f"highest {s['max']}"))
            hist = Table(box=None, show_header=False, pad_edge=False)
            hist.add_column("range", justify="right")
            hist.add_column("games", ratio=1)
            most = max((b["count"] for b in s["histogram"]), default=1) or 1
            for b in s["histogram"]:
                bar = "█" * max(0, round(30 * b["count"] / most))
                span = str(b["from"]) if b["from"] == b["to"] else f"{b['from']} to {b['to']}"
                hist.add_row(span, f"{bar} {b['count']}")
            parts.append(hist)
        if stats.get("most_frequent_actions"):
            parts.append(Text("most frequent actions: " + ", ".join(
                f"{words(name)} ({n})" for name, n in stats["most_frequent_actions"])))
    return Group(*parts)
