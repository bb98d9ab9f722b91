"""A speaker without a voice for the app tests: what `assistant.ui.app.Speaker` asks of the real one."""

from __future__ import annotations

from collections.abc import Callable

from assistant.core.language.reply import Reply
from assistant.core.words.voice import NO_SPEECH_KEYS
from assistant.speech.replies import SaysByOrigin


class Heard(SaysByOrigin):
    """Every reply (notices too) goes to `hear`, each navigation echo to `echo`; the speech keys answer that there
    is no speech, as with none at all."""

    def __init__(
        self, hear: Callable[[Reply], object] | None = None, echo: Callable[[str], object] | None = None
    ) -> None:
        self.hear = hear
        self.echoed = echo

    def __call__(self, reply: Reply) -> None:
        if self.hear is not None:
            self.hear(reply)

    def notice(self, reply: Reply) -> None:
        self(reply)

    def other(self, reply: Reply) -> None:
        self(reply)

    def echo(self, text: str) -> None:
        if self.echoed is not None:
            self.echoed(text)

    def control(self, command: str) -> str:
        return NO_SPEECH_KEYS

    def attach(self, on_notice: Callable[[str], object]) -> None:
        pass
