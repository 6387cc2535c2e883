"""`chronicle`: click commands over the recorder service (docs/design.md, "CLI and HTTP").

Each command parses its arguments, calls one service function and prints. Results go to
stdout (rich for people, `--json` for scripts); messages go to stderr. Exit codes: 0
success, 1 refused (illegal action, conflict, failed verification), 2 usage error.
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from functools import wraps
from pathlib import Path
from typing import Any, TypeVar

import click
from rich.console import Console
from rich.progress import MofNCompleteColumn, Progress

from events.recorder import (
    Access,
    ChronicleError,
    GameFilter,
    Recorder,
    migrate_store,
    open_store,
    parse_jsonl,
    reaudit_games,
    stored_ids,
    verify_games,
)
from projections import GAMES, get_rules
from projections.messages import M, Mn, language_of
from projections.rules import Action, GameRules

from . import audits, moving, render
from .boards import BoardContext

F = TypeVar("F", bound=Callable[..., Any])
#: gunicorn's access log without the query string or the referer: either may carry a token
ACCESS_LOG_FORMAT = '%(h)s %(t)s "%(m)s %(U)s %(H)s" %(s)s %(B)s %(M)sms'

err_console = Console(stderr=True)


class Refused(click.ClickException):
    """A refusal: exit code 1 and the reason (naming the rule) on stderr."""

    exit_code = 1

    def show(self, file: Any = None) -> None:
        """`Error: …` in the reader's language (click's own words are English)."""
        click.echo(render.say(M("Error: {message}", message=self.format_message())),
                   file=file, err=file is None)


def refusals(func: F) -> F:
    """Turn any ChronicleError (the rules' IllegalAction among them) into one line on
    stderr and exit code 1."""

    @wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return func(*args, **kwargs)
        except ChronicleError as err:
            raise Refused(_describe(err)) from None

    return wrapper  # type: ignore[return-value]


def _describe(err: Any) -> str:
    seq = err.details.get("seq") if isinstance(getattr(err, "details", None), dict) else None
    if seq is not None:
        return render.say(M("illegal action at seq {seq} ({code}): {reason}", seq=seq,
                            code=err.code, reason=err.message))
    return f"({err.code}): {render.say(err.message)}"


@contextmanager
def service(ctx: click.Context) -> Iterator[Recorder]:
    store = open_store(ctx.obj["db"])
    try:
        yield Recorder(store)
    finally:
        store.close()


@contextmanager
def file_verifier(db: str | None) -> Iterator[Recorder]:
    """A recorder to verify an exported file with, writing nothing anywhere (issue #32): an
    in-memory store holding the editions the database at `db` knows, when there is one
    (a SQLite file is opened read-only); the shipped editions need no store at all."""
    memory = open_store(":memory:")
    try:
        for row in _known_editions(db):
            memory.put_edition(row["slug"], row["name"], row["sha256"], row["content"])
        yield Recorder(memory)
    finally:
        memory.close()


def _known_editions(db: str | None) -> list[dict[str, Any]]:
    """Every edition stored at `db`, read only; none when there is no such database."""
    target = db or "chronicle.db"
    if not target.startswith(("postgresql://", "postgres://")):
        path = Path(target.removeprefix("sqlite:///").removeprefix("sqlite://"))
        if not path.is_file():
            return []
        target = f"file:{path.resolve()}?mode=ro"
    try:
        store = open_store(target)
    except ChronicleError:
        return []  # not readable: the file may still name only shipped editions
    try:
        return [row for row in (store.edition(r["sha256"]) for r in store.editions())
                if row is not None]
    finally:
        store.close()


def _json_out(value: Any) -> None:
    click.echo(json.dumps(value, ensure_ascii=False, indent=2))


def _print(*renderables: Any) -> None:
    out = render.console()
    for item in renderables:
        out.print(item)


def _width() -> int:
    return render.console().width


def _height() -> int | None:
    """The terminal's lines (or `LINES`), for a replay that must fit the screen; None when
    the output goes to a pipe or a file, which has no foot to scroll past."""
    if "LINES" in os.environ or sys.stdout.isatty():
        return render.console().height
    return None


def _titles() -> dict[str, str]:
    return {slug: cls.title for slug, cls in GAMES.items()}


def _move_labels() -> dict[str, dict[str, Any]]:
    """Each game's moves by type, as its buttons name them (for the statistics)."""
    return {slug: {a.name: a.label for a in cls.actions} for slug, cls in GAMES.items()}


def _words_of(rules: GameRules[Any], players: list[str], mode: str) -> render.GameWords:
    """The game's title, its players' names, its labels and its sentences, for printing."""
    names = tuple(str(p) for p in players)

    def describe(kind: str, actor: Any, data: Any) -> str:
        return rules.describe(Action.of(kind, actor, data), names)

    ctx = BoardContext(names, rules.labels(), edition=rules.edition, lang=render.language())
    return render.GameWords(title=rules.title, ctx=ctx, describe=describe, mode=mode)


def _game_words(rec: Recorder, game_id: str) -> render.GameWords:
    game = rec.game(game_id)
    return _words_of(rec.rules_for(game), game["players"], game["mode"])


def _seat(value: str | None) -> Any:
    if value is None:
        return None
    if value in ("table", "server", "all"):
        return value
    try:
        return int(value)
    except ValueError:
        raise click.BadParameter(f'{value!r} is not a seat number, "table" or "all"') from None


def _access_for(as_seat: Any) -> Access:
    if as_seat is None or as_seat == "all":
        return Access.local()
    if as_seat == "spectator":
        return Access("spectator")
    return Access("seat", int(as_seat))


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.option("--db", envvar="CHRONICLE_DB", default="chronicle.db", show_default=True,
              help="SQLite path, sqlite:///PATH or postgresql://... (env CHRONICLE_DB)")
@click.option("--lang", default=None, metavar="LANG",
              help="the language of what is printed: en or zh-Hans (default: LC_ALL, "
                   "LC_MESSAGES or LANG; env CHRONICLE_LANG)", envvar="CHRONICLE_LANG")
@click.version_option(package_name="chronicle")
@click.pass_context
def main(ctx: click.Context, db: str, lang: str | None) -> None:
    """Record table games as an append-only log; replay, undo and audit them.

    Example: chronicle new adaman --player Ann --mode digital
    """
    ctx.ensure_object(dict)
    ctx.obj["db"] = db
    render.set_language(reader_language(lang))


def reader_language(wanted: str | None) -> str:
    """`--lang`, else the locale the environment names (POSIX order: LC_ALL, LC_MESSAGES,
    LANG); English when none names a language chronicle speaks."""
    if wanted:
        return language_of(wanted)
    for name in ("LC_ALL", "LC_MESSAGES", "LANG"):
        if os.environ.get(name):
            return language_of(os.environ[name])
    return language_of(None)


@main.command()
@click.option("--game", "slug", default=None, help="only this game (slug)")
@click.option("--player", default=None, help="only games with a player whose name contains this")
@click.option("--status", type=click.Choice(["in_progress", "finished"]), default=None)
@click.option("--limit", default=50, show_default=True, type=click.IntRange(1, 10_000))
@click.option("--json", "as_json", is_flag=True, help="one JSON document")
@click.pass_context
@refusals
def games(ctx: click.Context, slug: str | None, player: str | None, status: str | None,
          limit: int, as_json: bool) -> None:
    """List recorded games, newest first.

    Example: chronicle games --game adaman --status finished
    """
    with service(ctx) as rec:
        rows, total = rec.list_games(GameFilter(game=slug, player=player, status=status,
                                                limit=limit))
    if as_json:
        _json_out({"games": rows, "total": total})
    else:
        _print(render.games_table(rows, total, _titles()))


class WithGameOptions(click.Command):
    """`new --help` ends with each game's options, worded in the reader's language (issue
    #33): the language is known by then, `main` having run first."""

    def format_epilog(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        super().format_epilog(ctx, formatter)
        width = min(formatter.width or 80, 80)
        for title, rows in render.option_rows(GAMES):
            formatter.write_paragraph()
            formatter.write_text(render.say(M("Options of {game}:", game=title)))
            for typed, meaning in rows:  # wrapped by cells: a Chinese character takes two
                formatter.write(f"  {typed}\n{render.indented(meaning, 6, width)}")


@main.command(cls=WithGameOptions)
@click.argument("game")
@click.option("--player", "players", multiple=True, required=True,
              help="a player's name, once per seat in seat order")
@click.option("--mode", type=click.Choice(["table", "digital"]), default="table",
              show_default=True)
@click.option("--seed", default=None,
              help="digital mode: extra entropy mixed into the server's own secret seed; "
                   "it never chooses the cards (default: none)")
@click.option("--option", "options", multiple=True, metavar="KEY=VALUE",
              help="a game option (VALUE is JSON, or a plain string)")
@click.option("--edition", default=None, help="edition name or sha256 (default: shipped)")
@click.option("--title", default=None, help="a free-text title")
@click.pass_context
@refusals
def new(ctx: click.Context, game: str, players: tuple[str, ...], mode: str, seed: str | None,
        options: tuple[str, ...], edition: str | None, title: str | None) -> None:
    """Create a game and print only its id (tokens go to stderr).

    Example: chronicle new royals --player Ann --player Ben --player Cy
    """
    request = {"game": game, "players": list(players), "mode": mode, "seed": seed,
               "options": dict(_option(o) for o in options), "edition": edition,
               "title": title}
    with service(ctx) as rec:
        created = rec.create_game(request)
    click.echo(created.id)
    click.echo(f"recorder token: {created.recorder_token}", err=True)
    for seat, token in enumerate(created.seat_tokens):
        click.echo(f"token for {players[seat]} (seat {seat}): {token}", err=True)


@main.command()
@click.argument("game_id")
@click.option("--at", type=int, required=True, help="the step (seq) to explore from")
@click.pass_context
@refusals
def fork(ctx: click.Context, game_id: str, at: int) -> None:
    """Explore "what if?" from a step: a new table game that replays this one up to step N
    (a finished game, or any table game; the local CLI sees everything). Prints its id.

    Example: chronicle fork abc123 --at 40
    """
    with service(ctx) as rec:
        created = rec.fork(game_id, at)
        players = rec.game(created.id)["players"]
    click.echo(created.id)
    click.echo(f"recorder token: {created.recorder_token}", err=True)
    for seat, token in enumerate(created.seat_tokens):
        click.echo(f"token for {players[seat]} (seat {seat}): {token}", err=True)


def _option(text: str) -> tuple[str, Any]:
    key, sep, value = text.partition("=")
    if not sep or not key:
        raise click.BadParameter(f"{text!r} is not KEY=VALUE", param_hint="--option")
    try:
        return key, json.loads(value)
    except (ValueError, RecursionError):
        return key, value


@main.command()
@click.argument("game_id")
@click.argument("type_", metavar="TYPE")
@click.option("--actor", default=None, help='seat number or "table" (default: seat 0, or '
              'the table for table moves)')
@click.option("--data", default=None, help="the action's data as JSON (or - for stdin)")
@click.option("--expect-seq", type=int, default=None,
              help="refuse unless the game's last seq is this one (optimistic concurrency)")
@click.option("--json", "as_json", is_flag=True)
@click.pass_context
@refusals
def act(ctx: click.Context, game_id: str, type_: str, actor: str | None, data: str | None,
        expect_seq: int | None, as_json: bool) -> None:
    """Record one action, validated by the game's rules before anything is written.

    Example: chronicle act abc123 control --actor 0 --data '{"target":"sailor","spend":["mill"],"drawn":["bard"]}'
    """  # noqa: E501
    payload = _read_data(data)
    with service(ctx) as rec:
        actor_value = _seat(actor) if actor is not None else rec.default_actor(game_id, type_)
        recorded = rec.record(game_id, {"type": type_, "actor": actor_value, "data": payload},
                              expected_seq=expect_seq)
        game = None if as_json else _game_words(rec, game_id)
    report = recorded.correction_report
    if as_json or game is None:
        _json_out({"event": recorded.event, "state": recorded.state,
                   **({"correction": report} if report is not None else {})})
        return
    _print(render.recorded_line(recorded.event, game))
    if report is not None:
        _print(render.correction_table(report, game.ctx))
    _print(render.state_panel(recorded.state, game, _width()))


def _read_data(data: str | None) -> Any:
    if data is None:
        return {}
    text = sys.stdin.read() if data == "-" else data
    try:
        return json.loads(text)
    except json.JSONDecodeError as err:
        raise click.BadParameter(f"not JSON: {err.msg} (at character {err.pos})",
                                 param_hint="--data") from None
    except (ValueError, RecursionError):  # a 5000-digit number, nesting past the stack
        raise click.BadParameter("not JSON chronicle can read (a number too long or nesting "
                                 "too deep)", param_hint="--data") from None


@main.command()
@click.argument("game_id")
@click.option("--actor", default="table", show_default=True,
              help='who undoes: "table" (the recorder) or a seat number')
@click.option("--json", "as_json", is_flag=True)
@click.pass_context
@refusals
def undo(ctx: click.Context, game_id: str, actor: str, as_json: bool) -> None:
    """Retract the most recent effective action (the log keeps it, marked undone).

    Example: chronicle undo abc123
    """
    with service(ctx) as rec:
        recorded = rec.undo(game_id, _seat(actor))
        game = _game_words(rec, game_id)
    _meta_out(recorded.event, recorded.state, game, as_json)


@main.command()
@click.argument("game_id")
@click.option("--actor", default="table", show_default=True)
@click.option("--json", "as_json", is_flag=True)
@click.pass_context
@refusals
def redo(ctx: click.Context, game_id: str, actor: str, as_json: bool) -> None:
    """Re-apply the most recently undone action.

    Example: chronicle redo abc123
    """
    with service(ctx) as rec:
        recorded = rec.redo(game_id, _seat(actor))
        game = _game_words(rec, game_id)
    _meta_out(recorded.event, recorded.state, game, as_json)


def _meta_out(event: dict[str, Any], state: dict[str, Any], game: render.GameWords,
              as_json: bool) -> None:
    if as_json:
        _json_out({"event": event, "state": state})
        return
    _print(render.recorded_line(event, game), render.state_panel(state, game, _width()))


@main.command()
@click.argument("game_id")
@click.option("--at", type=int, default=None, help="the step (seq) to show; default: latest")
@click.option("--as", "as_seat", default=None,
              help='the seat whose view to show, or "spectator" (default: everything)')
@click.option("--json", "as_json", is_flag=True)
@click.pass_context
@refusals
def state(ctx: click.Context, game_id: str, at: int | None, as_seat: str | None,
          as_json: bool) -> None:
    """Show the state of a game at its latest step or at step N.

    Example: chronicle state abc123 --at 3 --json
    """
    with service(ctx) as rec:
        doc = rec.state(game_id, at, _access_for(_viewer_arg(as_seat)))
        game = None if as_json else _game_words(rec, game_id)
    if as_json or game is None:
        _json_out(doc)
    else:
        _print(render.state_panel(doc, game, _width()))


def _viewer_arg(value: str | None) -> Any:
    return "spectator" if value == "spectator" else _seat(value)


@main.command()
@click.argument("game_id")
@click.option("--as", "as_seat", default=None, help="only this seat's actions")
@click.option("--json", "as_json", is_flag=True)
@click.pass_context
@refusals
def legal(ctx: click.Context, game_id: str, as_seat: str | None, as_json: bool) -> None:
    """List the legal actions now, ready to pass to `act`.

    Example: chronicle legal abc123 --json
    """
    with service(ctx) as rec:
        actions = rec.legal(game_id, seat=_seat(as_seat))
        game = None if as_json else _game_words(rec, game_id)
        over = not actions and rec.state(game_id)["status"] == "finished"
        opening = None if as_json else rec.choices(game_id, _access_for(_seat(as_seat)))
    if as_json or game is None:
        _json_out(actions)
        return
    _print(render.actions_table(actions, game, over))
    if opening and opening["actions"]:
        _print(moving.menu_table(opening["actions"], game.ctx.name))


@main.command()
@click.argument("game_id")
@click.argument("type_", metavar="[TYPE]", required=False)
@click.option("--actor", default=None, help='seat number or "table" (default: the only one '
              "who may make the move now)")
@click.option("--pick", "picks", multiple=True, metavar="ANSWER",
              help="an answer to the next choice: an option's label, value or number, or "
                   "“done” to end a list; repeat for each choice")
@click.option("--as", "as_seat", default=None, help="build the move as this seat sees it")
@click.option("--dry-run", is_flag=True, help="show the move and its sentence; record nothing")
@click.option("--ask/--no-ask", default=None,
              help="ask the remaining choices (default: when typing at a terminal)")
@click.option("--json", "as_json", is_flag=True)
@click.pass_context
@refusals
def move(ctx: click.Context, game_id: str, type_: str | None, actor: str | None,
         picks: tuple[str, ...], as_seat: str | None, dry_run: bool, ask: bool | None,
         as_json: bool) -> None:
    """Make a move choice by choice: every legal move, and only legal ones.

    Asks each choice in turn (a number, a label, “done”, “back” to take the last answer
    back) unless every answer is given with --pick. Then records it, as `act` would.

    Example: chronicle move abc123 control --pick "the Huntress" --pick Mountain --pick done
    """
    asking = (sys.stdin.isatty() and not as_json) if ask is None else ask
    with service(ctx) as rec:
        who = _access_for(_seat(as_seat))
        game = _game_words(rec, game_id)
        if type_ is None:
            opening = rec.choices(game_id, who)["actions"]
            type_, actor = _which_move(opening, game, asking)
        walk = _walk(rec, game_id, who, type_, _seat(actor), list(picks))
        if dry_run and not asking:
            _dry_out(walk, as_json)
            return
        if walk["choice"] is not None and (asking or walk["move"] is None):
            walk = _finish(rec, game_id, who, walk, asking)
        if dry_run:
            _dry_out(walk, as_json)
            return
        recorded = rec.record(game_id, walk["move"])
    if as_json:
        _json_out({"event": recorded.event, "state": recorded.state})
        return
    _print(render.recorded_line(recorded.event, game), render.state_panel(
        recorded.state, game, _width()))


def _dry_out(walk: dict[str, Any], as_json: bool) -> None:
    """Where the walk stands, recording nothing: the next choice, or the move."""
    if as_json:
        _json_out(walk)
    elif walk["choice"] is not None:
        _print(moving.choice_table(walk))
    if not as_json and walk["move"] is not None:
        _print(render.say(M("Would record: {sentence}", sentence=walk["sentence"])))


def _which_move(opening: list[dict[str, Any]], game: render.GameWords,
                asking: bool) -> tuple[str, Any]:
    if not opening:
        raise Refused(render.say(M("no move is open to you now")))
    if len(opening) == 1:
        return opening[0]["type"], opening[0]["actor"]
    _print(moving.menu_table(opening, game.ctx.name))
    if not asking:
        raise Refused(render.say(M("say which move: chronicle move ID TYPE (the TYPE column "
                                   "above)")))
    number = click.prompt(render.say(M("Which move")), type=click.IntRange(1, len(opening)))
    return opening[number - 1]["type"], opening[number - 1]["actor"]


def _walk(rec: Recorder, game_id: str, who: Access, kind: str, actor: Any,
          typed: list[str]) -> dict[str, Any]:
    """Apply the `--pick` answers one by one, each against the choice asked at its turn."""
    picks: list[dict[str, Any]] = []
    walk = rec.choices(game_id, who, kind, actor, picks)
    for text in typed:
        if walk["choice"] is None:
            raise Refused(render.say(M("the move is complete before “{text}”: {sentence}",
                                       text=text, sentence=walk["sentence"])))
        try:
            picks.append(moving.answer(walk["choice"], text))
        except moving.NotAnOption as err:
            _print(moving.choice_table(walk))
            raise Refused(str(err)) from None
        walk = rec.choices(game_id, who, kind, walk["actor"], picks)
    return walk


def _finish(rec: Recorder, game_id: str, who: Access, walk: dict[str, Any], asking: bool
            ) -> dict[str, Any]:
    """Ask the remaining choices at the terminal (or say what is still to answer)."""
    picks = list(walk["picks"])
    while walk["choice"] is not None:
        _print(moving.choice_table(walk))
        if walk["move"] is not None:
            _print(render.say(M("“done” would record: {sentence}", sentence=walk["sentence"])))
        if not asking:
            raise Refused(render.say(M("the move is not complete: {prompt} (add a --pick for "
                                       "it)", prompt=walk["choice"]["prompt"])))
        typed = click.prompt(render.say(M("Your answer (“back” takes the last one back)")))
        if typed.strip().lower() == "back":
            picks = picks[:-1]
        else:
            try:
                picks.append(moving.answer(walk["choice"], typed))
            except moving.NotAnOption as err:
                err_console.print(str(err))
                continue
        walk = rec.choices(game_id, who, walk["type"], walk["actor"], picks)
    return walk


@main.command("log")
@click.argument("game_id")
@click.option("--json", "as_json", is_flag=True)
@click.pass_context
@refusals
def log_(ctx: click.Context, game_id: str, as_json: bool) -> None:
    """Show every event of a game, undone ones marked.

    Example: chronicle log abc123
    """
    with service(ctx) as rec:
        events, notes = rec.history(game_id)
        game = None if as_json else _game_words(rec, game_id)
    if as_json or game is None:
        _json_out({"events": events, "annotations": {str(k): v for k, v in notes.items()}})
    else:
        _print(render.log_table(events, notes, game))


@main.command()
@click.argument("game_id")
@click.option("--at", type=int, default=None, help="print only this step (seq) and exit")
@click.pass_context
@refusals
def replay(ctx: click.Context, game_id: str, at: int | None) -> None:
    """Step through a game from step 0: n/→ next, p/← previous, f first, l last, q quit.

    On a terminal each key redraws the step in place; with keys piped to stdin, each step
    shown is printed once, one after the other.
    Example: chronicle replay abc123   (or --at 5 to print one step)
    """
    with service(ctx) as rec:
        events, notes = rec.history(game_id)
        game = _game_words(rec, game_id)
        last = events[-1]["seq"]

        height = _height()

        def show(step: int) -> Any:
            doc = rec.state(game_id, step)
            return render.step_view(events[step], notes.get(step, {}), doc, game, _width(),
                                    height)

        if at is not None:
            if not 0 <= at <= last:
                raise click.BadParameter(f"this game has steps 0 to {last}, not {at}",
                                         param_hint="--at")
            _print(show(at))
            return
        keyboard = sys.stdin.isatty()
        step_through(show, last, click.getchar if keyboard else lambda: sys.stdin.read(1),
                     redraw=keyboard and sys.stdout.isatty())


QUIT_KEYS = frozenset({"q", "Q", "\x03", "\x04", ""})


def step_through(show: Callable[[int], Any], last: int, getchar: Callable[[], str],
                 redraw: bool) -> list[int]:
    """Show step 0, then move by each key until q (or the end of input); the steps shown.

    `redraw` clears the terminal before each step, so the board stays in one place; without
    it (output to a pipe or a file) each step shown is printed once, one after the other.
    """
    out = render.console()
    step, shown, seen = 0, None, []
    while True:
        if step != shown:
            if redraw:
                out.clear()
            out.print(show(step))
            shown = step
            seen.append(step)
        try:
            key = _read_key(getchar)
        except (KeyboardInterrupt, EOFError):  # click's getchar turns ^C / ^D into these
            return seen
        if key in QUIT_KEYS:
            return seen
        step = _next_step(key, step, last)


def _read_key(getchar: Callable[[], str]) -> str:
    """One key; an arrow read from a pipe arrives one character at a time (ESC [ C)."""
    key = getchar()
    if key == "\x1b":
        key += getchar()
        if key == "\x1b[":
            key += getchar()
    return key


def _next_step(key: str, step: int, last: int) -> int:
    moves = {"n": step + 1, " ": step + 1, "\x1b[C": step + 1, "p": step - 1,
             "\x1b[D": step - 1, "f": 0, "\x1b[H": 0, "l": last, "\x1b[F": last}
    return max(0, min(last, moves.get(key, step)))


@main.command()
@click.argument("game_id")
@click.option("--output", "-o", type=click.Path(dir_okay=False, writable=True), default=None,
              help="write to this file instead of stdout")
@click.pass_context
@refusals
def export(ctx: click.Context, game_id: str, output: str | None) -> None:
    """Write a game's log as JSON Lines (the envelopes, exactly as stored and hashed).

    Example: chronicle export abc123 -o game.jsonl
    """
    with service(ctx) as rec:
        lines = rec.export(game_id)
        if output is None:
            for line in lines:
                click.echo(line, nl=False)
        else:
            with open(output, "w", encoding="utf-8") as fh:
                fh.writelines(lines)


@main.command("import")
@click.argument("file", type=click.File("r", encoding="utf-8"))
@click.pass_context
@refusals
def import_(ctx: click.Context, file: Any) -> None:
    """Import an exported game after verifying it; prints the game id.

    Example: chronicle import fixtures/adaman/won.jsonl
    """
    with service(ctx) as rec:
        created = rec.import_lines(file)
    click.echo(created.id)
    click.echo(f"recorder token: {created.recorder_token}", err=True)


@main.command()
@click.argument("targets", nargs=-1, metavar="ID|FILE ...")
@click.option("--all", "every", is_flag=True, help="every stored game (forks left out)")
@click.option("--game", "slug", default=None, help="with --all: only games of this slug")
@click.option("-j", "--jobs", type=click.IntRange(min=1), default=1, show_default=True,
              help="processes auditing stored games at once (the cores: -j 0 is not allowed)")
@click.option("--json", "as_json", is_flag=True)
@click.pass_context
@refusals
def verify(ctx: click.Context, targets: tuple[str, ...], every: bool, slug: str | None,
           jobs: int, as_json: bool) -> None:
    """Audit stored games (IDs) or exported FILEs: chain, every move, deals, result.

    One target prints its full report; several, or --all, a line per game, with -j N
    processes auditing stored games at once.

    Example: chronicle verify game.jsonl
    Example: chronicle verify --all -j 2
    """
    if not targets and not every:
        raise click.UsageError("name a game ID or FILE to verify, or --all")
    if len(targets) == 1 and not every:
        _verify_one(ctx, targets[0], as_json)
        return
    ids = list(targets)
    if every:
        ids += stored_ids(ctx.obj["db"], slug)
    files = [t for t in ids if Path(t).is_file()]
    reports = [{"game_id": f, **_verify_file(ctx, f)} for f in files]
    stored = [t for t in ids if t not in files]
    if stored:  # files alone open no store (verify writes nothing anywhere, issue #32)
        reports += verify_games(ctx.obj["db"], stored, jobs)
    if as_json:
        _json_out({"games": reports, "failed": sum(not r["ok"] for r in reports)})
    else:
        _print(audits.verify_summary(reports))
    failed = [r for r in reports if not r["ok"]]
    if failed:
        raise Refused(render.say(M(
            "{failed} of {records} do not verify; the first: {game_id}: {problem}",
            failed=len(failed), records=Mn("{count} record", "{count} records", len(reports)),
            game_id=failed[0]["game_id"], problem=failed[0]["problems"][0]["message"])))


def _verify_file(ctx: click.Context, path: str) -> dict[str, Any]:
    with file_verifier(ctx.obj["db"]) as rec, open(path, encoding="utf-8") as fh:
        return rec.verify_envelopes(parse_jsonl(fh))


def _verify_one(ctx: click.Context, target: str, as_json: bool) -> None:
    if Path(target).is_file():
        with open(target, encoding="utf-8") as fh:
            envelopes = parse_jsonl(fh)
        with file_verifier(ctx.obj["db"]) as rec:
            report = rec.verify_envelopes(envelopes)
            log = None if as_json else _audited_log(rec, envelopes, report)
        _verify_out(report, log)
        return
    with service(ctx) as rec:
        report = rec.verify(target)
        # the raw log, read even when it no longer folds (a folding read would refuse)
        envelopes = [] if as_json else rec.stored_log(target)
        log = None if as_json else _audited_log(rec, envelopes, report)
    _verify_out(report, log)


@main.command()
@click.argument("game_id")
@click.pass_context
@refusals
def repair(ctx: click.Context, game_id: str) -> None:
    """Complete a game recorded by an older version: the server events it still owes, its
    snapshots and its audit mark. The one command that writes what no read may.

    Example: chronicle repair abc123
    """
    with service(ctx) as rec:
        done = rec.repair(game_id)
        words = _game_words(rec, game_id)
    for env in done["written"]:
        said = words.describe(env["type"], env["actor"], env["data"])
        click.echo(render.say(M("wrote step {seq}: {sentence}", seq=env["seq"], sentence=said)))
    if not done["written"]:
        click.echo(render.say(M("nothing was owed: every server event is written")))
    report = done["audit"]
    if not report["ok"]:
        raise Refused(_failed(report))
    click.echo(render.say(M("the record verifies; its audit mark is saved")))


def _failed(report: dict[str, Any]) -> str:
    """The one line on stderr of a record that does not verify."""
    return render.say(M("verification failed at seq {seq}: {problem}",
                        seq=report["first_bad_seq"], problem=report["problems"][0]["message"]))


def _verify_out(report: dict[str, Any], log: audits.AuditedLog | None) -> None:
    """The verify report (the document with --json), and exit 1 when it does not verify."""
    if log is None:
        _json_out(report)
    else:
        _print(audits.verify_report(report, log, _width()))
    if not report["ok"]:
        raise Refused(_failed(report))


@main.command()
@click.argument("words", nargs=-1, metavar="[GAME] | add FILE")
@click.option("--name", default=None, help="with add: the edition's name (default: from file)")
@click.option("--json", "as_json", is_flag=True)
@click.pass_context
@refusals
def editions(ctx: click.Context, words: tuple[str, ...], name: str | None,
             as_json: bool) -> None:
    """List the editions (component data) of every game or of GAME; `add FILE` registers one.

    Example: chronicle editions royals
    Example: chronicle editions add royals-printed.json --name printed-2014
    """
    if words and words[0] == "add":
        if len(words) != 2:
            raise click.UsageError("usage: chronicle editions add FILE [--name NAME]")
        _add_edition(ctx, words[1], name)
        return
    if len(words) > 1:
        raise click.UsageError("usage: chronicle editions [GAME]")
    with service(ctx) as rec:
        rows = rec.editions(words[0] if words else None)
    if as_json:
        _json_out(rows)
    else:
        _print(render.editions_table(rows, _titles()))


def _audited_log(rec: Recorder, envelopes: list[dict[str, Any]],
                 report: dict[str, Any]) -> audits.AuditedLog:
    """Whose game a log is and what it holds, for the verify report's sentences."""
    data = envelopes[0].get("data") if envelopes else None
    created: dict[str, Any] = data if isinstance(data, dict) else {}
    named = created.get("players")
    players = named if isinstance(named, list) else []
    mode = str(created.get("mode", "table"))
    return audits.AuditedLog(
        game=_created_words(rec, created, [str(p) for p in players], mode),
        events=len(envelopes), claims=sum(e.get("type") == "claim_result" for e in envelopes),
        seed_revealed=any(e.get("type") == "seed_revealed" for e in envelopes),
        finished=report.get("result") is not None)


def _created_words(rec: Recorder, created: dict[str, Any], players: list[str],
                   mode: str) -> render.GameWords:
    """The words of the game a `game_created` names, even when it names an unknown one."""
    slug = str(created.get("game", ""))
    named = created.get("edition")
    edition: dict[str, Any] = named if isinstance(named, dict) else {}
    rules: GameRules[Any] | None = None
    try:
        rules = rec.rules_for({"game": slug, "edition_sha256": str(edition.get("sha256")),
                               "id": "the file"})
    except Exception:  # an edition this store lacks: the shipped one still names things
        try:
            rules = get_rules(slug)
        except Exception:  # a game chronicle does not know
            rules = None
    if rules is not None:
        return _words_of(rules, players, mode)
    return render.GameWords(title=render.words(slug) or render.say(M("an unknown game")),
                            ctx=BoardContext(tuple(players), lang=render.language()),
                            describe=lambda kind, actor, data: render.words(kind), mode=mode)


def _add_edition(ctx: click.Context, path: str, name: str | None) -> None:
    try:
        with open(path, encoding="utf-8") as fh:
            content = json.load(fh)
    except OSError as err:
        raise click.BadParameter(f"cannot read {path}: {err.strerror}", param_hint="FILE"
                                 ) from None
    except json.JSONDecodeError as err:
        raise click.BadParameter(f"not JSON: {err.msg}", param_hint="FILE") from None
    if not isinstance(content, dict) or not isinstance(content.get("slug"), str):
        raise Refused('(invalid_edition): an edition is a JSON object with a "slug"')
    with service(ctx) as rec:
        row = rec.add_edition(content["slug"], content, name)
    click.echo(f"{row['slug']} edition {row['name']} {row['sha256']}")


@main.command()
@click.argument("game_a")
@click.argument("game_b")
@click.option("--json", "as_json", is_flag=True)
@click.pass_context
@refusals
def compare(ctx: click.Context, game_a: str, game_b: str, as_json: bool) -> None:
    """Compare two records of the same physical game; name the first event where they differ.

    Example: chronicle compare abc123 def456
    """
    with service(ctx) as rec:
        report = rec.compare(game_a, game_b)
        game = None if as_json else _game_words(rec, game_a)
    if as_json or game is None:
        _json_out(report)
    else:
        _print(audits.compare_panel(report, (game_a, game_b), game, _width()))
    if not report["agree"]:
        ctx.exit(1)


@main.command()
@click.option("--game", "slug", default=None, help="only games of this slug")
@click.option("-j", "--jobs", type=click.IntRange(min=1), default=1, show_default=True,
              help="processes replaying games at once")
@click.option("--json", "as_json", is_flag=True)
@click.pass_context
@refusals
def reaudit(ctx: click.Context, slug: str | None, jobs: int, as_json: bool) -> None:
    """Replay every stored game under today's reducers; report games whose outcome changed.

    Example: chronicle reaudit --game royals -j 2
    """
    reports = reaudit_games(ctx.obj["db"], slug, jobs)
    if as_json:
        _json_out({"games": reports, "changed": sum(r["changed"] for r in reports)})
    else:
        _print(audits.reaudit_table(reports, _titles()))


@main.command()
@click.option("--game", "slug", default=None, help="only games of this slug")
@click.option("--json", "as_json", is_flag=True)
@click.pass_context
@refusals
def stats(ctx: click.Context, slug: str | None, as_json: bool) -> None:
    """Statistics across the archive: games, win rate by seat, scores, lengths, actions.

    Example: chronicle stats --game adaman
    """
    with service(ctx) as rec:
        report = rec.statistics(slug)
    if as_json:
        _json_out(report)
    else:
        _print(audits.stats_view(report, _titles(), _move_labels()))


@main.command()
@click.option("--from", "source", default=None, metavar="DB",
              help="the store to copy from (default: --db)")
@click.option("--to", "target", required=True, metavar="DB",
              help="the store to copy into, e.g. postgresql://chronicle@db/chronicle")
@click.option("--audit", is_flag=True, help="re-apply every move by the rules, not only "
              "check the hash chain, before copying a game")
@click.pass_context
@refusals
def migrate(ctx: click.Context, source: str | None, target: str, audit: bool) -> None:
    """Copy every game, edition, token and seed into another store, chain verified first.

    Games already in the target are skipped, so running it again resumes or does nothing.
    Example: chronicle migrate --from chronicle.db --to postgresql://chronicle@db/chronicle
    """
    with Progress(*Progress.get_default_columns(), MofNCompleteColumn(),
                  console=err_console) as bar:
        task = bar.add_task("copying games", total=None)
        report = migrate_store(source or ctx.obj["db"], target, audit=audit,
                               counted=lambda total: bar.update(task, total=total),
                               progress=lambda gid, outcome: bar.advance(task))
    click.echo(f"{len(report.copied)} games copied ({report.events} events), "
               f"{len(report.skipped)} already there, {report.editions} editions added")
    for game_id, reason in report.refused.items():
        click.echo(f"refused {game_id}: {reason}", err=True)
    if not report.ok:
        raise Refused(f"{len(report.refused)} games did not verify and were not copied")


@main.command()
@click.option("--host", default="127.0.0.1", show_default=True)
@click.option("--port", default=8000, show_default=True, type=click.IntRange(1, 65535))
@click.option("--workers", default=2, show_default=True, type=click.IntRange(1, 64),
              help="gunicorn worker processes (each with 8 threads)")
@click.option("--dev", is_flag=True, help="Flask's development server instead of gunicorn")
@click.option("--no-samples", is_flag=True, help="do not load the sample games")
@click.pass_context
@refusals
def serve(ctx: click.Context, host: str, port: int, workers: int, dev: bool,
          no_samples: bool) -> None:
    """Serve the HTTP API and the web viewer (gunicorn; sample games on an empty database).

    Example: chronicle serve --port 8000 --workers 4
    """
    with service(ctx) as rec:
        loaded = 0 if no_samples else rec.load_samples()
    if loaded:
        click.echo(f"loaded {loaded} sample games into {ctx.obj['db']}", err=True)
    click.echo(f"chronicle on http://{host}:{port}/  (API docs: /docs)", err=True)
    env = {**os.environ, "CHRONICLE_DB": ctx.obj["db"]}
    if dev:
        args = [sys.executable, "-m", "flask", "--app", "api:create_app()", "run",
                "--host", host, "--port", str(port)]
    else:
        args = [sys.executable, "-m", "gunicorn", "--workers", str(workers),
                "--worker-class", "api.serving.Worker", "--threads", "8",
                "--limit-request-line", "8190", "--bind", f"{host}:{port}",
                "--access-logfile", "-", "--access-logformat", ACCESS_LOG_FORMAT,
                "--graceful-timeout", "5", "api:create_app()"]
    os.execvpe(args[0], args, env)
