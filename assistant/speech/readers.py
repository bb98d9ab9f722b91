"""Speaking through the player's own screen reader on Windows (NVDA, JAWS and the others) and macOS (VoiceOver).

Through accessible_output2 (an optional dependency, imported when the backend opens): one interface for the
Windows screen readers (NVDA's controller client, JAWS's COM API, System Access, Dolphin, ZDSR, PC-Talker) and
for VoiceOver; `docs/platforms.md` says why it was chosen over cytolk. Its system voices (SAPI5, NSSpeechSynthesizer,
eSpeak) are not screen readers and are never used here: the app's own voice (pyttsx3) does that job. On Linux the
screen readers (Orca, Speakup, Fenrir) speak through speech-dispatcher, so speaking through them is
`SpeechdBackend`.

A screen reader queues what it is given and says nothing of when it finished, so `speak()` hands the text over
and returns: the reader's own queue orders it, `cancel()` silences it. Earcons are not the reader's to play: the
service plays them with the sound player first (this backend does not `plays_sounds`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from assistant.core.speech.queue import Utterance
from assistant.core.words.voice import (
    NO_SCREEN_READER_ACTIVE,
    SCREEN_READER_LIBRARY_MISSING,
    engine_unavailable,
    speaking_through,
)
from assistant.speech.backends import Backend, BackendUnavailable, SpeechError

#: What the backend is called in a notice while it has no screen reader yet.
NAME = "the screen reader"


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


class ScreenReaderBackend(Backend):
    """Hands each utterance to the running screen reader."""

    name = NAME
    queues_itself = True

    def __init__(self, loader: Callable[[], list[Any]] = load_outputs) -> None:
        self.loader = loader
        """Where the outputs come from: accessible_output2 (tests pass outputs of their own)."""
        self._reader: Any = None

    def open(self) -> None:
        """Find the running screen reader; BackendUnavailable without the library or a screen reader."""
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
        try:
            self._reader.speak(utterance.text, interrupt=False)
        except Exception as exc:
            raise SpeechError(engine_unavailable(self.name, f"{exc.__class__.__name__}: {exc}")) from None

    def cancel(self) -> None:
        """Silence the screen reader (what it was saying for us, and anything else it was saying)."""
        if self._reader is not None:
            try:
                self._reader.silence()
            except Exception:  # an output without silence, or one that failed: nothing more can be done
                pass
