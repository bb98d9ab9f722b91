"""The default command: open the app, or the plain line mode with `--plain`."""

from __future__ import annotations

import sys

from assistant.core import words
from assistant.session import Session
from assistant.storage.decks import DEFAULT_DECK, load_card_set


def make_session(args) -> Session:
    """The session for the chosen deck and add-ons."""
    return Session(load_card_set(args.deck or DEFAULT_DECK, args.addon))


def run(args) -> int:
    """Start the Textual app; with `--plain`, or no terminal, run line by line."""
    session = make_session(args)
    if args.plain:
        from assistant.ui.plain import run_plain

        return run_plain(session)
    if not (sys.stdin.isatty() and sys.stdout.isatty()):
        print(words.NO_TERMINAL, file=sys.stderr)
        return 0
    from assistant.ui.app import TableApp

    base = session.cards.base.info
    TableApp(session, f"Table assistant. Deck: {base.title}.").run()
    return 0
