"""A fact's words for each audience come from one entry point (`words.worded.words_for`), matched over every
`Audience`: the braille display and the phones' last moves ask it, never a field of their own choosing; the fact
carries values only (its event, what it asks), and each audience's words are made from them."""

from __future__ import annotations

import ast
import dataclasses
import typing
from pathlib import Path

import pytest

import assistant
from assistant.core.game.about import (
    About,
    Asked,
    MoveKind,
    NewPhone,
    RecordAnyway,
    Topic,
)
from assistant.core.game.events import Save, UseEffect
from assistant.core.game.segment import Segment
from assistant.core.words.audience import Audience
from assistant.core.words.errors import instant_asked, which_card
from assistant.core.words.gameplay import save_instead
from assistant.core.words.recorded import last_moves
from assistant.core.words.rulings import confirm_segments
from assistant.core.words.worded import asked_narrow, words_for
from assistant.session import Session
from assistant.storage.decks import load_card_set

SESSION = Session(load_card_set())
SESSION.handle("new game Ana Ben babies red pink")
TABLE = SESSION.game.table
CARDS = TABLE.cards.by_id

TURN = About(Topic.TURN, "Ben's turn: may use the Blue Herd Bonus.", (1,), "Ben")  # (brief: "Ben's turn.")
ASKED = About(Topic.QUESTION, "A new phone asks to record for Ben. Let it in?", asked=NewPhone("Ben"))
USED = About(Topic.MOVE, "Ben uses the effect of Yay.", (1,), "Ben", MoveKind.USE, "Yay", event=UseEffect(1, "yay"))


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
    assert words_for(fact, audience, TABLE) == words


def test_every_audience_has_words():
    for audience in Audience:
        assert words_for(TURN, audience), audience


def test_a_narrow_display_words_apart_only_the_questions_that_lead_with_who_asks():
    assert asked_narrow((TURN, ASKED)) == ("Ben: new phone. Let it in?",)


#: Each kind of question, its value made as the conversation makes it, and its words on a narrow display as
#: `About.narrow` kept them before they were made from the values (`save_offered_narrow`, `which_instant_narrow`,
#: `choose_card_for_narrow`, `new_phone_asks_narrow`, the warning's `ASK_NARROW`).
QUESTIONS: list[tuple[Asked, str]] = [
    (
        save_instead(TABLE, Save(1, "basic-unicorn-red", "black-knight-unicorn"), True),
        "Ben: save Basic Unicorn (Red)? By sacrificing Black Knight Unicorn instead. Say yes, or no to let it be "
        "destroyed.",
    ),
    (
        save_instead(TABLE, Save(0, "unicorn-phoenix", "unicorn-phoenix"), False),
        "Ana: save Unicorn Phoenix? By discarding 1 card instead. Say yes, or no to let it be sacrificed.",
    ),
    (
        instant_asked("Ben", [(1, CARDS["neigh"]), (2, CARDS["super-neigh"])]),
        "Ben: which Instant? 1 Neigh, 2 Super Neigh. Type a number to choose.",
    ),
    (
        which_card(
            "Ana",
            "rnbw",
            [CARDS["baby-unicorn-rainbow"], CARDS["rainbow-unicorn"], CARDS["rainbow-aura"]],
            {deck.info.id: deck.info.title for deck in TABLE.cards.decks},
        ),
        "Ana: which card is rnbw? 3 matches: 1 Baby Unicorn (Rainbow), 2 Rainbow Unicorn, 3 Rainbow Aura. Type a "
        "number to choose.",
    ),
    (NewPhone("Ben"), "Ben: new phone. Let it in?"),
    (RecordAnyway("Cy has not drawn."), "Record? Cy has not drawn."),
]


@pytest.mark.parametrize(("asked", "words"), QUESTIONS, ids=lambda value: type(value).__name__)
def test_each_kind_of_question_is_worded_on_a_narrow_display_as_before(asked, words):
    fact = About(Topic.QUESTION, "(its own words)", asked=asked)
    assert words_for(fact, Audience.NARROW) == words
    assert words_for(fact, Audience.TABLE) == words_for(fact, Audience.BRIEF) == "(its own words)"


def test_every_kind_of_question_has_its_words_here():
    assert {type(asked) for asked, _ in QUESTIONS} == set(typing.get_args(Asked))


def test_a_warning_is_asked_with_its_reason_as_a_value():
    (fact,) = (fact for segment in confirm_segments("Cy has not drawn. In full.", "Cy has not drawn.") for fact in
               segment.about)  # fmt: skip
    assert fact.asked == RecordAnyway("Cy has not drawn.")
    assert (fact.text, words_for(fact, Audience.NARROW)) == (
        "Cy has not drawn. Record anyway?",
        "Record? Cy has not drawn.",
    )


def test_the_phones_last_moves_take_each_phones_words_from_the_entry_point():
    lines = ("Ben uses the effect of Yay: say resolve when it is done.",)
    (said,) = last_moves((), (USED,), lines, at=3, table=TABLE)
    assert (
        said.text == "Ben uses the effect of Yay."
        and said.own == "You use the effect of Yay: tap Resolve when it is done."
    )


def test_no_front_end_reads_a_facts_audience_field_itself():
    """Before, the braille display read `About.narrow` and `About.folded_text`, the phones' last moves `About.phone`
    and `About.own`, and a catch-up of missed facts `About.folded_text`, each for itself."""
    fields = {"short", "own", "phone", "narrow", "folded_text", "without"}
    package = Path(assistant.__path__[0])
    readers = []
    words = package / "core" / "words"
    for path in [package / "ui" / "braille_display.py", words / "share.py", words / "pace.py", words / "recorded.py"]:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Attribute) and node.attr in fields and isinstance(node.ctx, ast.Load):
                readers.append(f"{path.name}:{node.lineno}: .{node.attr}")
    assert readers == []


#: The types a field of a fact may have: values (enums, numbers, seats, places, the event, what is asked, the facts
#: merged into it) and, as `str`, only the names it is made of and its own words (`NAMES`).
VALUE_TYPES = {
    "Topic",
    "MoveKind | None",
    "tuple[int, ...]",
    "int",
    "int | None",
    "tuple[About, ...]",
    "tuple[int, str] | None",
    "Event | None",
    "Asked | None",
    "str",
}
#: A fact's `str` fields: its own words (`text`, the table's) and the names it is made of, as said.
NAMES = {"text", "player", "card", "whose", "on"}


def test_a_fact_keeps_no_audience_words_its_values_make():
    """A fact's words for another phone are its own (a move's never coach), a turn's brief words come from its
    player, a move's on its own player's phone from its event, a question's on a narrow display from what it asks:
    `About.phone`, `short`, `folded_text`, `own` and `narrow` are gone. A field added to hold another audience's words
    fails here."""
    types = {field.name: field.type for field in dataclasses.fields(About)}
    assert set(types.values()) <= VALUE_TYPES, types
    assert {name for name, kind in types.items() if kind == "str"} == NAMES
    for gone in ("folded_text", "short", "phone", "own", "narrow"):
        assert not hasattr(About, gone), gone
    assert words_for(About(Topic.TURN, "Turn 9, Cy's turn: must do Sadistic Ritual.", (2,), "Cy"), Audience.BRIEF) == (
        "Cy's turn."
    )


def test_what_a_question_asks_holds_values_and_names_only():
    """What is asked is typed per kind (`Asked`): names, numbers, a flag, the phrase typed; the one piece of words
    it keeps is a warning's short reason, said alike to every audience."""
    allowed = {"str", "int", "bool", "tuple[tuple[int, str], ...]", "tuple[str, ...]"}
    for kind in typing.get_args(Asked):
        assert {field.type for field in dataclasses.fields(kind)} <= allowed, kind


def test_a_segment_keeps_one_rendering():
    """A segment holds its words and what they tell; the held-apart form of a chain's link and a private line's
    form for a screen reader are made from its values by the words (`words.worded`), never kept beside them."""
    strings = {field.name for field in dataclasses.fields(Segment) if field.type == "str"}
    assert strings == {"words"}, strings
