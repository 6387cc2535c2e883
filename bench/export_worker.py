"""One export in a fresh process: `python -m bench.export_worker DB GAME_ID` -> JSON."""

from __future__ import annotations

import json
import resource
import sys
import time

from events import Recorder, open_store


def _peak_mb() -> float:
    """Peak RSS of this process image. getrusage's ru_maxrss is not used: Linux carries it
    over fork and exec, so a child reports its parent's peak (the bench's own)."""
    try:
        with open("/proc/self/status", encoding="ascii") as fh:
            for line in fh:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) / 1024  # kB
    except OSError:
        pass
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def main(db: str, game_id: str) -> dict[str, float | int]:
    store = open_store(db)
    rec = Recorder(store)
    rec.game(game_id)
    before = _peak_mb()
    start = time.perf_counter()
    lines = size = 0
    for line in rec.export(game_id):
        lines += 1
        size += len(line)
    seconds = time.perf_counter() - start
    store.close()
    return {"lines": lines, "bytes": size, "seconds": seconds,
            "rss_before_mb": before, "rss_growth_mb": _peak_mb() - before}


if __name__ == "__main__":
    sys.stdout.write(json.dumps(main(sys.argv[1], sys.argv[2])) + "\n")
