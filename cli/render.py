"""How the CLI shows things to people: rich tables and panels, a board per game."""

from __future__ import annotations

import json
import os
from typing import Any

from rich.console import Console, Group, RenderableType
from rich.panel import Panel
from rich.pretty import Pretty
from rich.table import Table
from rich.text import Text

from .boards import BoardContext, board_for


def console() -> Console:
    """stdout console; plain when not a terminal so scripts and tests read clean text."""
    return Console(highlight=False, soft_wrap=False,
                   width=int(os.environ.get("COLUMNS", "110")))


def games_table(rows: list[dict[str, Any]], total: int) -> Table:
    table = Table(title=f"{total} game(s)")
    for col in ("id", "game", "players", "mode", "status", "created"):
        table.add_column(col)
    for row in rows:
        table.add_row(row["id"], row["game"], ", ".join(row["players"]), row["mode"],
                      row["status"], row["created_at"][:19])
    return table


def board(game: str, view: dict[str, Any], ctx: BoardContext | None = None) -> RenderableType:
    """The game's board, or the view as a pretty tree for games without one."""
    draw = board_for(game)
    ctx = ctx or BoardContext(names=())
    try:
        return draw(view, ctx) if draw else Pretty(view, max_length=12)
    except (KeyError, TypeError):
        return Pretty(view, max_length=12)


def state_panel(doc: dict[str, Any]) -> Panel:
    parts: list[RenderableType] = [board(doc["game"], doc["view"])]
    if doc.get("result"):
        result = doc["result"]
        parts.append(Text(f"Result: scores {result['scores']}, winners {result['winners']} "
                          f"({result['reason']})", style="bold"))
    elif doc.get("to_act"):
        parts.append(Text(f"To act: {', '.join(map(str, doc['to_act']))}"))
    return Panel(Group(*parts), title=f"{doc['game']} {doc['game_id']} — step {doc['seq']} "
                 f"({doc['status']})")


def actions_table(actions: list[dict[str, Any]]) -> Table:
    table = Table(title=f"{len(actions)} legal action(s)")
    table.add_column("type")
    table.add_column("actor")
    table.add_column("data")
    for action in actions:
        table.add_row(action["type"], str(action["actor"]), json.dumps(action["data"]))
    return table


def _event_text(event: dict[str, Any], note: dict[str, Any]) -> Text:
    words = note.get("description") or event["type"].replace("_", " ")
    text = Text(words)
    if note.get("undone"):
        text.stylize("strike dim")
        text.append(" (undone)")
    if event["type"] in ("undo", "redo"):
        text = Text(f"{event['type']} of seq {event['data'].get('target_seq')}", style="italic")
    return text


def log_table(events: list[dict[str, Any]], notes: dict[int, dict[str, Any]]) -> Table:
    table = Table(title=f"{len(events)} event(s)")
    for col in ("seq", "actor", "type", "what happened", "recorded"):
        table.add_column(col)
    for event in events:
        table.add_row(str(event["seq"]), str(event["actor"]), event["type"],
                      _event_text(event, notes.get(event["seq"], {})),
                      event["recorded_at"][:19])
    return table


def step_panel(event: dict[str, Any], note: dict[str, Any], doc: dict[str, Any],
               total: int) -> Panel:
    head = Text(f"step {event['seq']} of {total - 1}: {event['type']} by {event['actor']} — ")
    head.append_text(_event_text(event, note))
    keys = Text("n/→ next  p/← previous  f first  l last  q quit", style="dim")
    return Panel(Group(head, state_panel(doc), keys), title="replay")


def verify_panel(report: dict[str, Any]) -> Panel:
    if report["ok"]:
        body = Text(f"OK: chain intact, {report['checked']} events re-applied, "
                    f"result {report['result']}", style="green")
    else:
        body = Text(f"FAILED at seq {report['first_bad_seq']}\n", style="bold red")
        for problem in report["problems"]:
            body.append(f"  seq {problem['seq']} ({problem['code']}): {problem['message']}\n")
    return Panel(body, title="verify")


def editions_table(rows: list[dict[str, Any]]) -> Table:
    table = Table(title="editions")
    for col in ("game", "name", "sha256"):
        table.add_column(col)
    for row in rows:
        table.add_row(row["slug"], row["name"], row["sha256"])
    return table


def correction_table(report: list[dict[str, Any]]) -> Table:
    table = Table(title="events after the corrected one")
    for col in ("seq", "now", "what"):
        table.add_column(col)
    for row in report:
        what = row.get("message") or ", ".join(row.get("changed", []))
        table.add_row(str(row["seq"]), row["status"], what)
    if not report:
        table.add_row("—", "unchanged", "no later event changed")
    return table


def compare_panel(report: dict[str, Any]) -> Panel:
    if report["agree"]:
        return Panel(Text(report["message"], style="green"), title="compare")
    table = Table(title=report["message"])
    table.add_column("record A")
    table.add_column("record B")
    side = [json.dumps(report[k], indent=1) if report[k] else "—" for k in ("a", "b")]
    table.add_row(*side)
    return Panel(table, title="compare")


def reaudit_table(reports: list[dict[str, Any]]) -> Table:
    changed = sum(r["changed"] for r in reports)
    table = Table(title=f"re-audit: {len(reports)} game(s), {changed} changed")
    for col in ("game", "id", "rules", "legal", "result", "first differing seq"):
        table.add_column(col)
    for r in reports:
        table.add_row(r["game"], r["game_id"],
                      f"{r['pinned_rules_version']} → {r['current_rules_version']}",
                      "CHANGED" if r["legality_changed"] else "same",
                      "CHANGED" if r["result_changed"] else "same",
                      str(r["first_differing_seq"] if r["first_differing_seq"] is not None
                          else "—"))
    return table


def stats_view(report: dict[str, Any]) -> Group:
    parts: list[RenderableType] = [Text(f"{report['total_games']} game(s) in the archive")]
    for game, stats in report["games"].items():
        table = Table(title=f"{game}: {stats['played']} played, {stats['finished']} finished, "
                      f"average length {stats['average_length']}")
        table.add_column("seat")
        table.add_column("win rate")
        for seat, rate in stats["win_rate_by_seat"].items():
            table.add_row(seat, f"{rate:.0%}")
        parts.append(table)
        if stats["scores"]:
            hist = Table(title="scores", box=None)
            hist.add_column("range")
            hist.add_column("games")
            for b in stats["scores"]["histogram"]:
                hist.add_row(f"{b['from']} to {b['to']}", "█" * b["count"] + f" {b['count']}")
            parts.append(hist)
        parts.append(Text("most frequent actions: " + ", ".join(
            f"{name} ({n})" for name, n in stats["most_frequent_actions"])))
    return Group(*parts)
