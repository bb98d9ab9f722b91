"""The session's phones and their questions: a move, an answer or a request to join from a phone on the shared
table, and the host's answer to a phone that waits.

`PhoneDesk` carries these out for the `Session` that holds it (`assistant/session.py`) through the game's
conversation, as a typed line would be, with each phone's own open question (`DeviceTalk`); what it reads and sets
on the session (`PhoneHolder`) is the game and its cards, the keyboard's open question and where the laptop's reply
is kept.
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Callable
from typing import Protocol

from assistant.core.cards.card import CardSet
from assistant.core.game.about import Topic
from assistant.core.game.events import Event
from assistant.core.game.history import Game
from assistant.core.game.segment import Channel, Segment, facts_of
from assistant.core.language.device import DeviceAnswer, DeviceJoined, DeviceMove, DeviceOutcome
from assistant.core.language.device_talk import DeviceTalk
from assistant.core.language.lobby import Lobby
from assistant.core.language.reply import Origin, Pending, Reply
from assistant.core.text import clean_untrusted
from assistant.core.words.cardtext import card_lines
from assistant.core.words.pace import merge_said
from assistant.core.words.share import (
    UNKNOWN_CARD,
    new_phone_waits,
    no_phone_waits,
    phone_name,
    phones_wait_for,
    recorded_from,
)

__all__ = ["SPOKEN_EVERY", "PhoneDesk", "PhoneHolder"]

#: Seconds between two lines a player's phones put into her speech (the one rule every route consults: her speech,
#: the table voice, one voice, plain mode's voice all say the replies the desk gives them). A reply within them is
#: shown at once (on the screen, a braille display, the phones, kept for `history` and `missed`) and not said then:
#: one that records nothing (out-of-turn moves, each "Ben's phone is asked whether to record it anyway.": 4 lines in
#: a second) is not said at all, save its decisive facts; the words of a move recorded (or taken back while it
#: waited) wait, merged with the player's other moves that come meanwhile (`words.pace.merge_said`: "Ben drew a card
#: and discarded Rainbow Aura."), and are said as one line once the seconds are up (`say_held`, on the front ends'
#: timer), or first in the next line said sooner. A question put to her, a win, a turn that begins and a question to
#: the table ("Neigh?") are never delayed: said at once, what waited first. A phone's taps 3 s apart or more are each
#: said at once.
SPOKEN_EVERY = 3.0
#: The outcomes of a phone's move whose words wait to be said when they come too soon: a move recorded, or one taken
#: back before she answered it (the table hears every move).
_ALWAYS_SAID = frozenset({"recorded", "withdrawn"})
#: The decisive facts that are never delayed: a win, a turn that begins (hers among them), a question the table is
#: asked ("Any Neigh for Ben's Rainbow Aura?").
_AT_ONCE = frozenset({Topic.WIN, Topic.TURN, Topic.QUESTION})


class PhoneHolder(Protocol):
    """What the phone desk reads and sets on the session that holds it (`Session`)."""

    pending: Pending | None
    """The keyboard's open question."""

    @property
    def cards(self) -> CardSet:
        """The session's cards (a phone reads a card from them when no game is in progress)."""

    @property
    def lobby(self) -> Lobby:
        """The lobby, whose conversation carries out the phones' moves."""

    @property
    def game(self) -> Game | None:
        """The game in progress, or None."""

    def keep_said(self, reply: Reply) -> Reply:
        """Keep an answer for `repeat` and `history`; then return it."""

    def keep_heard(self, reply: Reply, at: int) -> None:
        """Keep a reply to a phone for `repeat` and `history`, and what it tells for `missed`, at `at` in the log."""


class PhoneDesk:
    """The phones' moves, answers and requests to join, for the session that holds it."""

    def __init__(self, session: PhoneHolder, clock: Callable[[], float] = time.monotonic) -> None:
        self.session = session
        self.devices = DeviceTalk(lambda: session.lobby.talk, host_busy=lambda: session.pending is not None)
        """Moves from devices (phones on the shared table), each device with its own open question."""
        self._asked_again: set[str] = set()
        """The phones waiting to join (by short name) whose question a typed line passed over and was asked again
        after its reply: once; after that the question stays open unsaid (yes or no still answers it, `share` says
        who waits), so that her replies do not all end with it."""
        self.clock = clock
        """The time the replies said for each player's phones are spaced by (`SPOKEN_EVERY`), in seconds."""
        self._spoke: dict[tuple[str, bool], float] = {}
        """When a reply to each player's phones was last said: to the phones let in (False), to those asking to join
        (True), each spaced apart (`SPOKEN_EVERY`): a phone asking to join never delays the moves of one let in."""
        self._held: dict[str, list[_Held]] = {}
        """The spoken words of moves of each player's phones that came within `SPOKEN_EVERY` of the last line said for
        them, in the order recorded: said merged, as one line (`say_held`), or first in the next line said; those of
        a move undone meanwhile never (`_Held.stands`)."""
        self._held_in: dict[str, Game | None] = {}
        """The game each player's held words are of (held, not its `id`: a new game may be made where a freed one
        was): another game's are never said (`_take_held`)."""

    def device_move(self, player: str, move: DeviceMove) -> DeviceOutcome:
        """Carry out a move from `player`'s device through the game's conversation, as a typed line would be; the
        keyboard's open question stays open. The laptop's reply (if any) is kept for `repeat` and `history`. Reading
        a card is the phone's alone: its full text as the laptop says it, and nothing said or kept on the laptop."""
        if move.verb == "read":
            return self._card_text(move.card or "")
        on_laptop = self.devices.laptop
        outcome = self._device_said(player, self.devices.move(player, move))
        # a save the host is asked (the laptop asks it only when it asks nothing else: `DeviceTalk.host_busy`)
        if outcome.reply is not None and outcome.reply.pending is not None:
            self.session.pending = outcome.reply.pending
        if outcome.status == "withdrawn" and on_laptop is not None and self.session.pending is on_laptop.question:
            self.session.pending = None  # the move it asked about was taken back: closed, and the next one asked
            outcome = dataclasses.replace(outcome, reply=self.ask_again(outcome.reply))
        return outcome

    def asking(self) -> Reply | None:
        """The laptop's question that another hand's move waits on (a save a phone's move offered her), as it was
        asked, for `missed` to say where that move stands; None when the laptop asks none."""
        laptop = self.devices.laptop
        return laptop.reply if laptop is not None else None

    def _card_text(self, card_id: str) -> DeviceOutcome:
        """A card's text for a phone (`CardDesk.card_reply`'s lines), from the game's decks (the session's, with no
        game)."""
        game = self.session.game
        cards = game.table.cards if game is not None else self.session.cards
        card = cards.get(card_id)
        if card is None:
            return DeviceOutcome("refused", (UNKNOWN_CARD,))
        return DeviceOutcome("text", tuple(card_lines(card, cards.vocabulary, cards.copies_known(card))))

    def device_answer(
        self, player: str, question: str, yes: bool, device: int = 1, phones: int = 1, phoned: tuple[str, ...] = ()
    ) -> DeviceOutcome:
        """A device's yes or no to its own open question (a warned move, a save of its player's card)."""
        answer = DeviceAnswer(question, yes, device, phones, phoned)
        return self._device_said(player, self.devices.answer(player, answer))

    def device_joined(self, player: str, joined: DeviceJoined) -> DeviceOutcome:
        """A phone asks to join as `player`: the host is asked, one question at a time. It is the keyboard's question
        when none is open and no other phone waits (it never replaces one); else the laptop says how to answer it
        (`share allow`), and it is asked once the phones before it are answered."""
        waiting_before = self.devices.waiting()
        outcome = self.devices.join(player, joined)
        if outcome.reply is not None and outcome.reply.pending is not None:
            if self.session.pending is None and not waiting_before:
                self.session.pending = outcome.reply.pending
            else:
                rivals = self.devices.rivals(joined.tag or player)
                said = new_phone_waits(player, joined.tag, rivals)
                outcome = dataclasses.replace(outcome, reply=Reply.of(said, important=True))
        return self._device_said(player, outcome, joining=True)

    def next_due(self) -> tuple[str, float] | None:
        """The player whose phones' held words (`say_held`) are due first, and in how many seconds of the desk's
        clock (0 when due now); None when no words wait."""
        now = self.clock()
        due = [(player, max(0.0, self._spoke.get((player, False), now) + SPOKEN_EVERY - now)) for player in self._held]
        return min(due, key=lambda one: one[1], default=None)

    def say_held(self, player: str) -> DeviceOutcome:
        """The words of the moves of `player`'s phones that waited (`SPOKEN_EVERY`), merged, as one line said at the
        player's seat and shown nowhere (each was shown in its time, and kept for `history` and `missed`); a reply of
        None while none wait or they are not yet due."""
        now, last = self.clock(), self._spoke.get((player, False))
        if player not in self._held or (last is not None and 0 <= now - last < SPOKEN_EVERY):
            return DeviceOutcome("said", ())
        held = self._take_held(player)
        if not held:
            return DeviceOutcome("said", ())
        self._spoke[player, False] = now
        reply = Reply(segments=held).coming(Origin.other_hand(player))
        return DeviceOutcome("said", (), reply)

    def decide_join(self, player: str, allow: bool) -> Reply:
        """`share allow` or `share refuse` (NAME, a phone's short name, or "" for the phone that has waited
        longest): the host's answer, and the next phone that waits asked about (the keyboard's question now), or a
        save that waited. Where several phones wait for the player, a player's name (or nothing) answers none: she
        is told to answer by the short name the player's own phone shows."""
        devices = self.devices
        waiting = devices.waiting()
        wanted = player.casefold()
        name = next((k for k in waiting if wanted in ("", k, devices.player_of(k).casefold())), None)
        if name is None:
            return Reply.of(no_phone_waits(clean_untrusted(player, 30)))
        rivals = devices.rivals(name)
        if rivals and wanted != name:  # which of them is the player's is not for her to guess
            return Reply.of(phones_wait_for(devices.player_of(name), (name, *rivals)))
        if self.devices.asks_about_joining(self.session.pending):
            self.session.pending = None  # answered another way: a later yes answers nothing it did not ask
        reply = self.devices.decide(name, allow)
        if reply.pending is not None:
            self.session.pending = reply.pending
        reply = self.ask_again(reply)  # a save of a laptop player's card that waited behind the question
        self.session.keep_said(reply)
        return reply

    def refuse_all(self) -> Reply:
        """`share refuse all`: every phone that waits to join kept out at once; the laptop's question about one, if
        open, is closed with them, and a save that waited behind it is asked."""
        if self.devices.asks_about_joining(self.session.pending):
            self.session.pending = None
        reply = self.ask_again(self.devices.refuse_all())
        self.session.keep_said(reply)
        return reply

    def ask_again(self, reply: Reply) -> Reply:
        """A typed line's answer, followed, once the keyboard asks nothing, by the question that waited behind the
        one it answered: first a save of a laptop player's card that a phone's move offered meanwhile (hers to
        answer, on the laptop), then the host's question about a phone that waits to join when a typed command
        passed that question over (no question is lost: the phone would otherwise wait in silence), said once a
        phone; after that it is open and unsaid, so that not every reply ends with it."""
        if self.session.pending is not None or reply.pending is not None:
            return reply
        saved = self.devices.next_host_save()
        if saved is not None:
            mover, outcome = saved
            said = self._for_laptop(mover, outcome)[0].reply
            if said is None:
                return reply
            self.session.pending = said.pending
            return _joined(reply, said)
        waiting = self.devices.waiting()
        self._asked_again &= set(waiting)
        if not waiting:
            return reply
        question = self.devices.join_question(waiting[0])
        self.session.pending = question.pending
        if waiting[0] in self._asked_again:
            return reply  # asked again once already: still open (yes or no answers it), not after every reply
        self._asked_again.add(waiting[0])
        return reply.after(*question.lines)

    def _device_said(self, player: str, outcome: DeviceOutcome, joining: bool = False) -> DeviceOutcome:
        """Keep the laptop's reply to a device for `repeat`, `history` and `missed`, whole; a move recorded from a
        phone is kept with the phone named ("From Ben's phone."). What is said of it now is spaced (`_spaced`;
        `joining`: a phone asking to join)."""
        outcome, kept = self._for_laptop(player, outcome)
        outcome = self._spaced(player, outcome, joining)
        game = self.session.game
        if kept is not None:
            # the move, then what it led to, kept with its place in the log (so that an undo takes both back)
            at = len(game.log) if game is not None and outcome.status == "recorded" and not kept.settles else 0
            self.session.keep_heard(kept, at)
        return outcome

    def _spaced(self, player: str, outcome: DeviceOutcome, joining: bool = False) -> DeviceOutcome:
        """The laptop's reply to `player`'s phones (a move, an answer, a phone joining) as `SPOKEN_EVERY` has it said:
        at once, with the words that waited for them first, when nothing was said for them in the last
        `SPOKEN_EVERY` seconds, or when it asks her a question (which spaces no line after it: hers to answer) or
        tells a win, a turn that begins or a question to the table; else shown at
        once and not said then: a move recorded (or taken back while it waited) has its words wait, merged with the
        player's others, for `say_held`; a reply that records nothing (a phone asked whether to record it anyway, a
        move that waits, a move not recorded, another phone asking to join) is not said, save its decisive facts
        (`shown_only`)."""
        reply = outcome.reply
        if reply is None or not reply.speech:
            return outcome
        now, last = self.clock(), self._spoke.get((player, joining))
        soon = last is not None and 0 <= now - last < SPOKEN_EVERY
        if not soon or _at_once(reply):
            if reply.pending is None:  # (her own question, hers to answer, spaces none of the phone's lines)
                self._spoke[player, joining] = now
            held = self._take_held(player) if not joining else ()  # (a joining phone's line waits for none)
            said = dataclasses.replace(reply, segments=(*held, *reply.segments)) if held else reply
            return dataclasses.replace(outcome, reply=said)
        if outcome.status in _ALWAYS_SAID:
            if self._held_in.get(player) is not self.session.game:
                self._held.pop(player, None)  # (words of another game: never said now)
            game = self.session.game
            self._held_in[player] = game
            spoken = tuple(segment for segment in reply.segments if segment.channel.spoken)
            recorded = outcome.status == "recorded" and game is not None and bool(game.log)
            place = (len(game.log), game.log[-1]) if recorded and game is not None else None
            self._held.setdefault(player, []).append(_Held(spoken, place))
            return dataclasses.replace(outcome, reply=_shown_now(reply))
        return dataclasses.replace(outcome, reply=shown_only(reply))

    def _take_held(self, player: str) -> tuple[Segment, ...]:
        """The held words of `player`'s phones, taken, merged as one line (`words.pace.merge_said`); none when they
        are of another game than the one in progress (a new game, or one resumed, since)."""
        held = self._held.pop(player, [])
        game = self.session.game
        if self._held_in.pop(player, None) is not game or game is None:
            return ()
        return merge_said(segment for words in held if words.stands(game) for segment in words.segments)

    def _for_laptop(self, player: str, outcome: DeviceOutcome) -> tuple[DeviceOutcome, Reply | None]:
        """The laptop's reply to a device, heard at the seat of `player`, and the reply kept for `history`: a move
        recorded from a phone kept with the phone named ("From Ben's phone."), which the laptop says too when it
        is one of two phones or more of its player."""
        if outcome.reply is not None:  # heard at the seat of the player whose device it answers
            outcome = dataclasses.replace(outcome, reply=outcome.reply.coming(Origin.other_hand(player)))
        reply = outcome.reply
        game = self.session.game
        if reply is not None and outcome.phone is not None and game is not None:
            mover = game.table.setup.players[outcome.phone.seat]  # (a save answered by its owner: the mover's)
            reply = reply.after(recorded_from(phone_name(mover, outcome.phone.number)))
            if outcome.named:  # one of two phones: the laptop says which, as `history` keeps it
                outcome = dataclasses.replace(outcome, reply=reply)
        return outcome, reply


@dataclasses.dataclass(frozen=True)
class _Held:
    """The spoken words of a phone's move that wait (`PhoneDesk._held`), with the move's place in the game's log."""

    segments: tuple[Segment, ...]
    place: tuple[int, Event] | None
    """The place the move was recorded at (1 for the first event) and its event; None for words of no event of
    their own (a move taken back before she answered it)."""

    def stands(self, game: Game) -> bool:
        """The move is still where it was recorded: not undone since (an undo, or undone and another move made)."""
        if self.place is None:
            return True
        at, event = self.place
        return len(game.log) >= at and game.log[at - 1] is event


def shown_only(reply: Reply) -> Reply:
    """The reply shown as it was (the screen, a braille display, `history`, what it tells for `missed`), its speech
    left out but for the segments that tell a decisive fact (a win, a turn that begins: the table's, said still)."""
    segments = tuple(
        segment
        if facts_of((segment,)) or not segment.channel.spoken
        else dataclasses.replace(segment, channel=Channel.SCREEN)
        for segment in reply.segments
        if segment.channel.shown or facts_of((segment,))
    )
    return dataclasses.replace(reply, segments=segments)


def _at_once(reply: Reply) -> bool:
    """The reply is never delayed (`SPOKEN_EVERY`): it asks her a question, or tells a win, a turn that begins or a
    question to the table (`_AT_ONCE`)."""
    told = (fact.topic for segment in reply.segments for fact in segment.about)
    return reply.pending is not None or any(topic in _AT_ONCE for topic in told)


def _shown_now(reply: Reply) -> Reply:
    """A phone's move whose words wait to be said (`PhoneDesk._spaced`): shown as it was, said not at all now."""
    segments = tuple(
        dataclasses.replace(segment, channel=Channel.SCREEN) for segment in reply.segments if segment.channel.shown
    )
    return dataclasses.replace(reply, segments=segments)


def _joined(first: Reply, second: Reply) -> Reply:
    """A typed line's reply, then the laptop's reply to a phone's move that waited behind its question: both said
    and shown in that order, with the typed facts and moves of both (the phones' last moves keep each), the second's
    question left open, heard where the first is (only its first line may be a phone's move attributed)."""
    return dataclasses.replace(
        first,
        important=first.important or second.important,
        pending=second.pending,
        recorded=(*first.recorded, *second.recorded),
        segments=(*first.segments, *second.segments),
    )
