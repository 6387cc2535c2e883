"""No dead code: every function, method, class, property and import of chronicle is used by
something (the code, a test or the benchmarks), or a framework calls it.

vulture finds what nothing names. Routes, commands, schema validators and migrations are
called by Flask, click, marshmallow and the migration runner through their decorators;
the few hooks a framework calls by name are in `dead_code_whitelist.py`. Variables and
attributes are left out: schema fields and edition dataclass fields are declarations a
framework reads, and vulture cannot tell them from dead ones.
"""

from __future__ import annotations

from pathlib import Path

import vulture

from .conftest import ROOT

WHITELIST = ROOT / "tests" / "dead_code_whitelist.py"
CODE = ["projections", "events", "api", "cli"]
USERS = ["tests", "bench"]
#: decorators through which a framework calls a function that no code names
FRAMEWORK_DECORATORS = ["@*.route", "@*.get", "@*.post", "@*.command", "@*.group",
                        "@*.after_request", "@*.errorhandler", "@migrations",
                        "@validates_schema", "@validates", "@pre_load", "@post_load",
                        "@post_dump", "@pre_dump",
                        # Thrones card abilities' named functions, found by card id (issue #30)
                        "@ability", "@options", "@chance", "@lasting"]
CHECKED = {"function", "method", "class", "property", "import", "unreachable_code"}


def dead_code(extra: tuple[Path, ...] = ()) -> list[str]:
    """What nothing names in the code (and in `extra`), each as `path:line: message`."""
    finder = vulture.Vulture(ignore_decorators=FRAMEWORK_DECORATORS)
    finder.scavenge([str(ROOT / p) for p in CODE + USERS] + [str(WHITELIST)]
                    + [str(p) for p in extra])
    found = []
    for item in finder.get_unused_code():
        path = Path(item.filename)
        where = path.relative_to(ROOT) if path.is_relative_to(ROOT) else path.name
        if item.typ in CHECKED and (path in extra or str(where).split("/")[0] in CODE):
            found.append(f"{where}:{item.first_lineno}: {item.message}")
    return sorted(found)


def test_nothing_in_the_code_is_dead():
    assert dead_code() == []


def test_the_check_finds_a_planted_dead_function(tmp_path):
    """The planted fault: a module whose function nothing calls is reported."""
    planted = tmp_path / "planted.py"
    planted.write_text('def never_called() -> None:\n    """Nothing names me."""\n')
    assert dead_code((planted,)) == ["planted.py:1: unused function 'never_called'"]
