"""The CLI speaks the reader's language (issue #33): `--lang`, else LC_ALL, LC_MESSAGES, LANG.

Every sample game of a converted game is imported and its `log`, steps of its `replay`, its
`verify`, `games`, `legal` and `state` are printed in zh-Hans; no ASCII word of the
interface may remain (players' names and proper names aside; the ids a script passes back,
such as the game id and the TYPE column of `move`, are machine words). English stays the
default.
"""

from __future__ import annotations

import json
import re

import pytest

from cli import reader_language

from ..conftest import FIXTURES
from ..projections.test_i18n_catalog import CONVERTED
from ..projections.test_i18n_render import WORD, english_words, typed

#: interface words that are commands or keys a person types (the keys of `replay`, `done`)
TYPED = {"chronicle", "verify", "json", "act", "move", "ID", "TYPE", "done", "back"}


@pytest.mark.parametrize(("flag", "env", "expected"), [
    ("zh-Hans", {}, "zh_Hans"), ("en", {"LANG": "zh_CN.UTF-8"}, "en"),
    (None, {"LANG": "zh_CN.UTF-8"}, "zh_Hans"), (None, {"LC_ALL": "C", "LANG": "zh_CN"}, "en"),
    (None, {"LC_MESSAGES": "zh_TW.UTF-8"}, "zh_Hans"), (None, {}, "en"),
])
def test_the_language_comes_from_the_flag_then_the_locale(monkeypatch, flag, env, expected):
    for name in ("LC_ALL", "LC_MESSAGES", "LANG"):
        monkeypatch.delenv(name, raising=False)
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    assert reader_language(flag) == expected


def _imported(runner, path) -> tuple[str, list[str]]:
    """The game's id, and the names a page may show as they are: the players' and, word by
    word (a terminal wraps them), what was typed in the events (a ruling's reason)."""
    result = runner(["import", str(path)])
    assert result.exit_code == 0, result.output
    lines = path.read_text("utf-8").splitlines()
    first = json.loads(lines[0])
    notes = {w for line in lines for note in typed(json.loads(line).get("data"))
             for w in WORD.findall(note)}
    return result.output.strip().splitlines()[0].strip(), [*first["data"]["players"],
                                                           " ".join(sorted(notes))]


def _left(text: str, names: list[str], game_id: str) -> list[str]:
    # a cell cut short ("…") may end inside a player's name: the cut name is still a name
    known = {w for n in names for w in n.split()}
    cut = re.sub(r"[A-Za-z]+…", lambda m: "…" if any(w.startswith(m.group(0)[:-1])
                                                        for w in known) else m.group(0), text)
    return [w for w in english_words(cut.replace(game_id, ""), names) if w not in TYPED]


@pytest.mark.parametrize("path", [p for slug in CONVERTED
                                  for p in sorted((FIXTURES / slug).glob("*.jsonl"))],
                         ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_log_and_replay_read_chinese(runner, path, monkeypatch):
    monkeypatch.setenv("COLUMNS", "100")
    game_id, names = _imported(runner, path)
    log = runner(["--lang", "zh-Hans", "log", game_id])
    assert log.exit_code == 0, log.output
    assert _left(log.output, names, game_id) == []
    last = len(path.read_text("utf-8").splitlines()) - 1
    for seq in sorted({0, 1, last // 2, last}):
        step = runner(["--lang", "zh-Hans", "replay", game_id, "--at", str(seq)])
        assert step.exit_code == 0, step.output
        assert _left(step.output, names, game_id) == [], seq
    for args in (["verify", str(path)], ["games"], ["legal", game_id], ["state", game_id]):
        said = runner(["--lang", "zh-Hans", *args])
        assert said.exit_code in (0, 1), said.output
        assert _left(said.output, names, game_id) == [], args
    english = runner(["replay", game_id, "--at", str(last)])
    assert "Step" in english.output


def test_a_refusal_reads_chinese_with_its_code_kept(runner, monkeypatch):
    monkeypatch.setenv("LANG", "zh_CN.UTF-8")
    created = runner(["new", "adaman", "--player", "Ann"])
    game_id = created.output.strip().splitlines()[0].strip()
    refused = runner(["act", game_id, "control", "--actor", "0", "--data",
                      '{"target": "huntress", "spend": ["mill"], "drawn": []}'])
    assert refused.exit_code == 1
    assert "(game_not_started)" in refused.output
    assert "牌阵还没有发" in refused.output
    assert not re.search(r"the layout", refused.output)


def test_a_correction_and_the_editions_read_chinese(runner, monkeypatch):
    """`act` of a correction prints what it did to the later events, and `editions` lists
    the editions, in zh-Hans: the table's title, columns and words, and the refusal of the
    event it made illegal (fixtures/adaman/won: step 2 corrected to turn up the Sea, which
    step 3 turns up too). The check is shown to fail on a planted English word."""
    monkeypatch.setenv("COLUMNS", "100")
    game_id, names = _imported(runner, FIXTURES / "adaman" / "won.jsonl")
    fix = {"target_seq": 2, "action": {"type": "control", "actor": 0, "data": {
        "target": "painter", "spend": ["ace_knots", "desert"],
        "drawn": ["sailor", "ace_leaves", "sea"]}}}
    act = runner(["--lang", "zh-Hans", "act", game_id, "correction", "--actor", "table",
                  "--data", json.dumps(fix)])
    assert act.exit_code == 0, act.output
    assert "这次更正对之后事件的影响" in act.output and "不合法" in act.output
    assert _left(act.output, names, game_id) == []
    editions = runner(["--lang", "zh-Hans", "editions"])
    assert editions.exit_code == 0, editions.output
    assert "版本" in editions.output
    # the sha256 column and the editions' registered names are machine words and typed names
    shown = re.sub(r"\b[0-9a-f]{8,}\b|\bdefault\b|\bsha256\b", "", editions.output)
    assert _left(shown, names, game_id) == []
    assert _left("What the correction did", names, game_id) == ["What", "correction", "did"]
