"""The README's terminal session stays true: each `$ chronicle` line runs as shown."""

from __future__ import annotations

import shlex

from ..conftest import ROOT


def _session_lines() -> list[str]:
    text = (ROOT / "README.md").read_text("utf-8")
    section = text.split("## A short session at the terminal", 1)[1].split("\n## ", 1)[0]
    return [line.strip()[2:] for line in section.splitlines()
            if line.strip().startswith("$ chronicle")]


def test_the_readme_session_runs_as_written(runner, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    game_id = None
    for line in _session_lines():
        command = line.split("  #", 1)[0]
        parts = []
        for piece in command.split(" && "):
            args = shlex.split(piece)[1:]
            if game_id:
                args = [game_id if a == "Xq3v9kLmP2s" else a for a in args]
            if args[0] == "replay":
                args += ["--at", "2"]
            parts.append(args)
        for args in parts:
            result = runner(args)
            if "Error:" in _expected_output(line):
                assert result.exit_code == 1, (args, result.output)
                assert "spend_total_too_low" in result.stderr
            else:
                assert result.exit_code == 0, (args, result.output)
            if args[0] == "new":
                game_id = result.stdout.strip()


def _expected_output(line: str) -> str:
    text = (ROOT / "README.md").read_text("utf-8")
    after = text.split(line, 1)[1].split("\n    $", 1)[0]
    return after


def test_every_cli_command_has_help_and_appears_in_the_readme():
    from cli import main

    readme = (ROOT / "README.md").read_text("utf-8")
    for name, command in main.commands.items():
        assert command.help and "Example:" in command.help, name
        assert f"chronicle {name}" in readme, f"README does not mention `chronicle {name}`"
