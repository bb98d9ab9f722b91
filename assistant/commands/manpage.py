"""`python -m assistant.commands.manpage > docs/table-assistant.1`: the man page, made from every command's --help
(`assistant.commands.helptext.man_page`). Read it with `man -l docs/table-assistant.1`."""

from __future__ import annotations

from assistant import __version__
from assistant.cli import build_parser
from assistant.commands.helptext import man_page


def main() -> None:
    """Print the man page."""
    print(man_page(build_parser(), __version__), end="")


if __name__ == "__main__":
    main()
