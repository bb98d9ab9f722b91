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
    Counted,
    MoveKind,
    NewPhone,
    Offered,
    RecordAnyway,
    Source,
    Topic,
    TurnOf,
)
from assistant.core.game.chain import Trigger, TriggerKind
from assistant.core.game.events import Save, UseEffect
from assistant.core.game.facts import TallyChanged
from assistant.core.game.history import Phone, Step
from assistant.core.game.objections import ChainOpen, GameIsOver, NotDrawn
from assistant.core.game.segment import Says, Segment, Told, UndoRedo, Verbatim
from assistant.core.words.announce import announce_said
from assistant.core.words.audience import Audience, for_hand
from assistant.core.words.errors import instant_asked, which_card
from assistant.core.words.gameplay import save_instead
from assistant.core.words.pace import lead_with, missed
from assistant.core.words.position import undone_many
from assistant.core.words.recorded import last_moves
from assistant.core.words.rulings import CONFIRM_QUESTION, confirm_segments, objection_reasons
from assistant.core.words.verbosity import Verbosity
from assistant.core.words.worded import asked_narrow, lines_of, segment_words, speech_of, words_for
from assistant.session import Session
from assistant.storage.decks import load_card_set

SESSION = Session(load_card_set())
SESSION.handle("new game Ana Ben babies red pink")
TABLE = SESSION.game.table
CARDS = TABLE.cards.by_id

HERD = (Trigger("blue", 1, TriggerKind.HERD),)
TURN = About(Topic.TURN, (1,), "Ben", source=TurnOf(3, (HERD,)), table=TABLE)  # (brief: "Ben's turn.")
ASKED = About(Topic.QUESTION, asked=NewPhone("Ben"))
USED = About(
    Topic.MOVE, (1,), "Ben", MoveKind.USE, "Yay", event=UseEffect(1, "yay"), table=TABLE, state=SESSION.game.state
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
        (TURN, Audience.OWN_PHONE, "Ben's turn: may use the Blue Herd Bonus."),  # (nothing of its own: the table's)
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
    (RecordAnyway(NotDrawn(1)), "Record? Ben has not drawn."),
]


@pytest.mark.parametrize(("asked", "words"), QUESTIONS, ids=lambda value: type(value).__name__)
def test_each_kind_of_question_is_worded_on_a_narrow_display_as_before(asked, words):
    fact = About(Topic.QUESTION, asked=asked, table=TABLE)
    assert words_for(fact, Audience.NARROW) == words
    assert words_for(fact, Audience.TABLE) == words_for(fact, Audience.BRIEF) != words


def test_every_kind_of_question_has_its_words_here():
    assert {type(asked) for asked, _ in QUESTIONS} == set(typing.get_args(Asked))


def test_a_warning_is_asked_with_its_reason_as_a_value():
    """A warning carries its first objection, typed, and its reason is worded at the edge with the game's names
    (before, `RecordAnyway.reason` kept "Cy has not drawn." as words): the short reason and the question in one
    breath for the table, the question first on a narrow display, then the reasons in full and how to answer."""
    segments = confirm_segments(TABLE, (NotDrawn(1), ChainOpen()))
    (fact,) = (fact for segment in segments for fact in segment.about)
    assert fact.asked == RecordAnyway(NotDrawn(1))
    assert [field.type for field in dataclasses.fields(RecordAnyway)] == ["Objection"]
    assert (words_for(fact, Audience.TABLE), words_for(fact, Audience.NARROW)) == (
        "Ben has not drawn. Record anyway?",
        "Record? Ben has not drawn.",
    )
    reasons = objection_reasons(TABLE, (NotDrawn(1), ChainOpen()))
    assert lines_of(segments, Audience.TABLE) == (f"Ben has not drawn. Record anyway? {reasons} {CONFIRM_QUESTION}",)
    (alone,) = lines_of(confirm_segments(TABLE, (GameIsOver(),)), Audience.TABLE)  # (no reason said twice)
    assert alone == f"The game is over. Record anyway? {CONFIRM_QUESTION}"


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


#: The types a field of a fact may have: values (enums, numbers, seats, places, the event, what is asked, what else
#: its words are made of, the facts merged into it, the game it is of and its state) and, as `str`, only the names it
#: is made of (`NAMES`): never words.
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
    "Source | None",
    "bool",
    "Table | None",
    "GameState | None",
    "str",
}
#: A fact's `str` fields: the names it is made of, as said; no sentence.
NAMES = {"player", "card", "whose", "on"}


def test_a_fact_keeps_no_audience_words_its_values_make():
    """A fact's words for another phone are its own (a move's never coach), a turn's brief words come from its
    player, a move's on its own player's phone from its event, a question's on a narrow display from what it asks:
    `About.phone`, `short`, `folded_text`, `own` and `narrow` are gone. A field added to hold another audience's words
    fails here, as does its words for the table kept beside its values (`About.text`, gone too: the table's words
    are made from the values like every audience's)."""
    types = {field.name: field.type for field in dataclasses.fields(About)}
    assert set(types.values()) <= VALUE_TYPES, types
    assert {name for name, kind in types.items() if kind == "str"} == NAMES
    for gone in ("text", "folded_text", "short", "phone", "own", "narrow"):
        assert not hasattr(About, gone), gone
    ritual = (Trigger("sadistic-ritual", 2, TriggerKind.BEGIN),)
    turn = About(Topic.TURN, (2,), "Cy", source=TurnOf(9, (ritual,)), table=TABLE)
    assert (words_for(turn, Audience.TABLE), words_for(turn, Audience.BRIEF)) == (
        "Cy's turn: must do Sadistic Ritual.",
        "Cy's turn.",
    )


#: The types a field of what else a fact's words are made of may have (`Source`): values, the game's own facts and
#: prompt, cards and a look-up's outcome; as `str`, a name, a phrase typed, a card's words as printed or scanned;
#: never a sentence (a test below words each kind).
SOURCE_TYPES = {
    "tuple[str, ...]",
    "tuple[int, ...]",
    "str",
    "bool",
    "int",
    "tuple[Link, ...]",
    "Link",
    "Prompt",
    "PromptForm",
    "tuple[Card, ...]",
    "Resolution",
    "Vocabulary",
    "tuple[tuple[str, str], ...]",
}
#: The `str` fields of a source: names and words the player typed or a card carries, never the app's sentences.
SOURCE_NAMES = {"names", "noun", "query", "name", "text", "deck_text", "kind", "players"}


def test_what_else_a_fact_is_made_of_holds_values_and_names_only():
    from assistant.core.game.facts import Fact

    kinds = [kind for kind in typing.get_args(Source) if kind is not Fact]
    assert len(kinds) >= 8 + len(typing.get_args(Offered)) - 1
    for kind in kinds:
        types = {field.name: field.type for field in dataclasses.fields(kind)}
        assert set(types.values()) <= SOURCE_TYPES, (kind, types)
        assert {name for name, t in types.items() if t in ("str", "tuple[str, ...]")} <= SOURCE_NAMES, kind


def test_no_sentence_is_passed_where_a_fact_is_made():
    """Every `About(...)` of the package is made of values: no second positional argument (the words, before) and
    no `text=`."""
    package = Path(assistant.__path__[0])
    made = []
    for path in package.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and getattr(node.func, "id", "") == "About":
                if any(keyword.arg == "text" for keyword in node.keywords) or (
                    len(node.args) > 1 and isinstance(node.args[1], (ast.Constant, ast.JoinedStr))
                ):
                    made.append(f"{path.name}:{node.lineno}")
    assert made == []


def test_what_a_question_asks_holds_values_and_names_only():
    """What is asked is typed per kind (`Asked`): names, numbers, a flag, the phrase typed, a warning's objection;
    no words (a warning's short reason is worded from its objection, `RecordAnyway`)."""
    allowed = {"str", "int", "bool", "tuple[tuple[int, str], ...]", "tuple[str, ...]", "Objection"}
    for kind in typing.get_args(Asked):
        assert {field.type for field in dataclasses.fields(kind)} <= allowed, kind


def test_a_segment_keeps_no_words_made_for_an_audience():
    """A segment holds what it says as a value (`Says`: a fact, or text that tells no fact) and what that tells; its
    words for each audience are made at the edge (`segment_words`). Before, `Segment.words` kept the table's words of
    the fact it carried beside the fact (`Segment(words_for(fact, TABLE), (fact,))`): a field added to hold words
    again, of any audience, fails here."""
    types = {field.name: field.type for field in dataclasses.fields(Segment)}
    assert "str" not in " ".join(types.values()), types
    assert types["says"] == "Says" and set(typing.get_args(Says)) == {About, Told, UndoRedo, Verbatim}
    assert [field.type for field in dataclasses.fields(Verbatim)] == ["str"]
    # (a step's line keeps the step and which line it is, never its words: `announce.told_words` makes them)
    assert "str" not in " ".join(str(field.type) for field in dataclasses.fields(Told))
    assert "str" not in " ".join(str(field.type) for field in dataclasses.fields(UndoRedo))


def test_no_facts_words_are_kept_as_text_beside_it():
    """A segment that tells a fact in that fact's own words says the fact (`Segment(fact, (fact,))`), never its
    words made once for the table and kept as text (`Verbatim(words_for(fact, ...))`): every `Verbatim(...)` of the
    package is made of no fact's words."""
    package = Path(assistant.__path__[0])
    worders = {"words_for", "duty_named", "texts", "segment_words"}
    kept = []
    for path in package.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and getattr(node.func, "id", "") == "Verbatim":
                called = {getattr(inner.func, "id", "") for inner in ast.walk(node) if isinstance(inner, ast.Call)}
                if called & worders:
                    kept.append(f"{path.name}:{node.lineno}")
    assert kept == []


def test_a_segment_is_worded_for_each_audience_as_the_fact_it_says():
    """A move said by its own player's phone in the second person, for the table in the third: the same segment,
    worded at the edge for each (before, its one table rendering was read by every front end)."""
    said = Segment(USED, (USED,))
    assert segment_words(said, Audience.TABLE) == "Ben uses the effect of Yay."
    assert segment_words(said, Audience.OWN_PHONE) == "You use the effect of Yay: tap Resolve when it is done."
    assert lines_of((said,), Audience.OWN_PHONE) == ("You use the effect of Yay: tap Resolve when it is done.",)
    assert speech_of((said,), Audience.TABLE) == "Ben uses the effect of Yay."
    for audience in Audience:
        assert segment_words(said, audience) == words_for(USED, audience).strip(), audience
        assert segment_words(Segment(Verbatim("Not recorded."), (USED,)), audience) == "Not recorded."


def test_each_question_of_the_apps_own_is_worded_from_its_values_as_its_sentence():
    from assistant.core.cards.lookup import Candidate, Resolution
    from assistant.core.game.about import (
        CardMeant,
        CardsFound,
        CardTypeAsked,
        KeepWords,
        NewCardOffered,
        NewGameAsked,
        ReplaceWords,
        ResumeOffered,
        YesNotEnough,
    )
    from assistant.core.words.cardtext import describe_resolution, search_results
    from assistant.core.words.errors import NEW_GAME_OVER_GAME
    from assistant.core.words.gameplay import resume_offer
    from assistant.core.words.learned import offer_replacing_words, yes_is_not_enough
    from assistant.core.words.scans import SAY_CARD_TYPE, offer_completing_card, offer_new_card

    aura, yay = CARDS["rainbow-aura"], CARDS["yay"]
    close = Resolution("rnbw", None, (Candidate(aura, 80.0), Candidate(CARDS["rainbow-unicorn"], 70.0)))
    offers: list[tuple[Offered, str]] = [
        (CardsFound("rainbow", (aura,)), search_results("rainbow", [aura])),
        (CardMeant(close, TABLE.cards.vocabulary), describe_resolution(close, TABLE.cards.vocabulary)),
        (KeepWords("Yay", "Draw a card."), offer_completing_card("Yay", "Draw a card.")),
        (ReplaceWords("Yay", yay.text), offer_replacing_words("Yay", yay.text)),
        (YesNotEnough("Yay"), yes_is_not_enough("Yay")),
        (CardTypeAsked(), SAY_CARD_TYPE),
        (NewCardOffered("Zap", "Magic card", "Draw."), offer_new_card("Zap", "Magic card", "Draw.")),
        (ResumeOffered(("Ana", "Ben")), resume_offer(["Ana", "Ben"])),
        (NewGameAsked(), NEW_GAME_OVER_GAME),
    ]
    assert {type(offered) for offered, _ in offers} == set(typing.get_args(Offered))
    for offered, sentence in offers:
        fact = About(Topic.QUESTION, source=offered)
        assert sentence and {words_for(fact, audience) for audience in Audience} == {sentence}, offered


def test_a_steps_line_holds_no_words_and_is_worded_for_each_audience_at_the_edge():
    """A line of a step's announcement (`announce_said`) holds the step, which line it is and the phone it was
    recorded from (`Told`), no words: worded at the edge, the laptop's line of her own key coaches, the same line of
    a move made on Ben's phone does not (`for_hand`), nor do the phones'; her own phone says it in the second person.
    Before, each line was made as text for one audience at announce time (`Verbatim`), alike for every audience."""
    state = SESSION.game.state
    step = Step(UseEffect(1, "yay"), state, state)
    typed = announce_said(TABLE, step, at=1)[0]
    phoned = announce_said(TABLE, step, at=1, phone=Phone(1))[0]
    assert isinstance(typed.says, Told) and isinstance(phoned.says, Told)
    assert phoned.says.phone == Phone(1) and typed.says.phone is None
    assert segment_words(typed, Audience.TABLE) == "Ben uses the effect of Yay: say resolve when it is done."
    assert segment_words(phoned, Audience.TABLE) == "Ben uses the effect of Yay."
    assert segment_words(phoned, Audience.PHONE_MOVE) == segment_words(typed, Audience.PHONE_MOVE)
    assert segment_words(typed, Audience.OTHER_PHONE) == "Ben uses the effect of Yay."
    assert segment_words(typed, Audience.OWN_PHONE) == "You use the effect of Yay: tap Resolve when it is done."
    assert lines_of((phoned,), Audience.TABLE) == ("Ben uses the effect of Yay.",)


def test_what_an_undo_gave_back_holds_no_words_and_is_worded_for_each_audience_at_the_edge():
    """An undo's reply says what it gave back as values (`UndoRedo`: the steps, the phone it was asked from), worded
    at the edge: the laptop's words of an undo asked from Ben's phone never coach (`for_hand`), as the phones' words
    of it (`undone_many` for `OTHER_PHONE`, which `words.recorded` gives the phones) do not; the same undo typed on
    the laptop coaches. Before, the reply kept its words, made once for the laptop, as text (`Verbatim`)."""
    state = SESSION.game.state
    steps = (Step(UseEffect(1, "yay"), state, state),)
    typed, phoned = UndoRedo(TABLE, steps, redo=True), UndoRedo(TABLE, steps, redo=True, phone=Phone(1))
    coached = "Redone: Ben uses the effect of Yay: say resolve when it is done."
    assert segment_words(Segment(typed), Audience.TABLE) == coached
    assert segment_words(Segment(phoned), Audience.TABLE) == "Redone: Ben uses the effect of Yay."
    assert (
        segment_words(Segment(typed), Audience.OTHER_PHONE)
        == undone_many(TABLE, list(steps), True, Audience.OTHER_PHONE)[0]
    )
    assert segment_words(Segment(typed), Audience.OTHER_PHONE) == "Redone: Ben uses the effect of Yay."


def test_the_laptops_words_of_a_phones_move_are_decided_in_one_place():
    """The laptop's words (`TABLE`) of a step recorded from a phone are `PHONE_MOVE`'s; every other audience keeps
    its own, and the laptop's keyboard's steps the table's (`for_hand`)."""
    assert for_hand(Audience.TABLE, Phone(0)) is Audience.PHONE_MOVE
    assert for_hand(Audience.TABLE, None) is Audience.TABLE
    assert all(for_hand(audience, Phone(0)) is audience for audience in Audience if audience is not Audience.TABLE)


def test_a_steps_announcement_makes_no_text_of_a_line_that_tells_the_step():
    """`announce_said` and the functions it makes a step's lines with build no `Verbatim`: each line that tells the
    step is a `Told` worded at the edge; only a Herd Bonus's card text is verbatim (alike for every audience).
    Before, the event line, the turn, the counts, the chain, the game's end and "Nothing was waiting to resolve."
    were `Verbatim` text made for one audience."""
    path = Path(assistant.__path__[0]) / "core" / "words" / "announce.py"
    making = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.FunctionDef):
            calls = (inner for inner in ast.walk(node) if isinstance(inner, ast.Call))
            if any(getattr(call.func, "id", "") == "Verbatim" for call in calls):
                making.add(node.name)
    assert making == {"herd_bonus_said"}, making


def test_the_phones_lines_are_led_by_their_facts_in_the_phones_words():
    """A line that says a decisive fact word for word in the phones' words is left out of the phones' lines, the fact
    said first (`lead_with` for `OTHER_PHONE`, as `words.recorded` asks): the phones' line of Ben's effect is the
    fact's words, where the laptop's coaches and so stays. Before, `lead_with` compared the table's words of a
    phones' line (the step's lines keep no words: `Told`), so the phones kept a line their fact said again."""
    state = SESSION.game.state
    step = Step(UseEffect(1, "yay"), state, state)
    move = About(Topic.MOVE, (1,), "Ben", MoveKind.USE, "Yay", event=step.event, table=TABLE, state=state)
    phones = announce_said(TABLE, step, audience=Audience.OTHER_PHONE, at=1)
    led = lead_with((move,), phones, audience=Audience.OTHER_PHONE)
    assert lines_of(led, Audience.OTHER_PHONE) == ("Ben uses the effect of Yay.",)
    laptop = lead_with((move,), announce_said(TABLE, step, at=1))
    assert lines_of(laptop, Audience.TABLE)[1:2] == ("Ben uses the effect of Yay: say resolve when it is done.",)


def test_a_steps_line_led_by_a_fact_it_says_again_keeps_its_values():
    """A step's line that says a decisive fact said first again, sentence for sentence, keeps its values and the
    facts it leaves out (`Told.leaving`): the table hears "Ben 2 Unicorns." after "Ana 1 Unicorn.", and the phones,
    whose words of the counts are others ("Ana has 1 Unicorn."), keep theirs whole. Before, the line's sentences
    left were made text for the table (`Verbatim`), the same for every audience."""
    state = SESSION.game.state
    step = Step(UseEffect(1, "yay"), state, state, (TallyChanged((0, 1), (1, 2)),))
    tally, event = announce_said(TABLE, step, Verbosity.BRIEF, at=1)
    ana = About(Topic.COUNT, (0,), "Ana", source=Counted(("Ana",), (1,), "Unicorn"), table=TABLE)
    led = lead_with((ana,), [event, tally])
    assert all(isinstance(segment.says, (About, Told)) for segment in led), led
    used = "Ben uses the effect of Yay: say resolve when it is done."
    assert lines_of(led, Audience.TABLE) == ("Ana 1 Unicorn.", used, "Ben 2 Unicorns.")
    assert lines_of(led, Audience.OTHER_PHONE)[2] == "Ana has 1 Unicorn. Ben has 2 Unicorns."


def test_the_digest_says_each_fact_as_a_value():
    """F8's digest (`missed`) says its heading and `MORE_MISSED` as text alike for everyone and each fact as it says
    it (`About`, a move merged or a duty named made as a fact: `pace._said_as`), worded at the edge; its lines are
    those values' table words. Before, it kept its sentences, made once for the table, as text."""
    digest = missed([USED], me=0)
    kinds = [type(segment.says) for segment in digest.segments]
    assert kinds == [Verbatim, About], kinds
    assert digest.lines == ("Since your last move: Ben uses the effect of Yay.",)
    assert segment_words(digest.segments[1], Audience.TABLE) == "Ben uses the effect of Yay."
