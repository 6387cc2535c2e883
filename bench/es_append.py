"""Case: the same appends through the `eventsourcing` library, one event per save.

An aggregate that records table actions, kept in memory (the library's cheapest path:
no repository read per save), persisted to SQLite by `eventsourcing.sqlite`. chronicle is
measured again in the same interleaved runs, so both see the same machine.
"""

from __future__ import annotations

import statistics
import time
from pathlib import Path
from typing import Any

from . import Config, Row
from .append import ChronicleAppender
from .data import CONTROL


def _app(path: Path) -> Any:
    from eventsourcing.application import Application
    from eventsourcing.domain import Aggregate, event

    class Table(Aggregate):
        def __init__(self, game: str) -> None:
            self.game = game
            self.actions: int = 0

        @event("Recorded")
        def record(self, type: str, actor: Any, data: dict[str, Any]) -> None:
            self.actions += 1

    class Tables(Application):
        pass

    app = Tables(env={"PERSISTENCE_MODULE": "eventsourcing.sqlite",
                      "SQLITE_DBNAME": str(path), "SQLITE_LOCK_TIMEOUT": "10"})
    table = Table("adaman")
    app.save(table)
    return app, table


def run(cfg: Config, shared: dict[str, Any]) -> list[Row]:
    work = Path(cfg.workdir)
    app, table = _app(work / "eventsourcing.db")
    chronicle = ChronicleAppender(work / "append_es_side.db")
    n = cfg.appends

    def es_run() -> float:
        start = time.perf_counter()
        for i in range(n):
            if i % 2 == 0:
                table.record("control", 0, CONTROL)
            else:
                table.record("undo", "table", {})
            app.save(table)
        return time.perf_counter() - start

    chronicle.run(min(n, 20))
    ours, theirs = [], []
    for _ in range(cfg.repeats):
        theirs.append(n / es_run())
        ours.append(n / chronicle.run(n))
    chronicle.close()
    rate, es_rate = statistics.median(ours), statistics.median(theirs)
    ratio = rate / es_rate
    return [Row("the same appends, chronicle vs eventsourcing (SQLite, 1 event / save)",
                "events/s", rate, "eventsourcing 9 aggregate + eventsourcing.sqlite", es_rate,
                ratio, "chronicle ≥ 1.0x its throughput", ratio >= 1.0)]
