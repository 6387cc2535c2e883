"""A Game of Thrones in Chinese (issue #33): every ability and every target of the edition
has its Chinese label beside the English one (`label_zh`), the rules read it into the
ability, and a card's printed values and name read Chinese. The expected Chinese is read
from the edition file itself; the completeness check is shown to fail on a planted gap."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from projections import get_rules
from projections.messages import render
from projections.thrones.legal import card_detail

DATA = Path(__file__).resolve().parents[2] / "projections" / "data" / "thrones.json"
EDITION = json.loads(DATA.read_text("utf-8"))


def labels_without_chinese(edition: dict[str, Any]) -> list[str]:
    """Every ability, and every target, of a card or title with no `label_zh`."""
    out = []
    for item in [*edition["cards"], *edition["titles"]]:
        for ability in item.get("abilities") or ():
            if not ability.get("label_zh"):
                out.append(f"{item['id']}.{ability['id']}")
            out += [f"{item['id']}.{ability['id']}.{t['name']}"
                    for t in ability.get("targets") or () if not t.get("label_zh")]
    return out


def test_every_ability_and_target_has_a_chinese_label() -> None:
    assert labels_without_chinese(EDITION) == []
    planted = json.loads(json.dumps(EDITION))
    del planted["cards"][0]["abilities"][0]["label_zh"]
    assert labels_without_chinese(planted) == ["core_001.kill_participant"]


def test_the_rules_read_the_chinese_label_and_name() -> None:
    ed = get_rules("thrones").components()
    ice = EDITION["cards"][0]
    card = ed.card("p0-001")
    ability = card.ability(ice["abilities"][0]["id"])
    assert ability is not None
    assert str(ability.label) == ice["abilities"][0]["label"]
    assert render(ability.label, "zh_Hans") == ice["abilities"][0]["label_zh"]
    assert render(card.name, "zh_Hans") == ice["name_zh"]
    assert str(card.name) == ice["name"]


def test_a_card_detail_reads_chinese_and_its_english_is_unchanged() -> None:
    ed = get_rules("thrones").components()
    eddard = next(c for c in EDITION["cards"] if c["name"] == "Eddard Stark")
    ident = f"p0-{eddard['number']:03d}"
    icons = ", ".join(eddard["icons"])
    assert str(card_detail(ident, ed)) == (f"cost {eddard['cost']} · STR {eddard['strength']}"
                                           f" · {icons} · unique")
    zh = render(card_detail(ident, ed), "zh_Hans")
    assert zh.startswith(f"费用{eddard['cost']} · 力量{eddard['strength']} · ")
    assert zh.endswith(" · 唯一") and ("、" in zh) == (len(eddard["icons"]) > 1)
