"""A card name's own "!" or "?" never decides where speech splits: each folded fact and each spoken segment of a
reply is a piece of its own, so a sentence never runs from one player's merged move into another's ("Cy played
Neigh, Mate!" then "Dee played Super Neigh." are two sentences, each heard at its own seat), while inside one piece
the card names still keep a sentence whole ("Dee played Don't Kid Yourself! Neigh?")."""

from __future__ import annotations

from assistant.core.game.about import About, MoveKind, Topic
from assistant.core.game.segment import Segment, Verbatim
from assistant.core.speech.placement import Seating, sentence_places
from assistant.core.speech.queue import SpeechQueue
from assistant.core.speech.utterance import Utterance
from assistant.core.text import SentenceNames
from assistant.core.words.audience import Audience
from assistant.core.words.worded import segment_words
from tests.facts import fact

NAMES = SentenceNames.of(["Neigh, Mate!", "Don't Kid Yourself!", "Super Neigh"], ("Ana", "Ben", "Cy", "Dee"))


def move(text: str, seat: int, kind: str, card: str, at: int) -> About:
    player = ("Ana", "Ben", "Cy", "Dee")[seat]
    return fact(Topic.MOVE, text, seat, player=player, move=MoveKind(kind), card=card, at=at)


def test_a_merged_move_ending_in_a_card_names_mark_ends_its_sentence_and_the_next_hand_is_heard_at_its_seat():
    """The catch-up said after her own reply (one voice, or a burst): Cy's move ends with "Neigh, Mate!" (no second
    mark), Dee's Instant follows; each is its own sentence, Dee's heard at Dee's seat, not Cy's."""
    cy = move("Cy played Neigh, Mate!", 2, "neigh", "Neigh, Mate!", at=5)
    dee = move("Dee played Super Neigh.", 3, "neigh", "Super Neigh", at=6)
    queue = SpeechQueue()
    queue.add(Utterance("Ana's Stable: 2 Unicorns. More words.", names=NAMES))
    queue.take()
    queue.arrive(Utterance("Cy played Neigh, Mate!", tells=(cy,), names=NAMES))
    queue.arrive(Utterance("Dee played Super Neigh.", tells=(dee,), names=NAMES))
    queue.listener = 0
    queue.new_input()  # her key
    queue.done()
    queue.add(Utterance("Unicorns: Ana 2, Ben 0.", names=NAMES))
    after = next(u for u in queue.waiting if u.other)
    assert after.text == "Cy played Neigh, Mate! Dee played Super Neigh."
    assert after.split() == ["Cy played Neigh, Mate!", "Dee played Super Neigh."]
    seating = Seating(4, listener=0)
    assert sentence_places(after, seating) == (seating.place(2), seating.place(3))


def test_a_segment_ending_in_a_card_names_mark_ends_its_sentence_and_inside_a_segment_the_name_stays_whole():
    """A reply's segments: the move ("Dee played Don't Kid Yourself!") and the count after it are two sentences;
    a segment that ends no sentence ("Ben, from a phone:") still shares its sentence with the next."""
    segments = (
        Segment(Verbatim("Dee played Don't Kid Yourself!")),
        Segment(Verbatim("Ana 1 Unicorn.")),
        Segment(Verbatim("Ben, from a phone:")),
        Segment(Verbatim("drew a card.")),
        Segment(Verbatim("Dee played Don't Kid Yourself! Neigh?")),
    )
    text = " ".join(segment_words(segment, Audience.TABLE) for segment in segments)
    utterance = Utterance(text, names=NAMES, segments=segments)
    assert utterance.split() == [
        "Dee played Don't Kid Yourself!",
        "Ana 1 Unicorn.",
        "Ben, from a phone: drew a card.",
        "Dee played Don't Kid Yourself! Neigh?",
    ]
