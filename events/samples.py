"""Loading the recorded sample games into an empty database (so a newcomer sees games);
the shells ask the facade (`Recorder.load_samples`)."""

from __future__ import annotations

import logging
import os
from collections.abc import Iterable
from pathlib import Path
from typing import Any, Protocol

from .store import GameFilter

log = logging.getLogger("chronicle.samples")


class Importer(Protocol):
    """What loading needs of the Recorder (which imports this module: no cycle)."""

    def list_games(self, flt: GameFilter) -> tuple[list[dict[str, Any]], int]: ...

    def import_lines(self, lines: Iterable[str]) -> Any: ...


def fixtures_dir() -> Path:
    """fixtures/ beside the packages (a source checkout), or CHRONICLE_FIXTURES."""
    configured = os.environ.get("CHRONICLE_FIXTURES")
    return Path(configured) if configured else Path(__file__).resolve().parents[1] / "fixtures"


def load_samples(rec: Importer, folder: Path | None = None) -> int:
    """Import every fixture game if the database holds no game yet; returns how many."""
    if rec.list_games(GameFilter(limit=1))[1] > 0:
        return 0
    count = 0
    for path in sorted((folder or fixtures_dir()).glob("*/*.jsonl")):
        try:
            with open(path, encoding="utf-8") as fh:
                rec.import_lines(fh)
            count += 1
        except Exception as err:  # one bad sample must not stop the service
            log.warning("sample %s not loaded: %s", path.name, err)
    return count
