"""Every option of every game's `game_created` is worded for people (issue #33): its key
(and each key of a nested option) has a label, read in Chinese in zh-Hans, and the
new-game form gets them from GET /games-catalog in the request's language. An option with
named values (a string, like Thrones' military claim scope) has a label for each value, in
both languages, and no label shows a typed value (snake_case or an English token) in its
Chinese; the checks are shown to fail on planted faults."""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

import pytest

from projections import GAMES
from projections.messages import M, render
from projections.rules import GameRules
from tests.projections.test_i18n_render import english_words


def _keys(options: Mapping[str, Any]) -> Iterator[str]:
    for key, value in options.items():
        yield key
        if isinstance(value, Mapping):
            yield from _keys(value)


@pytest.mark.parametrize("slug", sorted(GAMES))
def test_every_option_key_has_a_label_in_both_languages(slug):
    cls = GAMES[slug]
    for key in _keys(cls.default_options):
        label = cls.option_labels.get(key)
        assert label is not None, f"{slug}: option {key} has no label"
        assert render(label, "zh_Hans") != render(label, "en"), f"{slug}: {key} in English"


def test_the_catalog_serves_the_labels_in_the_request_language(client):
    def labels(lang: str) -> dict[str, Any]:
        games = client.get(f"/games-catalog?lang={lang}").json["games"]
        return next(g for g in games if g["slug"] == "royals")["option_labels"]

    assert labels("en")["period3_finish_round"] == "finish the round after period 3"
    assert labels("zh-Hans")["period3_finish_round"] == "第3时期后打完本轮"


def value_problems(cls: type[GameRules[Any]]) -> list[str]:
    """What of a game's option values a person would read untranslated: a named value
    (a string option's default, or a value the game lists) without a label in both
    languages, a value's label with an English word in zh-Hans, or an option's Chinese
    label that shows a typed value."""
    out = []
    for key, default in cls.default_options.items():
        if not isinstance(default, str):
            continue
        values = cls.option_values.get(key) or {}
        if default not in values:
            out.append(f"{key}: its value {default!r} has no label")
        for value, label in values.items():
            zh = render(label, "zh_Hans")
            if zh == render(label, "en") or english_words(zh, []):
                out.append(f"{key}={value}: {zh!r} in English")
    for key, label in cls.option_labels.items():
        zh = render(label, "zh_Hans")
        typed = {str(v) for vs in cls.option_values.values() for v in vs} | {
            v for v in cls.default_options.values() if isinstance(v, str)}
        found = [w for w in english_words(zh, []) if w in typed or "_" in w]
        if found or "_" in zh:
            out.append(f"{key}: its Chinese label shows {found or zh!r}")
    return out


@pytest.mark.parametrize("slug", sorted(GAMES))
def test_every_option_value_has_a_label_in_both_languages(slug):
    assert value_problems(GAMES[slug]) == []


def test_the_thrones_values_are_the_editions_and_the_check_finds_planted_faults():
    thrones = GAMES["thrones"]
    edition = json.loads((Path(__file__).resolve().parents[2] / "projections" / "data" /
                          "thrones.json").read_text("utf-8"))
    listed = {k: v["values"] for k, v in edition["options"].items() if "values" in v}
    assert {k: sorted(thrones.option_values[k]) for k in listed} == \
        {k: sorted(v) for k, v in listed.items()}

    class Typed(thrones):  # type: ignore[misc, valid-type]
        option_labels = {**thrones.option_labels,
                         "military_claim_scope": M("{a} (participating), or any", a="x")}
        option_values = {"military_claim_scope": {"any": M("any character")}}

    assert value_problems(Typed) == [
        "military_claim_scope: its value 'participating' has no label",
        "military_claim_scope: its Chinese label shows ['participating', 'any']"]


def test_the_form_gets_the_value_labels_in_the_request_language(client):
    def values(lang: str) -> dict[str, Any]:
        games = client.get(f"/games-catalog?lang={lang}").json["games"]
        return next(g for g in games if g["slug"] == "thrones")["option_values"]

    assert values("en")["military_claim_scope"] == {"participating": "participating characters",
                                                   "any": "any character"}
    assert values("zh-Hans")["military_claim_scope"] == {"participating": "参与挑战的角色",
                                                        "any": "任何角色"}
