"""The README's screenshots (issue #33): a replay page in English and in zh-Hans, PNGs 1280
px wide and under 200 KB each, referenced from the README; `python scripts/screenshots.py`
makes them again (with the system Chromium)."""

from __future__ import annotations

import struct

from .conftest import ROOT

SHOTS = ("replay-en.png", "replay-zh-Hans.png")


def _png_size(data: bytes) -> tuple[int, int]:
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    width, height = struct.unpack(">II", data[16:24])  # the IHDR chunk comes first
    return width, height


def test_the_readme_shows_both_screenshots_each_small_and_1280_wide():
    readme = (ROOT / "README.md").read_text("utf-8")
    for name in SHOTS:
        path = ROOT / "docs" / "screenshots" / name
        assert f"(docs/screenshots/{name})" in readme
        data = path.read_bytes()
        assert len(data) < 200 * 1024, name
        assert _png_size(data)[0] == 1280, name
    script = (ROOT / "scripts" / "screenshots.py").read_text("utf-8")
    assert all(name in script for name in SHOTS)
