"""The speech worker (`SpeechWorker`): the one thread that opens the engine and speaks, and the one lock over what it
shares with the app's thread: the speech queue (`assistant/core/speech/queue.py`), the utterance being said and the
jobs waiting for the engine.

Every decision of the queue is taken under that lock and marked on the utterance being said in the same step
(`_mark`): later, the worker may already be saying the next utterance, which the mark would cut. The app's thread
only holds the lock for a few microseconds; the worker renders and plays outside it.
"""

from __future__ import annotations

import sys
import threading
from collections.abc import Callable, Sequence
from dataclasses import replace
from pathlib import Path
from typing import TypeVar

from assistant.core.game.about import About
from assistant.core.speech.placement import Seating, move_earcon, moves_of, sentence_place, sentence_places
from assistant.core.speech.queue import Cut, SaidHistory, SpeechQueue
from assistant.core.speech.utterance import Utterance, reader_may_take
from assistant.core.words.voice import ENGINE_TOO_SLOW, engine_unavailable, speech_cannot_render
from assistant.speech.backends import Backend, BackendUnavailable, SilentBackend, SpeechError
from assistant.speech.earcons import EARCONS, EarconChannel
from assistant.speech.notices import Notices

T = TypeVar("T")

#: How many moves whose earcon was heard when they were made are remembered (`SpeechWorker.sounded`): more than a
#: round of moves can wait for their words.
SOUNDED_KEPT = 64

#: Seconds the worker may keep the interpreter while the app's thread waits for it (`sys.setswitchinterval`).
SWITCH_INTERVAL = 0.001


#: The longest the worker sleeps while words are held to her pause before it reads the clock again (`clock` may be
#: a test's, moved on by hand).
PAUSE_POLL_S = 0.25


def kept_sound(name: str, earcons: EarconChannel | None) -> str:
    """The earcon to keep with an utterance: none when sounds are off (`earcons` None: the words carry the message).
    ValueError for a name that is no earcon."""
    if name and name not in EARCONS:
        raise ValueError(f"unknown earcon {name}")
    return name if earcons is not None else ""


class _Turn:
    """The utterance the worker is saying, and what was decided about it meanwhile (under the worker's lock)."""

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


class SpeechWorker:
    """The speech thread and its lock: it opens the first backend that works, then says what the queue gives it; the
    app's thread changes the queue through the calls below, each under the lock, and never waits for the engine."""

    def __init__(
        self,
        candidates: Sequence[Backend],
        private_candidate: Backend | None,
        *,
        earcons: EarconChannel | None,
        notices: Notices,
        clock: Callable[[], float],
        on_outage: Callable[[str, bool], None],
    ) -> None:
        """Start the thread. `on_outage(sentence, back)`: speech-dispatcher lost mid-game or back."""
        self.clock = clock
        self.earcons = earcons
        self.notices = notices
        self._candidates, self._private_candidate = list(candidates), private_candidate
        self._on_outage = on_outage
        self.backend: Backend = SilentBackend()
        self.private_backend: Backend | None = None
        """Where private utterances go when the main backend cannot reach a headphones device."""
        self.described = ""
        """The sentence naming the engine chosen (and its player), said only on request (`about`)."""
        self.seating: Seating | None = None
        """The players around the table and the listener, where another hand's words are heard."""
        self.sounded: dict[About, None] = {}
        """The last `SOUNDED_KEPT` moves of other hands whose earcon was heard when they were made (`known_at_once`),
        oldest first: never sounded again with their words."""
        self.queue = SpeechQueue()
        """What waits, what is said, the history: read and changed only under `cond`."""
        self.cond = threading.Condition()
        self._turn: _Turn | None = None
        self._asked_until = 0.0
        """Until when (`clock`) a screen reader that queues what it is given (`Backend.queues_itself`) may still be
        saying the table's question in the last reply of hers handed to it (`reader_may_take`); 0: none."""
        self._behind_question: list[Utterance] = []
        """Other hands' utterances handed to such a reader after that reply while it may still be saying its question
        (one voice): a silence that stops the question stops them too, so they are handed again (`reader_closed_by`)."""
        self._silence_reader = False
        """Such a reader is to be silenced before anything more is handed to it (`reader_closed_by`): done on this
        thread, the one that hands, so nothing handed after the silence is cut by it."""
        self._jobs: list[Callable[[], None]] = []
        self._closing = False
        self._reasons: list[str] = []
        self.ready = threading.Event()
        """Set once the worker has chosen its backend."""
        # The worker runs Python code while it renders (the engine's callbacks, the WAV files); a thread that
        # wants the interpreter waits until the holder lets go, at most the switch interval (5 ms by default).
        # At 1 ms, a call from the app's thread is never held more than about that.
        sys.setswitchinterval(min(sys.getswitchinterval(), SWITCH_INTERVAL))
        self.thread = threading.Thread(target=self._run, name="speech", daemon=True)
        self.thread.start()

    # The app's thread: each call takes the lock briefly.

    def decide(self, step: Callable[[SpeechQueue], Cut]) -> Cut:
        """Take a decision of the queue (`step`) and mark it on the utterance being said, under the lock; then cut
        off the backends when it cuts now. Return the decision."""
        with self.cond:
            cut = step(self.queue)
            cut_now = self._mark(cut)
            self.cond.notify_all()
        if cut_now:
            self.cancel_backends()
        return cut

    def locked(self, step: Callable[[SpeechQueue], T]) -> T:
        """Read or change the queue (`step`) under the lock, then wake the worker: what it returns."""
        with self.cond:
            found = step(self.queue)
            self.cond.notify_all()
        return found

    def add(self, utterance: Utterance, *, arriving: bool = False) -> bool:
        """Queue an utterance, and write it to the transcript: the player's own at the end (`SpeechQueue.add`), or
        another hand's in turn (`arriving`: `SpeechQueue.arrive`), decided and marked on the turn being said at once
        (the worker may take the new one next). Return whether it will be said."""
        cut_now = False
        with self.cond:
            if arriving:
                cut_now = self._mark(self.queue.arrive(utterance, self.clock()))
                accepted = self.queue.busy
            else:
                accepted = self.queue.add(utterance)
            self.cond.notify_all()
        self.write(utterance)
        if cut_now:
            self.cancel_backends()
        return accepted

    def hold(self, utterance: Utterance) -> bool:
        """Another hand's reply held to her pause where one voice does so (`SpeechQueue.holds`), written to the
        transcript; the worker wakes at her pause to say it. A question of hers its move closed is closed now, its
        words held or not (`SpeechQueue.closed_by`). Return whether it was held."""
        held = False

        def holding(queue: SpeechQueue) -> Cut:
            nonlocal held
            held = queue.holds(utterance, self.clock())
            return queue.closed_by(utterance) if held else Cut.NONE

        self.decide(holding)
        if held:
            self.write(utterance)
            self.known_at_once(utterance)
        return held

    def known_at_once(self, utterance: Utterance) -> None:
        """Another hand's moves whose words come later (held to her pause, or a phone's whose words wait for its
        line: `phone_desk.SPOKEN_EVERY`), known now: their earcon (`placement.move_earcon`, else the short tick of
        a move of no earcon of its own) at its player's seat, over her words if need be; once a move (`sounded`),
        never again with its words."""
        earcons = self.earcons
        if earcons is None or self.queue.muted:
            return  # (sounds off: its words carry it)
        if earcons.one_at_a_time and self.queue.current is not None:
            return  # (one sound at a time: an earcon now would cut her words; its words carry it)
        seating = self.seating
        with self.cond:
            name = move_earcon(utterance, seating, self.sounded)
            fresh = [move for move in moves_of(utterance) if move not in self.sounded]
            self.sounded.update(dict.fromkeys(fresh))
            while len(self.sounded) > SOUNDED_KEPT:
                del self.sounded[next(iter(self.sounded))]
        if fresh:
            earcons.play(name or "move", utterance.private, sentence_place(utterance, seating))

    def handed_on(self, utterance: Utterance) -> None:
        """Another hand's utterance said by the table voice: kept in this one's history (for `repeat`); a question
        of hers it closed is not said (`SpeechQueue.closed_by`). A screen reader that queues what it is given (NVDA,
        VoiceOver) was handed her reply whole, question and all: when it may still be saying it, it is silenced
        (it holds nothing else of ours: other hands' words are the table voice's)."""

        def closing(queue: SpeechQueue) -> Cut:
            queue.said.remember(utterance)
            return queue.closed_by(utterance)

        self.decide(closing)
        with self.cond:
            asked = self._question_closed(utterance)
        if asked:
            self.cancel_backends()
        self.write(utterance)

    def reader_closed_by(self, utterance: Utterance) -> None:
        """One voice: another hand's utterance arriving (to be said in turn, or held to her pause) closes the table's
        question of her last reply when it records a move. A screen reader that queues what it is given was handed
        that reply whole, and may hold after it other hands' words handed since (in turn, or at her pause; her own
        later replies silence it first): while it may still be saying the question (`reader_may_take`), it is
        silenced, and those words are queued first again, without the question (`SpeechQueue.handed_again`), the one
        it is being handed cut: never lost, never handed twice. The worker's thread silences it before it hands
        anything more."""
        with self.cond:
            if not (self.backend.queues_itself and self._question_closed(utterance)):
                return
            behind, self._behind_question = self._behind_question, []
            turn = self._turn
            if turn is not None and any(turn.utterance is handed for handed in behind):
                turn.cut = True  # (its hold ends: it is handed again)
            self.queue.handed_again(behind)
            self._silence_reader = True
            self.cond.notify_all()

    def _question_closed(self, utterance: Utterance) -> bool:
        """Under the lock: whether another hand's utterance closes the question a screen reader that queues what it is
        given may still be saying (it records a move, before `_asked_until`); if so, the reader no longer holds it."""
        if not (utterance.tells or utterance.facts) or self.clock() >= self._asked_until:
            return False
        self._asked_until = 0.0
        return True

    def interrupt_with(self, utterances: list[Utterance]) -> None:
        """The player's new input (what is said cut off, what waits dropped), then the utterances queued, in that
        order: the cut can only ever reach the old one."""
        self.decide(SpeechQueue.new_input)
        with self.cond:
            for utterance in utterances:
                self.queue.add(utterance)
            self.cond.notify_all()
        for utterance in utterances:
            self.write(utterance)

    def review(self, step: Callable[[SaidHistory], Utterance | None]) -> str:
        """Say again what a step through the history gives (`SaidHistory.repeat`, `back`, `forward`) in place of
        what is being said; return its words ("" when the step gives nothing)."""
        with self.cond:
            utterance = step(self.queue.said)
        if utterance is None:
            return ""
        self.interrupt_with([utterance])
        return utterance.text

    def stop(self) -> None:
        """Drop everything waiting and cut off what is being said (and what a screen reader still says for us)."""
        with self.cond:
            cut = self.queue.stop() and self._mark(Cut.NOW)
        if cut or self.backend.queues_itself:  # a screen reader may still be saying what it was given
            self.cancel_backends()

    def seat(self, seating: Seating | None) -> None:
        """The players around the table and the listener, from now on (her seat told to the queue)."""
        self.seating = seating
        with self.cond:
            self.queue.listener = seating.listener if seating is not None else None

    def write(self, utterance: Utterance) -> None:
        """Write an utterance to the transcript, marked muted, silent, private, repeat, its sound."""
        silent = self.ready.is_set() and isinstance(self.backend, SilentBackend)
        self.notices.write(utterance, muted=self.queue.muted, silent=silent)

    def silence_reader(self) -> None:
        """Silence a screen reader that queues what it is given: what it still says for us is stale (her new key)."""
        with self.cond:
            self._behind_question = []
        self.backend.cancel()

    def cancel_backends(self) -> None:
        """Cut off what the backends and the earcons are saying now."""
        with self.cond:
            self._behind_question = []  # (a screen reader holds nothing of ours now)
        self.backend.cancel()
        if self.private_backend is not None and self.private_backend is not self.backend:
            self.private_backend.cancel()
        if self.earcons is not None:
            self.earcons.stop_waiting()

    def render(self, text: str, path: Path, timeout: float) -> None:
        """Write `text` as a WAV file with the engine this thread owns, between two utterances; SpeechError when it
        cannot, or takes more than `timeout` seconds."""
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

        with self.cond:
            self._jobs.append(job)
            self.cond.notify_all()
        if not finished.wait(timeout):
            raise SpeechError(engine_unavailable(self.backend.name, ENGINE_TOO_SLOW))
        if failure:
            raise SpeechError(failure[0])

    def wait_idle(self, timeout: float) -> bool:
        """Block until nothing is being said, waiting, held to her pause or rendering (at most `timeout` seconds);
        whether so."""
        with self.cond:
            return self.cond.wait_for(
                lambda: not (self.queue.busy or self.queue.held or self._jobs or self._silence_reader), timeout
            )

    def close(self) -> None:
        """Stop speaking, end the thread (at most 2 s) and close the backends it opened."""
        with self.cond:
            self._closing = True
            cut = self.queue.stop() and self._mark(Cut.NOW)
            self.cond.notify_all()
        if cut:
            self.cancel_backends()
        self.thread.join(timeout=2.0)

    def _mark(self, cut: Cut) -> bool:
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

    # The worker's thread: the backend chosen, then each utterance said.

    def _open(self, candidate: Backend) -> bool:
        candidate.on_notice = self.notices.failed
        candidate.on_outage = self._on_outage  # lost and back mid-game: the loss said by the table voice
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
        # silence is said; an engine is named only on request
        self.notices.named(self.described, speaks=not isinstance(chosen, SilentBackend))
        self.ready.set()

    def _run(self) -> None:
        try:
            self._choose_backend()
        finally:
            self.ready.set()
        while True:
            with self.cond:
                while not (
                    self._closing
                    or self._silence_reader
                    or self._jobs
                    or self.queue.waiting
                    or self.queue.pause(self.clock())
                ):
                    due = self.queue.due_at()  # (words held to her pause: re-read the clock, which may be a test's)
                    self.cond.wait(None if due is None else min(max(due - self.clock(), 0.0), PAUSE_POLL_S))
                if self._closing:
                    break
                silence, self._silence_reader = self._silence_reader, False
                turn = None
                if self._jobs:
                    job = self._jobs.pop(0)
                else:
                    job = None
                    utterance = self.queue.take()
                    if utterance is not None:
                        turn = self._turn = _Turn(utterance)
            if silence:  # (a question closed: what it holds of ours after the question was queued again)
                self.cancel_backends()
            if job is not None:
                job()
                with self.cond:
                    self.cond.notify_all()
                continue
            if turn is not None:
                self._speak(turn)
            with self.cond:
                self.queue.done()
                self._turn = None
                self.cond.notify_all()
        for backend in {id(b): b for b in (self.backend, self.private_backend) if b is not None}.values():
            backend.close()

    def _handing(self, turn: _Turn) -> None:
        """The turn's utterance is handed to a screen reader that queues what it is given (said whole, at its own
        pace): a question closed meanwhile silences it first (`reader_closed_by`); a reply of hers is the last the
        reader may still be asking the table's question in, until `_asked_until`; another hand's, handed while it
        may, is kept in `_behind_question`."""
        with self.cond:
            silence, self._silence_reader = self._silence_reader, False
        if silence:
            self.cancel_backends()
        utterance = turn.utterance
        with self.cond:
            if not utterance.other:
                asks = utterance.asks_from() is not None
                self._asked_until = self.clock() + reader_may_take(utterance.text) if asks else 0.0
                self._behind_question = []
            elif turn.wanted() and self.clock() < self._asked_until:
                if not any(handed is utterance for handed in self._behind_question):
                    self._behind_question.append(utterance)

    def _played(self, turn: _Turn, index: int) -> None:
        """A sentence of the turn's utterance was played to its end (a decisive fact in it is heard)."""
        with self.cond:
            if self._turn is turn:
                self.queue.sentence_played(index)

    def _began(self, turn: _Turn, index: int, seconds: float) -> None:
        """A sentence of the turn's utterance begins to play, `seconds` long (a cut in its last words hears it);
        nothing of a turn already cut off."""
        with self.cond:
            if self._turn is turn and turn.wanted() and self.queue.sentence_began(index, self.clock(), seconds):
                turn.trimmed = True  # other hands' words have waited behind what only explains

    def _speak(self, turn: _Turn) -> None:
        utterance = turn.utterance
        backend = self.backend
        if utterance.private and not backend.can_speak_privately():
            if self.private_backend is None:
                return  # hidden information with no headphones device: shown on screen, never said aloud
            backend = self.private_backend
        seated = self.seating
        # a move that matters, without words
        sound = utterance.sound or kept_sound(move_earcon(utterance, seated, self.sounded), self.earcons)
        utterance = replace(utterance, places=sentence_places(utterance, seated), sound=sound)
        try:
            first = 0  # the sentence the words given to the backend begin with
            if utterance.sound and not backend.plays_sounds and self.earcons is not None:
                # speech-dispatcher cannot play our sound files: the earcon's own player goes just before the
                # sentence it goes with (`Utterance.sound_at`: the turn's with the turn's end), the words around it
                first = min(utterance.sound_at(), max(len(utterance.split()) - 1, 0))
                if first:
                    before, utterance = utterance.parted(first)
                    self._say(backend, turn, before, 0)
                    if not (turn.wanted() and turn.more()):
                        return
                self.earcons.play_and_wait(utterance.sound, utterance.private, turn.wanted)
                utterance = replace(utterance, sound="")
            self._say(backend, turn, utterance, first)
        except SpeechError as exc:
            self.notices.failed(str(exc))
        except Exception as exc:  # the worker must survive anything an engine does
            self.notices.failed(engine_unavailable(backend.name, f"{exc.__class__.__name__}: {exc}"))

    def _say(self, backend: Backend, turn: _Turn, utterance: Utterance, first: int) -> None:
        """Give the backend an utterance's words (its sentences from `first` on): each sentence's start and end
        told to the queue by its index in the whole utterance."""
        if backend.queues_itself:
            self._handing(turn)
        if turn.wanted():
            backend.speak(
                utterance,
                turn.wanted,
                turn.more,
                lambda index: self._played(turn, first + index),
                lambda index, seconds: self._began(turn, first + index, seconds),
            )
