"""The layers hold: no import cycle between any two modules of ours, hidden or not.

import-linter (`lint-imports`, contracts in pyproject.toml) keeps the layers and the games
apart; this finds cycles inside a layer, counting imports made inside functions too (grimp
reads every import statement), which is how the old events/audit.py <-> recorder.py cycle
hid. The planted cycle shows the check can fail.
"""

from __future__ import annotations

from pathlib import Path

import grimp

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("projections", "events", "api", "cli")


def _cycles(graph: grimp.ImportGraph) -> list[list[str]]:
    """Strongly connected groups of more than one module (Tarjan's algorithm)."""
    modules = sorted(graph.modules)
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(module: str) -> None:
        index[module] = low[module] = len(index)
        stack.append(module)
        on_stack.add(module)
        for other in sorted(graph.find_modules_directly_imported_by(module)):
            if other not in graph.modules:
                continue
            if other not in index:
                visit(other)
                low[module] = min(low[module], low[other])
            elif other in on_stack:
                low[module] = min(low[module], index[other])
        if low[module] == index[module]:
            group = []
            while True:
                top = stack.pop()
                on_stack.discard(top)
                group.append(top)
                if top == module:
                    break
            if len(group) > 1:
                found.append(sorted(group))

    for module in modules:
        if module not in index:
            visit(module)
    return found


def _graph() -> grimp.ImportGraph:
    # imports only for the type checker run nothing; every other import counts, a function's too
    graph = grimp.build_graph(*PACKAGES, cache_dir=None, exclude_type_checking_imports=True)
    # a package's __init__ re-exporting its own modules is not a cycle of design
    for module in list(graph.modules):
        for other in list(graph.find_modules_directly_imported_by(module)):
            if module == other.rsplit(".", 1)[0] or other == module.rsplit(".", 1)[0]:
                graph.remove_import(importer=module, imported=other)
    return graph


def test_no_module_of_ours_imports_itself_back_through_others():
    assert _cycles(_graph()) == []


def test_the_cycle_check_finds_a_planted_cycle():
    graph = _graph()
    graph.add_import(importer="events.reading", imported="events.recorder")
    assert any({"events.reading", "events.recorder"} <= set(c) for c in _cycles(graph))


def test_no_module_of_the_service_is_over_300_lines():
    """Issue #21: `events/` is split by what each module is for; a module past 300 lines is
    a sign that two purposes moved in together."""
    long = {path.name: n for path in sorted((ROOT / "events").glob("*.py"))
            if (n := len(path.read_text("utf-8").splitlines())) > 300}
    assert long == {}
