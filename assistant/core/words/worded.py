"""A fact worded for an audience (`words_for`): the one entry point a front end asks for its own words of a fact;
and a reply's segments worded for a reader who holds its facts apart (`held_apart`) or for a screen reader
(`reader_lines`).

A fact (`About`) carries values only: its kind, seats, player, move, card, owner, place, the event a move recorded,
what a question asks (`About.asked`). Each audience's words are made here from those values, matched over every
`Audience` (mypy names the `match` a new member leaves out, `assert_never`), and a question's over every kind of
`Asked`: a new audience is one member of `Audience` and one branch here. A segment keeps one rendering, its words:
its other forms are made here from its values (the chain's link it tells, `Segment.link`; its `Part`).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace
from typing import assert_never

from assistant.core.game.about import (
    About,
    Asked,
    NewPhone,
    RecordAnyway,
    SaveInstead,
    Topic,
    WhichCard,
    WhichInstant,
)
from assistant.core.game.segment import Part, Segment, lines_of
from assistant.core.game.table import Table
from assistant.core.text import name_list
from assistant.core.words.audience import Audience, brief_words
from assistant.core.words.cardtext import numbered_names
from assistant.core.words.entry import spoken_query
from assistant.core.words.gameplay import chain_link_added, cost_said
from assistant.core.words.kinds import own_move
from assistant.core.words.pace import merged_own
from assistant.core.words.rulings import ASK_NARROW
from assistant.core.words.share import CODE_READY

__all__ = ["words_for", "asked_narrow", "apart_words", "held_apart", "reader_lines"]


def words_for(fact: About, audience: Audience, table: Table | None = None) -> str:
    """A fact's words for an audience: the table's words; brief, its short form ("Ben's turn." for "Ben's turn: may
    use the Blue Herd Bonus.", said when it is folded again and held on a braille display); a narrow braille
    display's, who is asked or the question first (`About.asked`), else its short form; its own player's phone's,
    in the second person ("You drew a card.", made from its event with the names of `table`, the game it is of),
    else another phone's; another phone's and the laptop's of a phone's move, its own words (a fact's words never
    say how to say a move, `About.text`)."""
    match audience:
        case Audience.TABLE:
            return fact.text
        case Audience.BRIEF:
            return brief_words(fact)
        case Audience.NARROW:
            return _narrow(fact.asked) if fact.asked is not None else brief_words(fact)
        case Audience.OWN_PHONE:
            return _own(fact, table) or fact.text
        case Audience.OTHER_PHONE | Audience.PHONE_MOVE:
            return fact.text
        case _:  # pragma: no cover - mypy checks every audience is named above
            assert_never(audience)


def _own(fact: About, table: Table | None) -> str:
    """A move's words on the phone of the player who made it: several moves said as one from their values ("You
    drew a card and played Yay."), one from its event ("" for no move of a player's own, or no game to name it in:
    the table's words serve)."""
    if fact.parts:
        return merged_own(fact)
    if fact.event is None or table is None or not fact.seats:
        return ""
    return own_move(table, fact.event, fact.seats[0])


def _narrow(asked: Asked) -> str:
    """What a question or a warning asks, on a braille display of 20 cells or fewer, whose first window holds two or
    three words: who is asked, or the question, first."""
    match asked:
        case RecordAnyway(reason=reason):
            return f"{ASK_NARROW} {reason}"
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
        return segment.words
    return chain_link_added(segment.link.position, name_list(list(segment.link.names)))


def _reader_words(segment: Segment) -> str:
    """A segment's words as a screen reader is given them: a private segment (a new join code, `Part.PRIVATE`) in
    words of its own, never the code (whoever the host kept out may hear the screen reader); else its words."""
    match segment.part:
        case Part.PRIVATE:
            return CODE_READY
        case Part.SAID | Part.FACT | Part.COACHING | Part.HELP:
            return segment.words
        case _:  # pragma: no cover - mypy checks every part is named above
            assert_never(segment.part)


def reader_lines(segments: Iterable[Segment]) -> tuple[str, ...]:
    """The screen lines as a screen reader is given them (plain mode's printed lines, the app's lines said as the
    cursor reaches them): a private segment (a new join code) in words of its own, never its own words."""
    return lines_of(replace(segment, words=_reader_words(segment)) for segment in segments)


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
            segment = replace(segment, words=apart_words(segment))
        kept.append(segment)
    return lines_of(kept)
