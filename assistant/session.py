"""A running session: the cards in play and the reply to each line the player types or the camera reads.

The Textual app and the plain line mode both feed lines to `Session.handle` and show and speak the `Reply` it
returns, so the two modes cannot drift apart: what a line means (a command, in letters or in braille cells,
uncontracted or contracted; a number choosing a card; an answer; a card's name) is decided here and nowhere else.
The session keeps the one open question a reply may leave (numbered cards to choose from, or yes or no) and the card
just read, which a command naming no card means ("play").
"""

from __future__ import annotations

import dataclasses
import re
from collections import deque
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field

from assistant.core.braille import celltable
from assistant.core.cards.card import Card, CardSet, CardType, Deck, Tag, normalize, split_other_print
from assistant.core.cards.learning import NewCard, read_card_text, type_from_prefix
from assistant.core.cards.lookup import CardResolver, NameResolver, Resolution
from assistant.core.cards.search import search_cards, search_words
from assistant.core.cards.sheet import matching_card
from assistant.core.game.about import About, Topic
from assistant.core.game.history import Game
from assistant.core.language.builders import cards_with_words
from assistant.core.language.device import DeviceAnswer, DeviceJoined, DeviceMove, DeviceOutcome
from assistant.core.language.device_talk import DeviceTalk
from assistant.core.language.lobby import Lobby, SaveStore, shipped_addons
from assistant.core.language.parser import Command, CommandError, keep_card_names, parse_number
from assistant.core.language.reply import Choice, Control, Pending, Question, Reply
from assistant.core.language.verbs import Kind, example_names, help_rows, near_verb, parse_command
from assistant.core.scanning.aiming import Cue
from assistant.core.text import clean_untrusted, readable
from assistant.core.words.cardtext import (
    HELP_LINES,
    NO_CHOICE_PENDING,
    SEARCH_NOTHING,
    SEARCH_READ_OUT,
    card_lines,
    choice_out_of_range,
    describe_card,
    describe_print_variants,
    describe_resolution,
    print_variant_lines,
    search_results,
    type_name,
)
from assistant.core.words.errors import command_hint, stray_digits, who_plays
from assistant.core.words.gameplay import NO_GAME, NOT_RECORDED, NOTHING_TO_CONFIRM, RESUME_DECLINED, resume_offer
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
from assistant.core.words.learned import (
    REPLACE_WORDS,
    code_differs,
    name_only_close,
    offer_replacing_words,
    still_waits,
    words_kept,
    yes_is_not_enough,
)
from assistant.core.words.pace import missed, placed
from assistant.core.words.scans import (
    CARD_REFUSED,
    LEARNT_BY_NAME,
    SAY_CARD_TYPE,
    aiming_words,
    card_learned,
    card_not_learned,
    card_of_deck_not_in_play,
    card_words_learned,
    label_card_not_in_deck,
    label_not_in_play,
    offer_completing_card,
    offer_new_card,
    scanned_text,
    unknown_code,
)
from assistant.core.words.share import (
    REMOVE_WHOSE,
    UNKNOWN_CARD,
    new_phone_waits,
    no_phone_waits,
    phone_name,
    recorded_from,
)
from assistant.core.words.verbosity import Verbosity
from assistant.core.words.voice import NOTHING_SAID_YET, answers_heading, verbosity_set

__all__ = ["CardResolver", "Control", "Reply", "Session", "Verbosity"]

#: How many of the typed facts of other hands' moves `missed` keeps (a game's worth: its digest says the newest).
_NEWS_KEPT = 400

#: The longest line read as a number choosing one of the cards offered.
_MOST_DIGITS = 3
#: How many answers the session keeps for `repeat` and `history`, and how many `history` reads.
_KEPT, _HISTORY_READ = 20, 5


class _WhenGoneThrough:
    """The installed decks, read only when a payload is gone through for them (a label or a name of a card not in
    play): a card of the decks in play never waits for every deck file to be read (a tenth of a second or more,
    on the app's event loop)."""

    def __init__(self, load: Callable[[], Sequence[Deck]]) -> None:
        self.load = load

    def __iter__(self) -> Iterator[Deck]:
        return iter(self.load())


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
    me: str = ""
    """The player's name in games (the `me` setting): a digest of what she missed says first the moves that took
    her cards. "" or no such player: the first player."""
    said: deque[Reply] = field(default_factory=lambda: deque(maxlen=_KEPT), init=False, repr=False)
    """The last answers, oldest first: what `repeat` and `history` read."""
    _commanded: bool = field(default=False, init=False, repr=False)
    """The line being answered is a command (it cancels an open yes-or-no question)."""
    devices: DeviceTalk = field(init=False, repr=False)
    """Moves from devices (phones on the shared table), each device with its own open question."""
    news: list[About] = field(default_factory=list, init=False, repr=False)
    """What other hands' moves told since the player's last move or her last `missed` (their facts and moves, typed):
    what the digest says."""
    told: list[About] = field(default_factory=list, init=False, repr=False)
    """What the parts of the digest said so far, when more of it waits for the next `missed`."""

    def __post_init__(self) -> None:
        self.lobby = Lobby(
            self.cards, self.resolve, store=self.store, load_cards=self.load_cards, verbosity=self.verbosity
        )
        self.devices = DeviceTalk(lambda: self.lobby.talk, host_busy=lambda: self.pending is not None)

    def device_move(self, player: str, move: DeviceMove) -> DeviceOutcome:
        """Carry out a move from `player`'s device through the game's conversation, as a typed line would be; the
        keyboard's open question stays open. The laptop's reply (if any) is kept for `repeat` and `history`. Reading
        a card is the phone's alone: its full text as the laptop says it, and nothing said or kept on the laptop."""
        if move.verb == "read":
            return self._card_text(move.card or "")
        outcome = self._device_said(player, self.devices.move(player, move))
        if outcome.reply is not None and outcome.reply.pending is not None:  # a save the host is asked (the laptop
            self.pending = outcome.reply.pending  # asks it only when it asks nothing else: `DeviceTalk.host_busy`)
        return outcome

    def _card_text(self, card_id: str) -> DeviceOutcome:
        """A card's text for a phone (`_card_reply`'s lines), from the game's decks (the session's, with no game)."""
        cards = self.game.table.cards if self.game is not None else self.cards
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
            if self.pending is None and not waiting_before:
                self.pending = outcome.reply.pending
            else:
                outcome = dataclasses.replace(outcome, reply=Reply.of(new_phone_waits(player), important=True))
        return self._device_said(player, outcome)

    def decide_join(self, player: str, allow: bool) -> Reply:
        """`share allow` or `share refuse` (NAME, or "" for the phone that has waited longest): the host's answer,
        and the next phone that waits asked about (the keyboard's question now)."""
        waiting = self.devices.waiting()
        name = next((p for p in waiting if player.casefold() in ("", p.casefold())), None)
        if name is None:
            return Reply.of(no_phone_waits(clean_untrusted(player, 30)))
        if self.pending is not None and self.pending is self.devices.host_question:
            self.pending = None  # answered another way: a later yes answers nothing it did not ask
        reply = self.devices.decide(name, allow)
        if reply.pending is not None:
            self.pending = reply.pending
        self._remember(reply)
        return reply

    def _device_said(self, player: str, outcome: DeviceOutcome) -> DeviceOutcome:
        """Keep the laptop's reply to a device for `repeat`, `history` and `missed`; a move recorded from a phone is
        kept with the phone named ("From Ben's phone.")."""
        if outcome.reply is not None:  # heard at the seat of the player whose device it answers
            outcome = dataclasses.replace(outcome, reply=dataclasses.replace(outcome.reply, hand=player))
        reply = outcome.reply
        if reply is not None and outcome.phone is not None and self.game is not None:
            mover = self.game.table.setup.players[outcome.phone.seat]  # (a save answered by its owner: the mover's)
            note = recorded_from(phone_name(mover, outcome.phone.number))
            reply = dataclasses.replace(reply, lines=(*reply.lines, note), speech=f"{reply.speech} {note}")
            if outcome.named:  # one of two phones: the laptop says which, as `history` keeps it
                outcome = dataclasses.replace(outcome, reply=reply)
        if reply is not None:
            self._remember(reply)
            game = self.game
            # the move, then what it led to, kept with its place in the log (so that an undo takes both back)
            at = len(game.log) if game is not None and outcome.status == "recorded" and not reply.settles else 0
            self.news = [*self.news, *placed([*reply.tells, *reply.facts], at)][-_NEWS_KEPT:]
        return outcome

    def find_cards(self, query: str, most: int = 10) -> list[Card]:
        """Cards of the game's decks (the session's, with no game) a device's search names: the resolver's match and
        candidates (names, abbreviations, braille), then names with a word starting with each word typed."""
        game = self.game
        cards = game.table.cards if game is not None else self.cards
        if not query.strip():
            return []
        resolution = self.resolve(query)
        found = [resolution.match] if resolution.match is not None else []
        found += [c.card for c in resolution.candidates]
        found += cards_with_words(cards, query)
        seen: dict[str, Card] = {}
        for card in found:
            if card is not None and cards.get(card.id) is not None:
                seen.setdefault(card.id, card)
        return list(seen.values())[:most]

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
        question = resume_offer(players)
        # declining it is said; another command simply starts (the offer said so), with no "Not recorded."
        offer = Question(self.resume_game, declined=RESUME_DECLINED)
        return self._keep(Reply((question,), question, important=True, pending=offer))

    def resume_game(self, repair: bool = True) -> Reply:
        """Continue the last saved game (the app on start, `resume`, the plain mode with --resume)."""
        return self._keep(self.lobby.resume(repair))

    def resolve(self, query: str) -> Resolution:
        """Resolve a query with the best resolver available."""
        return self._resolver().resolve(query)

    def prepare(self) -> None:
        """Build ahead what the first look-up would: the app calls it once its screen is drawn, so the player's
        first key does not wait for it (a braille look-up's index and the fuzzy matcher's import take tens of ms)."""
        self._resolver().prepare()

    def _resolver(self) -> CardResolver:
        """The resolver given, or the standard-library one on the cards in play."""
        return self.resolver if self.resolver is not None else NameResolver(self.cards)

    def handle(self, line: str) -> Reply:
        """Answer one typed line."""
        game = self.game
        reply = self._handle(line)
        if any(fact.topic is Topic.MOVE for fact in reply.tells) or self.game is not game:
            self.news, self.told = [], []  # the player's own move, another game: the digest starts again from here
        else:  # her undo or redo: what it took back of the news is no news
            self.news = [*self.news, *(fact for fact in reply.tells if fact.topic is Topic.UNDO)][-_NEWS_KEPT:]
        return self._remember(reply)

    def _remember(self, reply: Reply) -> Reply:
        """Keep an answer for `repeat` and `history` (not a speech control, a hint or an empty reply)."""
        if reply.control is Control.NONE and not reply.hint and reply.lines:
            self.said.append(reply)
        return reply

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
                return self._keep(pending.then())
            if answer in ("no", "n", "cancel"):
                if pending.refused is not None:
                    return self._keep(pending.refused())
                return Reply.of(NOT_RECORDED if pending.declined is None else pending.declined)
            other = pending.other(text) if pending.other is not None else None
            if other is not None:
                return self._keep(other)
        self._commanded = False
        reply = self._line(text)
        if isinstance(pending, Question) and not self._commanded:
            self.pending = self.pending or pending  # a card looked up while deciding: the question still waits
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
        contracted = self._resolver().read_contracted(cells)
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

    def _keep(self, reply: Reply) -> Reply:
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
            return Reply(lines, " ".join(lines))
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
            return self.look_up(text)
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
                return self.search(rest)
            reply = self.look_up(text)
            near = near_verb(text) if reply.card is None and not reply.choices else None
            if near is None:
                return reply
            hint = command_hint(f"{near.phrases[0].rstrip(' *')} {rest}".strip())
            return dataclasses.replace(reply, lines=(*reply.lines, hint), speech=f"{reply.speech} {hint}")
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
            if command.actor is not None and first and first[0].lower() == "remove":  # "Ben share remove": Ben's
                if len(argument.split()) > 1:  # phones; "Ben share remove Cy" names two players: nobody is removed
                    return Reply.error(REMOVE_WHOSE)
                argument = f"remove {command.actor}"
            return Reply((), "", control=Control.SHARE, argument=argument)
        if verb in ("yes", "no"):
            return Reply.of(NOTHING_TO_CONFIRM)
        if verb == "card":
            if command.card is None and self.subject is not None:
                return self._card_reply(self.subject)
            return self.look_up(command.card or "")
        if verb == "new-game":
            self.subject = None
            return self._keep(self.lobby.new_game(command))
        if verb == "resume":
            return self.resume_game()
        if verb in ("repeat", "stop", "history", "verbosity", "catch-up"):
            self._commanded = False  # listening again leaves an open question open
            return self._listening(command)
        talk = self.lobby.talk
        if talk is None:
            return Reply.error(NO_GAME)
        subject, self.subject = self.subject, None
        return self._keep(talk.run(command, subject))

    def _listening(self, command: Command) -> Reply:
        """repeat, stop, history, verbosity, missed: about what is said, not about the game."""
        if command.verb == "catch-up":
            digest = missed(self.news, self.told, self._my_seat())
            self.news, self.told = (self.news, [*self.told, *digest.told]) if digest.more else ([], [])
            # (its win and turn typed, held as any reply's; its moves are no move of hers: not in `tells`)
            return Reply(digest.lines, digest.text, facts=digest.states)
        if command.verb == "stop":
            return Reply((), "", control=Control.STOP)
        if command.verb == "repeat":
            if not self.said:
                return Reply.of(NOTHING_SAID_YET)
            return dataclasses.replace(self.said[-1], control=Control.REPEAT, pending=None)
        if command.verb == "history":
            recent = list(self.said)[-_HISTORY_READ:]
            lines = (answers_heading(len(recent)), *(line for reply in recent for line in reply.lines))
            return Reply(lines, " ".join(lines), control=Control.REPEAT)
        level = Verbosity(command.word) if command.word else self.verbosity.next()
        self.set_verbosity(level)
        return Reply.of(verbosity_set(level.value))

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

    def search(self, query: str) -> Reply:
        """The cards whose name, text or tags mention the words, numbered so that a digit reads one."""
        if not search_words(query):
            return Reply.error(SEARCH_NOTHING)
        found = [f.card for f in search_cards(self.cards, query)]
        sentence = search_results(query, found)
        offered = tuple(found[:SEARCH_READ_OUT])
        return self._keep(Reply((sentence,), sentence, pending=Choice(offered, self._card_reply) if offered else None))

    def look_up(self, query: str) -> Reply:
        """Resolve a card query and describe the outcome; "NAME, other print" reads the card's other prints."""
        query, other_print = split_other_print(query)
        answer = self._print_reply if other_print else self._card_reply
        if other_print and not query.strip() and self.subject is not None:
            return self._keep(answer(self.subject))  # "other print" alone: the card just read
        resolution = self.resolve(query)
        bare = re.sub(r"^\s*the\s+", "", query, flags=re.IGNORECASE)
        if resolution.match is None and bare != query:  # "card the yay": the article was not part of a name
            resolution = self.resolve(bare)
        notice = self._resolver().take_notice()
        if resolution.match is not None:
            reply = answer(resolution.match)
        elif len(resolution.candidates) == 1:  # the one card close to it: simply read
            reply = answer(resolution.candidates[0].card)
        else:
            candidates = tuple(c.card for c in resolution.candidates)
            titles = {deck.info.id: deck.info.title for deck in self.cards.decks}
            sentence = describe_resolution(resolution, self.cards.vocabulary, titles)
            pending = Choice(candidates, answer) if candidates else None
            reply = Reply((sentence,), sentence, important=True, sound="" if candidates else "error", pending=pending)
        if notice:  # said once, before the answer, and kept on screen with it
            reply = reply.before(notice)
        return self._keep(reply)

    def _card_reply(self, card: Card) -> Reply:
        """A card's full text; the card becomes the subject of the next command."""
        vocabulary = self.cards.vocabulary
        lines = card_lines(card, vocabulary, self.cards.copies_known(card))
        return self._keep(Reply(tuple(lines), describe_card(card, vocabulary), card=card))

    def _print_reply(self, card: Card) -> Reply:
        """What the card does in its other prints ("card seductive unicorn, other print")."""
        vocabulary = self.cards.vocabulary
        lines = print_variant_lines(card, vocabulary)
        return self._keep(Reply(tuple(lines), describe_print_variants(card, vocabulary), card=card))

    def scanned(self, payload: str | bytes) -> Reply:
        """Answer a code read by the camera (untrusted payload): its card, its words, or "unknown code". While a
        question waits (numbered cards, yes or no), the code is only read out and the question stays as it was."""
        waiting = self.pending
        reply, learnable = self._scanned(payload, asking=waiting is not None)
        if waiting is None:
            return self._remember(reply)
        self.pending = waiting  # the card read is the subject as usual; the question is kept as it was
        note = still_waits(isinstance(waiting, Choice), learnable)
        said = dataclasses.replace(reply, lines=(*reply.lines, note), speech=f"{reply.speech} {note}".strip())
        return self._remember(dataclasses.replace(said, pending=None, important=True))

    def _scanned(self, payload: str | bytes, asking: bool) -> tuple[Reply, bool]:
        """A scanned code's reply, and whether it could have been learnt. With `asking` (a question waits) nothing
        is offered or learnt."""
        from assistant.core.scanning.payloads import PayloadKind, resolve_payload

        installed = _WhenGoneThrough(self.installed) if self.installed is not None else ()
        meaning = resolve_payload(payload, self.cards, lambda query: self._resolver().resolve(query).match, installed)
        elsewhere = card_of_deck_not_in_play(*reversed(meaning.elsewhere)) if meaning.elsewhere[0] else ""
        if meaning.card is not None and meaning.kind is not PayloadKind.TEXT:
            return self._card_reply(meaning.card), False
        if meaning.kind is PayloadKind.TEXT:
            new = meaning.new_card or read_card_text(meaning.payload) if meaning.new_card_text else None
            new = new if self.learn is not None else None
            if new is not None and meaning.card is None:
                same = matching_card(new.name, self.cards.base)
                if same is not None and normalize(same.name) != normalize(new.name):  # a typo is never that card
                    sentence = name_only_close(new.name, same.name, new.text)
                    return Reply((sentence,), sentence, important=True), False
                if not asking:
                    offer = self._offer_card(new, same)
                    return self._keep(offer.before(elsewhere) if elsewhere else offer), True
            text = scanned_text(meaning.payload)
            told = meaning.told
            lines: tuple[str, ...] = (text,)
            if meaning.card is not None and normalize(told) != normalize(meaning.card.text):
                lines = (code_differs(meaning.card.name, told or meaning.payload),)
                if told.strip() and self.learn is not None:
                    if asking:
                        return Reply(lines, lines[0], card=meaning.card), True
                    if meaning.card.text == LEARNT_BY_NAME:  # learnt by its name alone: its words complete it
                        return self._keep(self._offer_completing(meaning.card, told)), True
                    return self._keep(self._offer_words(meaning.card, told)), True
            return self._keep(Reply(lines, lines[0], card=meaning.card)), new is not None
        if meaning.kind is PayloadKind.LABEL and meaning.deck_in_play:
            sentence = label_card_not_in_deck(meaning.deck, meaning.card_id)
        elif meaning.kind is PayloadKind.LABEL:
            sentence = elsewhere or label_not_in_play(meaning.deck, meaning.card_id)
        else:
            sentence = unknown_code(meaning.payload)
        return Reply.error(sentence), False

    def _offer_completing(self, card: Card, text: str) -> Reply:
        """Offer to keep a code's words for a card learnt by its name alone; yes learns them (as its type)."""
        sentence = offer_completing_card(card.name, text)
        keep = Question(lambda: self._learn(NewCard(card.name, text, card.type), card.type, card))
        return Reply((sentence,), sentence, important=True, card=card, pending=keep)

    def _offer_words(self, card: Card, text: str) -> Reply:
        """A code naming a card in other words: said, with the deck's words and the deliberate answer that takes
        the code's (`REPLACE_WORDS`, never a single key: yes alone is told it does nothing)."""
        differs = code_differs(card.name, text)
        offer = offer_replacing_words(card.name, card.text)
        new = NewCard(card.name, text, card.type)

        def deliberate(line: str) -> Reply | None:
            if " ".join(line.lower().strip(".! ").split()) != REPLACE_WORDS:
                return None
            return self._learn(new, card.type, card)

        def stray_yes() -> Reply:
            sentence = yes_is_not_enough(card.name)
            return Reply((sentence,), sentence, important=True, pending=question)

        question = Question(stray_yes, deliberate, declined=words_kept(card.name))
        return Reply((differs, offer), f"{differs} {offer}", important=True, card=card, pending=question)

    def _learn(self, new: NewCard, card_type: CardType, same: Card | None) -> Reply:
        """Add a scanned card, or give a deck's card (`same`) the scanned words; said either way."""
        if self.learn is None:  # nothing is offered for learning without a learner (`_scanned`)
            return Reply.error(card_not_learned(new.name, CARD_REFUSED))
        try:
            path, cards, resolver = self.learn(new, card_type)
        except (OSError, LookupError, ValueError) as exc:
            return Reply.error(card_not_learned(new.name, str(exc).splitlines()[0]))
        self.cards, self.resolver, self.lobby.cards = cards, resolver, cards
        if same is not None:
            sentence = card_words_learned(same.name, path)
            return Reply((sentence,), sentence, important=True, card=cards.get(same.id))
        sentence = card_learned(new.name, type_name(card_type, cards.vocabulary), path)
        return Reply((sentence,), sentence, important=True, card=cards.find_exact(new.name))

    def _offer_card(self, new: NewCard, same: Card | None) -> Reply:
        """Offer to add a scanned card this deck does not have; its type from its words, or the player's answer.
        `same`: the base deck's card of the same name (folded), not in play: its words, deliberately."""
        if same is not None:
            return self._offer_words(self.cards.get(same.id) or same, new.text)

        def other(text: str) -> Reply | None:
            card_type = type_from_prefix(text)
            return None if card_type is None else self._learn(new, card_type, None)

        vocabulary = self.cards.vocabulary
        kind = type_name(new.type, vocabulary) if new.type is not None else ""
        sentence = offer_new_card(new.name, kind, new.text)

        def then() -> Reply:
            if new.type is not None:
                return self._learn(new, new.type, None)
            return Reply((SAY_CARD_TYPE,), SAY_CARD_TYPE, important=True, pending=question)

        question = Question(then, other)
        return Reply((sentence,), sentence, important=True, pending=question)

    def aiming(self, cue: Cue) -> Reply:
        """An aiming cue (`assistant.core.scanning.aiming.Cue`) as a hint reply."""
        sentence = aiming_words(cue.value)
        # the confirmation's sound is the card reply's "card-read" that follows it
        return Reply((sentence,), sentence, hint=True, sound="" if cue is Cue.READ else "code-seen")

    def notice(self, sentence: str) -> Reply:
        """A sentence from an adapter (no camera, camera lost, a decoder missing): shown and said, never dropped."""
        return Reply((sentence,), sentence, important=True)

    def _choose(self, choice: Choice, number: int) -> Reply:
        card = choice.card_for(number)
        if card is None:
            self.pending = choice
            return Reply.error(choice_out_of_range(number, choice.highest))
        return self._keep(choice.then(card))


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
    first, rest = reply.lines[:1], reply.lines[1:]
    speech = " ".join(part for part in (" ".join(first), note, " ".join(rest)) if part)
    return dataclasses.replace(reply, lines=(*first, note, *rest), speech=speech)
