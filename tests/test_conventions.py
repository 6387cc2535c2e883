"""House rules that a reviewer would otherwise have to remember (STYLE.md 2.8)."""

from __future__ import annotations

import ast
import inspect
import json
from pathlib import Path

import pytest

import events.errors
from projections import GAMES

from .conftest import ROOT

SHARED = ROOT.parent / "shared" / "games"
FORBIDDEN = {"random", "time", "datetime", "os", "sqlite_utils", "flask", "click", "events",
             "api", "cli", "secrets", "threading"}


def _modules(package: str) -> list[Path]:
    return sorted((ROOT / package).rglob("*.py"))


@pytest.mark.parametrize("path", _modules("projections"), ids=lambda p: p.name)
def test_projections_import_nothing_impure(path):
    tree = ast.parse(path.read_text("utf-8"))
    for node in ast.walk(tree):
        names = []
        if isinstance(node, ast.Import):
            names = [a.name.split(".")[0] for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names = [node.module.split(".")[0]]
        assert not set(names) & FORBIDDEN, f"{path.name} imports {set(names) & FORBIDDEN}"


@pytest.mark.parametrize("package", ["api", "cli"])
def test_the_shells_never_import_each_other(package):
    other = {"api": "cli", "cli": "api"}[package]
    for path in _modules(package):
        tree = ast.parse(path.read_text("utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                assert node.module.split(".")[0] != other, f"{path} imports {other}"
            if isinstance(node, ast.Import):
                assert all(a.name.split(".")[0] != other for a in node.names), path


@pytest.mark.parametrize("slug", sorted(GAMES))
def test_the_packaged_edition_is_the_shared_spec_data(slug):
    shared = SHARED / f"{slug}.json"
    if not shared.exists():
        pytest.skip("shared/ is not beside this checkout")
    packaged = ROOT / "projections" / "data" / f"{slug}.json"
    assert json.loads(packaged.read_text("utf-8")) == json.loads(shared.read_text("utf-8"))


@pytest.mark.parametrize("slug", sorted(GAMES))
def test_the_default_edition_passes_its_own_schema(slug):
    from projections import default_edition, edition_problems

    assert edition_problems(slug, default_edition(slug)) == []


@pytest.mark.parametrize("slug", sorted(GAMES))
def test_every_game_declares_its_identity_and_schemas(slug):
    cls = GAMES[slug]
    assert cls.slug == slug and cls.title and cls.player_counts and cls.rules_version
    assert cls.action_schemas, "every action needs a data schema"
    assert set(cls.chance_fields) <= set(cls.action_schemas)
    assert cls.__module__.startswith(f"projections.{slug}") or slug in cls.__module__


def test_every_error_class_has_a_docstring():
    for _, cls in inspect.getmembers(events.errors, inspect.isclass):
        if issubclass(cls, Exception):
            assert cls.__doc__, cls.__name__
