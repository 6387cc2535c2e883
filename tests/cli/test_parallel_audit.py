"""`chronicle verify --all -j N` and `chronicle reaudit -j N` (issue #34): the same reports,
in the same order, with one process or several; a record that fails is named."""

from __future__ import annotations

import json
import sqlite3

from ..conftest import FIXTURES


def _archive(runner) -> list[str]:
    ids = []
    for path in sorted(FIXTURES.glob("*/*.jsonl"))[:8]:
        result = runner(["import", str(path)])
        assert result.exit_code == 0, result.output
        ids.append(result.stdout.strip())
    return ids


def test_verify_all_gives_the_same_reports_with_two_processes(runner):
    ids = _archive(runner)
    one = json.loads(runner(["verify", "--all", "--json"]).stdout)
    two = json.loads(runner(["verify", "--all", "-j", "2", "--json"]).stdout)
    assert one == two
    assert sorted(r["game_id"] for r in one["games"]) == sorted(ids)
    assert one["failed"] == 0 and all(r["ok"] for r in one["games"])


def test_reaudit_gives_the_same_reports_with_two_processes(runner):
    _archive(runner)
    one = json.loads(runner(["reaudit", "--json"]).stdout)
    two = json.loads(runner(["reaudit", "-j", "2", "--json"]).stdout)
    assert one == two and len(one["games"]) == 8 and one["changed"] == 0


def test_a_record_altered_in_the_store_is_named_by_verify_all(runner, db_path):
    ids = _archive(runner)
    with sqlite3.connect(db_path) as conn:  # a planted fault: an edited row, below the API
        conn.execute("DROP TRIGGER IF EXISTS events_no_update")
        names = [r[0] for r in conn.execute(
            "SELECT name FROM sqlite_master WHERE type = 'trigger'")]
        for name in names:
            conn.execute(f"DROP TRIGGER {name}")
        conn.execute("UPDATE events SET data = '{}' WHERE game_id = ? AND seq = 1", (ids[3],))
    result = runner(["verify", "--all", "-j", "2"])
    assert result.exit_code == 1
    assert f"1 of 8 records do not verify; the first: {ids[3]}" in result.stderr
