"""Nothing is said of a question that is no longer open: "Any Neigh for Ben's Neigh?" was said 4.4 s after that
Neigh resolved. The table's question (what it waits for now, `announce_said`'s last line) is typed
(`Topic.QUESTION` on its segment), and a newer move from another hand ends the reply that still has it to say: at
once when it is being said, after the sentence before it otherwise. Replies from a real session, on the queue."""

from __future__ import annotations

from dataclasses import replace

from assistant.core.game.about import Topic
from assistant.core.speech.queue import Cut, SpeechQueue
from assistant.core.speech.utterance import Utterance
from assistant.core.words.audience import Audience
from assistant.core.words.worded import segment_words
from tests.core.test_game_scenarios import start, to_action


def utterance(reply) -> Utterance:
    return Utterance.of_reply(reply)


def neighed():
    """Ana played a Basic Unicorn, Ben's Neigh recorded at the laptop (her own key), and the resolve of that Neigh
    (as a phone would send it): the Neigh's reply asks "Any Neigh for Ben's Neigh?"."""
    t = start()
    to_action(t)
    t.handle("play basic unicorn red")
    neigh = t.handle("neigh ben")
    resolved = t.handle("resolve")
    return neigh, resolved


def test_the_tables_question_is_typed():
    neigh, _ = neighed()
    asked = [s for s in neigh.segments if any(fact.topic is Topic.QUESTION for fact in s.about)]
    assert [segment_words(s, Audience.TABLE) for s in asked] == [
        "Any Neigh for Ben's Neigh? Say neigh and a name, or resolve."
    ]


def test_a_question_no_longer_open_is_not_said_after_the_move_that_closed_it():
    neigh, resolved = neighed()
    queue = SpeechQueue()
    queue.add(utterance(neigh))  # her own reply: said to its end, but for a question closed meanwhile
    queue.take()
    queue.sentence_began(0, 10.0, 1.0)
    queue.sentence_played(0)  # "Ben played Neigh." heard; the question next
    assert queue.arrive(utterance(resolved)) is Cut.NOW
    assert all("Any Neigh" not in u.text for u in queue.waiting)
    assert queue.waiting[0].text.startswith("Ben's Neigh resolves")

    queue = SpeechQueue()
    queue.add(utterance(neigh))
    queue.take()
    queue.sentence_began(0, 10.0, 1.0)  # the move being said: it ends, the question after it is not said
    assert queue.arrive(utterance(resolved)) is Cut.AFTER_SENTENCE
    assert all("Any Neigh" not in u.text for u in queue.waiting)

    queue = SpeechQueue()
    queue.add(utterance(neigh))
    queue.take()
    queue.sentence_played(0)
    assert queue.arrive(Utterance("Ben's phone joined.")) is Cut.NONE  # no move: the question is still open


def turn_asked():
    """Ana played a Basic Unicorn and Ben's Neigh is on the pile; she types `turn` (her own key), then Ben's Neigh is
    resolved from a phone: `turn`'s reply asks "Any Neigh for Ben's Neigh?" after where the game stands."""
    t = start()
    to_action(t)
    t.handle("play basic unicorn red")
    t.handle("neigh ben")
    asked = t.handle("turn")
    resolved = t.handle("resolve")
    return asked, resolved


def test_the_question_of_turn_and_pile_is_typed_on_the_line_it_ends():
    """Before, `turn` and `pile` said the table's question as plain words: no queue could know it was closed."""
    t = start()
    to_action(t)
    t.handle("play basic unicorn red")
    t.handle("neigh ben")
    for line in ("turn", "pile"):
        reply = t.handle(line)
        asked = [s for s in reply.segments if any(fact.topic is Topic.QUESTION for fact in s.about)]
        assert [segment_words(s, Audience.TABLE) for s in asked] == [
            "Any Neigh for Ben's Neigh? Say neigh and a name, or resolve."
        ]
        assert len(reply.lines) == 1 and reply.lines[0].endswith(
            segment_words(asked[0], Audience.TABLE)
        )  # one line, as before
        assert asked[0].about[0].at == len(t.game.log) and not reply.facts and not reply.tells


def _saying_turn(played: int) -> tuple[SpeechQueue, int]:
    """Her `turn` reply being said, its first `played` sentences heard: the queue, and the question's sentence."""
    asked, _ = turn_asked()
    queue = SpeechQueue()
    queue.add(utterance(asked))
    queue.take()
    for index in range(played):
        queue.sentence_began(index, 10.0 + index, 1.0)
        queue.sentence_played(index)
    question = queue.current.asks_from()
    assert question is not None and question > 1, queue.current.split()
    return queue, question


def test_with_the_table_voice_a_move_said_there_closes_the_question_her_own_reply_has_yet_to_say():
    """Two voices: Ben's resolve is said by the table voice, never queued with hers, so her queue never learnt the
    question was closed, and her `turn` reply went on to ask "Any Neigh for Ben's Neigh?" 6 to 10 s after it had
    resolved. The table voice's reply now closes it in her queue too (`closed_by`)."""
    _, resolved = turn_asked()
    queue, question = _saying_turn(0)
    assert queue.closed_by(utterance(resolved)) is Cut.NONE  # her words before the question go on
    assert not queue.sentence_began(question - 2, 11.0, 1.0)
    assert queue.sentence_began(question - 1, 12.0, 1.0)  # it ends with the sentence before the question

    queue, question = _saying_turn(question - 1)
    assert queue.closed_by(utterance(resolved)) is Cut.AFTER_SENTENCE  # the question is next

    queue, question = _saying_turn(question)
    assert queue.closed_by(utterance(resolved)) is Cut.NOW  # saying it: cut at once

    queue, _ = _saying_turn(0)
    assert queue.closed_by(Utterance("Ben's phone joined.")) is Cut.NONE and queue.closes_at is None  # no move


def test_a_reply_of_hers_still_waiting_loses_the_question_a_move_closed():
    asked, resolved = turn_asked()
    for arrives in ("closed_by", "arrive"):  # two voices; one voice
        queue = SpeechQueue()
        queue.add(Utterance("Ana's Stable: Rainbow Aura."))
        queue.take()
        queue.add(utterance(asked))
        getattr(queue, arrives)(utterance(resolved))
        waiting = [u.text for u in queue.waiting]
        assert all("Any Neigh" not in text for text in waiting), waiting
        assert any(text.startswith("Turn") for text in waiting), waiting  # the rest of her reply is kept


def test_in_one_voice_her_reply_ends_before_a_question_a_move_closed_further_on():
    """One voice: the rule closed a question only when it was being said or next."""
    _, resolved = turn_asked()
    queue, question = _saying_turn(0)
    queue.arrive(utterance(resolved))
    assert queue.sentence_began(question - 1, 12.0, 1.0)


def test_what_a_silenced_screen_reader_was_handed_is_queued_first_again_without_the_question():
    """A screen reader that queues what it is given, silenced because a question it held was closed, is handed again
    what it held of ours after that question (`SpeechWorker.reader_closed_by`): first, in order, without the table's
    question or the earcon heard with it the first time; the one being handed no longer current."""
    neigh, _ = neighed()
    queue = SpeechQueue()
    earlier = replace(utterance(neigh), sound="neigh")  # handed to the reader before, with its earcon
    being = Utterance("Cy drew a card.", other=True)
    queue.add(being)
    queue.add(Utterance("Dee drew a card.", other=True))
    assert queue.take() is being  # handed, and held while the reader says it
    queue.handed_again([earlier, being])
    assert queue.current is None
    again = queue.waiting
    assert [u.text for u in again[1:]] == ["Cy drew a card.", "Dee drew a card."]
    assert again[0].text.startswith("Ben played Neigh") and "Any Neigh" not in again[0].text and not again[0].sound
