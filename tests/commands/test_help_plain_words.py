"""Every help text is said and shown without markup: a screen reader set to say punctuation, or a braille display,
gave the backticks of the command table ("help commands 12") as they were."""

from __future__ import annotations

import re

import pytest

from assistant.core.words.screen import SCREEN_KEYS
from assistant.session import Session
from assistant.storage.decks import load_card_set

#: What markup looks like in a help text: a backtick, emphasis stars, a table's bar.
MARKUP = re.compile(r"[`|]|\*\*|(?<!\w)\*\w")


def every_help_line(session: Session) -> list[str]:
    """The lines `help`, each topic, the command index, each of its parts and the whole table answer with."""
    asked = ["help", "help commands", "help commands all", "help nonsense"]
    topics = ("win keys turn neigh instants questions undo scanning braille settings share").split()
    asked += [f"help {topic}" for topic in topics]
    index = session.handle("help commands")
    parts = int(re.search(r"(\d+) parts", index.speech).group(1))  # type: ignore[union-attr]
    asked += [f"help commands {number}" for number in range(1, parts + 1)]
    texts: list[str] = []
    for line in asked:
        reply = session.handle(line)
        texts += [reply.speech, *reply.lines, *reply.reader_lines]
    return texts


@pytest.mark.parametrize("deck", ["uu-2nd", "llamas"])
@pytest.mark.parametrize("keys", [True, False], ids=["app", "plain"])
@pytest.mark.parametrize("game", [False, True], ids=["lobby", "game"])
def test_no_help_text_keeps_markup(deck, keys, game):
    session = Session(load_card_set(deck, ()))
    session.screen_keys = keys
    if game:
        session.handle("new game Ana Ben Cy")
    texts = every_help_line(session) + (list(SCREEN_KEYS) if keys else [])
    marked = sorted({text for text in texts if MARKUP.search(text)})
    assert marked == [], f"{len(marked)} help texts with markup, the first: {marked[:1]}"
