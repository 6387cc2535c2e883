"""Every option of every game's `game_created` is worded for people (issue #33): its key
(and each key of a nested option) has a label, read in Chinese in zh-Hans, and the
new-game form gets them from GET /games-catalog in the request's language."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

import pytest

from projections import GAMES
from projections.messages import render


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
