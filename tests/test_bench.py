"""The benchmark suite runs end to end (`python -m bench --quick`); numbers are not judged."""

from __future__ import annotations

import subprocess
import sys

import pytest

from .conftest import ROOT


@pytest.mark.slow
def test_the_quick_benchmark_runs_every_case():
    out = subprocess.run([sys.executable, "-m", "bench", "--quick", "--no-results"], cwd=ROOT,
                         capture_output=True, text=True, timeout=300, check=True)
    for case in ("append one validated action", "eventsourcing", "state at step",
                 "verify a", "HTTP GET /games/ID/state", "HTTP POST", "export a",
                 "random legal playouts"):
        assert case in out.stdout, out.stdout
