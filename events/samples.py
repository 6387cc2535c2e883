"""Where the recorded sample games are (so a newcomer sees games); the facade loads them
into an empty database (`Recorder.load_samples`)."""

from __future__ import annotations

import os
from pathlib import Path


def fixtures_dir() -> Path:
    """fixtures/ beside the packages (a source checkout), or CHRONICLE_FIXTURES."""
    configured = os.environ.get("CHRONICLE_FIXTURES")
    return Path(configured) if configured else Path(__file__).resolve().parents[1] / "fixtures"
