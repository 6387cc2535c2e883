"""How the CLI words its audits: `verify`, `compare`, `reaudit` and `stats`, in the reader's
language (issue #33), with the table's rulings counted and listed (issue #30).

The reports are the recorder's documents (events/verifying.py, events/audit.py); their
sentences are messages, rendered here by `say`. Players by name, moves by their labels,
steps by number; no code, snake_case or `None` reaches the screen (80 columns are tested).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from rich import box
from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from projections.audit import ILLEGAL, ILLEGAL_AFTER_CORRECTIONS
from projections.messages import M, Message, Mn, Ordinal, Seq
from projections.rules import possessive

from .boards import BoardContext
from .render import GameWords, result_sentence, say, sentence_case, without_codes, words

CHAIN_CODES = frozenset({"missing_fields", "seq_gap", "wrong_game", "broken_chain",
                         "hash_mismatch", "no_game_created", "empty_log"})
DEAL_CODES = frozenset({"deal_mismatch", "seed_mismatch", "seed_not_revealed"})
CLAIM_CODES = frozenset({"claimed_result_differs"})
PASS, FAIL, SKIP, RULED = "✓", "✗", "·", "!"
_STYLES = {PASS: "green", FAIL: "bold red", SKIP: "dim", RULED: "yellow"}


@dataclass(frozen=True, slots=True)
class AuditedLog:
    """What `verify` needs to know of a log besides the report: whose game, which kind."""

    game: GameWords
    events: int
    claims: int
    seed_revealed: bool
    finished: bool


# -- verify -----------------------------------------------------------------------------------
def problem_sentence(problem: Mapping[str, Any], ctx: BoardContext) -> Any:
    """One problem of a report as a sentence that starts with its step."""
    seq, code, message = problem.get("seq"), problem.get("code"), problem.get("message", "")
    if code == "deal_mismatch":
        what: Any = M("the cards recorded are not the ones the revealed seed deals")
    elif code == "seed_mismatch":
        what = M("the revealed seed is not the one committed to when the game was created")
    elif code == "seed_not_revealed":
        return M("The game is over, but the seed it was dealt from was never revealed")
    elif code == "claimed_result_differs":
        what = M("the result written at the table differs: {differences}", differences=_joined(
            [_claim_difference(d, ctx) for d in problem.get("differences") or []]))
    elif isinstance(message, Message) and message.key == ILLEGAL:
        what = message.args["reason"]
    elif isinstance(message, Message) and message.key == ILLEGAL_AFTER_CORRECTIONS:
        return M("Step {seq} is illegal after the corrections: {reason}", seq=seq,
                 reason=without_codes(ctx.say(message.args["reason"])))
    else:
        what = message
    if not isinstance(seq, int):
        return sentence_case(ctx.say(what))
    return M("Step {seq}: {problem}", seq=seq, problem=without_codes(ctx.say(what)))


def _joined(items: list[Any]) -> Any:
    """ "a; b; c" as one message."""
    if not items:
        return ""
    out = items[0]
    for item in items[1:]:
        out = M("{first}; {then}", first=out, then=item)
    return out


def _claim_difference(diff: Mapping[str, Any], ctx: BoardContext) -> Any:
    category, claimed, computed = diff.get("category"), diff.get("claimed"), diff.get("computed")
    if category == "result":
        return M("a result was written down, but {fact}", fact=computed)
    if category == "winners":
        return M("the winners were written as {claimed}, the rules make it {computed}",
                 claimed=_seats(claimed, ctx), computed=_seats(computed, ctx))
    what = M("score") if category == "total" else ctx.label(category)
    if diff.get("seat") is not None:
        what = M("{whose} {what}", whose=possessive(ctx.name(diff["seat"])), what=what)
    return M("{what} was written as {claimed}, the rules make it {computed}", what=what,
             claimed=_cell(claimed, ctx), computed=_cell(computed, ctx))


def _cell(value: Any, ctx: BoardContext) -> Any:
    if value is None or value in ({}, [], ""):
        return "—"
    if isinstance(value, bool):
        return M("yes") if value else M("no")
    if isinstance(value, int | float):
        return str(value)
    if isinstance(value, list):
        return Seq(_cell(v, ctx) for v in value)
    return ctx.label(value) if isinstance(value, str) else str(value)


def _seats(value: Any, ctx: BoardContext) -> Any:
    if isinstance(value, list):
        return Seq(ctx.name(s) for s in value) if value else M("nobody")
    return _cell(value, ctx)


def verify_report(report: Mapping[str, Any], log: AuditedLog, width: int) -> Panel:
    """chain, moves, deals, result, claims, rulings: one line each, then every problem
    and every ruling in words."""
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
        _result_line(report, kinds["moves"], ctx),
        _claims_line(kinds["claims"], log, ctx),
        rulings_line(report.get("rulings") or [], ctx) if not kinds["moves"] else
        _mark(SKIP, M("Rulings: not counted, since the moves do not replay.")),
    ]
    checks = Table.grid(padding=(0, 1))
    checks.add_column(no_wrap=True)
    checks.add_column(ratio=1)
    for sign, text in lines:
        checks.add_row(Text(sign, style=_STYLES[sign]), text)
    return Panel(Group(checks, Text(""), _verdict(report, len(problems))), width=width,
                 title=Text(say(M("verify · {game}", game=log.game.title))))


def _verdict(report: Mapping[str, Any], problems: int) -> Text:
    first = report.get("first_bad_seq")
    failing = Mn("{count} problem", "{count} problems", problems)
    if report.get("ok"):
        return Text(say(M("The record verifies.")), style="bold green")
    text = M("The record does not verify: {problems}, the first at step {seq}.",
             problems=failing, seq=first) if first is not None else \
        M("The record does not verify: {problems}.", problems=failing)
    return Text(say(text), style="bold red")


Check = tuple[str, Text]


def _check(name: Any, problems: list[Mapping[str, Any]], ctx: BoardContext,
           fine: Any) -> Check:
    if not problems:
        return _mark(PASS, fine)
    sign, text = _mark(FAIL, Mn("{check}: {count} problem.", "{check}: {count} problems.",
                                len(problems), check=name))
    for problem in problems:
        text.append(f"\n{say(problem_sentence(problem, ctx))}")
    return sign, text


def _mark(sign: str, sentence: Any) -> Check:
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


def _result_line(report: Mapping[str, Any], moves: list[Any], ctx: BoardContext) -> Check:
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


def rulings_line(rulings: Sequence[Mapping[str, Any]], ctx: BoardContext) -> Check:
    """Issue #30: every change recorded outside card text, counted, then one line each
    (its step, who ruled, the reason given)."""
    if not rulings:
        return _mark(SKIP, M("Rulings: none; every move is one the rules checked."))
    sign, text = _mark(RULED, Mn(
        "Rulings: {count} change was recorded outside card text, as a ruling:",
        "Rulings: {count} changes were recorded outside card text, as rulings:",
        len(rulings)))
    for ruling in rulings:
        text.append(f"\n{say(ruling_sentence(ruling, ctx))}")
    return sign, text


def ruling_sentence(ruling: Mapping[str, Any], ctx: BoardContext) -> Message:
    """ "Step 12, the table: <reason>"."""
    who, reason = ctx.name(ruling.get("actor")), ruling.get("reason")
    if reason is None:  # withheld from this viewer while the game runs
        return M("Step {seq}, {who}: its reason is shown once the game is over",
                 seq=ruling["seq"], who=who)
    if not reason:
        return M("Step {seq}, {who}: no reason given", seq=ruling["seq"], who=who)
    return M("Step {seq}, {who}: {reason}", seq=ruling["seq"], who=who, reason=str(reason))


def verify_summary(reports: list[dict[str, Any]]) -> RenderableType:
    """Several records audited: a line each, the first problem of a record that fails."""
    failed = sum(not r["ok"] for r in reports)
    records = Mn("{count} record", "{count} records", len(reports))
    title = Text(say(M("Verified {records}: every one verifies", records=records) if not failed
                     else M("Verified {records}: {failed} do not verify", records=records,
                            failed=failed)))
    if not reports:
        return title
    table = Table(title=title, box=box.SIMPLE_HEAD)
    table.add_column(say(M("record")), no_wrap=True)
    table.add_column("", no_wrap=True)
    table.add_column(say(M("events")), justify="right")
    table.add_column(say(M("rulings")), justify="right")
    table.add_column(say(M("first problem")), ratio=1, overflow="fold")
    for r in reports:
        problem = (r.get("problems") or [{}])[0].get("message", "") if not r["ok"] else ""
        table.add_row(Text(r["game_id"]), Text("✓" if r["ok"] else "✗"),
                      str(r.get("events", "")), str(len(r.get("rulings") or [])),
                      Text(without_codes(say(problem))))
    return table


# -- compare ----------------------------------------------------------------------------------
def compare_panel(report: Mapping[str, Any], ids: tuple[str, str], game: GameWords,
                  width: int) -> Panel:
    title = Text(say(M("compare")))
    if report.get("agree"):
        return Panel(Text(sentence_case(say(M("{sentence}.", sentence=report["message"]))),
                          style="green"), title=title, width=width)
    index = report.get("index")
    lines: list[RenderableType] = [Text(say(
        M("The records differ at the {ordinal} action:", ordinal=Ordinal(index + 1))
        if index is not None else M("The records differ:")), style="bold")]
    for side, game_id in zip(("a", "b"), ids, strict=True):
        entry = report.get(side)
        line = Text(f"{game_id}: ", style="bold")
        line.append(say(M("step {seq}: {sentence}", seq=entry["seq"],
                          sentence=sentence_case(game.sentence(entry["action"]))))
                    if entry else say(M("ends before it")))
        lines.append(line)
    return Panel(Group(*lines), title=title, width=width)


# -- reaudit ----------------------------------------------------------------------------------
def reaudit_table(reports: list[dict[str, Any]], titles: Mapping[str, str]) -> RenderableType:
    changed = sum(bool(r["changed"]) for r in reports)
    title = Text(say(M("Re-audit under today's rules: {games}, {changed} changed",
                       games=Mn("{count} game", "{count} games", len(reports)),
                       changed=changed)))
    if not reports:
        return title
    table = Table(title=title, box=box.SIMPLE_HEAD)
    table.add_column(say(M("id")), no_wrap=True)
    table.add_column(say(M("game")), ratio=1, overflow="fold")
    table.add_column(say(M("what changed")), ratio=2, overflow="fold")
    for r in reports:
        pinned, current = r["pinned_rules_version"], r["current_rules_version"]
        change = _reaudit_change(r) if pinned == current else M(
            "rules {pinned} → {current}: {change}", pinned=pinned, current=current,
            change=_reaudit_change(r))
        table.add_row(Text(r["game_id"]), Text(titles.get(r["game"], words(r["game"]))),
                      Text(say(change)))
    ruled: list[RenderableType] = []
    for r in reports:  # below the table, at the full width: a reason is a sentence
        lines = reaudit_rulings(r.get("rulings") or [])
        if lines:
            ruled.append(Text(f"{r['game_id']}: {say(lines[0])}", style="bold"))
            ruled += [Text("  " + say(line)) for line in lines[1:]]
    return Group(table, *ruled) if ruled else table


def _reaudit_change(r: Mapping[str, Any]) -> Any:
    if r.get("legality_changed") and r.get("first_illegal"):
        bad = r["first_illegal"]
        return M("step {seq} is now illegal: {reason}", seq=bad["seq"],
                 reason=without_codes(say(bad["message"])))
    if r.get("result_changed"):
        return M("the result changed")
    if r.get("first_differing_seq") is not None:
        return M("the state differs from step {seq}", seq=r["first_differing_seq"])
    return M("nothing changed")


def reaudit_rulings(rulings: Sequence[Mapping[str, Any]]) -> list[Message]:
    """A game's rulings for a table of many games: the count, then one line per reason
    (who gave it, at which steps), so every ruling is listed without a row each."""
    if not rulings:
        return []
    groups: dict[tuple[str, str], list[int]] = {}
    for ruling in rulings:
        key = (str(ruling.get("actor")), str(ruling.get("reason") or ""))
        groups.setdefault(key, []).append(ruling["seq"])
    lines = [Mn("{count} ruling outside card text:", "{count} rulings outside card text:",
                len(rulings))]
    for (actor, reason), seqs in groups.items():
        who = M("the table") if actor == "table" else M("seat {seat}", seat=actor)
        steps = Mn("step {steps}", "steps {steps}", len(seqs), steps=Seq(map(str, seqs)))
        lines.append(M("{who}, {steps}: {reason}", who=who, steps=steps, reason=reason)
                     if reason else M("{who}, {steps}: no reason given", who=who, steps=steps))
    return lines


# -- statistics -------------------------------------------------------------------------------
def stats_view(report: Mapping[str, Any], titles: Mapping[str, str],
               moves: Mapping[str, Mapping[str, Any]]) -> Group:
    """The archive's numbers per game; `moves`: each game's move labels by action type."""
    parts: list[RenderableType] = [Text(say(M("{games} in the archive", games=Mn(
        "{count} game", "{count} games", report["total_games"]))), style="bold")]
    for game, stats in report["games"].items():
        parts += [Text(""), Text(say(_stats_title(titles.get(game, words(game)), stats)),
                                 style="bold")]
        if stats["win_rate_by_seat"]:
            parts.append(_win_rates(stats["win_rate_by_seat"]))
        if stats.get("scores"):
            parts += _scores(stats["scores"])
        if stats.get("most_frequent_actions"):
            labels = moves.get(game, {})
            parts.append(Text(say(M("most frequent actions: {moves}", moves=Seq(
                M("{move} ({count})", move=labels.get(name, words(name)), count=n)
                for name, n in stats["most_frequent_actions"])))))
    return Group(*parts)


def _stats_title(title: str, stats: Mapping[str, Any]) -> Message:
    length = stats.get("average_length")
    return M("{game}: {played} played, {finished} finished, {length}", game=title,
             played=stats["played"], finished=stats["finished"],
             length=M("{length} actions on average", length=str(length))
             if length is not None else M("none finished yet"))


def _win_rates(rates: Mapping[str, float]) -> Table:
    table = Table(box=box.SIMPLE_HEAD, pad_edge=False)
    table.add_column(say(M("seat")))
    table.add_column(say(M("wins")), justify="right")
    for seat, rate in rates.items():
        table.add_row(say(M("{ordinal} seat", ordinal=Ordinal(int(seat) + 1))), f"{rate:.0%}")
    return table


def _scores(s: Mapping[str, Any]) -> list[RenderableType]:
    line = Text(say(M("scores: lowest {low}, median {median}, highest {high}",
                      low=s["min"], median=s["median"], high=s["max"])))
    hist = Table(box=None, show_header=False, pad_edge=False)
    hist.add_column("range", justify="right")
    hist.add_column("games", ratio=1)
    most = max((b["count"] for b in s["histogram"]), default=1) or 1
    for b in s["histogram"]:
        bar = "█" * max(0, round(30 * b["count"] / most))
        span = str(b["from"]) if b["from"] == b["to"] else say(
            M("{low} to {high}", low=b["from"], high=b["to"]))
        hist.add_row(span, f"{bar} {b['count']}")
    return [line, hist]
