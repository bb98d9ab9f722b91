"""Speaking the session's replies, and the speech commands (stop, repeat, history, mute, private reading).

The app calls a `ReplySpeaker` with each reply it shows (`TableApp(..., speak=ReplySpeaker(service))`), so what
is shown and what is said come from the same place. A reply to a typed line or a scanned card is new input: what
is being said is cut off and what was still waiting is dropped, its decisive facts folded into the new reply, so
each key's own reply comes first. A reply that did not come from the player's own key (a move from another
player's device: `other()`) is said in turn, in the order recorded, with no backlog. Replies are said in the order
given, each with its earcon; braille cell echoes are navigation echo; camera cues are hints.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import assert_never

from assistant.core.language.reply import Reply, Source
from assistant.core.speech.placement import seat_of, seating
from assistant.core.speech.utterance import Priority, Utterance
from assistant.core.text import PLAIN, SentenceNames
from assistant.core.words.voice import (
    HISTORY_NEWEST,
    HISTORY_OLDEST,
    NOTHING_SAID_YET,
    PRIVATE_NO_DEVICE,
    PRIVATE_OFF,
    SPEECH_MUTED,
    SPEECH_STOPPED,
    SPEECH_UNMUTED,
    history_heading,
    private_on,
)
from assistant.speech.earcons import EARCONS
from assistant.speech.service import SpeechService

#: How many things the history command reads back.
HISTORY_READ = 5


class SaysByOrigin:
    """The speech as a front end (`FrontEnd`), for a speaker with the three ways to say a reply, one a source of
    replies (`Source`): her own key's as new input (`__call__`), a notice or an answer at once without making anything
    stale (`notice`), another hand's in turn at its seat (`other`). The real speaker and the tests' share it, so both
    choose alike."""

    def render(self, reply: Reply) -> None:
        """Say a reply as its origin asks (`Reply.origin`)."""
        match reply.origin.source:
            case Source.OWN_KEY | Source.DIGEST:
                self(reply)
            case Source.NOTICE | Source.AT_ONCE | Source.DISPLAY_BACK | Source.DISPLAY_LOST:
                self.notice(reply)
            case Source.OTHER_HAND:
                self.other(reply)
            case never:
                assert_never(never)

    def __call__(self, reply: Reply) -> None:
        raise NotImplementedError

    def notice(self, reply: Reply) -> None:
        raise NotImplementedError

    def other(self, reply: Reply) -> None:
        raise NotImplementedError


class ReplySpeaker(SaysByOrigin):
    """Turns replies into speech with the right priority, and runs the speech commands."""

    def __init__(
        self,
        service: SpeechService,
        private_device: str = "",
        *,
        placement: str = "seats",
        me: str = "",
        across: str = "right",
    ) -> None:
        self.service = service
        self.private_device = private_device
        self.placement, self.me, self.across = placement, me, across
        """Where other hands' words are heard (`SpeechSettings.placement`), the listener's name in games, and the
        side the player across is heard at."""
        self.players: Callable[[], tuple[str, ...]] = tuple
        """The players of the game in progress, in turn order (the front end sets it; none: no game)."""
        self.names: Callable[[], SentenceNames] = lambda: PLAIN
        """The game's names that change where a sentence ends (the front end sets it: `Session.sentence_names`)."""
        self.private = False
        """Private reading: card replies go only to the headphones device."""
        self.on_change: Callable[..., object] | None = None
        """Told a setting the speech keys changed (`muted=True`, `private=False`), to keep it for the next start."""
        self.asked = False
        """The last reply said left a question open: the next input answers it, so its question is not said
        again."""

    def __call__(self, reply: Reply) -> None:
        """Speak a reply to new input (`Source.OWN_KEY`: a line typed, a card scanned): what still waits is stale."""
        self._say(reply, Source.OWN_KEY)

    def notice(self, reply: Reply) -> None:
        """Speak a reply that is not an answer to new input (`Source.NOTICE`: the camera lost, a scanner notice):
        nothing waiting goes stale because of it."""
        self._say(reply, Source.NOTICE)

    def other(self, reply: Reply) -> None:
        """Speak a reply that did not come from the player's own key (`Source.OTHER_HAND`: a move from another
        player's device): said after the sentence being said, in the order recorded; an older one still waiting
        shrinks to its decisive fact, so the player is never more than one reply behind. One with no words to say
        is never queued: a phone's move whose words wait (`phone_desk.SPOKEN_EVERY`) still tells its move as a
        value, which the queue would otherwise fold into the next words, or one voice say at her pause, before the
        line the desk says it in; one voice sounds its earcon now (`SpeechService.known`)."""
        self._say(reply, Source.OTHER_HAND)

    def _say(self, reply: Reply, source: Source) -> None:
        """Speak a reply, whole (`Utterance.of_reply`), as its source asks: her own key's cuts what is said and
        makes what waits stale first; another hand's is said in turn, at that hand's seat (`Reply.hand`)."""
        card = reply.card
        private = self.private and (card is not None or reply.private)
        sound = reply.sound or ("card-read" if card is not None else "")
        if sound not in EARCONS:
            sound = ""
        if reply.hint:  # an aiming cue: its sound at once, its words only when nothing else is
            if sound and self.service.sounds_on:  # sounds off: the cue's own words say it
                self.service.earcon(sound, private=private)
            self.service.speak(Utterance.of_reply(reply, source, Priority.HINT, private=private))
            return
        players = self.players()
        self.service.seating = seating(players, self.me, self.placement, self.across)
        hand = None
        match source:
            case Source.OWN_KEY | Source.DIGEST:
                self.service.new_input(again=not (self.asked or reply.settles))
                self.asked = reply.pending is not None
            case Source.OTHER_HAND:
                hand = seat_of(players, reply.hand) if reply.hand else None
            case Source.NOTICE | Source.AT_ONCE | Source.DISPLAY_BACK | Source.DISPLAY_LOST:
                pass
            case never:
                assert_never(never)
        priority = Priority.IMPORTANT if reply.important or reply.facts else Priority.MESSAGE
        said = Utterance.of_reply(reply, source, priority, private=private, sound=sound, hand=hand, names=self.names())
        if source is Source.OTHER_HAND and not reply.speech:
            self.service.known(said)
        else:
            self.service.speak(said)

    @property
    def table_voice(self) -> bool:
        """Other hands' moves are said now in a voice of their own, the table voice (made, with a voice, and speech
        not muted), not in turn in hers: the plain mode beside her screen reader then leaves them unprinted, so each
        is heard once."""
        table = self.service.table
        return table is not None and table.speaks and not self.service.muted

    def attach(self, on_notice) -> None:
        """Send the service's notices not yet shown (a player that failed, even before the app was ready) and the
        later ones to `on_notice`, which only posts a message."""
        self.service.attach(on_notice)

    def close(self) -> None:
        """Stop speaking and end the service."""
        self.service.close()

    def echo(self, text: str) -> None:
        """Navigation echo (a braille cell typed, a mode changed): only the latest waiting one is said."""
        self.service.say(text, Priority.ECHO)

    def control(self, command: str) -> str:
        """Run a speech command; return the text to show (it is also said, except after "stop" and "mute")."""
        service = self.service
        # The review commands: the service's method, and what is said when it has nothing to say.
        reviews: dict[str, tuple[Callable[[], str], str]] = {
            "repeat": (service.repeat, NOTHING_SAID_YET),
            "back": (service.back, HISTORY_OLDEST),
            "forward": (service.forward, HISTORY_NEWEST),
        }
        if command == "stop":
            service.stop()
            return SPEECH_STOPPED
        if command == "history":
            said = service.recent(HISTORY_READ)  # said too, newest first, after a heading
            if said:
                return "\n".join([history_heading(len(said)), *said])
            sentence = NOTHING_SAID_YET
        elif command in reviews:
            review, nothing = reviews[command]
            reviewed = review()
            if reviewed:
                return reviewed  # shown too, for a braille display
            sentence = nothing
        elif command == "mute":
            if service.muted:
                service.muted = False
                self._changed(muted=False)
                sentence = SPEECH_UNMUTED
            else:
                service.muted = True
                self._changed(muted=True)
                return SPEECH_MUTED  # shown only: muted means silent
        elif command == "private":
            self.private = not self.private
            self._changed(private=self.private)
            if not self.private:
                sentence = PRIVATE_OFF
            elif self.private_device and service.private_backend is not None:
                sentence = private_on(self.private_device)
            else:
                sentence = PRIVATE_NO_DEVICE
        else:
            raise ValueError(f"unknown speech control {command}")
        service.interrupt(sentence, Priority.IMPORTANT)
        return sentence

    def retune(self, name: str, value: int) -> bool:
        """A voice's dial turned in the app (`rate 70`: "rate"; `table faster`: "table_rate"), for what that voice
        says next; whether the speech in use honours it (a screen reader keeps its own rate; no table voice)."""
        service = self.service.table if name.startswith("table_") else self.service
        if service is None:
            return False
        dial, private = name.removeprefix("table_"), service.private_backend  # (the headphones' voice is hers too)
        if private is not None and private is not service.backend:
            private.retune(dial, value)
        return service.backend.retune(dial, value)

    def _changed(self, **setting: object) -> None:
        if self.on_change is not None:
            self.on_change(**setting)
