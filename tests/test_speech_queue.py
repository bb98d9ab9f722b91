"""The speech queue's rules (assistant/core/speechqueue.py), as plain data: no threads, no audio."""

from hypothesis import given
from hypothesis import strategies as st

from assistant.core.speechqueue import Priority, SpeechQueue, Utterance, scale, split_sentences

IMPORTANT, MESSAGE, ECHO, HINT = Priority.IMPORTANT, Priority.MESSAGE, Priority.ECHO, Priority.HINT


def queue_with(*items, speaking: str | None = None) -> SpeechQueue:
    queue = SpeechQueue()
    if speaking is not None:
        queue.add(Utterance(speaking))
        queue.take()
    for text, priority in items:
        queue.add(Utterance(text, priority))
    return queue


def texts(queue: SpeechQueue) -> list[str]:
    return [u.text for u in queue.waiting]


def test_messages_are_said_in_order():
    queue = queue_with(("one", MESSAGE), ("two", MESSAGE), ("three", MESSAGE))
    said = []
    while (utterance := queue.take()) is not None:
        said.append(utterance.text)
        queue.done()
    assert said == ["one", "two", "three"]
    assert not queue.busy


def test_important_goes_ahead_of_waiting_messages_but_after_earlier_important_ones():
    queue = queue_with(("m1", MESSAGE), ("i1", IMPORTANT), ("m2", MESSAGE), ("i2", IMPORTANT))
    assert texts(queue) == ["i1", "i2", "m1", "m2"]


def test_echo_latest_wins():
    queue = queue_with(("a", ECHO), ("m", MESSAGE), ("b", ECHO), ("c", ECHO), speaking="card")
    assert texts(queue) == ["m", "c"]


def test_hint_dropped_when_busy_and_kept_when_idle():
    idle = SpeechQueue()
    assert idle.add(Utterance("code seen", HINT))
    busy = queue_with(speaking="a card")
    assert not busy.add(Utterance("code seen", HINT))
    waiting = queue_with(("message", MESSAGE))
    assert not waiting.add(Utterance("code seen", HINT))
    assert texts(waiting) == ["message"]


def test_interrupt_drops_the_queue_but_keeps_important_and_cuts_the_current_message():
    queue = queue_with(("m1", MESSAGE), ("error", IMPORTANT), ("e", ECHO), speaking="old card")
    cut = queue.interrupt(Utterance("next card"))
    assert cut
    assert texts(queue) == ["error", "next card"]


def test_interrupt_does_not_cut_an_important_utterance():
    queue = SpeechQueue()
    queue.add(Utterance("your turn", IMPORTANT))
    queue.take()
    assert queue.interrupt(Utterance("next card")) is False
    assert texts(queue) == ["next card"]


def test_an_interrupting_hint_is_said():
    queue = queue_with(speaking="old")
    queue.interrupt(Utterance("code seen", HINT))
    assert texts(queue) == ["code seen"]


def test_stop_drops_everything_even_important():
    queue = queue_with(("error", IMPORTANT), ("m", MESSAGE), speaking="card")
    assert queue.stop()
    assert texts(queue) == []
    assert not queue_with().stop()  # nothing being said: nothing to cut


def test_history_holds_what_was_said_not_echoes_and_not_repeats():
    queue = queue_with(("one", MESSAGE), ("f", ECHO), ("two", MESSAGE))
    while queue.take() is not None:
        queue.done()
    assert [u.text for u in queue.history] == ["one", "two"]
    again = queue.repeat()
    assert again.text == "two" and again.review
    queue.add(again)
    queue.take()
    assert [u.text for u in queue.history] == ["one", "two"]


def test_stepping_back_and_forward_through_the_history():
    queue = SpeechQueue()
    for text in ("one", "two", "three"):
        queue.add(Utterance(text))
        queue.take()
        queue.done()
    assert queue.forward() is None  # already at the newest
    assert queue.back().text == "two"
    assert queue.back().text == "one"
    assert queue.back() is None  # the oldest
    assert queue.forward().text == "two"
    assert queue.forward().text == "three"
    assert queue.forward() is None
    assert queue.repeat().text == "three"


def test_nothing_said_yet_gives_nothing_to_repeat_or_review():
    queue = SpeechQueue()
    assert queue.repeat() is None and queue.back() is None and queue.forward() is None


def test_muted_queues_nothing_but_remembers():
    queue = queue_with(("waiting", MESSAGE))
    queue.set_muted(True)
    assert texts(queue) == []
    assert not queue.add(Utterance("error", IMPORTANT))
    assert [u.text for u in queue.history] == ["error"]
    queue.set_muted(False)
    assert queue.add(Utterance("back again"))


def test_history_is_bounded_and_keeps_the_private_flag():
    queue = SpeechQueue(history_limit=3)
    for n in range(5):
        queue.add(Utterance(f"card {n}", private=n == 4))
        queue.take()
        queue.done()
    assert [u.text for u in queue.history] == ["card 2", "card 3", "card 4"]
    assert queue.repeat().private


def test_empty_text_is_not_queued():
    assert not SpeechQueue().add(Utterance("   "))


@given(st.lists(st.tuples(st.sampled_from(list(Priority)), st.booleans()), max_size=30))
def test_important_utterances_survive_any_mix_of_adds_and_interrupts(steps):
    queue = SpeechQueue()
    important = []
    for n, (priority, interrupt) in enumerate(steps):
        utterance = Utterance(f"u{n}", priority)
        if priority is IMPORTANT:
            important.append(utterance.text)
        if interrupt:
            queue.interrupt(utterance)
        else:
            queue.add(utterance)
    said = []
    while (utterance := queue.take()) is not None:
        said.append(utterance.text)
        queue.done()
    assert said[: len(important)] == important


def test_split_sentences():
    assert split_sentences("Rainbow Aura, Upgrade card. If this card is in your Stable! Yes? ") == [
        "Rainbow Aura, Upgrade card.", "If this card is in your Stable!", "Yes?"]  # fmt: skip
    assert split_sentences("") == []
    long = "word, " * 100
    pieces = split_sentences(long, longest=50)
    assert all(len(p) <= 50 for p in pieces)
    assert " ".join(pieces).split() == long.split()


def test_scale_maps_0_to_100_onto_an_engine_range_with_its_default_in_the_middle():
    assert scale(0, 80, 175, 450) == 80
    assert scale(50, 80, 175, 450) == 175
    assert scale(100, 80, 175, 450) == 450
    assert scale(150, -100, 0, 100) == 100
