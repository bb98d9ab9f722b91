"""Every card's name, in every deck, said in every sentence that names a card: what an event did and what followed,
the warning's question and the prompt. A name that ends in its own mark ("Hell Neigh!", "Neigh, Mate!") must not
get a second one ("Hell Neigh!."), no sentence may hold a doubled mark or a space before one, and every sentence
starts with a capital letter or a digit."""

from __future__ import annotations

import re
from functools import cache

import pytest

from assistant.core.cards.card import Card, CardType
from assistant.core.game.checks import check
from assistant.core.game.events import (
    Bring,
    Destroy,
    Discard,
    Event,
    Gathered,
    Move,
    Play,
    Resolve,
    Respond,
    ReturnToHand,
    Sacrifice,
    Source,
    Steal,
    Take,
    ToDeck,
)
from assistant.core.game.history import Game, Step
from assistant.core.game.moves import apply
from assistant.core.game.setup import Setup
from assistant.core.words.announce import announce_said
from assistant.core.words.audience import Audience
from assistant.core.words.position import describe_chain, describe_discard, describe_pile, describe_stable
from assistant.core.words.rulings import confirm_question, objection_reasons
from assistant.core.words.verbosity import Verbosity
from assistant.core.words.worded import segment_words
from assistant.storage.decks import load_card_set

#: Each base deck with every add-on it takes, and its rules.
GAMES = {
    "uu-2nd": ("uu-current", ("uu-legends", "uu-adventures", "uu-rainbow-apocalypse", "uu-dragons",
                              "uu-nsfw-expansion")),
    "uu-1st": ("uu-first", ()),
    "uu-nsfw": ("uu-nsfw", ()),
    "llamas": ("llamas", ("llamas-farmed",)),
}  # fmt: skip

#: A mark doubled or a space before one: "Hell Neigh!.", "done..", "Ana ,".
BAD = re.compile(r"[.!?,;:]\.|[!?]\?|\.\.(?!\.)|\s[.,;:!?]")


@cache
def game(base: str) -> Game:
    profile, addons = GAMES[base]
    return Game.new(Setup(("Ana", "Ben", "Cy"), profile, base=base, addons=addons), load_card_set(base, list(addons)))


def events_for(card: Card, g: Game) -> list[Event]:
    """The events that name the card, each from the game's first state (with the card where it must be)."""
    found: list[Event] = [Play(0, card.id, 0 if card.type.is_creature else None), Discard(0, card.id)]
    found += [Take(0, card.id, Source.DECK), Bring(0, card.id, 0), Play(0, card.id, None, Source.DECK)]
    found += [Steal(0, card.id, 1), Destroy(0, card.id, 1), Sacrifice(1, card.id), ReturnToHand(0, card.id, 1)]
    found += [ToDeck(0, Gathered.CARD, card.id, 1), Move(0, card.id, 1, 0)]
    if card.type is CardType.INSTANT:
        found.append(Respond(1, card.id))
    return found


def said(g: Game, event: Event) -> list[str]:
    """Everything said after the event, from a state where the card is in Ben's Stable (so it can leave it) and
    on the pile when an Instant answers it; and the warning's question, where one is asked."""
    state = g.state
    card_id = getattr(event, "card", None)
    if isinstance(event, (Steal, Destroy, Sacrifice, ReturnToHand, ToDeck, Move)) and card_id:
        state, _ = apply(g.table, state, Bring(1, card_id, 1))
    if isinstance(event, Respond):
        state, _ = apply(g.table, state, Play(0, "basic-unicorn-red" if g.table.cards.get("basic-unicorn-red")
                                               else next(iter(g.table.cards)).id, 0))  # fmt: skip
    lines = []
    after, facts = apply(g.table, state, event)
    lines += [
        segment_words(s, Audience.TABLE)
        for s in announce_said(g.table, Step(event, state, after, facts), Verbosity.COACHING)
    ]
    # where the game stands with the card in it: the Stables, the pile, the chain, the discard pile
    lines += [describe_stable(g.table, after, seat) for seat in (0, 1)]
    lines += [describe_pile(g.table, after), describe_discard(g.table, after), *describe_chain(g.table, after)]
    after2, facts2 = apply(g.table, after, Resolve())
    lines += [
        segment_words(s, Audience.TABLE)
        for s in announce_said(g.table, Step(Resolve(), after, after2, facts2), Verbosity.COACHING)
    ]
    objections = check(g.table, state, event)
    if objections:
        lines.append(confirm_question(objection_reasons(g.table, objections)))
    return lines


def problems(line: str) -> list[str]:
    out = []
    if BAD.search(line):
        out.append("a doubled mark")
    if line[:1].isalpha() and not line[:1].isupper():
        out.append("a small letter first")
    return out


@pytest.mark.parametrize("base", sorted(GAMES))
def test_every_card_name_sits_in_every_sentence_with_one_mark_and_a_capital(base):
    g = game(base)
    wrong = []
    for card in g.table.cards:
        if card.type is CardType.BABY:
            continue
        for event in events_for(card, g):
            for line in said(g, event):
                for sentence in re.split(r"(?<=[.!?])\s+(?=[A-Z0-9])", line):
                    if problems(sentence):
                        wrong.append((card.id, type(event).__name__, sentence, problems(sentence)))
    assert wrong[:10] == [] and len(wrong) == 0


def test_the_check_finds_a_doubled_mark_and_a_small_letter():
    assert problems("Ben played Hell Neigh!.") == ["a doubled mark"]
    assert problems("the Alpaca Herd Bonus resolved.") == ["a small letter first"]
    assert problems("Ben played Hell Neigh!") == [] and problems("3 cards went back.") == []
