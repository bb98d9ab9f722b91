"""A running session: the cards in play and the reply to each line the player types or the camera reads.

The Textual app and the plain line mode both feed lines to `Session.handle` and show and speak the `Reply` it
returns, so the two modes cannot drift apart: what a line means (a command, in letters or in braille cells,
uncontracted or contracted; a number choosing a card; an answer; a card's name) is decided here and nowhere else.
The session keeps the one open question a reply may leave (numbered cards to choose from, or yes or no) and the card
just read, which a command naming no card means ("play").

Its two other jobs are desks it holds, which the front ends call directly: the cards and scanning
(`session.card_desk`, `assistant/card_desk.py`: a look-up, a search, a scanned code, a card learnt) and the phones
(`session.phone_desk`, `assistant/phone_desk.py`: a phone's move, its answer, a phone asking to join). They read and
set here only what their protocols name; the cards in play, the game, the open question and what was said are the
session's alone.
"""

from __future__ import annotations

import dataclasses
import re
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from assistant.card_desk import CardDesk
from assistant.core.braille import celltable
from assistant.core.cards.card import Card, CardSet, CardType, Deck, Tag
from assistant.core.cards.learning import NewCard
from assistant.core.cards.lookup import CardResolver
from assistant.core.game.about import About, ResumeOffered, Topic
from assistant.core.game.history import Game
from assistant.core.language.lobby import Lobby, SaveStore, shipped_addons
from assistant.core.language.parser import Command, CommandError, keep_card_names, parse_number
from assistant.core.language.reply import (
    OWN_KEY,
    Channel,
    Choice,
    Control,
    Part,
    Pending,
    Question,
    Reply,
    Segment,
    Verbatim,
)
from assistant.core.language.verbs import Kind, example_names, help_rows, near_verb, parse_command
from assistant.core.speech.settings import SpeechSettings
from assistant.core.speech.tuning import tune
from assistant.core.text import readable
from assistant.core.words.cardtext import HELP_LINES, NO_CHOICE_PENDING, choice_out_of_range
from assistant.core.words.errors import command_hint, stray_digits, who_plays
from assistant.core.words.gameplay import NO_GAME, NOT_RECORDED, NOTHING_TO_CONFIRM, RESUME_DECLINED
from assistant.core.words.help import (
    INSTANT_WORD,
    LOOKING_UP,
    Examples,
    command_parts,
    commands_index,
    commands_part,
    instants_help,
    no_such_part,
    short_help,
    topic_help,
    unknown_topic,
    win_help,
)
from assistant.core.words.pace import missed, placed
from assistant.core.words.share import REMOVE_WHOSE, share_form
from assistant.core.words.verbosity import Verbosity
from assistant.core.words.voice import (
    NOTHING_SAID_YET,
    about_app,
    answers_heading,
    dial_not_honoured,
    verbosity_set,
)
from assistant.phone_desk import PhoneDesk

__all__ = ["CardResolver", "Control", "Reply", "Session", "Verbosity"]

#: How many of the typed facts of other hands' moves `missed` keeps (a game's worth: its digest says the newest).
_NEWS_KEPT = 400

#: The longest line read as a number choosing one of the cards offered.
_MOST_DIGITS = 3
#: How many answers the session keeps for `repeat` and `history`, and how many `history` reads.
_KEPT, _HISTORY_READ = 20, 5


@dataclass
class Session:
    """The cards in play, the game (through the lobby), the open question and the card just read."""

    cards: CardSet
    resolver: CardResolver | None = None
    """The resolver of typed queries and contracted braille; the standard-library `NameResolver` when None."""
    store: SaveStore | None = None
    """Where games are saved (`assistant.storage.saves.GameStore`); None keeps games in memory only."""
    load_cards: Callable[[str, tuple[str, ...]], CardSet] | None = None
    """Loads another base deck and add-ons, for a game or a saved game on other decks."""
    lobby: Lobby = field(init=False)
    pending: Pending | None = None
    """The question the last reply left open."""
    subject: Card | None = None
    """The card just read (looked up or scanned): what "play", "discard" or "neigh" mean when they name none."""
    learn: Callable[[NewCard, CardType], tuple[str, CardSet, CardResolver | None]] | None = None
    """Adds a scanned card to the owner's deck (`assistant.storage.decks.learn_card`): where it was saved, the
    cards and resolver with it. None: scanned texts are only read out."""
    verbosity: Verbosity = Verbosity.NORMAL
    """How much the game replies say (`verbosity` command, the settings file, a key in the app)."""
    remember: Callable[[Verbosity], object] | None = None
    """Keeps a verbosity the player chose for the next start (the settings file). None: not kept."""
    resolver_for: Callable[[CardSet], CardResolver] | None = None
    """Builds the resolver of another card set (`assistant.commands.app.braille_resolver`): a game started or
    resumed on other decks than the session's is looked up, labelled and scanned on its own cards. None: the
    standard-library name resolver serves that game."""
    screen_keys: bool = True
    """The front end has the full-screen app's keys (F1, Escape, one-key answers); the plain mode has none, and
    the help it gives names lines to type instead."""
    installed: Callable[[], Sequence[Deck]] | None = None
    """The decks installed (`assistant.storage.decks.load_all_decks`), so that a scanned label or name of a card
    not in play says which card and deck it is. None: only the cards in play are known."""
    speech: SpeechSettings = field(default_factory=SpeechSettings)
    """The speech settings in force: the voices' rate, volume and pitch that `rate 70` or `faster` turn."""
    retune: Callable[[SpeechSettings, str], bool] | None = None
    """Applies settings a tuning line changed (`rate 70`, `faster`) and writes them, given the one changed ("rate",
    "table_pitch"); whether the speech in use honours it (a screen reader keeps its own rate). None: kept here."""
    about: Callable[[], Sequence[str]] = lambda: about_app("")
    """`about`: the app's version and the speech in use (the outer layer, which has them, sets it)."""
    me: str = ""
    """The player's name in games (the `me` setting): a digest of what she missed says first the moves that took
    her cards. "" or no such player: the first player."""
    said: deque[Reply] = field(default_factory=lambda: deque(maxlen=_KEPT), init=False, repr=False)
    """The last answers, oldest first: what `repeat` and `history` read."""
    _commanded: bool = field(default=False, init=False, repr=False)
    """The line being answered is a command (it cancels an open yes-or-no question)."""
    card_desk: CardDesk = field(init=False, repr=False)
    """Look-ups, search and scanning on the cards in play (`assistant/card_desk.py`)."""
    phone_desk: PhoneDesk = field(init=False, repr=False)
    """The phones on the shared table: their moves, answers and requests to join (`assistant/phone_desk.py`)."""
    news: list[About] = field(default_factory=list, init=False, repr=False)
    """What other hands' moves told since the player's last move or her last `missed` (their facts and moves, typed):
    what the digest says."""
    told: list[About] = field(default_factory=list, init=False, repr=False)
    """What the parts of the digest said so far, when more of it waits for the next `missed`."""

    def __post_init__(self) -> None:
        self.card_desk = CardDesk(self)
        self.phone_desk = PhoneDesk(self)
        self.lobby = Lobby(
            self.cards, self.card_desk.resolve, store=self.store, load_cards=self.load_cards, verbosity=self.verbosity
        )

    @property
    def game(self) -> Game | None:
        """The game in progress, or None."""
        return self.lobby.game

    def players(self) -> tuple[str, ...]:
        """The players of the game in progress, in turn order (none without a game)."""
        game = self.game
        return game.setup.players if game is not None else ()

    def offer_resume(self) -> Reply | None:
        """At start, when the last saved game can be read: offer to continue it (yes resumes); else None."""
        players = self.lobby.saved_players()
        if not players:  # a last save whose setup cannot be read is named, never passed over in silence
            problem = self.lobby.save_problem()
            return Reply.of(problem, important=True) if problem else None
        # declining it is said; another command simply starts (the offer said so), with no "Not recorded."
        offer = Question(self.resume_game, declined=RESUME_DECLINED)
        return self.keep(Reply.asking(ResumeOffered(tuple(players)), offer))

    def resume_game(self, repair: bool = True) -> Reply:
        """Continue the last saved game (the app on start, `resume`, the plain mode with --resume)."""
        return self.keep(self.lobby.resume(repair))

    def handle(self, line: str) -> Reply:
        """Answer one typed line."""
        game = self.game
        own = self._handle(line)
        if any(fact.topic is Topic.MOVE for fact in own.tells) or self.game is not game:
            self.news, self.told = [], []  # the player's own move, another game: the digest starts again from here
        else:  # her undo or redo: what it took back of the news is no news
            self.news = [*self.news, *(fact for fact in own.tells if fact.topic is Topic.UNDO)][-_NEWS_KEPT:]
        # (then a question that waited behind hers: a phone's move said with it is heard, not missed)
        return self.keep_said(self.phone_desk.ask_again(own))

    def keep_said(self, reply: Reply) -> Reply:
        """Keep an answer for `repeat` and `history` (not a speech control, a hint or an empty reply)."""
        if reply.control is Control.NONE and not reply.hint and reply.lines:
            self.said.append(reply)
        return reply

    def keep_heard(self, reply: Reply, at: int) -> None:
        """Keep the laptop's reply to a phone for `repeat` and `history`, and what it tells for `missed`: the move,
        then what it led to, at `at` in the game's log (0: at no place)."""
        self.keep_said(reply)
        self.news = [*self.news, *placed([*reply.tells, *reply.facts], at)][-_NEWS_KEPT:]

    def _handle(self, line: str) -> Reply:
        text = readable(line).strip()
        reading = celltable.from_cells(text).strip() if celltable.has_cells(text) else ""
        if reading.isascii() and reading.isdigit():
            text = reading  # a number typed in braille (⠼⠃) picks a candidate too
        elif reading and all(celltable.is_cell(ch) or ch.isspace() for ch in text):
            text = self._braille_command(text, reading) or text
        pending, self.pending = self.pending, None
        if isinstance(pending, Choice) and _is_number(text):
            return self._choose(pending, int(text))
        if isinstance(pending, Question):
            answer = text.lower().strip(".! ")
            if answer in ("yes", "y", "confirm", "ok", "record it"):
                return self.keep(pending.then())
            if answer in ("no", "n", "cancel"):
                if pending.refused is not None:
                    return self.keep(pending.refused())
                return Reply.of(NOT_RECORDED if pending.declined is None else pending.declined)
            other = pending.other(text) if pending.other is not None else None
            if other is not None:
                return self.keep(other)
        self._commanded = False
        reply = self._line(text)
        if isinstance(pending, Question) and not self._commanded:
            self.pending = self.pending or pending  # a card looked up while deciding: the question still waits
        elif isinstance(pending, Question) and pending.waits is not None:
            pending.waits()  # another hand's move waits on her answer: asked again after this reply (`handle`)
        elif isinstance(pending, Question) and pending.declined is None:
            reply = reply.before(NOT_RECORDED)
        return reply

    def _braille_command(self, cells: str, reading: str) -> str | None:
        """A line of braille cells that is a command: that command in letters, so that it runs instead of being
        looked up as a card. Read uncontracted first (`reading`: ⠙⠗⠁⠺ is draw), then contracted, through the
        resolver (⠢⠙⠀⠞⠥⠗⠝ is end turn); a command's verb whose words cannot be read, uncontracted, is that
        command too, so that its own error says what was wrong. None: a card's name, or nothing readable."""
        if self._is_command(reading):
            return reading
        contracted = self.card_desk.resolver().read_contracted(cells)
        if contracted and self._is_command(contracted):
            return contracted
        return reading if self._is_command(reading, with_errors=True) else None

    def _is_command(self, text: str, with_errors: bool = False) -> bool:
        """The line is a command (not a card's name, which a look-up reads); with `with_errors`, a command's verb
        with words that cannot be read counts too."""
        game = self.game
        try:
            return parse_command(text, game.setup.players if game is not None else ()) is not None
        except CommandError:
            return with_errors

    def keep(self, reply: Reply) -> Reply:
        """Remember what a reply leaves open and the card it is about; then return it."""
        self._follow_game()
        self.pending = reply.pending
        if reply.card is not None:
            self.subject = reply.card
        return reply

    def _follow_game(self) -> None:
        """When the game in progress is played on other decks than the session's cards (`new game ... deck
        llamas`, a resumed save), make its cards the session's: look-ups, braille labels, search, the scanner's
        known decks and the next `new game` all use them. Compared by deck ids, not by object: a card learnt
        during the game extends the session's cards without sending them back to the game's."""
        game = self.game
        if game is None:
            return
        cards = game.table.cards
        if (cards.base.id, shipped_addons(cards)) == (self.cards.base.id, shipped_addons(self.cards)):
            return
        self.cards = self.lobby.cards = cards
        self.resolver = self.resolver_for(cards) if self.resolver_for is not None else None

    def use_cards(self, cards: CardSet, resolver: CardResolver | None) -> None:
        """Make these cards and their resolver the session's and the lobby's (the card desk, a card learnt)."""
        self.cards = self.lobby.cards = cards
        self.resolver = resolver

    def help(self, topic: str) -> Reply:
        """The short help, one topic (`help keys`, `help win`), or the commands (`help commands`, its parts), with the
        deck's cards."""
        game = self.game
        if topic.split(" ", 1)[0] == "commands":
            return self._commands_help(topic.removeprefix("commands").strip())
        cards = game.table.cards if game is not None else self.cards
        neigh_id = game.table.neigh_card if game is not None else "neigh"
        neigh = cards.get(neigh_id) if neigh_id else None
        if topic == "win":
            if game is not None:
                table = game.table
                return Reply.of(*win_help(table.profile, game.state.goal, table.deck_out_rule))
            info = cards.base.info
            return Reply.of(*win_help(self.lobby.rules.default_profile(info.rules, info.game)))
        if topic == "instants":  # each Instant's number for the whole game (where a number is not a player's)
            instants = game.table.instants if game is not None else [c for c in cards if c.type is CardType.INSTANT]
            return Reply.of(*instants_help([c.name for c in instants], neigh is None, self.screen_keys))
        card, creature = example_names(cards)
        players = tuple(game.setup.players[:2]) if game is not None and len(game.setup.players) > 1 else ("Ana", "Ben")
        named = neigh.name if neigh is not None else ""
        vocabulary = cards.vocabulary if game is None else game.table.profile.vocabulary
        examples = Examples(card, creature, players, named or INSTANT_WORD, vocabulary.area)
        keys = self.screen_keys
        said = short_help(examples, keys) if not topic else topic_help(topic, examples, keys)
        return Reply.of(*said) if said is not None else Reply.error(unknown_topic(examples))

    def _commands_help(self, which: str) -> Reply:
        """`help commands`: the parts' index; `help commands 3`: one part; `help commands all`: the whole table."""
        game = self.game
        rows = help_rows(self.cards, game.table.profile.vocabulary if game is not None else None)
        if which == "all":
            lines = HELP_LINES + tuple(line for _, line in rows)
            return Reply(segments=tuple(Segment(Verbatim(line), part=Part.HELP) for line in lines))
        sections = [(LOOKING_UP, HELP_LINES), *((k.value, [line for kind, line in rows if kind is k]) for k in Kind)]
        parts = command_parts([(title, lines) for title, lines in sections if lines])
        if not which:
            return Reply.of(*commands_index(parts))
        number = parse_number(which)
        if number is None or not 1 <= number <= len(parts):
            return Reply.error(no_such_part(len(parts)))
        return Reply.of(*commands_part(parts, number))

    def _line(self, text: str) -> Reply:
        if _WIN_QUESTION.fullmatch(text):  # "how do I win?": not a look-up (it read the card Slowdown)
            return self.help("win")
        game = self.game
        card_set = game.table.cards if game is not None else self.cards
        exact = card_set.find_exact(text)
        if exact is not None:  # a card's exact name is a look-up, even when it starts like a command ("Super Neigh")
            if game is not None and game.state.pile and exact.type is CardType.INSTANT and exact.has(Tag.NEIGH):
                return Reply.error(who_plays(exact.name.lower(), exact.name))
            return self.card_desk.look_up(text)
        try:
            command = parse_command(keep_card_names(text, card_set), game.setup.players if game is not None else ())
        except CommandError as exc:
            return Reply.error(str(exc))
        if command is None:
            if _is_number(text):
                return Reply.error(NO_CHOICE_PENDING)
            stray = _stray_digits(text)
            if stray is not None and self._is_command(stray[1]):  # "0end turn": a one-key answer typed by mistake
                return _after_outcome(self._line(stray[1]), stray_digits(stray[0]))
            head, _, rest = text.partition(" ")
            if head.lower() == "search":
                return self.card_desk.search(rest)
            reply = self.card_desk.look_up(text)
            near = near_verb(text) if reply.card is None and not reply.choices else None
            if near is None:
                return reply
            hint = command_hint(f"{near.phrases[0].rstrip(' *')} {rest}".strip())
            return reply.after(hint)
        return self._command(command)

    def _command(self, command: Command) -> Reply:
        verb = command.verb
        self._commanded = verb not in ("card", "help")
        if verb == "help":
            return self.help(command.rest.lower())
        if verb == "share":  # the front end shares the table, given the rest of the line as typed (an address)
            self._commanded = False  # an open question stays open
            argument = command.rest
            first = argument.split()[:1]
            word = first[0].lower() if first else ""
            if command.actor is not None and word in ("remove", "allow", "refuse"):  # "Ben share remove": Ben's
                # phones; "Ben share allow": Ben's waiting phone only (a name before any other form is passed over)
                if len(argument.split()) > 1:  # "Ben share remove Cy" names two players: nothing is done
                    return Reply.error(REMOVE_WHOSE if word == "remove" else share_form(word))
                argument = f"{word} {command.actor}"
            return Reply(control=Control.SHARE, argument=argument)
        if verb in ("yes", "no"):
            return Reply.of(NOTHING_TO_CONFIRM)
        if verb == "card":
            if command.card is None and self.subject is not None:
                return self.card_desk.card_reply(self.subject)
            return self.card_desk.look_up(command.card or "")
        if verb == "new-game":
            self.subject = None
            return self.keep(self.lobby.new_game(command))
        if verb == "resume":
            return self.resume_game()
        if verb == "about":
            self._commanded = False
            return Reply.of(*self.about())
        if verb in ("mute", "private"):  # what F5 and F6 do, done by the front end that has the speech
            self._commanded = False
            return Reply(control=Control.SPEECH, argument=verb)
        if verb == "tune":
            self._commanded = False
            return self._tune(command)
        if verb in ("repeat", "stop", "history", "verbosity", "catch-up"):
            self._commanded = False  # listening again leaves an open question open
            return self._listening(command)
        talk = self.lobby.talk
        if talk is None:
            return Reply.error(NO_GAME)
        subject, self.subject = self.subject, None
        return self.keep(talk.run(command, subject))

    def _listening(self, command: Command) -> Reply:
        """repeat, stop, history, verbosity, missed: about what is said, not about the game."""
        if command.verb == "catch-up":
            digest = missed(self.news, self.told, self._my_seat())
            self.news, self.told = (self.news, [*self.told, *digest.told]) if digest.more else ([], [])
            # (its win and turn typed, held as any reply's; its moves are no move of hers: not in `tells`)
            digested = Reply(segments=digest.segments)  # (its states told by its lines: `Digest.segments`)
            waiting = self.phone_desk.asking()  # a move that waits on her answer: where it stands, asked again
            return digested if waiting is None else digested.then(waiting)
        if command.verb == "stop":
            return Reply(control=Control.STOP)
        if command.verb == "repeat":
            if not self.said:
                return Reply.of(NOTHING_SAID_YET)
            return dataclasses.replace(self.said[-1], control=Control.REPEAT, pending=None, origin=OWN_KEY)
        if command.verb == "history":
            recent = list(self.said)[-_HISTORY_READ:]
            heading = answers_heading(len(recent))
            # every line shown again (a new join code kept private: `Part.PRIVATE`), but said only as each answer
            # was said: a line shown and never said (a renewed join code, which whoever was kept out must not hear)
            # stays unsaid
            shown = [Segment(Verbatim(heading), channel=Channel.SCREEN)]
            shown += [
                dataclasses.replace(segment, channel=Channel.SCREEN)
                for reply in recent
                for segment in reply.segments
                if segment.channel.shown
            ]
            # said: the heading, then each answer's spoken segments as they were said, telling nothing anew
            said = [Segment(Verbatim(heading), channel=Channel.SPEECH)]
            said += [
                Segment(segment.says, channel=Channel.SPEECH)
                for reply in recent
                for segment in reply.segments
                if segment.channel.spoken
            ]
            return Reply(control=Control.REPEAT, segments=(*shown, *said))
        level = Verbosity(command.word) if command.word else self.verbosity.next()
        self.set_verbosity(level)
        return Reply.of(verbosity_set(level.value))

    def _tune(self, command: Command) -> Reply:
        """`rate 70`, `faster`, `table pitch 40`: the voice's setting changed, applied and written, and said (at the
        new setting: applied before the reply is said); a bad value answered with the range and the setting now."""
        tuned = tune(self.speech, command)
        if tuned.refused:
            return Reply.error(tuned.sentence)
        if not tuned.changed:
            return Reply.of(tuned.sentence)
        self.speech = tuned.settings
        if self.retune is None or self.retune(tuned.settings, tuned.name):
            return Reply.of(tuned.sentence)
        return Reply.of(tuned.sentence, dial_not_honoured(tuned.name.removeprefix("table_")))

    def _my_seat(self) -> int | None:
        """The player's seat in the game (by the `me` setting; the first player when it names none)."""
        players = [name.casefold() for name in self.players()]
        return players.index(self.me.casefold()) if self.me.casefold() in players else 0 if players else None

    def set_verbosity(self, level: Verbosity) -> None:
        """Say more or less from now on (the game in progress and the next ones)."""
        self.verbosity = self.lobby.verbosity = level
        if self.lobby.talk is not None:
            self.lobby.talk.verbosity = level
        if self.remember is not None:
            self.remember(level)

    def notice(self, sentence: str) -> Reply:
        """A sentence from an adapter (no camera, camera lost, a decoder missing): shown and said, never dropped."""
        return Reply.of(sentence, important=True)

    def _choose(self, choice: Choice, number: int) -> Reply:
        card = choice.card_for(number)
        if card is None:
            self.pending = choice
            return Reply.error(choice_out_of_range(number, choice.highest))
        return self.keep(choice.then(card))


#: A line asking how to win, and nothing more ("how do I win?", "how to win"): answered with `help win`.
_WIN_QUESTION = re.compile(r"\s*how\s+(?:(?:do|does|can)\s+(?:i|you|we|one|a\s+player)\s+|to\s+)win\s*[?.!]*\s*", re.I)


def _is_number(text: str) -> bool:
    """A short run of ASCII digits: a choice among the cards offered."""
    return text.isascii() and text.isdigit() and len(text) <= _MOST_DIGITS


def _stray_digits(text: str) -> tuple[str, str] | None:
    """The digits a line starts with and the rest ("0end turn": "0", "end turn"); None when it starts otherwise."""
    rest = text.lstrip("0123456789")
    if rest == text or not rest.strip():
        return None
    return text[: len(text) - len(rest)], rest.strip()


def _after_outcome(reply: Reply, note: str) -> Reply:
    """The reply with a note said after its first line, so that its outcome still comes first."""
    return reply.after_first(note)
