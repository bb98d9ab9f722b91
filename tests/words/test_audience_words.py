"""A fact's words for each audience come from one entry point (`words.audience.words_for`), matched over every
`Audience`: the braille display and the phones' last moves ask it, never a field of their own choosing."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import assistant
from assistant.core.game.about import About, MoveKind, Topic
from assistant.core.words.audience import Audience, asked_narrow, words_for
from assistant.core.words.share import last_moves

TURN = About(Topic.TURN, "Ben's turn: may use the Blue Herd Bonus.", (1,), "Ben")  # (brief: "Ben's turn.")
ASKED = About(Topic.QUESTION, "A new phone asks to record for Ben. Let it in?", narrow="Ben: new phone. Let it in?")
USED = About(
    Topic.MOVE,
    "Ben uses the effect of Yay.",
    (1,),
    "Ben",
    MoveKind.USE,
    "Yay",
    own="You use the effect of Yay: tap Resolve when it is done.",
)


@pytest.mark.parametrize(
    ("fact", "audience", "words"),
    [
        (TURN, Audience.TABLE, "Ben's turn: may use the Blue Herd Bonus."),
        (TURN, Audience.BRIEF, "Ben's turn."),
        (TURN, Audience.NARROW, "Ben's turn."),  # (no question: its short form)
        (ASKED, Audience.NARROW, "Ben: new phone. Let it in?"),
        (ASKED, Audience.BRIEF, "A new phone asks to record for Ben. Let it in?"),
        (USED, Audience.OTHER_PHONE, "Ben uses the effect of Yay."),
        (USED, Audience.OWN_PHONE, "You use the effect of Yay: tap Resolve when it is done."),
        (TURN, Audience.OWN_PHONE, TURN.text),  # (nothing of its own there: the table's)
    ],
)
def test_a_fact_is_worded_for_each_audience(fact, audience, words):
    assert words_for(fact, audience) == words


def test_every_audience_has_words():
    for audience in Audience:
        assert words_for(TURN, audience), audience


def test_a_narrow_display_words_apart_only_the_questions_that_lead_with_who_asks():
    assert asked_narrow((TURN, ASKED)) == ("Ben: new phone. Let it in?",)


def test_the_phones_last_moves_take_each_phones_words_from_the_entry_point():
    (said,) = last_moves((), (USED,), ("Ben uses the effect of Yay: say resolve when it is done.",), at=3)
    assert (
        said.text == "Ben uses the effect of Yay."
        and said.own == "You use the effect of Yay: tap Resolve when it is done."
    )


def test_no_front_end_reads_a_facts_audience_field_itself():
    """Before, the braille display read `About.narrow` and `About.folded_text`, the phones' last moves `About.phone`
    and `About.own`, and a catch-up of missed facts `About.folded_text`, each for itself."""
    fields = {"short", "own", "phone", "narrow", "folded_text"}
    package = Path(assistant.__path__[0])
    readers = []
    words = package / "core" / "words"
    for path in [package / "ui" / "braille_display.py", words / "share.py", words / "pace.py"]:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Attribute) and node.attr in fields and isinstance(node.ctx, ast.Load):
                readers.append(f"{path.name}:{node.lineno}: .{node.attr}")
    assert readers == []


def test_a_fact_keeps_no_audience_words_its_values_make():
    """A fact's words for another phone are its own (a move's never coach), and a turn's brief words come from its
    player: `About.phone`, `About.short` and `About.folded_text` are gone. Left: its own words, the names it is made
    of, and the two forms its values cannot make (`own`, made from the event; `narrow`, from what is asked)."""
    import dataclasses

    words = {field.name for field in dataclasses.fields(About) if field.type == "str"}
    assert words == {"text", "player", "card", "whose", "on", "own", "narrow"}, words
    assert not hasattr(About, "folded_text")
    assert words_for(About(Topic.TURN, "Turn 9, Cy's turn: must do Sadistic Ritual.", (2,), "Cy"), Audience.BRIEF) == (
        "Cy's turn."
    )
