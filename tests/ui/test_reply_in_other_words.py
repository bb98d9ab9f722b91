"""A front end never matches rendered words: whole games played through the session, each reply rendered in other
words, as a translation would (ROT13 of every segment's words and every fact's names, which keeps each sentence's
end where it was), and speech (which facts a cut leaves unheard, what an utterance needs said), the braille display
(what it shows and holds) and the app (the help reply, a question answered) behave the same for the translated
replies as for the originals."""

from __future__ import annotations

import asyncio
import codecs
import dataclasses
from pathlib import Path

import pytest
from textual.widgets import Static

from assistant.commands.app import table_session
from assistant.core.braille.display import BrailleView, Region
from assistant.core.game.about import About
from assistant.core.game.segment import ChainLink, Segment, Verbatim
from assistant.core.language.reply import Reply
from assistant.core.speech.utterance import Utterance
from assistant.core.text import SentenceNames
from assistant.core.words.audience import Audience
from assistant.core.words.screen import SCREEN_KEYS
from assistant.core.words.worded import apart_words, segment_words
from assistant.storage.decks import load_card_set
from assistant.ui.braille_display import DisplayLink
from tests.fake_speaker import Heard

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
GAMES = ["llamas_game.txt", "unicorns_four_game.txt"]


def rot(text: str) -> str:
    """Other words with the same sentence ends: each letter moved 13 places, case and punctuation kept."""
    return codecs.encode(text, "rot13")


def about(fact: About) -> About:
    """A fact in other words: every name it carries (its players and cards, its words made from them) translated
    alike."""
    words = {name: rot(getattr(fact, name)) for name in ("player", "card", "whose", "on")}
    asked = fact.asked
    if asked is not None:  # (what it asks: its names and phrases too)
        fields = dataclasses.fields(asked)
        asked = dataclasses.replace(
            asked, **{f.name: rot(v) for f in fields if isinstance(v := getattr(asked, f.name), str)}
        )
    return dataclasses.replace(fact, **words, asked=asked, parts=tuple(about(p) for p in fact.parts))


def segment(piece: Segment) -> Segment:
    return dataclasses.replace(
        piece,
        says=Verbatim(rot(segment_words(piece, Audience.TABLE))),  # (a fact it says too: in the segments' words)
        about=tuple(about(fact) for fact in piece.about),
        repeats=tuple(about(fact) for fact in piece.repeats),
        link=None if piece.link is None else ChainLink(piece.link.position, tuple(map(rot, piece.link.names))),
        tells=tuple(about(fact) for fact in piece.tells),
    )


def translated(reply: Reply) -> Reply:
    """The reply as a translation would render it: the same segments, facts and question, in other words."""
    return dataclasses.replace(
        reply,
        segments=tuple(segment(piece) for piece in reply.segments),
    )


def played(game: str) -> tuple[list[Reply], SentenceNames]:
    """Every reply of a fixture game played through the session, and the game's names."""
    session = table_session(load_card_set("uu-2nd"), load_cards=load_card_set)
    replies = []
    for line in (FIXTURES / game).read_text(encoding="utf-8").splitlines():
        if line.strip() and not line.startswith("#"):
            replies.append(session.handle(line))
    return replies, session.lobby.sentence_names()


def other_names(names: SentenceNames) -> SentenceNames:
    """The game's names in the same other words (a name that holds a sentence's end still holds it)."""
    return SentenceNames(frozenset(map(rot, names.cards)), frozenset(map(rot, names.players)))


@pytest.mark.parametrize("game", GAMES)
def test_speech_cuts_a_reply_in_other_words_where_it_cuts_the_original(game):
    replies, names = played(game)
    cut = 0
    for reply in replies:
        other = translated(reply)
        for hand in (False, True):  # the player's own reply, and another hand's move
            said = Utterance.of_reply(reply, names=names)
            said = dataclasses.replace(said, other=hand)
            again = Utterance(
                other.speech, facts=other.facts, tells=other.tells, segments=other.segments, names=other_names(names)
            )
            again = dataclasses.replace(again, other=hand)
            assert other.speech == rot(reply.speech)
            assert len(again.split()) == len(said.split()), reply.speech
            assert again.needed() == said.needed(), reply.speech
            for heard in range(len(said.split()) + 1):
                assert again.unheard(heard) == [about(fact) for fact in said.unheard(heard)], (reply.speech, heard)
                cut += bool(said.unheard(heard)) and heard > 0
    assert cut > 10  # replies whose facts a cut after a sentence leaves unheard: the probe tells them apart


class Written:
    """A braille display that keeps what is written on it."""

    width = 40
    lost = False
    rows: list[str]

    def __init__(self) -> None:
        self.rows = []

    def write(self, cells: str, cursor: int | None = None, frame: int = 0) -> None:
        self.rows.append(cells)

    def taken_back_anew(self) -> bool:
        return False

    def settling(self) -> bool:
        return False

    def close(self) -> None:
        pass


def shown(link: DisplayLink) -> tuple[list[str], list[str], tuple[str, ...]]:
    """What the display's model holds: the answer's lines as shown, the facts held, the answer whole."""
    view = link.view
    return [line.text for line in view.regions[Region.ANSWER]], [line.text for line in view.held], view.answer


@pytest.mark.parametrize("game", GAMES)
def test_the_braille_display_shows_a_reply_in_other_words_as_it_shows_the_original(game):
    replies, _ = played(game)
    session = table_session(load_card_set("uu-2nd"), load_cards=load_card_set)
    links = [DisplayLink(Written(), BrailleView(40), session) for _ in range(2)]  # type: ignore[arg-type]
    left_out = 0
    for reply in replies:
        links[0].render(reply)
        links[1].render(translated(reply))
        lines, held, whole = shown(links[0])
        other_lines, other_held, other_whole = shown(links[1])
        # (a link of the chain held apart is named by the words' own sentence around its names, in other words)
        named = {apart_words(piece): apart_words(segment(piece)) for piece in reply.segments if piece.link}
        assert other_lines == [named.get(line, rot(line)) for line in lines]
        assert other_whole == tuple(named.get(line, rot(line)) for line in whole)
        # the held facts: the same facts (a fact's words for the display are made from its values by
        # `words_for`, "Ben's turn." from its player, so a translated fact shows "Ora's turn.")
        original = [held_of(line, translate=True) for line in links[0].view.held]
        assert [held_of(line) for line in links[1].view.held] == original
        assert len(other_held) == len(held)
        left_out += len(whole) > len(lines) or any(rot(line) != rot(kept) for line, kept in zip(whole, lines))
        for link in links:  # read on: the next answer is the player's to read
            link.answered(link.view.frames)
            link.acknowledge()
    assert left_out > 5  # answers that left out what their held facts said: the probe tells them apart


def held_of(line, translate: bool = False) -> tuple[object, ...]:
    """A held fact's kind and the game's facts behind it (`braille.held.Fact.of`), in other words if `translate`."""
    fact = line.fact
    assert fact is not None
    return (fact.held, tuple(about(part) if translate and isinstance(part, About) else part for part in fact.of))


def rot_all(lines: tuple[str, ...]) -> tuple[str, ...]:
    return tuple(rot(line) for line in lines)


LINES = [
    "new game Ana Ben babies red pink win 4",
    "draw",
    "draw",  # the action phase's draw
    "draw",  # one more: "Ana already played or drew. Record anyway?", held until answered
    "yes",
    "end turn",  # "Ben's turn.": held, and told by the status line itself ("Turn 2: Ben's turn. ...")
    "help commands all",  # the command table: the app lists its own keys after it
]


def test_the_app_knows_help_and_an_answered_question_in_other_words(make_app):
    """The same lines, each reply shown by the app as the session made it, and in other words: the app adds its keys
    after the help reply, holds the question's fact until it is answered, and shows a held fact on the status line
    unless that line tells it already (a turn), the same for both."""

    async def run(render):
        app = make_app(Heard())
        seen = []
        async with app.run_test(size=(100, 60)) as pilot:
            for line in LINES:
                app.show(render(app.session.handle(line)))
                await pilot.pause()
                status = str(app.query_one("#status", Static).render()).splitlines()
                seen.append((app.held_facts, app.replies[-1].lines, len(status)))
        return seen

    original = asyncio.run(run(lambda reply: reply))
    other = asyncio.run(run(translated))
    asked, answered = original[3][0], original[4][0]
    assert asked and not answered  # the question held, then answered
    assert original[-1][1][-len(SCREEN_KEYS) :] == SCREEN_KEYS  # its keys after the command table
    assert original[3][2] == 2  # the question held on a line of its own under the status line
    assert original[5][0] and original[5][2] == 1  # the new turn held, and told by the status line itself
    for (held, lines, rows), (held_other, lines_other, rows_other) in zip(original, other):
        assert held_other == tuple(about(fact) for fact in held)
        assert rows_other == rows  # the status line tells the held turn itself, in any words
        keys = len(SCREEN_KEYS) if lines[-len(SCREEN_KEYS) :] == SCREEN_KEYS else 0
        assert lines_other[len(lines_other) - keys :] == lines[len(lines) - keys :]  # the app's own keys, as they are
        assert lines_other[: len(lines_other) - keys] == rot_all(lines[: len(lines) - keys])
