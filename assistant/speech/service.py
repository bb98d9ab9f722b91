"""The speech service: the app hands it text and never waits; one worker thread owns the engine and speaks.

`say()` and the other calls from the app only change the queue (`assistant/core/speech/queue.py`) under a lock and
wake the worker, or kill a player process: a few microseconds. The worker opens the first backend that works
here (reported once, in a sentence), then takes utterances one at a time, in the order given, and speaks them
with their earcons. `new_input()` (a line typed, a card scanned) makes what waits stale: never played late.
Sentences for the player (the backend chosen, a sound that failed) are kept in `notices` and sent to the
callback given to `attach()`, which must only post a message or store the text; the app shows them. Every
utterance and notice also goes into the transcript, when there is one.
"""

from __future__ import annotations

import sys
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import replace
from pathlib import Path

from assistant.core.game.about import About
from assistant.core.game.segment import Segment
from assistant.core.speech.placement import Seating, move_earcon, sentence_places
from assistant.core.speech.queue import Cut, SpeechQueue, interrupting
from assistant.core.speech.utterance import Priority, Utterance
from assistant.core.text import PLAIN, SentenceNames
from assistant.core.words.voice import (
    EARCON_WORDS,
    ENGINE_TOO_SLOW,
    engine_unavailable,
    history_heading,
    speech_cannot_render,
)
from assistant.speech.backends import Backend, BackendUnavailable, SilentBackend, SpeechError
from assistant.speech.dispatcher import SpeechdBackend
from assistant.speech.earcons import EARCONS, EarconChannel
from assistant.speech.transcript import Transcript

#: Seconds the worker may keep the interpreter while the app's thread waits for it (`sys.setswitchinterval`).
SWITCH_INTERVAL = 0.001

#: Earcons spoken in words when sounds are off: the sentence and its priority.
EARCON_PRIORITY = {
    "code-seen": Priority.HINT,
    "card-read": Priority.HINT,
    "error": Priority.IMPORTANT,
    "your-turn": Priority.IMPORTANT,
}


class _Turn:
    """The utterance the worker is saying, and what was decided about it meanwhile (under the service's lock)."""

    def __init__(self, utterance: Utterance) -> None:
        self.utterance = utterance
        self.cut = False
        """Cut off now: the backend stops at once."""
        self.trimmed = False
        """A reply from another hand arrived: the backend ends with the sentence it is saying."""

    def wanted(self) -> bool:
        return not self.cut

    def more(self) -> bool:
        return not (self.cut or self.trimmed)


def _transcribe(transcript: Transcript, held: list[str] | None) -> None:
    """The notices held back from the transcript until its first utterance (`SpeechService._untranscribed`)."""
    for sentence in held or ():
        transcript.write("notice", sentence)


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
    ) -> None:
        """Start the worker; it opens the first of `backends` that works (silent when none does). `clock`: seconds,
        to tell a sentence cut in its last words (heard) from one cut before them. `table`: a second voice for
        other hands' moves (`say(..., other_hand=True)`), heard at the same time as the player's own replies and
        never cut by her keys; None: one voice, other hands' moves said in turn."""
        self.clock = clock
        self.table = table
        self._candidates = [backends] if isinstance(backends, Backend) else list(backends)
        self._private_candidate = private_backend
        self.private_backend: Backend | None = None
        """Where private utterances go when the main backend cannot reach a headphones device."""
        self.earcons = earcons
        self.on_notice = on_notice
        self.transcript = transcript
        self.notices: list[str] = []
        """Every sentence for the player, in order (the first one reports the backend)."""
        self.described = ""
        """The sentence naming the engine chosen (and its player), said only on request (`about`)."""
        self._naming: int | None = None
        """Where in `notices` that sentence is, when the engine speaks: never shown unasked (`take_notices`)."""
        self._untranscribed: list[str] | None = []
        """Notices held back from the transcript until its first utterance (the welcome), then written after it;
        None once it was written."""
        self._delivered = 0
        self._failures: list[str] = []
        """How many of `notices` were handed to `on_notice` or taken with `take_notices()`."""
        self._queue = SpeechQueue()
        self._cond = threading.Condition()
        self._turn: _Turn | None = None
        self._jobs: list[Callable[[], None]] = []
        self._closing = False
        self.backend: Backend = SilentBackend()
        self._seating: Seating | None = None
        self.ready = threading.Event()
        """Set once the worker has chosen its backend."""
        # The worker runs Python code while it renders (the engine's callbacks, the WAV files); a thread that
        # wants the interpreter waits until the holder lets go, at most the switch interval (5 ms by default).
        # At 1 ms, a call from the app's thread is never held more than about that.
        sys.setswitchinterval(min(sys.getswitchinterval(), SWITCH_INTERVAL))
        self._thread = threading.Thread(target=self._run, name="speech", daemon=True)
        self._thread.start()

    # The calls the app makes: each only takes the lock briefly.

    def say(
        self,
        text: str,
        priority: Priority = Priority.MESSAGE,
        *,
        private: bool = False,
        sound: str = "",
        facts: tuple[About, ...] = (),
        tells: tuple[About, ...] = (),
        other_hand: bool = False,
        hand: int | None = None,
        names: SentenceNames = PLAIN,
        segments: tuple[Segment, ...] = (),
    ) -> bool:
        """Queue text at the end; return whether it will be said (a hint may be dropped, mute drops all).

        `sound` is an earcon heard just before the words;
        `facts` the decisive facts it carries, said after the next key's reply when that key cuts them; `tells` the
        move it tells of (merged with others when they pile up);
        `other_hand`: the reply did not come from the player's own key (a move from another player's device), so
        it is said in turn after the sentence being said, an older reply waiting shrinking to its decisive fact;
        `hand`: the seat of the player whose device it came from, where every sentence of it is heard;
        `names`: the game's names that change where its sentences end; `segments`: the reply's typed segments, which
        say where each fact is said (`Utterance.segments`).
        """
        utterance = Utterance(
            text,
            priority,
            private,
            sound=self._sound(sound),
            facts=facts,
            tells=tells,
            hand=hand,
            names=names,
            segments=segments,
        )
        return self._add(utterance, other_hand=other_hand)

    def new_input(self, again: bool = True) -> None:
        """The player's own key (a line typed, a card scanned): its reply comes first. What is being said is cut
        off at once and what waits is dropped; a decisive fact among them not heard in full is folded into the
        next reply, once (not when `again` is False: the input answers the question waiting, or takes back what
        was said). Call it before saying the new reply."""
        with self._cond:
            cut = self._queue.new_input(again, self.clock())
            cut_now = self._apply_locked(cut)
            self._cond.notify_all()
        if cut_now:
            self._cancel_backends()
        if self.backend.queues_itself and cut is not Cut.AFTER_SENTENCE:  # what the screen reader still says for us
            # is stale too (not other hands' words that waited long enough: they end their sentence)
            self.backend.cancel()

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
        utterance = interrupting(Utterance(text, priority, private, sound=self._sound(sound)))
        self._interrupt_with([utterance] if text or utterance.sound else [])

    def _interrupt_with(self, utterances: list[Utterance]) -> None:
        """`new_input()` (what is said cut off, what waits dropped), then queue the utterances, in that order."""
        with self._cond:
            cut_now = self._apply_locked(self._queue.new_input())
            self._cond.notify_all()
        if cut_now:
            self._cancel_backends()
        with self._cond:
            for utterance in utterances:
                self._queue.add(utterance)
            self._cond.notify_all()
        for utterance in utterances:
            self._write(utterance)

    def stop(self) -> None:
        """Silence now: drop everything waiting, important included, and cut off what is being said (by both
        voices)."""
        if self.table is not None:
            self.table.stop()
        with self._cond:
            cut = self._queue.stop() and self._apply_locked(Cut.NOW)
        if cut or self.backend.queues_itself:  # a screen reader may still be saying what it was given
            self._cancel_backends()
        if self.earcons is not None:
            self.earcons.stop()

    def repeat(self) -> str:
        """Say the last utterance again and return it; "" when nothing was said yet."""
        return self._review(self._queue.said.repeat)

    def back(self) -> str:
        """Say the utterance before the one last reviewed and return it; "" at the oldest."""
        return self._review(self._queue.said.back)

    def forward(self) -> str:
        """Say the utterance after the one last reviewed and return it; "" at the newest."""
        return self._review(self._queue.said.forward)

    def recent(self, count: int = 5, *, speak: bool = True) -> list[str]:
        """The last `count` things given to be said, newest first; with `speak`, they are said in that order
        (each a message, so the next key makes them stale)."""
        with self._cond:
            said = self._queue.said.recent(count)
        if speak and said:
            spoken = [Utterance(history_heading(len(said)), review=True)]
            self._interrupt_with(spoken + [Utterance(u.text, private=u.private, review=True) for u in said])
        return [u.text for u in said]

    def _review(self, step: Callable[[], Utterance | None]) -> str:
        with self._cond:
            utterance = step()
        if utterance is None:
            return ""
        self._interrupt_with([utterance])
        return utterance.text

    @property
    def muted(self) -> bool:
        """Whether speech is muted (what would be said still goes into the history)."""
        return self._queue.muted

    @muted.setter
    def muted(self, value: bool) -> None:
        if value:
            self.stop()
        with self._cond:
            self._queue.set_muted(value)
        if self.table is not None:
            self.table.muted = value

    @property
    def seating(self) -> Seating | None:
        """The players around the table and the listener (`ReplySpeaker` sets it): another hand's words are
        heard where that player sits. None: everything in the middle."""
        return self._seating

    @seating.setter
    def seating(self, value: Seating | None) -> None:
        self._seating = value
        with self._cond:
            self._queue.listener = value.listener if value is not None else None
        if self.table is not None:
            self.table.seating = value

    @property
    def speaks(self) -> bool:
        """Its backend is chosen and has a voice (not silent)."""
        return self.ready.is_set() and not isinstance(self.backend, SilentBackend)

    @property
    def history(self) -> list[str]:
        """What was given to be said, oldest first."""
        with self._cond:
            return [u.text for u in self._queue.said.utterances]

    @property
    def busy(self) -> bool:
        """Something is being said or waiting (by either voice)."""
        with self._cond:
            busy = self._queue.busy
        return busy or (self.table is not None and self.table.busy)

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
                self._add(Utterance("", Priority.MESSAGE, private, sound=name))  # said in turn, after the words
                return
            self.earcons.play(name, private)
            self._write(Utterance("", EARCON_PRIORITY[name], private, sound=name))
        else:
            self.say(EARCON_WORDS[name], EARCON_PRIORITY[name], private=private)

    # Notices: the backend chosen, a sound that failed. Shown once; never lost before the app is ready.

    def attach(self, on_notice: Callable[[str], None]) -> None:
        """Send notices to `on_notice` from now on, starting with any not yet delivered."""
        with self._cond:
            self.on_notice = on_notice
            pending = self.notices[self._delivered :]
            self._delivered = len(self.notices)
        for sentence in pending:
            self._deliver(on_notice, sentence)

    def take_notices(self, *, naming: bool = True) -> list[str]:
        """The notices not yet delivered (the app writes these under its title at start); without the sentence
        naming the engine chosen when not `naming` (the first words are the app's: engines are named on request,
        or when something is missing)."""
        with self._cond:
            pending = list(enumerate(self.notices))[self._delivered :]
            self._delivered = len(self.notices)
        return [sentence for index, sentence in pending if naming or index != self._naming]

    @property
    def failure(self) -> str:
        """The first sentence saying that sound failed after the backend was chosen (a player that is missing or
        stopped with an error, an engine error), or "". It is also among the notices, so shown once."""
        return self._failures[0] if self._failures else ""

    def report(self, sentence: str, *, change: bool = False, spoken: bool = False) -> None:
        """A notice from outside the worker (the transcript cannot be opened): kept, shown once, transcribed.

        `change`: one of her channels was lost or is back (the sound device, speech-dispatcher): told each time it
        changes (a second outage is told again), and said aloud by a voice that still works: this one when `spoken`
        (the channel is not its own), else the table voice when there is one."""
        self._notice(sentence, again=change)
        if not change:
            return
        if spoken:
            self._add(Utterance(sentence, Priority.IMPORTANT))
        elif self.table is not None and self.table.speaks:
            self.table.say(sentence, Priority.IMPORTANT)

    def wait_idle(self, timeout: float = 10.0) -> bool:
        """Block until nothing is being said or waiting (for the `say` command and tests, never the app)."""
        self.ready.wait(timeout)
        if self.table is not None and not self.table.wait_idle(timeout):
            return False
        with self._cond:
            return self._cond.wait_for(lambda: not self._queue.busy and not self._jobs, timeout)

    def render_to(self, text: str, path: Path, timeout: float = 30.0) -> None:
        """Write `text` as a WAV file with the engine the worker owns; SpeechError when it cannot."""
        finished = threading.Event()
        failure: list[str] = []

        def job() -> None:
            try:
                if not self.backend.can_render:
                    raise SpeechError(speech_cannot_render(self.backend.name))
                self.backend.render(text, Path(path))
            except SpeechError as exc:
                failure.append(str(exc))
            except Exception as exc:  # a library's own error: still said as a sentence
                failure.append(engine_unavailable(self.backend.name, f"{exc.__class__.__name__}: {exc}"))
            finally:
                finished.set()

        with self._cond:
            self._jobs.append(job)
            self._cond.notify_all()
        if not finished.wait(timeout):
            raise SpeechError(engine_unavailable(self.backend.name, ENGINE_TOO_SLOW))
        if failure:
            raise SpeechError(failure[0])

    def close(self) -> None:
        """Stop speaking, end the worker (and the second voice's) and free the engine, its files and the
        transcript."""
        if self.table is not None:
            self.table.close()
        with self._cond:
            self._closing = True
            cut = self._queue.stop() and self._apply_locked(Cut.NOW)
            self._cond.notify_all()
        if cut:
            self._cancel_backends()
        self._thread.join(timeout=2.0)
        if self.earcons is not None:
            self.earcons.close()
        if self.transcript is not None:
            with self._cond:
                held, self._untranscribed = self._untranscribed, None
            _transcribe(self.transcript, held)  # (nothing was said: the notices held are written all the same)
            self.transcript.close()

    # Inside: the queue's decisions, the transcript, the worker.

    def _sound(self, name: str) -> str:
        """The earcon to keep with an utterance: none when sounds are off (the words carry the message)."""
        if name and name not in EARCONS:
            raise ValueError(f"unknown earcon {name}")
        return name if self.earcons is not None else ""

    def _add(self, utterance: Utterance, *, other_hand: bool = False) -> bool:
        """Queue an utterance, the one piece `say` builds: the player's own at the end; another hand's (`say`'s
        `other_hand`) by the table voice when there is one, the same utterance handed on (hers never waited for it;
        kept here too, for `repeat`), else in turn after the sentence being said, an older one waiting shrinking to
        its decisive fact (`SpeechQueue.arrive`)."""
        table = self.table
        if other_hand and table is not None and table.speaks:  # the second voice (beside her screen reader too)
            with self._cond:
                self._queue.said.remember(utterance)
                cut_now = self._apply_locked(self._queue.closed_by(utterance))  # a question it closed: not said
            if cut_now:
                self._cancel_backends()
            self._write(utterance)
            return table._add(replace(utterance, sound=table._sound(utterance.sound)), other_hand=True)
        cut_now = False
        with self._cond:  # decided and marked on the turn being said at once: the worker may take the new one next
            if other_hand:
                cut_now = self._apply_locked(self._queue.arrive(utterance, self.clock()))
                accepted = self._queue.busy
            else:
                accepted = self._queue.add(utterance)
            self._cond.notify_all()
        self._write(utterance)
        if cut_now:
            self._cancel_backends()
        return accepted

    def _write(self, utterance: Utterance) -> None:
        transcript = self.transcript
        if transcript is None or (not utterance.text.strip() and not utterance.sound):
            return
        marks = []
        if self._queue.muted:
            marks.append("muted")
        if self.ready.is_set() and isinstance(self.backend, SilentBackend):
            marks.append("silent")
        if utterance.private:
            marks.append("private")
        if utterance.review:
            marks.append("repeat")
        if utterance.sound:
            marks.append(f"sound:{utterance.sound}")
        transcript.write(utterance.priority.value, utterance.text, tuple(marks))
        with self._cond:
            held, self._untranscribed = self._untranscribed, None
        _transcribe(transcript, held)
        self._transcript_failed(transcript)

    def _transcript_failed(self, transcript: Transcript) -> None:
        if transcript.failure:
            self.transcript = None
            self._notice(transcript.failure)

    def _apply_locked(self, cut: Cut) -> bool:
        """Mark the queue's decision on the turn being said, under the lock the decision was taken in (later, the
        worker may already be saying the next utterance, which the mark would cut); whether to cancel the backends
        now."""
        turn = self._turn
        if turn is None or cut is Cut.NONE:
            return False
        if cut is Cut.AFTER_SENTENCE:
            turn.trimmed = True
            return False
        turn.cut = True
        return True

    def _cancel_backends(self) -> None:
        self.backend.cancel()
        if self.private_backend is not None and self.private_backend is not self.backend:
            self.private_backend.cancel()
        if self.earcons is not None:
            self.earcons.stop_waiting()

    def _failed(self, sentence: str) -> None:
        """A sound failure (from a backend or the worker): a notice, remembered as a failure."""
        with self._cond:
            if sentence not in self._failures:
                self._failures.append(sentence)
        self._notice(sentence)

    def _notice(self, sentence: str, *, again: bool = False, transcribed: bool = True) -> None:
        with self._cond:
            if sentence in self.notices and not again:
                return  # an engine failing on every utterance is reported once, not every time
            self.notices.append(sentence)
            callback = self.on_notice
            if callback is not None:
                self._delivered = len(self.notices)
            held = self._untranscribed
            if held is not None and transcribed:
                held.append(sentence)  # written after the first utterance: the transcript starts with the welcome
        if self.transcript is not None and transcribed and held is None:
            self.transcript.write("notice", sentence)
        if callback is not None:
            self._deliver(callback, sentence)

    @staticmethod
    def _deliver(callback: Callable[[str], None], sentence: str) -> None:
        try:
            callback(sentence)
        except Exception:
            pass  # the app is closing: the notice is still in `notices`

    def _open(self, candidate: Backend) -> bool:
        candidate.on_notice = self._failed
        if isinstance(candidate, SpeechdBackend):  # lost and back mid-game: the loss said by the table voice
            candidate.on_outage = lambda sentence, back: self.report(sentence, change=True, spoken=back)
        try:
            candidate.open()
            return True
        except BackendUnavailable as exc:
            self._reasons.append(str(exc))
        except Exception as exc:  # a library failing in a way it does not document: try the next one
            self._reasons.append(engine_unavailable(candidate.name, f"{exc.__class__.__name__}: {exc}"))
        candidate.close()
        return False

    def _choose_backend(self) -> None:
        self._reasons: list[str] = []
        chosen = next((c for c in self._candidates if self._open(c)), None)
        if chosen is None:
            chosen = SilentBackend(" ".join(self._reasons))
        self.backend = chosen
        if chosen.can_speak_privately():
            self.private_backend = chosen
        elif self._private_candidate is not None and self._open(self._private_candidate):
            self.private_backend = self._private_candidate
        if self.earcons is not None:
            for backend in (self.backend, self.private_backend):
                if backend is not None:
                    backend.sounds = dict(self.earcons.files)
        self.described = chosen.describe()
        speaks = not isinstance(chosen, SilentBackend)  # silence is said; an engine is named only on request
        self._notice(self.described, transcribed=not speaks)
        if speaks:
            self._naming = self.notices.index(self.described)
        self.ready.set()

    def _run(self) -> None:
        try:
            self._choose_backend()
        finally:
            self.ready.set()
        while True:
            with self._cond:
                self._cond.wait_for(lambda: self._closing or self._jobs or self._queue.waiting)
                if self._closing:
                    break
                turn = None
                if self._jobs:
                    job = self._jobs.pop(0)
                else:
                    job = None
                    utterance = self._queue.take()
                    if utterance is not None:
                        turn = self._turn = _Turn(utterance)
            if job is not None:
                job()
                with self._cond:
                    self._cond.notify_all()
                continue
            if turn is not None:
                self._speak(turn)
            with self._cond:
                self._queue.done()
                self._turn = None
                self._cond.notify_all()
        for backend in {id(b): b for b in (self.backend, self.private_backend) if b is not None}.values():
            backend.close()

    def _played(self, turn: _Turn, index: int) -> None:
        """A sentence of the turn's utterance was played to its end (a decisive fact in it is heard)."""
        with self._cond:
            if self._turn is turn:
                self._queue.sentence_played(index)

    def _began(self, turn: _Turn, index: int, seconds: float) -> None:
        """A sentence of the turn's utterance began to play, `seconds` long (a cut in its last words hears it)."""
        with self._cond:
            if self._turn is turn and self._queue.sentence_began(index, self.clock(), seconds):
                turn.trimmed = True  # other hands' words have waited behind what only explains

    def _speak(self, turn: _Turn) -> None:
        utterance = turn.utterance
        backend = self.backend
        if utterance.private and not backend.can_speak_privately():
            if self.private_backend is None:
                return  # hidden information with no headphones device: shown on screen, never said aloud
            backend = self.private_backend
        seated = self.seating
        sound = utterance.sound or self._sound(move_earcon(utterance, seated))  # a move that matters, without words
        utterance = replace(utterance, places=sentence_places(utterance, seated), sound=sound)
        try:
            if utterance.sound and not backend.plays_sounds and self.earcons is not None:
                # speech-dispatcher cannot play our sound files: the earcon's own player goes first, then the words
                self.earcons.play_and_wait(utterance.sound, utterance.private, turn.wanted)
                utterance = replace(utterance, sound="")
            if turn.wanted():
                backend.speak(
                    utterance,
                    turn.wanted,
                    turn.more,
                    lambda index: self._played(turn, index),
                    lambda index, seconds: self._began(turn, index, seconds),
                )
        except SpeechError as exc:
            self._failed(str(exc))
        except Exception as exc:  # the worker must survive anything an engine does
            self._failed(engine_unavailable(backend.name, f"{exc.__class__.__name__}: {exc}"))
