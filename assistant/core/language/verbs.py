"""Every verb of the command language in one table: how it is said, how its words are read, what it builds or
answers, and how it is explained (the help, the game help lines and the tables in docs/commands.md are made
from this table, and a test checks the doc against it).

`parse_command` finds the verb at the start of a line and hands the rest to the verb's parser.
"""

from __future__ import annotations

import dataclasses
import difflib
import enum
import re
from collections.abc import Callable
from dataclasses import dataclass

from assistant.core.cards.card import Card, CardSet, CardType, Tag, Vocabulary
from assistant.core.game import events
from assistant.core.game.chain import is_plain_neigh
from assistant.core.game.events import Event
from assistant.core.game.history import Game
from assistant.core.game.segment import Segment
from assistant.core.language import builders
from assistant.core.language.builders import Context, find_player
from assistant.core.language.parser import (
    DIAL_WORDS,
    Command,
    is_player,
    parse_baby,
    parse_card_from,
    parse_card_into,
    parse_count,
    parse_deck,
    parse_end,
    parse_give,
    parse_hand,
    parse_level,
    parse_move,
    parse_neigh,
    parse_new_game,
    parse_nothing,
    parse_nursery,
    parse_player,
    parse_query,
    parse_return,
    parse_sacrifice,
    parse_shuffle,
    parse_skip,
    parse_swap,
    parse_swap_hands,
    parse_take,
    parse_tuning,
    parse_win,
)
from assistant.core.language.verb_names import VerbName
from assistant.core.words.position import (
    describe_chain,
    describe_discard,
    describe_draw_pile,
    describe_hands,
    describe_herd,
    describe_log,
    describe_nursery,
    describe_players,
    describe_rules,
    describe_stable,
    describe_tally,
    pile_said,
    turn_said,
)

Parser = Callable[[VerbName, list[str], list[str], tuple[str, ...]], Command]
Builder = Callable[[Context], Event]
Answer = Callable[[Game, Command], tuple[str | Segment, ...]]


class Kind(enum.Enum):
    """What a verb does, which is also the section of docs/commands.md it is listed in."""

    START = "Starting, continuing, correcting"
    EVENT = "Events"
    QUESTION = "Questions"
    LISTENING = "Listening"


@dataclass(frozen=True)
class Verb:
    """One verb of the command language."""

    name: VerbName
    kind: Kind
    phrases: tuple[str, ...]
    """How it is said, each a phrase of words; a final `*` takes the rest of the line."""
    rows: tuple[tuple[str, str], ...]
    """Examples and what each does: the help and the tables in docs/commands.md. The first is the verb's own. Each
    a template of the help's words (`HelpWords`: `{Stable}`, `{aura}`...), rendered by `rendered`."""
    parse: Parser = parse_nothing
    build: Builder | None = None
    """Event verbs: the event the command records."""
    answer: Answer | None = None
    """Question verbs (and event verbs that also ask, such as "hand" alone): the lines of the answer."""
    events: tuple[type[Event], ...] = ()
    """The events the builder may make (a test checks every event has a verb)."""
    card_needed: bool = False
    """The command names a card; with none named, the card just read is meant."""

    @property
    def example(self) -> str:
        """The verb's first example, as typed."""
        return self.rendered()[0][0].split(",")[0].strip("`… ")

    def rendered(self, words: HelpWords | None = None) -> tuple[tuple[str, str], ...]:
        """Its rows in the help's words (`HelpWords`; none: Unstable Unicorns' own, as docs/commands.md has them)."""
        return tuple(_render(row, words or HelpWords()) for row in self.rows)

    @property
    def help_line(self) -> str:
        """One line of the game help."""
        return help_line(self.rows[0], HelpWords())


@dataclass(frozen=True)
class HelpWords:
    """What the help's rows name, as the game in play says it: the parameters its templates are rendered with
    (`Verb.rows`). The defaults are Unstable Unicorns' own words and cards, those of docs/commands.md."""

    Stable: str = "Stable"
    """The area in front of a player (`Vocabulary.area`)."""
    Unicorn: str = "Unicorn"
    """The creature in it (`Vocabulary.creature`)."""
    Neighed: str = "Neighed"
    """What a card an Instant stops is ("stopped" where there is no Neigh to say)."""
    aura: str = "rainbow aura"
    """An Upgrade the examples name, lower case as typed; the other examples likewise."""
    yay: str = "yay"
    slowdown: str = "slowdown"
    basic: str = "basic red"
    baby: str = "baby red"
    colour: str = "red"
    """A Baby named after a player's name ("baby Ana red")."""
    discarded: str = "neigh"
    """A card named to be discarded (an Instant)."""
    optional: str = "unicorn speed"
    """An optional beginning-of-turn effect, as typed, and what it gives (`optional_effect`)."""
    optional_effect: str = "Unicorn Speed's extra card"
    neigh_topic: str = "neigh, "
    """The help topic "neigh" in the list of topics, and the note that it is there only with a Neigh card ("": a
    deck with none)."""
    neigh_only: str = "; neigh only in a deck with a Neigh card"

    def fields(self) -> dict[str, str]:
        """Every parameter by its name, and each example card capitalised as a sentence names it (`{Aura}`)."""
        fields = dataclasses.asdict(self)
        for name in ("aura", "yay", "slowdown", "basic", "baby"):
            said = fields[name]
            fields[name.capitalize()] = said if said == _NO_BABY else said.title()
        return fields


def help_line(row: tuple[str, str], words: HelpWords) -> str:
    """A row as a line of the game help: its example as typed, then what it does, in the help's words; the
    backticks that mark what is typed in docs/commands.md are left out (a screen reader set to say punctuation,
    and a braille display, gave them as they were)."""
    example, meaning = _render(row, words)
    return f"{example}: {meaning}.".replace("`", "")


def _render(row: tuple[str, str], words: HelpWords) -> tuple[str, str]:
    fields = words.fields()
    return row[0].format_map(fields), row[1].format_map(fields)


# A table (fmt: skip): word and verb pairs in rows, not one pair a line.
#: Words said for a verb's first word.
SYNONYMS: dict[str, VerbName] = {
    "plays": "play", "played": "play", "answer": "play", "answers": "play", "neighs": "neigh",
    "instant": "neigh",
    "resolves": "resolve", "done": "resolve", "draws": "draw", "discards": "discard", "steals": "steal",
    "destroys": "destroy", "sacrifices": "sacrifice", "brings": "bring", "returns": "return", "takes": "take",
    "swaps": "swap", "moves": "move", "field": "stable", "stables": "stable", "fields": "stable", "score": "tally",
    "count": "tally", "confirm": "yes", "y": "yes", "ok": "yes", "cancel": "no", "n": "no",
    "whose": "turn", "status": "turn", "where": "turn", "read": "card", "what": "card", "misses": "miss",
    "gives": "give",
}  # fmt: skip


def _lines(describe: Callable[[Game], str | list[str]]) -> Answer:
    """An answer made by one `words` function of the game."""

    def answer(game: Game, command: Command) -> tuple[str, ...]:
        said = describe(game)
        return (said,) if isinstance(said, str) else tuple(said)

    return answer


def _answer_stable(game: Game, command: Command) -> tuple[str, ...]:
    table, state = game.table, game.state
    seats = range(len(state.players)) if command.target is None else [find_player(command.target, table.setup.players)]
    lines: list[str] = []
    for seat in seats:
        lines.append(describe_stable(table, state, seat))
        herd = describe_herd(table, state, seat)
        if herd:
            lines.append(herd)
    return tuple(lines)


_hands = _lines(lambda g: describe_hands(g.table, g.state))

# A table (fmt: skip): one verb a row, its words and its help lines laid out as the help reads them.
VERBS: tuple[Verb, ...] = (
    # Starting, continuing, correcting: the session and the lobby carry these out.
    Verb("new-game", Kind.START, ("new game",), (
        ("`new game Ana Ben Cy`", "a new game; names in clockwise order, the first name goes first"),
        ("… `first Ben`", "Ben goes first"),
        ("… `rules uu-five`", "another rule profile: `uu-current`, `uu-first`, `uu-five`, `uu-nsfw`, `llamas` "
         "(default: the deck's)"),
        ("… `win 6`", "the table's own number to win"),
        ("… `two player`", "the 2-player variant (rulebook 002): cards removed, one Neigh each"),
        ("… `babies red pink narwhal`", "each player's Baby, in seating order (or later: `baby Ana {colour}`)"),
        ("… `stickler` / `rule-breaker` / `deck out reshuffle`", "first edition: what happens when the deck runs out"),
        ("… `hands`", "count hand sizes from the deal (otherwise unknown until reported)"),
        ("… `deck uu-1st` / `addon uu-dragons`", "other decks than the ones the app was started with"),
    ), parse=parse_new_game),
    Verb("resume", Kind.START, ("resume", "continue"), (
        ("`resume`", "continue the last saved game exactly (also `table-assistant --resume`)"),
    )),
    Verb("undo", Kind.START, ("undo",), (
        ("`undo`, `undo 3`, `undo all`", "take back events; each is announced (\"Undone: Ana played {Aura}.\")"),
    ), parse=parse_count),
    Verb("redo", Kind.START, ("redo",), (("`redo`, `redo 2`, `redo all`", "put undone events back"),),
         parse=parse_count),
    Verb("yes", Kind.START, ("yes",), (("`yes` / `confirm`", "record a warned event anyway"),)),
    Verb("no", Kind.START, ("no",), (("`no` / `cancel`", "record nothing; any other command also cancels"),)),
    # Events.
    Verb("baby", Kind.EVENT, ("baby",), (("`baby Ana {colour}`", "a Baby from the Nursery into Ana's {Stable}"),),
         parse=parse_baby, build=builders.build_baby, events=(events.Bring,), card_needed=True),
    Verb("play", Kind.EVENT, ("play",), (
        ("`play {aura}`", "the current player plays a card from hand; {Unicorn}s, Upgrades and Downgrades go "
         "into their own {Stable}; with no card named, the card just read"),
        ("`play {slowdown} into Ben`", "… into Ben's {Stable}"),
        ("`Ben play CARD` (an Instant, while a card is on the pile)", "Ben answers with that Instant"),
        ("`Ben play CARD` (an Instant, no card on the pile)", "Ben's Instant answers the effect being done or the "
         "start of a turn (Unicorn Net, Flare Gun, Fishing Rod): it can be {Neighed}, and once resolved its effect "
         "comes first in the chain"),
        ("`play CARD from deck`, `play CARD from discard`", "a card's effect plays a card at once from the deck or "
         "the discard pile (Dragon Kiss): not the turn's play"),
        ("`play CARD targeting Ben`, `play CARD targeting Ben and Cy`", "… declaring the players its effect aims "
         "at (002, targeting Option 1): said with the play and the question that asks for an answer, and each "
         "warned when that player has nothing the card needs"),
    ), parse=parse_card_into, build=builders.build_play, events=(events.Play, events.Respond), card_needed=True),
    Verb("neigh", Kind.EVENT, ("neigh",), (
        ("`neigh Ben`, `Ben neigh`", "Ben answers the top card of the pile with a Neigh"),
        ("`instant Ben`, `neigh Ben` (a deck with no card named Neigh: Llamas Unleashed)", "asks which of the deck's "
         "Instants Ben plays, numbered; a number answers (or say `Ben plays spit happens`)"),
    ), parse=parse_neigh, build=builders.build_neigh, events=(events.Respond,)),
    Verb("super-neigh", Kind.EVENT, ("super neigh", "super neighs"), (
        ("`super neigh Cy`", "Cy answers with a Super Neigh"),
    ), parse=parse_neigh, build=builders.build_neigh, events=(events.Respond,)),
    Verb("resolve", Kind.EVENT, ("resolve",), (
        ("`resolve` (or `done`)", "the top of the pile resolves; with no pile, the first link of the effect chain "
         "is done"),
    ), build=builders.build_resolve, events=(events.Resolve,)),
    Verb("use", Kind.EVENT, ("use",), (
        ("`use {optional}`", "the current player uses an optional beginning-of-turn effect ({optional_effect}): "
         "what follows, a `draw` too, is that effect's, never the Draw phase's; `resolve` when it is done"),
    ), parse=parse_sacrifice, build=builders.build_use, events=(events.UseEffect,), card_needed=True),
    Verb("next", Kind.EVENT, ("next", "end phase"), (
        ("`next`", "the next thing: resolve what waits, or else go to the next phase (from End of turn: the next "
         "turn)"),
    ), build=builders.build_next, events=(events.Resolve, events.NextPhase)),
    Verb("skip", Kind.EVENT, ("skip",), (
        ("`skip`", "skip the current phase (a card said so)"),
        ("`skip draw`, `skip action`", "skip that phase of this turn, as a card says (Sticky Situation: the phase "
         "its owner gives up)"),
    ), parse=parse_skip, build=builders.build_skip, events=(events.NextPhase, events.SkipPhase)),
    Verb("end", Kind.EVENT, ("end turn", "end"), (
        ("`end turn`, `end turn Ana`", "the turn ends; the next player's turn begins (or Ana's, when a card gives "
         "another turn)"),
    ), parse=parse_end, build=builders.build_end_turn, events=(events.EndTurn,)),
    Verb("draw", Kind.EVENT, ("draw",), (
        ("`draw`, `draw 2`, `Ben draw`", "draw from the deck (at the start of a turn: the Draw phase's draw)"),
    ), parse=parse_count, build=builders.build_draw, events=(events.Draw,)),
    Verb("discard", Kind.EVENT, ("discard",), (
        ("`discard`, `discard {discarded}`", "discard a card from hand, named or not"),
        ("`discard 3`, `discard hand`, `Ben discard 3`", "discard a number of cards, not named, or the whole hand "
         "(a hand whose size is not known is recorded all the same)"),
    ), parse=parse_count, build=builders.build_discard, events=(events.Discard,)),
    Verb("bring", Kind.EVENT, ("bring",), (
        ("`bring {basic} into Ana`", "bring a card directly into a {Stable} (not played: cannot be {Neighed}); add "
         "`from discard`, `from deck` or `from nursery`"),
    ), parse=parse_card_into, build=builders.build_bring, events=(events.Bring,), card_needed=True),
    Verb("steal", Kind.EVENT, ("steal",), (
        ("`steal {aura}`, `steal {aura} from Ben`", "move a card from another player's {Stable} into the "
         "current player's"),
    ), parse=parse_card_from, build=builders.build_steal, events=(events.Steal,), card_needed=True),
    Verb("destroy", Kind.EVENT, ("destroy",), (
        ("`destroy {basic}`, `destroy {basic} from Ben`", "a card from another player's {Stable} to the discard "
         "pile"),
    ), parse=parse_card_from, build=builders.build_destroy, events=(events.Destroy,), card_needed=True),
    Verb("sacrifice", Kind.EVENT, ("sacrifice",), (
        ("`sacrifice {aura}`", "a card from one's own {Stable} to the discard pile"),
    ), parse=parse_sacrifice, build=builders.build_sacrifice, events=(events.Sacrifice,), card_needed=True),
    Verb("save", Kind.EVENT, ("save",), (
        ("`save {basic} with black knight unicorn`", "a card about to be destroyed or sacrificed stays: its owner's "
         "card that saves it instead is sacrificed (or the cards it costs are discarded); offered when one applies"),
    ), parse=parse_swap, build=builders.build_save, events=(events.Save,), card_needed=True),
    Verb("return", Kind.EVENT, ("return",), (
        ("`return {aura}`, `return {yay} to hand`", "a card from a {Stable} back to its owner's hand"),
        ("`return {basic} to the deck`, `return {basic} to the discard pile`", "a card from a {Stable} into the "
         "deck, shuffled, or straight to the discard pile (Unicorn Shrinkray): neither a destroy nor a sacrifice, so "
         "only a leave effect of any leaving follows"),
    ), parse=parse_return, build=builders.build_return, events=(events.ReturnToHand, events.ToDeck, events.ToDiscard),
        card_needed=True),
    Verb("take", Kind.EVENT, ("take",), (
        ("`take {yay} from deck`, `take {yay} from discard`", "search the deck or the discard pile for a card (shown, "
         "then into hand)"),
    ), parse=parse_take, build=builders.build_take, events=(events.Take,), card_needed=True),
    Verb("swap-hands", Kind.EVENT, ("swap hands",), (("`swap hands Ana Ben`", "two players exchange hands"),),
         parse=parse_swap_hands, build=builders.build_swap_hands, events=(events.SwapHands,)),
    Verb("swap", Kind.EVENT, ("swap",), (
        ("`swap {yay} with {slowdown}`", "two cards in two {Stable}s change places (`swap {yay} from Ana with "
         "{slowdown} from Ben`)"),
    ), parse=parse_swap, build=builders.build_swap, events=(events.Swap,), card_needed=True),
    Verb("move", Kind.EVENT, ("move",), (
        ("`move {slowdown} to Ben`", "a card moves from one {Stable} to another (`move {slowdown} from Ana to Ben`)"),
    ), parse=parse_move, build=builders.build_move, events=(events.Move,), card_needed=True),
    Verb("nursery", Kind.EVENT, ("nursery",), (
        ("`nursery {baby}`", "a Baby goes back to the Nursery"),
        ("`nursery`", "the Babies in the Nursery"),
    ), parse=parse_nursery, build=builders.build_nursery, events=(events.ToNursery,),
         answer=_lines(lambda g: describe_nursery(g.table, g.state))),
    Verb("hand", Kind.EVENT, ("hand",), (
        ("`hand Ana 5`", "the table reports a hand size"),
    ), parse=parse_hand, build=builders.build_hand, events=(events.SetHand,), answer=_hands),
    Verb("deck-empty", Kind.EVENT, ("deck empty *", "deck out *", "deck ran *", "deck runs *"), (
        ("`deck empty`", "the table reports that the deck ran out"),
    ), build=builders.build_deck_empty, events=(events.DeckEmpty,)),
    Verb("deck", Kind.EVENT, ("deck",), (
        ("`deck 40`", "the table reports the deck's size"),
        ("`deck`", "cards left in the deck and what happens when it runs out"),
    ), parse=parse_deck, build=builders.build_deck, events=(events.SetDeck, events.DeckEmpty),
         answer=_lines(lambda g: describe_draw_pile(g.table, g.state))),
    Verb("reshuffle", Kind.EVENT, ("reshuffle",), (("`reshuffle`", "the discard pile becomes the deck"),),
         build=builders.build_reshuffle, events=(events.Reshuffle,)),
    Verb("shuffle", Kind.EVENT, ("shuffle",), (
        ("`shuffle hand into deck`, `Ana shuffle hand into deck`", "a card's effect puts a whole hand back into the "
         "deck (Shake Up): the hand is 0 and the deck grows by it"),
        ("`shuffle stable into deck`, `shuffle {basic} into deck`, `shuffle a card from hand into deck`", "… a "
         "whole {Stable} (its Babies go to the Nursery), one card from a {Stable} (Dragon Skies), one card from hand "
         "(Dragon's Misfortune)"),
        ("`shuffle discard into deck`", "the same as `reshuffle`"),
    ), parse=parse_shuffle, build=builders.build_shuffle, events=(events.ToDeck, events.Reshuffle)),
    Verb("win", Kind.EVENT, ("win",), (
        ("`win 6`", "change the number to win"),
        ("`win 5 Ana`, `Ana win 5`", "Ana's own number to win (a card's text); `win 6` leaves it as it is"),
    ), parse=parse_win, build=builders.build_win, events=(events.SetGoal,)),
    Verb("cannot-win", Kind.EVENT, ("cannot win",), (
        ("`Ana cannot win`, `cannot win Ana`", "a card's text keeps Ana from winning, until `Ana can win`"),
    ), parse=parse_player, build=builders.build_cannot_win, events=(events.CannotWin,)),
    Verb("can-win", Kind.EVENT, ("can win",), (("`Ana can win`", "Ana can win again"),), parse=parse_player,
         build=builders.build_can_win, events=(events.CannotWin,)),
    Verb("miss", Kind.EVENT, ("miss", "skip next turn"), (
        ("`Ben misses next turn`, `miss turn Ben`", "a card's effect: Ben's next turn passes him by"),
    ), parse=parse_player, build=builders.build_miss, events=(events.SkipTurn,)),
    Verb("give", Kind.EVENT, ("give",), (
        ("`give a card to Ben`, `Ana give {yay} to Ben`", "a card's effect: a card passes from one hand to another "
         "(the hand sizes follow)"),
    ), parse=parse_give, build=builders.build_give, events=(events.GiveCard,)),
    Verb("ban", Kind.EVENT, ("no instants", "ban instants"), (
        ("`no instants this turn`", "a card's effect: nobody may play an Instant until the end of this turn"),
    ), build=builders.build_ban, events=(events.BanInstants,)),
    # Questions.
    Verb("turn", Kind.QUESTION, ("turn *", "phase"), (
        ("`turn`, `whose turn`, `phase`", "turn number, whose turn, the phase, and what the player may do"),
    ), answer=lambda g, _: tuple(turn_said(g.table, g.state, at=len(g.log)))),
    Verb("stable", Kind.QUESTION, ("stable",), (
        ("`stable`, `stable Ana` (or `field`)", "what is in each {Stable} (or Ana's) and how many {Unicorn}s it "
         "counts; Llamas: the herd"),
    ), parse=parse_query, answer=_answer_stable),
    Verb("tally", Kind.QUESTION, ("tally",), (("`tally`", "every player's {Unicorn}s and the number to win"),),
         answer=_lines(lambda g: describe_tally(g.table, g.state))),
    Verb("pile", Kind.QUESTION, ("pile",), (("`pile`", "the Instant pile from the top"),),
         answer=lambda g, _: tuple(pile_said(g.table, g.state, at=len(g.log)))),
    Verb("chain", Kind.QUESTION, ("chain",), (("`chain`", "the effect chain, first link first"),),
         answer=_lines(lambda g: describe_chain(g.table, g.state))),
    Verb("hands", Kind.QUESTION, ("hands",), (("`hands`", "hand sizes the tracker knows"),), parse=parse_hand,
         answer=_hands),
    Verb("discards", Kind.QUESTION, ("discard pile", "discard piles"), (
        ("`discard pile`", "the discard pile, newest first"),
    ), answer=_lines(lambda g: describe_discard(g.table, g.state))),
    Verb("players", Kind.QUESTION, ("players",), (("`players`", "the seating order"),),
         answer=_lines(lambda g: describe_players(g.table))),
    Verb("rules", Kind.QUESTION, ("rules",), (("`rules`", "the rule profile"),),
         answer=_lines(lambda g: describe_rules(g.table, g.state))),
    Verb("log", Kind.QUESTION, ("log",), (("`log`", "the last five events"),),
         answer=_lines(lambda g: describe_log(g.table, g))),
    Verb("card", Kind.QUESTION, ("card of", "card for", "card"), (
        ("`card NAME`, `what is NAME`", "a card's text (with no name, the card just read)"),
    ), parse=parse_query),
    Verb("help", Kind.QUESTION, ("help", "?"), (
        ("`help`, `help win`, `help commands`, `help commands 3`, `help commands all`", "a short help (F1 in the "
         "app); one topic (win, keys, turn, {neigh_topic}instants, questions, undo, scanning, braille, "
         "settings{neigh_only}); the command table's parts, each under half a minute; one part; every command"),
    )),
    # Listening: the session and the front ends carry these out.
    Verb("repeat", Kind.LISTENING, ("repeat", "again", "say again"), (
        ("`repeat`", "the last answer again (F2 in the app)"),
    )),
    Verb("stop", Kind.LISTENING, ("stop", "quiet", "hush"), (("`stop`", "stop talking (Escape in the app)"),)),
    Verb("history", Kind.LISTENING, ("history", "earlier"), (
        ("`history`", "the last answers, oldest first (F3 and F4 in the app step through them)"),
    )),
    Verb("catch-up", Kind.LISTENING, ("missed", "catch up"), (
        ("`missed` (or `catch up`)", "what other hands did since your last move or since you last asked, a sentence a "
         "player, a win and the moves that took your cards first; about 10 s, then \"More: say missed again.\" "
         "(F8 in the app); after a busy round only what changed the {Stable}s, in two parts at most"),
    )),
    Verb("about", Kind.LISTENING, ("about",), (
        ("`about`", "the app's version and the speech engines in use, with the program that plays them"),
    )),
    Verb("mute", Kind.LISTENING, ("mute",), (("`mute`", "speech off, or on again (F5 in the app)"),)),
    Verb("private", Kind.LISTENING, ("private", "private reading"), (
        ("`private`", "private reading on or off: the cards read only in the headphones (F6 in the app)"),
    )),
    Verb("tune", Kind.LISTENING, (*DIAL_WORDS, *(f"table {word}" for word in DIAL_WORDS)), (
        ("`rate 70`, `volume 50`, `pitch 40`, `faster`, `slower`, `louder`, `softer`, `higher`, `lower`", "your "
         "voice, 0 to 100 (50: normal), or a step of 10 (in the app: Control, Shift or both, with Up or Down); "
         "`table rate 80`, `table faster`: the table voice; kept in the settings file"),
        ("`rate`, `table pitch`", "the setting now, its range and how to change it"),
    ), parse=parse_tuning),
    Verb("verbosity", Kind.LISTENING, ("verbosity",), (
        ("`verbosity`", "the next level of detail: brief, normal, coaching (F7 in the app)"),
        ("`verbosity brief`", "facts only: \"Basic {Unicorn}. Neigh?\", then \"Ana: 2 {Unicorn}s.\""),
        ("`verbosity normal`", "the facts and what the table waits for"),
        ("`verbosity coaching`", "also how to say it (\"say draw\"), for learning the commands"),
    ), parse=parse_level),
    Verb("share", Kind.LISTENING, ("share",), (
        ("`share`, `share 127.0.0.1:8123`", "share the table with the players' phones on the local network (also "
         "`table-assistant --share`, F9 in the app): its address and join code are said and shown, with a QR code"),
        ("`share devices`", "the phones joined and waiting, by player and by the short name each showed (\"blue 7\")"),
        ("`share remove Ben`, `share remove Ben 2`, `share remove blue 7`", "take Ben's phones off the table, or only "
         "his phone 2, or the phone whose short name is blue 7 (a new join code is made and shown, not said)"),
        ("`share allow Ben`, `share refuse Ben`, `share allow blue 7`", "let in, or keep out, the phone asking to "
         "join as Ben (also yes or no to the question the laptop asks), or by its short name (when two phones ask as "
         "Ben, only the name answers); `share allow` or `share refuse` alone: the phone that has waited longest; "
         "`share refuse all`: every phone that waits, at once"),
        ("`share off`", "stop sharing the table; `Ben share allow`, `Ben share refuse`, `Ben share remove`: as "
         "`share allow Ben`, ...; `help share` says every form"),
    )),
)  # fmt: skip

BY_NAME = {verb.name: verb for verb in VERBS}
_PHRASES = sorted(
    ((tuple(phrase.split()), verb) for verb in VERBS for phrase in verb.phrases), key=lambda p: -len(p[0])
)


def find_verb(lower: list[str]) -> tuple[Verb, int] | None:
    """The verb at the start of the (lower-case) words, and how many words it took; None when there is none."""
    if not lower:
        return None
    said = [SYNONYMS.get(lower[0], lower[0]), *lower[1:]]
    for phrase, verb in _PHRASES:
        rest = phrase[-1] == "*"
        fixed = phrase[:-1] if rest else phrase
        if tuple(said[: len(fixed)]) == fixed:
            return verb, len(said) if rest else len(fixed)
    return None


def parse_command(text: str, names: tuple[str, ...] = ()) -> Command | None:
    """Split a line into a `Command`; None when it is not a command (then it is a card look-up).

    `names` are the players of the game in progress, so "Ben draw" and "neigh Ben" are understood.
    `CommandError` when the verb is a command's but the rest cannot be read.
    """
    words = list(re.finditer(r"[^\s,;:.!?]+", text))
    tokens = [word.group() for word in words]
    lower = [t.lower() for t in tokens]
    actor = None
    if len(tokens) >= 2 and is_player(tokens[0], names) and find_verb(lower[1:]) is not None:
        actor, words, tokens, lower = tokens[0], words[1:], tokens[1:], lower[1:]
    found = find_verb(lower)
    if found is None:
        return None
    verb, used = found
    command = verb.parse(verb.name, tokens[used:], lower[used:], names)
    rest = text[words[used - 1].end() :].lstrip(" \t,;!?").rstrip() if used < len(words) else ""
    return dataclasses.replace(command, actor=actor, rest=rest, said=" ".join(lower[:used]))


def near_verb(text: str) -> Verb | None:
    """The verb a mistyped first word resembles ("destory" is destroy), or None."""
    first = text.strip().split(" ")[0].lower()
    heads = {phrase.split()[0]: verb for verb in VERBS for phrase in verb.phrases if len(phrase.split()[0]) > 2}
    heads.update((said, BY_NAME[name]) for said, name in SYNONYMS.items() if len(said) > 2)
    close = difflib.get_close_matches(first, list(heads), n=1, cutoff=0.75) if len(first) > 3 else []
    return heads[close[0]] if close else None


def help_rows(cards: CardSet | None = None, vocabulary: Vocabulary | None = None) -> list[tuple[Kind, str]]:
    """The game commands, one line each with the kind of its verb (the section of docs/commands.md it is in).

    With the cards in play, the examples name cards of that deck (a Llamas Unleashed game hears no Rainbow Aura),
    the Neigh verbs are left out when no card of the deck is a Neigh (`is_plain_neigh`), and the lines are in the
    game's words (`vocabulary`, else the deck's: Field and Animal): each row rendered with the deck's `HelpWords`
    (`help_words`), never rewritten once rendered."""
    if cards is None:
        return [(verb.kind, verb.help_line) for verb in VERBS]
    words = help_words(cards, vocabulary or cards.vocabulary)
    neigh, super_neigh = any(map(is_plain_neigh, cards)), any(c.has(Tag.SUPER_NEIGH) for c in cards)
    lines: list[tuple[Kind, str]] = []
    for verb in VERBS:
        row = verb.rows[0]
        if verb.name == "neigh" and not neigh:
            row = BY_NAME["play"].rows[2]  # no Neigh card: the deck's own Instants answer
        elif verb.name == "super-neigh" and not super_neigh:
            continue
        lines.append((verb.kind, help_line(row, words)))
    return lines


def help_words(cards: CardSet, vocabulary: Vocabulary) -> HelpWords:
    """The help's words for a game with these cards: its area and creature, the deck's own cards for the examples
    (`_deck_examples`), its own optional effect for `use` when it has no Unicorn Speed, and the topic "neigh" only
    where a card is a Neigh."""
    examples = _deck_examples(cards)
    said = {name: examples.get(example, example) for name, example in _EXAMPLE_FIELDS.items()}
    unicorns = vocabulary is Vocabulary.UNICORN
    neigh = any(map(is_plain_neigh, cards))
    own = _optional_example(cards) if cards.find_exact("unicorn speed") is None else None
    return dataclasses.replace(
        HelpWords(**said),
        Stable=vocabulary.area,
        Unicorn=vocabulary.creature,
        Neighed="Neighed" if unicorns else "stopped",
        **({"optional": own.lower(), "optional_effect": f"{own}'s"} if own else {}),
        **({} if neigh else {"neigh_topic": "", "neigh_only": ""}),
    )


#: The cards the help's examples name (Unstable Unicorns cards), and the type a card of another deck stands in
#: for them with; a Baby's colour stands for a Baby.
_EXAMPLE_TYPES = {
    "rainbow aura": CardType.UPGRADE,
    "yay": CardType.UPGRADE,
    "slowdown": CardType.DOWNGRADE,
    "basic red": CardType.BASIC,
    "baby red": CardType.BABY,
    "red": CardType.BABY,
    "neigh": CardType.INSTANT,
}
#: The help's parameter for each example card (`HelpWords`).
_EXAMPLE_FIELDS = {
    "aura": "rainbow aura",
    "yay": "yay",
    "slowdown": "slowdown",
    "basic": "basic red",
    "baby": "baby red",
    "colour": "red",
    "discarded": "neigh",
}
#: What stands for a Baby in the examples when the deck names none.
_NO_BABY = "BABY"


def _optional_example(cards: CardSet) -> str | None:
    """The card the `use` example names in a deck without Unicorn Speed: one of its optional beginning-of-turn
    effects, one that draws first (what follows it, a `draw` too, is the effect's); None when it has none."""
    optional = [c for c in cards if c.has(Tag.BEGIN_TURN_OPTIONAL)]
    drawing = [c for c in optional if c.has(Tag.DRAW)]
    return (drawing or optional)[0].name if optional else None


def example_names(cards: CardSet) -> tuple[str, str]:
    """The card and the creature card the help's examples name in this deck, lower case as typed ("rainbow aura",
    "basic red" in Unstable Unicorns; cards of the same types in another deck)."""
    examples = _deck_examples(cards)
    return examples.get("rainbow aura", "rainbow aura"), examples.get("basic red", "basic red")


def _deck_examples(cards: CardSet) -> dict[str, str]:
    """What stands for each example card in this deck: itself when the deck has it, else a card of its type
    (a creature for a Basic, any card at all for the rest), lower case as typed."""
    out: dict[str, str] = {}
    taken: set[str] = set()
    for example, card_type in _EXAMPLE_TYPES.items():
        if cards.find_exact(example) is not None or (example == "red" and cards.find_exact("baby red")):
            continue
        fitting = [c for c in cards if c.type is card_type and c.id not in taken]
        if card_type is CardType.BABY:  # "baby red" and "baby Ana red" name the same Baby
            out[example] = fitting[0].name.lower() if fitting else _NO_BABY
            continue
        if not fitting and card_type is CardType.BASIC:
            fitting = [c for c in cards if c.type.is_creature and c.id not in taken]
        pick: Card | None = fitting[0] if fitting else next((c for c in cards if c.id not in taken), None)
        if pick is not None:
            taken.add(pick.id)
            out[example] = pick.name.lower()
    return out


def names_module() -> str:
    """The text of `verb_names.py`: the verb table's names as a `Literal` type, in the table's order."""
    rows = "\n".join(f"    {verb.name!r}," for verb in VERBS).replace("'", '"')
    return (
        '"""The names of the verbs, as a type: `Command.verb` and `Verb.name` are one of them, checked by mypy.\n\n'
        "Made from the verb table (`assistant/core/language/verbs.py`) by `python -m assistant.core.language.verbs\n"
        '--names`; a test checks it is the table\'s. Never edited by hand.\n"""\n\n'
        "from __future__ import annotations\n\n"
        "from typing import Literal\n\n"
        f"VerbName = Literal[\n{rows}\n]\n"
    )


def markdown_tables() -> str:
    """The tables of docs/commands.md, one per kind of verb."""
    out: list[str] = []
    for kind in Kind:
        out += [f"## {kind.value}", "", "| command | what it does |", "| --- | --- |"]
        out += [
            f"| {example} | {meaning} |" for verb in VERBS if verb.kind is kind for example, meaning in verb.rendered()
        ]
        out.append("")
    return "\n".join(out).rstrip() + "\n"


if __name__ == "__main__":  # print the tables of docs/commands.md; with --names, the text of verb_names.py
    import sys

    print(names_module() if sys.argv[1:] == ["--names"] else markdown_tables(), end="")
