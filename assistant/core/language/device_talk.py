"""The conversation's side of moves from devices (phones on the shared table): each device's own open question, and
the rule that a device undoes only its own player's last move.

A move from a device is carried out by the same `Conversation` as a typed line (`Conversation.run`), so a move
against the rules is warned about the same way; but its question ("record it anyway?") is kept here, by player,
and never replaces the keyboard's open question (`Session.pending`) nor another device's. A question lapses when
anything is recorded before it is answered: the event it would record was checked against a table that has
changed.
"""

from __future__ import annotations

import dataclasses
import secrets
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field

from assistant.core.game.events import Event
from assistant.core.game.history import Game
from assistant.core.language.conversation import Conversation
from assistant.core.language.device import DeviceMove, DeviceMoveError, DeviceOutcome, command_for
from assistant.core.language.parser import Command
from assistant.core.language.reply import Question, Reply
from assistant.core.words.gameplay import NO_GAME, NOT_RECORDED, NOTHING_TO_UNDO
from assistant.core.words.share import (
    QUESTION_LAPSED,
    UNDO_NOT_YOURS,
    from_phone,
    not_a_player,
    phone_answered_no,
    phone_asks,
)

__all__ = ["DeviceTalk"]

#: How many events recorded from devices are remembered (for "undo my own last move").
_KEPT_EVENTS = 200

Mark = tuple[int, int, int, int]


def _mark(game: Game) -> Mark:
    """Where a game's history stands: any event recorded, undone or redone changes it."""
    last = id(game.log[-1]) if game.log else 0
    return id(game), len(game.log), last, len(game.undone)


@dataclass
class _Asked:
    """A device's open question: its id, what yes does, and where the history stood when it was asked."""

    id: str
    question: Question
    mark: Mark
    lines: tuple[str, ...]
    ended_turn: bool


@dataclass
class DeviceTalk:
    """Moves from devices, carried out by the game's conversation (`talk()` gives it, or None with no game)."""

    talk: Callable[[], Conversation | None]
    asked: dict[str, _Asked] = field(default_factory=dict)
    """Each device player's open question."""
    made: deque[tuple[Event, str]] = field(default_factory=lambda: deque(maxlen=_KEPT_EVENTS))
    """Events recorded from devices, with the player whose device recorded each."""

    def question_of(self, player: str) -> dict[str, object] | None:
        """The player's open question as the page shows it (its id and lines), or None (none, or lapsed)."""
        talk = self.talk()
        asked = self.asked.get(player)
        if talk is None or asked is None or asked.mark != _mark(talk.game):
            return None
        return {"id": asked.id, "lines": list(asked.lines)}

    def move(self, player: str, move: DeviceMove) -> DeviceOutcome:
        """Carry out one move of `player`'s device: a new move replaces that device's own open question only."""
        talk = self.talk()
        if talk is None:
            return DeviceOutcome("refused", (NO_GAME,))
        game = talk.game
        if player not in game.table.setup.players:
            return DeviceOutcome("refused", (not_a_player(player, list(game.table.setup.players)),))
        self.asked.pop(player, None)
        if move.verb == "undo":
            return self._undo(talk, player)
        try:
            command, card = command_for(move, player, game)
        except DeviceMoveError as exc:
            return DeviceOutcome("stale" if exc.stale else "refused", (str(exc),))
        return self._outcome(talk, player, lambda: talk.run(command, card), ended_turn=move.verb == "end")

    def answer(self, player: str, question: str, yes: bool) -> DeviceOutcome:
        """The device's answer to its own open question: yes records the warned move, no records nothing. A question
        that is not this device's open one, or has lapsed, is stale."""
        talk = self.talk()
        asked = self.asked.get(player)
        if talk is None or asked is None or asked.id != question or asked.mark != _mark(talk.game):
            self.asked.pop(player, None)
            return DeviceOutcome("stale", (QUESTION_LAPSED,))
        del self.asked[player]
        if not yes:
            return DeviceOutcome("refused", (NOT_RECORDED,), Reply.of(phone_answered_no(player)))
        return self._outcome(talk, player, asked.question.then, ended_turn=asked.ended_turn)

    def _undo(self, talk: Conversation, player: str) -> DeviceOutcome:
        """Undo the last event when it is the player's own (their move, or recorded from their device)."""
        game = talk.game
        if not game.log:
            return DeviceOutcome("refused", (NOTHING_TO_UNDO,))
        last = game.log[-1]
        seat = game.table.setup.players.index(player)
        own = getattr(last, "player", None) == seat or any(event is last and who == player for event, who in self.made)
        if not own:
            return DeviceOutcome("refused", (UNDO_NOT_YOURS,))
        return self._outcome(talk, player, lambda: talk.run(Command("undo", actor=player)), remember=False)

    def _outcome(
        self,
        talk: Conversation,
        player: str,
        act: Callable[[], Reply],
        remember: bool = True,
        ended_turn: bool = False,
    ) -> DeviceOutcome:
        """Run the move and tell what became of it: recorded (the history moved), a warning (a question kept for this
        device), or refused (nothing recorded; the laptop says nothing). A recorded move whose words do not say who
        made it (a turn ended, a resolve) is attributed in its first line (`from_phone`)."""
        game = talk.game
        before = _mark(game)
        reply = act()
        if _mark(game) != before:
            if remember and game.log:
                self.made.append((game.log[-1], player))
            said = reply if player in reply.speech and not ended_turn else _attributed(reply, player, ended_turn)
            return DeviceOutcome("recorded", reply.lines, dataclasses.replace(said, pending=None))
        if isinstance(reply.pending, Question):
            asked = _Asked(secrets.token_urlsafe(12), reply.pending, before, reply.lines, ended_turn)
            self.asked[player] = asked
            laptop = Reply.of(phone_asks(player, reply.speech))
            return DeviceOutcome("warning", reply.lines, laptop, asked.id)
        return DeviceOutcome("refused", reply.lines)  # a refusal, or a choice the page cannot answer by number


def _attributed(reply: Reply, player: str, ended_turn: bool) -> Reply:
    """A phone's move with who made it at the start of its first line, shown and said ("Ben, from a phone: ended the
    turn. Turn 3: Cy's turn.")."""
    first, *rest = reply.lines or ("",)
    line = from_phone(player, first, ended_turn)
    speech = from_phone(player, reply.speech, ended_turn) if reply.speech else line
    return dataclasses.replace(reply, lines=(line, *rest), speech=speech)
