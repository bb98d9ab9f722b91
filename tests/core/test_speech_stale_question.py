"""Nothing is said of a question that is no longer open: "Any Neigh for Ben's Neigh?" was said 4.4 s after that
Neigh resolved. The table's question (what it waits for now, `announce_said`'s last line) is typed
(`Topic.QUESTION` on its segment), and a newer move from another hand ends the reply that still has it to say: at
once when it is being said, after the sentence before it otherwise. Replies from a real session, on the queue."""

from __future__ import annotations

from assistant.core.game.about import Topic
from assistant.core.speech.queue import Cut, SpeechQueue, Utterance
from tests.core.test_game_scenarios import start, to_action


def utterance(reply) -> Utterance:
    return Utterance(reply.speech, facts=reply.facts, tells=reply.tells, segments=reply.segments)


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
    assert [s.words for s in asked] == ["Any Neigh for Ben's Neigh? Say neigh and a name, or resolve."]


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
