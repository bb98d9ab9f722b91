"""Every sentence the app says or prints comes from `assistant/core/words/`: the outer modules (the command line,
the sub-commands, the app's screens), the adapters (braille, scanner, speech, storage) and the session write none.

The rule, checked on the source with `ast` (docstrings left out), is two rules:

1. Sentence-shaped text. A string literal (or the text an f-string writes around its `{}` parts) that starts with a
   capital letter, holds at least two words, and ends with `.`, `?` or `!` is a sentence, wherever it is: a
   constant, a return value, an argument. Argparse's `help=`, `description=` and `epilog=` (and a command's
   `examples=`) are left out (the help of a command stays beside its options).
2. Wording given to the player. Text holding two words in a row (letters, a space, letters: "it is empty",
   "Could not write {}") given to what shows or says it: `print(...)`, `Reply(...)`, `Reply.of(...)`,
   `notice(...)`, `say(...)`; the exceptions whose message the player reads (`PLAYER_EXCEPTIONS`); and any
   function imported from `assistant.core.words` (a clause made outside, such as a reason, is wording too).

What neither catches, on purpose: log and transcript formats, file names and paths, format specs, key names,
programmers' errors (`ValueError("unknown earcon …")`, never shown to a player), widget labels with no full stop.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import assistant

PACKAGE = Path(assistant.__path__[0])
#: The modules outside the words: the outer layer, the adapters and the session.
CHECKED = (
    "cli.py",
    "__main__.py",
    "session.py",
    "card_desk.py",
    "phone_desk.py",
    "commands/",
    "ui/",
    "braille/",
    "scanner/",
    "share/",
    "speech/",
    "storage/",
)
#: The exceptions whose message reaches the player (the command line prints LookupError and CardDataError; the
#: speech and the scanner say their errors; a Problem is a line of a CardDataError).
PLAYER_EXCEPTIONS = {
    "LookupError",
    "CardDataError",
    "BrailleMapError",
    "Problem",
    "SpeechError",
    "BackendUnavailable",
    "SourceError",
}
#: The calls that show or say their text.
SHOWN_BY = {"print", "Reply", "Reply.of", "notice", "say"}
#: Argparse keywords whose text stays where the option is (`examples=` is the command's own examples, given to
#: `assistant.commands.helptext.described`, which makes its epilog).
HELP_KEYWORDS = {"help", "description", "epilog", "examples"}

TWO_WORDS = re.compile(r"[A-Za-z]+[,;:]? [A-Za-z]+")
SENTENCE = re.compile(r"^[A-Z][^\n]*\s\S[^\n]*[.?!]$", re.DOTALL)


def own_text(node: ast.AST) -> str | None:
    """The text a literal writes itself: a string constant, or an f-string with each `{}` part as `{}`."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.JoinedStr):
        return "".join(v.value if isinstance(v, ast.Constant) else "{}" for v in node.values)
    return None


def callee(node: ast.Call) -> str:
    """The name a call is made by: `print`, `Reply.of`, `notice` (for `session.notice`), `LookupError`."""
    name = ast.unparse(node.func)
    return name if name in SHOWN_BY else name.rsplit(".", 1)[-1]


def words_names(tree: ast.Module) -> set[str]:
    """The names a module imports from `assistant.core.words`."""
    return {
        alias.asname or alias.name
        for node in ast.walk(tree)
        if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("assistant.core.words")
        for alias in node.names
    }


def offences(source: str, relative: str) -> list[str]:
    """Each sentence written outside the words in one module, as `file:line: text (why)`."""
    tree = ast.parse(source)
    words = words_names(tree)
    left_out: set[int] = set()  # docstrings, the parts of f-strings, argparse help
    given: dict[int, str] = {}  # literal → the call that shows it
    for node in ast.walk(tree):
        if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant):  # docstrings, of attributes too
            left_out.add(id(node.value))
        if isinstance(node, ast.JoinedStr):
            left_out.update(id(v) for v in node.values)
        if isinstance(node, ast.Call):
            for keyword in node.keywords:
                if keyword.arg in HELP_KEYWORDS:
                    left_out.update(id(n) for n in ast.walk(keyword.value))
            name = callee(node)
            if name in SHOWN_BY or name in PLAYER_EXCEPTIONS or name in words:
                for argument in [*node.args, *(k.value for k in node.keywords if k.arg not in HELP_KEYWORDS)]:
                    for part in ast.walk(argument):
                        given.setdefault(id(part), name)
    found = []
    for node in ast.walk(tree):
        text = own_text(node)
        if text is None or id(node) in left_out:
            continue
        where = f"assistant/{relative}:{node.lineno}: {text!r}"
        if SENTENCE.match(text.strip()):
            found.append(f"{where} (a sentence)")
        elif id(node) in given and TWO_WORDS.search(text):
            found.append(f"{where} (given to {given[id(node)]})")
    return sorted(found, key=lambda line: int(line.split(":")[1]))


def checked_modules() -> list[Path]:
    return sorted(
        path
        for path in PACKAGE.rglob("*.py")
        if any(path.relative_to(PACKAGE).as_posix().startswith(prefix) for prefix in CHECKED)
    )


def test_no_module_outside_the_words_writes_a_sentence():
    found = []
    for path in checked_modules():
        found += offences(path.read_text(encoding="utf-8"), path.relative_to(PACKAGE).as_posix())
    assert found == []


def test_the_rule_reaches_every_part_outside_the_core():
    parts = {path.relative_to(PACKAGE).parts[0] for path in checked_modules()}
    assert parts == {
        "cli.py",
        "__main__.py",
        "session.py",
        "card_desk.py",
        "phone_desk.py",
        "commands",
        "ui",
        "braille",
        "scanner",
        "share",
        "speech",
        "storage",
    }


def test_the_checker_catches_each_kind_of_offence_and_nothing_else():
    """Planted offences, one per kind, among text the rule leaves alone: each is found, with its line."""
    planted = '''"""A module docstring. It is left alone."""
import argparse, logging, sys
from assistant.core.words.voice import engine_unavailable
from assistant.session import Reply

GREETING = "Welcome to the table."
log = logging.getLogger(__name__)


def run(args, session, path, exc):
    """A function docstring. Left alone."""
    parser = argparse.ArgumentParser(description="Look up a card. With no name it lists them.")
    parser.add_argument("--deck", help="the base deck id (default: uu-2nd)")
    log.info("wrote %s in %.1f ms", path, 3.0)
    print(f"{path.name}: {exc}")
    print(f"{args.count:>4} {args.name}")
    name = f"utterance-{args.count % 8}.wav"
    if not args.deck:
        print("Say which deck to use")
        raise LookupError(f"no deck called {args.deck}")
    session.notice(f"Camera {args.camera} is back")
    reply = Reply.of("Nothing to show", "")
    raise_it = ValueError(f"unknown earcon {args.name}")
    engine_unavailable("espeak-ng", "it is not installed")
    return f"Wrote {args.count} labels to {path}."
'''
    assert offences(planted, "commands/planted.py") == [
        "assistant/commands/planted.py:6: 'Welcome to the table.' (a sentence)",
        "assistant/commands/planted.py:19: 'Say which deck to use' (given to print)",
        "assistant/commands/planted.py:20: 'no deck called {}' (given to LookupError)",
        "assistant/commands/planted.py:21: 'Camera {} is back' (given to notice)",
        "assistant/commands/planted.py:22: 'Nothing to show' (given to Reply.of)",
        "assistant/commands/planted.py:24: 'it is not installed' (given to engine_unavailable)",
        "assistant/commands/planted.py:25: 'Wrote {} labels to {}.' (a sentence)",
    ]
