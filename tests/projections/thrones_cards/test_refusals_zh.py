"""The refusals of `use_ability` read Chinese in zh-Hans (issue #33): outside its window,
against its condition, on a wrong target, without its cost, past its limit, from the wrong
zone, another's card. Each refusal names the card by its Chinese name (`name_zh` of
projections/data/thrones.json) and its ability by its `label_zh`, and holds no English
word but the players' names and what the caller typed; its English is the sentence of
before. Every sentence apply/abilities.py can say is a message key with its Chinese in the
catalog (no refusal built as an English string). Each check is shown to fail once with a
fault planted: an untranslated key, a refusal written as an f-string."""

from __future__ import annotations

import ast
import json
from collections.abc import Callable
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from projections.messages import M, Name, render
from projections.rules import IllegalAction, replace
from tests.projections.test_i18n_render import english_words
from tests.projections.thrones_cards.harness import NAMES, Board, refused

ROOT = Path(__file__).resolve().parents[3]
MODULE = ROOT / "projections" / "thrones" / "apply" / "abilities.py"
CATALOG = ROOT / "projections" / "locale" / "zh_Hans" / "LC_MESSAGES" / "messages.po"
EDITION = json.loads((ROOT / "projections" / "data" / "thrones.json").read_text("utf-8"))
CARDS = {c["id"]: c for c in EDITION["cards"]}
PLAYERS = list(NAMES[:2])


def _zh(card: str) -> str:
    return str(CARDS[card]["name_zh"])


def _label_zh(card: str, ability: str) -> str:
    return next(str(a["label_zh"]) for a in CARDS[card]["abilities"] if a["id"] == ability)


# -- the refusals, each with the card it names ------------------------------------------
def _ice(step: str = "defenders_declared", bearer_in: bool = True) -> tuple[Board, str, str,
                                                                             str]:
    b = Board(phase="challenges")
    robb = b.play(0, "core_013")
    other = b.play(0, "core_021")
    ice = b.play(0, "core_001", on=robb)
    foe = b.play(1, "core_041")
    b.challenge("military", attacker=0, attackers=[robb if bearer_in else other],
                defenders=[foe], step=step)
    return b, ice, robb, foe


def outside_window() -> IllegalAction:
    b, ice, _, foe = _ice()
    b.set(challenge=None)
    return refused(b.state, 0, ice, "kill_participant", code="outside_window", victim=foe)


def condition_failed() -> IllegalAction:
    b, ice, _, foe = _ice(bearer_in=False)
    return refused(b.state, 0, ice, "kill_participant", code="condition_failed", victim=foe)


def wrong_target() -> IllegalAction:
    b, ice, robb, _ = _ice()
    return refused(b.state, 0, ice, "kill_participant", code="wrong_target", victim=robb)


def no_target() -> IllegalAction:
    b, ice, _, _ = _ice()
    return refused(b.state, 0, ice, "kill_participant", code="wrong_target")


def unknown_choice() -> IllegalAction:
    b, ice, _, foe = _ice()
    return refused(b.state, 0, ice, "kill_participant", code="wrong_target", victim=foe,
                   extra=foe)


def wrong_phase() -> IllegalAction:
    b = Board(phase="challenges")
    ilyn = b.play(0, "core_041")
    bran = b.play(1, "core_013")
    return refused(b.state, 0, ilyn, "kill_weakling", code="outside_window", victim=bran)


def not_your_card() -> IllegalAction:
    b = Board(phase="marshalling")
    ilyn = b.play(0, "core_041")
    bran = b.play(1, "core_013")
    return refused(b.state, 1, ilyn, "kill_weakling", code="not_your_card", victim=bran)


def cost_gold() -> IllegalAction:
    b = Board(houses=("Lannister", "Stark"), phase="marshalling", gold=1)
    will = b.hand(0, "core_162")
    bran = b.play(1, "core_013")
    return refused(b.state, 0, will, "kneel_character", code="cannot_pay", victim=bran)


def wrong_zone() -> IllegalAction:
    b = Board(houses=("Lannister", "Stark"), phase="marshalling", gold=2)
    will = b.discard(0, "core_162")
    bran = b.play(1, "core_013")
    return refused(b.state, 0, will, "kneel_character", code="not_in_zone", victim=bran)


def _bran() -> tuple[Board, str, list[str]]:
    b = Board(phase="plot", step="first_player")
    b.set(initiative_winner=0)
    bran = b.play(0, "core_013")
    b.revealed_plot(0, "core_181")
    b.revealed_plot(1, "core_183")
    return b, bran, [b.plot_deck(0, c) for c in ("core_184", "core_186")]


def cost_knelt() -> IllegalAction:
    b, bran, plots = _bran()
    b.set(cards=tuple(replace(c, knelt=c.id == bran) for c in b.state.cards))
    return refused(b.state, 0, bran, "replace_plot", code="cannot_pay", plot=plots[0])


def limit_reached() -> IllegalAction:
    b, bran, plots = _bran()
    stamp = f"r{b.state.round}"
    b.set(ability_uses=((bran, "replace_plot", stamp),) * 3)
    return refused(b.state, 0, bran, "replace_plot", code="limit_reached", plot=plots[0])


def applies_by_itself() -> IllegalAction:
    b = Board(phase="marshalling")
    castle = b.play(0, "core_025")
    return refused(b.state, 0, castle, "stark_strength", code="applies_by_itself")


def no_ability() -> IllegalAction:
    b = Board(phase="marshalling")
    ilyn = b.play(0, "core_041")
    return refused(b.state, 0, ilyn, "nope", code="no_ability")


#: refusal -> (the card it names, its ability or None, what the caller typed in it)
REFUSALS: dict[Callable[[], IllegalAction], tuple[str, str | None, tuple[str, ...]]] = {
    outside_window: ("core_001", "kill_participant", ()),
    condition_failed: ("core_001", "kill_participant", ()),
    wrong_target: ("core_001", None, ()),
    no_target: ("core_001", None, ()),
    unknown_choice: ("core_001", "kill_participant", ("extra",)),
    wrong_phase: ("core_041", "kill_weakling", ()),
    not_your_card: ("core_041", None, ()),
    cost_gold: ("core_162", None, ()),
    wrong_zone: ("core_162", "kneel_character", ()),
    cost_knelt: ("core_013", None, ()),
    limit_reached: ("core_013", "replace_plot", ()),
    applies_by_itself: ("core_025", "stark_strength", ()),
    no_ability: ("core_041", None, ("nope",)),
}


@pytest.mark.parametrize("refusal", list(REFUSALS), ids=lambda f: f.__name__)
def test_each_refusal_reads_chinese_and_names_the_card_in_chinese(refusal) -> None:
    card, ability, typed = REFUSALS[refusal]
    err = refusal()
    zh = render(err.message, "zh_Hans")
    assert english_words(zh, [*PLAYERS, *typed]) == [], zh
    assert _zh(card) in zh, zh
    if ability is not None:
        assert _label_zh(card, ability) in zh, zh
    assert CARDS[card]["name"] in str(err.message)  # the English names it as before


def test_the_english_of_a_refusal_is_the_sentence_of_before() -> None:
    label = next(a["label"] for a in CARDS["core_013"]["abilities"]
                 if a["id"] == "replace_plot")
    assert str(limit_reached().message) == (
        f"Bran Stark: “{label}” was already used 3 times this round")
    assert str(wrong_phase().message).endswith(
        "cannot be used now: it is used in the marshalling phase, not the challenges phase")


def test_the_check_fails_on_a_planted_untranslated_refusal() -> None:
    planted = M("{card}: planted refusal of {player}", card=Name("Ice", {"zh_Hans": "寒冰"}),
                player="Anna")
    assert english_words(render(planted, "zh_Hans"), PLAYERS) == ["planted", "refusal"]


# -- every sentence of the module is a key with its Chinese ------------------------------
def english_literals(source: str) -> list[str]:
    """The sentences of a module not said as a message: a string with a space (or an
    f-string with one) that is neither a docstring nor the key of M / Mn."""
    tree = ast.parse(source)
    keys: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and getattr(node.func, "id", None) in ("M", "Mn"):
            keys.update(id(a) for a in node.args if isinstance(a, ast.Constant))
        body = getattr(node, "body", None)
        if isinstance(body, list) and body and isinstance(body[0], ast.Expr):
            keys.add(id(body[0].value))  # a docstring
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.JoinedStr):
            text = "".join(v.value for v in node.values if isinstance(v, ast.Constant))
            if " " in text:
                out.append(text)
            keys.update(id(v) for v in node.values)
    out += [n.value for n in ast.walk(tree) if isinstance(n, ast.Constant)
            and isinstance(n.value, str) and " " in n.value and id(n) not in keys]
    return out


def test_no_sentence_of_the_ability_engine_is_an_english_string() -> None:
    assert english_literals(MODULE.read_text("utf-8")) == []
    planted = 'require(ok, "wrong_target", f"{name}: choose a card")\nreturn "it must stand"\n'
    assert english_literals(planted) == [": choose a card", "it must stand"]


def untranslated(catalog: list[tuple[str, str, list[str]]], where: str) -> list[str]:
    """The keys said at `where` whose Chinese is missing or holds an English word."""
    out = []
    for key, text, places in catalog:
        if any(p.endswith(where) for p in places):
            plain = "".join(part for part in text.replace("}", "{").split("{")[::2])
            if not text or english_words(plain, []):
                out.append(key)
    return out


def _catalog() -> list[tuple[str, str, list[str]]]:
    with CATALOG.open("rb") as f:
        po = read_po(f)
    return [(m.id if isinstance(m.id, str) else m.id[0],
             m.string if isinstance(m.string, str) else (m.string[0] or ""),
             [p for p, _ in m.locations]) for m in po if m.id]


def test_every_key_of_the_ability_engine_has_its_chinese() -> None:
    catalog = _catalog()
    where = "projections/thrones/apply/abilities.py"
    assert len([k for k, _, p in catalog if any(x.endswith(where) for x in p)]) > 50
    assert untranslated(catalog, where) == []
    planted = [*catalog, ("it must be standing", "it must stand 摆正", [where])]
    assert untranslated(planted, where) == ["it must be standing"]


#: the named card functions (docs/games/thrones-abilities.md, "Functions"): their refusals
#: reach a recorder as the ability engine's do
CARD_FUNCTIONS = sorted((MODULE.parents[1] / "abilities").glob("[a-z]*.py"))


@pytest.mark.parametrize("path", [p for p in CARD_FUNCTIONS if p.name not in (
    "schema.py", "registry.py", "__init__.py")], ids=lambda p: p.name)
def test_no_refusal_of_a_card_function_is_an_english_string(path) -> None:
    assert english_literals(path.read_text("utf-8")) == []
    assert untranslated(_catalog(), f"abilities/{path.name}") == []
