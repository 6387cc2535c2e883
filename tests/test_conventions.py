"""House rules that a reviewer would otherwise have to remember, each kept by a test."""

from __future__ import annotations

import ast
import inspect
import json
import re
from pathlib import Path

import pytest

import events.errors
from projections import GAMES

from .conftest import ROOT

#: the folder the rules specs were written in, when it happens to be beside this checkout
SHARED = ROOT.parent / "shared" / "games"
NOT_BESIDE = ("the folder the rules specs were written in is not beside this checkout, so "
              "docs/games/ and the packaged data were not compared with it; nothing else "
              "depends on it")
#: a citation of a document that is not in the repository (built in pieces, so that this
#: file does not cite them itself)
OUTSIDE = ("../" + "shared", "shared" + "/games", "shared" + "/seeds", "STYLE" + ".md",
           "DESIGN" + ".md")
#: what is not ours to cite from: the copies of the specs keep their own references
#: (docs/games/README.md), and the installed or generated trees are not the repository
NOT_OURS = {".git", ".venv", "vendor", "node_modules", "artifacts", ".mypy_cache",
            ".ruff_cache", ".pytest_cache", "__pycache__", ".hypothesis"}
TEXT = {".py", ".md", ".toml", ".sh", ".js", ".html", ".css", ".json", ".txt", ".cfg", ""}
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


@pytest.mark.parametrize("package", ["api", "cli"])
def test_the_shells_never_reach_past_the_facade_to_its_store(package):
    """`rec.store` would let a shell read the log around the one redaction; the facade has
    a method for each thing a shell needs (the imports are import-linter's contract)."""
    reached = []
    for path in _modules(package):
        for node in ast.walk(ast.parse(path.read_text("utf-8"))):
            if isinstance(node, ast.Attribute) and node.attr == "store":
                reached.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    assert reached == []


def _our_text_files() -> list[Path]:
    found = []
    for path in ROOT.rglob("*"):
        parts = path.relative_to(ROOT).parts
        if set(parts) & NOT_OURS or parts[:2] == ("docs", "games") or not path.is_file():
            continue
        if path.suffix in TEXT and path.stat().st_size < 2_000_000:
            found.append(path)
    return found


def test_no_file_cites_a_document_outside_the_repository():
    """A clone must stand alone: the design is docs/design.md, the specs docs/games/."""
    cited = []
    for path in _our_text_files():
        try:
            text = path.read_text("utf-8")
        except UnicodeDecodeError:
            continue
        for number, line in enumerate(text.splitlines(), 1):
            cited += [f"{path.relative_to(ROOT)}:{number}: {word}"
                      for word in OUTSIDE if word in line]
    assert cited == []


def test_every_citation_of_the_design_names_one_of_its_sections():
    """`docs/design.md, "Stores"` must lead somewhere: a renamed section breaks its citers."""
    design = (ROOT / "docs" / "design.md").read_text("utf-8")
    sections = {line[3:].strip() for line in design.splitlines() if line.startswith("## ")}
    cited = set()
    for path in _our_text_files():
        text = path.read_text("utf-8", errors="replace").replace("\n", " ")
        cited |= {(" ".join(name.split()), path.name) for name in
                  re.findall(r'docs/design\.md,?\s+\(?"([^"]+)"', text)}
    assert {(name, where) for name, where in cited if name not in sections} == set()


@pytest.mark.parametrize("slug", sorted(GAMES))
def test_the_packaged_edition_is_the_shared_spec_data(slug):
    shared = SHARED / f"{slug}.json"
    if not shared.exists():
        pytest.skip(NOT_BESIDE)
    packaged = ROOT / "projections" / "data" / f"{slug}.json"
    assert _without_abilities(json.loads(packaged.read_text("utf-8"))) == \
        _without_abilities(json.loads(shared.read_text("utf-8")))


def _without_abilities(edition: dict) -> dict:
    """The edition less what issue #30 adds beside each Thrones card and title (its
    abilities as data, docs/games/thrones-abilities.md): the rest is the spec's data."""
    for key in ("cards", "titles"):
        edition[key] = [{k: v for k, v in item.items() if k not in ("abilities", "plain")}
                        for item in edition.get(key, [])] if key in edition else None
    return edition


@pytest.mark.parametrize("slug", sorted(GAMES))
def test_the_repository_spec_is_the_shared_spec(slug):
    """docs/games/ is a copy: it must not drift from the specs the rules were built from."""
    shared = SHARED / f"{slug}.md"
    if not shared.exists():
        pytest.skip(NOT_BESIDE)
    assert (ROOT / "docs" / "games" / f"{slug}.md").read_text("utf-8") == shared.read_text("utf-8")


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
