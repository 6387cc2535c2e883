"""Every recorded sample game verifies and folds to its golden result.

`pytest --update-goldens` rewrites the *.expected.json files; reviewers read the diff.
"""

from __future__ import annotations

import json

import pytest

from events import Recorder
from events.sqlite import SQLiteStore

from .conftest import fixture_files, load_fixture

FILES = fixture_files()


def test_every_registered_game_has_recorded_fixtures():
    from projections import GAMES

    for slug in GAMES:
        assert fixture_files(slug), f"fixtures/{slug}/ holds no recorded games"


@pytest.mark.parametrize("path", FILES, ids=[f"{p.parent.name}/{p.stem}" for p in FILES])
def test_fixture_verifies_and_matches_its_expected_result(path, tmp_path, request):
    envelopes, expected = load_fixture(path)
    rec = Recorder(SQLiteStore(str(tmp_path / "g.db")))
    report = rec.verify_envelopes(envelopes)
    assert report["ok"], report["problems"]
    if request.config.getoption("--update-goldens"):
        expected["result"] = report["result"]
        golden = path.with_suffix("").with_suffix(".expected.json")
        golden.write_text(json.dumps(expected, indent=2, ensure_ascii=False) + "\n", "utf-8")
    assert report["result"] == expected["result"]
    assert envelopes[-1]["seq"] == expected["last_seq"]
    assert report["result"] is not None, "a sample game must be complete"
