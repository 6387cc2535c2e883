"""The audits speak the reader's language (issue #33): `verify`, `compare`, `reaudit` and
`stats` of every sample game, in zh-Hans, keep no English word of the interface, and fit 80
columns.

Allowed: the players' names, proper names (the games' titles, the Decktet), the commands
and ids a person types back, and what people wrote (a ruling's reason). For a game whose
own sentences are not converted yet (tests/projections/test_i18n_catalog.py, CONVERTED),
the words its rules say (its sentences, labels and result) are its own: the shell's words
are still checked. The check is shown to fail on a planted untranslated key.
"""

from __future__ import annotations

import json
import re
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from rich.cells import cell_len

import projections.messages as messages
from projections import get_rules
from projections.messages import render
from projections.rules import Action

from ..conftest import FIXTURES
from ..projections.test_i18n_catalog import CONVERTED
from ..projections.test_i18n_render import WORD, english_words

SAMPLES = sorted(FIXTURES.glob("*/*.jsonl"))
#: words a person types back (commands, flags), never translated
TYPED = {"chronicle", "verify", "json", "ID", "FILE", "KEY", "VALUE"}
CODE = re.compile(r"\([a-z]+(?:_[a-z0-9]+)+\)")


def _envelopes(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text("utf-8").splitlines() if line]


@cache
def _own_words(path: Path) -> set[str]:
    """What is not the shell's to translate: names, titles, typed reasons, and for a game
    not converted yet, every English word its rules say about this game."""
    envelopes = _envelopes(path)
    created = envelopes[0]["data"]
    rules = get_rules(created["game"])
    texts = [*map(str, created["players"]), str(rules.title),
             *(str(e["data"].get("reason", "")) for e in envelopes if e["type"] == "effect")]
    if created["game"] not in CONVERTED:
        texts += [render(v, "en") for v in rules.labels().values()]
        texts += [render(a.label, "en") for a in rules.actions]
        result = json.loads(path.with_suffix(".expected.json").read_text("utf-8"))
        texts.append(json.dumps(result).replace("_", " "))  # its reason, its categories
        for env in envelopes[1:]:
            try:
                action = Action.of(env["type"], env["actor"], env["data"])
                texts.append(render(rules.describe(action, created["players"]), "en"))
            except Exception:  # a log event: the shell's own sentence
                continue
    return {w for text in texts for w in WORD.findall(text)} | TYPED


@pytest.fixture(scope="module")
def archive(tmp_path_factory) -> tuple[Path, dict[Path, str]]:
    """Every sample game imported into one store: its path -> its game id."""
    from cli import main

    db = tmp_path_factory.mktemp("audits") / "all.db"
    ids = {}
    for path in SAMPLES:
        out = CliRunner().invoke(main, ["--db", str(db), "import", str(path)])
        assert out.exit_code == 0, out.output
        ids[path] = out.output.strip().splitlines()[0]
    return db, ids


def _zh(db: Path, args: list[str]) -> str:
    from cli import main

    out = CliRunner().invoke(main, ["--db", str(db), "--lang", "zh-Hans", *args],
                             env={"COLUMNS": "80"})
    assert out.exit_code in (0, 1), out.output
    # a refusal (on stderr) is read too; its rule's code, "(not_the_same_game)", is for scripts
    return CODE.sub("", out.output)


def left_over(text: str, allowed: set[str], ids: list[str]) -> list[str]:
    """The English words of `text` that are the interface's (ids stripped first)."""
    for game_id in sorted(ids, key=len, reverse=True):
        text = text.replace(game_id, " ")
    return [w for w in english_words(text, []) if w not in allowed]


def too_wide(text: str, width: int = 80) -> list[str]:
    return [line for line in text.splitlines() if cell_len(line) > width]


def _partner(path: Path) -> Path:
    """Another sample of the same game (a compare that differs or is refused), or itself."""
    same = [p for p in SAMPLES if p.parent == path.parent and p != path]
    return same[0] if same else path


@pytest.mark.parametrize("path", SAMPLES, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_the_audits_of_a_sample_game_read_chinese_in_80_columns(archive, path):
    db, ids = archive
    game_id, other = ids[path], ids[_partner(path)]
    # reaudit and stats list every sample of the game
    allowed = set().union(*(_own_words(p) for p in SAMPLES if p.parent == path.parent))
    slug = path.parent.name
    commands = [["verify", game_id], ["compare", game_id, game_id],
                ["compare", game_id, other], ["reaudit", "--game", slug],
                ["stats", "--game", slug], ["verify", game_id, other]]
    for args in commands:
        said = _zh(db, args)
        assert said.strip(), args
        assert left_over(said, allowed, list(ids.values())) == [], (args, said)
        assert too_wide(said) == [], (args, said)


def test_the_option_help_reads_chinese_in_80_columns(archive):
    db, _ = archive
    said = _zh(db, ["new", "--help"])  # click's own help above stays English: its words
    royals = get_rules("royals")
    options = said[said.index(render(messages.M("Options of {game}:", game=royals.title),
                                     "zh_Hans")):]
    titles = {w for slug in ("royals", "thrones") for w in WORD.findall(get_rules(slug).title)}
    typed = {w for line in options.splitlines() if "=" in line for w in WORD.findall(line)}
    # the values of an option, as typed after `--option` (§4): each shown beside its label
    values = {str(v) for vs in get_rules("thrones").option_values.values() for v in vs}
    assert left_over(options, titles | typed | values | {"Arcane", "Wonders"}, []) == [], \
        options
    assert "第3时期后打完本轮" in options  # Royals' variant, worded by its rules
    assert too_wide(said) == []


def test_the_check_finds_a_planted_untranslated_key(archive, monkeypatch):
    db, ids = archive
    path = FIXTURES / "thrones" / "2_players_worked_example.jsonl"
    allowed = _own_words(path)
    assert left_over(_zh(db, ["verify", ids[path]]), allowed, list(ids.values())) == []
    key = ("Rulings: {count} change was recorded outside card text, as a ruling:")
    planted = {k: v for k, v in messages.catalog("zh_Hans").items() if k != (None, key)}
    monkeypatch.setattr(messages, "catalog", lambda lang: planted)
    found = left_over(_zh(db, ["verify", ids[path]]), allowed, list(ids.values()))
    assert {"Rulings", "outside", "rulings"} <= set(found), found
    assert too_wide("x" * 40 + "裁定" * 21) != []  # 82 cells: the width check counts cells


def test_english_stays_the_default(archive):
    from cli import main

    db, ids = archive
    path = FIXTURES / "thrones" / "2_players_worked_example.jsonl"
    out = CliRunner().invoke(main, ["--db", str(db), "verify", ids[path]],
                             env={"COLUMNS": "80", "LANG": "C"})
    assert re.search(r"Rulings: 5 changes were recorded outside card text", out.stdout)
