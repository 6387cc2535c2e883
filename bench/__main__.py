"""`python -m bench [--quick] [--only CASE ...] [--results PATH | --no-results]`.

Builds its own data in a temporary directory, runs every case, prints a table of medians
and ratios to same-run baselines, and (on a full run) rewrites bench/RESULTS.md.
`--quick` shrinks every size so the suite runs in well under a minute: CI runs it to check
the suite works, not to judge the numbers.
"""

from __future__ import annotations

import argparse
import importlib
import shutil
import sys
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.table import Table

from . import Config, Row, machine

CASES = ("append", "writers", "state", "history", "verify", "archive", "http", "export",
         "playout", "postgres")
RESULTS = Path(__file__).with_name("RESULTS.md")
#: everything below this line in RESULTS.md is kept when the table is rewritten
NOTES_MARK = "<!-- notes: kept when the table above is rewritten -->"


def _fmt(value: float | None) -> str:
    if value is None:
        return "—"
    if value >= 100:
        return f"{value:,.0f}"
    return f"{value:,.2f}" if value >= 1 else f"{value:.3f}"


def _verdict(row: Row) -> str:
    return "—" if row.ok is None else ("met" if row.ok else "MISSED")


def table(rows: list[Row], title: str) -> Table:
    t = Table(title=title, show_lines=True)
    for name in ("case", "median", "baseline (same run)", "ratio", "goal", "verdict"):
        t.add_column(name, overflow="fold")
    for r in rows:
        base = r.baseline if r.baseline_value is None else \
            f"{r.baseline}: {_fmt(r.baseline_value)} {r.measure}"
        case = r.case + "".join(f"\n[dim]{note}[/dim]" for note in r.notes)
        t.add_row(case, f"{_fmt(r.value)} {r.measure}", base,
                  "—" if r.ratio is None else f"{r.ratio:.2f}", r.goal,
                  {"met": "[green]met[/green]", "MISSED": "[red]MISSED[/red]"}.get(
                      _verdict(r), "—"))
    return t


def markdown(rows: list[Row], info: dict[str, str], seconds: float) -> str:
    lines = [
        "# Benchmark results",
        "",
        "Written by `python -m bench` (a full run). Ratios are to a baseline measured in the "
        "same run on the same machine; absolute figures on a shared machine are noise.",
        "",
        f"- date: {datetime.now(UTC).strftime('%Y-%m-%d %H:%M UTC')}",
        f"- machine: {info['cores']} cores, {info['python']}, SQLite {info['sqlite']}, "
        f"{info['platform']}",
        f"- whole run: {seconds:.0f} s",
        "",
        "| case | median | baseline (same run) | ratio | goal | verdict |",
        "|---|---|---|---|---|---|",
    ]
    for r in rows:
        base = r.baseline if r.baseline_value is None else \
            f"{r.baseline}: {_fmt(r.baseline_value)} {r.measure}"
        case = r.case + "".join(f"<br>*{note}*" for note in r.notes)
        ratio = "—" if r.ratio is None else f"{r.ratio:.2f}"
        lines.append(f"| {case} | {_fmt(r.value)} {r.measure} | {base} | {ratio} | "
                     f"{r.goal} | {_verdict(r)} |")
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench", description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true",
                        help="tiny sizes: checks the suite runs (CI), not the numbers")
    parser.add_argument("--only", nargs="+", choices=CASES, help="run only these cases")
    parser.add_argument("--results", type=Path, default=None,
                        help=f"where to write the Markdown table (full runs: {RESULTS.name})")
    parser.add_argument("--no-results", action="store_true", help="do not write RESULTS.md")
    parser.add_argument("--strict", action="store_true", help="exit 1 if a goal is missed")
    args = parser.parse_args(argv)
    console = Console(width=None if sys.stdout.isatty() else 160)
    workdir = tempfile.mkdtemp(prefix="chronicle-bench-")
    cfg = Config.quick_run(workdir) if args.quick else Config.full(workdir)
    rows: list[Row] = []
    shared: dict[str, Any] = {}
    started = time.perf_counter()
    try:
        for name in args.only or CASES:
            case_start = time.perf_counter()
            module = importlib.import_module(f"{__package__}.{name}")
            with console.status(f"bench: {name} ..."):
                rows += module.run(cfg, shared)
            console.log(f"{name}: {time.perf_counter() - case_start:.1f} s")
    finally:
        shutil.rmtree(workdir, ignore_errors=True)
    seconds = time.perf_counter() - started
    info = machine()
    title = (f"chronicle benchmarks{' (--quick: sizes too small to judge)' if cfg.quick else ''}"
             f" — {info['cores']} cores, {info['python']}, {seconds:.0f} s")
    console.print(table(rows, title))
    target = args.results or (None if cfg.quick or args.only else RESULTS)
    if target is not None and not args.no_results:
        old = target.read_text("utf-8") if target.exists() else ""
        notes = NOTES_MARK + old.split(NOTES_MARK, 1)[1] if NOTES_MARK in old else ""
        target.write_text(markdown(rows, info, seconds) + ("\n" + notes if notes else ""),
                          encoding="utf-8")
        console.print(f"wrote {target}")
    missed = [r.case for r in rows if r.ok is False]
    return 1 if args.strict and missed else 0


if __name__ == "__main__":
    sys.exit(main())
