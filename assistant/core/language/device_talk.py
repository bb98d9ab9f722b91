"""The conversation's side of moves from devices (phones on the shared table): each device's own open question, and
the rule that a device undoes only its own player's last move.

A move from a device is carried out by the same `Conversation` as a typed line (`Conversation.run`), so a move
against the rules is warned about the same way; but its question ("record it anyway?") is kept here, by player,
and never replaces the keyboard's open question (`Session.pending`) nor another device's. A question lapses when
anything is recorded before it is answered: the event it would record was checked against a table that has
changed. Each event a device records is saved as made on that phone (`Game.phone_of`). A phone asking to join is
asked about on the laptop, of the host alone, one phone at a time: no phone ever answers for another. A save of a
card of a player at the laptop (the host) is hers to answer, on the laptop: while the laptop asks something else, it
waits behind that question (`host_saves`), never asked on another phone.
"""

from __future__ import annotations

import dataclasses
import secrets
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial

from assistant.core.game.about import NewPhone
from assistant.core.game.events import Destroy, Sacrifice, Save
from assistant.core.game.history import Game, Phone
from assistant.core.game.objections import Objection
from assistant.core.language.conversation import Conversation
from assistant.core.language.device import (
    DeviceAnswer,
    DeviceJoined,
    DeviceMove,
    DeviceMoveError,
    DeviceOutcome,
    JoinDecision,
    command_for,
)
from assistant.core.language.parser import Command
from assistant.core.language.reply import Pending, Question, Reply, Segment, Verbatim
from assistant.core.language.table_view import PhoneQuestion
from assistant.core.words.gameplay import NO_GAME, NOT_RECORDED, NOTHING_TO_UNDO, save_instead, save_offered
from assistant.core.words.recorded import recorded_lines
from assistant.core.words.rulings import objection_reasons, phone_warning, short_objection
from assistant.core.words.share import (
    QUESTION_LAPSED,
    SAVE_LABELS,
    UNDO_NOT_YOURS,
    from_phone,
    host_asked,
    host_decided,
    joined_from_phone,
    move_already_waits,
    move_withdrawn,
    no_phone_waits,
    not_a_player,
    phone_answered_no,
    phone_asks,
    phone_name,
    phones_kept_out,
    private_code,
    save_first,
    save_waits,
    waiting_move_withdrawn,
)

__all__ = ["DeviceTalk"]

Mark = tuple[int, int, int, int]
DeviceRequestLike = DeviceMove | DeviceAnswer


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
    labels: dict[str, str] | None = None
    """The page's labels for its heading and buttons, where they are not a warning's (a save offered)."""
    by: tuple[str, DeviceRequestLike] | None = None
    """Whose move the answer records, when the question is another player's (a save asked of the card's owner): the
    player who moved, and their request (which phone). Such a question waits on its answer: it never lapses in its
    game, and the move is checked again when the table changed meanwhile."""
    event: Destroy | Sacrifice | None = None
    """The destroy or sacrifice a save asked of another player would replace (`Conversation.saving`)."""

    def open_in(self, game: Game) -> bool:
        """The question may still be answered in `game`: nothing recorded since it was asked, or (another player's
        move waiting on it) the same game."""
        mark = _mark(game)
        return self.mark == mark or (self.by is not None and self.mark[0] == mark[0])


@dataclass
class _HostSave:
    """A save of a laptop player's card, waiting until the laptop asks nothing else: the move that offered it (its
    player and request, the event, its question), and where the history stood when it was offered."""

    player: str
    request: DeviceRequestLike
    event: Destroy | Sacrifice | None
    """The destroy or sacrifice the save would replace (`Conversation.saving`), checked again if the table changed."""
    question: Question
    offered: tuple[Save, bool]
    mark: Mark
    ended_turn: bool


@dataclass(frozen=True)
class _OnLaptop:
    """A save a phone's move offered, asked on the laptop now: what waits, its question and the reply that asked it."""

    save: _HostSave
    question: Question
    reply: Reply


@dataclass
class _Joining:
    """A phone that waits to join as a player, until the host answers."""

    waiting: JoinDecision
    device: int
    tag: str = ""
    """The short name the phone shows ("blue 7")."""
    player: str = ""
    """The player it asks to record for."""


@dataclass
class DeviceTalk:
    """Moves from devices, carried out by the game's conversation (`talk()` gives it, or None with no game)."""

    talk: Callable[[], Conversation | None]
    host_busy: Callable[[], bool] = lambda: False
    """The keyboard has a question open (the laptop then asks no other: a save of a laptop player's card waits)."""
    asked: dict[str, _Asked] = field(default_factory=dict)
    """Each device player's open question."""
    joining: dict[str, _Joining] = field(default_factory=dict)
    """The phones that wait to join, by their short names (a player's name for a phone with none), in the order they
    asked: the host alone answers (several may wait for one player: one is the player's own)."""
    join_asked: list[Question] = field(default_factory=list)
    """The questions about joining phones put to the host while phones wait (the keyboard's among them), forgotten
    once none waits: a line that answers one some other way closes it (`asks_about_joining`)."""
    host_saves: list[_HostSave] = field(default_factory=list)
    """The saves of laptop players' cards offered while the laptop asked something else, oldest first: each asked on
    the laptop once it asks nothing (`next_host_save`)."""
    laptop: _OnLaptop | None = None
    """The save a phone's move offered that the laptop asks now, until it is answered, passed over (then it waits in
    `host_saves` again, first) or taken back by its mover."""

    def question_of(self, player: str) -> PhoneQuestion | None:
        """The player's open question as the page shows it (its id and lines; for a save offered, its own labels),
        or None (none, or lapsed)."""
        talk = self.talk()
        asked = self.asked.get(player)
        if talk is not None and asked is not None and asked.open_in(talk.game):
            question: PhoneQuestion = {"id": asked.id, "lines": list(asked.lines)}
            if asked.labels is not None:
                question["labels"] = asked.labels
            return question
        return None

    def waits_of(self, player: str) -> list[str]:
        """Where each of the player's moves that waits on another's answer stands, oldest first, as the page shows it
        (a save asked of the host on the laptop now, or once the laptop's open question is answered)."""
        talk = self.talk()
        if talk is None:
            return []
        game = talk.game
        names = game.table.setup.players
        on_host = [
            host_asked(names[save.offered[0].player], saving=True, later=not asked)
            for save, asked in self._on_host(game)
            if save.player == player
        ]
        on_phones = [
            phone_asks(phone_name(owner), saving=True)
            for owner, asked in self.asked.items()
            if asked.by is not None and asked.by[0] == player and asked.open_in(game)
        ]
        return [*on_host, *on_phones]

    def move(self, player: str, move: DeviceMove) -> DeviceOutcome:
        """Carry out one move of `player`'s device: a new move replaces that device's own open question only."""
        talk = self.talk()
        if talk is None:
            return DeviceOutcome("refused", (NO_GAME,))
        game = talk.game
        if player not in game.table.setup.players:
            return DeviceOutcome("refused", (not_a_player(player, list(game.table.setup.players)),))
        waiting = self.asked.get(player)
        if waiting is not None and waiting.by is not None and waiting.open_in(game):
            return DeviceOutcome("refused", (save_first(waiting.by[0]),))  # another's move waits on its answer
        replaced = self.asked.pop(player, None)
        if move.verb == "undo":
            return self._undo(talk, player, move)
        try:
            command, card = command_for(move, player, game)
        except DeviceMoveError as exc:
            return DeviceOutcome("stale" if exc.stale else "refused", (str(exc),))
        outcome = self._outcome(talk, player, move, lambda: talk.run(command, card), ended_turn=move.verb == "end")
        if outcome.status == "warning" and replaced is not None and replaced.open_in(game):
            outcome = dataclasses.replace(outcome, reply=None)  # asked again on its phone: the laptop said so once
        return outcome

    def join(self, player: str, joined: DeviceJoined) -> DeviceOutcome:
        """A phone asks to join as `player`: it waits, and the laptop's reply asks the host whether to let it in
        (yes lets it in, no keeps it out and renews the join code). Without `waiting`, it is only said to have
        joined. Beside another phone that waits for the same player it waits too, replacing nothing: each question
        names the others' short names, so the host asks the player which name their phone shows."""
        waiting = joined.waiting
        if waiting is None:
            return DeviceOutcome("joined", (), Reply.of(joined_from_phone(player)))
        key = joined.tag or player
        self.joining[key] = _Joining(waiting, joined.device, joined.tag, player)
        return DeviceOutcome("waiting", (), self.join_question(key))

    def join_question(self, key: str) -> Reply:
        """The host's question about the phone that waits to join by `key` (its short name; a player's name for a
        phone with none): yes lets it in, no keeps it out."""
        asked = self.joining.get(key)  # this phone's: never one that came later
        player = asked.player if asked is not None else key
        ask = Question(
            lambda: self.decide(key, True, asked), declined="", refused=lambda: self.decide(key, False, asked)
        )
        self.join_asked.append(ask)
        tag = asked.tag if asked is not None else ""
        return Reply.asking(NewPhone(player, tag, self.rivals(key)), ask)

    def rivals(self, key: str) -> tuple[str, ...]:
        """The short names of the other phones that wait to join as the player the phone of `key` asks for."""
        asked = self.joining.get(key)
        if asked is None:
            return ()
        return tuple(j.tag for k, j in self.joining.items() if k != key and j.player == asked.player and j.tag)

    def player_of(self, key: str) -> str:
        """The player the phone that waits by `key` asks to record for ("" when none waits by it)."""
        joining = self.joining.get(key)
        return joining.player if joining is not None else ""

    def asks_about_joining(self, pending: Pending | None) -> bool:
        """The question is one about a joining phone put to the host (`join_asked`)."""
        return any(pending is asked for asked in self.join_asked)

    def waiting(self) -> list[str]:
        """The phones that wait to join, by key (their short names), longest waiting first (those answered some
        other way dropped); `player_of` gives the player each asks for."""
        for key in [k for k, joining in self.joining.items() if not joining.waiting.waits()]:
            del self.joining[key]
        if not self.joining:
            self.join_asked.clear()
        return list(self.joining)

    def decide(self, key: str, allow: bool, asked: _Joining | None = None) -> Reply:
        """The host's answer to the phone that waits to join by `key` (its yes or no, `share allow`, `share
        refuse`; `asked`: the phone the question was about, when it is a question's answer): said, with the new join
        code shown (never said) when the phone was kept out; then the next phone that waits is asked about, one
        question at a time."""
        joining = self.joining.get(key)
        if joining is None or (asked is not None and joining is not asked):
            return Reply.of(no_phone_waits(asked.player if asked is not None else key))
        del self.joining[key]
        player = joining.player
        if not joining.waiting.decide(allow):
            return Reply.of(no_phone_waits(player))
        said = host_decided(player, joining.device, allow)
        reply = (
            Reply.of(said) if allow else Reply(segments=(Segment(Verbatim(said)), private_code(joining.waiting.code())))
        )
        following = self.waiting()
        if not following:
            return reply
        question = self.join_question(following[0])
        return reply.then(question)

    def refuse_all(self) -> Reply:
        """`share refuse all`: every phone that waits to join kept out at once (each refusal renews the join code),
        said with the players they asked for, the new code shown (never said); nothing is asked after it."""
        waiting = self.waiting()
        if not waiting:
            return Reply.of(no_phone_waits())
        code, players = "", []
        for key in waiting:
            joining = self.joining.pop(key)
            players.append(joining.player)
            if joining.waiting.decide(False):
                code = joining.waiting.code()
        self.join_asked.clear()
        kept = Segment(Verbatim(phones_kept_out(players)))
        return Reply(segments=(kept, private_code(code))) if code else Reply(segments=(kept,))

    def answer(self, player: str, answer: DeviceAnswer) -> DeviceOutcome:
        """The device's answer to its own open question: yes records the warned move, no records nothing; a save
        asked of the card's owner records the move of the player who made it, as made on their phone. A question that
        is not this device's open one, or has lapsed, is stale."""
        talk = self.talk()
        asked = self.asked.get(player)
        question, yes = answer.question, answer.yes
        if talk is None or asked is None or asked.id != question or not asked.open_in(talk.game):
            self.asked.pop(player, None)
            return DeviceOutcome("stale", (QUESTION_LAPSED,))
        del self.asked[player]
        mover, request = asked.by or (player, answer)
        refused = asked.question.refused
        if not yes and refused is not None:  # a save offered, not taken: the move is recorded as made
            if asked.event is not None and asked.mark != _mark(talk.game):  # (checked again: the table changed)
                refused = partial(talk.check_again, asked.event, offer_save=False)
            return self._outcome(talk, mover, request, refused, ended_turn=asked.ended_turn)
        if not yes:
            return DeviceOutcome("refused", (NOT_RECORDED,), Reply.of(phone_answered_no(player)))
        return self._outcome(talk, mover, request, asked.question.then, ended_turn=asked.ended_turn)

    def _undo(self, talk: Conversation, player: str, move: DeviceMove) -> DeviceOutcome:
        """Take back the player's newest move that waits on another's answer (a save asked of the host), recording
        nothing; else undo the last event when it is the player's own (their move, or recorded from their phone: the
        save keeps which, so this holds after a resume too)."""
        game = talk.game
        owner = self._withdraw(game, player)
        if owner is not None:
            laptop = Reply.of(waiting_move_withdrawn(player, owner), important=True)
            return DeviceOutcome("withdrawn", (move_withdrawn(owner),), laptop)
        if not game.log:
            return DeviceOutcome("refused", (NOTHING_TO_UNDO,))
        last = game.log[-1]
        seat = game.table.setup.players.index(player)
        phone = game.phone_of(last)
        if getattr(last, "player", None) != seat and (phone is None or phone.seat != seat):
            return DeviceOutcome("refused", (UNDO_NOT_YOURS,))
        return self._outcome(talk, player, move, lambda: talk.run(Command("undo", actor=player)))

    def _outcome(
        self,
        talk: Conversation,
        player: str,
        request: DeviceRequestLike,
        act: Callable[[], Reply],
        ended_turn: bool = False,
    ) -> DeviceOutcome:
        """Run the move (each event it records saved as made on this phone) and tell what became of it: recorded
        (the history moved), a warning (a question kept for this device), or refused (nothing recorded; the laptop
        says nothing, unless the save could not be written: a full disk is said on the laptop too, which the host
        can do something about). A recorded move whose words do not name who made it (a turn ended, a resolve) is
        attributed in its first line (`from_phone`). With two phones or more, the laptop says which made it."""
        game = talk.game
        before = _mark(game)
        phone = talk.by = Phone(game.table.setup.players.index(player), request.device)
        try:
            reply = act()
        finally:
            talk.by = None
        if _mark(game) != before:
            said = reply if _names(reply, player) and not ended_turn else _attributed(reply, player, ended_turn)
            said = dataclasses.replace(said, pending=None)
            shown = recorded_lines(game.table, reply.recorded) or reply.lines  # (the phones' words)
            return DeviceOutcome("recorded", shown, said, phone=phone, named=request.phones > 1)
        if isinstance(reply.pending, Question) and talk.offered is not None:
            return self._offer_save(talk, player, request, reply.pending, talk.offered, before, ended_turn)
        if isinstance(reply.pending, Question):  # a warning, in the phone's own words
            lines = _phone_warning(game, talk.objections) or reply.lines
            asked = _Asked(secrets.token_urlsafe(12), reply.pending, before, lines, ended_turn)
            self.asked[player] = asked
            asking = phone_name(player, request.device if request.phones > 1 else 1)
            laptop = Reply.of(phone_asks(asking))  # the phone's to answer: the laptop asks nothing
            return DeviceOutcome("warning", lines, laptop, asked.id)
        if talk.unsaved:
            return DeviceOutcome("refused", reply.lines, _attributed(reply, player, ended_turn=False))
        return DeviceOutcome("refused", reply.lines)  # a refusal, or a choice the page cannot answer by number

    def _offer_save(
        self,
        talk: Conversation,
        player: str,
        request: DeviceRequestLike,
        pending: Question,
        offered: tuple[Save, bool],
        before: Mark,
        ended_turn: bool,
    ) -> DeviceOutcome:
        """A save "instead" (Black Knight Unicorn) offered by a phone's move: asked of the card's owner, on their
        phone ("Save it", "Do not save it"); on the laptop when the owner has no phone (the host), or, while the laptop
        asks something else, once it has been answered (`next_host_save`): never on another phone; on the moving
        phone itself when it is the owner's. Whoever answers, the move recorded is the mover's, as made on the
        mover's phone."""
        table = talk.game.table
        owner = table.setup.players[offered[0].player]
        if owner != player and owner not in request.phoned:
            return self._ask_host(talk, _HostSave(player, request, talk.saving, pending, offered, before, ended_turn))
        asked_of = owner if owner in request.phoned else player
        lines = (save_offered(table, *offered, buttons=True),)
        by = (player, request) if asked_of != player else None
        asked = _Asked(secrets.token_urlsafe(12), pending, before, lines, ended_turn, SAVE_LABELS, by, talk.saving)
        self.asked[asked_of] = asked
        laptop = Reply.of(phone_asks(phone_name(asked_of), saving=True))  # the phone's to answer: asks nothing
        if asked_of == player:
            return DeviceOutcome("warning", lines, laptop, asked.id, labels=SAVE_LABELS)
        return DeviceOutcome("asked", (phone_asks(phone_name(owner), saving=True),), laptop)

    def _ask_host(self, talk: Conversation, save: _HostSave, may_wait: bool = True) -> DeviceOutcome:
        """The save of a laptop player's card, the one builder of the laptop's question for it (offered by a phone's
        move, or asked again once the laptop is free: `next_host_save`): asked on the laptop as it asks of a typed
        destroy, yes recording the save, no the move as made, both as the mover's phone's; or, while the laptop asks
        something else (`may_wait`), kept in `host_saves` and the laptop told it waits."""
        table = talk.game.table
        player, offered = save.player, save.offered
        owner = table.setup.players[offered[0].player]
        if may_wait and player in self._waiting_movers(talk.game):  # one at a time: nothing more said on the laptop
            return DeviceOutcome("refused", (move_already_waits(owner),))
        if may_wait and self.host_busy():
            self.host_saves.append(save)
            laptop = Reply.of(save_waits(owner, player), important=True)
            return DeviceOutcome("asked", (host_asked(owner, saving=True, later=True),), laptop)
        mover = Phone(table.setup.players.index(player), save.request.device)
        then, refused = save.question.then, save.question.refused
        ask = dataclasses.replace(
            save.question,
            then=lambda: self._answered(talk, mover, then),
            refused=None if refused is None else lambda: self._answered(talk, mover, refused),
            waits=lambda: self._wait_again(save),
        )
        laptop = Reply.asking(save_instead(table, *offered), ask)
        self.laptop = _OnLaptop(save, ask, laptop)
        return DeviceOutcome("asked", (host_asked(owner, saving=True),), laptop)

    def _answered(self, talk: Conversation, phone: Phone, act: Callable[[], Reply]) -> Reply:
        """Her answer to the save asked on the laptop: the question is closed, and the move recorded as the phone's."""
        self.laptop = None
        return self._as_phone(talk, phone, act)

    def _wait_again(self, save: _HostSave) -> None:
        """The save asked on the laptop passed over by a command that is not its answer: it waits first in line, to be
        asked again once the laptop asks nothing (checked again if the table changed meanwhile)."""
        self.laptop = None
        self.host_saves.insert(0, save)

    def _on_host(self, game: Game) -> list[tuple[_HostSave, bool]]:
        """This game's moves that wait on the host's answer, oldest first, each with whether the laptop asks it now."""
        now = self.laptop.save if self.laptop is not None else None
        return [(save, save is now) for save in (*([now] if now else []), *self.host_saves) if save.mark[0] == id(game)]

    def _waiting_movers(self, game: Game) -> set[str]:
        """The players of this game whose move waits on the host's answer (in line, or asked on the laptop now)."""
        return {save.player for save, _ in self._on_host(game)}

    def _withdraw(self, game: Game, player: str) -> str | None:
        """Take out the player's newest move of this game that waits on another's answer (in line for the laptop, on
        the laptop, or asked on the owner's phone): the player who was to answer; None when none waits."""
        names = game.table.setup.players
        for n in range(len(self.host_saves) - 1, -1, -1):
            waiting = self.host_saves[n]
            if waiting.player == player and waiting.mark[0] == id(game):
                return names[self.host_saves.pop(n).offered[0].player]
        if self.laptop is not None and self.laptop.save.player == player and self.laptop.save.mark[0] == id(game):
            withdrawn, self.laptop = self.laptop.save, None
            return names[withdrawn.offered[0].player]
        for owner, asked in self.asked.items():
            if asked.by is not None and asked.by[0] == player and asked.open_in(game):
                del self.asked[owner]
                return owner
        return None

    def next_host_save(self) -> tuple[str, DeviceOutcome] | None:
        """The oldest save of a laptop player's card that waited behind the laptop's question, now that the laptop
        asks nothing: the player whose move offered it, and what became of it. Asked as it was offered when nothing
        was recorded meanwhile; else the move is checked again against the table as it is now (its save asked again
        if it still may be made, the move recorded as made if not, or its warning asked of the moving phone). A
        save from another game is dropped. None: no save waits."""
        talk = self.talk()
        while self.host_saves:
            waiting = self.host_saves.pop(0)
            if talk is None or waiting.mark[0] != id(talk.game):
                continue  # another game (or none): the move was never recorded, and belongs to no game now
            if waiting.mark == _mark(talk.game) or waiting.event is None:
                outcome = self._ask_host(talk, waiting, may_wait=False)
            else:
                act = partial(talk.check_again, waiting.event)
                outcome = self._outcome(talk, waiting.player, waiting.request, act, waiting.ended_turn)
            return waiting.player, outcome
        return None

    @staticmethod
    def _as_phone(talk: Conversation, phone: Phone, act: Callable[[], Reply]) -> Reply:
        """A save answered on the laptop: the move recorded is still the phone's that made it."""
        talk.by = phone
        try:
            return act()
        finally:
            talk.by = None


def _phone_warning(game: Game, objections: tuple[Objection, ...]) -> tuple[str, ...]:
    """A warned move's question in the phone's own words, from the objections the laptop's is made of (its buttons
    answer it: no "Say yes or no."); () when the question is no warning."""
    if not objections:
        return ()
    short = short_objection(game.table, objections[0])
    reasons = objection_reasons(game.table, objections, phone=True)
    return (phone_warning("" if reasons == short else reasons, short),)


def _names(reply: Reply, player: str) -> bool:
    """The reply's words name the player who made its move: it tells of a move of theirs (the words of a move begin
    with its player's name), or of their win or count ("Cy wins with 2 Animals!"); a resolve tells of no one's."""
    return any(fact.player == player for fact in (*reply.facts, *reply.tells))


def _attributed(reply: Reply, player: str, ended_turn: bool) -> Reply:
    """A phone's move with who made it at the start of its first line, shown and said on the laptop ("Ben, from a
    phone: ended the turn. Turn 3: Cy's turn."), and in the phones' own words on the other phones ("Ben ended the
    turn. Turn 3: Cy's turn.": its first record attributed, `Recorded.by`, worded by `recorded_lines`)."""
    said = reply.led_by(from_phone(player, "", ended_turn))
    first = [dataclasses.replace(one, by=player, ended_turn=ended_turn) for one in reply.recorded[:1]]
    return dataclasses.replace(said, recorded=(*first, *reply.recorded[1:]))
