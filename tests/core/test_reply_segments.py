"""A reply is a sequence of typed segments: its screen lines and its speech are views of them, and a note is added
as a segment of its own, never appended to both by hand."""

from __future__ import annotations

import dataclasses

import pytest

from assistant.core.game.about import About, NewGameAsked, Topic
from assistant.core.game.segment import ChainLink, Channel, Part, Segment, Verbatim, of_lines
from assistant.core.language.reply import Question, Reply, Source
from assistant.core.words.audience import Audience
from assistant.core.words.errors import NEW_GAME_OVER_GAME
from assistant.core.words.worded import apart_words, held_apart, segment_words, words_for
from tests.core.talking import table
from tests.facts import fact

TURN = fact(Topic.TURN, "Ben's turn.", 1, player="Ben")


def test_lines_and_speech_are_views_of_the_segments():
    reply = Reply(
        segments=(
            Segment(Verbatim("Undone: Ben's card is back."), channel=Channel.SCREEN),
            Segment(TURN, (TURN,), TURN.states, Part.FACT),
            Segment(Verbatim("Undone: Ben's card is back."), channel=Channel.SPEECH),
            Segment(Verbatim("To hear it here, import the sheet."), part=Part.COACHING, joined=True),
        )
    )
    assert reply.lines == ("Undone: Ben's card is back.", "Ben's turn. To hear it here, import the sheet.")
    assert reply.speech == "Ben's turn. Undone: Ben's card is back. To hear it here, import the sheet."
    with pytest.raises(TypeError):  # nothing sets them apart from the segments
        dataclasses.replace(reply, lines=("Ben's turn.",))  # type: ignore[call-arg]


def test_a_reply_made_of_lines_and_a_speech_keeps_both():
    assert Reply(segments=of_lines(("a.", "b."), "a. b.")).segments == (
        Segment(Verbatim("a.")),
        Segment(Verbatim("b.")),
    )
    other = Reply(segments=of_lines(("a.", "b."), "b."))
    assert (other.lines, other.speech) == (("a.", "b."), "b.")
    assert Reply.of("a.", "b.") == Reply(segments=of_lines(("a.", "b."), "a. b."))
    with pytest.raises(TypeError):  # no words beside the segments: a reply is built from segments only
        Reply(("a.",), "a.")  # type: ignore[call-arg]
    assert Reply.error("No.").speech == "No." and Reply.error("No.").important


def test_notes_are_segments_before_after_and_after_the_outcome():
    reply = Reply.of("Outcome.", "More.")
    assert reply.before("Not recorded.").lines == ("Not recorded.", "Outcome.", "More.")
    assert reply.after("From Ben's phone.").speech == "Outcome. More. From Ben's phone."
    assert reply.after_first("Note.").lines == ("Outcome.", "Note.", "More.")
    led = reply.led_by("Ben, from a phone:")
    assert led.lines == ("Ben, from a phone: Outcome.", "More.") and led.speech == "Ben, from a phone: Outcome. More."
    asked = Reply.asking(NewGameAsked(), Question(lambda: Reply.of("")))
    both = Reply.of("Ben's phone waits.").then(asked)
    assert both.lines == ("Ben's phone waits.", NEW_GAME_OVER_GAME) and both.pending is asked.pending
    assert both.facts == asked.facts == (About(Topic.QUESTION, source=NewGameAsked()),)


def test_a_display_holding_the_facts_leaves_out_their_segments_restatements_and_coaching():
    count = fact(Topic.COUNT, "Ben 2 Unicorns.", 1, player="Ben")
    segments = (
        Segment(count, (count,), count.states, Part.FACT),
        Segment(Verbatim("Ben has 2 Unicorns."), states=count.states),  # restates the count
        Segment(Verbatim("Goat Herd Bonus: see your card.")),
        Segment(Verbatim("To hear it here, import the sheet."), part=Part.COACHING, joined=True),
    )
    assert held_apart(segments, (count,)) == ("Goat Herd Bonus: see your card.",)
    assert held_apart(segments, ()) == ("Ben 2 Unicorns.", "Ben has 2 Unicorns.", "Goat Herd Bonus: see your card.")


def test_the_help_reply_and_a_warning_are_known_by_their_segments():
    s = table()
    assert s.handle("help commands all").help
    assert not s.handle("help").help
    s.handle("draw")  # Ana's action
    warned = s.handle("draw")  # one more: "Ana already played or drew. Record anyway?"
    assert warned.pending is not None and [segment.part for segment in warned.segments][0] is Part.FACT
    assert warned.segments[0].about == warned.facts and warned.facts[0].topic is Topic.WARNING
    assert warned.speech.startswith(words_for(warned.facts[0], Audience.TABLE))


def test_speech_knows_where_a_fact_and_a_move_are_said_by_their_segments_whatever_the_words():
    """A fact ends with the segment that tells it, and another hand's move is the sentence of its segment: known
    without its words in the text ("Zug 2: Ben ist dran." tells "Ben's turn.")."""
    from assistant.core.game.about import MoveKind
    from assistant.core.speech.utterance import Utterance

    move = fact(
        Topic.MOVE,
        "Cy destroyed Basic Unicorn (Red).",
        2,
        player="Cy",
        move=MoveKind.DESTROY,
        card="Basic Unicorn (Red)",
    )
    reply = Reply().after(
        Segment(Verbatim("Nicht aufgenommen.")),
        Segment(Verbatim("Zug 2: Ben ist dran."), (TURN,), TURN.states),
        Segment(Verbatim("Cy zerstörte Einhorn. Es liegt auf dem Ablagestapel."), (move,)),
    )
    said = Utterance.of_reply(reply, Source.OTHER_HAND)
    assert [said.unheard(heard) for heard in range(5)] == [[move, TURN], [move, TURN], [move], [], []]
    assert said.needed() == 3  # the notice, the turn, the move: what follows only explains


def test_a_replys_facts_and_tells_are_read_from_its_segments_and_kept_nowhere_else():
    """`Reply.facts` and `Reply.tells` are views of the segments, as `lines` and `speech` are: a reply is built from
    segments alone, so what it holds and what it says cannot part (replies joined keep the facts of both)."""
    from assistant.core.game.about import MoveKind

    move = fact(
        Topic.MOVE,
        "Cy destroyed Basic Unicorn (Red).",
        2,
        player="Cy",
        move=MoveKind.DESTROY,
        card="Basic Unicorn (Red)",
    )
    count = fact(Topic.COUNT, "Ben 1 Unicorn.", 1, player="Ben")
    asked = fact(Topic.QUESTION, "Neigh?")
    notice = Reply(segments=(Segment(Verbatim("Turn 2: Ben's turn."), (TURN,), TURN.states),))
    reply = notice.then(
        Reply(segments=(Segment(Verbatim("Cy destroyed it."), (move,)), Segment(Verbatim("Neigh?"), (asked,)))).telling(
            (count,)
        )
    )
    assert {field.name for field in dataclasses.fields(Reply)}.isdisjoint({"facts", "tells"})
    assert reply.facts == (TURN,)  # the table's prompt is told, not held: a question is a fact only as `Part.FACT`
    assert reply.tells == (move, count)
    assert reply.telling((move, count)) is reply  # told already: nothing added
    held = Reply.asking(NewGameAsked(), Question(lambda: notice))
    assert [fact.topic for fact in held.facts] == [Topic.QUESTION]


def _rot(text: str, by: int) -> str:
    """`text` with each letter moved `by` places in the alphabet: another language's words, as far as code can tell."""
    moved = []
    for ch in text:
        for first in ("a", "A"):
            if first <= ch <= chr(ord(first) + 25):
                ch = chr(ord(first) + (ord(ch) - ord(first) + by) % 26)
                break
        moved.append(ch)
    return "".join(moved)


def _fact_in_other_words(fact: About) -> About:
    """A fact worded in one cipher (ROT7), every word of it (its parts too); its typed values as they were."""
    changes: dict[str, object] = {}
    for field in dataclasses.fields(fact):
        value = getattr(fact, field.name)
        if isinstance(value, str):
            changes[field.name] = _rot(value, 7)
        elif isinstance(value, tuple) and value and all(isinstance(part, About) for part in value):
            changes[field.name] = tuple(_fact_in_other_words(part) for part in value)
    return dataclasses.replace(fact, **changes)  # type: ignore[arg-type]


def _segment_in_other_words(segment: Segment) -> Segment:
    """A segment worded in another cipher (ROT13) than its facts', which are worded as `_fact_in_other_words`."""
    return dataclasses.replace(
        segment,
        says=Verbatim(_rot(segment_words(segment, Audience.TABLE), 13)),  # (a fact it says too: in ROT13)
        link=None
        if segment.link is None
        else ChainLink(segment.link.position, tuple(_rot(n, 13) for n in segment.link.names)),
        about=tuple(_fact_in_other_words(fact) for fact in segment.about),
        repeats=tuple(_fact_in_other_words(fact) for fact in segment.repeats),
        tells=tuple(_fact_in_other_words(fact) for fact in segment.tells),
    )


def test_a_held_facts_segment_is_found_by_its_typed_facts_whatever_the_words_of_facts_and_segments():
    """The probe of other words, with different words for facts and for segments (two ciphers): a display holding
    the facts apart leaves out the same segments, restatements and repeated words as with the original words, in
    two whole games. A segment found by its words (`segment.words == fact.text`, or a fact's words looked for in a
    segment's) finds none here, and this fails."""
    from pathlib import Path

    from assistant.commands.app import table_session
    from assistant.storage.decks import load_card_set

    fixtures = Path(__file__).resolve().parents[1] / "fixtures"
    left_out = repeated = 0
    for game in ("llamas_game.txt", "unicorns_four_game.txt"):
        session = table_session(load_card_set("uu-2nd"), load_cards=load_card_set)
        for line in (fixtures / game).read_text(encoding="utf-8").splitlines():
            if not line.strip() or line.startswith("#"):
                continue
            reply = session.handle(line)
            apart = held_apart(reply.segments, reply.facts)
            other = Reply(segments=tuple(_segment_in_other_words(segment) for segment in reply.segments))
            assert other.facts == tuple(_fact_in_other_words(fact) for fact in reply.facts)
            # (a link of the chain held apart is named by the words' own sentence around its names, in other words)
            named = {
                _rot(apart_words(s), 13): apart_words(_segment_in_other_words(s)) for s in reply.segments if s.link
            }
            expected = tuple(named.get(_rot(text, 13), _rot(text, 13)) for text in apart)
            assert held_apart(other.segments, other.facts) == expected, line
            left_out += len(apart) < len(reply.lines)
            repeated += any(segment.repeats for segment in reply.segments if segment.channel.shown)
    assert left_out > 20 and repeated  # (the probe meets facts held apart, and words said again inside longer ones)


def test_a_reply_keeps_no_words_for_an_audience_beside_its_segments():
    """A reply's words are its segments; what the phones show of it they word themselves from its values
    (`Reply.recorded`, `words.recorded`). Before, `Reply.phone` and `Reply.from_phone` kept the phones' lines beside
    the segments. The only text fields left name no words of the reply: its earcon and a control's argument."""
    texts = {field.name for field in dataclasses.fields(Reply) if "str" in str(field.type)}
    assert texts == {"sound", "argument"}, texts
