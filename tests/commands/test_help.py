"""Every command says what it does, with examples, in its --help; the examples are command lines the parser takes;
the man page is made from the same text."""

from __future__ import annotations

import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from assistant import __version__
from assistant.cli import COMMANDS, build_parser
from assistant.commands.helptext import every_parser, man_page

ROOT = Path(__file__).resolve().parents[2]
PARSERS = every_parser(build_parser())


def examples_of(help_text: str) -> list[str]:
    """The example command lines a --help shows."""
    after = help_text.split("\nexamples:\n", 1)[1] if "\nexamples:\n" in help_text else ""
    return [line.strip() for line in after.splitlines() if line.startswith("  table-assistant")]


def test_every_command_and_action_is_checked():
    names = [prog for prog, _ in PARSERS]
    assert names[0] == "table-assistant" and {f"table-assistant {c}" for c in COMMANDS} <= set(names)
    assert {"table-assistant deck list", "table-assistant deck import", "table-assistant deck forget"} <= set(names)


@pytest.mark.parametrize(("prog", "parser"), PARSERS, ids=[prog for prog, _ in PARSERS])
def test_each_help_says_what_the_command_does_with_an_example_of_it(prog, parser):
    shown = parser.format_help()
    assert parser.description and " ".join(parser.description.split()) in " ".join(shown.split())
    assert len(parser.description.split()) >= 8, "a sentence of what it does, not a word"
    own = [example for example in examples_of(shown) if example.startswith(prog)]
    assert own, f"{prog} --help shows no example of {prog}"
    undescribed = [a.dest for a in parser._actions if not a.help]
    assert undescribed == [], f"{prog}: options and arguments without help"


@pytest.mark.parametrize(("prog", "parser"), PARSERS, ids=[prog for prog, _ in PARSERS])
def test_each_example_is_a_command_line_the_parser_takes(prog, parser, capsys):
    for example in examples_of(parser.format_help()):
        words = shlex.split(example)[1:]
        if "--help" in words:
            with pytest.raises(SystemExit) as done:
                build_parser().parse_args(words)
            assert done.value.code == 0
        else:
            args = build_parser().parse_args(words)
            assert args.command == (words[0] if words and not words[0].startswith("-") else None), example


@pytest.mark.parametrize("command", COMMANDS)
def test_the_installed_command_prints_each_help(command):
    done = subprocess.run(
        [sys.executable, "-m", "assistant", command, "--help"], capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0 and done.stderr == ""
    assert done.stdout.startswith(f"usage: table-assistant {command}") and "examples:" in done.stdout


def test_the_man_page_is_made_from_the_help():
    written = (ROOT / "docs" / "table-assistant.1").read_text(encoding="utf-8")
    assert written == man_page(build_parser(), __version__), (
        "regenerate: python -m assistant.commands.manpage > docs/table-assistant.1"
    )


def test_the_man_page_has_each_command_and_its_examples():
    page = man_page(build_parser(), __version__)
    assert page.startswith(".TH TABLE\\-ASSISTANT 1 ") or page.startswith(".TH TABLE-ASSISTANT 1 ")
    for prog, _ in PARSERS[1:]:
        assert f".SS {prog.removeprefix('table-assistant ')}" in page
    assert "table\\-assistant card rainbow aura" in page


def test_the_man_page_says_the_environment_the_files_and_the_exit_status():
    import re

    from assistant.commands.helptext import ENVIRONMENT

    page = man_page(build_parser(), __version__)
    sections = [line.removeprefix(".SH ") for line in page.splitlines() if line.startswith(".SH ")]
    assert sections[-3:] == ["ENVIRONMENT", "FILES", "EXIT STATUS"]
    read = set()  # every variable of the app's own that the package reads
    for path in (ROOT / "assistant").rglob("*.py"):
        read |= set(re.findall(r"\bTABLE_ASSISTANT_[A-Z_]+", path.read_text(encoding="utf-8")))
    listed = {name for names, _ in ENVIRONMENT for name in names.split(", ")}
    assert read and read <= listed, read - listed
    for status in ("0", "1", "2", "70", "130"):
        assert f"\\fB{status}\\fR" in page
