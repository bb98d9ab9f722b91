"""Speaking through the player's own screen reader on Windows (NVDA, JAWS and the others) and macOS (VoiceOver).

Through accessible_output2 (an optional dependency, imported when the backend opens): one interface for the
Windows screen readers (NVDA's controller client, JAWS's COM API, System Access, Dolphin, ZDSR, PC-Talker) and
for VoiceOver; `docs/platforms.md` says why it was chosen over cytolk. Its system voices (SAPI5, NSSpeechSynthesizer,
eSpeak) are not screen readers and are never used here: the app's own voice (pyttsx3) does that job. On Linux the
screen readers (Orca, Speakup, Fenrir) speak through speech-dispatcher, so speaking through them is
`SpeechdBackend`.

JAWS (and other Windows readers) are reached through COM, which must be initialised on every thread that calls
into it: the speech worker speaks, the app's thread silences. Each call into the reader first makes sure COM is
initialised on the calling thread (`com_initialiser`, once per thread, multithreaded so that a reader opened on one
thread may be silenced from another); elsewhere that does nothing.

A screen reader queues what it is given and says nothing of when it finished, so `speak()` hands the text over
and returns: the reader's own queue orders it, `cancel()` silences it. Another hand's move (in one voice, the table
voice turned off) is held as long as the reader takes to say it at a reader's usual rate, after what it was handed
before and has not yet said (her reply), so the moves after it wait in our queue, merged a player a sentence, and
never more than one waits in the reader's. Earcons are not the reader's to play: the service plays them with the
sound player first (this backend does not `plays_sounds`).
"""

from __future__ import annotations

import sys
import threading
import time
from collections.abc import Callable
from typing import Any

from assistant.core.speech.utterance import Utterance, reader_seconds
from assistant.core.words.voice import (
    NO_SCREEN_READER_ACTIVE,
    SCREEN_READER_LIBRARY_MISSING,
    engine_unavailable,
    speaking_through,
)
from assistant.speech.backends import Backend, BackendUnavailable, SpeechError

#: What the backend is called in a notice while it has no screen reader yet.
NAME = "the screen reader"


#: CoInitializeEx's flag for a multithreaded apartment.
COINIT_MULTITHREADED = 0x0


def com_initialiser(
    platform: str = sys.platform, co_initialize_ex: Callable[[Any, int], int] | None = None
) -> Callable[[], None]:
    """A function that initialises COM on the thread that calls it, the first time on each thread (on Windows;
    elsewhere it does nothing). `co_initialize_ex` stands for `ole32.CoInitializeEx` (tests). Its result is not
    checked: S_OK, S_FALSE (done already) and RPC_E_CHANGED_MODE (the thread chose its own apartment) all leave COM
    usable on that thread."""
    if platform != "win32":
        return lambda: None
    done = threading.local()

    def initialise() -> None:
        if getattr(done, "yes", False):
            return
        call = co_initialize_ex
        if call is None:
            import ctypes

            call = ctypes.windll.ole32.CoInitializeEx  # type: ignore[attr-defined]
        call(None, COINIT_MULTITHREADED)
        done.yes = True

    return initialise


def load_outputs() -> list[Any]:
    """accessible_output2's outputs that can load on this machine (ImportError when the library is missing)."""
    from accessible_output2.outputs.auto import Auto

    return list(Auto().outputs)


def active_reader(outputs: list[Any]) -> Any | None:
    """The first output that is a running screen reader (not a system voice such as SAPI5), or None."""
    for output in outputs:
        try:
            if not output.is_system_output() and output.is_active():
                return output
        except Exception:  # an output's probe of its screen reader failing means "not this one"
            continue
    return None


def running_reader_name(loader: Callable[[], list[Any]] = load_outputs) -> str:
    """The name of the screen reader that is running ("NVDA", "JAWS", "VoiceOver"), or "" (none, or no library)."""
    try:
        reader = active_reader(loader())
    except Exception:  # ImportError, or a library that cannot load its DLLs here: no screen reader to speak through
        return ""
    return str(reader.name) if reader is not None else ""


def _hold(seconds: float, wanted: Callable[[], bool]) -> None:
    """Wait `seconds`, or less when the utterance is no longer wanted (a key of hers, a stop)."""
    end = time.monotonic() + seconds
    while wanted() and time.monotonic() < end:
        time.sleep(0.02)


class ScreenReaderBackend(Backend):
    """Hands each utterance to the running screen reader."""

    name = NAME
    queues_itself = True

    def __init__(
        self,
        loader: Callable[[], list[Any]] = load_outputs,
        com: Callable[[], None] | None = None,
        hold: Callable[[float, Callable[[], bool]], None] | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.loader = loader
        """Where the outputs come from: accessible_output2 (tests pass outputs of their own)."""
        self.hold = hold or _hold
        """Waits the seconds given while the utterance is wanted (tests pass one on their own clock)."""
        self.com = com or com_initialiser()
        """Initialises COM on the calling thread (Windows), before each call into the reader."""
        self.clock = clock
        """The time in seconds (monotonic) the reader's progress is counted on (tests pass one their holds move)."""
        self._reader: Any = None
        self._free_at = 0.0
        """When the reader should have said all it was handed, at a reader's usual rate (0 once silenced)."""

    def open(self) -> None:
        """Find the running screen reader; BackendUnavailable without the library or a screen reader."""
        self.com()
        try:
            outputs = self.loader()
        except ImportError:
            raise BackendUnavailable(engine_unavailable(NAME, SCREEN_READER_LIBRARY_MISSING)) from None
        except Exception as exc:  # the library's own errors loading a screen reader's client
            raise BackendUnavailable(engine_unavailable(NAME, str(exc))) from None
        reader = active_reader(outputs)
        if reader is None:
            raise BackendUnavailable(engine_unavailable(NAME, NO_SCREEN_READER_ACTIVE))
        self._reader = reader
        self.name = str(reader.name)

    def describe(self) -> str:
        """ "Speech: through NVDA." """
        return speaking_through(self.name)

    def speak(
        self,
        utterance: Utterance,
        wanted: Callable[[], bool],
        more: Callable[[], bool] = lambda: True,
        finished: Callable[[int], None] = lambda index: None,
        began: Callable[[int, float], None] = lambda index, seconds: None,
    ) -> None:
        """Give the text to the screen reader, which says it after what it is saying."""
        if not utterance.text or not wanted():
            return
        self.com()
        try:
            self._reader.speak(utterance.text, interrupt=False)
        except Exception as exc:
            raise SpeechError(engine_unavailable(self.name, f"{exc.__class__.__name__}: {exc}")) from None
        now = self.clock()
        ahead = max(0.0, self._free_at - now)  # what the reader still has to say before this: her reply, say
        self._free_at = now + ahead + reader_seconds(utterance.text)
        if not utterance.other:
            return
        # (one voice) held while the reader says what was ahead of it and then it, the next moves merging here
        # meanwhile: a sentence at a time, each told begun and, once the reader should have said it, heard; a key of
        # hers that silences the reader then keeps only the sentences not yet heard (a long digest cut again and again
        # went back to its start; a move handed behind her reply was counted heard while the reader still said it)
        if ahead:
            self.hold(ahead, wanted)
            if not wanted():
                return
        for index, sentence in enumerate(utterance.split()):
            seconds = reader_seconds(sentence)
            began(index, seconds)
            self.hold(seconds, wanted)
            if not wanted():
                return
            finished(index)

    def cancel(self) -> None:
        """Silence the screen reader (what it was saying for us, and anything else it was saying)."""
        self._free_at = 0.0
        if self._reader is not None:
            try:
                self.com()
                self._reader.silence()
            except Exception:  # an output without silence, or one that failed: nothing more can be done
                pass
