"""What each command says about itself: `--help` (what it does, its options, examples) and the man page made from
the same parsers (`man_page`; `python -m assistant.commands.manpage > docs/table-assistant.1` writes it, and a test
checks the file is it).

A sub-command's parser is made with `described(description=..., examples=[...])`: the description is the first
thing its `--help` says, and the examples follow the options, each a command line and what it does.
"""

from __future__ import annotations

import argparse
import textwrap
from typing import Any

#: An example: a whole command line, and what it does.
Example = tuple[str, str]
#: The man page's section: user commands.
SECTION = "1"


def described(description: str, examples: list[Example]) -> dict[str, Any]:
    """The keyword arguments of a command's parser: what it does (`description`, wrapped), and its examples after
    the options."""
    lines = ["examples:"]
    for command, meaning in examples:
        lines += [f"  {command}", *textwrap.wrap(meaning, 76, initial_indent="      ", subsequent_indent="      ")]
    return {
        "description": textwrap.fill(description, 79),
        "epilog": "\n".join(lines) if examples else None,
        "formatter_class": argparse.RawDescriptionHelpFormatter,
    }


def every_parser(parser: argparse.ArgumentParser) -> list[tuple[str, argparse.ArgumentParser]]:
    """The command and each of its sub-commands, deepest last, with their names as typed ("deck show")."""
    found = [(parser.prog, parser)]
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for child in dict.fromkeys(action.choices.values()):  # aliases name one parser twice
                found += every_parser(child)
    return found


def _roff(text: str) -> str:
    """Text safe in a man page: backslashes and a leading dot or quote escaped."""
    text = text.replace("\\", "\\e").replace("-", "\\-")
    return "\n".join("\\&" + line if line.startswith((".", "'")) else line for line in text.splitlines())


#: The man page's ENVIRONMENT: each variable the app reads, and what it does.
ENVIRONMENT = (
    ("TABLE_ASSISTANT_HOME", "one folder for every file the app keeps, instead of the platform's own: the "
     "settings under config/, the saved games, imported decks and crash log under data/"),
    ("TABLE_ASSISTANT_CARD_TEXTS", "a folder of deck files read instead of the shipped decks"),
    ("TABLE_ASSISTANT_SCREEN_READER", "any value but empty, 0, no or off: a screen reader is running, so speech = "
     "auto speaks through it"),
    ("TABLE_ASSISTANT_SCAN_REPEAT", "seconds between two sayings of a card lying still before the camera, for "
     "this run, over the settings' scan_repeat (0: said once, until it leaves the view and comes back; unset: the "
     "settings' scan_repeat, 0 by default)"),
    ("SPEECHD_ADDRESS", "where speech-dispatcher listens (unix_socket:PATH), as speech-dispatcher reads it"),
    ("BRLAPI_HOST, BRLAPI_AUTH", "where BRLTTY is reached for a braille display, and how, as BrlAPI reads them"),
)  # fmt: skip
#: The man page's FILES (Linux; platformdirs chooses the folders elsewhere; `table-assistant settings` prints them).
FILES = (
    ("~/.config/table-assistant/settings.toml", "the settings (voice, rate, earcons, camera, scan_repeat, braille "
     "display); a damaged one is set aside beside it"),
    ("~/.local/share/table-assistant/games/", "the saved games, one file a game, each event written as it is "
     "said; last names the last game"),
    ("~/.local/share/table-assistant/decks/", "decks imported from reference sheets and cards learnt from their "
     "codes"),
    ("~/.local/share/table-assistant/crash.log", "the details of an unexpected error"),
)  # fmt: skip
#: The man page's LISTENING: what the lines of the verb table's Listening section are (each F key of the app has one).
LISTENING = (
    "Lines typed in the app, in --plain or on a braille display's keyboard, about what is said and how; each "
    "F key of the app has one"
)
#: The man page's EXIT STATUS.
EXIT_STATUS = (
    ("0", "done"),
    ("1", "the command could not do what it was asked (no card matched, a file could not be written)"),
    ("2", "bad arguments, or a deck, card file or script that cannot be read"),
    ("70", "an unexpected error; its details are in crash.log"),
    ("130", "interrupted with Control C"),
)


def man_page(parser: argparse.ArgumentParser, version: str) -> str:
    """The man page of the command: its usage, what it does, its options and examples, then each sub-command's."""
    name = parser.prog
    summary = (parser.description or "").split(".")[0]
    out = [
        f'.TH {name.upper()} {SECTION} "" "{name} {version}" "User Commands"',  # no date: made again, the same file
        ".SH NAME",
        _roff(f"{name} - {summary[:1].lower()}{summary[1:]}"),
        ".SH SYNOPSIS",
        *_usage(parser),
        ".SH DESCRIPTION",
        _roff(" ".join((parser.description or "").split())),
        ".SH OPTIONS",
        *_options(parser),
        ".SH EXAMPLES",
        *_examples(parser),
        ".SH COMMANDS",
    ]
    for prog, each in every_parser(parser)[1:]:
        out += [f".SS {_roff(prog.removeprefix(name + ' '))}", *_usage(each)]
        if each.description:
            out += [".PP", _roff(" ".join(each.description.split()))]
        out += [*_options(each), *_examples(each)]
    out += [".SH LISTENING", _roff(LISTENING + "."), *_listening()]
    for title, items in (("ENVIRONMENT", ENVIRONMENT), ("FILES", FILES), ("EXIT STATUS", EXIT_STATUS)):
        out.append(f".SH {title}")
        for term, meaning in items:
            out += [".TP", f"\\fB{_roff(term)}\\fR", _roff(meaning[:1].upper() + meaning[1:] + ".")]
    return "\n".join(out) + "\n"


def _listening() -> list[str]:
    """The verb table's Listening rows (`assistant/core/language/verbs.py`), each a term and what it does."""
    from assistant.core.language.verbs import VERBS, Kind

    out = []
    for verb in VERBS:
        if verb.kind is Kind.LISTENING:
            for example, meaning in verb.rendered():
                plain = meaning.replace("`", "")
                out += [".TP", f"\\fB{_roff(example.replace('`', ''))}\\fR", _roff(plain[:1].upper() + plain[1:] + ".")]
    return out


def _usage(parser: argparse.ArgumentParser) -> list[str]:
    usage = " ".join(parser.format_usage().removeprefix("usage: ").split())
    return [".PP", f"\\fB{_roff(parser.prog)}\\fR{_roff(usage.removeprefix(parser.prog))}"]


def _options(parser: argparse.ArgumentParser) -> list[str]:
    out = []
    for action in parser._actions:
        if action.help in (None, argparse.SUPPRESS) or isinstance(action, argparse._SubParsersAction):
            continue
        shown = action.metavar if isinstance(action.metavar, str) else None
        if shown is None and action.choices is not None:
            shown = "{" + ",".join(str(choice) for choice in action.choices) + "}"
        flags = ", ".join(action.option_strings) or shown or action.dest
        takes = f" {shown or action.dest.upper()}" if action.option_strings and action.nargs != 0 else ""
        out += [".TP", f"\\fB{_roff(flags)}\\fR{_roff(takes)}", _roff(str(action.help))]
    return out


def _examples(parser: argparse.ArgumentParser) -> list[str]:
    return [".PP", ".nf", _roff(parser.epilog), ".fi"] if parser.epilog else []
