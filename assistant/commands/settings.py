"""`table-assistant settings [--json]`: where the settings file is, and the settings in force.

The file is `assistant/storage/settings.py`'s; the settings as values are `assistant/core/speech/settings.py`'s.
The file is written when the player changes a setting in the app (F5, F6, F7) or edits it by hand; until then the
defaults are used, and this command says so.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import sys

from assistant.commands.helptext import described
from assistant.core.speech.settings import format_settings
from assistant.core.words.voice import settings_file_at


def add_parser(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Register the sub-command."""
    parser = subparsers.add_parser(
        "settings",
        help="where the settings file is, and the settings in force",
        **described(
            description=(
                "Print where the settings file is and the settings in force (the defaults until the file is written)."
            ),
            examples=[
                ("table-assistant settings", "the file's path and each setting"),
                ("table-assistant settings --json", "the same as JSON"),
            ],
        ),
    )
    parser.add_argument("--json", action="store_true", help="the path and the settings as JSON")


def run(args: argparse.Namespace) -> int:
    """Print the file's path and the settings in force (a damaged file is set aside and said, as at start)."""
    from assistant.storage.settings import load_settings, settings_path

    path = settings_path()
    settings, damaged = load_settings(path)
    if damaged:
        print(damaged, file=sys.stderr)
    if args.json:
        print(json.dumps({"path": str(path), "exists": path.exists(), "speech": dataclasses.asdict(settings)}))
        return 0
    print(settings_file_at(str(path), path.exists()))
    print(format_settings(settings), end="")
    return 0
