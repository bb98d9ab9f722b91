"""A fact worded for an audience (`words_for`): the one entry point a front end asks for its own words of a fact;
and a reply's segments worded for a reader who holds its facts apart (`held_apart`) or for a screen reader
(`reader_lines`).

A fact (`About`) carries values only: its kind, seats, player, move, card, owner, place, the event a move recorded,
what a question asks (`About.asked`), the values the rest of its words are made of (`About.source`: the game's own
fact, the counts, the turn, a chain's duty, what the table waits for, what a question of the app's own offers) and
the game it is of, for its names. Each audience's words are made here from those values, matched over every
`Audience` (mypy names the `match` a new member leaves out, `assert_never`), the table's over every kind of
`Source`, and a question's over every kind of `Asked`: a new audience is one member of `Audience` and one branch
here. A segment keeps no rendering: what it says is a value (`Segment.says`: a fact; a line of a step's
announcement, `Told`; or text that tells no fact, `Verbatim`), worded for an audience here (`segment_words`, and a
reply's lines and speech, `lines_of`, `speech_of`), a fact by `words_for`, a step's line by `announce.told_words`; its
other forms are made here from its values too (the chain's link it tells, `Segment.link`; its `Part`).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import replace
from typing import assert_never

from assistant.core.game.about import (
    About,
    Asked,
    CardMeant,
    CardsFound,
    CardTypeAsked,
    Counted,
    DutyOf,
    KeepWords,
    Merged,
    MoveKind,
    NewCardOffered,
    NewGameAsked,
    NewPhone,
    Offered,
    RecordAnyway,
    ReplaceWords,
    ResumeOffered,
    SaveInstead,
    Source,
    StopAlone,
    Topic,
    TurnOf,
    Waiting,
    WhichCard,
    WhichInstant,
    WinTakenBack,
    YesNotEnough,
)
from assistant.core.game.facts import Fact, GameOver
from assistant.core.game.objections import Objection
from assistant.core.game.segment import Part, Segment, Told, UndoRedo, Verbatim
from assistant.core.game.table import Table
from assistant.core.game.tally import Ending
from assistant.core.text import cards_count, name_list, sentences
from assistant.core.words.announce import brief_counted, chain_duty, told_words, turn_duties, waiting_said
from assistant.core.words.audience import Audience
from assistant.core.words.cardtext import describe_resolution, numbered_names, search_results
from assistant.core.words.entry import spoken_query
from assistant.core.words.errors import NEW_GAME_OVER_GAME, choose_card_for, which_instant
from assistant.core.words.gameplay import (
    END_TAKEN_BACK,
    GAME_OVER,
    chain_link_added,
    cost_said,
    describe_fact,
    end_with,
    resume_offer,
    save_question,
    turn_began,
)
from assistant.core.words.kinds import describe_event, kind_says, own_move, undone_words
from assistant.core.words.learned import offer_replacing_words, yes_is_not_enough
from assistant.core.words.rulings import ASK_NARROW, short_objection, warning_asked
from assistant.core.words.scans import SAY_CARD_TYPE, offer_completing_card, offer_new_card
from assistant.core.words.share import CODE_READY, new_phone_asks

__all__ = [
    "words_for",
    "segment_words",
    "lines_of",
    "speech_of",
    "texts",
    "duty_named",
    "did",
    "asked_narrow",
    "apart_words",
    "held_apart",
    "reader_lines",
]


def words_for(fact: About, audience: Audience, table: Table | None = None) -> str:
    """A fact's words for an audience: the table's words; brief, its short form ("Ben's turn." for "Ben's turn: may
    use the Blue Herd Bonus.", said when it is folded again and held on a braille display); a narrow braille
    display's, who is asked or the question first (`About.asked`), else its short form; its own player's phone's,
    in the second person ("You drew a card.", made from its event with the names of `table`, the game it is of),
    else another phone's; another phone's and the laptop's of a phone's move, the table's (a fact's words never
    say how to say a move, `About`)."""
    match audience:
        case Audience.TABLE | Audience.OTHER_PHONE | Audience.PHONE_MOVE:
            return _table(fact)
        case Audience.BRIEF:
            return _brief(fact)
        case Audience.NARROW:
            return _narrow(fact.asked, fact.table) if fact.asked is not None else _brief(fact)
        case Audience.OWN_PHONE:
            return _own(fact, table or fact.table) or _table(fact)
        case _:  # pragma: no cover - mypy checks every audience is named above
            assert_never(audience)


def segment_words(segment: Segment, audience: Audience, table: Table | None = None) -> str:
    """A segment's words for an audience, one or more whole sentences ("" for none): a fact it says in that fact's
    own words for the audience (`words_for`, stripped: "You drew a card." on her own phone, "Ben drew a card." for
    the table); a line of a step's announcement made from the step for the audience (`Told`, `announce.told_words`:
    on the laptop, a move made on a phone never says how to say a move); what an undo or a redo gave back
    (`UndoRedo`, `kinds.undone_words`); text that tells no fact as it is, for every
    audience (`Verbatim`). A step's line led by decisive facts it says again (`Told.leaving`) leaves their sentences
    out, in the audience's words of both."""
    says = segment.says
    match says:
        case About():
            return words_for(says, audience, table).strip()
        case Told(leaving=leaving, names=names):
            said = told_words(says, audience)
            if not leaving:
                return said
            left = {sentence for fact in leaving for sentence in sentences(words_for(fact, audience), names)}
            return " ".join(sentence for sentence in sentences(said, names) if sentence not in left)
        case UndoRedo():
            return undone_words(says, audience)
        case Verbatim(text=text):
            return text
        case _:  # pragma: no cover - mypy checks every kind of what a segment says is named above
            assert_never(says)


def lines_of(segments: Iterable[Segment], audience: Audience, table: Table | None = None) -> tuple[str, ...]:
    """The screen lines of segments in an audience's words (`segment_words`): each shown segment a line, a joined
    one on the line before."""
    lines: list[str] = []
    for segment in segments:
        if not segment.channel.shown:
            continue
        words = segment_words(segment, audience, table)
        if segment.joined and lines:
            lines[-1] = " ".join(part for part in (lines[-1], words) if part)
        else:
            lines.append(words)
    return tuple(lines)


def speech_of(segments: Iterable[Segment], audience: Audience, table: Table | None = None) -> str:
    """What segments say in an audience's words (`segment_words`): the spoken ones' words, joined."""
    said = (segment_words(segment, audience, table) for segment in segments if segment.channel.spoken)
    return " ".join(words for words in said if words)


def texts(facts: Iterable[About], audience: Audience = Audience.TABLE) -> str:
    """The facts' words for an audience, in order, as one text."""
    said = (words_for(fact, audience).strip() for fact in facts)
    return " ".join(words for words in said if words)


def duty_named(duty: About) -> str:
    """A chain's duty with the name of the player whose card it is, said in another player's reply (Ben resolved
    Dee's Surprise Emu Attack from his phone): "Dee: Destroy one Animal."."""
    return words_for(replace(duty, named=bool(duty.player)), Audience.TABLE)


def _brief(fact: About) -> str:
    """A fact's brief words: a turn by its player alone ("Ben's turn.", its duties left out: a reminder longer than
    the gap between keys is never said whole twice); else the table's."""
    if fact.topic is Topic.TURN and fact.player:
        return turn_began(0, fact.player, brief=True)
    return _table(fact)


def _table(fact: About) -> str:
    """A fact's words for the table, short, from its values: a duty named first with its player's name where it is
    said in another player's reply (`About.named`); else by what its words are made of (`_of_source`), a question
    or a warning by what it asks, a move by its event, its kind and card."""
    if fact.named and fact.player:
        return f"{fact.player}: {_table(replace(fact, named=False)).strip()}"
    if fact.source is not None:
        return _of_source(fact, fact.source)
    if fact.asked is not None:
        return _asked(fact.asked, fact.table)
    match fact.topic:
        case Topic.MOVE:
            return _move(fact)
        case Topic.TURN:
            return turn_began(0, fact.player, brief=True)
        case Topic.WIN:
            return f"{fact.player} wins!"
        case Topic.COUNT | Topic.QUESTION | Topic.WARNING | Topic.DUTY | Topic.CHAIN_DONE:
            return ""
        case Topic.STOPPED | Topic.UNDO:
            return ""  # (no words of its own: its reply says them)
        case _:  # pragma: no cover - mypy checks every topic is named above
            assert_never(fact.topic)


def _move(fact: About) -> str:
    """A move's words: several said as one ("Ben drew a card and played Yay."); one made from its event in the
    state before it ("Ben destroyed Yay in Ana's Stable."), never how to say the next move; a move known by its kind
    and card alone (none recorded: a test's), by its short form."""
    if fact.parts:
        return _of_source(fact, Merged())
    if fact.event is not None and fact.table is not None and fact.state is not None:
        return end_with(describe_event(fact.table, fact.event, fact.state, Audience.BRIEF))
    return end_with(f"{fact.player} {did(fact)}") if fact.move is not None else ""


def _of_source(fact: About, source: Source) -> str:
    """A fact's table words from the values its words are made of (`About.source`)."""
    table = fact.table
    match source:
        case Counted():
            return brief_counted(source)
        case TurnOf(turn=turn, duties=duties):
            said = turn_duties(table, duties) if table is not None else ""
            return turn_began(turn, fact.player, brief=True, duties=said)
        case DutyOf(link=link):
            return chain_duty(table, link) if table is not None else ""
        case WinTakenBack():
            return END_TAKEN_BACK
        case StopAlone():
            return f"{fact.whose}'s {fact.card} stopped {fact.on}."
        case Merged(answered=answered, it=it):
            return f"{fact.player} {name_list(deeds(fact.parts, answered, it=it))}."
        case Waiting():
            return waiting_said(table, source) if table is not None else ""
        case GameOver(outcome=outcome) if outcome.ending is Ending.GOAL and outcome.winner is not None:
            return f"{fact.player} wins!"  # (under a second: the count is in the reply)
        case Fact() if table is not None and fact.state is not None:
            said = describe_fact(table, source, fact.state)
            return said.removesuffix(f" {GAME_OVER}") if isinstance(source, GameOver) else said  # (goes without saying)
        case _:
            return _offered(source) if isinstance(source, Offered) else ""


def _offered(offered: Offered) -> str:
    """What a question of the app's own asks, in its words (every audience's)."""
    match offered:
        case CardsFound(query=query, found=found):
            return search_results(query, list(found))
        case CardMeant(resolution=resolution, vocabulary=vocabulary, titles=titles):
            return describe_resolution(resolution, vocabulary, dict(titles))
        case KeepWords(name=name, text=text):
            return offer_completing_card(name, text)
        case ReplaceWords(name=name, deck_text=deck_text):
            return offer_replacing_words(name, deck_text)
        case YesNotEnough(name=name):
            return yes_is_not_enough(name)
        case CardTypeAsked():
            return SAY_CARD_TYPE
        case NewCardOffered(name=name, kind=kind, text=text):
            return offer_new_card(name, kind, text)
        case ResumeOffered(players=players):
            return resume_offer(list(players))
        case NewGameAsked():
            return NEW_GAME_OVER_GAME
        case _:  # pragma: no cover - mypy checks every kind of question is named above
            assert_never(offered)


def _reason(table: Table | None, objection: Objection) -> str:
    """A warning's reason in a few words, alike for every audience ("Cy has not drawn.", `short_objection`), with the
    names of the game it is of; "" for a warning of no game's (none is made: objections come from a game's check)."""
    return short_objection(table, objection) if table is not None else ""


def _asked(asked: Asked, table: Table | None) -> str:
    """What a question or a warning asks, in the table's words, with the names of `table`, the game it is of: "Ana's
    turn, not Ben's. Record anyway?"."""
    match asked:
        case RecordAnyway(objection=objection):
            return warning_asked(_reason(table, objection))
        case SaveInstead():
            return save_question(asked)
        case WhichInstant():
            return which_instant(asked)
        case WhichCard():
            return choose_card_for(asked)
        case NewPhone(player=player, tag=tag, rivals=rivals):
            return new_phone_asks(player, tag, rivals)
        case _:  # pragma: no cover - mypy checks every kind of question is named above
            assert_never(asked)


def did(move: About, answered: bool = False, you: bool = False, it: bool = False) -> str:
    """What the move's player did ("destroyed Ana's Rainbow Aura"); `answered`: with the card an Instant answered;
    `you`: as its own player's phone says it ("destroyed your own Rainbow Aura"); `it`: the card an Instant answered
    or stopped said "it", where the words just before named it ("stopped it with Spit Happens")."""
    if move.move is MoveKind.DISCARD and not move.card:
        return "discarded a card"
    card = move.card
    if kind_says(move.move).whose and move.whose:
        own = "your own" if you else "their own"
        card = f"{own} {card}" if move.owner in move.seats else f"{move.whose}'s {card}"
    says = kind_says(move.move)
    on = "it" if it and move.on else move.on
    done = says.did.format(card=card, on=on)
    return f"{done} on {on}" if answered and move.on and says.answers else done


def deeds(group: Sequence[About], answered: bool = False, you: bool = False, it: bool = False) -> list[str]:
    """What a player did, a clause a move (`did`), the same move made again in a row said once with a count: cards
    drawn or discarded unnamed as the draw says them ("drew 2 cards", `text.cards_count`), any other "twice" or
    "3 times" ("played Neigh twice"); the same move by its values (kind, card, whose, what it answered), never by
    its words. `it`: the card the first move answered or stopped said "it" (`did`)."""
    runs: list[tuple[str, About, int]] = []
    for n, move in enumerate(group):
        done = did(move, answered, you, it=it and n == 0)
        alike = (move.move, move.card, move.owner, move.on)
        if runs and (runs[-1][1].move, runs[-1][1].card, runs[-1][1].owner, runs[-1][1].on) == alike:
            runs[-1] = (done, runs[-1][1], runs[-1][2] + _cards(move))
        else:
            runs.append((done, move, _cards(move)))
    return [_counted(done, move, n) for done, move, n in runs]


def _cards(move: About) -> int:
    """How many a move counts in a run of its kind (`deeds`): a draw the cards it drew (1 where not known)."""
    return max(1, getattr(move.event, "count", 1)) if move.move is MoveKind.DRAW else 1


def _counted(done: str, move: About, n: int) -> str:
    """A clause of `deeds` said for `n` of its move: "drew 2 cards", "discarded 2 cards", "played Neigh twice"."""
    if n == 1:
        return done
    if move.move is MoveKind.DRAW:
        return f"drew {cards_count(n)}"
    if move.move is MoveKind.DISCARD and not move.card:
        return f"discarded {cards_count(n)}"
    return f"{done} twice" if n == 2 else f"{done} {n} times"


def _own(fact: About, table: Table | None) -> str:
    """A move's words on the phone of the player who made it: several moves said as one from their values ("You
    drew a card and played Yay."), one from its event ("" for no move of a player's own, or no game to name it in:
    the table's words serve)."""
    if fact.parts:
        return f"You {name_list(deeds(fact.parts, you=True))}."
    if fact.event is None or table is None or not fact.seats:
        return ""
    return own_move(table, fact.event, fact.seats[0])


def _narrow(asked: Asked, table: Table | None) -> str:
    """What a question or a warning asks, on a braille display of 20 cells or fewer, whose first window holds two or
    three words: who is asked, or the question, first (with the names of `table`, the game it is of)."""
    match asked:
        case RecordAnyway(objection=objection):
            return f"{ASK_NARROW} {_reason(table, objection)}"
        case SaveInstead(player=player, card=card, saver=saver, discards=discards, destroyed=destroyed):
            fate = "destroyed" if destroyed else "sacrificed"
            cost = cost_said(saver, discards)
            return f"{player}: save {card}? By {cost} instead. Say yes, or no to let it be {fate}."
        case WhichInstant(player=player, offered=offered):
            items = ", ".join(f"{n} {name}" for n, name in offered)
            return f"{player}: which Instant? {items}. Type a number to choose."
        case WhichCard(player=player, query=query, offered=offered):
            choices = numbered_names(offered)
            return f"{player}: which card is {spoken_query(query)}? {choices} Type a number to choose."
        case NewPhone(player=player):
            return f"{player}: new phone. Let it in?"
        case _:  # pragma: no cover - mypy checks every kind of question is named above
            assert_never(asked)


def asked_narrow(facts: Iterable[About]) -> tuple[str, ...]:
    """The questions and warnings among the facts that a narrow braille display words apart (who is asked, or the
    question, first: "Ben: new phone. Let it in?"), in those words; empty where none asks anything of its own."""
    return tuple(words_for(fact, Audience.NARROW) for fact in facts if fact.asked is not None)


def apart_words(segment: Segment) -> str:
    """A segment's words where the decisive facts it says again (`Segment.repeats`) are held apart (a braille
    display holds them; speech said them first): a link of the chain named by its effects alone, made from its
    values (`Segment.link`: "Effect chain: the effect of Unicorn Poison, played by Cy."); else its words."""
    if segment.link is None:
        return segment_words(segment, Audience.TABLE)
    return chain_link_added(segment.link.position, name_list(list(segment.link.names)))


def _reader_words(segment: Segment) -> str:
    """A segment's words as a screen reader is given them: a private segment (a new join code, `Part.PRIVATE`) in
    words of its own, never the code (whoever the host kept out may hear the screen reader); else its words."""
    match segment.part:
        case Part.PRIVATE:
            return CODE_READY
        case Part.SAID | Part.FACT | Part.COACHING | Part.HELP:
            return segment_words(segment, Audience.TABLE)
        case _:  # pragma: no cover - mypy checks every part is named above
            assert_never(segment.part)


def reader_lines(segments: Iterable[Segment]) -> tuple[str, ...]:
    """The screen lines as a screen reader is given them (plain mode's printed lines, the app's lines said as the
    cursor reaches them): a private segment (a new join code) in words of its own, never its own words."""
    return lines_of((replace(segment, says=Verbatim(_reader_words(segment))) for segment in segments), Audience.TABLE)


def held_apart(segments: Iterable[Segment], held: Iterable[About]) -> tuple[str, ...]:
    """The screen lines for a reader who holds the decisive facts `held` apart (a braille display shows them first
    and holds them): the facts in their own words left out (`Part.FACT`), a line that only restates their states,
    and coaching; a segment that says one of them again inside longer words in its words without it
    (`apart_words`). A segment on the line of one left out begins a line of its own ("The game is over.")."""
    held = tuple(held)
    kept: list[Segment] = []
    dropped = False
    for segment in segments:
        if not segment.channel.shown:
            continue
        # (a fact's segment may also tell the move that led to it, a turn's end: a move is never held)
        facts = {fact for fact in segment.about if fact.topic is not Topic.MOVE}
        if segment.part is Part.COACHING or (segment.part is Part.FACT and facts <= set(held)):
            dropped = dropped or not segment.joined
            continue
        if segment.restates(held) and not segment.joined:
            dropped = True
            continue
        if segment.joined and dropped:
            segment = replace(segment, joined=False)
        else:
            dropped = False
        if segment.repeats and set(segment.repeats) <= set(held):
            segment = replace(segment, says=Verbatim(apart_words(segment)))
        kept.append(segment)
    return lines_of(kept, Audience.TABLE)
