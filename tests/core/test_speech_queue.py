"""The speech queue's rules (assistant/core/speech/queue.py), as plain data: no threads, no audio."""

from hypothesis import given
from hypothesis import strategies as st

from assistant.core.speech.queue import Cut, Priority, SpeechQueue, Utterance, scale, split_sentences

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


def test_important_never_jumps_ahead_order_is_kept():
    queue = queue_with(("m1", MESSAGE), ("i1", IMPORTANT), ("m2", MESSAGE), ("i2", IMPORTANT))
    assert texts(queue) == ["m1", "i1", "m2", "i2"]


def test_new_input_shortens_waiting_replies_drops_echoes_and_cuts_the_message_being_said():
    queue = SpeechQueue()
    queue.add(Utterance("Ana drew a card. Action phase."))
    queue.take()
    queue.add(Utterance("Ana played Basic Unicorn (Blue). Any Neigh? Say neigh and a name, or resolve."))
    queue.add(Utterance("Turn 5: Ben's turn. Ben draws a card: say draw.", IMPORTANT, sound="your-turn"))
    queue.add(Utterance("No card called x. Type help.", IMPORTANT, brief="No card x."))
    queue.add(Utterance("c", ECHO))
    assert queue.new_input() is Cut.NOW
    waiting = queue.waiting
    assert [u.text for u in waiting] == ["Ana played Basic Unicorn (Blue).", "Turn 5: Ben's turn.", "No card x."]
    assert all(u.stale for u in waiting) and waiting[1].sound == "your-turn"  # the earcon stays with its words
    assert waiting[1].shortened() is waiting[1]  # stale twice is still the brief form, not its first sentence
    assert queue.new_input() is Cut.NOW  # the cut message is current until the worker calls done()
    # Superseded twice before it began, the message goes; the important ones stay in their brief form.
    assert texts(queue) == ["Turn 5: Ben's turn.", "No card x."]


def test_new_input_cuts_even_an_important_utterance_at_once():
    queue = SpeechQueue()
    queue.add(Utterance("Turn 2: Ben's turn. Ben draws a card.", IMPORTANT))
    queue.take()
    assert queue.new_input() is Cut.NOW  # the new key is answered now; a decisive fact would be said again
    queue.done()
    assert queue.new_input() is Cut.NONE
    queue.add(Utterance("again", review=True))
    queue.take()
    assert queue.new_input() is Cut.NOW  # a repeat the player asked for is not a reply: the next key cuts it


def test_an_earcon_alone_is_queued_and_stays_in_order():
    queue = queue_with(("one", MESSAGE))
    assert queue.add(Utterance("", IMPORTANT, sound="error"))
    queue.add(Utterance("two"))
    assert [(u.text, u.sound) for u in queue.waiting] == [("one", ""), ("", "error"), ("two", "")]
    assert [u.text for u in queue.history] == ["one", "two"]  # a sound alone is not something to repeat


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


def test_interrupt_shortens_the_queue_drops_echoes_and_cuts_the_current_message():
    queue = queue_with(("m1. More.", MESSAGE), ("error", IMPORTANT), ("e", ECHO), speaking="old card")
    cut = queue.interrupt(Utterance("next card"))
    assert cut is Cut.NOW
    assert texts(queue) == ["m1.", "error", "next card"]


def test_interrupt_cuts_an_important_utterance_at_once():
    queue = SpeechQueue()
    queue.add(Utterance("your turn", IMPORTANT))
    queue.take()
    assert queue.interrupt(Utterance("next card")) is Cut.NOW
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


def test_history_holds_what_was_given_not_echoes_and_not_repeats():
    queue = queue_with(("one", MESSAGE), ("f", ECHO), ("two", MESSAGE), ("stale", MESSAGE))
    queue.new_input()  # "stale" is never said, but the player can still find it in the history
    while queue.take() is not None:
        queue.done()
    assert [u.text for u in queue.history] == ["one", "two", "stale"]
    queue.history.pop()
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
    assert [u.text for u in queue.history] == ["waiting", "error"]  # given, though never said
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


@given(st.lists(st.tuples(st.sampled_from(list(Priority)), st.sampled_from(["add", "new input", "take"])),
                max_size=40))  # fmt: skip
def test_any_mix_keeps_the_order_and_every_important_utterance(steps):
    queue = SpeechQueue()
    important, said = [], []
    for n, (priority, step) in enumerate(steps):
        utterance = Utterance(f"u{n}. More words.", priority)
        if step == "new input":
            queue.new_input()
        if step == "take" and (taken := queue.take()) is not None:
            said.append(taken)
            queue.done()
        if queue.add(utterance) and priority is IMPORTANT:
            important.append(f"u{n}.")
    while (taken := queue.take()) is not None:
        said.append(taken)
        queue.done()
    numbers = [int(u.text.split(".")[0][1:]) for u in said]
    assert numbers == sorted(numbers)  # nothing is ever heard after something that followed it
    assert [u.text.split(" ")[0] for u in said if u.priority is IMPORTANT] == important  # never dropped


def test_split_sentences():
    assert split_sentences("Rainbow Aura, Upgrade card. If this card is in your Stable! Yes? ") == [
        "Rainbow Aura, Upgrade card.", "If this card is in your Stable!", "Yes?"]  # fmt: skip
    assert split_sentences("Turn 5: Ben's turn. Ben draws.") == ["Turn 5: Ben's turn.", "Ben draws."]
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


# A decisive fact (the win, a turn, a warning's question) is never lost to the next key.


def _saying(utterance: Utterance) -> SpeechQueue:
    queue = SpeechQueue()
    queue.add(utterance)
    queue.take()
    return queue


def test_a_decisive_fact_cut_off_is_said_again_once_before_the_next_reply():
    win = "Ana wins with 7 Unicorns! The game is over."
    queue = _saying(Utterance(f"Basic Unicorn (Purple) enters Ana's Stable. {win}", IMPORTANT, decisive=win))
    assert queue.new_input() is Cut.NOW  # the next key is answered at once
    queue.add(Utterance("Ana's Stable: 7 Unicorns. Her Unicorns are these."))
    assert texts(queue) == [win, "Ana's Stable: 7 Unicorns. Her Unicorns are these."]
    again = queue.waiting[0]
    assert again.priority is IMPORTANT and again.stale and not again.decisive and again.said_again
    queue.done()
    queue.take()  # the win said again is being said when the next key comes
    assert queue.new_input() is Cut.AFTER_SENTENCE  # it ends its sentence (its one chance)...
    assert texts(queue) == ["Ana's Stable: 7 Unicorns."]  # ...is not said a third time; the reply in brief
    queue.done()
    assert queue.new_input() is Cut.NONE
    assert texts(queue) == []  # superseded twice before it began: dropped


def test_a_decisive_first_sentence_cut_is_said_again():
    queue = _saying(Utterance("Turn 2: Ben's turn. Ben draws a card.", IMPORTANT, decisive="Turn 2: Ben's turn."))
    assert queue.new_input() is Cut.NOW
    assert texts(queue) == ["Turn 2: Ben's turn."]


def test_a_decisive_fact_played_to_its_end_is_not_said_again_when_the_rest_is_cut():
    turn = "Ana's turn: may use the Alpaca Herd Bonus."
    text = f"Turn 5, {turn} Herd Bonus: 3 or more Alpacas. It does this: your Alpacas cannot be destroyed."
    queue = _saying(Utterance(text, IMPORTANT, decisive=turn))
    queue.sentence_played(0)  # "Turn 5, Ana's turn: may use the Alpaca Herd Bonus." heard whole
    assert queue.new_input() is Cut.NOW
    assert texts(queue) == []  # heard: what it does is cut, the turn not said again
    queue.done()
    queue.add(Utterance(text, IMPORTANT, decisive=turn))
    queue.take()
    assert queue.played == 0  # a new utterance starts unheard
    queue.sentence_played(1)
    queue.sentence_played(0)  # (reported out of order: the furthest counts)
    assert queue.played == 2


def test_a_decisive_fact_in_a_later_sentence_not_yet_played_is_said_again():
    win = "Ana wins with 7 Unicorns!"
    queue = _saying(Utterance(f"Basic Unicorn enters Ana's Stable. {win} The game is over.", IMPORTANT, decisive=win))
    queue.sentence_played(0)
    assert queue.new_input() is Cut.NOW
    assert texts(queue) == [win]


def test_a_message_carrying_a_decisive_fact_cut_or_dropped_leaves_its_fact():
    queue = _saying(Utterance("Ben destroyed Rainbow Unicorn in Ana's Stable. More words.", decisive="Ben destroyed"))
    queue.add(Utterance("waiting words", MESSAGE, decisive="Cy: 3 Unicorns."))
    assert queue.new_input() is Cut.NOW
    assert texts(queue) == ["Ben destroyed", "Cy: 3 Unicorns."]  # (the waiting one's brief form is its fact)


def test_an_answered_question_is_not_said_again():
    question = "Against the rules: record it anyway? It is Ben's turn. Say yes or no."
    queue = _saying(Utterance(question, IMPORTANT, decisive=question))
    assert queue.new_input(again=False) is Cut.NOW
    assert texts(queue) == []


def test_a_stale_important_reply_keeps_its_decisive_fact_in_its_brief_form():
    queue = SpeechQueue()
    queue.add(Utterance("x", MESSAGE))
    queue.take()
    queue.add(Utterance("Long words. Turn 3: Cy's turn.", IMPORTANT, brief="Turn 3, Cy.", decisive="Cy may use X."))
    queue.new_input()
    assert texts(queue) == ["Cy may use X."]  # the brief form leaves it out: the decisive fact instead


# The rules at table pace, on an injected clock: a worker that says each word in `WORD_S` seconds, a key every
# 1.2 s whatever is being said.

WORD_S = 0.3


class _Table:
    """The queue's worker on an injected clock: what began when, and whether it played to its end."""

    def __init__(self) -> None:
        self.queue = SpeechQueue()
        self.now = 0.0
        self.ends: list[float] = []
        """Where each sentence of the utterance being said ends."""
        self.heard: list[tuple[float, str, bool]] = []
        """Each sentence begun: its start, its text, and whether it played to its end."""
        self.keys: list[float] = []

    def _start(self) -> bool:
        utterance = self.queue.take()
        if utterance is None:
            return False
        start, self.ends = self.now, []
        for sentence in split_sentences(utterance.text):
            self.heard.append((start, sentence, True))
            start += WORD_S * len(sentence.split())
            self.ends.append(start)
        return True

    def run_until(self, moment: float) -> None:
        while True:
            if self.queue.current is None and not self._start():
                break
            if self.ends[-1] >= moment:  # (a key at the very moment an utterance ends comes first)
                break
            self.now = self.ends[-1]
            self.queue.done()
        self.now = moment

    def key(self, moment: float, reply: Utterance, answers: bool = False) -> None:
        self.run_until(moment)
        cut = self.queue.new_input(again=not answers)
        if self.queue.current is not None:
            later = [end for end in self.ends if end > moment]
            if cut is Cut.AFTER_SENTENCE:
                self.ends = later[:1] or [moment]
            for _ in later[1:] if cut is Cut.AFTER_SENTENCE else later:
                start, text, _whole = self.heard.pop()  # a sentence not yet begun is not heard at all
                if start < moment:
                    self.heard.append((start, text, False))  # the one being said, cut off
            if cut is Cut.NOW:
                self.queue.done()
        self.queue.add(reply)
        self.keys.append(moment)

    def first_sound(self) -> list[float]:
        """For each key, the seconds to the next sentence begun."""
        starts = [s for s, _, _ in self.heard]
        return [min((s for s in starts if s >= key), default=key + 99) - key for key in self.keys]


def test_at_table_pace_every_reply_is_begun_every_decisive_fact_heard_whole_and_keys_answered_at_once():
    turn = "Turn 2: Ben's turn."
    win = "Ana wins with 3 Unicorns!"
    replies = [
        Utterance("Ana drew Basic Unicorn (Red). Action phase. Say play and a card.", brief="Ana drew."),
        Utterance("Ana played Basic Unicorn (Blue). Any Neigh? Say neigh and a name.", brief="Ana: Blue. Neigh?"),
        Utterance("Ana: 2 Unicorns. Basic Unicorn (Blue) entered her Stable.", brief="Ana: 2 Unicorns."),
        Utterance(f"{turn} Ben draws a card: say draw.", IMPORTANT, decisive=turn),
        Utterance("Ben drew a card. Action phase.", brief="Ben drew."),
        Utterance("Ben played Basic Unicorn (Red). Any Neigh?", brief="Ben: Red. Neigh?"),
        Utterance(f"{win} Basic Unicorn (Yellow) entered her Stable. The game is over.", IMPORTANT, decisive=win),
        Utterance("Undone: Basic Unicorn (Yellow) is back on the pile. Ana has 2 Unicorns.", brief="Undone."),
        Utterance(f"{win} The game is over.", IMPORTANT, decisive=win),
        Utterance("Ana's Stable: 3 Unicorns. Basic Unicorn (Blue), Basic Unicorn (Red), Basic Unicorn (Yellow)."),
    ]
    table = _Table()
    for n, reply in enumerate(replies):
        table.key(1.2 * n, reply)
    table.run_until(1000.0)
    begun = {text for _, text, _ in table.heard}
    whole = {text for _, text, played in table.heard if played}
    for reply in replies[:-1]:  # every reply is heard, at least its first sentence or its brief form
        assert split_sentences(reply.text)[0] in begun or reply.brief in begun, reply.text
    assert turn in whole and win in whole  # each decisive fact heard to its end, the win once for each time
    assert [text for _, text, played in table.heard if text == win and played] == [win, win]
    starts = [s for s, _, _ in table.heard]
    assert starts == sorted(starts)  # one thing at a time, in order
    # A key is answered at once, save one that comes while a decisive fact said again ends its sentence.
    waits = table.first_sound()
    assert sorted(waits)[len(waits) // 2] == 0.0
    assert max(waits) <= WORD_S * len(win.split())


def test_a_reply_superseded_twice_before_it_began_is_dropped_so_the_backlog_stays_short():
    table = _Table()
    table.key(0.0, Utterance("A long card text with very many words in it, read slowly.", IMPORTANT, decisive="Win."))
    for n in range(1, 6):  # keys every 0.1 s: faster than anything can be said
        table.key(0.1 * n, Utterance(f"Reply {n}. Its details.", brief=f"Reply {n}."))
    assert len(table.queue.waiting) <= 2  # the newest reply and the one before it, in brief: not five
    table.run_until(1000.0)
    said = [text for _, text, _ in table.heard]
    assert said[:2] == ["A long card text with very many words in it, read slowly.", "Win."]
    assert "Reply 5." in said and "Its details." in said  # the last reply is said in full
