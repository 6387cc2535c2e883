"""The reliability commands stay documented where the issue asks: README and RELIABILITY.md."""

from __future__ import annotations

from .conftest import ROOT

FULL_COMMAND = 'CHRONICLE_RELIABILITY=full ./test -m "slow or not slow" tests/reliability'


def test_the_full_run_is_documented_in_the_readme_and_reliability_md():
    for name in ("README.md", "RELIABILITY.md"):
        assert FULL_COMMAND in (ROOT / name).read_text("utf-8"), name
    assert "./test -m slow" in (ROOT / ".ci" / "run").read_text("utf-8").replace(
        "./test -p no:cacheprovider -m slow", "./test -m slow")
