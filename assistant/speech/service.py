"""The speech service: the app hands it text and never waits; one worker thread owns the engine and speaks.

`say()` and the other calls from the app only change the queue (`assistant/core/speech/queue.py`) under the
worker's lock and wake the worker (`speech/worker.py`), or kill a player process: a few microseconds. The worker
opens the first backend that works here (reported once, in a sentence), then takes utterances one at a time, in the
order given, and speaks them with their earcons. `new_input()` (a line typed, a card scanned) makes what waits
stale: never played late. Sentences for the player (the backend chosen, a sound that failed) are kept in `notices`
and sent to the callback given to `attach()`, which must only post a message or store the text; the app shows them
(`speech/notices.py`). Every utterance and notice also goes into the transcript, when there is one. A second voice
for other hands' moves (`table`) is a service of its own, which this one hands those moves to.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import replace
from pathlib import Path

from assistant.core.speech.placement import Seating
from assistant.core.speech.queue import Cut, SaidHistory, interrupting
from assistant.core.speech.utterance import Priority, Utterance
from assistant.core.words.voice import EARCON_WORDS, history_heading
from assistant.speech.backends import Backend, SilentBackend
from assistant.speech.earcons import EARCONS, EarconChannel
from assistant.speech.notices import Notices
from assistant.speech.transcript import Transcript
from assistant.speech.worker import SpeechWorker, kept_sound

#: Earcons spoken in words when sounds are off: the sentence and its priority.
EARCON_PRIORITY = {
    "code-seen": Priority.HINT,
    "card-read": Priority.HINT,
    "error": Priority.IMPORTANT,
    "your-turn": Priority.IMPORTANT,
}


class SpeechService:
    """Interruptible speech in order, with stale replies dropped or shortened and a history; every public method
    returns at once."""

    def __init__(
        self,
        backends: Backend | Sequence[Backend],
        *,
        private_backend: Backend | None = None,
        earcons: EarconChannel | None = None,
        on_notice: Callable[[str], None] | None = None,
        transcript: Transcript | None = None,
        clock: Callable[[], float] = time.monotonic,
        table: SpeechService | None = None,
        at_pause: bool = False,
    ) -> None:
        """Start the worker; it opens the first of `backends` that works (silent when none does). `clock`: seconds,
        to tell a sentence cut in its last words (heard) from one cut before them. `table`: a second voice for
        other hands' moves (`speak` of an `Utterance.other`), heard at the same time as the player's own replies and
        never cut by her keys; None: one voice, other hands' moves said in turn. `at_pause`: in one voice, another
        hand's move that does not concern her, arriving while she types, is known at once by its earcon at its
        player's seat and its words said at her first pause (`SpeechQueue.at_pause`; the setting
        `others_at_pause`)."""
        self.clock = clock
        self.table = table
        self.earcons = earcons
        self._notices = Notices(on_notice, transcript)
        self.notices = self._notices.sentences
        """Every sentence for the player, in order (the first one reports the backend)."""
        candidates = [backends] if isinstance(backends, Backend) else list(backends)
        self._worker = SpeechWorker(
            candidates,
            private_backend,
            earcons=earcons,
            notices=self._notices,
            clock=clock,
            on_outage=lambda sentence, back: self.report(sentence, change=True, spoken=back),
        )
        self._worker.queue.at_pause = at_pause
        self.ready = self._worker.ready
        """Set once the worker has chosen its backend."""

    @property
    def backend(self) -> Backend:
        """The engine the worker chose (silent until it has chosen, and when none works)."""
        return self._worker.backend

    @property
    def private_backend(self) -> Backend | None:
        """Where private utterances go when the main backend cannot reach a headphones device."""
        return self._worker.private_backend

    @property
    def described(self) -> str:
        """The sentence naming the engine chosen (and its player), said only on request (`about`)."""
        return self._worker.described

    # The calls the app makes: each only takes the lock briefly.

    def say(self, text: str, priority: Priority = Priority.MESSAGE, *, private: bool = False, sound: str = "") -> bool:
        """Queue a sentence of the app's own (a heading, an earcon's words, a speech key's answer) at the end; return
        whether it will be said (a hint may be dropped, mute drops all). `sound` is an earcon heard just before the
        words. A reply is said whole, with what it tells: `speak(Utterance.of_reply(...))`."""
        return self.speak(Utterance(text, priority, private, sound=sound))

    def new_input(self, again: bool = True) -> None:
        """The player's own key (a line typed, a card scanned): its reply comes first. What is being said is cut
        off at once and what waits is dropped; a decisive fact among them not heard in full is folded into the
        next reply, once (not when `again` is False: the input answers the question waiting, or takes back what
        was said). Call it before saying the new reply."""
        cut = self._worker.decide(lambda queue: queue.new_input(again, self.clock()))
        if self.backend.queues_itself and cut is not Cut.AFTER_SENTENCE:  # what the screen reader still says for us
            # is stale too (not other hands' words that waited long enough: they end their sentence)
            self._worker.silence_reader()

    def interrupt(
        self,
        text: str = "",
        priority: Priority = Priority.MESSAGE,
        *,
        private: bool = False,
        sound: str = "",
    ) -> None:
        """Stop, here is the next card: `new_input()`, then say `text`. What is being said is cut off before the
        new utterance is queued, so the cut can only ever reach the old one (the worker takes the new one as soon
        as it is queued)."""
        utterance = interrupting(Utterance(text, priority, private, sound=kept_sound(sound, self.earcons)))
        self._worker.interrupt_with([utterance] if text or utterance.sound else [])

    def stop(self) -> None:
        """Silence now: drop everything waiting, important included, and cut off what is being said (by both
        voices)."""
        if self.table is not None:
            self.table.stop()
        self._worker.stop()
        if self.earcons is not None:
            self.earcons.stop()

    def repeat(self) -> str:
        """Say the last utterance again and return it; "" when nothing was said yet."""
        return self._worker.review(SaidHistory.repeat)

    def back(self) -> str:
        """Say the utterance before the one last reviewed and return it; "" at the oldest."""
        return self._worker.review(SaidHistory.back)

    def forward(self) -> str:
        """Say the utterance after the one last reviewed and return it; "" at the newest."""
        return self._worker.review(SaidHistory.forward)

    def recent(self, count: int = 5, *, speak: bool = True) -> list[str]:
        """The last `count` things given to be said, newest first; with `speak`, they are said in that order
        (each a message, so the next key makes them stale)."""
        said = self._worker.locked(lambda queue: queue.said.recent(count))
        if speak and said:
            spoken = [Utterance(history_heading(len(said)), review=True)]
            self._worker.interrupt_with(spoken + [Utterance(u.text, private=u.private, review=True) for u in said])
        return [u.text for u in said]

    @property
    def muted(self) -> bool:
        """Whether speech is muted (what would be said still goes into the history)."""
        return self._worker.queue.muted

    @muted.setter
    def muted(self, value: bool) -> None:
        if value:
            self.stop()
        self._worker.locked(lambda queue: queue.set_muted(value))
        if self.table is not None:
            self.table.muted = value

    @property
    def seating(self) -> Seating | None:
        """The players around the table and the listener (`ReplySpeaker` sets it): another hand's words are
        heard where that player sits. None: everything in the middle."""
        return self._worker.seating

    @seating.setter
    def seating(self, value: Seating | None) -> None:
        self._worker.seat(value)
        if self.table is not None:
            self.table.seating = value

    @property
    def speaks(self) -> bool:
        """Its backend is chosen and has a voice (not silent)."""
        return self.ready.is_set() and not isinstance(self.backend, SilentBackend)

    @property
    def history(self) -> list[str]:
        """What was given to be said, oldest first."""
        return self._worker.locked(lambda queue: [u.text for u in queue.said.utterances])

    @property
    def busy(self) -> bool:
        """Something is being said or waiting (by either voice)."""
        return self._worker.locked(lambda queue: queue.busy) or (self.table is not None and self.table.busy)

    @property
    def sounds_on(self) -> bool:
        """Whether earcons play as sounds (else they are spoken, or left out beside words)."""
        return self.earcons is not None

    def earcon(self, name: str, *, private: bool = False) -> None:
        """Play an earcon at once, as a cue on its own channel (over any speech: "code seen" while aiming), or say
        its words when sounds are off. An earcon that belongs to a sentence is given with it: `say(sound=...)`.
        Where one sound plays at a time (Windows), an earcon never cuts the words being said: it waits for them."""
        if name not in EARCONS:
            raise ValueError(f"unknown earcon {name}")
        if self.earcons is not None and not self.muted:
            if self.earcons.one_at_a_time and self.busy:
                self.speak(Utterance("", Priority.MESSAGE, private, sound=name))  # said in turn, after the words
                return
            self.earcons.play(name, private)
            self._worker.write(Utterance("", EARCON_PRIORITY[name], private, sound=name))
        else:
            self.say(EARCON_WORDS[name], EARCON_PRIORITY[name], private=private)

    # Notices: the backend chosen, a sound that failed. Shown once; never lost before the app is ready.

    def attach(self, on_notice: Callable[[str], None]) -> None:
        """Send notices to `on_notice` from now on, starting with any not yet delivered."""
        self._notices.attach(on_notice)

    def take_notices(self, *, naming: bool = True) -> list[str]:
        """The notices not yet delivered (the app writes these under its title at start); without the sentence
        naming the engine chosen when not `naming` (the first words are the app's: engines are named on request,
        or when something is missing)."""
        return self._notices.take(naming=naming)

    @property
    def failure(self) -> str:
        """The first sentence saying that sound failed after the backend was chosen (a player that is missing or
        stopped with an error, an engine error), or "". It is also among the notices, so shown once."""
        return self._notices.failure

    def report(self, sentence: str, *, change: bool = False, spoken: bool = False) -> None:
        """A notice from outside the worker (the transcript cannot be opened): kept, shown once, transcribed.

        `change`: one of her channels was lost or is back (the sound device, speech-dispatcher): told each time it
        changes (a second outage is told again), and said aloud by a voice that still works: this one when `spoken`
        (the channel is not its own), else the table voice when there is one."""
        self._notices.add(sentence, again=change)
        if not change:
            return
        if spoken:
            self.speak(Utterance(sentence, Priority.IMPORTANT))
        elif self.table is not None and self.table.speaks:
            self.table.say(sentence, Priority.IMPORTANT)

    def wait_idle(self, timeout: float = 10.0) -> bool:
        """Block until nothing is being said or waiting (for the `say` command and tests, never the app)."""
        self.ready.wait(timeout)
        if self.table is not None and not self.table.wait_idle(timeout):
            return False
        return self._worker.wait_idle(timeout)

    def render_to(self, text: str, path: Path, timeout: float = 30.0) -> None:
        """Write `text` as a WAV file with the engine the worker owns; SpeechError when it cannot."""
        self._worker.render(text, path, timeout)

    def close(self) -> None:
        """Stop speaking, end the worker (and the second voice's) and free the engine, its files and the
        transcript."""
        if self.table is not None:
            self.table.close()
        self._worker.close()
        if self.earcons is not None:
            self.earcons.close()
        self._notices.close()

    def known(self, utterance: Utterance) -> None:
        """Another hand's moves whose words come later, in a line of their own (a phone's move within
        `phone_desk.SPOKEN_EVERY` of its player's last line: shown now, said merged): in one voice, where other
        hands' moves are known by their earcon at once (`at_pause`), their earcon now, and not again with their
        words; with a table voice or in turn, their line carries it. In one voice, a question of hers their moves
        closed is not said meanwhile by her screen reader (`SpeechWorker.reader_closed_by`)."""
        table = self.table
        if not utterance.other or (table is not None and table.speaks):
            return
        self._worker.reader_closed_by(utterance)
        if self._worker.queue.at_pause:
            self._worker.known_at_once(utterance)

    def speak(self, utterance: Utterance) -> bool:
        """Queue an utterance (a reply made one by `Utterance.of_reply`); return whether it will be said. The
        player's own at the end; another hand's (`Utterance.other`) by the table voice when there is one, the same
        utterance handed on (hers never waited for it; kept here too, for `repeat`), else in turn after the sentence
        being said, an older one waiting shrinking to its decisive fact (`SpeechQueue.arrive`). Its earcon is kept
        only where sounds are on (ValueError for a name that is no earcon)."""
        utterance = replace(utterance, sound=kept_sound(utterance.sound, self.earcons))
        table = self.table
        if utterance.other and table is not None and table.speaks:  # the second voice (beside her screen reader too)
            self._worker.handed_on(utterance)
            return table.speak(utterance)
        if utterance.other:  # one voice: a question of hers it closes, which her screen reader may still be saying
            self._worker.reader_closed_by(utterance)
        if utterance.other and self._worker.hold(utterance):  # one voice while she types: its earcon now, its
            return True  # words at her pause
        return self._worker.add(utterance, arriving=utterance.other)
