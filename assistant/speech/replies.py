"""Speaking the session's replies, and the speech keys of the app (stop, repeat, history, mute, private reading).

The app calls a `ReplySpeaker` with each reply it shows (`TableApp(..., speak=ReplySpeaker(service))`), so what
is shown and what is said come from the same place. A card reply interrupts whatever was being read ("stop, here
is the next card"); important replies are never dropped; braille cell echoes are navigation echo.
"""

from __future__ import annotations

from assistant.core import words
from assistant.core.speechqueue import Priority
from assistant.speech.earcons import EARCONS
from assistant.speech.service import SpeechService

#: The speech commands the app's keys send to `ReplySpeaker.control`.
CONTROLS = ("stop", "repeat", "back", "forward", "mute", "private")


class ReplySpeaker:
    """Turns replies into speech with the right priority, and runs the speech keys."""

    def __init__(self, service: SpeechService, private_device: str = "") -> None:
        self.service = service
        self.private_device = private_device
        self.private = False
        """Private reading: card replies go only to the headphones device."""

    def __call__(self, reply) -> None:
        """Speak a reply (`assistant.session.Reply`)."""
        card = getattr(reply, "card", None)
        private = bool(getattr(reply, "private", False)) or (self.private and card is not None)
        sound = getattr(reply, "sound", "")  # a reply may name its earcon; a card reply is "card read"
        if sound in EARCONS:
            self.service.earcon(sound, private=private)
        if card is not None:
            if not sound:
                self.service.earcon("card-read", private=private)
            self.service.interrupt(reply.speech, private=private)
        elif reply.important:
            self.service.say(reply.speech, Priority.IMPORTANT, private=private)
        elif getattr(reply, "hint", False):  # an aiming cue from the camera: said only when nothing else is
            self.service.say(reply.speech, Priority.HINT, private=private)
        else:
            self.service.say(reply.speech, Priority.MESSAGE, private=private)

    def attach(self, on_notice) -> None:
        """Send the service's later notices (a player that failed) to `on_notice`, which only posts a message."""
        self.service.on_notice = on_notice

    def close(self) -> None:
        """Stop speaking and end the service."""
        self.service.close()

    def echo(self, text: str) -> None:
        """Navigation echo (a braille cell typed, a mode changed): only the latest waiting one is said."""
        self.service.say(text, Priority.ECHO)

    def control(self, command: str) -> str:
        """Run a speech key; return the sentence to show (it is also said, except "stop")."""
        service = self.service
        if command == "stop":
            service.stop()
            return words.SPEECH_STOPPED
        if command in ("repeat", "back", "forward"):
            said = getattr(service, command)()
            if said:
                return said  # shown too, for a braille display
            sentence = {"repeat": words.NOTHING_SAID_YET, "back": words.HISTORY_OLDEST,
                        "forward": words.HISTORY_NEWEST}[command]  # fmt: skip
        elif command == "mute":
            if service.muted:
                service.muted = False
                sentence = words.SPEECH_UNMUTED
            else:
                service.muted = True
                return words.SPEECH_MUTED  # shown only: muted means silent
        elif command == "private":
            self.private = not self.private
            if not self.private:
                sentence = words.PRIVATE_OFF
            elif self.private_device and service.private_backend is not None:
                sentence = words.private_on(self.private_device)
            else:
                sentence = words.PRIVATE_NO_DEVICE
        else:
            raise ValueError(f"unknown speech control {command}")
        service.interrupt(sentence, Priority.IMPORTANT)
        return sentence
