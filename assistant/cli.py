"""The `table-assistant` command: the app by default, and sub-commands for cards, decks, scanning and speech.

Each sub-command lives in `assistant/commands/<name>.py` with `add_parser(subparsers)` and `run(args) -> int`.
Heavy libraries are imported inside `run`, so `--help` and card look-ups start fast.
"""

from __future__ import annotations

import argparse
import importlib
import sys

from assistant.braille.display import connect_early_if_chosen

connect_early_if_chosen(sys.argv)  # first, before the rest is imported: keys typed on the display from now are kept

from assistant import __version__  # noqa: E402
from assistant.commands.helptext import described  # noqa: E402
from assistant.core.braille.sixkey import DEFAULT_WINDOW  # noqa: E402
from assistant.core.cards.cardfile import CardDataError  # noqa: E402
from assistant.core.words.errors import card_file_damaged, something_went_wrong  # noqa: E402
from assistant.core.words.storage import crash_not_logged  # noqa: E402

#: Sub-command modules, in the order `--help` lists them.
COMMANDS = ["card", "deck", "labels", "state", "say", "scan", "settings"]


def build_parser() -> argparse.ArgumentParser:
    """The whole command line, sub-commands included."""
    parser = argparse.ArgumentParser(
        prog="table-assistant",
        # A sub-command's option (`labels --braille`) is never read as the start of `--braille-display`.
        allow_abbrev=False,
        **described(
            description=(
                "A self-voicing companion for Unstable Unicorns and Llamas Unleashed. With no command it opens the "
                "app: type a card's name or braille abbreviation, or show its code to the camera, and record the game"
                " as it is played; every reply is shown and said. Each command's --help says what it does, with "
                "examples."
            ),
            examples=[
                ("table-assistant", "the app, full screen, on the default deck (Unstable Unicorns, second edition)"),
                ("table-assistant --deck llamas --addon llamas-farmed", "Llamas Unleashed with its expansion"),
                ("table-assistant --plain", "one command a line, for a screen reader or a braille display"),
                ("table-assistant --resume --share", "the last game again, shared with the players' phones"),
                ("table-assistant card --help", "what the card command does"),
            ],
        ),
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    parser.add_argument("--deck", default=None, help="base deck id (default: uu-2nd)")
    parser.add_argument("--addon", action="append", default=[], metavar="ID", help="add an expansion deck")
    parser.add_argument("--plain", action="store_true", help="plain line mode: commands on stdin, one line out each")
    parser.add_argument("--no-speech", action="store_true", help="do not speak (a screen reader does the talking)")
    parser.add_argument(
        "--verbosity", choices=("brief", "normal", "coaching"), help="how much game replies say (default: settings)"
    )
    parser.add_argument("--transcript", metavar="FILE", help="append everything said to FILE, with the time")
    parser.add_argument("--camera", type=int, default=0, metavar="N", help="the camera the app scans codes with (0)")
    parser.add_argument("--no-camera", action="store_true", help="do not use a camera: typed input only")
    parser.add_argument(
        "--camera-clip",
        metavar="FILE",
        help="scan a recorded video as the camera, played at its own pace and from the start again at its end",
    )
    parser.add_argument(
        "--chord-window",
        type=float,
        default=DEFAULT_WINDOW,
        metavar="SECONDS",
        help=f"six-key chord mode: keys pressed within this time make one cell ({DEFAULT_WINDOW})",
    )
    parser.add_argument(
        "--braille-display", action="store_true", help="show every reply on a braille display through BRLTTY"
    )
    parser.add_argument(
        "--braille-grade", type=int, choices=(1, 2), help="the display's braille: 1 uncontracted, 2 contracted"
    )
    parser.add_argument("--script", metavar="FILE", help="replay a game: run each line of FILE as a command")
    parser.add_argument("--resume", action="store_true", help="continue the last saved game")
    parser.add_argument(
        "--share",
        nargs="?",
        const="",
        default=None,
        metavar="ADDRESS:PORT",
        help="share the table with the players' phones (default: this computer's local-network address, a free "
        "port; 127.0.0.1:PORT for this computer alone)",
    )
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND", help="one of these; none opens the app")
    for name in COMMANDS:
        importlib.import_module(f"assistant.commands.{name}").add_parser(subparsers)
    return parser


def main(argv: list[str] | None = None) -> int:
    """Run the command line; return the exit status. Never lets a traceback reach the player."""
    from assistant.ui.terminal import harden_streams

    harden_streams()  # a stray byte in, or a character the terminal lacks out, never ends a command
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        if args.command:
            module = importlib.import_module(f"assistant.commands.{args.command}")
            status: int = module.run(args)
        else:
            from assistant.commands import app

            status = app.run(args)
        _say_deck_notices()
        return status
    except CardDataError as exc:
        print(card_file_damaged(str(exc)), file=sys.stderr)
        return 2
    except LookupError as exc:
        if not type(exc).__module__.startswith("assistant."):  # a fault of ours (IndexError, KeyError), or a
            return _crashed(exc)  # library's ("unknown encoding: mbcs"): said, logged, exit 70, never a bare 2
        print(exc.args[0] if exc.args else str(exc), file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return 0
    except Exception as exc:  # the last guard: a player never sees a traceback
        return _crashed(exc)


def _crashed(exc: Exception) -> int:
    """Keep the details in the crash log and say one sentence (where the details are, only if they were
    written); the exit status of an internal error."""
    from assistant.storage.crashlog import write_crash_log

    where = write_crash_log(exc)
    if isinstance(where, str):  # not written: said, with why
        print(crash_not_logged(exc.__class__.__name__, str(exc), where), file=sys.stderr)
    else:
        print(something_went_wrong(exc.__class__.__name__, str(exc), str(where)), file=sys.stderr)
    return 70


def _say_deck_notices() -> None:
    """What loading the decks found in the owner's files (a damaged import set aside), if nobody said it yet."""
    from assistant.storage.decks import take_notices

    for sentence in take_notices():
        print(sentence, file=sys.stderr)
