"""A voice that plays the speech queue's utterances sentence by sentence on a fake clock, cut as the queue decides
(assistant/core/speech/queue.py): no threads, no audio."""

from assistant.core.speech.queue import Cut, SpeechQueue
from assistant.core.speech.utterance import Utterance


class ClockedVoice:
    """One voice playing the queue's utterances sentence by sentence on a fake clock, cut as the queue decides."""

    def __init__(self, word_s: float) -> None:
        self.word_s = word_s
        """Seconds a word lasts."""
        self.queue = SpeechQueue()
        self.clock = 0.0
        self.schedule: list[tuple[float, float, str]] = []
        self.next = 0
        self.trimmed = False
        self.heard: list[tuple[float, str]] = []
        """Each sentence begun: when, its words."""

    def run_until(self, moment: float) -> None:
        while True:
            if self.queue.current is None:
                utterance = self.queue.take()
                if utterance is None:
                    self.clock = max(self.clock, moment)
                    return
                start, self.schedule, self.next, self.trimmed = self.clock, [], 0, False
                for sentence in utterance.split():
                    end = start + self.word_s * len(sentence.split())
                    self.schedule.append((start, end, sentence))
                    start = end
            while self.next < len(self.schedule):
                start, end, sentence = self.schedule[self.next]
                if start >= moment:
                    return
                if not self.heard or self.heard[-1] != (start, sentence):
                    self.heard.append((start, sentence))
                    if self.queue.sentence_began(self.next, start, end - start):
                        self.trimmed = True
                if end > moment:
                    return
                self.queue.sentence_played(self.next)
                self.next += 1
                self.clock = end
                if self.trimmed:
                    break
            self.queue.done()

    def _apply(self, cut: Cut, moment: float) -> None:
        if cut is Cut.NOW and self.queue.current is not None:
            self.queue.done()
            self.clock = moment
        elif cut is Cut.AFTER_SENTENCE:
            self.trimmed = True

    def key(self, moment: float, reply: Utterance) -> None:
        self.run_until(moment)
        self._apply(self.queue.new_input(now=moment), moment)
        self.queue.add(reply)

    def tap(self, moment: float, reply: Utterance) -> None:
        self.run_until(moment)
        self._apply(self.queue.arrive(reply, now=moment), moment)
